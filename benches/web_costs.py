"""What the board's server answers itself: ``python benches/web_costs.py`` plays random games
of every board the games' ``searches_little`` calls cheap (7x6 Connect Four at every ply, other
Connect Four boards and m,n,k boards nearly full, footholds up to 5x5) and times
``ranked_moves`` on the position where each game stops (after a random number of moves) if
the predicate accepts it, Connect Four's tables cleared before each, then prints the median,
p99 and slowest per board. A slow one here would hold a server thread; the rest go to its
search processes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from perfectplay import connect4, footholds, mnk
from perfectplay._registry import GAMES

BOARDS: list[tuple[str, Any]] = [
    ("connect4 7x6", lambda: connect4.Position.empty(7, 6)),
    ("connect4 5x4", lambda: connect4.Position.empty(5, 4)),
    ("connect4 6x5", lambda: connect4.Position.empty(6, 5)),
    ("mnk 5x5 k=4", lambda: mnk.Position.empty(5, 5, 4)),
    ("mnk 6x6 k=5", lambda: mnk.Position.empty(6, 6, 5)),
    ("mnk 7x7 k=5", lambda: mnk.Position.empty(7, 7, 5)),
    ("mnk 8x8 k=5", lambda: mnk.Position.empty(8, 8, 5)),
    ("footholds 5x5", lambda: footholds.Position("11111/11111/11111/11111/11111", (0, 0), (4, 4))),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random games per board")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    connect4.analyze("")  # the books are loaded once a process, before the server's first click
    print("| board | positions called cheap | median | p99 | slowest |")
    print("| --- | --- | --- | --- | --- |")
    for name, start in BOARDS:
        game = GAMES[name.split()[0]]
        assert game.searches_little is not None
        times = []
        for _ in range(options.games):
            # A random game, stopped after a random number of moves.
            here = start()
            for _ in range(rng.randrange(here.cells)):
                if here.is_over:
                    break
                here = here.play(rng.choice(here.legal_moves))
            if here.is_over or not game.searches_little(here):
                continue
            if name.startswith("connect4"):
                connect4.clear_tables()
            began = time.perf_counter()
            here.ranked_moves()
            times.append(time.perf_counter() - began)
        times.sort()
        if not times:
            print(f"| {name} | 0 | | | |")
            continue
        shown = [
            f"{statistics.median(times) * 1e3:.2f} ms",
            f"{times[int(0.99 * (len(times) - 1))] * 1e3:.2f} ms",
            f"{times[-1] * 1e3:.2f} ms",
        ]
        print(f"| {name} | {len(times)} | " + " | ".join(shown) + " |")


if __name__ == "__main__":
    main()
