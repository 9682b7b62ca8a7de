"""What every judge format shares: reading the input's lines, the options a reader is told,
the error a bad line raises and ``Format``, which a game's package fills in for each of its
commands (its ``judge.py``, named in its ``game.py``). ``perfectplay.judge`` lists them all.

Bad input raises ``InputError`` naming the input line and the problem.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from perfectplay._kernel.errors import SearchLimitExceeded

__all__ = [
    "Argument",
    "Format",
    "InputError",
    "Options",
    "Write",
    "answer",
    "nonblank",
    "numbered",
    "shown",
]

Write = Callable[[str], object]


@dataclass(frozen=True)
class Options:
    """What a reader may be told beyond its input: the backend, and the values of its format's
    own command-line arguments (``Format.arguments``) by their names."""

    backend: str
    flags: Mapping[str, Any] = field(default_factory=dict)
    #: Where a reader that goes on past a bad line (Connect Four, as Pons' solver does) reports
    #: it; without one, a bad line raises.
    report: Callable[[InputError], None] | None = None


class InputError(Exception):
    """Bad input at a line (1-based) of the input."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")


#: The longest line read (a stream with no newline in sight, such as ``/dev/zero``, is not
#: read for ever).
MOST_LINE = 1 << 24


def numbered(
    stream: IO[bytes], report: Callable[[InputError], None] | None = None
) -> Iterator[tuple[int, str]]:
    """(line number, line without its newline) for every line of a binary stream, decoded as
    UTF-8 whatever the locale says, so both backends read the very same text; a UTF-8
    byte-order mark before the first line is dropped. A line that is not UTF-8 is reported and
    skipped when there is a ``report`` (a format that goes on past a bad line), else raised; a
    line longer than ``MOST_LINE`` bytes ends the input."""
    number = 0
    while raw := stream.readline(MOST_LINE + 1):
        number += 1
        if len(raw) > MOST_LINE:
            raise InputError(number, f"a line longer than {MOST_LINE:,} bytes: not a case")
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            bad = InputError(number, f"input is not UTF-8 text (byte {error.start + 1})")
            if report is None:
                raise bad from None
            report(bad)
            continue
        yield number, line.rstrip("\r\n")


def shown(text: str) -> str:
    """A piece of input quoted in a message: cut short, so a huge bad line is not echoed whole."""
    text = text.strip()
    if len(text) <= 40:
        return repr(text)
    return f"{text[:40]!r}... ({len(text)} characters)"


def nonblank(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    return ((number, line) for number, line in lines if line.strip())


def answer(line: int, query: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Runs one query, turning a rejected board into an InputError at its line."""
    try:
        return query(*args, **kwargs)
    except (ValueError, TypeError, MemoryError, SearchLimitExceeded) as error:
        raise InputError(line, str(error)) from None


@dataclass(frozen=True)
class Argument:
    """One command-line argument of a judge format: ``add_argument(*flags, **settings)``."""

    flags: tuple[str, ...]
    settings: Mapping[str, Any]


@dataclass(frozen=True)
class Format:
    """A judge format: its reader and what it answers."""

    run: Callable[[Iterator[tuple[int, str]], Write, Options], None]
    summary: str
    #: What the input looks like, for ``--help``.
    input_format: str = ""
    #: Does a bad line only skip that line (as Pons' solver goes on), not end the input?
    goes_on: bool = False
    #: The format's own command-line arguments; a reader finds their values in
    #: ``Options.flags`` by their ``dest``.
    arguments: tuple[Argument, ...] = ()
