"""Labelling Connect Four positions with every column's value and plies: random mid-game 7x6
positions (15 to 28 stones of uniformly random play, Pons' middle stage; a game that ended on
the way stays as it ended), one ``connect4.batch_solve(..., moves=True)`` call on every core
against a loop of ``connect4.analyze`` calls on one thread. Both start from cleared tables and
keep them through their run, as a user's would; the answers must be equal.

    python benches/connect4_labelling.py --count 100000 --loop-count 100000 --seed 1

``--loop-count`` times the loop on the first positions only (the rate is per position). The
loop's time by stones tells where the time goes: on 7x6 the books answer every column of a row
of up to 13 stones, and a row of 14 searches its columns from the 14-ply book's bound.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from perfectplay import BatchSolution, connect4

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from tests_support import in_fresh_thread


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--loop-count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None, help="default: every core")
    parser.add_argument(
        "--plies", default="15,28", help="stones of random play, LOW,HIGH (default 15,28)"
    )
    args = parser.parse_args()
    low, high = (int(part) for part in args.plies.split(","))
    boards = connect4.random_positions(args.count, seed=args.seed, plies=(low, high))
    connect4.score("")  # the books loaded before the clocks start

    def batch() -> BatchSolution:
        return connect4.batch_solve(boards, moves=True, threads=args.threads, progress=True)

    start = time.perf_counter()
    labels = in_fresh_thread(batch)
    batch_seconds = time.perf_counter() - start
    assert labels.move_value is not None and labels.move_plies is not None

    loop_by_stones: dict[int, float] = {}

    def loop() -> list[dict[int, tuple[int, int]]]:
        connect4.clear_tables()
        analyses = []
        for board in boards[: args.loop_count]:
            start = time.perf_counter()
            analyses.append(connect4.analyze(board, threads=1))
            stones = int(np.count_nonzero(board))
            loop_by_stones[stones] = loop_by_stones.get(stones, 0.0) + time.perf_counter() - start
        return analyses

    start = time.perf_counter()
    analyses = in_fresh_thread(loop)
    loop_seconds = time.perf_counter() - start

    for row, analysis in enumerate(analyses):
        plies = labels.move_plies[row]
        expected = {
            col: (int(labels.move_value[row, col]), int(plies[col]))
            for col in np.flatnonzero(plies >= 0)
        }
        if analysis != expected:
            sys.exit(f"row {row}: batch {expected} but analyze {analysis}")

    batch_rate = args.count / batch_seconds
    loop_rate = len(analyses) / loop_seconds
    print(f"positions: {args.count:,} ({low} to {high} random stones, seed {args.seed})")
    print(f"batch_solve(moves=True): {batch_seconds:.1f} s, {batch_rate:,.0f} positions/s")
    print(
        f"loop of analyze ({len(analyses):,}): {loop_seconds:.1f} s, {loop_rate:,.0f} positions/s"
    )
    print(f"batch / loop, positions per second: {batch_rate / loop_rate:.2f}x")
    print(
        "loop's time by stones: "
        + ", ".join(f"{n}: {t:.2f} s" for n, t in sorted(loop_by_stones.items()) if t >= 0.01)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
