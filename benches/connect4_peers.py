"""Connect Four against Pascal Pons' solver, by his test protocol: six sets of positions from
random games, graded by stage (stones played) and difficulty (moves left under perfect play);
one table reset per position; the mean and median time per position, and their ratio.

    python benches/connect4_peers.py --pons PATH/TO/c4solver --count 1000 --seed 1

Pons' solver (github.com/PascalPons/connect4, AGPL) is built outside this repository: clone it,
check out commit 0f0f713 (the version whose `c4solver` prints "moves score nodes microseconds"
and resets its table for each line, as his benchmark does) and run `make` (-O3). Its opening
book is not used. The sets, as his: End (more than 28 stones played), Middle (15 to 28),
Begin (at most 14); Easy (fewer than 14 moves left under perfect play), Medium (14 to 27),
Hard (28 or more). Positions are random legal games, kept when the game is not over and the
side to move cannot win at once; perfectplay grades them (a position whose grading search
passes `--grade-limit` nodes is dropped, which keeps the hardest out of the Begin sets).
perfectplay answers each with `connect4.score(line, threads=1, book=None)` (one thread and no
book, as the protocol asks) after `connect4.clear_tables()`, timed around
the Python call; Pons' times are his own microseconds per line. Both must give the same score
on every position, or the run stops. `--bitbully` adds BitBully (pip install bitbully), its
MTD(f) after `resetTranspositionTable()`. `--connect-four-ai` adds connect-four-ai (MIT; PyPI
has only a Windows wheel for CPython 3.13, so build it from github.com/benjaminrall/connect-four-ai
with `maturin build --release -m crates/python/Cargo.toml` after lowering `requires-python` in
`crates/python/pyproject.toml` to this Python's, and install the wheel), its
`Solver.solve` after `reset()`, its packaged opening book unloaded. The peers are timed around
their Python calls, as perfectplay is.

`--pons-sets DIR` reads Pons' own six files instead (as his site gives them, Test_L3_R1 to
Test_L1_R3, or as connect-four-ai's repository ships them, end-easy to begin-hard), the first
`--count` lines of each. `--books` adds perfectplay with its default books (the packaged
depth-6 book and the 12- and 13-ply books), with `--bitbully` BitBully with the same 12-ply
book, and with `--connect-four-ai` connect-four-ai with the depth-8 book packaged in it.

`--rounds N` times perfectplay and Pons N times in turn on each set (Pons, perfectplay, Pons,
...) and reports each side's median of its N means, and the median of the N ratios: on a shared
machine the speed of the whole machine can change by half between one second and the next,
which a single pass of each side, one after the other, turns into its ratio. The other peers
answer once.

Every peer answers each set twice and only the second pass is timed (`--no-warm-up` times a
single pass), so that no side's figures hold its one-time costs: Pons' solver allocates and
zeroes its table before its clock starts, while perfectplay allocates its table at the first
call and the system maps its pages at their first touch (about 70 us and 120 us on the first
positions of End-Easy, where a whole position takes 2 us). Each position still starts from a
cleared table, on every side and in both passes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from perfectplay import SearchLimitExceeded, connect4

STAGES = {"End": (29, 41), "Middle": (15, 28), "Begin": (1, 14)}
LEVELS = {"Easy": (0, 13), "Medium": (14, 27), "Hard": (28, 42)}
SETS = ["End-Easy", "Middle-Easy", "Middle-Medium", "Begin-Easy", "Begin-Medium", "Begin-Hard"]


def random_game(rng: random.Random, low: int, high: int) -> str | None:
    """A random game of ``low..high`` stones, still going on, whose side to move cannot win at
    once, as Pons' move string; None when the random game ended early."""
    position = connect4.Position.start()
    columns: list[int] = []
    for _ in range(rng.randint(low, high)):
        legal = position.legal_moves
        if not legal:
            return None
        column = rng.choice(legal)
        position = position.play(column)
        columns.append(column)
    legal = position.legal_moves
    if not legal or any(position.play(c).winner for c in legal):
        return None
    return "".join(str(c + 1) for c in columns)


def moves_left(line: str, score: int) -> int:
    """Moves left under perfect play, from Pons' score (a win or loss ends with the winner's
    stone number 22 - |score|; a draw fills the board)."""
    played = len(line)
    if score == 0:
        return 42 - played
    winner_first = (played % 2 == 0) == (score > 0)
    winner_stones = 22 - abs(score)
    end = 2 * winner_stones - 1 if winner_first else 2 * winner_stones
    return end - played


