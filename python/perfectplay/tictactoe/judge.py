"""Tic-tac-toe's judge formats: Algospot TICTACTOE, BOJ 16571 and BOJ 7682."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.judge import (
    Format,
    InputError,
    Options,
    Write,
    answer,
    nonblank,
    shown,
)

__all__ = ["FORMATS"]


def run_tictactoe(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """Algospot TICTACTOE: T, then T boards of three rows of ``x o .``; prints x, o or TIE."""
    api = implementation("tictactoe", options.backend)
    rows = nonblank(lines)
    first = next(rows, None)
    if first is None:
        raise InputError(1, "expected the number of boards, got end of input")
    number, text = first
    try:
        count = int(text)
    except ValueError:
        raise InputError(number, f"expected the number of boards, got {shown(text)}") from None
    if count < 0:
        raise InputError(number, f"the number of boards must not be negative, got {count}")
    for _ in range(count):
        board = list(itertools.islice(rows, 3))
        if len(board) < 3:
            raise InputError(number + 1, "expected a board row, got end of input")
        for number, text in board:
            if len(text.strip()) != 3:
                raise InputError(number, f"a board row has 3 cells, got {shown(text)}")
        text = "/".join(row for _, row in board)
        outcome = answer(board[0][0], api.outcome, text)
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
                value = answer(start, api.value, board)
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
    for number, text in nonblank(lines):
        board = text.strip()
        if board == "end":
            return
        if len(board) != 9:
            raise InputError(number, f"a board has 9 characters, got {shown(board)}")
        valid = answer(number, api.is_valid_final, board)
        write("valid\n" if valid else "invalid\n")
    # The judge's input ends with "end"; the answers stand, but say that it was missing.
    print("perfectplay final: warning: the input ended without its 'end' line", file=sys.stderr)


FORMATS = {
    "tictactoe": Format(
        run_tictactoe,
        "Algospot TICTACTOE: who wins (x, o or TIE)",
        "input: a count T, then T boards of three lines of x o . (such as 'xx.' 'oo.' '...')",
    ),
    "alpha": Format(
        run_alpha,
        "BOJ 16571 alpha tic-tac-toe: W, D or L for the side to move",
        "input: one board of nine integers (0 empty, 1 X, 2 O), three a line",
    ),
    "final": Format(
        run_final,
        "BOJ 7682: is each board a valid final position",
        "input: lines of nine characters from X O . (such as XXXOO....), then a line 'end'",
    ),
}
