"""Connect Four search against Christophe Steininger's c4, the fastest search solver found, on
the same machine with the same threads and table memory, no opening book on either side, each
side's table kept from one position to the next: on 7x6, Pons' Begin-Medium and Begin-Hard sets
and the empty board; on any board (10x6 past 64 bits), Steininger's own test sets.

    python benches/connect4_steininger.py --source PATH/TO/c4 --sets PATH/TO/SETS --threads 1,2
    python benches/connect4_steininger.py --source PATH/TO/c4 --board 10x6 \
        --his-sets endgame_L1,midgame_L1,midgame_L2 --count 200 --threads 2

Steininger's solver (github.com/ChristopheSteininger/c4, AGPL) is never part of perfectplay:
`--source` names a checkout of it made beforehand (nothing is downloaded). Without it the
benchmark says so and exits 0. Its `src` is copied into a temporary folder, `settings.h` is
set to the board (`--board`, 7x6 by default), the threads and the table (`--table-mb`, 1024 by
default: his 1 GB table of 134,217,757 entries; perfectplay gets `table_mb=1024`), and it is
built with his release flags (`g++ -std=c++20 -Wall -O3 -flto -DNDEBUG`) together with a
driver of a few lines written here: it reads one line of 0-based column digits, solves it
strongly (`Solver::solve_strong`, the exact score, in Pons' convention) and prints the score
and the microseconds around that call; the first line's time includes making the solver and
its table, as perfectplay's first call includes making its own.

`--sets` is a folder with Pons' 7x6 files (Test_L1_R2 and Test_L1_R3 as his site gives them,
or begin-medium and begin-hard as connect-four-ai's repository ships them); the first
`--medium` and `--hard` lines are used. `--his-sets` names files of Steininger's
`tst/data/WIDTHxHEIGHT` folder of the board (0-based column digits and the score; 10x6 has
endgame_L1, midgame_L1, midgame_L2, opening_L1 and opening_L2), of which the first `--count`
lines are used. Every answer of both solvers is checked against the file's expected score.
perfectplay answers `connect4.score(columns, width=W, height=H, threads=T, table_mb=M,
book=None)` in one process, timed around the call. The empty 7x6 board is solved by each side
in a fresh process. The ratio is his time over perfectplay's: above 1, perfectplay is faster.

`--rounds N` runs each workload N times in turn (Steininger, perfectplay, Steininger, ...), each
run a fresh process, and shows each side's median time with the ratio of the medians and each
round's ratio in brackets: a shared machine's speed can change by half from one minute to the
next, which one run of each, one after the other, turns into the ratio.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES = {"Begin-Medium": ["Test_L1_R2", "begin-medium"], "Begin-Hard": ["Test_L1_R3", "begin-hard"]}

DRIVER = r"""
#include <chrono>
#include <iostream>
#include <string>

#include "solver/position.h"
#include "solver/solver.h"

int main() {
    // The first answer's time includes making the solver and its table, as perfectplay's
    // first call includes making its table.
    auto start = std::chrono::steady_clock::now();
    Solver solver{};
    bool first = true;
    std::string line;
    while (std::getline(std::cin, line)) {
        Position pos{};
        for (char c : line) pos.move(c - '0');
        if (!first) start = std::chrono::steady_clock::now();
        first = false;
        int score = solver.solve_strong(pos);
        auto spent = std::chrono::steady_clock::now() - start;
        std::cout << score << " "
                  << std::chrono::duration_cast<std::chrono::microseconds>(spent).count()
                  << std::endl;
    }
}
"""

OURS = """
import sys, time
from perfectplay import connect4
threads, table_mb, width, height = map(int, sys.argv[1:5])
for line in sys.stdin.read().split("\\n")[:-1]:
    columns = [int(digit) for digit in line]
    start = time.perf_counter()
    score = connect4.score(
        columns, width=width, height=height, threads=threads, table_mb=table_mb, book=None
    )
    print(score, round((time.perf_counter() - start) * 1e6))
"""


def build(source: Path, folder: Path, board: tuple[int, int], threads: int, table_mb: int) -> Path:
    """Steininger's solver with our driver, for `board`, `threads` threads and a table of
    `table_mb` MiB (an odd number of 8-byte entries, as his table needs)."""
    shutil.copytree(source / "src", folder / "src")
    settings = folder / "src" / "solver" / "settings.h"
    entries = table_mb * 1024 * 1024 // 8 | 1
    if table_mb == 1024:
        entries = 134_217_757  # his own prime for 1 GB
    text = settings.read_text()
    for name, value in [
        ("BOARD_WIDTH", str(board[0])),
        ("BOARD_HEIGHT", str(board[1])),
        ("NUM_THREADS", str(threads)),
        ("NUM_TABLE_ENTRIES", str(entries)),
    ]:
        text, count = re.subn(rf"({name} = )[^;]+;", rf"\g<1>{value};", text)
        if count != 1:
            sys.exit(f"{settings}: no setting {name}")
    settings.write_text(text)
    (folder / "driver.cpp").write_text(DRIVER)
    sources = [str(path) for path in (folder / "src" / "solver").rglob("*.cpp")]
    binary = folder / "c4-driver"
    flags = ["-std=c++20", "-Wall", "-O3", "-flto", "-DNDEBUG", "-pthread"]
    command = ["g++", *flags, "-I", str(folder / "src"), str(folder / "driver.cpp"), *sources]
    subprocess.run([*command, "-o", str(binary)], check=True)
    return binary


def answers(command: list[str], lines: list[str]) -> list[tuple[int, float]]:
    """(score, seconds) of every line, from a fresh process of `command`."""
    run = subprocess.run(
        command, input="".join(line + "\n" for line in lines), capture_output=True, text=True
    )
    if run.returncode != 0:
        sys.exit(f"{command[0]} failed: {run.stderr.strip()[-400:]}")
    rows = [row.split() for row in run.stdout.splitlines()]
    return [(int(score), int(micros) / 1e6) for score, micros in rows]


def read_set(folder: Path, name: str, count: int) -> list[tuple[str, int]]:
    """The first `count` rows of one of Pons' files: his 1-based move strings and scores."""
    for file in FILES[name]:
        path = folder / file
        if path.exists():
            rows = [row.split() for row in path.read_text().splitlines()[:count]]
            return [(moves, int(score)) for moves, score in rows]
    sys.exit(f"{folder} has none of {FILES[name]}")


