"""Whole 7x6 Connect Four games from the empty board: the perfect agent (the packaged opening
book, every core) against a uniformly random one in each seat, and against itself. Prints the
results and the time the perfect side spent choosing its moves in each game (median, mean,
slowest), and the slowest single move.

    python benches/connect4_games.py --games 500 --perfect-games 4
"""

from __future__ import annotations

import argparse
import statistics
import time

from perfectplay import connect4
from perfectplay.agents import PerfectAgent, RandomAgent

Player = PerfectAgent | RandomAgent


def play(
    players: tuple[Player, Player], timed: tuple[bool, bool]
) -> tuple[str | None, int, float, float]:
    """One game: (winner, stones played, seconds the timed seats spent, slowest timed move)."""
    position = connect4.Position.empty()
    spent = slowest = 0.0
    while not position.is_over:
        seat = position.played % 2
        start = time.perf_counter()
        move = players[seat].move(position)
        took = time.perf_counter() - start
        if timed[seat]:
            spent += took
            slowest = max(slowest, took)
        position = position.play(move)
    return position.winner, position.played, spent, slowest


def report(name: str, games: list[tuple[str | None, int, float, float]], losses: int) -> None:
    spent = [game[2] for game in games]
    print(
        f"| {name} | {len(games)} | {losses} | {statistics.median(spent):.3f} s | "
        f"{statistics.fmean(spent):.3f} s | {max(spent):.2f} s | {max(g[3] for g in games):.2f} s |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games against random per seat")
    parser.add_argument("--perfect-games", type=int, default=4, help="perfect against perfect")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| perfect side | games | lost | median a game | mean | slowest game | slowest move |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for seat, name in enumerate(("first (x)", "second (o)")):
        games = []
        for game in range(args.games):
            perfect = PerfectAgent(seed=args.seed + game)
            other = RandomAgent(seed=-args.seed - game)
            players: tuple[Player, Player] = (perfect, other) if seat == 0 else (other, perfect)
            games.append(play(players, (seat == 0, seat == 1)))
        lost = sum(winner is not None and winner != "xo"[seat] for winner, *_ in games)
        report(name, games, lost)
    games = []
    for game in range(args.perfect_games):
        both = (PerfectAgent(seed=args.seed + game), PerfectAgent(seed=-args.seed - game))
        games.append(play(both, (True, True)))
    wrong = sum((winner, stones) != ("x", 41) for winner, stones, *_ in games)
    if games:
        report("both (x must win with the 41st stone)", games, wrong)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
