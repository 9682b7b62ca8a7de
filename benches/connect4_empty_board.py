"""The empty 7x6 board solved from scratch: `connect4.score("")` (the first player wins with
the 41st stone: score 1) from cleared tables, with no opening book, on one thread and on every
core, each run in a fresh process so that nothing is kept between them. With `--solve`, each
round also runs `connect4.solve("")` (value, plies, best moves and the whole line) in a fresh
process right after the score, and the medians and their ratio are printed (#40's goal: the
solution within 1.2x of the score).

    python benches/connect4_empty_board.py --threads 1,2 --table-mb 64,1024
    python benches/connect4_empty_board.py --threads 2 --table-mb 1024 --rounds 6 --solve
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

ONE_RUN = """
import sys, time
from perfectplay import connect4
what, threads, table_mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
answer = getattr(connect4, what)("", threads=threads, table_mb=table_mb, book=None)
seconds = time.perf_counter() - start
print(answer if what == "score" else (answer.value, answer.plies, answer.line), seconds, sep="|")
"""

# The first player wins with the 41st stone: score 1, and a solution of value 1 in 41 plies
# whose line starts in the centre column.
EXPECTED = {"score": "1", "solve": "(1, 41, (3, "}


def one_run(what: str, threads: str, table_mb: str) -> float:
    run = subprocess.run(
        [sys.executable, "-c", ONE_RUN, what, threads, table_mb],
        capture_output=True,
        text=True,
        check=True,
    )
    answer, seconds = run.stdout.strip().split("|")
    if not answer.startswith(EXPECTED[what]):
        sys.exit(f"{what}('') answered {answer}")
    return float(seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--table-mb", default="64,1024", help="table sizes in MiB, comma-separated")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each, in turn")
    parser.add_argument("--solve", action="store_true", help="time solve('') after each score")
    args = parser.parse_args()
    kinds = ["score", "solve"] if args.solve else ["score"]
    header = " | ".join(f"{kind} s (median)" for kind in kinds)
    ratio = " solve / score |" if args.solve else ""
    print(f"| threads | table | {header} |{ratio} runs |")
    print("| ---: | ---: |" + " ---: |" * (len(kinds) + args.solve) + " --- |")
    for table_mb in args.table_mb.split(","):
        for threads in args.threads.split(","):
            times: dict[str, list[float]] = {kind: [] for kind in kinds}
            for _ in range(args.rounds):
                for kind in kinds:
                    times[kind].append(one_run(kind, threads, table_mb))
            medians = {kind: statistics.median(times[kind]) for kind in kinds}
            cells = " | ".join(f"{medians[kind]:.2f}" for kind in kinds)
            if args.solve:
                cells += f" | {medians['solve'] / medians['score']:.2f}x"
            runs = "; ".join(
                f"{kind} " + ", ".join(f"{t:.2f}" for t in times[kind]) for kind in kinds
            )
            print(f"| {threads} | {table_mb} MiB | {cells} | {runs} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
