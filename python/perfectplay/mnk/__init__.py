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

import functools
import inspect
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from perfectplay._kernel import args
from perfectplay._kernel import review as _review
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.options import Options, with_options
from perfectplay._kernel.position import GridPosition, RowColPosition, backend_functions
from perfectplay._kernel.review import Review
from perfectplay._kernel.types import Solution
from perfectplay.mnk import twin as rules
from perfectplay.mnk.certificate import check as check
from perfectplay.mnk.proof import prove as prove
from perfectplay.mnk.proof import value as value

#: The functions a given ``tablebase=`` answers instead of the search: the options each takes,
#: and those it passes on to the table's method of the same name.
_TABLE_ANSWERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "solve": (rules.BOARD, ()),
    "solve_empty": (rules.BOARD, ()),
    "analyze": (rules.BOARD, ()),
    "ranked_moves": (rules.BOARD, ()),
    "best_move": (rules.BOARD, ()),
    "batch_solve": (rules.BATCH, ("moves", "errors", "threads", "progress")),
}


def _or_from_table(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, or, given ``tablebase=`` (a ``perfectplay.mnk.tablebase.Tablebase``), the
    table's method of the same name: one dispatch above both backends. The other options are
    checked as the backends check them; those the table takes pass on to it."""
    if name not in _TABLE_ANSWERS:
        return function
    allowed, passed = _TABLE_ANSWERS[name]
    # The twin's parameters, its options gathered again into **options to bind a call.
    shown = inspect.signature(getattr(rules, name))
    keyword = inspect.Parameter.KEYWORD_ONLY
    positional = [p for p in shown.parameters.values() if p.kind is not keyword]
    gathered = inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD)
    signature = shown.replace(parameters=[*positional, gathered])

    @functools.wraps(function)
    def answer(*arguments: Any, tablebase: Any = None, **options: Any) -> Any:
        if tablebase is None:
            return function(*arguments, **options)
        bound = signature.bind(*arguments, **options)
        given = bound.arguments.pop("options", {})
        Options.read(given, name, allowed)
        taken = {option: given[option] for option in passed if option in given}
        return getattr(tablebase, name)(*bound.arguments.values(), **taken)

    answer.__signature__ = with_options(signature, (*allowed, "tablebase"))  # type: ignore[attr-defined]
    return answer


_FUNCTIONS = backend_functions("mnk", _or_from_table)

#: The functions above both backends: they call the chosen backend's (``perfectplay.mnk.proof``)
#: or none (``check``, in plain Python on purpose).
ABOVE_BACKENDS = ("check", "prove", "review", "value")
__all__ = ["Position", *_FUNCTIONS, *ABOVE_BACKENDS]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay.mnk.twin import *
else:
    globals().update(_FUNCTIONS)


Move = TypeVar("Move")
_MARKS = ".xo"


@functools.lru_cache(maxsize=64)
def geometry(rows: int, cols: int, k: int) -> rules.Geometry:
    """The winning windows of a board shape (the twin's plain rules, shared by positions)."""
    return rules.Geometry(rows, cols, k)


class MarkPosition(GridPosition[Move], Generic[Move]):
    """A position of the m,n,k family (tic-tac-toe included): X and O marks on a grid, k in a
    row wins, X moves first, play stops at the first line. Only legal positions exist."""

    __slots__ = ("_geometry", "_legal", "_status", "k", "o", "x")
    k: int
    x: int
    o: int
    _geometry: rules.Geometry
    _status: str
    _legal: list[int]

    def _set(self, geometry_: rules.Geometry, x: int, o: int) -> None:
        """Checks the position can arise in play (IllegalPosition says why) and stores it."""
        status = rules.status(geometry_, x, o)
        empty = geometry_.full & ~(x | o) if status == rules.PLAYING else 0
        # Every use of a position asks for its moves: found once, when it is made.
        legal = [cell for cell in range(geometry_.cells) if empty >> cell & 1]
        # Set slot by slot: a position is made at every move an agent considers.
        put = object.__setattr__
        put(self, "rows", geometry_.rows)
        put(self, "cols", geometry_.cols)
        put(self, "k", geometry_.k)
        put(self, "x", x)
        put(self, "o", o)
        put(self, "_geometry", geometry_)
        put(self, "_status", status)
        put(self, "_legal", legal)

    def _key(self) -> Hashable:
        return (self.rows, self.cols, self.k, self.x, self.o)

    def _in_a_row(self) -> int:
        return self.k

    def _restore(self, state: tuple[Any, ...]) -> None:
        rows, cols, k, x, o = state
        self._set(geometry(rows, cols, k), x, o)

    def _legal_actions(self) -> list[int]:
        return self._legal

    def _plane_code(self) -> int:
        # The side to move; once the game is over, the side that moved last.
        if self.to_move is not None:
            return 1 if self.to_move == "x" else 2
        return 1 if not rules.x_to_move(self.x, self.o) else 2

    def _play_action(self, cell: int) -> Any:
        after = object.__new__(type(self))
        if self.to_move == "x":
            after._set(self._geometry, self.x | 1 << cell, self.o)
        else:
            after._set(self._geometry, self.x, self.o | 1 << cell)
        return after

    def _why_illegal(self, cell: int) -> str:
        if self._status != rules.PLAYING:
            return "the game is over"
        return f"cell {self._move_of_action(cell)!r} is taken"

    def _cell_codes(self) -> list[int]:
        return [(self.x >> cell & 1) + 2 * (self.o >> cell & 1) for cell in range(self.cells)]

    def _cell_char(self, cell: int) -> str:
        return _MARKS[(self.x >> cell & 1) + 2 * (self.o >> cell & 1)]

    def text(self) -> str:
        """The board as the text the solvers read: rows of ``x o .`` joined by ``/``."""
        codes = self._cell_codes()
        return "/".join(
            "".join(_MARKS[code] for code in codes[row * self.cols : (row + 1) * self.cols])
            for row in range(self.rows)
        )

    def _svg_cell(self, cell: int, x: float, y: float) -> list[str]:
        pad, size = 10, 48
        if self.x >> cell & 1:
            return [
                f'<g class="stone x" stroke="#222" stroke-width="4" stroke-linecap="round">'
                f'<line x1="{x + pad}" y1="{y + pad}" x2="{x + size - pad}" y2="{y + size - pad}"/>'
                f'<line x1="{x + size - pad}" y1="{y + pad}" x2="{x + pad}" y2="{y + size - pad}"/>'
                "</g>"
            ]
        if self.o >> cell & 1:
            return [
                f'<circle class="stone o" cx="{x + size / 2}" cy="{y + size / 2}" '
                f'r="{size / 2 - pad}" fill="none" stroke="#222" stroke-width="4"/>'
            ]
        return []

    @property
    def to_move(self) -> str | None:
        """'x' or 'o', or None once the game is over."""
        if self._status != rules.PLAYING:
            return None
        return "x" if rules.x_to_move(self.x, self.o) else "o"

    @property
    def winner(self) -> str | None:
        """'x' or 'o' once a line is complete, else None (the game goes on, or a draw)."""
        if self._status != rules.WON:
            return None
        return "o" if rules.x_to_move(self.x, self.o) else "x"

    @property
    def marks(self) -> int:
        """How many marks are on the board (moves played so far)."""
        return self.x.bit_count() + self.o.bit_count()


class Position(MarkPosition[tuple[int, int]], RowColPosition):
    """An m,n,k position a user holds: ``mnk.Position(board, k)`` or
    ``mnk.Position.empty(rows, cols, k)``. Moves are ``(row, col)``; ``action(move)`` is
    ``row * cols + col``. Immutable, hashable, equal by position; ``solve()`` and ``analyze()``
    answer for the side to move (options such as ``node_limit`` pass on to ``mnk.solve``).

    >>> position = Position.empty(4, 4, 3).play((1, 1))
    >>> position.to_move, position.legal_moves[:3]
    ('o', ((0, 0), (0, 1), (0, 2)))
    """

    __slots__ = ()
    _MOVE = "an m,n,k move"
    # GradedAgent's levels, calibrated on the ladder's board: python benches/ladder.py
    # --calibrate mnk --games 8000 (December 6; the docs' review guide).
    LEVEL_TEMPERATURES = (13.1, 4.76, 2.8, 2.02, 1.56, 1.26, 1.02, 0.819, 0.64)

    def __init__(self, board: Any, k: int) -> None:
        rows, cols, marks = read_mark_grid(args.to_item(board))
        self._set(geometry(rows, cols, args.int_arg(k, "k")), *rules.marks_to_masks(marks))

    @classmethod
    def empty(cls, rows: int, cols: int, k: int) -> Position:
        """The empty ``rows x cols`` board, X to move."""
        rows, cols = args.board_sides(rows, cols)
        return cls.from_masks(rows, cols, args.int_arg(k, "k"), 0, 0)

    @classmethod
    def start(cls, rows: int = 4, cols: int = 4, k: int = 3) -> Position:
        """Where a game starts (the registry's defaults: 4x4, three in a row)."""
        return cls.empty(rows, cols, k)

    def _with_codes(self, codes: Any) -> Position:
        return type(self)(codes, self.k)

    def _batch_fields(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"k": self.k}, {}

    @classmethod
    def from_masks(cls, rows: int, cols: int, k: int, x: int, o: int) -> Position:
        """The position with X on the cells (bits ``row * cols + col``) of mask ``x`` and O on
        those of ``o``."""
        if x & o or (x | o) >> (rows * cols):
            raise ValueError("the X and O masks overlap or reach past the board")
        position = object.__new__(cls)
        position._set(geometry(rows, cols, k), x, o)
        return position

    def _solve(self, **options: Any) -> Solution[tuple[int, int]]:
        return solve(self.text(), self.k, **options)

    def _analyze(self, **options: Any) -> dict[tuple[int, int], tuple[int, int]]:
        return analyze(self.text(), self.k, **options)

    def _ranked_moves(self, **options: Any) -> list[tuple[tuple[int, int], int, int]]:
        return ranked_moves(self.text(), self.k, **options)

    def __repr__(self) -> str:
        return f"mnk.Position({self.text()!r}, k={self.k})  # {self._status_text()}"


def review(record: Any, *, start: Position | None = None, **options: Any) -> Review:
    """A game reviewed move by move against perfect play (``perfectplay._kernel.review``):
    ``record`` is a list of moves ``(row, col)`` played from ``start`` (default:
    ``Position.start()``, the empty 4x4 board with k=3). An illegal move ends the review,
    reported at its ply (``Review.illegal``); ``options`` (``node_limit``, ``tablebase``...)
    pass on to the searches.

    >>> from perfectplay import mnk
    >>> game = mnk.review([(1, 1), (0, 0), (1, 2)], start=mnk.Position.empty(3, 3, 3))
    >>> tuple((m.move, m.value_before, m.value_after) for m in game.moves)
    (((1, 1), 0, 0), ((0, 0), 0, 0), ((1, 2), 0, 0))"""
    if isinstance(record, str):
        raise TypeError(
            f"an m,n,k record is a list of moves (row, col), not the string {args.quoted(record)}"
        )
    here = Position.start() if start is None else start
    return _review.review(here, record, ("x", "o"), **options)
