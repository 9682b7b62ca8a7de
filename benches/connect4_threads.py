"""Connect Four's search on more threads against one, paired: Pons' Begin-Hard (the first
`--hard` lines, the table kept from one line to the next, every score checked against the
file) and the empty 7x6 board (score 1), each run in a fresh process with no book and the same
table (`--table-mb`, 1 GiB by default), one thread and `--threads` threads in turn, `--pairs`
times after one warm-up pair. Printed: each side's median wall time, the median of the pairs'
ratios (one thread's time over the other's: #40 asks for at least 1.7x on two threads) with
their range, and the CPU time the threads used against one thread's.

    python benches/connect4_threads.py --sets PATH/TO/SETS --threads 2 --pairs 8

`--sets` is a folder with Pons' Begin-Hard file (Test_L1_R3 as his site gives it, or
begin-hard as connect-four-ai's repository ships it); without it only the empty board runs.
A shared machine's speed drifts from minute to minute, which a ratio of two runs taken one
right after the other mostly cancels: read the paired ratios, not the times.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# Pons' files, read as the Steininger bench reads them.
from connect4_steininger import read_set

ONE_RUN = """
import sys, time
from perfectplay import connect4
threads, table_mb = int(sys.argv[1]), int(sys.argv[2])
rows = [row.rsplit(" ", 1) for row in sys.stdin.read().splitlines()]
wall, cpu = time.perf_counter(), time.process_time()
for moves, expected in rows:
    score = connect4.score(moves, threads=threads, table_mb=table_mb, book=None)
    if score != int(expected):
        sys.exit(f"{moves!r}: expected {expected}, perfectplay {score}")
print(time.perf_counter() - wall, time.process_time() - cpu)
"""


def one_run(rows: str, threads: int, table_mb: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh process scoring `rows` ("moves score" lines)."""
    run = subprocess.run(
        [sys.executable, "-c", ONE_RUN, str(threads), str(table_mb)],
        input=rows,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"perfectplay failed: {run.stderr.strip()[-400:]}")
    wall, cpu = run.stdout.split()
    return float(wall), float(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", help="a folder with Pons' Begin-Hard file")
    parser.add_argument("--hard", type=int, default=30, help="Begin-Hard lines (30)")
    parser.add_argument("--threads", type=int, default=2, help="the threads set against one (2)")
    parser.add_argument("--table-mb", type=int, default=1024, help="table memory in MiB (1024)")
    parser.add_argument("--pairs", type=int, default=8, help="pairs of runs counted (8)")
    args = parser.parse_args()
    workloads = {}
    if args.sets:
        hard = read_set(Path(args.sets), "Begin-Hard", args.hard)
        workloads[f"Begin-Hard ({len(hard)})"] = "".join(f"{m} {s}\n" for m, s in hard)
    workloads["empty 7x6 board"] = " 1\n"
    many = args.threads
    print(f"table: {args.table_mb} MiB; no book; {args.pairs} pairs after one warm-up pair")
    print(
        f"| positions | 1 thread | {many} threads | 1 / {many}, paired (range) "
        f"| CPU, {many} threads / 1 |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, rows in workloads.items():
        pairs = []
        for counted in range(args.pairs + 1):
            pair = (one_run(rows, 1, args.table_mb), one_run(rows, many, args.table_mb))
            if counted:
                pairs.append(pair)
        ratios = [one[0] / other[0] for one, other in pairs]
        cpu = [other[1] / one[1] for one, other in pairs]
        cells = [
            name,
            f"{statistics.median(one[0] for one, _ in pairs):.2f} s",
            f"{statistics.median(other[0] for _, other in pairs):.2f} s",
            f"**{statistics.median(ratios):.3f}x** ({min(ratios):.2f}-{max(ratios):.2f})",
            f"{statistics.median(cpu):.2f}x",
        ]
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
