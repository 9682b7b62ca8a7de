"""A fresh process's first Connect Four answer, as a judge command, a Kaggle agent, a Dask task
or a notebook restart meets it: ``python benches/start_up.py`` starts ``--runs`` fresh
interpreters for each of the empty board, a 13-stone and a 14-stone 7x6 position; each
imports perfectplay, answers ``connect4.analyze`` once and reports the time from its start
(the interpreter's own start included) and its peak resident memory. Prints the median and
slowest time and the largest peak per position, and the same for ``import perfectplay`` alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

POSITIONS = {
    "import only": None,
    "empty board": "",
    "13 stones": "4444443332233",
    "14 stones": "44444433322335",
}

CHILD = """
import json, resource, sys, time
start = float(sys.argv[1])
import perfectplay
from perfectplay import connect4
position = sys.argv[2]
if position != "-":
    connect4.analyze(position)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": time.time() - start, "peak_mb": peak}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    print("| what | median | slowest | peak RSS |")
    print("| --- | --- | --- | --- |")
    for name, position in POSITIONS.items():
        seconds, peaks = [], []
        for _ in range(options.runs):
            shown = "-" if position is None else position
            result = subprocess.run(
                [sys.executable, "-c", CHILD, repr(time.time()), shown],
                capture_output=True,
                text=True,
                check=True,
            )
            answer = json.loads(result.stdout)
            seconds.append(answer["seconds"])
            peaks.append(answer["peak_mb"])
        print(
            f"| {name} | {statistics.median(seconds):.3f} s | {max(seconds):.3f} s "
            f"| {max(peaks):.0f} MB |"
        )


if __name__ == "__main__":
    main()
