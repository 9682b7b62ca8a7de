"""Connect Four answering at once with the default books, as a user meets it: a fresh process's
first answer, ``analyze`` along games a student plays, ``score`` on random 12-stone positions
and on Pons' Begin-Hard stage.

    python benches/connect4_answers.py --fresh 5 --games 300 --random12 1000 \
        --begin-hard 100 --seed 1

* **fresh**: ``import perfectplay.connect4`` then ``connect4.analyze("")`` in a new process
  (the books found, read and checked on the way), wall time inside the process, median of runs.
* **games**: seeded games from the empty board to the end; at every ply ``connect4.analyze``
  of the position (timed), then a best move (the fastest win, the slowest loss) with
  probability 0.8, else a uniformly random legal column (300 games by default: 20 games give
  about 460 positions, whose p99 is the fifth slowest and moves by half from run to run).
  One process, tables kept, as a board or an agent keeps them. Median, p90, p99 and the
  slowest, and the slowest ply; the sum too, which tells a change to the search that moves
  work from one ply to the next. Then the p99 with the analyses a 14-ply book would answer
  counted as instant (the rest as timed, without the bound such a book would give one stone
  past it: an upper estimate; the 13-ply book ships).
  ``--threads`` is ``analyze``'s (default: every core).
* **random12**: ``connect4.score`` of random 12-stone positions of uniformly random play
  (games still going on), mean and median.
* **begin-hard**: ``connect4.score`` of the first positions of Pons' Begin-Hard set (at most
  14 stones, 28 or more moves left under perfect play): his own file with ``--pons-sets DIR``,
  else drawn and graded as ``connect4_peers.py`` draws them; mean and median, tables kept.
  With ``--peers``, then perfectplay, BitBully (with the 12-ply book of bitbully-databases) and
  connect-four-ai (with the depth-8 book packaged in it; see ``connect4_peers.py`` for building
  it) on the same positions, each table reset before each position, every score compared.
* **by-stones** (off unless asked): ``connect4.analyze`` of ``--by-stones N`` random positions
  (``connect4.random_positions``, seeded) of each of 12 to 18 stones, each from cleared
  tables, default threads: mean and slowest for each count of stones.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from perfectplay import connect4

FRESH = (
    "import time; t = time.perf_counter(); from perfectplay import connect4; "
    "connect4.analyze(''); print(time.perf_counter() - t)"
)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def fresh(runs: int) -> None:
    seconds = [
        float(
            subprocess.run(
                [sys.executable, "-c", FRESH], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(runs)
    ]
    print(
        f"fresh process, import + analyze(''): median {statistics.median(seconds):.3f} s "
        f"(runs: {', '.join(f'{s:.3f}' for s in seconds)})"
    )


def best_of(answers: dict[int, tuple[int, int]]) -> list[int]:
    """The best columns: the highest value, then the fewest plies to a win or the most to a
    loss or draw."""

    def rank(item: tuple[int, tuple[int, int]]) -> tuple[int, int]:
        value, plies = item[1]
        return (value, -plies if value > 0 else plies)

    top = max(rank(item) for item in answers.items())
    return [col for col, answer in answers.items() if rank((col, answer)) == top]


def games(count: int, seed: int, threads: int | None) -> None:
    connect4.score("")  # the books loaded before the clock starts (the fresh figure has it)
    rng = random.Random(seed)
    seconds: list[float] = []
    by_ply: dict[int, list[float]] = {}
    for _ in range(count):
        position = connect4.Position.start()
        line: list[int] = []
        while position.legal_moves:
            start = time.perf_counter()
            answers = connect4.analyze(line, threads=threads)
            took = time.perf_counter() - start
            seconds.append(took)
            by_ply.setdefault(len(line), []).append(took)
            column = rng.choice(best_of(answers) if rng.random() < 0.8 else list(answers))
            position = position.play(column)
            line.append(column)
    slowest_ply = max(by_ply, key=lambda ply: max(by_ply[ply]))
    ms = 1000
    print(
        f"analyze along {count} student games ({len(seconds)} positions): median "
        f"{statistics.median(seconds) * ms:.2f} ms, p90 {percentile(seconds, 0.9) * ms:.2f} ms, "
        f"p99 {percentile(seconds, 0.99) * ms:.2f} ms, slowest {max(seconds) * ms:.1f} ms "
        f"(at {slowest_ply} stones), {sum(seconds):.2f} s in all"
    )
    worst = sorted(by_ply, key=lambda ply: -max(by_ply[ply]))[:5]
    print(
        "  slowest plies: " + ", ".join(f"{p} stones {max(by_ply[p]) * ms:.1f} ms" for p in worst)
    )


def timed_scores(lines: list[str]) -> list[float]:
    """The seconds of ``connect4.score`` of each line, tables kept (the books loaded first)."""
    connect4.score("")
    seconds = []
    for line in lines:
        start = time.perf_counter()
        connect4.score(line)
        seconds.append(time.perf_counter() - start)
    return seconds


def random_twelve(count: int, seed: int) -> None:
    rng = random.Random(f"random12-{seed}")
    lines: list[str] = []
    while len(lines) < count:
        position = connect4.Position.start()
        line = ""
        for _ in range(12):
            if not position.legal_moves:
                break
            column = rng.choice(position.legal_moves)
            position = position.play(column)
            line += str(column + 1)
        if position.legal_moves and position.played == 12:
            lines.append(line)
    seconds = timed_scores(lines)
    print(
        f"score of {count} random 12-stone positions: mean "
        f"{statistics.mean(seconds) * 1000:.3f} ms, "
        f"median {statistics.median(seconds) * 1000:.3f} ms"
    )


def begin_hard(count: int, seed: int, folder: str | None, peers: bool) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from connect4_peers import graded_sets, pons_sets

    wanted = {"Begin-Hard": count}
    lines = (pons_sets(folder, wanted) if folder else graded_sets(wanted, seed, 10**12))[
        "Begin-Hard"
    ]
    print(f"Begin-Hard: {'Pons own file in ' + folder if folder else 'drawn as connect4_peers.py'}")
    seconds = timed_scores(lines)
    stones = [len(line) for line in lines]
    print(
        f"score of the first {len(lines)} Begin-Hard positions ({min(stones)}-{max(stones)} "
        f"stones): mean {statistics.mean(seconds) * 1000:.2f} ms, median "
        f"{statistics.median(seconds) * 1000:.2f} ms, slowest {max(seconds) * 1000:.1f} ms"
    )
    if peers:
        books_beside_peers(lines)


def books_beside_peers(lines: list[str]) -> None:
    """perfectplay, BitBully and connect-four-ai, each with its own book, on the same lines, by
    connect4_peers.py's protocol: one thread, the table reset before each position, one pass."""
    from connect4_peers import bitbully, connect_four_ai, ours

    runs = {"perfectplay, its books": ours(lines, False, "packaged")}
    peers = {
        "BitBully, the 12-ply book of bitbully-databases": bitbully,
        "connect-four-ai, the depth-8 book packaged in it": connect_four_ai,
    }
    for name, peer in peers.items():
        try:
            runs[name] = peer(lines, False, book=True)
        except ImportError:
            print(f"  {name}: not installed")
    truth = runs["perfectplay, its books"][0]
    for name, (scores, seconds) in runs.items():
        wrong = [line for line, a, b in zip(lines, scores, truth, strict=True) if a != b]
        if wrong:
            sys.exit(f"{name} disagrees with perfectplay on {wrong[:3]}")
        print(
            f"  {name}, tables reset: mean {statistics.mean(seconds) * 1000:.3f} ms, median "
            f"{statistics.median(seconds) * 1000:.3f} ms, slowest {max(seconds) * 1000:.1f} ms"
        )


