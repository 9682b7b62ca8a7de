"""How soon the board shows every column's value after a click: ``python
benches/web_board_latency.py`` starts ``perfectplay serve`` (two search processes), opens the
board in Chromium at 1280x720 and plays 7x6 Connect Four games by clicks: one perfect game and
``--games`` games of a student (a best move 80% of the time, seeded). For every ply it measures,
in the page, the time from the click to the values of the new position drawn on the board, and
prints the median, p90, p99 and slowest, and how many plies took over 200 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from perfectplay import connect4
from web_server import chromium, running

# Clicks the top cell of a column and resolves with the milliseconds until the board shows the
# values of the position after it (one annotation a legal move, the new move listed).
CLICK_AND_WAIT = """
const [column, legal, ply, done] = arguments;
const cell = document.querySelectorAll("#board svg rect.cell")[column].getBoundingClientRect();
const started = performance.now();
const svg = document.querySelector("#board svg");
svg.dispatchEvent(new MouseEvent("click", { bubbles: true,
  clientX: cell.left + cell.width / 2, clientY: cell.top + cell.height / 2 }));
const check = () => {
  const listed = document.querySelectorAll("#movelist li:not(.redo)").length;
  const hints = document.querySelectorAll("#overlay g.hint").length;
  if (listed === ply && (hints === legal || legal === 0)) done(performance.now() - started);
  else requestAnimationFrame(check);
};
check();
"""


def games(count: int, seed: int) -> list[list[int]]:
    """A perfect game, then ``count`` games of a student: a best move 80% of the time."""
    rng = random.Random(seed)
    found = []
    for game in range(count + 1):
        position, line = connect4.Position(), []
        while not position.is_over:
            best = position.best_moves()
            choice = rng.choice(best) if game == 0 or rng.random() < 0.8 else None
            column = choice if choice is not None else rng.choice(position.legal_moves)
            line.append(column)
            position = position.play(column)
        found.append(line)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="student games (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    browser = chromium(1280, 720)
    if browser is None:
        print("needs Chromium and its driver: apt-get install chromium chromium-driver")
        return 1
    browser.set_script_timeout(120)
    spent: list[float] = []
    try:
        with running("--workers", "2") as server:
            for line in games(args.games, args.seed):
                browser.get(f"{server.url}/#game=connect4")
                browser.execute_async_script(
                    "const done = arguments[0]; const wait = () => document.querySelectorAll("
                    "'#overlay g.hint').length === 7 ? done() : setTimeout(wait, 20); wait();"
                )
                position = connect4.Position()
                for ply, column in enumerate(line, 1):
                    position = position.play(column)
                    legal = 0 if position.is_over else len(position.legal_moves)
                    spent.append(browser.execute_async_script(CLICK_AND_WAIT, column, legal, ply))
    finally:
        browser.quit()
    ordered = sorted(spent)
    over = sum(1 for ms in spent if ms > 200)
    print(
        f"{len(spent)} plies of {args.games + 1} games: median {statistics.median(spent):.0f} ms, "
        f"p90 {ordered[int(0.9 * len(ordered))]:.0f} ms, "
        f"p99 {ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:.0f} ms, "
        f"slowest {ordered[-1]:.0f} ms; {over} over 200 ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
