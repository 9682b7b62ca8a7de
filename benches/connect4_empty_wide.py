"""Empty Connect Four boards past 64 bits, solved from scratch (no book) and checked against
the published results: the outcome and the move on which the game ends with perfect play, as
Steininger's c4 README tables them (Tromp's 8x8, 2015, agrees). Each board runs in a fresh
process, stopped after `--timeout` seconds; the smallest boards first.

    python benches/connect4_empty_wide.py --threads 2 --table-mb 4096 --timeout 3300 --boards 5x12

Pons' score of the empty board gives both: a win with the stone of move `m` scores
(cells + 2 - m) // 2 for the winner (negative when it is the second player's), a draw 0 (the
game ends on the last cell).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

# (width, height): (winner, the move the game ends on), from Steininger's README, for every
# board it lists with width * (height + 1) > 64.
PUBLISHED = {
    (11, 5): ("first", 51),
    (6, 10): ("second", 60),
    (5, 12): ("draw", 60),
    (10, 6): ("first", 59),
    (7, 9): ("draw", 63),
    (5, 13): ("draw", 65),
    (9, 7): ("first", 55),
    (8, 8): ("second", 62),
    (6, 11): ("first", 63),
    (7, 10): ("first", 69),
    (6, 12): ("second", 72),
}

ONE_RUN = """
import sys, time
from perfectplay import connect4
width, height, threads, table_mb = map(int, sys.argv[1:5])
start = time.perf_counter()
score = connect4.score([], width=width, height=height, threads=threads, table_mb=table_mb)
print(score, time.perf_counter() - start)
"""


def expected_score(width: int, height: int) -> int:
    cells = width * height
    winner, move = PUBLISHED[(width, height)]
    if winner == "draw":
        return 0
    return (cells + 2 - move) // 2 * (1 if winner == "first" else -1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--table-mb", type=int, default=4096, help="at most 4096 (4096)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds a board (600)")
    parser.add_argument("--boards", default="", help="WxH,... (every published board)")
    args = parser.parse_args()
    boards = sorted(PUBLISHED, key=lambda size: (size[0] * size[1], size))
    if args.boards:
        boards = []
        for board in args.boards.split(","):
            width, height = board.split("x")
            boards.append((int(width), int(height)))
    print(f"{args.threads} threads, {args.table_mb} MiB, {args.timeout:.0f} s a board")
    print("| board | published | expected score | perfectplay | seconds |")
    print("| --- | --- | ---: | ---: | ---: |")
    wrong = 0
    for width, height in boards:
        expected = expected_score(width, height)
        winner, move = PUBLISHED[(width, height)]
        command = [sys.executable, "-c", ONE_RUN, str(width), str(height)]
        command += [str(args.threads), str(args.table_mb)]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            found, seconds = "not within the time", f"> {args.timeout:.0f}"
        else:
            if run.returncode != 0:
                sys.exit(run.stderr.strip().splitlines()[-1])
            score, spent = run.stdout.split()
            wrong += int(score) != expected
            found, seconds = score, f"{float(spent):.1f}"
        published = f"{winner}, move {move}"
        cells = [f"{width}x{height}", published, str(expected), found, seconds]
        print("| " + " | ".join(cells) + " |", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
