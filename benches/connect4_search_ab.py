"""One figure to tell whether a change to the Connect Four search paid: the first `--count`
positions of one of Pons' sets, each from cleared tables, no book; the seconds of
`connect4.score` in all and (one thread) the nodes of `connect4.batch_solve`, which do not
vary from run to run. Build each version, keep its `_core` file, and run them in turn:

    python benches/connect4_search_ab.py --sets PATH/TO/PONS/SETS --set begin-hard --count 10

The sets are Pons' files as his site gives them (Test_L1_R3, ...) or as connect-four-ai's
repository ships them (begin-hard, ...); every score is checked against the file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from perfectplay import connect4

NAMES = {
    "end-easy": "Test_L3_R1",
    "middle-easy": "Test_L2_R1",
    "middle-medium": "Test_L2_R2",
    "begin-easy": "Test_L1_R1",
    "begin-medium": "Test_L1_R2",
    "begin-hard": "Test_L1_R3",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", required=True, help="a folder with Pons' test sets")
    parser.add_argument("--set", default="begin-hard", choices=sorted(NAMES), help="which set")
    parser.add_argument("--count", type=int, default=10, help="its first positions (10)")
    parser.add_argument("--threads", type=int, default=1, help="search threads (1)")
    parser.add_argument("--table-mb", type=int, default=256, help="table size in MiB (256)")
    args = parser.parse_args()
    folder = Path(args.sets)
    paths = [folder / name for name in (args.set, NAMES[args.set]) if (folder / name).exists()]
    if not paths:
        sys.exit(f"{folder} has neither {args.set} nor {NAMES[args.set]}")
    rows = [row.split() for row in paths[0].read_text().splitlines()[: args.count]]
    seconds, nodes = 0.0, 0
    options = {"book": None, "threads": args.threads, "table_mb": args.table_mb}
    for moves, expected in rows:
        connect4.clear_tables()
        start = time.perf_counter()
        score = connect4.score(moves, **options)
        seconds += time.perf_counter() - start
        if score != int(expected):
            sys.exit(f"{moves}: score {score}, the file says {expected}")
        if args.threads == 1:
            nodes += int(connect4.batch_solve([moves], **options).nodes[0])
    shown = f", batch_solve nodes {nodes:,}" if args.threads == 1 else ""
    print(f"{args.set} (first {len(rows)}), {args.threads} thread(s): score {seconds:.2f} s{shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
