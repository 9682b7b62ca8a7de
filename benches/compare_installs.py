"""Runs benches/core_figures.py with two Python interpreters (two installs of perfectplay),
alternating, and prints for each figure the median over the runs of each run's median and of
each run's best round, with the ratios new / old:

    python benches/compare_installs.py OLD_PYTHON NEW_PYTHON [--runs 5]

On a shared, noisy machine alternating the two keeps a slow spell from landing on one side.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

FIGURES = Path(__file__).with_name("core_figures.py")
LINE = re.compile(
    r"^(?P<name>.*?)\s+(?P<median>[0-9.]+) (?P<unit>ns|ms)\s+best\s+(?P<best>[0-9.]+)"
)


def run(python: str) -> dict[str, tuple[float, float, str]]:
    output = subprocess.run(
        [python, str(FIGURES), "--quick"], capture_output=True, text=True, check=True
    ).stdout
    figures = {}
    for line in output.splitlines():
        match = LINE.match(line)
        if match:
            figures[match["name"]] = (float(match["median"]), float(match["best"]), match["unit"])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    seen: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    units: dict[str, str] = {}
    for number in range(args.runs):
        for side, python in (("old", args.old), ("new", args.new)):
            for name, (median, best, unit) in run(python).items():
                seen[side, "median", name].append(median)
                seen[side, "best", name].append(best)
                units[name] = unit
        print(f"run {number + 1} of {args.runs} done", file=sys.stderr)
    print(f"{'figure':32} {'old median':>13} {'new median':>13} {'ratio':>6}  ", end="")
    print(f"{'old best':>13} {'new best':>13} {'ratio':>6}")
    for name, unit in units.items():
        row = f"{name:32}"
        for kind in ("median", "best"):
            old = statistics.median(seen["old", kind, name])
            new = statistics.median(seen["new", kind, name])
            row += f" {old:10.2f} {unit} {new:10.2f} {unit} {new / old:6.3f}  "
        print(row.rstrip())


if __name__ == "__main__":
    main()
