"""How footholds' ``batch_solve`` reads its three arguments, on both backends (the compiled
core asks here too): each is one value for every row, or one a row.

- Boards: an array of shape (rows, cols) or a str is one board for every row; an array of
  shape (N, rows, cols), or a sequence of boards, one a row. A sequence whose first item is a
  row of cells (a sequence of ints or bools) is one board.
- Locations: a pair of ints (an array of shape (2,)) is one location for every row; an array
  of shape (N, 2), or a sequence of pairs, one a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from perfectplay._kernel import batch

# One value for every row; a list of one a row; an integer array of rows (read in place by
# the compiled core, row by row by the twin).
Kind = Literal["shared", "rows", "array"]
Argument = tuple[Kind, Any]


def batch_arguments(boards: Any, alocs: Any, blocs: Any) -> tuple[Argument, Argument, Argument]:
    """The boards, the A locations and the B locations of a batch, each with how it is read."""
    return _boards(boards), _locations(alocs, "alocs"), _locations(blocs, "blocs")


def _nested(item: Any) -> bool:
    """Is ``item`` more than a cell: an array, a str or another sequence (not bytes-like)?"""
    return isinstance(item, (np.ndarray, str)) or (
        isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray, memoryview))
    )


def _boards(boards: Any) -> Argument:
    if isinstance(boards, np.ndarray):
        if boards.ndim == 2:
            return "shared", boards
        if boards.ndim == 3:
            return "array", boards
        raise ValueError(
            f"boards must have shape (rows, cols) or (N, rows, cols), got {boards.ndim} dimensions"
        )
    if isinstance(boards, str):
        return "shared", boards
    items = batch.sequence_items(boards, "boards")
    first = items[0] if items else None
    one_board = (
        first is not None
        and not isinstance(first, str)
        and _nested(first)
        and (cells := list(first)[:1]) != []
        and not _nested(cells[0])
    )
    return ("shared", boards) if one_board else ("rows", items)


def _locations(locations: Any, name: str) -> Argument:
    if isinstance(locations, np.ndarray):
        if locations.ndim == 1:
            return "shared", locations
        if locations.ndim == 2:
            # Bools are no coordinates: each pair is read as the sequence it is, and refused.
            return ("rows", list(locations)) if locations.dtype == bool else ("array", locations)
        raise ValueError(f"{name} must have shape (2,) or (N, 2), got {locations.ndim} dimensions")
    items = batch.sequence_items(locations, name)
    return ("rows", items) if any(_nested(item) for item in items) else ("shared", locations)