def graded_sets(counts: dict[str, int], seed: int, limit: int) -> dict[str, list[str]]:
    """``counts[name]`` positions of each wanted set (fewer when a set runs dry)."""
    sets: dict[str, list[str]] = {name: [] for name in counts}
    for stage in {name.split("-")[0] for name in counts}:
        rng = random.Random(f"{stage}-{seed}")
        low, high = STAGES[stage]
        levels = [name for name in counts if name.startswith(stage)]
        largest = max(counts[name] for name in levels)
        tries = 0
        while any(len(sets[name]) < counts[name] for name in levels) and tries < 20 * largest:
            tries += 1
            line = random_game(rng, low, high)
            if line is None:
                continue
            connect4.clear_tables()
            try:
                score = connect4.score(line, node_limit=limit, threads=1, book=None)
            except SearchLimitExceeded:
                continue
            left = moves_left(line, score)
            for level, (fewest, most) in LEVELS.items():
                name = f"{stage}-{level}"
                if name in sets and fewest <= left <= most and len(sets[name]) < counts[name]:
                    sets[name].append(line)
    return sets


def timed_passes(
    lines: list[str], warm_up: bool, prepared: Callable[[str], Callable[[], int]]
) -> tuple[list[int], list[float]]:
    """Each line's score and the seconds of its call, in the last of two passes (one without
    ``warm_up``). ``prepared(line)`` does what is not timed (reading the line, clearing the
    table) and gives the call that is."""
    scores: list[int] = []
    seconds: list[float] = []
    for _ in range(2 if warm_up else 1):
        scores, seconds = [], []
        for line in lines:
            answer = prepared(line)
            start = time.perf_counter()
            scores.append(answer())
            seconds.append(time.perf_counter() - start)
    return scores, seconds


def ours(lines: list[str], warm_up: bool, book: str | None = None) -> tuple[list[int], list[float]]:
    """``book=None``: Pons' protocol (no book); ``'packaged'``: the default books."""

    def prepared(line: str) -> Callable[[], int]:
        connect4.clear_tables()
        return lambda: connect4.score(line, threads=1, book=book)

    return timed_passes(lines, warm_up, prepared)


#: The files of Pons' six sets, by his names and by connect-four-ai's (which ships them).
PONS_FILES = {
    "End-Easy": ("Test_L3_R1", "end-easy"),
    "Middle-Easy": ("Test_L2_R1", "middle-easy"),
    "Middle-Medium": ("Test_L2_R2", "middle-medium"),
    "Begin-Easy": ("Test_L1_R1", "begin-easy"),
    "Begin-Medium": ("Test_L1_R2", "begin-medium"),
    "Begin-Hard": ("Test_L1_R3", "begin-hard"),
}


def pons_sets(folder: str, counts: dict[str, int]) -> dict[str, list[str]]:
    """The first ``counts[name]`` positions of Pons' own files in ``folder``."""
    sets = {}
    for name, count in counts.items():
        for file in PONS_FILES[name]:
            path = Path(folder) / file
            if path.exists():
                sets[name] = [row.split()[0] for row in path.read_text().splitlines()[:count]]
                break
        else:
            sys.exit(f"{folder} has none of {PONS_FILES[name]}")
    return sets


