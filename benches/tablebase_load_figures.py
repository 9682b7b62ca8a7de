"""The cost of a tablebase's first answer after ``load``: reading the entries into memory and
checking them (checksums, a sample against the rules), with the file in the page cache.

    python benches/tablebase_load_figures.py FILE BOARD [--runs 7]

e.g. ``perfectplay tablebase build 4x4 4 -o 444.tb`` then
``python benches/tablebase_load_figures.py 444.tb x.../..../..../....``. Prints the median of
``--runs`` timings of ``tablebase.load(FILE).solve(BOARD)`` (one untimed run first, to warm
the page cache).
"""

from __future__ import annotations

import argparse
import statistics
import time

from perfectplay import tablebase


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("board")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    tablebase.load(args.file).solve(args.board)
    runs = []
    for _ in range(args.runs):
        started = time.perf_counter()
        tablebase.load(args.file).solve(args.board)
        runs.append(time.perf_counter() - started)
    median = statistics.median(runs)
    print(f"{args.file}: load + first answer, median of {args.runs}: {1000 * median:.1f} ms")


if __name__ == "__main__":
    main()
