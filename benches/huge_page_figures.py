"""What 2 MiB pages gain the searches: each workload in fresh processes, alternately with
transparent huge pages allowed (the tables ask for them with ``madvise``) and refused for the
process (``prctl(PR_SET_THP_DISABLE)``, as if the advice were never given).

    python benches/huge_page_figures.py [--runs 5]

Prints, per workload, the median seconds of the work in each mode, their ratio, and the
process's largest ``AnonHugePages`` during the work (how much of its memory the kernel put on huge
pages). Linux only; needs ``/sys/kernel/mm/transparent_hugepage/enabled`` at ``madvise`` or
``always``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

WORKLOADS = {
    "Connect Four 7x6 '4444551', 64 MiB table": (
        "from perfectplay import connect4",
        "connect4.score('4444551')",
    ),
    "m,n,k (5,5,4) from the empty board, 256 MiB table": (
        "from perfectplay import mnk",
        "mnk.solve_empty(5, 5, 4, node_limit=10**9, table_mb=256)",
    ),
}

CHILD = """
import ctypes, json, sys, threading, time
if sys.argv[1] == "refused":
    PR_SET_THP_DISABLE = 41
    assert ctypes.CDLL(None, use_errno=True).prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0
{setup}

def huge_kb():
    rollup = open("/proc/self/smaps_rollup").read().split()
    return int(rollup[rollup.index("AnonHugePages:") + 1])

# The searches free a large table when they return: its pages are sampled while they run.
most, done = [0], threading.Event()
def sample():
    while not done.wait(0.05):
        most[0] = max(most[0], huge_kb())
sampler = threading.Thread(target=sample)
sampler.start()
started = time.perf_counter()
{work}
seconds = time.perf_counter() - started
done.set()
sampler.join()
print(json.dumps({{"seconds": seconds, "huge_kb": max(most[0], huge_kb())}}))
"""


def run(setup: str, work: str, mode: str) -> dict[str, float]:
    code = CHILD.format(setup=setup, work=work)
    out = subprocess.run(
        [sys.executable, "-c", code, mode], capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, float] = json.loads(out.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    setting = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text().strip()
    print(f"transparent_hugepage/enabled: {setting}")
    for name, (setup, work) in WORKLOADS.items():
        runs: dict[str, list[dict[str, float]]] = {"allowed": [], "refused": []}
        for _ in range(args.runs):
            for mode in runs:  # alternating, so drift in the machine's speed hits both
                runs[mode].append(run(setup, work, mode))
        seconds = {mode: statistics.median(r["seconds"] for r in runs[mode]) for mode in runs}
        huge = {mode: max(r["huge_kb"] for r in runs[mode]) // 1024 for mode in runs}
        print(
            f"{name}: huge pages {seconds['allowed']:.3f} s ({huge['allowed']} MiB on them), "
            f"refused {seconds['refused']:.3f} s ({huge['refused']} MiB); "
            f"refused / allowed {seconds['refused'] / seconds['allowed']:.2f}x"
        )


if __name__ == "__main__":
    main()
