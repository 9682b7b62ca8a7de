"""The judge formats: each reads a problem's input, line by line, and writes perfectplay's
answers in the problem's output format. The ``perfectplay`` command and the stress tester both
answer through these readers, so they print the very same answers.

Bad input raises ``InputError`` naming the input line and the problem.
"""

from __future__ import annotations

import codecs
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from perfectplay._backend import implementation
from perfectplay.errors import SearchLimitExceeded

__all__ = ["FORMATS", "Format", "InputError", "numbered"]

Write = Callable[[str], object]


@dataclass(frozen=True)
class Options:
    """What a reader may be told beyond its input: the backend, and Connect Four's flags."""

    backend: str
    analyze: bool = False
    weak: bool = False
    width: int | None = None
    height: int | None = None
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


def _shown(text: str) -> str:
    """A piece of input quoted in a message: cut short, so a huge bad line is not echoed whole."""
    text = text.strip()
    if len(text) <= 40:
        return repr(text)
    return f"{text[:40]!r}... ({len(text)} characters)"


def _nonblank(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    return ((number, line) for number, line in lines if line.strip())


def _answer(line: int, query: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Runs one query, turning a rejected board into an InputError at its line."""
    try:
        return query(*args, **kwargs)
    except (ValueError, TypeError, MemoryError, SearchLimitExceeded) as error:
        raise InputError(line, str(error)) from None


def run_tictactoe(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """Algospot TICTACTOE: T, then T boards of three rows of ``x o .``; prints x, o or TIE."""
    api = implementation("tictactoe", options.backend)
    rows = _nonblank(lines)
    first = next(rows, None)
    if first is None:
        raise InputError(1, "expected the number of boards, got end of input")
    number, text = first
    try:
        count = int(text)
    except ValueError:
        raise InputError(number, f"expected the number of boards, got {_shown(text)}") from None
    if count < 0:
        raise InputError(number, f"the number of boards must not be negative, got {count}")
    for _ in range(count):
        board = list(itertools.islice(rows, 3))
        if len(board) < 3:
            raise InputError(number + 1, "expected a board row, got end of input")
        for number, text in board:
            if len(text.strip()) != 3:
                raise InputError(number, f"a board row has 3 cells, got {_shown(text)}")
        text = "/".join(row for _, row in board)
        outcome = _answer(board[0][0], api.outcome, text)
        write("TIE\n" if outcome == "draw" else f"{outcome}\n")
    extra = next(rows, None)
    if extra is not None:
        raise InputError(extra[0], f"unexpected input after {count} boards")


def run_alpha(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """BOJ 16571: nine integers per board (0 empty, 1 X, 2 O); prints W, D or L for the side
    to move."""
    api = implementation("tictactoe", options.backend)
    cells: list[str] = []
    start = 0
    number = 0
    for number, text in lines:
        for token in text.split():
            if not cells:
                start = number
            cells.append(token)
            if len(cells) == 9:
                board = cells
                value = _answer(start, api.value, board)
                write("WDL"[1 - value] + "\n")
                cells = []
    if cells:
        raise InputError(number, f"a board has 9 cells, the last one has {len(cells)}")
    if start == 0:
        raise InputError(max(number, 1), "expected a board of nine integers, got end of input")


def run_final(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """BOJ 7682: lines of nine characters from ``X O .`` up to ``end``; prints valid or
    invalid."""
    api = implementation("tictactoe", options.backend)
    for number, text in _nonblank(lines):
        board = text.strip()
        if board == "end":
            return
        if len(board) != 9:
            raise InputError(number, f"a board has 9 characters, got {_shown(board)}")
        valid = _answer(number, api.is_valid_final, board)
        write("valid\n" if valid else "invalid\n")
    # The judge's input ends with "end"; the answers stand, but say that it was missing.
    print("perfectplay final: warning: the input ended without its 'end' line", file=sys.stderr)


def run_footholds(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """KAKAO 2022 disappearing footholds: one JSON object a line with board, aloc and bloc;
    prints the total number of moves under perfect play."""
    api = implementation("footholds", options.backend)
    for number, text in _nonblank(lines):
        try:
            case = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(number, f"invalid JSON: {error.msg}") from None
        except ValueError as error:  # an integer of more digits than Python converts
            raise InputError(number, f"invalid JSON: {error}") from None
        except RecursionError:
            raise InputError(number, "invalid JSON: nested too deeply") from None
        if not isinstance(case, dict):
            raise InputError(number, "expected a JSON object with board, aloc and bloc")
        missing = [key for key in ("board", "aloc", "bloc") if key not in case]
        if missing:
            raise InputError(number, f"missing {', '.join(missing)}")
        moves = _answer(number, api.total_moves, case["board"], case["aloc"], case["bloc"])
        write(f"{moves}\n")


# Pons' score of a column that cannot be played, as his solver prints it with -a.
INVALID_MOVE = -1000


def run_connect4(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """Pascal Pons' solver's format: one move string a line (columns from 1); prints the line
    and its score, or with ``analyze`` the score of every column (-1000 where it cannot be
    played), each from the side to move. As in his solver, a line whose last move makes four
    is refused (the game is over), a bad line is reported and the next ones answered, and an
    empty line is the empty board."""
    from perfectplay.connect4 import Position

    api = implementation("connect4", options.backend)
    for number, text in lines:
        try:
            write(_connect4_answer(number, text.strip(), api, Position, options))
        except InputError as error:
            if options.report is None:
                raise
            options.report(error)


def _connect4_answer(
    number: int, line: str, api: Any, position_class: Any, options: Options
) -> str:
    if not all("1" <= char <= "9" for char in line):
        raise InputError(
            number, f"a line is a move string, columns numbered from 1, got {_shown(line)}"
        )
    size = {"width": options.width, "height": options.height}
    position = _answer(number, position_class, line, **size)
    if position.winner is not None:
        raise InputError(
            number, f"the game is over after the last move of {_shown(line)} (four in a row)"
        )
    if not options.analyze:
        return f"{line} {_answer(number, api.score, line, weak=options.weak, **size)}\n"
    played = [int(digit) - 1 for digit in line]
    scores = [INVALID_MOVE] * position.width
    for column in position.legal_moves:
        if position.play(column).winner is not None:
            scores[column] = (position.width * position.height + 1 - len(played)) // 2
        else:
            scores[column] = -_answer(
                number, api.score, [*played, column], weak=options.weak, **size
            )
    return f"{line} {' '.join(str(score) for score in scores)}\n"


@dataclass(frozen=True)
class Format:
    """A judge format: its reader and what it answers."""

    run: Callable[[Iterator[tuple[int, str]], Write, Options], None]
    summary: str
    game: str
    #: What the input looks like, for ``--help``.
    input_format: str = ""
    #: Does a bad line only skip that line (as Pons' solver goes on), not end the input?
    goes_on: bool = False


FORMATS: dict[str, Format] = {
    "tictactoe": Format(
        run_tictactoe,
        "Algospot TICTACTOE: who wins (x, o or TIE)",
        "tictactoe",
        "input: a count T, then T boards of three lines of x o . (such as 'xx.' 'oo.' '...')",
    ),
    "alpha": Format(
        run_alpha,
        "BOJ 16571 alpha tic-tac-toe: W, D or L for the side to move",
        "tictactoe",
        "input: one board of nine integers (0 empty, 1 X, 2 O), three a line",
    ),
    "final": Format(
        run_final,
        "BOJ 7682: is each board a valid final position",
        "tictactoe",
        "input: lines of nine characters from X O . (such as XXXOO....), then a line 'end'",
    ),
    "footholds": Format(
        run_footholds,
        "KAKAO 2022 disappearing footholds: total moves",
        "footholds",
        'input: one JSON object a line, such as {"board": [[1, 1, 1], [1, 1, 1], [1, 1, 1]], '
        '"aloc": [1, 0], "bloc": [1, 2]}',
    ),
    "connect4": Format(
        run_connect4,
        "Connect Four in Pascal Pons' format: the score of each line",
        "connect4",
        "input: one move string a line, columns from 1 (such as 4453); an empty line is the "
        "empty board",
        goes_on=True,
    ),
}


def answers(problem: str, text: str, backend: str, **options: Any) -> list[str]:
    """perfectplay's answers to a whole input in the format ``problem``, one per case."""
    written: list[str] = []
    lines = enumerate(text.splitlines(), start=1)
    FORMATS[problem].run(lines, written.append, Options(backend, **options))
    return "".join(written).splitlines()
