"""The m,n,k prover's goals: ``python benches/mnk_prover.py [--runs N] [--positions N]``.

1. Empty boards, each in a fresh process: the median time of ``mnk.prove`` and of ``mnk.check``
   on its certificate, for (5,5,5), (6,6,5) and (7,7,5).
2. Every (m,n,5) with 5 <= m <= n <= 8 and m*n <= 49: proven a draw, and how long it took
   (``--limit`` nodes for the prover, then marked not proven).
3. ``value`` against the plain search on random positions of (4,4,4) to (6,6,5) where the search
   finishes within ``--search-nodes``: how many agree.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from perfectplay import mnk
from perfectplay.errors import SearchLimitExceeded

_FRESH = """
import json, sys, time
t0 = time.perf_counter()
from perfectplay import mnk
rows, cols, k, limit = map(int, sys.argv[1:])
board = "/".join("." * cols for _ in range(rows))
t1 = time.perf_counter()
try:
    certificate = mnk.prove(board, k, node_limit=limit)
except Exception as error:
    print(json.dumps({"error": type(error).__name__}))
    sys.exit()
t2 = time.perf_counter()
value = mnk.check(certificate)
t3 = time.perf_counter()
print(json.dumps({"value": value, "import": t1 - t0, "prove": t2 - t1, "check": t3 - t2,
                  "bytes": len(json.dumps(certificate))}))
"""


def fresh(rows: int, cols: int, k: int, limit: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, str(rows), str(cols), str(k), str(limit)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def _text(codes: object) -> str:
    return "/".join("".join(".xo"[int(c)] for c in row) for row in codes)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=int, default=20_000_000, help="prover nodes a board")
    parser.add_argument("--positions", type=int, default=1000, help="random positions a size")
    parser.add_argument("--search-nodes", type=int, default=2_000_000)
    args = parser.parse_args()

    print("## Empty boards in a fresh process (median of", args.runs, "runs)\n")
    print("| board | value | prove | check | certificate |")
    print("| --- | --- | --- | --- | --- |")
    for rows, cols, k in ((5, 5, 5), (6, 6, 5), (7, 7, 5)):
        runs = [fresh(rows, cols, k, args.limit)]
        if "error" not in runs[0]:
            runs += [fresh(rows, cols, k, args.limit) for _ in range(args.runs - 1)]
        if "error" in runs[0]:
            print(f"| ({rows},{cols},{k}) | not proven ({runs[0]['error']}) | | | |")
            continue
        prove = statistics.median(r["prove"] for r in runs) * 1e3
        check = statistics.median(r["check"] for r in runs) * 1e3
        print(
            f"| ({rows},{cols},{k}) | {runs[0]['value']} | {prove:.1f} ms | {check:.1f} ms "
            f"| {runs[0]['bytes']:,} bytes |"
        )

    print("\n## Every (m,n,5) with 5 <= m <= n <= 8 and m*n <= 49\n")
    print("| board | value | time | certificate checked |")
    print("| --- | --- | --- | --- |")
    for rows in range(5, 9):
        for cols in range(rows, 9):
            if rows * cols > 49:
                continue
            run = fresh(rows, cols, 5, args.limit)
            if "error" in run:
                print(f"| ({rows},{cols},5) | not proven within {args.limit:,} nodes | | |")
            else:
                print(
                    f"| ({rows},{cols},5) | {run['value']} | {run['prove']:.2f} s "
                    f"| {run['check']:.2f} s |"
                )

    print(f"\n## value against the plain search ({args.positions} random positions a size)\n")
    print("| game | plies | compared | agree | search over its limit | value time | search time |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for rows, cols, k, plies in ((4, 4, 4, None), (5, 5, 4, 6), (5, 5, 5, 8), (6, 6, 5, 14)):
        codes = mnk.random_positions(
            rows, cols, k, args.positions, seed=1, plies=plies, ongoing=True
        )
        compared = agree = over = 0
        value_time = search_time = 0.0
        for board in map(_text, codes):
            start = time.perf_counter()
            try:
                searched = mnk.solve(board, k, node_limit=args.search_nodes).value
            except SearchLimitExceeded:
                over += 1
                continue
            middle = time.perf_counter()
            proven = mnk.value(board, k)
            value_time += time.perf_counter() - middle
            search_time += middle - start
            compared += 1
            agree += proven == searched
        print(
            f"| ({rows},{cols},{k}) | {plies or 'any'} | {compared} | {agree} | {over} "
            f"| {value_time:.2f} s | {search_time:.2f} s |"
        )


if __name__ == "__main__":
    main()
