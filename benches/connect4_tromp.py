"""John Tromp's 8-ply Connect Four set (the UCI "connect-4" data set), rebuilt and labelled.

    python benches/connect4_tromp.py

The set: every 7x6 position of 8 stones (x to move) where nobody has won and the next move is
not forced: x cannot win at once and o has no cell that would win at once. 134,934 positions,
67,557 once a mirror image is dropped (the UCI set keeps one of each pair). Each is labelled
by ``connect4.batch_solve`` on every core with the default books (its searches stop at the
12-ply book), then with ``value`` alone in a loop; the counts of wins, draws and losses for x
are printed beside the UCI set's published ones (44,473 / 6,449 / 16,635).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from perfectplay import connect4
from perfectplay.connect4.rules import Shape, codes_of

UCI = {"win": 44_473, "draw": 6_449, "loss": 16_635}


def tromp_positions() -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """Every qualifying 8-stone position, and those of them kept once per mirror pair."""
    shape = Shape(7, 6)
    level = {shape.key((0, 0, 0)): (0, 0, 0)}
    for _ in range(8):
        following: dict[int, tuple[int, int, int]] = {}
        for position in level.values():
            for column in shape.moves(position):
                child = shape.play(position, column)
                if not shape.is_won(child):
                    following.setdefault(shape.key(child), child)
        level = following
    kept = []
    for position in level.values():
        landing = shape.landing(position)
        theirs = position[0] ^ position[1]
        threat = any(
            shape.has_four(theirs | (landing & shape.column(col)))
            for col in range(7)
            if landing & shape.column(col)
        )
        if not threat and not shape.wins_now(position):
            kept.append(position)
    once = {shape.book_key(position): position for position in kept}
    return kept, list(once.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=None, help="default: every core")
    parser.add_argument("--skip-loop", action="store_true", help="time the batch only")
    args = parser.parse_args()
    start = time.perf_counter()
    both, once = tromp_positions()
    print(
        f"rebuilt in {time.perf_counter() - start:.1f} s: {len(both):,} positions, "
        f"{len(once):,} once per mirror pair"
    )
    shape = Shape(7, 6)
    boards = np.array([codes_of(shape, p) for p in once], dtype=np.uint8).reshape(-1, 6, 7)
    connect4.score("")  # the books loaded before the clock starts
    start = time.perf_counter()
    labels = connect4.batch_solve(boards, threads=args.threads, progress=True)
    batch = time.perf_counter() - start
    counts = {
        "win": int((labels.value == 1).sum()),
        "draw": int((labels.value == 0).sum()),
        "loss": int((labels.value == -1).sum()),
    }
    print(
        f"batch_solve of {len(once):,} positions: {batch:.1f} s "
        f"({len(once) / batch:,.0f} positions/s); x {counts} (UCI: {UCI})"
    )
    if not args.skip_loop:
        start = time.perf_counter()
        values = [connect4.value(board) for board in boards]
        loop = time.perf_counter() - start
        assert values == labels.value.tolist()
        print(f"loop of connect4.value, one thread: {loop:.1f} s ({len(once) / loop:,.0f}/s)")
    return 0 if counts == UCI else 1


if __name__ == "__main__":
    sys.exit(main())
