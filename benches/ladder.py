"""The graded opponents' ladder: ``python benches/ladder.py [--games N] [--seed S] [GAME ...]``
plays every pair of players of each game (random play and ``GradedAgent`` levels 1 to 10)
``--games`` times, the first move alternating, on every core; fits Bradley-Terry ratings on the
Elo scale (random play at 0; a draw is half a win to each side; one virtual draw a pair keeps
an unbeaten player's rating finite) with 95% intervals from 200 bootstrap resamples of each
pair's games; and prints a Markdown table per game. It checks as it plays that level 10 never
plays a move outside ``best_moves``, and says for each adjacent pair of levels whether the
interval of their difference lies above zero.

``--calibrate GAME`` chooses a game's ``Position.LEVEL_TEMPERATURES`` instead: it plays a
softmax player (``perfectplay.agents.softmax_policy``) at each of ``TEMPERATURES`` and random
play ``--games`` times against perfect play (level 10), the first move alternating, takes each
one's Elo difference to perfect play from its score, made monotone in the temperature, and
prints the temperatures at which levels 1 to 9 are 9/10 to 1/10 of random play's difference
(interpolated on the logarithm of the temperature): levels evenly spaced from random play to
perfect play.

The boards: tic-tac-toe, (4,4,3) m,n,k, 7x6 Connect Four, and footholds on a full 4x4 board
with the pieces in opposite corners.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

PLAYERS = ["random", *(f"level {level}" for level in range(1, 11))]
GAMES = ("tictactoe", "mnk", "connect4", "footholds")


def start(game: str) -> Any:
    from perfectplay import connect4, footholds, mnk, tictactoe

    if game == "tictactoe":
        return tictactoe.Position()
    if game == "mnk":
        return mnk.Position.empty(4, 4, 3)
    if game == "connect4":
        return connect4.Position.empty(7, 6)
    return footholds.Position("1111/1111/1111/1111", (0, 0), (3, 3))


class Softmax:
    """A player drawing from ``softmax_policy`` at one temperature."""

    def __init__(self, temperature: float, seed: int) -> None:
        self.temperature, self.random = temperature, random.Random(seed)

    def move(self, position: Any) -> Any:
        from perfectplay.agents import softmax_policy

        policy = softmax_policy(position, self.temperature)
        moves = list(policy)
        return self.random.choices(moves, weights=[policy[move] for move in moves])[0]


def agent(player: str, seed: int) -> Any:
    """``random``, ``level N`` or ``temperature T``."""
    from perfectplay.agents import GradedAgent, RandomAgent

    kind, _, number = player.partition(" ")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "temperature":
        return Softmax(float(number), seed)
    return GradedAgent(int(number), seed=seed)


def play_pair(job: tuple[str, str, str, int, int]) -> tuple[str, str, list[float]]:
    """``games`` games of players ``a`` and ``b``: ``a``'s score in each (1, 1/2, 0)."""
    game, a, b, games, seed = job
    scores = []
    for index in range(games):
        agents = [agent(a, seed + 2 * index), agent(b, seed + 2 * index + 1)]
        here = start(game)
        first = here.to_move
        a_moves_first = index % 2 == 0
        ply = 0
        while not here.is_over:
            mover = 0 if (ply % 2 == 0) == a_moves_first else 1
            move = agents[mover].move(here)
            if (a, b)[mover] == "level 10" and move not in here.best_moves():
                raise AssertionError(f"level 10 played {move!r}, not a best move, in {here!r}")
            here = here.play(move)
            ply += 1
        if here.winner is None:
            scores.append(0.5)
        else:
            scores.append(1.0 if (here.winner == first) == a_moves_first else 0.0)
    return a, b, scores


def fit(wins: np.ndarray, prior: float = 0.5) -> np.ndarray:
    """Bradley-Terry strengths by Hunter's MM iteration from ``wins[i, j]`` (i's points
    against j), each pair given one virtual draw; Elo-scale ratings, the first player at 0."""
    n = len(wins)
    wins = wins + prior * (1 - np.eye(n))
    played = wins + wins.T
    total = wins.sum(axis=1)
    strength = np.ones(n)
    for _ in range(10_000):
        pair = strength[:, None] + strength[None, :]
        updated = total / (played / pair).sum(axis=1)
        updated /= updated[0]
        if np.max(np.abs(updated - strength) / strength) < 1e-10:
            strength = updated
            break
        strength = updated
    result: np.ndarray = 400 * np.log10(strength / strength[0])
    return result


