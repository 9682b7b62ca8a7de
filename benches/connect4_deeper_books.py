"""What a 7x6 book one or two stones deeper than the 12-ply book would take to build here.

Samples positions the way such a book would hold them (13 stones: the children of random
12-ply book entries; 14 stones: their grandchildren; nobody has won, the side to move cannot
win at once, one of each mirror pair), solves them with ``batch_solve`` on every core (the
books read, as a builder would), and scales the mean by the number of positions at that ply:
John Tromp's counts of legal positions (OEIS A212693) times the share the 12-ply book keeps of
its own ply (4,200,899 of 12,236,101). Needs bitbully-databases (the default install has it).

    python benches/connect4_deeper_books.py --entries 300 --sample 2000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from perfectplay import connect4
from perfectplay.connect4 import openings

#: Legal 7x6 positions after 12, 13 and 14 stones (OEIS A212693, John Tromp).
LEGAL = {12: 12_236_101, 13: 30_929_111, 14: 75_437_595}
#: The 12-ply book's entries: the share of its ply a book of this format keeps.
KEPT = 4_200_899 / LEGAL[12]
#: Bytes an entry takes in the 12-ply book's format (a 4-byte key and a score).
ENTRY_BYTES = 5


def book_children(positions: list[connect4.Position]) -> list[connect4.Position]:
    """The distinct children a book of the next ply would hold."""
    seen: set[bytes] = set()
    children = []
    for position in positions:
        for column in position.legal_moves:
            child = position.play(column)
            if child.is_over or any(child.play(m).winner for m in child.legal_moves):
                continue
            board = child.to_array()
            key = min(board.tobytes(), board[:, ::-1].tobytes())
            if key not in seen:
                seen.add(key)
                children.append(child)
    return children


def timed(positions: list[connect4.Position], threads: int) -> float:
    """CPU seconds a position (wall time times threads) of ``batch_solve``."""
    boards = np.stack([position.to_array() for position in positions])
    start = time.perf_counter()
    connect4.batch_solve(boards, threads=threads)
    return (time.perf_counter() - start) * threads / len(positions)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=300, help="12-ply book entries sampled")
    parser.add_argument("--sample", type=int, default=2000, help="positions solved a ply")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if openings.deep_path() is None:
        print("bitbully-databases is not installed: nothing to sample", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    codes = openings.deep().codes
    start = connect4.Position.start()
    ply = [
        start.with_board(np.array(openings._deep_board(int(codes[index])), dtype=np.uint8))
        for index in rng.sample(range(len(codes)), args.entries)
    ]
    connect4.score("")  # the books loaded before any clock starts
    total_hours = total_bytes = 0.0
    for stones in (13, 14):
        ply = book_children(ply)
        sample = rng.sample(ply, min(args.sample, len(ply)))
        seconds = timed(sample, args.threads)
        count = LEGAL[stones] * KEPT
        hours = count * seconds / 3600
        total_hours += hours
        total_bytes += count * ENTRY_BYTES
        print(
            f"{stones} stones: {len(sample)} positions, {seconds * 1e3:.2f} CPU-ms each; "
            f"about {count / 1e6:.1f} M in a book: {hours:.1f} CPU-hours "
            f"({hours / args.threads:.1f} h on {args.threads} cores), "
            f"{count * ENTRY_BYTES / 1e6:.0f} MB",
            flush=True,
        )
    print(
        f"both: {total_hours:.1f} CPU-hours ({total_hours / args.threads:.1f} h on "
        f"{args.threads} cores), {total_bytes / 1e6:.0f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
