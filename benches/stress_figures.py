"""What ``perfectplay stress`` costs (report, never assert): 1,000 cases of each problem.

    python benches/stress_figures.py [--cases N] [--jobs N]

Against the compiled C++ peers in ``benches/stress_peers`` (built here with ``g++ -O2``) and
the plain Python solutions of the tests (``tests/stress_programs``), with ``--jobs 1`` by
default so the split is clean: the wall time, the programs' own time (from start to exit, every
run added up), and the harness's overhead per case (generating, rendering, perfectplay's
answers, comparing), which is the difference.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from perfectplay import BACKEND, stress

HERE = Path(__file__).resolve().parent
PYTHON_PROGRAMS = HERE.parent / "tests" / "stress_programs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    options = parser.parse_args()
    print(f"backend: {BACKEND}; {options.cases} cases a problem, jobs={options.jobs}, seed 1")
    print(
        f"{'problem':10s} {'program':8s} {'runs':>5s} {'wall':>8s} {'program':>9s} "
        f"{'overhead/case':>14s} {'program/case':>13s}"
    )
    with tempfile.TemporaryDirectory() as build:
        for problem in stress.PROBLEMS:
            binary = Path(build) / problem
            subprocess.run(
                [
                    "g++",
                    "-O2",
                    "-std=c++17",
                    "-o",
                    str(binary),
                    HERE / "stress_peers" / f"{problem}.cpp",
                ],
                check=True,
            )
            programs = {
                "C++": [str(binary)],
                "Python": [sys.executable, "-S", str(PYTHON_PROGRAMS / f"{problem}_solution.py")],
            }
            for name, command in programs.items():
                result = stress.run(
                    problem, command, cases=options.cases, seed=1, jobs=options.jobs
                )
                assert result.passed, result.report()
                overhead = (result.seconds - result.program_seconds) / result.cases
                print(
                    f"{problem:10s} {name:8s} {result.runs:5d} {result.seconds:7.2f}s "
                    f"{result.program_seconds:8.2f}s {overhead * 1e6:11.0f} us "
                    f"{result.program_seconds / result.cases * 1e6:10.0f} us"
                )


if __name__ == "__main__":
    main()
