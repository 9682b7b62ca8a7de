"""How long each game's ``batch_solve`` of 10^8 equal (broadcast, stride-0) rows takes to stop
at Ctrl-C: a real SIGINT sent one second after the call starts, in a process of its own.

    python benches/ctrl_c_figures.py [--rows N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from tests_support import stopped_by_ctrl_c

CALLS = {
    "tictactoe": "tictactoe.batch_solve(np.broadcast_to(np.zeros(9, np.uint8), (N, 9)), "
    "moves=True)",
    "mnk": "mnk.batch_solve(np.broadcast_to(np.zeros((4, 4), np.uint8), (N, 4, 4)), 4)",
    "footholds": "footholds.batch_solve(np.broadcast_to(np.ones((3, 3), np.uint8), (N, 3, 3)), "
    "alocs=np.broadcast_to(np.array([0, 0]), (N, 2)), "
    "blocs=np.broadcast_to(np.array([2, 2]), (N, 2)))",
    "connect4": "connect4.batch_solve(np.broadcast_to(np.zeros((4, 4), np.uint8), (N, 4, 4)))",
    "tablebase": "table.batch_solve(np.broadcast_to(np.zeros((3, 3), np.uint8), (N, 3, 3)), "
    "moves=True)",
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10**8)
    args = parser.parse_args()
    setup = (
        "import numpy as np\n"
        "from perfectplay import connect4, footholds, mnk, tablebase, tictactoe\n"
        f"N = {args.rows}\n"
        "table = tablebase.build(3, 3, 3)\n"
        "table.solve('.../.../...')"
    )
    for name, call in CALLS.items():
        out, seconds = stopped_by_ctrl_c(setup, call, after=1.0, timeout=600)
        print(f"{name}: {out.strip() or 'finished'} {seconds:.2f} s after SIGINT")


if __name__ == "__main__":
    main()
