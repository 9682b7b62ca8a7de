"""How long the ConnectX agent takes a move, on boards with and without books, idle or with
busy processes beside it: ``python benches/connectx_clock.py [--busy N] [--games G]``. Each
game plays the agent against itself for its first eight moves with ``actTimeout`` 2 (Kaggle's
default); the figures are the median and slowest move of each board."""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from perfectplay.connectx import connectx_agent


def _spin() -> None:
    while True:
        pass


def _play(board: list[int], column: int, mark: int, columns: int, rows: int) -> None:
    row = max(r for r in range(rows) if board[column + r * columns] == 0)
    board[column + row * columns] = mark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--busy", type=int, default=0, help="busy processes beside the agent")
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    busy = [
        multiprocessing.get_context("spawn").Process(target=_spin, daemon=True)
        for _ in range(args.busy)
    ]
    for process in busy:
        process.start()
    try:
        for columns, rows in ((8, 7), (9, 6), (7, 6)):
            configuration = {"rows": rows, "columns": columns, "inarow": 4, "actTimeout": 2}
            times = []
            for _ in range(args.games):
                board = [0] * (rows * columns)
                for ply in range(8):
                    mark = 1 + ply % 2
                    began = time.perf_counter()
                    column = connectx_agent({"board": list(board), "mark": mark}, configuration)
                    times.append(time.perf_counter() - began)
                    _play(board, column, mark, columns, rows)
            print(
                f"{columns}x{rows}: {len(times)} moves, median {statistics.median(times):.3f} s, "
                f"slowest {max(times):.3f} s ({args.busy} busy processes)"
            )
    finally:
        for process in busy:
            process.terminate()


if __name__ == "__main__":
    main()
