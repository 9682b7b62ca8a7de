"""Helpers shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterable


def play(board: str, moves: Iterable[int]) -> str:
    """The tic-tac-toe board after playing ``moves`` (cells 0..8) from ``board``."""
    cells = [c for c in board if c in "xo."]
    for cell in moves:
        assert cells[cell] == ".", f"cell {cell} is taken"
        cells[cell] = "x" if cells.count("x") == cells.count("o") else "o"
    return "".join(cells)
