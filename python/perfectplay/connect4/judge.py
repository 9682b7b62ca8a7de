"""Connect Four's judge format: Pascal Pons' solver's input and output (``c4solver``), with
his ``-a`` and ``-w`` and other board sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.judge import Argument, Format, InputError, Options, Write, answer, shown
from perfectplay.connect4 import Position

__all__ = ["FORMATS", "INVALID_MOVE"]


# Pons' score of a column that cannot be played, as his solver prints it with -a.
INVALID_MOVE = -1000


def run_connect4(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """Pascal Pons' solver's format: one move string a line (columns from 1); prints the line
    and its score, or with ``analyze`` the score of every column (-1000 where it cannot be
    played), each from the side to move. As in his solver, a line whose last move makes four
    is refused (the game is over), a bad line is reported and the next ones answered, and an
    empty line is the empty board."""
    api = implementation("connect4", options.backend)
    for number, text in lines:
        try:
            write(_connect4answer(number, text.strip(), api, Position, options))
        except InputError as error:
            if options.report is None:
                raise
            options.report(error)


def _connect4answer(number: int, line: str, api: Any, position_class: Any, options: Options) -> str:
    flags = options.flags
    # Past 9 columns a move string is column numbers split by spaces or commas.
    wide = (flags.get("width") or 7) > 9
    if not all(char in ("0123456789 ," if wide else "123456789") for char in line):
        split = ", split by spaces or commas" if wide else ""
        raise InputError(
            number, f"a line is a move string, columns numbered from 1{split}, got {shown(line)}"
        )
    weak = bool(flags.get("weak"))
    size = {"width": flags.get("width"), "height": flags.get("height")}
    position = answer(number, Position, line, **size)
    if position.winner is not None:
        raise InputError(
            number, f"the game is over after the last move of {shown(line)} (four in a row)"
        )
    if not flags.get("analyze"):
        return f"{line} {answer(number, api.score, line, weak=weak, **size)}\n"
    played = [int(col) - 1 for col in (re.findall("[0-9]+", line) if wide else line)]
    scores = [INVALID_MOVE] * position.width
    for column in position.legal_moves:
        if position.play(column).winner is not None:
            scores[column] = (position.width * position.height + 1 - len(played)) // 2
        else:
            scores[column] = -answer(number, api.score, [*played, column], weak=weak, **size)
    return f"{line} {' '.join(str(score) for score in scores)}\n"


FORMATS = {
    "connect4": Format(
        run_connect4,
        "Connect Four in Pascal Pons' format: the score of each line",
        "input: one move string a line, columns from 1 (such as 4453); an empty line is the "
        "empty board",
        goes_on=True,
        arguments=(
            Argument(
                ("-a", "--analyze"),
                {
                    "action": "store_true",
                    "help": "print the score of every column, as Pons' -a "
                    "(default: the position's)",
                },
            ),
            Argument(
                ("-w", "--weak"),
                {
                    "action": "store_true",
                    "help": "print only the sign: 1 win, 0 draw, -1 loss "
                    "(default: the exact score)",
                },
            ),
            Argument(
                ("--width",),
                {
                    "type": int,
                    "default": None,
                    "help": "columns of the board (default 7; past 9, a line's columns are "
                    "numbers split by spaces or commas)",
                },
            ),
            Argument(
                ("--height",),
                {"type": int, "default": None, "help": "rows of the board (default 6)"},
            ),
        ),
    ),
}
