"""What a 7x6 book one or two stones deeper than the 12-ply book would take to build here.

Samples positions the way such a book would hold them (13 stones: the children of random
12-ply book entries; 14 stones: the children of random ones of those; nobody has won, the side
to move cannot win at once, one of each mirror pair), solves them as a builder would (the
books read; a parent's children one after the other on one thread, the table kept, so that
siblings share what they learn), and scales the mean by the number of positions at that ply:
John Tromp's counts of legal positions (OEIS A212693) times the share the 12-ply book keeps of
its own ply (4,200,899 of 12,236,101). A build on every core would run a share of the parents
on each. ``batch_solve`` of the same positions, shuffled, is timed beside it. Needs
bitbully-databases (the default install has it). ``--enumerate`` counts the 13-ply book's
positions instead: every distinct child of every 12-ply entry.

    python benches/connect4_deeper_books.py --parents 300 --seed 1 --enumerate
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

import numpy as np

from perfectplay import connect4
from perfectplay.connect4 import book13, deep_book, openings

#: Legal 7x6 positions after 12, 13 and 14 stones (OEIS A212693, John Tromp).
LEGAL = {12: 12_236_101, 13: 30_929_111, 14: 75_437_595}
#: The 12-ply book's entries: the share of its ply a book of this format keeps.
KEPT = 4_200_899 / LEGAL[12]
#: Bytes an entry takes in the 12-ply book's format (a 4-byte key and a score).
ENTRY_BYTES = 5


def book_children(positions: list[connect4.Position]) -> list[connect4.Position]:
    """The distinct children a book of the next ply would hold, a parent's together."""
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


def count_children(codes: np.ndarray, processes: int) -> int:
    """How many positions a 13-ply book holds: the children of every 12-ply entry."""
    with multiprocessing.Pool(processes) as pool:
        parts = pool.map(book13.children_keys, np.array_split(codes, 64))
    keys = np.concatenate(parts).reshape(-1)
    return len(np.unique(keys[keys != 0]))


def in_a_loop(boards: np.ndarray) -> float:
    """Seconds a position of ``connect4.score`` on one thread, in order, the table kept."""
    connect4.clear_tables()
    start = time.perf_counter()
    for board in boards:
        connect4.score(board, threads=1)
    return (time.perf_counter() - start) / len(boards)


def in_a_batch(boards: np.ndarray, threads: int, seed: int) -> float:
    """CPU seconds a position (wall time times threads) of ``batch_solve``, shuffled."""
    shuffled = boards[np.random.default_rng(seed).permutation(len(boards))]
    start = time.perf_counter()
    connect4.batch_solve(shuffled, threads=threads)
    return (time.perf_counter() - start) * threads / len(boards)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--parents", type=int, default=300, help="random parents sampled at each ply"
    )
    parser.add_argument("--threads", type=int, default=2, help="the batch's and the build's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--enumerate",
        action="store_true",
        help="count the 13-ply book's positions instead of estimating them (about 2 min)",
    )
    args = parser.parse_args()
    if openings.deep_path() is None:
        print("bitbully-databases is not installed: nothing to sample", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    codes = openings.deep().codes
    start = connect4.Position.start()
    parents = [
        start.with_board(np.array(deep_book._deep_board(int(codes[index])), dtype=np.uint8))
        for index in rng.sample(range(len(codes)), args.parents)
    ]
    counts = {stones: LEGAL[stones] * KEPT for stones in (13, 14)}
    if args.enumerate:
        start_time = time.perf_counter()
        counts[13] = count_children(codes, args.threads)
        print(
            f"13 stones: {counts[13]:,} positions, the children of every 12-ply entry "
            f"({time.perf_counter() - start_time:.0f} s on {args.threads} processes)"
        )
    connect4.score("")  # the books loaded before any clock starts
    total_hours = total_bytes = 0.0
    for stones in (13, 14):
        children = book_children(parents)
        boards = np.stack([child.to_array() for child in children])
        seconds = in_a_loop(boards)
        batch = in_a_batch(boards, args.threads, args.seed)
        count = counts[stones]
        hours = count * seconds / 3600
        total_hours += hours
        total_bytes += count * ENTRY_BYTES
        print(
            f"{stones} stones: {len(boards)} positions, {seconds * 1e3:.2f} ms each in order "
            f"({batch * 1e3:.2f} CPU-ms shuffled in a batch); about {count / 1e6:.1f} M in a "
            f"book: {hours:.1f} CPU-hours ({hours / args.threads:.1f} h on {args.threads} "
            f"cores), {count * ENTRY_BYTES / 1e6:.0f} MB",
            flush=True,
        )
        parents = rng.sample(children, min(args.parents, len(children)))
    print(
        f"both: {total_hours:.1f} CPU-hours ({total_hours / args.threads:.1f} h on "
        f"{args.threads} cores), {total_bytes / 1e6:.0f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