def pons(binary: str, lines: list[str], warm_up: bool) -> tuple[list[int], list[float]]:
    passes = 2 if warm_up else 1
    run = subprocess.run(
        [binary],
        input="".join(line + "\n" for line in lines) * passes,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [row.split() for row in run.stdout.splitlines()][(passes - 1) * len(lines) :]
    if len(rows) != len(lines) or any(len(row) != 4 for row in rows):
        sys.exit("the Pons solver must print 'moves score nodes microseconds' for every line")
    return [int(row[1]) for row in rows], [int(row[3]) / 1e6 for row in rows]


def bitbully(lines: list[str], warm_up: bool, book: bool = False) -> tuple[list[int], list[float]]:
    """``book``: BitBully with bitbully-databases' 12-ply book with distances."""
    from bitbully import bitbully_core  # type: ignore[import-not-found,import-untyped,unused-ignore]

    if book:
        from perfectplay.connect4 import openings

        solver = bitbully_core.BitBullyCore(openings.deep_path())
        if not solver.isBookLoaded():
            sys.exit("BitBully did not load its book")
    else:
        solver = bitbully_core.BitBullyCore()
        if solver.isBookLoaded():
            sys.exit("BitBully has an opening book loaded")

    def prepared(line: str) -> Callable[[], int]:
        board = bitbully_core.BoardCore()
        if not board.setBoard([int(c) - 1 for c in line]):
            sys.exit(f"BitBully refused {line}")
        solver.resetTranspositionTable()
        return lambda: solver.mtdf(board, 0)

    return timed_passes(lines, warm_up, prepared)


def connect_four_ai(
    lines: list[str], warm_up: bool, book: bool = False
) -> tuple[list[int], list[float]]:
    """``book``: connect-four-ai with the opening book packaged in it (depth 8)."""
    import connect_four_ai  # type: ignore[import-not-found,import-untyped,unused-ignore]

    solver = connect_four_ai.Solver()
    # Loading a book that does not exist leaves the solver without one (its book is packaged).
    if not book and solver.load_opening_book("/nonexistent/no-book.bin"):
        sys.exit("connect-four-ai kept an opening book")

    def prepared(line: str) -> Callable[[], int]:
        position = connect_four_ai.Position.from_moves(line)
        solver.reset()
        return lambda: solver.solve(position)

    return timed_passes(lines, warm_up, prepared)


def shown(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} us"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pons", required=True, help="Pons' c4solver (commit 0f0f713)")
    parser.add_argument(
        "--pons-sets",
        default=None,
        metavar="DIR",
        help="read the positions from Pons' own files in DIR (Test_L3_R1 ... Test_L1_R3, or "
        "connect-four-ai's end-easy ... begin-hard) instead of drawing them",
    )
    parser.add_argument(
        "--books",
        action="store_true",
        help="also time perfectplay with its default books and the peers with theirs",
    )
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--count", type=int, default=1000, help="positions per set")
    parser.add_argument("--hard-count", type=int, default=10, help="positions of Begin-Hard")
    parser.add_argument("--grade-limit", type=int, default=10**9, help="nodes to grade one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="time Pons and perfectplay in turn this many times (the medians are shown)",
    )
    parser.add_argument("--bitbully", action="store_true")
    parser.add_argument("--connect-four-ai", action="store_true")
    parser.add_argument(
        "--no-warm-up",
        dest="warm_up",
        action="store_false",
        help="time the first pass over each set (see the module's documentation)",
    )
    args = parser.parse_args()
    wanted = args.sets.split(",")
    counts = {name: args.hard_count if name == "Begin-Hard" else args.count for name in wanted}
    if args.pons_sets:
        sets = pons_sets(args.pons_sets, counts)
    else:
        sets = graded_sets(counts, args.seed, args.grade_limit)
    print("| set | positions | perfectplay mean | median | Pons mean | median | ratio of means |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in wanted:
        lines = sets[name]
        if not lines:
            print(f"| {name} | 0 | | | | | |")
            continue
        rounds = [
            (pons(args.pons, lines, args.warm_up), ours(lines, args.warm_up))
            for _ in range(max(args.rounds, 1))
        ]
        peers = {"Pons": rounds[0][0], "perfectplay": rounds[0][1]}
        if args.bitbully:
            peers["BitBully"] = bitbully(lines, args.warm_up)
        if args.books:
            peers["perfectplay, books"] = ours(lines, args.warm_up, "packaged")
            if args.bitbully:
                peers["BitBully, 12-ply book"] = bitbully(lines, args.warm_up, book=True)
        if args.connect_four_ai:
            peers["connect-four-ai"] = connect_four_ai(lines, args.warm_up)
            if args.books:
                peers["connect-four-ai, its book"] = connect_four_ai(lines, args.warm_up, book=True)
        truth = peers["Pons"][0]
        answers = [*peers.items()] + [
            (side, run)
            for pair in rounds[1:]
            for side, run in zip(("Pons", "perfectplay"), pair, strict=True)
        ]
        for peer, (scores, _) in answers:
            wrong = [line for line, a, b in zip(lines, scores, truth, strict=True) if a != b]
            if wrong:
                sys.exit(f"{peer} disagrees with Pons on {wrong[:3]}")
        mine = [statistics.fmean(run[1]) for _, run in rounds]
        theirs = [statistics.fmean(run[1]) for run, _ in rounds]
        medians = [statistics.median(run[1]) for _, run in rounds]
        their_medians = [statistics.median(run[1]) for run, _ in rounds]
        ratios = [b / a for a, b in zip(mine, theirs, strict=True)]
        shown_ratios = f" ({', '.join(f'{r:.2f}' for r in ratios)})" if len(ratios) > 1 else ""
        print(
            f"| {name} | {len(lines)} "
            f"| {shown(statistics.median(mine))} | {shown(statistics.median(medians))} "
            f"| {shown(statistics.median(theirs))} | {shown(statistics.median(their_medians))} "
            f"| {statistics.median(ratios):.2f}x{shown_ratios} |",
            flush=True,
        )
        mine_first = statistics.fmean(peers["perfectplay"][1])
        for peer in (
            "BitBully",
            "connect-four-ai",
            "perfectplay, books",
            "BitBully, 12-ply book",
            "connect-four-ai, its book",
        ):
            if peer in peers:
                times = peers[peer][1]
                print(
                    f"| {name}, {peer} | | {shown(statistics.fmean(times))} "
                    f"| {shown(statistics.median(times))} | | "
                    f"| {statistics.fmean(times) / mine_first:.2f}x |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
