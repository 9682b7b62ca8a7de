"""The tablebase benchmarks (report, never assert): medians of a few rounds, one run.

    python benches/tablebase_figures.py [--skip-544]

* Build (4,4,3) and (4,4,4) with threads=2 (median of 5).
* Build (5,4,4) with threads=2 in a fresh process: seconds, positions per second, peak
  memory (the process's maximum resident set); then save it, and time `load` of the 741 MB
  file and its first probe (which checks the checksums).
* 1,000,000 random (4,4,4) positions (random games of random length stopping at a line):
  `tb.probe` (values and plies), `tb.batch_solve` (best moves too) and with `moves=True`
  (median of 9), before the (5,4,4) table is built and held.
* `tb.solve` per call against `mnk.solve` on the same 2,000 positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay import mnk, tablebase


def median_seconds(work: Callable[[], Any], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def random_positions(count: int, seed: int) -> np.ndarray[Any, Any]:
    """Random legal 4x4 positions: random games of random length that stop at a line of 4."""
    rng = random.Random(seed)
    lines = []
    for r in range(4):
        lines.append(sum(1 << (4 * r + c) for c in range(4)))
        lines.append(sum(1 << (4 * c + r) for c in range(4)))
    lines += [sum(1 << (5 * i) for i in range(4)), sum(1 << (3 * i + 3) for i in range(4))]
    out = np.zeros((count, 16), dtype=np.uint8)
    for row in range(count):
        x = o = 0
        for turn, cell in enumerate(rng.sample(range(16), rng.randint(0, 16))):
            if any(x & w == w for w in lines) or any(o & w == w for w in lines):
                break
            out[row, cell] = 1 + turn % 2
            if turn % 2 == 0:
                x |= 1 << cell
            else:
                o |= 1 << cell
    return out.reshape(count, 4, 4)


BIG = """
import resource, sys, time
from perfectplay import tablebase
start = time.perf_counter()
table = tablebase.build(5, 4, 4, threads=2)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{seconds:.1f} {len(table.data)} {peak:.0f}")
table.save(sys.argv[1])
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-544", action="store_true")
    options = parser.parse_args()
    for rows, cols, k in ((4, 4, 3), (4, 4, 4)):

        def build(rows: int = rows, cols: int = cols, k: int = k) -> Any:
            return tablebase.build(rows, cols, k, threads=2)

        seconds = median_seconds(build, 5)
        print(f"build ({rows},{cols},{k}) threads=2: {seconds:.3f} s (median of 5)")
    # The probes first, in a process that has not yet held the 741 MB table.
    table = tablebase.build(4, 4, 4, threads=2)
    boards = random_positions(1_000_000, 1)
    table.probe(boards[:1000])  # the checks of a first probe
    for name, work in (
        ("probe (value, plies)", lambda: table.probe(boards, threads=2)),
        ("batch_solve", lambda: table.batch_solve(boards, threads=2)),
        ("batch_solve moves=True", lambda: table.batch_solve(boards, moves=True, threads=2)),
    ):
        seconds = median_seconds(work, 9)
        print(
            f"1,000,000 (4,4,4) positions, {name}: {seconds * 1e3:.1f} ms, "
            f"{1 / seconds:.1f} M positions/s"
        )
    texts = ["/".join("".join(".xo"[c] for c in row) for row in board) for board in boards[:2000]]
    per_table = median_seconds(lambda: [table.solve(t) for t in texts], 5) / len(texts)
    per_search = median_seconds(lambda: [mnk.solve(t, 4) for t in texts], 3) / len(texts)
    print(
        f"one position, tb.solve: {per_table * 1e6:.1f} us; mnk.solve: {per_search * 1e6:.1f} us "
        f"({per_search / per_table:.0f}x)"
    )
    if not options.skip_544:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "544.tb"
            out = subprocess.run(
                [sys.executable, "-c", BIG, str(path)], capture_output=True, text=True, check=True
            ).stdout.split()
            seconds, entries, peak = float(out[0]), int(out[1]), float(out[2])
            print(
                f"build (5,4,4) threads=2: {seconds:.1f} s, {entries / seconds / 1e6:.1f} M "
                f"positions/s, peak memory {peak:.0f} MB"
            )
            start = time.perf_counter()
            table = tablebase.load(path)
            opened = time.perf_counter() - start
            start = time.perf_counter()
            table.solve("..../..../..../..../....")
            first = time.perf_counter() - start
            print(
                f"load a {path.stat().st_size / 1e6:.0f} MB file: {opened * 1e3:.2f} ms; first "
                f"probe (checks every tier's checksum): {first:.2f} s"
            )


if __name__ == "__main__":
    main()
