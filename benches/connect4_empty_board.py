"""The empty 7x6 board solved from scratch: `connect4.score("")` (the first player wins with
the 41st stone: score 1) from cleared tables, with no opening book, on one thread and on every
core, each run in a fresh process so that nothing is kept between them.

    python benches/connect4_empty_board.py --threads 1,2 --table-mb 64,1024
"""

from __future__ import annotations

import argparse
import subprocess
import sys

ONE_RUN = """
import sys, time
from perfectplay import connect4
threads, table_mb = int(sys.argv[1]), int(sys.argv[2])
start = time.perf_counter()
score = connect4.score("", threads=threads, table_mb=table_mb, book=None)
print(score, time.perf_counter() - start)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--table-mb", default="64,1024", help="table sizes in MiB, comma-separated")
    args = parser.parse_args()
    print("| threads | table | score | seconds |")
    print("| ---: | ---: | ---: | ---: |")
    for table_mb in args.table_mb.split(","):
        for threads in args.threads.split(","):
            run = subprocess.run(
                [sys.executable, "-c", ONE_RUN, threads, table_mb],
                capture_output=True,
                text=True,
                check=True,
            )
            score, seconds = run.stdout.split()
            if score != "1":
                sys.exit(f"the empty board scored {score}, not 1")
            print(f"| {threads} | {table_mb} MiB | {score} | {float(seconds):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
