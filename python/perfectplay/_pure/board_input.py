"""How boards arrive: the argument reduced to plain data, separators, rows and mark alphabets.

The same rules as ``rust/board_input.rs``:

* Text: cells are single characters; ASCII whitespace, ``/``, ``|`` and ``,`` are separators.
  Multi-row boards break rows at ``/`` and newlines; blank rows are dropped.
* Marks come in one of two alphabets, never mixed in one board: symbols ``x X o O`` with
  ``. - _`` for empty, or digits ``0`` empty, ``1`` X, ``2`` O (the ints 0/1/2 count as digits).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

SEPARATORS = frozenset(" \t\n\r\x0b\x0c/|,")
EMPTY, X, O = 0, 1, 2  # noqa: E741 (the game's own names)
MAX_CELLS = 64
MAX_DEPTH = 2  # board, rows, cells: deeper sequences are never looked into
MIXED_ALPHABETS = "board mixes symbols (x, o, .) with digits (0, 1, 2)"
_I64 = range(-(2**63), 2**63)


@dataclass(frozen=True)
class Other:
    """An argument of a type parsing does not take, by its type name."""

    type_name: str


Item = Union[str, bool, int, list["Item"], Other]  # noqa: UP007 (a recursive alias)


def to_item(obj: Any, depth: int = 0) -> Item:
    """Reduces an argument to str, bool, int, list (any sequence or array-like) or Other."""
    if isinstance(obj, str):
        return obj
    if isinstance(obj, bool):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return Other(type(obj).__name__)
    if isinstance(obj, (list, tuple, Sequence)):
        items = obj
    elif hasattr(obj, "tolist") and hasattr(obj, "shape"):
        items = obj.tolist()
        if not isinstance(items, list):
            return to_item(items, depth)
    elif hasattr(obj, "__index__"):
        return int(obj.__index__())
    else:
        return Other(type(obj).__name__)
    if depth >= MAX_DEPTH:
        return []
    return [to_item(item, depth + 1) for item in items]


def type_word(item: Item) -> str:
    if isinstance(item, Other):
        return item.type_name
    if isinstance(item, list):
        return "sequence"
    return type(item).__name__


def describe_char(char: str) -> str:
    """A character as error messages show it: ``'q'`` when printable ASCII, else ``U+00E9``."""
    return f"'{char}'" if "!" <= char <= "~" else f"U+{ord(char):04X}"


def text_rows(text: str) -> list[str]:
    """The rows of a multi-row text board, blank rows dropped."""
    return [row for row in re.split(r"[/\n\r]", text) if not all(c in SEPARATORS for c in row)]


_MARKS = {
    "x": (X, "symbols"), "X": (X, "symbols"), "o": (O, "symbols"), "O": (O, "symbols"),
    ".": (EMPTY, "symbols"), "-": (EMPTY, "symbols"), "_": (EMPTY, "symbols"),
    "0": (EMPTY, "digits"), "1": (X, "digits"), "2": (O, "digits"),
}  # fmt: skip


def cell_type_error(item: Item) -> TypeError:
    return TypeError(f"cell must be an int or a one-character str, not {type_word(item)}")


def row_type_error(item: Item) -> TypeError:
    return TypeError(f"row must be a str or a sequence of cells, not {type_word(item)}")


def board_type_error(item: Item) -> TypeError:
    return TypeError(f"board must be a str or a sequence, not {type_word(item)}")


class MarkReader:
    """Reads marks (EMPTY, X, O) in board order, holding every board to one alphabet."""

    def __init__(self) -> None:
        self.alphabet: str | None = None
        self.marks: list[int] = []

    def _push(self, mark: int, alphabet: str) -> None:
        if self.alphabet not in (None, alphabet):
            raise ValueError(MIXED_ALPHABETS)
        self.alphabet = alphabet
        self.marks.append(mark)

    def _push_char(self, char: str) -> None:
        if char not in _MARKS:
            raise ValueError(f"unknown symbol {describe_char(char)} in board")
        self._push(*_MARKS[char])

    def read_text(self, text: str) -> int:
        """Appends the marks of a text, skipping separators; returns how many it read."""
        before = len(self.marks)
        for char in text:
            if char not in SEPARATORS:
                self._push_char(char)
        return len(self.marks) - before

    def read_cell(self, cell: Item) -> None:
        if isinstance(cell, bool) or not isinstance(cell, (int, str)):
            raise cell_type_error(cell)
        if isinstance(cell, int):
            if cell not in _I64:
                raise ValueError("cell value is out of range: cells are 0, 1 or 2")
            if cell not in (0, 1, 2):
                raise ValueError(f"cell value {cell} is not 0, 1 or 2")
            self._push(cell, "digits")
        elif len(cell) != 1:
            raise ValueError(f"cell must be a single character, got a str of length {len(cell)}")
        else:
            self._push_char(cell)

    def read_row(self, row: Item) -> int:
        """Appends one row (a text or a sequence of cells); returns how many cells it held."""
        if isinstance(row, str):
            return self.read_text(row)
        if isinstance(row, list):
            for cell in row:
                self.read_cell(cell)
            return len(row)
        raise row_type_error(row)


def check_rectangle(row_lengths: list[int]) -> tuple[int, int]:
    """Checks that rows of these lengths make a non-empty rectangle of at most 64 cells."""
    rows, cols = len(row_lengths), (row_lengths[0] if row_lengths else 0)
    for row, length in enumerate(row_lengths):
        if length != cols:
            raise ValueError(
                f"board rows have different lengths: row 0 has {cols} cells, row {row} has {length}"
            )
    if rows * cols == 0:
        raise ValueError("board is empty")
    if rows * cols > MAX_CELLS:
        raise ValueError(f"board has {rows * cols} cells; at most {MAX_CELLS} are supported")
    return rows, cols


def read_mark_grid(board: Item) -> tuple[int, int, list[int]]:
    """Reads a multi-row board of marks (m,n,k): (rows, cols, marks row by row)."""
    reader = MarkReader()
    if isinstance(board, str):
        lengths = [reader.read_text(row) for row in text_rows(board)]
    elif isinstance(board, list):
        lengths = [reader.read_row(row) for row in board]
    else:
        raise board_type_error(board)
    rows, cols = check_rectangle(lengths)
    return rows, cols, reader.marks
