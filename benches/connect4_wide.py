"""Connect Four past 64 bits: every position of the shared test data (10x6, 8x8 and 7x9, and
9x5 within 64 bits; tests/data/connect4_wide.txt, scored by an independent solver), deepest
first, each checked against its score; the seconds of each and in all. The tables are kept
between positions, as Steininger's solver keeps them.

    python benches/connect4_wide.py --threads 2 --table-mb 1024
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from perfectplay import connect4

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4_wide.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--table-mb", type=int, default=1024)
    options = parser.parse_args()
    rows = [line.split() for line in DATA.read_text().splitlines()]
    rows.sort(key=lambda row: -len(row[2].split(",")))
    times: dict[str, list[float]] = {}
    wrong = 0
    for width, height, moves, expected in rows:
        columns = [int(col) for col in moves.split(",")]
        start = time.perf_counter()
        score = connect4.score(
            columns,
            width=int(width),
            height=int(height),
            threads=options.threads,
            table_mb=options.table_mb,
        )
        seconds = time.perf_counter() - start
        wrong += score != int(expected)
        times.setdefault(f"{width}x{height}", []).append(seconds)
        print(
            f"{width}x{height} {len(columns):2} stones: {score:3} ({expected:>3}) {seconds:.3f} s"
        )
    for size, spent in sorted(times.items()):
        print(f"{size}: {len(spent)} positions, {sum(spent):.2f} s, slowest {max(spent):.2f} s")
    print(f"{len(rows) - wrong} of {len(rows)} right, {sum(map(sum, times.values())):.2f} s in all")
    if wrong:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
