"""Reviewing many games, as a rater does: ``python benches/review_games.py`` plays ``--games``
7x6 Connect Four games of a student (a best move with probability 0.8, else a random legal
move; seeded) against itself, then reviews them all: once one game after another on one thread
(``connect4.review``) and once on every core (``review_many``), each from fresh tables (a new
process), and prints the times and the moves reviewed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys

CHILD = """
import json, sys, time
from perfectplay import connect4
from perfectplay._kernel.review import review_many
records, mode = json.loads(sys.stdin.read()), sys.argv[1]
connect4.analyze("")  # the books loaded, as in a warm rater
began = time.perf_counter()
if mode == "one":
    reviews = [connect4.review(record) for record in records]
else:
    reviews = review_many(connect4.review, records)
seconds = time.perf_counter() - began
print(json.dumps({"seconds": seconds, "moves": sum(len(r.moves) for r in reviews)}))
"""


def student_games(count: int, seed: int) -> list[list[int]]:
    from perfectplay import connect4

    rng, games = random.Random(seed), []
    for _ in range(count):
        here, moves = connect4.Position.empty(7, 6), []
        while not here.is_over:
            best = here.best_moves()
            move = rng.choice(best) if rng.random() < 0.8 else rng.choice(here.legal_moves)
            moves.append(move)
            here = here.play(move)
        games.append(moves)
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    games = student_games(options.games, options.seed)
    for mode, what in (("one", "one thread"), ("many", "every core (review_many)")):
        run = subprocess.run(
            [sys.executable, "-c", CHILD, mode],
            input=json.dumps(games),
            capture_output=True,
            text=True,
            check=True,
        )
        answer = json.loads(run.stdout)
        print(
            f"{options.games} games, {answer['moves']:,} moves, {what}: {answer['seconds']:.2f} s"
        )


if __name__ == "__main__":
    main()
