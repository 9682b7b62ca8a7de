"""What a command of ``perfectplay`` is and what every command shares: ``Command`` (a game's
package names its own commands in its ``Game``; the command line adds them), the types its
arguments are read with, the help of the options many commands take, and how a command speaks
(one-line errors, progress lines, solutions)."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from perfectplay._kernel.args import quoted
from perfectplay._kernel.backend import BACKEND
from perfectplay._kernel.errors import missing_extra

__all__ = [
    "BACKEND_HELP",
    "THREADS_HELP",
    "Command",
    "build_and_save",
    "error_text",
    "moves_text",
    "one_line",
    "positive",
    "print_solution",
    "report_progress",
    "seconds",
    "shape",
]


@dataclass(frozen=True)
class Command:
    """A command of ``perfectplay`` that belongs to one game (``perfectplay openings``)."""

    name: str
    #: One line: what it does (``perfectplay --help`` lists it).
    summary: str
    #: Adds its arguments (each with a help text of its own that gives its default).
    add_arguments: Callable[[argparse.ArgumentParser], None]
    #: Runs it on the parsed arguments; the exit status.
    run: Callable[[argparse.Namespace], int]


def cluster(scheduler: str | None) -> Any:
    """A context manager giving a ``dask.distributed.Client`` of the cluster at ``scheduler``,
    or ``None`` without one (``--scheduler``; needs the dask extra)."""
    if scheduler is None:
        return contextlib.nullcontext()
    try:
        from distributed import Client  # optional: the dask extra
    except ImportError as error:
        raise missing_extra(error, "dask") from error
    return Client(scheduler)  # type: ignore[no-untyped-call]


def shape(text: str) -> tuple[int, int]:
    """ROWSxCOLS, as argparse reads it."""
    rows, sep, cols = text.lower().partition("x")
    if not (sep and rows.isdigit() and cols.isdigit()):
        raise argparse.ArgumentTypeError(f"expected ROWSxCOLS such as 5x4, got {quoted(text)}")
    return int(rows), int(cols)


def seconds(text: str) -> float:
    """A finite, positive number of seconds, as argparse reads it (NaN and inf never end)."""
    try:
        seconds = float(text)
    except ValueError:
        message = f"expected a number of seconds, got {quoted(text)}"
        raise argparse.ArgumentTypeError(message) from None
    if not (math.isfinite(seconds) and seconds > 0):
        raise argparse.ArgumentTypeError(f"expected a finite, positive number, got {quoted(text)}")
    return seconds


def positive(text: str) -> int:
    """A positive whole number, as argparse reads it."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {quoted(text)}")
    return int(text)


BACKEND_HELP = (
    f"which implementation answers: rust (the compiled core) or python (the pure-Python "
    f"twin) (default: {BACKEND})"
)
THREADS_HELP = "worker threads (default: every CPU this process may use)"


def error_text(error: BaseException) -> str:
    """An error's message, never empty (a MemoryError often has none)."""
    if str(error):
        return str(error)
    return "not enough memory" if isinstance(error, MemoryError) else type(error).__name__


def one_line(message: str, most: int = 300) -> str:
    """A message as one line of at most ``most`` characters."""
    message = " ".join(message.split())
    return message if len(message) <= most else message[: most - 3] + "..."


def failed(name: str, error: BaseException) -> int:
    """Says on standard error, in one line, why the command ``name`` failed; returns its exit
    status, 1."""
    print(f"{name}: {one_line(error_text(error))}", file=sys.stderr)
    return 1


def report_progress(stop: threading.Event, started: float, name: str, what: str) -> None:
    """After a second of search, a line on standard error now and then (1, 2, 4, 8 s ...)."""
    wait = 1.0
    while not stop.wait(started + wait - time.monotonic()):
        print(f"{name}: still solving {what} ({wait:.0f} s)", file=sys.stderr, flush=True)
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


def build_and_save(
    name: str, build: Callable[[], Any], summary: Callable[[Any], str], output: str
) -> int:
    """Builds a file's contents, saves them to ``output`` and says what it took."""
    started = time.monotonic()
    built = build()
    built.save(output)
    print(
        f"{name}: {summary(built)} in {time.monotonic() - started:.1f} s, saved to {output}",
        file=sys.stderr,
    )
    return 0
