"""The graded opponents' ladder: ``python benches/ladder.py [--games N] [--seed S] [GAME ...]``
plays every pair of players of each game (random play and ``GradedAgent`` levels 1 to 10)
``--games`` times, the first move alternating, on every core; fits Bradley-Terry ratings on the
Elo scale (random play at 0; a draw is half a win to each side; one virtual draw a pair keeps
an unbeaten player's rating finite) with 95% intervals from 200 bootstrap resamples of each
pair's games; and prints a Markdown table per game. It checks as it plays that level 10 never
plays a move outside ``best_moves``, and says for each adjacent pair of levels whether the
interval of their difference lies above zero.

The boards: tic-tac-toe, (4,4,3) m,n,k, 7x6 Connect Four, and footholds on a full 4x4 board
with the pieces in opposite corners.
"""

from __future__ import annotations

import argparse
import itertools
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


def agent(player: str, seed: int) -> Any:
    from perfectplay.agents import GradedAgent, RandomAgent

    if player == "random":
        return RandomAgent(seed)
    return GradedAgent(int(player.split()[1]), seed=seed)


def play_pair(job: tuple[str, int, int, int, int]) -> tuple[int, int, list[float]]:
    """``games`` games of players ``a`` and ``b``: ``a``'s score in each (1, 1/2, 0)."""
    game, a, b, games, seed = job
    scores = []
    for index in range(games):
        agents = [agent(PLAYERS[a], seed + 2 * index), agent(PLAYERS[b], seed + 2 * index + 1)]
        here = start(game)
        first = here.to_move
        a_moves_first = index % 2 == 0
        ply = 0
        while not here.is_over:
            mover = 0 if (ply % 2 == 0) == a_moves_first else 1
            move = agents[mover].move(here)
            if PLAYERS[(a, b)[mover]] == "level 10" and move not in here.best_moves():
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
    jobs = [(game, a, b, games, seed + 1000 * index) for index, (a, b) in enumerate(pairs)]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play_pair, jobs))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_to_rate", nargs="*", metavar="GAME", help=", ".join(GAMES))
    parser.add_argument("--games", type=int, default=20, help="games a pair (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    unknown = set(options.games_to_rate) - set(GAMES)
    if unknown:
        parser.error(f"the games are {', '.join(GAMES)}, not {', '.join(sorted(unknown))}")
    for game in options.games_to_rate or GAMES:
        ladder(game, options.games, options.seed, options.workers)


if __name__ == "__main__":
    main()