def zero_based(rows: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Pons' rows with their columns counted from 0, as the driver reads them."""
    return [("".join(str(int(digit) - 1) for digit in moves), score) for moves, score in rows]


def read_his_sets(
    source: Path, board: str, names: list[str], count: int
) -> dict[str, list[tuple[str, int]]]:
    """The first `count` rows of Steininger's own sets for `board` (his tst/data: 0-based
    column digits and the exact score)."""
    sets = {}
    for name in names:
        path = source / "tst" / "data" / board / f"{name}.txt"
        if not path.exists():
            sys.exit(f"{path} does not exist")
        rows = [row.split() for row in path.read_text().splitlines()[:count]]
        sets[f"{board} {name}"] = [(moves, int(score)) for moves, score in rows]
    return sets


def show_slowest(
    name: str, lines: list[str], his: list[tuple[int, float]], ours: list[tuple[int, float]], n: int
) -> None:
    """The `n` positions each side took longest over, with both sides' times (to stderr)."""
    for side, times in (("Steininger", his), ("perfectplay", ours)):
        order = sorted(range(len(lines)), key=lambda i: -times[i][1])[:n]
        for i in order:
            print(
                f"{name}: {side}'s slowest: line {i + 1} {lines[i]!r}: "
                f"Steininger {his[i][1]:.3f} s, perfectplay {ours[i][1]:.3f} s",
                file=sys.stderr,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", help="a checkout of github.com/ChristopheSteininger/c4")
    parser.add_argument("--sets", help="a folder with Pons' test sets")
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated (1,2)")
    parser.add_argument("--table-mb", type=int, default=1024, help="table memory in MiB (1024)")
    parser.add_argument("--medium", type=int, default=200, help="Begin-Medium lines (200)")
    parser.add_argument("--hard", type=int, default=30, help="Begin-Hard lines (30)")
    parser.add_argument("--no-empty", action="store_true", help="leave out the empty board")
    parser.add_argument("--board", default="7x6", help="the board, WIDTHxHEIGHT (7x6)")
    parser.add_argument(
        "--his-sets",
        default="",
        help="names of Steininger's own sets for the board, comma-separated (his tst/data)",
    )
    parser.add_argument("--count", type=int, default=1000, help="lines of each of his sets")
    parser.add_argument(
        "--slowest", type=int, default=0, help="show each side's N slowest positions (0)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of each side, in turn (1)")
    args = parser.parse_args()
    if not args.source or not Path(args.source, "src", "solver", "settings.h").exists():
        print("no Steininger source folder given (--source): nothing to compare")
        return 0
    width, height = (int(side) for side in args.board.split("x"))
    sets: dict[str, list[tuple[str, int]]] = {}
    if args.sets:
        sets["Begin-Medium"] = zero_based(read_set(Path(args.sets), "Begin-Medium", args.medium))
        sets["Begin-Hard"] = zero_based(read_set(Path(args.sets), "Begin-Hard", args.hard))
    if args.his_sets:
        names = args.his_sets.split(",")
        sets.update(read_his_sets(Path(args.source), args.board, names, args.count))
    if not args.no_empty and args.board == "7x6":
        sets["empty 7x6 board"] = [("", 1)]
    print(f"table: {args.table_mb} MiB on both sides; no book; {time.strftime('%Y-%m-%d')}")
    print("| positions | threads | Steininger c4 | perfectplay | ratio (his / ours) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for threads in (int(count) for count in args.threads.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            binary = build(Path(args.source), Path(folder), (width, height), threads, args.table_mb)
            for name, rows in sets.items():
                lines = [moves for moves, _ in rows]
                ours_command = [
                    sys.executable,
                    "-c",
                    OURS,
                    *map(str, (threads, args.table_mb, width, height)),
                ]
                totals: list[tuple[float, float]] = []
                for _ in range(max(args.rounds, 1)):
                    his = answers([str(binary)], lines)
                    ours = answers(ours_command, lines)
                    for (moves, expected), (his_score, _), (our_score, _) in zip(
                        rows, his, ours, strict=True
                    ):
                        if his_score != expected or our_score != expected:
                            sys.exit(
                                f"{name} {moves!r}: expected {expected}, Steininger "
                                f"{his_score}, perfectplay {our_score}"
                            )
                    totals.append((sum(s for _, s in his), sum(s for _, s in ours)))
                    if args.slowest:
                        show_slowest(name, lines, his, ours, args.slowest)
                his_time = statistics.median(his_total for his_total, _ in totals)
                our_time = statistics.median(our_total for _, our_total in totals)
                ratio = f"{his_time / our_time:.2f}"
                if len(totals) > 1:
                    each_round = [his_total / our_total for his_total, our_total in totals]
                    ratio += " (" + ", ".join(f"{each:.2f}" for each in each_round) + ")"
                shown = [f"{his_time:.2f} s", f"{our_time:.2f} s", ratio]
                cells = [f"{name} ({len(rows)})", str(threads), *shown]
                print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
