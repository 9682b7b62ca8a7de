"""The batch benchmarks (report, never assert): medians of a few rounds, ratios within one run.

    python benches/batch_figures.py [--quick]

* 100,000 random legal 4x4 k=4 positions (random games of random length stopping at a win):
  mnk.batch_solve with threads=2 against a loop of mnk.solve.
* threads=1 against threads=2: 20,000 random 5x5 k=4 positions with 8-14 marks, and 10,000
  random 6x6 footholds boards with holes (a foothold is a hole with probability 0.2).
* tictactoe.batch_solve on 1,000,000 uint8 rows, without and with moves.
Each batch runs in a fresh thread, so no table learnt by an earlier round answers it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay import footholds, mnk, tictactoe

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from conformance import _windows
from tests_support import in_fresh_thread


def random_game(rng: random.Random, side: int, k: int, fewest: int, most: int) -> str:
    """Random moves from the empty board, a random number of them, stopping at a win."""
    cells, windows = side * side, _windows(side, side, k)
    while True:
        order = rng.sample(range(cells), cells)
        marks, length = ["."] * cells, rng.randint(fewest, most)
        played = 0
        for turn, cell in enumerate(order[:length]):
            marks[cell] = "x" if turn % 2 == 0 else "o"
            played = turn + 1
            if any(all(marks[c] == marks[cell] for c in w) for w in windows if cell in w):
                break
        if played >= fewest:
            return "/".join("".join(marks[r * side : (r + 1) * side]) for r in range(side))


def footholds_games(rng: random.Random, count: int) -> tuple[Any, Any, Any]:
    boards: list[list[list[int]]] = []
    alocs: list[tuple[int, int]] = []
    blocs: list[tuple[int, int]] = []
    while len(boards) < count:
        board = [[int(rng.random() >= 0.2) for _ in range(6)] for _ in range(6)]
        cells = [(r, c) for r in range(6) for c in range(6) if board[r][c]]
        if cells:
            boards.append(board)
            alocs.append(rng.choice(cells))
            blocs.append(rng.choice(cells))
    return np.array(boards, np.int8), np.array(alocs), np.array(blocs)


def median(work: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        in_fresh_thread(work)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a tenth of the positions")
    scale = 10 if parser.parse_args().quick else 1
    rng = random.Random(2026)

    boards = [random_game(rng, 4, 4, 0, 16) for _ in range(100_000 // scale)]
    loop = median(lambda: [mnk.solve(board, 4) for board in boards], 1)
    batch = median(lambda: mnk.batch_solve(boards, 4, threads=2), 3)
    print(f"4x4 k=4, {len(boards):,} positions: loop of solve {loop:.2f} s, batch_solve "
          f"threads=2 {batch:.2f} s: {loop / batch:.1f}x")  # fmt: skip

    boards = [random_game(rng, 5, 4, 8, 14) for _ in range(20_000 // scale)]
    one = median(lambda: mnk.batch_solve(boards, 4, threads=1), 1)
    two = median(lambda: mnk.batch_solve(boards, 4, threads=2), 1)
    print(f"5x5 k=4, {len(boards):,} positions with 8-14 marks: threads=1 {one:.2f} s, "
          f"threads=2 {two:.2f} s: {one / two:.2f}x")  # fmt: skip

    games = footholds_games(rng, 10_000 // scale)
    one = median(lambda: footholds.batch_solve(*games, threads=1), 3)
    two = median(lambda: footholds.batch_solve(*games, threads=2), 3)
    print(f"footholds 6x6 with holes, {len(games[0]):,} games: threads=1 {one:.3f} s, "
          f"threads=2 {two:.3f} s: {one / two:.2f}x")  # fmt: skip

    codes = np.array([[".xo".index(c) for c in random_game(rng, 3, 3, 0, 9).replace("/", "")]
                      for _ in range(5000)], np.uint8)  # fmt: skip
    rows = codes[np.random.default_rng(1).integers(0, len(codes), 1_000_000)]
    for moves in (False, True):

        def label(moves: bool = moves) -> object:
            return tictactoe.batch_solve(rows, moves=moves)

        seconds = median(label, 9)
        print(f"tictactoe.batch_solve, 1,000,000 uint8 rows, moves={moves}: "
              f"{seconds * 1e3:.1f} ms, {1 / seconds:.0f} M rows/s")  # fmt: skip


if __name__ == "__main__":
    main()
