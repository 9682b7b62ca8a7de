"""Figures of the analysis board's API (a report, not a test): medians of whole requests to a
``perfectplay serve`` started here, for a too-hard position (refused at the node limit) and for
positions each game answers.

    python benches/web_figures.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from web_server import running

CASES = {
    "mnk 7x7 k=5, refused (node limit)": "/api/analyze?game=mnk&rows=7&cols=7&k=5&moves={i}",
    "connect4 7x6 opening, refused": "/api/analyze?game=connect4&moves={c}",
    "connect4 7x6 after 13 plies": "/api/analyze?game=connect4&start=4453323544611&moves={c}",
    "connect4 4x4": "/api/analyze?game=connect4&width=4&height=4&moves={q}",
    "tictactoe": "/api/analyze?game=tictactoe&moves={i}",
    "position only (connect4)": "/api/position?game=connect4&moves={c}",
}


def main() -> None:
    with running("--workers", "2") as server:
        for name, pattern in CASES.items():
            times, statuses = [], set()
            for i in range(7):
                path = pattern.format(i=i, c=i % 7, q=i % 4)
                started = time.perf_counter()
                status, _ = server.get(path)
                times.append(time.perf_counter() - started)
                statuses.add(status)
            print(f"{name:38s} median {statistics.median(times) * 1000:7.1f} ms  status {statuses}")


if __name__ == "__main__":
    main()
