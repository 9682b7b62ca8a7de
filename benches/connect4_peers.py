"""Connect Four against Pascal Pons' solver, by his test protocol: positions graded by stage,
one table reset per position, the mean and median time per position.

    python benches/connect4_peers.py --pons PATH/TO/c4solver --count 200 --seed 1

Pons' solver (github.com/PascalPons/connect4, AGPL) is built outside this repository: clone it,
check out commit 0f0f713 (the version whose `c4solver` prints "moves score nodes microseconds"
and resets its table for each line, as his benchmark does) and run `make`. Its opening book is
not used. The positions are random games (random legal columns from the empty board), kept when
the game is not over and the side to move cannot win at once, with the stones of each stage:
"end" 28 to 38 stones, "middle" 14 to 27, "begin" 6 to 13. perfectplay answers each with
`connect4.score` after `connect4.clear_tables()`, timed around the Python call; Pons' times are
his own microseconds per line. Both must give the same score on every position, or the run
stops. Optional: `--bitbully` adds BitBully (pip install bitbully), its MTD(f) after
`resetTranspositionTable()`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from perfectplay import connect4

STAGES = {"end": (28, 38), "middle": (14, 27), "begin": (6, 13)}


def random_lines(stage: str, count: int, seed: int) -> list[str]:
    """``count`` random games with the stage's number of stones, as Pons' move strings."""
    low, high = STAGES[stage]
    rng = random.Random(f"{stage}-{seed}")
    lines: list[str] = []
    while len(lines) < count:
        position = connect4.Position.start()
        columns: list[int] = []
        for _ in range(rng.randint(low, high)):
            legal = position.legal_moves
            if not legal:
                break
            column = rng.choice(legal)
            position = position.play(column)
            columns.append(column)
        legal = position.legal_moves
        if len(columns) < low or not legal or any(position.play(c).winner for c in legal):
            continue
        lines.append("".join(str(c + 1) for c in columns))
    return lines


def ours(lines: list[str]) -> tuple[list[int], list[float]]:
    scores, seconds = [], []
    for line in lines:
        connect4.clear_tables()
        start = time.perf_counter()
        scores.append(connect4.score(line))
        seconds.append(time.perf_counter() - start)
    return scores, seconds


def pons(binary: str, lines: list[str]) -> tuple[list[int], list[float]]:
    run = subprocess.run(
        [binary],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [row.split() for row in run.stdout.splitlines()]
    if len(rows) != len(lines) or any(len(row) != 4 for row in rows):
        sys.exit("the Pons solver must print 'moves score nodes microseconds' for every line")
    return [int(row[1]) for row in rows], [int(row[3]) / 1e6 for row in rows]


def bitbully(lines: list[str]) -> tuple[list[int], list[float]]:
    from bitbully import bitbully_core  # type: ignore[import-not-found]

    solver = bitbully_core.BitBullyCore()
    scores, seconds = [], []
    for line in lines:
        board = bitbully_core.Board()
        board.setBoard([int(c) - 1 for c in line])
        solver.resetTranspositionTable()
        start = time.perf_counter()
        scores.append(solver.mtdf(board, 0))
        seconds.append(time.perf_counter() - start)
    return scores, seconds


def shown(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} us"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pons", required=True, help="Pons' c4solver (commit 0f0f713)")
    parser.add_argument("--stages", default="end,middle,begin")
    parser.add_argument("--count", type=int, default=200, help="positions per stage")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bitbully", action="store_true")
    args = parser.parse_args()
    print("| stage | positions | perfectplay mean | median | Pons mean | median | mean ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for stage in args.stages.split(","):
        lines = random_lines(stage, args.count, args.seed)
        peers = {"perfectplay": ours(lines), "Pons": pons(args.pons, lines)}
        if args.bitbully:
            peers["BitBully"] = bitbully(lines)
        truth = peers["Pons"][0]
        for name, (scores, _) in peers.items():
            wrong = [line for line, a, b in zip(lines, scores, truth, strict=True) if a != b]
            if wrong and name != "BitBully":
                sys.exit(f"{name} disagrees with Pons on {wrong[:3]}")
        mine, theirs = peers["perfectplay"][1], peers["Pons"][1]
        print(
            f"| {stage} {STAGES[stage][0]}-{STAGES[stage][1]} stones | {len(lines)} "
            f"| {shown(statistics.fmean(mine))} | {shown(statistics.median(mine))} "
            f"| {shown(statistics.fmean(theirs))} | {shown(statistics.median(theirs))} "
            f"| {statistics.fmean(theirs) / statistics.fmean(mine):.2f}x |"
        )
        if args.bitbully:
            times = peers["BitBully"][1]
            print(
                f"|   BitBully | | {shown(statistics.fmean(times))} "
                f"| {shown(statistics.median(times))} | | | |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