def ladder(game: str, games: int, seed: int, workers: int) -> None:
    pairs = list(itertools.combinations(range(len(PLAYERS)), 2))
    jobs = [
        (game, PLAYERS[a], PLAYERS[b], games, seed + 1000 * index)
        for index, (a, b) in enumerate(pairs)
    ]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = [
            (PLAYERS.index(a), PLAYERS.index(b), scores)
            for a, b, scores in pool.map(play_pair, jobs)
        ]
    seconds = time.perf_counter() - began
    points = np.zeros((len(PLAYERS), len(PLAYERS)))
    for a, b, scores in results:
        points[a, b] += sum(scores)
        points[b, a] += len(scores) - sum(scores)
    ratings = fit(points)
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(200):
        resampled = np.zeros_like(points)
        for a, b, scores in results:
            drawn = rng.choice(scores, size=len(scores))
            resampled[a, b] += drawn.sum()
            resampled[b, a] += len(drawn) - drawn.sum()
        samples.append(fit(resampled))
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    steps = np.diff(np.array(samples), axis=1)
    step_low = np.percentile(steps, 2.5, axis=0)
    print(f"\n### {game}: {len(pairs)} pairs x {games} games, {seconds:.0f} s\n")
    print("| player | rating | 95% interval | score | step above the one below |")
    print("| --- | ---: | ---: | ---: | --- |")
    for index, player in enumerate(PLAYERS):
        score = points[index].sum() / ((len(PLAYERS) - 1) * games)
        step = "" if index == 0 else ("apart" if step_low[index - 1] > 0 else "**not apart**")
        print(
            f"| {player} | {ratings[index]:.0f} | {low[index]:.0f} to {high[index]:.0f} "
            f"| {score:.1%} | {step} |"
        )


#: The temperatures the calibration measures: 0.04 to about 80, each 1.3 times the one before.
TEMPERATURES = [0.04 * 1.3**step for step in range(30)]


def elo(score: float, games: int) -> float:
    """The Elo difference a score (kept a half game from 0 and 1) stands for."""
    score = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return 400 * math.log10(score / (1 - score))


def falling(values: list[float]) -> list[float]:
    """The closest non-increasing sequence (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight]
    for value in values:
        blocks.append([value, 1.0])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            (a, wa), (b, wb) = blocks.pop(-2), blocks.pop()
            blocks.append([(a * wa + b * wb) / (wa + wb), wa + wb])
    return [mean for mean, weight in blocks for _ in range(int(weight))]


def calibrate(game: str, games: int, seed: int, workers: int) -> None:
    players = ["random", *(f"temperature {t!r}" for t in TEMPERATURES)]
    jobs = [
        (game, player, "level 10", games, seed + 1000 * index)
        for index, player in enumerate(players)
    ]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        scores = [sum(result) / games for _, _, result in pool.map(play_pair, jobs)]
    seconds = time.perf_counter() - began
    to_random = elo(scores[0], games)
    measured = [elo(score, games) for score in scores[1:]]
    smooth = falling(measured)
    print(f"\n### {game}: {len(players)} players x {games} games against level 10, {seconds:.0f} s")
    print(f"random play: score {scores[0]:.3f}, {to_random:.0f} Elo")
    for t, score, d, m in zip(TEMPERATURES, scores[1:], measured, smooth, strict=True):
        print(f"T {t:8.3f}: score {score:.3f}, {d:6.0f} Elo (monotone {m:6.0f})")
    chosen = []
    for level in range(1, 10):
        target = to_random * (10 - level) / 10
        logs = [math.log(t) for t in TEMPERATURES]
        pick = TEMPERATURES[-1] if target < smooth[-1] else TEMPERATURES[0]
        for i in range(len(smooth) - 1):
            high, low = smooth[i], smooth[i + 1]
            if high >= target >= low and high > low:
                share = (high - target) / (high - low)
                pick = math.exp(logs[i] + share * (logs[i + 1] - logs[i]))
                break
        chosen.append(float(f"{pick:.3g}"))
    print(f"LEVEL_TEMPERATURES = {tuple(chosen)!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_to_rate", nargs="*", metavar="GAME", help=", ".join(GAMES))
    parser.add_argument("--games", type=int, default=20, help="games a pair (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--calibrate", action="store_true", help="choose the games' level temperatures"
    )
    options = parser.parse_args()
    unknown = set(options.games_to_rate) - set(GAMES)
    if unknown:
        parser.error(f"the games are {', '.join(GAMES)}, not {', '.join(sorted(unknown))}")
    for game in options.games_to_rate or GAMES:
        run = calibrate if options.calibrate else ladder
        run(game, options.games, options.seed, options.workers)


if __name__ == "__main__":
    main()
