"""Tic-tac-toe solved perfectly: outcome, value, best moves and whole lines of play.

Boards are 9 cells, row-major (``index = 3*row + col``): a str in symbols (``x X o O``, ``. - _``
for empty) or digits (``0`` empty, ``1`` X, ``2`` O, as in BOJ 16571), with whitespace, ``/``,
``|`` and ``,`` ignored; or a sequence of 9 cells or 3 rows of 3 (str cells or ints 0/1/2,
numpy arrays included); or a list of moves from the empty board, cells as ints (``[4, 0, 8]``;
9 ints are moves only when all different). X moves first. Malformed boards raise
``ValueError`` (``TypeError`` for the wrong type altogether), unreachable ones
``perfectplay.IllegalPosition``.

>>> from perfectplay import tictactoe
>>> tictactoe.outcome("xx./oo./...")
'x'
>>> tictactoe.solve("xx. oo. ...").line
(2,)
>>> tictactoe.analyze("xxo/oo./x..")
{5: (0, 3), 7: (-1, 2), 8: (-1, 2)}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from perfectplay._kernel import review as _review
from perfectplay._kernel.args import quoted
from perfectplay._kernel.position import backend_functions, check_action
from perfectplay._kernel.review import Review
from perfectplay._kernel.types import Solution
from perfectplay.mnk import MarkPosition, geometry
from perfectplay.mnk import twin as rules
from perfectplay.tictactoe.twin import _read as read_board

_FUNCTIONS = backend_functions("tictactoe")
#: The functions above both backends: they ask the chosen backend's, through ``Position``.
ABOVE_BACKENDS = ("review",)
__all__ = ["Position", *_FUNCTIONS, *ABOVE_BACKENDS]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay.tictactoe.twin import *
else:
    globals().update(_FUNCTIONS)


class Position(MarkPosition[int]):
    """A tic-tac-toe position a user holds: ``tictactoe.Position()`` is the empty board,
    ``tictactoe.Position(board)`` takes any board form the functions take. Moves are cells
    0..8 (row-major), which are also the flat actions. Immutable, hashable, equal by position;
    ``solve()`` and ``analyze()`` answer for the side to move, from the solved table.

    >>> Position("xx./oo./...").solve().best_moves
    (2,)
    """

    __slots__ = ()
    # GradedAgent's levels, calibrated on the ladder's board: python benches/ladder.py
    # --calibrate tictactoe --games 8000 (December 6; the docs' review guide).
    LEVEL_TEMPERATURES = (4.16, 2.2, 1.48, 1.1, 0.851, 0.673, 0.548, 0.445, 0.344)

    def __init__(self, board: Any = ".........") -> None:
        self._set(geometry(3, 3, 3), *read_board(board))

    @classmethod
    def start(cls) -> Position:
        """The empty board, X to move."""
        return cls()

    def _with_codes(self, codes: Any) -> Position:
        return type(self)(codes)

    @classmethod
    def from_masks(cls, x: int, o: int) -> Position:
        """The position with X on the cells of bit mask ``x`` and O on those of ``o``."""
        if x & o or (x | o) >> 9:
            raise ValueError("the X and O masks overlap or reach past the board")
        position = object.__new__(cls)
        position._set(geometry(3, 3, 3), x, o)
        return position

    def _move_of_action(self, cell: int) -> int:
        return cell

    @property
    def legal_moves(self) -> tuple[int, ...]:
        return tuple(self._legal)  # moves are the cells themselves

    def _action_of_move(self, move: Any) -> int:
        return check_action(move, 9, "a cell number 0..8 (3 * row + col)")

    def _restore(self, state: tuple[Any, ...]) -> None:
        _, _, _, x, o = state
        self._set(geometry(3, 3, 3), x, o)

    def _solve(self, **options: Any) -> Solution[int]:
        if options:
            raise TypeError(f"tic-tac-toe solves from its table and takes no options: {options}")
        return solve(self.text())

    def _analyze(self, **options: Any) -> dict[int, tuple[int, int]]:
        if options:
            raise TypeError(f"tic-tac-toe solves from its table and takes no options: {options}")
        return analyze(self.text())

    def _ranked_moves(self, **options: Any) -> list[tuple[int, int, int]]:
        if options:
            raise TypeError(f"tic-tac-toe solves from its table and takes no options: {options}")
        return ranked_moves(self.text())

    def __repr__(self) -> str:
        return f"tictactoe.Position({self.text()!r})  # {self._status_text()}"


# Rules of the m,n,k family are the twin's plain ones (``rules``): a position never needs the
# search to know whose turn it is or who has won.
del rules


def review(record: Any, *, start: Position | None = None) -> Review:
    """A game reviewed move by move against perfect play (``perfectplay._kernel.review``):
    ``record`` is a list of cells (0-8, row by row), played from ``start`` (default: the empty
    board). An illegal move ends the review, reported at its ply (``Review.illegal``).

    >>> from perfectplay import tictactoe
    >>> game = tictactoe.review([4, 1, 0, 8])
    >>> tuple((m.move, m.perfect, m.good) for m in game.moves)
    ((4, True, True), (1, False, False), (0, True, True), (8, True, True))
    >>> game.players["o"].blunders, game.players["x"].accuracy
    (1, 100.0)"""
    if isinstance(record, str):
        raise TypeError(f"a tic-tac-toe record is a list of cells, not the string {quoted(record)}")
    return _review.review(Position() if start is None else start, record, ("x", "o"))
