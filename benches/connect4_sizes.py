"""The empty board of every Connect Four size with width + height <= 13, solved by the search
alone (no book), each in a fresh process: who wins, the move the game ends on under perfect
play, and the time it took. Every size with both sides at least 4 is checked against the
published tables (Tromp 2006 for w + h <= 15, as reproduced in Steininger's c4 readme); a
smaller board has no published entry and is listed as solved.

    python benches/connect4_sizes.py --most 13 --threads 2
"""

from __future__ import annotations

import argparse
import subprocess
import sys

# Published outcomes and last moves, by (width, height): "1st", "2nd" or "Draw", and the move
# the game ends on. Source: the "Outcome" and "Last Move" tables of
# https://github.com/ChristopheSteininger/c4 (readme.md), which include Tromp's results.
PUBLISHED: dict[tuple[int, int], tuple[str, int | None]] = {}
_OUTCOMES = {
    4: "D D 2 D 2 2 2 2 2",
    5: "D D D D 1 1 1 1",
    6: "D D 2 1 2 2 1",
    7: "D D 1 D 1 1",
    8: "D D 2 1 2",
    9: "D D 1 D 1",
    10: "D D 2 1",
    11: "D D 1",
    12: "D D 2",
    13: "D D",
}
_LAST_MOVES = {
    4: "16 20 24 28 32 36 40 44 48",
    5: "20 25 30 35 39 41 47 51",
    6: "24 30 36 41 48 52 59",
    7: "28 35 41 49 53 55",
    8: "32 40 48 55 62",
    9: "36 45 53 63",
    10: "40 50 60 69",
    11: "44 55 63",
    12: "48 60 72",
    13: "52 65",
}
_NAMES = {"1": "1st", "2": "2nd", "D": "Draw"}
for _height, _row in _OUTCOMES.items():
    _moves = _LAST_MOVES[_height].split()
    for _column, _outcome in enumerate(_row.split()):
        # The last-move table has no entry for 8x9.
        _last = int(_moves[_column]) if _column < len(_moves) else None
        PUBLISHED[(4 + _column, _height)] = (_NAMES[_outcome], _last)

ONE_RUN = """
import sys, time
from perfectplay import connect4
width, height, threads = (int(arg) for arg in sys.argv[1:4])
start = time.perf_counter()
solution = connect4.solve("", width=width, height=height, book=None, threads=threads)
print(solution.value, solution.plies, time.perf_counter() - start)
"""


def solve(width: int, height: int, threads: int) -> tuple[str, int, float]:
    """Who wins the empty board, the move the game ends on, and the seconds it took."""
    run = subprocess.run(
        [sys.executable, "-c", ONE_RUN, str(width), str(height), str(threads)],
        capture_output=True,
        text=True,
        check=True,
    )
    value, plies, seconds = run.stdout.split()
    outcome = {"1": "1st", "-1": "2nd", "0": "Draw"}[value]
    return outcome, int(plies), float(seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--most", type=int, default=13, help="largest width + height (13)")
    parser.add_argument("--threads", type=int, default=2, help="search threads (2)")
    parser.add_argument(
        "--sizes", default="", help="only these sizes, such as 7x7,8x6 (any width + height)"
    )
    args = parser.parse_args()
    if args.sizes:
        sizes = [tuple(int(side) for side in size.split("x")) for size in args.sizes.split(",")]
    else:
        sizes = [
            (width, height)
            for total in range(2, args.most + 1)
            for width in range(1, total)
            if width * (total - width + 1) <= 64
            for height in [total - width]
        ]
    print(f"| size | winner | ends on move | published | seconds ({args.threads} threads) |")
    print("| --- | --- | ---: | --- | ---: |")
    disagreements = 0
    solved = {}
    for width, height in sizes:
        outcome, last, seconds = solved[width, height] = solve(width, height, args.threads)
        published = PUBLISHED.get((width, height))
        if published is None:
            check = "no entry"
        elif published == (outcome, last):
            check = "agrees"
        elif published == (outcome, None):
            check = "agrees (outcome; no published last move)"
        else:
            check = f"DISAGREES: {published[0]} on move {published[1]}"
            disagreements += 1
        print(f"| {width}x{height} | {outcome} | {last} | {check} | {seconds:.2f} |", flush=True)
    widths = sorted({width for width, _ in solved})
    print("\nwinner and the move the game ends on; rows: height, columns: width\n")
    print("| height | " + " | ".join(str(width) for width in widths) + " |")
    print("| ---: |" + " --- |" * len(widths))
    for height in sorted({height for _, height in solved}):
        cells = []
        for width in widths:
            outcome, last, _ = solved.get((width, height), ("", 0, 0))
            cells.append(f"{outcome} {last}" if outcome else "")
        print(f"| {height} | " + " | ".join(cells) + " |")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
