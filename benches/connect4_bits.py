"""What a 128-bit board costs on a board 64 bits hold: the same positions scored by the one
search on ``u64`` (what ``connect4.score`` picks there) and on ``u128`` (what it picks past 64
bits), without a book, each position from cleared tables.

    python benches/connect4_bits.py [--boards 7x6,8x6,6x7] [--positions 40] [--rounds 3]
                                    [--threads 1] [--table-mb 256]

Each round runs both integers in turn, each in a fresh process (a core built with the
``testing`` feature: ``perfectplay._core._testing``), on random positions of each board whose
search takes a fraction of a second; it prints each round's seconds, the medians and the ratio
128 / 64. Every score of one integer is checked against the other's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from typing import Any

CHILD = """
import json, sys, time
from perfectplay import connect4
from perfectplay._core import _testing
width, height, bits, threads, table_mb = map(int, sys.argv[1:6])
positions = json.loads(sys.stdin.read())
size = {"width": width, "height": height, "threads": threads, "table_mb": table_mb}
score = connect4.score if bits == 64 else _testing.connect4_score_on_128_bits
scores, seconds = [], 0.0
for position in positions:
    connect4.clear_tables()
    began = time.perf_counter()
    scores.append(score(position, book=None, **size) if bits == 64 else score(position, **size))
    seconds += time.perf_counter() - began
print(json.dumps({"seconds": seconds, "scores": scores}))
"""

#: Stones of the positions of each board: where a search from cleared tables takes about a
#: tenth of a second.
PLIES = {(7, 6): (8, 10), (8, 6): (12, 14), (6, 7): (8, 10)}


def run(width: int, height: int, bits: int, positions: list[list[int]], args: Any) -> Any:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            *map(str, (width, height, bits, args.threads, args.table_mb)),
        ],
        input=json.dumps(positions),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", default="7x6,8x6,6x7")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--table-mb", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from perfectplay import connect4

    for board in args.boards.split(","):
        width, height = map(int, board.split("x"))
        codes = connect4.random_positions(
            args.positions,
            width=width,
            height=height,
            seed=args.seed,
            plies=PLIES.get((width, height), (12, 14)),
            ongoing=True,
        )
        positions = [rows.tolist() for rows in codes]
        times: dict[int, list[float]] = {64: [], 128: []}
        for round_ in range(args.rounds):
            found = {bits: run(width, height, bits, positions, args) for bits in (64, 128)}
            if found[64]["scores"] != found[128]["scores"]:
                raise SystemExit(f"{board}: the integers' scores differ")
            for bits in (64, 128):
                times[bits].append(found[bits]["seconds"])
            print(
                f"{board} round {round_ + 1}: 64 bits {found[64]['seconds']:.3f} s, "
                f"128 bits {found[128]['seconds']:.3f} s",
                flush=True,
            )
        narrow, wide = statistics.median(times[64]), statistics.median(times[128])
        print(
            f"{board}: {len(positions)} positions, medians 64 bits {narrow:.3f} s, "
            f"128 bits {wide:.3f} s: 128 / 64 = {wide / narrow:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
