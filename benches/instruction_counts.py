"""Instructions executed per figure of benches/core_figures.py, counted by valgrind's callgrind:
a measure that a shared machine's noisy clock cannot move, for "is it slower?" questions.

    python benches/instruction_counts.py OLD_PYTHON NEW_PYTHON

Each figure runs in its own process under callgrind, once with the work and once with its
setup alone (the same hash seed in both); the difference, divided by the repetitions, is the
count for one operation.
Needs valgrind (Debian package ``valgrind``). Takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

GAMES = """
from perfectplay import footholds, mnk, tictactoe
tictactoe.value("x........")
"""
ARRAYS = (
    GAMES
    + """
import numpy as np
rows = np.array([[1, 1, 2, 0, 2, 0, 1, 0, 0], [0] * 9, [1] + [0] * 8], np.uint8)
rows = rows[np.arange(1_000_000) % 3]
"""
)
PLACEMENTS = (
    GAMES
    + """
def every_placement(side):
    board = [[1] * side for _ in range(side)]
    cells = [(r, c) for r in range(side) for c in range(side)]
    return sum(footholds.total_moves(board, a, b) for a in cells for b in cells)
"""
)

BOOKED = """
import random
from perfectplay import connect4
rng = random.Random(5)
texts = []
while len(texts) < 300:
    text = "".join(str(rng.randint(1, 7)) for _ in range(rng.randint(4, 11)))
    try:
        connect4.is_reachable(text)
    except ValueError:
        continue
    texts.append(text)
connect4.score("4")  # the books read
"""

# (figure, setup, work, repetitions of one operation in the work)
FIGURES = [
    ("value(str)", GAMES, "for _ in range(300_000): tictactoe.value('xxo oo. x..')", 300_000),
    ("batch_values, 1M uint8 rows", ARRAYS, "for _ in range(3): tictactoe.batch_values(rows)", 3),
    ("footholds 5x5, all 625 placements", PLACEMENTS, "every_placement(5)", 1),
    ("footholds 6x6, all 1,296 placements", PLACEMENTS, "every_placement(6)", 1),
    ("mnk (5,5,4) from empty", GAMES, "mnk.solve_empty(5, 5, 4)", 1),
    (
        "connect4 7x6 score, books, 4-11 stones",
        BOOKED,
        "for text in texts: connect4.score(text, threads=1)",
        300,
    ),
]


def instructions(python: str, code: str) -> int:
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        # A fixed hash seed: with a random one, start-up alone varies by millions of
        # instructions from process to process.
        # BLAS threads spin for a varying while under valgrind: one thread.
        env=dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1"),
    )
    match = re.search(r"Collected : (\d+)", result.stderr)
    if match is None:
        raise SystemExit(f"no instruction count from valgrind:\n{result.stderr[-2000:]}")
    return int(match[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    args = parser.parse_args()
    print(f"{'figure':36} {'old':>16} {'new':>16} {'new/old':>8}")
    for name, setup, work, repetitions in FIGURES:
        counts = []
        for python in (args.old, args.new):
            base = instructions(python, setup)
            counts.append((instructions(python, setup + work) - base) / repetitions)
        print(f"{name:36} {counts[0]:16,.0f} {counts[1]:16,.0f} {counts[1] / counts[0]:8.3f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
