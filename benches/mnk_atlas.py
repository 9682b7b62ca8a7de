"""The m,n,k atlas: the value of every (m,n,k) with m <= n, m*n <= 64 and 3 <= k <= min(6, n),
how it was settled, the time it took, and whether its certificate was written and checked.

    python benches/mnk_atlas.py [--jobs 2] [--timeout 60] [--certificates DIR]
    python benches/mnk_atlas.py --open --timeout 120 --nodes 100000000   # the open ones again
    python benches/mnk_atlas.py --open --boards 4x9x4 --timeout 900 --table-mb 4096
    python benches/mnk_atlas.py --uncertified --timeout 600   # certificates not yet written
    python benches/mnk_atlas.py --recertify --boards 4x7x4   # written again, prove changed

Each board runs in a process of its own: ``mnk.value`` (the prover, then the search, each
under ``--nodes``), then ``mnk.prove`` and ``mnk.check`` on its certificate, each under
``--timeout`` seconds. A board neither settles is marked open. The results go to
``docs/atlas.json`` and the page ``docs/atlas.md``; ``--certificates DIR`` keeps each
certificate as ``DIR/m-n-k.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "atlas.json"
PAGE = ROOT / "docs" / "atlas.md"

_VALUE = """
import json, sys, time
from perfectplay import mnk
rows, cols, k, nodes, table_mb = map(int, sys.argv[1:6])
board = "/".join("." * cols for _ in range(rows))
start = time.perf_counter()
try:
    value = mnk.value(board, k, node_limit=nodes, table_mb=table_mb or None)
except Exception as error:
    print(json.dumps({"error": type(error).__name__}))
else:
    print(json.dumps({"value": value, "seconds": time.perf_counter() - start}))
"""

_PROVE = """
import json, sys, time
from perfectplay import mnk
rows, cols, k, nodes, table_mb = map(int, sys.argv[1:6])
keep = sys.argv[6]
board = "/".join("." * cols for _ in range(rows))
start = time.perf_counter()
certificate = mnk.prove(board, k, node_limit=nodes, table_mb=table_mb or None)
proved = time.perf_counter()
value = mnk.check(certificate)
checked = time.perf_counter()
if keep:
    with open(keep, "w") as file:
        json.dump(certificate, file)
kinds = sorted({next(iter(g["by"])) for g in certificate["guarantees"]})
print(json.dumps({"value": value, "prove": proved - start, "check": checked - proved,
                  "by": kinds, "bytes": len(json.dumps(certificate))}))
"""


def _run(code: str, arguments: list[str], timeout: float) -> dict[str, Any]:
    try:
        out = subprocess.run(
            [sys.executable, "-c", code, *arguments],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:g} s"}
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"}
    found: dict[str, Any] = json.loads(out.stdout)
    return found


def boards() -> list[tuple[int, int, int]]:
    return [
        (m, n, k)
        for m in range(1, 9)
        for n in range(m, 65)
        if m * n <= 64
        for k in range(3, min(6, n) + 1)
    ]


def settle(
    board: tuple[int, int, int], args: argparse.Namespace, known: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The board's entry: its value (``known``'s, when it has one) and its certificate."""
    m, n, k = board
    sizes = [str(m), str(n), str(k), str(args.nodes), str(args.table_mb)]
    entry: dict[str, Any] = {"m": m, "n": n, "k": k}
    if known is not None and known["value"] is not None:
        entry["value"], entry["seconds"] = known["value"], known["seconds"]
    else:
        found = _run(_VALUE, sizes, args.timeout)
        if "error" in found:
            entry["value"] = None
            entry["why_open"] = found["error"]
            return entry
        entry["value"], entry["seconds"] = found["value"], round(float(found["seconds"]), 4)
    keep = str(Path(args.certificates) / f"{m}-{n}-{k}.json") if args.certificates else ""
    proof = _run(_PROVE, [*sizes, keep], args.timeout)
    if "error" in proof:
        entry["certificate"] = None
        entry["why_no_certificate"] = proof["error"]
    else:
        assert proof["value"] == entry["value"], (board, proof, entry)
        entry["certificate"] = {
            "by": proof["by"],
            "bytes": proof["bytes"],
            "prove_seconds": round(float(proof["prove"]), 4),
            "check_seconds": round(float(proof["check"]), 4),
        }
    return entry


