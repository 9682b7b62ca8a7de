"""Tic-tac-toe solved perfectly: outcome, value, best moves and whole lines of play.

Boards are 9 cells, row-major (``index = 3*row + col``): a str in symbols (``x X o O``, ``. - _``
for empty) or digits (``0`` empty, ``1`` X, ``2`` O, as in BOJ 16571), with whitespace, ``/``,
``|`` and ``,`` ignored; or a sequence of 9 cells or 3 rows of 3 (str cells or ints 0/1/2,
numpy arrays included). X moves first. Malformed boards raise ``ValueError`` (``TypeError`` for
the wrong type altogether), unreachable ones ``perfectplay.IllegalPosition``.

>>> from perfectplay import tictactoe
>>> tictactoe.outcome("xx./oo./...")
'x'
>>> tictactoe.solve("xx. oo. ...").line
(2,)
>>> tictactoe.analyze("xxo/oo./x..")
{5: (0, 3), 7: (-1, 2), 8: (-1, 2)}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay._backend import implementation

__all__ = [
    "analyze",
    "batch_best_move",
    "batch_solve",
    "batch_values",
    "best_move",
    "is_reachable",
    "is_valid_final",
    "outcome",
    "solve",
    "to_move",
    "value",
]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay._pure.tictactoe import (
        analyze,
        batch_best_move,
        batch_solve,
        batch_values,
        best_move,
        is_reachable,
        is_valid_final,
        outcome,
        solve,
        to_move,
        value,
    )
else:
    _impl = implementation("tictactoe")
    batch_solve = _impl.batch_solve
    analyze = _impl.analyze
    batch_best_move = _impl.batch_best_move
    batch_values = _impl.batch_values
    best_move = _impl.best_move
    is_reachable = _impl.is_reachable
    is_valid_final = _impl.is_valid_final
    outcome = _impl.outcome
    solve = _impl.solve
    to_move = _impl.to_move
    value = _impl.value
