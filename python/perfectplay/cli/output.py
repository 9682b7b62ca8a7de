"""How the ``perfectplay`` command speaks: one-line errors, progress lines, solutions."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable
from typing import Any

__all__ = ["error_text", "moves_text", "one_line", "print_solution", "report_progress"]


def error_text(error: BaseException) -> str:
    """An error's message, never empty (a MemoryError often has none)."""
    if str(error):
        return str(error)
    return "not enough memory" if isinstance(error, MemoryError) else type(error).__name__


def one_line(message: str, most: int = 300) -> str:
    """A message as one line of at most ``most`` characters."""
    message = " ".join(message.split())
    return message if len(message) <= most else message[: most - 3] + "..."


def report_progress(stop: threading.Event, started: float, what: str) -> None:
    """After a second of search, a line on standard error now and then (1, 2, 4, 8 s ...)."""
    wait = 1.0
    while not stop.wait(started + wait - time.monotonic()):
        print(f"perfectplay mnk: still solving {what} ({wait:.0f} s)", file=sys.stderr, flush=True)
        wait *= 2


def moves_text(moves: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{row},{col}" for row, col in moves) or "-"


def print_solution(solution: Any) -> None:
    """A solution as the ``mnk`` and ``tablebase probe`` commands print it."""
    print(f"value: {solution.value:+d}" if solution.value else "value: 0")
    print(f"winner: {solution.winner or 'draw'}")
    print(f"plies: {solution.plies}")
    print(f"best moves: {moves_text(solution.best_moves)}")
    print(f"line: {moves_text(solution.line)}")