def page(entries: list[dict[str, Any]]) -> str:
    shown = {1: "first player wins", 0: "draw", -1: "second player wins", None: "open"}
    lines = [
        "# The m,n,k atlas",
        "",
        "The value of the empty board of every m,n,k-game with m <= n, m·n <= 64 and",
        "3 <= k <= min(6, n), as `python benches/mnk_atlas.py` settled it on 2 cores: the value",
        "(`mnk.value`), the seconds it took, and the certificate (`mnk.prove`), checked by",
        "`mnk.check` (`weak`: Breaker strategies from the prover; `strategy_stealing`: X cannot",
        "lose the empty board; `strategy`: strategies from the search, a draw's lines ended by",
        "Breaker strategies where the prover finds them). A board the run could not settle",
        "within its node and time limits is marked open, never guessed; a certificate not",
        "written within them is said so beside its value (`--uncertified` tries those again,",
        "keeping the values). The tests",
        "(`tests/test_mnk_atlas.py`) hold every entry to the published values and to the",
        "monotonicity rule (a draw stays a draw on a smaller board or with a larger k; a",
        "first-player win stays a win on a larger board or with a smaller k), and settle the",
        "small boards again.",
        "",
        "Certificates are not kept in the repository: `python benches/mnk_atlas.py",
        "--certificates DIR` writes each one, and `mnk.check(pathlib.Path(FILE))` checks it.",
        "Any entry is one call away:",
        "",
        "```python",
        ">>> from perfectplay import mnk",
        '>>> mnk.value("...../...../...../...../.....", 5)',
        "0",
        '>>> mnk.check(mnk.prove("..../..../....", 3))',
        "1",
        "```",
        "",
        "An open board's value may follow from the others by the monotonicity rule; the table",
        "says so beside it (*implied*), as a consequence, not as a result of this run.",
        "",
    ]
    for k in range(3, 7):
        lines += [
            f"## k = {k}",
            "",
            "| m | n | value | seconds | certificate | prove s | check s |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for e in entries:
            if e["k"] != k:
                continue
            cert = e.get("certificate")
            if e["value"] is None:
                implied = _implied(e, entries)
                also = f"; implied: {shown[implied]}" if implied is not None else ""
                row = f"| {e['m']} | {e['n']} | open ({e['why_open']}{also}) | | | | |"
            elif not cert:
                row = (
                    f"| {e['m']} | {e['n']} | {shown[e['value']]} | {e['seconds']:.3f} "
                    f"| not written ({e['why_no_certificate']}) | | |"
                )
            else:
                row = (
                    f"| {e['m']} | {e['n']} | {shown[e['value']]} | {e['seconds']:.3f} "
                    f"| {', '.join(cert['by'])} | {cert['prove_seconds']:.3f} "
                    f"| {cert['check_seconds']:.3f} |"
                )
            lines.append(row)
        lines.append("")
    return "\n".join(lines)


def _implied(entry: dict[str, Any], entries: list[dict[str, Any]]) -> int | None:
    """The value the monotonicity rule gives an open board from the settled ones, if any: a
    win on a board that fits inside it with a k at least its own, or a draw on a board it fits
    inside with a k at most its own."""
    m, n, k = entry["m"], entry["n"], entry["k"]

    def fits(a: int, b: int, c: int, d: int) -> bool:
        return (a <= c and b <= d) or (a <= d and b <= c)

    for other in entries:
        om, on, ok, value = other["m"], other["n"], other["k"], other["value"]
        if value == 1 and fits(om, on, m, n) and ok >= k:
            return 1
        if value == 0 and fits(m, n, om, on) and ok <= k:
            return 0
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--nodes", type=int, default=20_000_000)
    parser.add_argument("--certificates", default="")
    parser.add_argument(
        "--page-only", action="store_true", help="write the page again from docs/atlas.json"
    )
    parser.add_argument(
        "--open",
        action="store_true",
        help="settle again only the boards docs/atlas.json has open, with these limits",
    )
    parser.add_argument(
        "--uncertified",
        action="store_true",
        help="write again only the certificates docs/atlas.json lacks, keeping the values",
    )
    parser.add_argument(
        "--recertify",
        action="store_true",
        help="write again the certificates of --boards (prove has changed), keeping the values",
    )
    parser.add_argument("--max-cells", type=int, default=64, help="with --open: boards up to")
    parser.add_argument(
        "--boards",
        default="",
        help="with --open, --uncertified or --recertify: only these, such as 4x9x4 (m x n x k)",
    )
    parser.add_argument("--table-mb", type=int, default=0, help="the searches' (default theirs)")
    args = parser.parse_args()
    if args.recertify and not args.boards:
        parser.error("--recertify needs --boards")
    if args.page_only:
        PAGE.write_text(page(json.loads(RESULTS.read_text())))
        return
    if args.certificates:
        Path(args.certificates).mkdir(parents=True, exist_ok=True)
    todo = boards()
    known: dict[tuple[int, int, int], dict[str, Any]] = {}
    if args.open or args.uncertified or args.recertify:
        known = {(e["m"], e["n"], e["k"]): e for e in json.loads(RESULTS.read_text())}
        if args.open:
            todo = [b for b in todo if known[b]["value"] is None and b[0] * b[1] <= args.max_cells]
        elif args.recertify:
            todo = [b for b in todo if known[b]["value"] is not None]
        else:
            todo = [
                b for b in todo if known[b]["value"] is not None and not known[b]["certificate"]
            ]
        if args.boards:
            chosen = {tuple(map(int, b.split("x"))) for b in args.boards.split(",")}
            todo = [b for b in todo if b in chosen]
    reuse = args.uncertified or args.recertify
    with ThreadPoolExecutor(args.jobs) as pool:
        settled = pool.map(lambda b: settle(b, args, known[b] if reuse else None), todo)
        for number, entry in enumerate(settled, 1):
            known[entry["m"], entry["n"], entry["k"]] = entry
            print(f"{number}/{len(todo)} {entry}", flush=True)
    entries = [known[b] for b in boards()]
    RESULTS.write_text(json.dumps(entries, indent=1) + "\n")
    PAGE.write_text(page(entries))


if __name__ == "__main__":
    main()
