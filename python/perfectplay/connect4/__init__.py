"""Connect Four solved perfectly: W columns of H rows (7x6 by default, any size with
W * (H + 1) <= 128 and at most 16 columns: 8x8, 7x9, 10x6, 5x13, ...), stones drop to the
lowest empty cell, four in a row wins, the first player (``x``) moves first. Moves and actions
are columns ``0 .. W-1``.

A position is a move string in Pascal Pons' notation (columns from 1: ``"4453"``; ``""`` is the
empty board; on boards of more than 9 columns, column numbers split by spaces or commas, each
read whole: ``"10 1 10"``), a sequence of columns (0-based ints), or a board drawn as rows, top
row first (a
text of rows split by ``/`` or newlines, ``x o .`` or ``1 2 0``; or a sequence of rows).
``width=`` and ``height=`` give the size of a position given by its moves (7x6 otherwise) and
must match a board's. A move string with a full column, a column off the board or a move after
the game ended is a ``ValueError`` naming the move; a board no game reaches is
``perfectplay.IllegalPosition``.

Answers are for the side to move, by perfect play's rule (win fastest, lose slowest); ``score``
is Pons' score: a win with one's k-th stone scores ``(W * H + 1 - n) / 2``, n the stones on the
board before it (on 7x6: 22 minus the winner's stones), a loss the negative, a draw 0.

Every function takes ``book=``: ``'packaged'`` (the default) reads, on 7x6, the opening book
that ships with perfectplay (every position of up to 6 stones) and the community's 12-ply book
of ``bitbully-databases`` (see ``perfectplay.openings``), so that a search stops at 12 stones
and the opening answers at once; other sizes have no packaged book. ``book=None`` searches
without one; an ``openings.Book`` of the board's size is read instead. A book changes only
the time, never an answer.

>>> from perfectplay import connect4
>>> connect4.score("4453")
-2
>>> connect4.best_move("44444")   # a column of the other player's is no threat here
3
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from perfectplay._kernel import args
from perfectplay._kernel import review as _review
from perfectplay._kernel import score as scoring
from perfectplay._kernel.position import BasePosition, backend_functions, check_action
from perfectplay._kernel.review import Review
from perfectplay._kernel.types import Solution
from perfectplay.connect4 import rules

_FUNCTIONS = backend_functions("connect4")
#: The functions above both backends: they ask the chosen backend's, through ``Position``.
ABOVE_BACKENDS = ("review",)
__all__ = ["Position", *_FUNCTIONS, *ABOVE_BACKENDS]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay.connect4.twin import *
else:
    globals().update(_FUNCTIONS)


@functools.lru_cache(maxsize=32)
def _shape(width: int, height: int) -> rules.Shape:
    return rules.Shape(width, height)


_MARKS = ".xo"
# Red and yellow, as the game is sold; the letter keeps the sides apart without colour.
STONES = {1: ("#C1121F", "#fff", "x"), 2: ("#F6C90E", "#222", "o")}


class Position(BasePosition[int]):
    """A Connect Four position a user holds: ``connect4.Position("4453")``,
    ``connect4.Position(board)``, ``connect4.Position.empty(7, 6)``. Moves and actions are
    columns. Immutable, hashable, equal by position; ``solve()``, ``analyze()``,
    ``best_moves()`` and ``score()`` answer for the side to move (options such as
    ``node_limit`` and ``book`` pass on, as to the module's functions); a book changes only the
    time, never an answer.

    >>> Position("4453").play(2).to_move
    'o'
    """

    __slots__ = ("_legal", "_shape", "current", "mask", "played")
    current: int
    mask: int
    played: int
    _shape: rules.Shape
    _legal: list[int]
    _MOVE = "a Connect Four move"

    def __init__(self, position: Any = "", *, width: Any = None, height: Any = None) -> None:
        size = (
            None if width is None else args.int_arg(width, "width"),
            None if height is None else args.int_arg(height, "height"),
        )
        shape, (current, mask, played) = rules.parse(args.to_item(position), size)
        self._set(_shape(shape.width, shape.height), current, mask, played)

    @classmethod
    def empty(cls, width: int = 7, height: int = 6) -> Position:
        """The empty board, the first player to move."""
        position = object.__new__(cls)
        shape = rules.Shape(args.int_arg(width, "width"), args.int_arg(height, "height"))
        position._set(_shape(shape.width, shape.height), 0, 0, 0)
        return position

    @classmethod
    def start(cls, width: int = 7, height: int = 6) -> Position:
        """Where a game starts: the empty board (the registry's start of every game)."""
        return cls.empty(width, height)

    def _with_codes(self, codes: Any) -> Position:
        return type(self)(codes, width=self.width, height=self.height)

    def _set(self, shape: rules.Shape, current: int, mask: int, played: int) -> None:
        position = (current, mask, played)
        put = object.__setattr__
        put(self, "rows", shape.height)
        put(self, "cols", shape.width)
        put(self, "_shape", shape)
        put(self, "current", current)
        put(self, "mask", mask)
        put(self, "played", played)
        put(self, "_legal", shape.moves(position))

    @property
    def width(self) -> int:
        return self.cols

    @property
    def height(self) -> int:
        return self.rows

    def _key(self) -> Hashable:
        return (self.cols, self.rows, self.current, self.mask, self.played)

    def _restore(self, state: tuple[Any, ...]) -> None:
        width, height, current, mask, played = state
        self._set(_shape(width, height), current, mask, played)

    @property
    def action_count(self) -> int:
        return self.cols

    def _legal_actions(self) -> list[int]:
        return self._legal

    def _play_action(self, column: int) -> Position:
        after = object.__new__(Position)
        current, mask, played = self._shape.play((self.current, self.mask, self.played), column)
        after._set(self._shape, current, mask, played)
        return after

    def _why_illegal(self, column: int) -> str:
        if self._shape.is_won((self.current, self.mask, self.played)):
            return "the game is over (four in a row)"
        if self.played == self._shape.cells:
            return "the game is over (the board is full)"
        return f"column {column} is full"

    def _move_of_action(self, action: int) -> int:
        return action

    def _action_of_move(self, move: Any) -> int:
        return check_action(move, self.cols, f"a column number 0..{self.cols - 1}")

    @property
    def legal_moves(self) -> tuple[int, ...]:
        return tuple(self._legal)

    def _first(self) -> int:
        return self.current if self.played % 2 == 0 else self.current ^ self.mask

    def _cell_codes(self) -> list[int]:
        return rules.codes_of(self._shape, (self.current, self.mask, self.played))

    def _cell_char(self, cell: int) -> str:
        return _MARKS[self._cell_codes()[cell]]

    def __str__(self) -> str:
        codes = self._cell_codes()
        return "\n".join(
            " ".join(_MARKS[codes[row * self.cols + col]] for col in range(self.cols))
            for row in range(self.rows)
        )

    def _action_cell(self, column: int) -> int:
        """Where a column's next stone lands (its annotation is drawn there)."""
        height = (self.mask & self._shape.column(column)).bit_count()
        row = max(self.rows - 1 - height, 0)
        return row * self.cols + column

    def _in_a_row(self) -> int:
        return 4

    def _svg_cell(self, cell: int, x: float, y: float) -> list[str]:
        code = self._cell_codes()[cell]
        size = 48
        if code == 0:
            return [
                f'<circle class="hole" cx="{x + size / 2}" cy="{y + size / 2}" r="18" '
                'fill="#ffffff" stroke="#555" stroke-width="1"/>'
            ]
        fill, ink, name = STONES[code]
        return [
            f'<g class="stone {name}"><circle cx="{x + size / 2}" cy="{y + size / 2}" r="19" '
            f'fill="{fill}" stroke="#111" stroke-width="2"/><text x="{x + size / 2}" '
            f'y="{y + size / 2 + 5}" text-anchor="middle" font-size="14" font-weight="bold" '
            f'fill="{ink}">{name}</text></g>'
        ]

    def text(self) -> str:
        """The board as rows of ``x o .``, top row first, joined by ``/``."""
        codes = self._cell_codes()
        return "/".join(
            "".join(_MARKS[code] for code in codes[row * self.cols : (row + 1) * self.cols])
            for row in range(self.rows)
        )

    def _solve(self, **options: Any) -> Solution[int]:
        return solve(self.text(), **options)

    def _analyze(self, **options: Any) -> dict[int, tuple[int, int]]:
        return analyze(self.text(), **options)

    def _ranked_moves(self, **options: Any) -> list[tuple[int, int, int]]:
        return ranked_moves(self.text(), **options)

    def _best_moves(self, **options: Any) -> tuple[int, ...]:
        return best_moves(self.text(), **options)

    def score(self, **options: Any) -> int:
        """Pons' score for the side to move (see the module's documentation)."""
        return score(self.text(), **options)

    @property
    def to_move(self) -> str | None:
        """'x' (the first player) or 'o', or None once the game is over."""
        if not self._legal:
            return None
        return "x" if self.played % 2 == 0 else "o"

    @property
    def winner(self) -> str | None:
        if not self._shape.is_won((self.current, self.mask, self.played)):
            return None
        return "x" if self.played % 2 == 1 else "o"

    def _plane_code(self) -> int:
        mover_is_first = (self.played % 2 == 0) if self._legal else (self.played % 2 == 1)
        return 1 if mover_is_first else 2

    def __repr__(self) -> str:
        size = (
            "" if (self.cols, self.rows) == (7, 6) else f", width={self.cols}, height={self.rows}"
        )
        return f"connect4.Position({self.text()!r}{size})  # {self._status_text()}"


def review(
    record: Any, *, start: Position | None = None, width: int = 7, height: int = 6, **options: Any
) -> Review:
    """A game reviewed move by move against perfect play (``perfectplay._kernel.review``):
    ``record`` is Pons' move string (columns from 1; spaces and commas between moves are
    separators; past 9 columns, column numbers split by them) or a list of columns from 0,
    played from ``start`` (default: the empty ``width`` x ``height`` board). Each move's
    ``score_lost`` is the Pons score it gave away. An illegal move ends the review, reported
    at its ply (``Review.illegal``); ``options``
    (``node_limit``, ``book``...) pass on to the searches.

    >>> from perfectplay import connect4
    >>> game = connect4.review("4453")
    >>> tuple((m.move, m.perfect, m.score_lost) for m in game.moves)
    ((3, True, 0), (3, True, 0), (4, False, 3), (2, True, 0))
    >>> game.players["x"].blunders, game.players["o"].perfect_rate
    (1, 1.0)"""
    here = Position.empty(width, height) if start is None else start
    moves = _record_columns(record, here.cols) if isinstance(record, str) else list(record)
    return _review.review(
        here, moves, ("x", "o"), move_score=_pons_of_move, judge=_ScoreJudge(), **options
    )


class _ScoreJudge:
    """Connect Four's moves judged for a review with the answers of ``ranked_moves`` at less
    cost: the position's exact score (from the books, or carried from the move before), its
    best moves by one null window a move (``best_moves``), and the exact score of the move
    played only where it is not a best one. The other moves are never scored exactly, which
    one and two stones past the books is most of the work."""

    def __init__(self) -> None:
        self.score: int | None = None  # the next position's, score.py's scale

    def __call__(
        self, here: Position, move: int, after: Position, options: dict[str, Any]
    ) -> _review.Judged:
        if self.score is None:
            self.score = rules.engine_of(here.score(**options), here.played, here.cells)
        best, cells_left = here.best_moves(**options), here.cells - here.played
        played = -self.score
        if move not in best:
            played = rules.engine_of(after.score(**options), after.played, after.cells)
        judged = (
            best,
            (scoring.value(self.score), scoring.plies(self.score, cells_left)),
            (-scoring.value(played), 1 + scoring.plies(played, cells_left - 1)),
        )
        self.score = played
        return judged


def _record_columns(record: str, width: int) -> list[int]:
    """The columns (from 0) of Pons' move string ``record``; spaces and commas separate (past 9
    columns, column numbers)."""
    if width > 9 and all(symbol in " ,\t\r\n0123456789" for symbol in record):
        return [int(number) - 1 for number in re.findall("[0-9]+", record)]
    columns = []
    for symbol in record:
        if symbol in " ,\t\r\n":
            continue
        if not "0" <= symbol <= "9":
            raise ValueError(
                f"a Connect Four record is Pons' digits (columns from 1) or a list of "
                f"columns, not {symbol!r} in {args.quoted(record)}"
            )
        columns.append(int(symbol) - 1)
    return columns


def _pons_of_move(here: Position, value: int, plies: int) -> int:
    return rules.move_pons(here.cells - here.played, value, plies)