def by_stones(count: int, seed: int) -> None:
    connect4.score("")
    for stones in (12, 13, 14, 15, 16, 18):
        seconds = []
        for board in connect4.random_positions(count, seed=seed, plies=(stones, stones)):
            connect4.clear_tables()
            start = time.perf_counter()
            connect4.analyze(board)
            seconds.append(time.perf_counter() - start)
        print(
            f"analyze of {count} random {stones}-stone positions, cleared tables: mean "
            f"{statistics.mean(seconds) * 1000:.2f} ms, slowest {max(seconds) * 1000:.1f} ms"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fresh", type=int, default=5, help="fresh-process runs (default 5)")
    parser.add_argument("--games", type=int, default=300, help="student games (default 300)")
    parser.add_argument("--random12", type=int, default=1000, help="12-stone positions")
    parser.add_argument("--begin-hard", type=int, default=100, help="Begin-Hard positions")
    parser.add_argument("--by-stones", type=int, default=0, help="positions of each stone count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None, help="analyze's threads (games)")
    parser.add_argument(
        "--pons-sets", default=None, metavar="DIR", help="Pons' own files (see connect4_peers.py)"
    )
    parser.add_argument(
        "--peers",
        action="store_true",
        help="Begin-Hard: BitBully and connect-four-ai with their books too (where installed)",
    )
    args = parser.parse_args()
    if args.fresh:
        fresh(args.fresh)
    if args.games:
        games(args.games, args.seed, args.threads)
    if args.random12:
        random_twelve(args.random12, args.seed)
    if args.begin_hard:
        begin_hard(args.begin_hard, args.seed, args.pons_sets, args.peers)
    if args.by_stones:
        by_stones(args.by_stones, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
