"""Separators, rows, the one grid reader and the mark alphabets: the twin of ``rust/input/``.

* Text: cells are single characters; ASCII whitespace, ``/``, ``|`` and ``,`` are separators.
  Multi-row boards break rows at ``/`` and newlines; blank rows are dropped.
* Marks come in one of two alphabets, never mixed in one board: symbols ``x X o O`` with
  ``. - _`` for empty, or digits ``0`` empty, ``1`` X, ``2`` O (the ints 0/1/2 count as digits).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from perfectplay._kernel.args import MAX_CELLS, Item, Long, type_word

SEPARATORS = frozenset(" \t\n\r\x0b\x0c/|,")
EMPTY, X, O = 0, 1, 2  # noqa: E741 (the game's own names)
MIXED_ALPHABETS = "board mixes symbols (x, o, .) with digits (0, 1, 2)"
I64 = range(-(2**63), 2**63)

Cell = TypeVar("Cell")


def describe_char(char: str) -> str:
    """A character as error messages show it: ``'q'`` when printable ASCII, else ``U+00E9``."""
    return f"'{char}'" if "!" <= char <= "~" else f"U+{ord(char):04X}"


def text_rows(text: str) -> list[str]:
    """The rows of a multi-row text board, blank rows dropped."""
    return [row for row in re.split(r"[/\n\r]", text) if not all(c in SEPARATORS for c in row)]


def cell_type_error(item: Item) -> TypeError:
    return TypeError(f"cell must be an int or a one-character str, not {type_word(item)}")


def row_type_error(item: Item) -> TypeError:
    return TypeError(f"row must be a str or a sequence of cells, not {type_word(item)}")


def board_type_error(item: Item) -> TypeError:
    return TypeError(f"board must be a str or a sequence, not {type_word(item)}")


class CellReader(ABC, Generic[Cell]):
    """What a game accepts as a cell: ``read_char`` for text, ``read_number`` for ints and
    bools; the rest (one-character strs, rows, texts) is the same for every game."""

    @abstractmethod
    def read_char(self, char: str) -> Cell: ...

    @abstractmethod
    def read_number(self, cell: int) -> Cell: ...

    def read_cell(self, cell: Item) -> Cell:
        if isinstance(cell, str):
            if len(cell) != 1:
                raise ValueError(
                    f"cell must be a single character, got a str of length {len(cell)}"
                )
            return self.read_char(cell)
        if isinstance(cell, int):
            return self.read_number(cell)
        raise cell_type_error(cell)

    def read_text(self, text: str, cells: list[Cell]) -> int:
        """Appends the cells of a text, skipping separators; returns how many it read."""
        before = len(cells)
        cells.extend(self.read_char(char) for char in text if char not in SEPARATORS)
        return len(cells) - before

    def read_row(self, row: Item, cells: list[Cell]) -> int:
        """Appends one row; returns how many cells it held (a row too long is counted)."""
        if isinstance(row, str):
            return self.read_text(row, cells)
        if isinstance(row, list):
            cells.extend(self.read_cell(cell) for cell in row)
            return len(row)
        if isinstance(row, Long):
            return row.length
        raise row_type_error(row)


def check_rectangle(row_lengths: list[int], most: int = MAX_CELLS) -> tuple[int, int]:
    """Checks that rows of these lengths make a non-empty rectangle of at most ``most`` cells."""
    rows, cols = len(row_lengths), (row_lengths[0] if row_lengths else 0)
    for row, length in enumerate(row_lengths):
        if length != cols:
            raise ValueError(
                f"board rows have different lengths: row 0 has {cols} cells, row {row} has {length}"
            )
    if rows * cols == 0:
        raise ValueError("board is empty")
    if rows * cols > most:
        raise ValueError(f"board has {rows * cols} cells; at most {most} are supported")
    return rows, cols


def read_grid(
    board: Item, reader: CellReader[Cell], most: int = MAX_CELLS
) -> tuple[int, int, list[Cell]]:
    """Reads a board of rows of at most ``most`` cells: (rows, cols, cells row by row)."""
    cells: list[Cell] = []
    if isinstance(board, str):
        lengths = [reader.read_text(row, cells) for row in text_rows(board)]
    elif isinstance(board, list):
        lengths = [reader.read_row(row, cells) for row in board]
    elif isinstance(board, Long):
        raise ValueError(f"board has {board.length} rows; at most {most} cells are supported")
    else:
        raise board_type_error(board)
    rows, cols = check_rectangle(lengths, most)
    return rows, cols, cells


_MARKS = {
    "x": (X, "symbols"), "X": (X, "symbols"), "o": (O, "symbols"), "O": (O, "symbols"),
    ".": (EMPTY, "symbols"), "-": (EMPTY, "symbols"), "_": (EMPTY, "symbols"),
    "0": (EMPTY, "digits"), "1": (X, "digits"), "2": (O, "digits"),
}  # fmt: skip


class MarkReader(CellReader[int]):
    """Reads marks (EMPTY, X, O), holding every board to one alphabet."""

    def __init__(self) -> None:
        self.alphabet: str | None = None

    def _check(self, mark: int, alphabet: str) -> int:
        if self.alphabet not in (None, alphabet):
            raise ValueError(MIXED_ALPHABETS)
        self.alphabet = alphabet
        return mark

    def read_char(self, char: str) -> int:
        if char not in _MARKS:
            raise ValueError(f"unknown symbol {describe_char(char)} in board")
        return self._check(*_MARKS[char])

    def read_number(self, cell: int) -> int:
        if isinstance(cell, bool):
            raise cell_type_error(cell)
        if cell not in I64:
            raise ValueError("cell value is out of range: cells are 0, 1 or 2")
        if cell not in (0, 1, 2):
            raise ValueError(f"cell value {cell} is not 0, 1 or 2")
        return self._check(cell, "digits")


def read_mark_grid(board: Item, most: int = MAX_CELLS) -> tuple[int, int, list[int]]:
    """Reads a multi-row board of marks (m,n,k) of at most ``most`` cells: (rows, cols, marks
    row by row)."""
    return read_grid(board, MarkReader(), most)
