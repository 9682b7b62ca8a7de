"""Small batches against single calls, for every registered game (report, never assert).

    python benches/small_batch_figures.py

* One-row ``batch_solve`` of each game against one ``solve`` call of the same position (what a
  training loop that labels a position at a time pays for the batch path).
* 64 random 4x4 k=3 positions: one ``mnk.batch_solve`` against a loop of 64 ``mnk.solve``.
Medians of 200 calls (20 for the 64-row case), each call timed on its own; positions come from
each game's ``random_positions`` with seed 1. Tables are cleared before each call where the game
has them, so every answer is searched.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from perfectplay import GAMES, connect4, mnk


def median_us(call: Callable[[], Any], rounds: int, before: Callable[[], Any]) -> float:
    times = []
    for _ in range(rounds):
        before()
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def one_row(name: str) -> tuple[Callable[[], Any], Callable[[], Any], Callable[[], Any]]:
    """(one-row batch, one solve, what clears the tables) for a game's first random position."""
    game = GAMES[name]
    api = game.api()
    clear = getattr(api, "clear_tables", lambda: None)
    if name == "tictactoe":
        rows = api.random_positions(1, seed=1)
        return (lambda: api.batch_solve(rows)), (lambda: api.solve(rows[0])), clear
    if name == "mnk":
        rows = api.random_positions(4, 4, 3, 1, seed=1)
        return (lambda: api.batch_solve(rows, 3)), (lambda: api.solve(rows[0], 3)), clear
    if name == "connect4":
        rows = api.random_positions(1, seed=1, plies=(20, 20))
        board = connect4.Position(rows[0])
        return (lambda: api.batch_solve(rows)), (lambda: api.solve(board.to_array())), clear
    boards, alocs, blocs = api.random_positions("111/111/111", (1, 0), (1, 2), 1, seed=1)
    return (
        (lambda: api.batch_solve(boards, alocs, blocs)),
        (lambda: api.solve(boards[0], tuple(alocs[0]), tuple(blocs[0]))),
        clear,
    )


def main() -> None:
    print(f"{'game':10} {'batch of 1 (us)':>16} {'solve (us)':>11} {'ratio':>7}")
    for name in GAMES:
        batch, solve, clear = one_row(name)
        batch_us, solve_us = median_us(batch, 200, clear), median_us(solve, 200, clear)
        print(f"{name:10} {batch_us:16.1f} {solve_us:11.1f} {batch_us / solve_us:6.2f}x")
    rows = mnk.random_positions(4, 4, 3, 64, seed=1)
    boards = [np.asarray(row) for row in rows]
    clear = getattr(mnk, "clear_tables", lambda: None)
    batch_us = median_us(lambda: mnk.batch_solve(rows, 3), 20, clear)
    loop_us = median_us(lambda: [mnk.solve(board, 3) for board in boards], 20, clear)
    print(
        f"64 rows of 4x4 k=3: batch {batch_us:.0f} us, loop of solve {loop_us:.0f} us, "
        f"ratio {batch_us / loop_us:.2f}x"
    )


if __name__ == "__main__":
    main()
