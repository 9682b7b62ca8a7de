"""Disappearing footholds (KAKAO 2022), solved perfectly on boards of up to 64 cells.

A board is a list of rows of 0 (hole) / 1 (foothold), bools allowed, or a text of rows such as
``"111/101/111"``; ``aloc`` and ``bloc`` are (row, col) footholds, possibly the same cell. A moves
first; a move steps to an orthogonal foothold and the cell left behind disappears; a player loses
when it cannot move or its cell has disappeared. The winner wins fastest, the loser survives
longest.

>>> from perfectplay import footholds
>>> footholds.total_moves([[1, 1, 1], [1, 1, 1], [1, 1, 1]], (1, 0), (1, 2))
5
>>> footholds.analyze("111/101/111", (1, 0), (1, 2))
{(0, 0): (-1, 4), (2, 0): (-1, 4)}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay._backend import implementation

__all__ = ["analyze", "batch_solve", "solve", "total_moves"]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay._pure.footholds import analyze, batch_solve, solve, total_moves
else:
    _impl = implementation("footholds")
    batch_solve = _impl.batch_solve
    analyze = _impl.analyze
    solve = _impl.solve
    total_moves = _impl.total_moves
