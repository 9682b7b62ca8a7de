"""Long footholds runs: every placement of A and B on a full board, timed one by one.

    python benches/footholds_boards.py 7          # 7x7, placements up to the 8 symmetries
    python benches/footholds_boards.py 6 --all    # 6x6, all 1,296 placements
    python benches/footholds_boards.py 8 --threads 2

Prints a progress line to standard error as it goes and a summary line at the end: total time,
slowest placement, nodes. The placements of a square board that a rotation or reflection maps
onto each other have the same answer, so by default one of each class is solved. With
``--threads N`` the placements are shared among N threads (the solver releases the GIL); the
summary gives the wall time and the sum of the single solves.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor

Cell = tuple[int, int]


def symmetries(n: int) -> list[tuple[Cell, ...]]:
    """The 8 symmetries of an n x n board, each as the image of every cell."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    maps = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                image = []
                for r, c in cells:
                    if transpose:
                        r, c = c, r
                    image.append((n - 1 - r if flip_rows else r, n - 1 - c if flip_cols else c))
                maps.append(tuple(image))
    return maps


def placements(n: int, distinct: bool) -> list[tuple[Cell, Cell]]:
    """Every (A, B) placement on the full board, or one of each symmetry class."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    if not distinct:
        return [(a, b) for a in cells for b in cells]
    maps = symmetries(n)
    chosen = []
    for a in cells:
        for b in cells:
            images = [(m[a[0] * n + a[1]], m[b[0] * n + b[1]]) for m in maps]
            if (a, b) == min(images):
                chosen.append((a, b))
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("size", type=int, help="side of the full square board")
    parser.add_argument("--all", action="store_true", help="every placement, not one per class")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--backend", choices=("rust", "python"), default="rust")
    parser.add_argument(
        "--total", action="store_true", help="total_moves (the judge's answer) instead of solve"
    )
    args = parser.parse_args()

    from perfectplay._kernel.backend import implementation

    api = implementation("footholds", args.backend)
    board = [[1] * args.size for _ in range(args.size)]
    todo = placements(args.size, distinct=not args.all)

    def solve(placement: tuple[Cell, Cell]) -> tuple[float, int, int]:
        start = time.perf_counter()
        if args.total:
            moves = api.total_moves(board, *placement)
            return time.perf_counter() - start, moves, 0
        solution = api.solve(board, *placement)
        return time.perf_counter() - start, solution.plies, solution.nodes

    started = time.perf_counter()
    results = []
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        for done, (placement, result) in enumerate(
            zip(todo, pool.map(solve, todo), strict=True), start=1
        ):
            results.append((result[0], placement, result[1], result[2]))
            if done % max(1, len(todo) // 20) == 0 or done == len(todo):
                print(
                    f"  {done}/{len(todo)} placements, {time.perf_counter() - started:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
    wall = time.perf_counter() - started
    slowest = max(results)
    print(
        f"{args.size}x{args.size} full board, {len(todo)} placements"
        f"{'' if args.all else ' (one per symmetry class)'}, {args.backend} "
        f"{'total_moves' if args.total else 'solve'}, "
        f"{args.threads} thread(s): wall {wall:.2f} s, sum of solves "
        f"{sum(r[0] for r in results):.2f} s, slowest {slowest[0] * 1000:.1f} ms at "
        f"A={slowest[1][0]} B={slowest[1][1]}"
        + ("" if args.total else f", nodes {sum(r[3] for r in results):,}")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
