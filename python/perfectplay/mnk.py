"""m,n,k-games: k marks in a row (horizontal, vertical or diagonal) win on a rows x cols board
of at most 64 cells; X moves first. Tic-tac-toe is (3, 3, 3), answered from its table.

Boards are rows of ``x o .`` (the tic-tac-toe alphabets and separators, rows split by ``/`` or
newlines) or nested sequences; moves are (row, col). ``node_limit=`` caps the search
(``SearchLimitExceeded``); ``table_mb=`` sizes the compiled search's transposition table.

>>> from perfectplay import mnk
>>> mnk.solve_empty(4, 4, 3).winner
'x'
>>> mnk.solve("xx../oo../..../....", k=3).best_moves
((0, 2),)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay._backend import implementation

__all__ = ["analyze", "batch_solve", "best_move", "is_reachable", "solve", "solve_empty"]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay._pure.mnk import (
        analyze,
        batch_solve,
        best_move,
        is_reachable,
        solve,
        solve_empty,
    )
else:
    _impl = implementation("mnk")
    batch_solve = _impl.batch_solve
    analyze = _impl.analyze
    best_move = _impl.best_move
    is_reachable = _impl.is_reachable
    solve = _impl.solve
    solve_empty = _impl.solve_empty
