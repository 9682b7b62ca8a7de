"""The figures the architecture must not slow down, timed through the public API only, so the
same file times any installed version (run it with one venv, then another, back to back):

    python benches/core_figures.py [--quick]

value(str); batch_values on 1,000,000 uint8 rows; footholds every placement on full 5x5
(625) and 6x6 (1,296) boards, cold (a fresh thread: nothing learnt before); the 7x7 placements
up to symmetry (325, as benches/footholds_boards.py 7); m,n,k (5,5,4) from the empty board,
cold. Prints the median of several rounds of each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

import numpy as np

from perfectplay import footholds, mnk, tictactoe

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from footholds_boards import placements
from tests_support import in_fresh_thread


def timed(work: Callable[[], object], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def report(name: str, seconds: list[float], unit: str, note: str = "") -> None:
    """The median and the best round: on a shared machine whose speed swings, the best round
    is the steadier measure of the code itself."""
    scale = {"ns": 1e9, "ms": 1e3}[unit]
    median, best = statistics.median(seconds) * scale, min(seconds) * scale
    print(f"{name:32} {median:10.2f} {unit}  best {best:10.2f} {unit} {note}".rstrip())


def every_placement(side: int) -> int:
    board = [[1] * side for _ in range(side)]
    cells = [(r, c) for r in range(side) for c in range(side)]
    return sum(footholds.total_moves(board, a, b) for a in cells for b in cells)


def one_per_class(side: int) -> int:
    board = [[1] * side for _ in range(side)]
    return sum(footholds.total_moves(board, a, b) for a, b in placements(side, distinct=True))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    quick = parser.parse_args().quick
    rounds = 1 if quick else 3

    calls = 200_000
    per_call = [
        timeit.timeit(lambda: tictactoe.value("xxo oo. x.."), number=calls) / calls
        for _ in range(7 * rounds)
    ]
    report("value(str)", per_call, "ns")

    rng = np.random.default_rng(1)
    codes = np.array(
        [
            [".xo".index(c) for c in board]
            for board in ("xxo.o.x..", ".........", "x........", "xo.......", "xxooxx.o.")
        ],
        dtype=np.uint8,
    )
    rows = codes[rng.integers(0, len(codes), 1_000_000)]
    report("batch_values, 1M uint8 rows", timed(lambda: tictactoe.batch_values(rows), 15), "ms")
    for side, count in ((5, 10), (6, 5)):
        seconds = timed(
            lambda side=side: in_fresh_thread(lambda: every_placement(side)),  # type: ignore[misc]
            count,
        )
        report(f"footholds {side}x{side}, all placements", seconds, "ms", "(cold)")
    seconds = timed(lambda: in_fresh_thread(lambda: one_per_class(7)), rounds)
    report("footholds 7x7, 325 placements", seconds, "ms", "(cold)")
    seconds = timed(lambda: in_fresh_thread(lambda: mnk.solve_empty(5, 5, 4)), 3 * rounds)
    report("mnk (5,5,4) from empty", seconds, "ms", "(cold)")


if __name__ == "__main__":
    main()
