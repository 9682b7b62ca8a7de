"""Connect Four where its players and graders are: PettingZoo's ``connect_four_v3`` played from
the empty 7x6 board by two perfect policies, and the Kaggle ConnectX agent against a random
one in each seat on ConnectX's own shapes, with the time of every move against ConnectX's
``actTimeout`` (2 s).

    python benches/connect4_frameworks.py --pettingzoo-games 500 --connectx-games 50 --seed 1

* **pettingzoo**: whole games of ``PerfectPolicy`` against ``PerfectPolicy`` (skill 1, seeded
  per game, so the best moves drawn vary); every game must be the first player's win with the
  41st stone. Total and per-game time (one process, tables kept, as an evaluation loop runs).
* **connectx**: ``connectx_agent`` against uniformly random columns, half the games in each
  seat; every agent move is timed: median, p99 and the slowest, and how many went past
  ``actTimeout``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import pettingzoo

from perfectplay import connect4
from perfectplay.connectx import connectx_agent
from perfectplay.pettingzoo import PerfectPolicy


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def pettingzoo_games(count: int, seed: int) -> None:
    env = pettingzoo.make("aec", "classic/connect_four-v3")
    seconds: list[float] = []
    plies_seen: set[int] = set()
    first_wins = 0
    for game in range(count):
        started = time.perf_counter()
        env.reset(seed=seed + game)
        policy = PerfectPolicy(skill=1.0, seed=seed + game)
        rewards: dict[str, float] = {}
        plies = 0
        for agent in env.agent_iter():
            _, rewards[agent], termination, truncation, _ = env.last()
            plies += not (termination or truncation)
            env.step(policy(env.last()))
        seconds.append(time.perf_counter() - started)
        plies_seen.add(plies)
        first_wins += rewards["player_0"] == 1
    print(
        f"PettingZoo connect_four_v3, {count} perfect-against-perfect games from the empty "
        f"board: first player won {first_wins}, game lengths {sorted(plies_seen)} plies; "
        f"{sum(seconds):.1f} s in all, median {statistics.median(seconds) * 1000:.1f} ms a "
        f"game, slowest {max(seconds) * 1000:.1f} ms"
    )
    if first_wins != count or plies_seen != {41}:
        raise SystemExit("not every game was the first player's win in 41 plies")


def connectx_games(count: int, seed: int) -> None:
    rng = random.Random(seed)
    rows, columns = 6, 7
    configuration = {"rows": rows, "columns": columns, "inarow": 4, "actTimeout": 2}
    moves: list[float] = []
    results = {"won": 0, "drawn": 0, "lost": 0}
    for game in range(count):
        seat = 1 + game % 2
        board = [0] * (rows * columns)
        position = connect4.Position.empty(columns, rows)  # the referee: ConnectX's rules
        mark = 1
        while not position.is_over:
            if mark == seat:
                started = time.perf_counter()
                column = connectx_agent({"board": list(board), "mark": mark}, configuration)
                moves.append(time.perf_counter() - started)
            else:
                column = rng.choice(position.legal_moves)
            row = max(r for r in range(rows) if board[column + r * columns] == 0)
            board[column + row * columns] = mark
            position = position.play(column)
            mark = 3 - mark
        winner = {"x": 1, "o": 2}.get(position.winner or "", 0)
        results["won" if winner == seat else "lost" if winner else "drawn"] += 1
    late = sum(1 for took in moves if took > configuration["actTimeout"])
    print(
        f"ConnectX agent, {count} games against random (half in each seat): {results}; "
        f"{len(moves)} moves, median {statistics.median(moves) * 1000:.2f} ms, p99 "
        f"{percentile(moves, 0.99) * 1000:.1f} ms, slowest {max(moves) * 1000:.1f} ms, "
        f"{late} past actTimeout (2 s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pettingzoo-games", type=int, default=500)
    parser.add_argument("--connectx-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.pettingzoo_games:
        pettingzoo_games(args.pettingzoo_games, args.seed)
    if args.connectx_games:
        connectx_games(args.connectx_games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
