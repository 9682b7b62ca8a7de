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

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from perfectplay._kernel import review as _review
from perfectplay._kernel.args import quoted
from perfectplay._kernel.position import RowColPosition, backend_functions
from perfectplay._kernel.review import Review
from perfectplay._kernel.types import Solution
from perfectplay.footholds.twin import Board as _Board

_FUNCTIONS = backend_functions("footholds")
#: The functions above both backends: they ask the chosen backend's, through ``Position``.
ABOVE_BACKENDS = ("review",)
__all__ = ["Position", *_FUNCTIONS, *ABOVE_BACKENDS]

if TYPE_CHECKING:
    # Type checkers read the signatures of the pure twin; at run time the chosen backend answers.
    from perfectplay.footholds.twin import *
else:
    globals().update(_FUNCTIONS)


def _neighbours(rows: int, cols: int) -> list[int]:
    """Each cell's orthogonal neighbours, as masks."""
    return [
        sum(
            1 << (r * cols + c)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < rows and 0 <= c < cols
        )
        for row in range(rows)
        for col in range(cols)
    ]


class Position(RowColPosition):
    """A footholds game in progress: ``footholds.Position(board, aloc, bloc, to_move="A")``.
    Moves are ``(row, col)`` destinations; ``action(move)`` is ``row * cols + col``. The cell a
    player leaves disappears; a player loses when, on its turn, it cannot move or its cell is
    gone. Immutable, hashable, equal by position. ``solve()`` and ``analyze()`` answer for the
    side to move (A or B; ``footholds.solve`` always answers for A, who moves first there);
    ``node_limit=`` passes on.

    >>> position = Position("111/111/111", (1, 0), (1, 2))
    >>> position.solve().plies, position.play((1, 1)).to_move
    (5, 'B')
    """

    __slots__ = ("_neighbours", "a", "b", "mover", "standing")
    _MOVE = "a footholds move"
    # GradedAgent's levels, calibrated on the ladder's board: python benches/ladder.py
    # --calibrate footholds --games 8000 (December 6; the docs' review guide).
    LEVEL_TEMPERATURES = (13.3, 5.88, 4.02, 2.96, 2.24, 1.75, 1.37, 1.06, 0.777)
    standing: int
    a: int
    b: int
    mover: str
    _neighbours: list[int]

    def __init__(self, board: Any, aloc: Any, bloc: Any, to_move: str = "A") -> None:
        if to_move not in ("A", "B"):
            raise ValueError(f"to_move must be 'A' or 'B', not {to_move!r}")
        parsed = _Board(board)
        a, b = parsed.location(aloc, "aloc"), parsed.location(bloc, "bloc")
        self._init(
            rows=parsed.rows,
            cols=parsed.cols,
            standing=parsed.footholds,
            a=a,
            b=b,
            mover=to_move,
            _neighbours=parsed.neighbours,
        )

    @classmethod
    def start(cls, board: Any = "111/111/111", aloc: Any = (1, 0), bloc: Any = (1, 2)) -> Position:
        """A game's start: A at ``aloc`` and B at ``bloc`` on ``board``, A to move (the
        default is the judge's first sample)."""
        return cls(board, aloc, bloc)

    def _here(self) -> tuple[int, int]:
        """(the mover's cell, the other's cell)."""
        return (self.a, self.b) if self.mover == "A" else (self.b, self.a)

    @property
    def aloc(self) -> tuple[int, int]:
        row, col = divmod(self.a, self.cols)
        return row, col

    @property
    def bloc(self) -> tuple[int, int]:
        row, col = divmod(self.b, self.cols)
        return row, col

    def _key(self) -> Hashable:
        return (self.rows, self.cols, self.standing, self.a, self.b, self.mover)

    def _restore(self, state: tuple[Any, ...]) -> None:
        rows, cols, standing, a, b, mover = state
        self._init(
            rows=rows,
            cols=cols,
            standing=standing,
            a=a,
            b=b,
            mover=mover,
            _neighbours=_neighbours(rows, cols),
        )

    def _plane_code(self) -> int:
        return 1

    def _legal_actions(self) -> list[int]:
        me, _ = self._here()
        if not self.standing >> me & 1:
            return []
        steps = self._neighbours[me] & self.standing
        return [cell for cell in range(self.cells) if steps >> cell & 1]

    def _play_action(self, cell: int) -> Position:
        me, _ = self._here()
        after = object.__new__(Position)
        after._init(
            rows=self.rows,
            cols=self.cols,
            standing=self.standing & ~(1 << me),
            a=cell if self.mover == "A" else self.a,
            b=cell if self.mover == "B" else self.b,
            mover="B" if self.mover == "A" else "A",
            _neighbours=self._neighbours,
        )
        return after

    def _why_illegal(self, cell: int) -> str:
        me, _ = self._here()
        if not self.standing >> me & 1:
            return f"the game is over: {self.mover}'s cell has disappeared"
        if not self._legal_actions():
            return f"the game is over: {self.mover} cannot move"
        if not self._neighbours[me] >> cell & 1:
            return f"{self._move_of_action(cell)} is not next to {self.mover}'s cell"
        return f"{self._move_of_action(cell)} is a hole"

    def text(self) -> str:
        """The footholds still standing as the text ``footholds.solve`` reads (``"111/101"``)."""
        return "/".join(
            "".join(str(self.standing >> (row * self.cols + col) & 1) for col in range(self.cols))
            for row in range(self.rows)
        )

    def _solve(self, **options: Any) -> Solution[tuple[int, int]]:
        me, other = self._here()
        if not self.standing >> me & 1:  # the solvers take only pieces on footholds
            return Solution(-1, self._other(), 0, (), ())
        answer = solve(
            self.text(), self._move_of_action(me), self._move_of_action(other), **options
        )
        if self.mover == "A":
            return answer
        winner = {"A": "B", "B": "A"}[answer.winner] if answer.winner else None
        return Solution(
            answer.value, winner, answer.plies, answer.best_moves, answer.line, answer.nodes
        )

    def _analyze(self, **options: Any) -> dict[tuple[int, int], tuple[int, int]]:
        me, other = self._here()
        if not self.standing >> me & 1:
            return {}
        return analyze(
            self.text(), self._move_of_action(me), self._move_of_action(other), **options
        )

    def _ranked_moves(self, **options: Any) -> list[tuple[tuple[int, int], int, int]]:
        me, other = self._here()
        if not self.standing >> me & 1:
            return []
        return ranked_moves(
            self.text(), self._move_of_action(me), self._move_of_action(other), **options
        )

    def _batch_fields(self) -> tuple[dict[str, Any], dict[str, Any]]:
        # A batch row is a game with its first player to move: the mover's piece is "A".
        me, other = self._here()
        return {}, {"alocs": self._move_of_action(me), "blocs": self._move_of_action(other)}

    def _other(self) -> str:
        return "B" if self.mover == "A" else "A"

    def _cell_codes(self) -> list[int]:
        return [self.standing >> cell & 1 for cell in range(self.cells)]

    def _cell_char(self, cell: int) -> str:
        if cell == self.a == self.b:
            return "*"
        if cell in (self.a, self.b):
            return "A" if cell == self.a else "B"
        return str(self.standing >> cell & 1)

    def _svg_cell(self, cell: int, x: float, y: float) -> list[str]:
        size = 48
        fill = "#d9c69c" if self.standing >> cell & 1 else "#3b3b3b"
        parts = [
            f'<rect class="{"foothold" if self.standing >> cell & 1 else "hole"}" x="{x + 2}" '
            f'y="{y + 2}" width="{size - 4}" height="{size - 4}" fill="{fill}"/>'
        ]
        pieces = [name for name, at in (("A", self.a), ("B", self.b)) if at == cell]
        for index, name in enumerate(pieces):
            cx = x + size / 2 + (index - (len(pieces) - 1) / 2) * 16
            colour = "#111" if name == "A" else "#fff"
            ink = "#fff" if name == "A" else "#111"
            parts.append(
                f'<g class="stone {name.lower()}"><circle cx="{cx}" cy="{y + size / 2}" r="13" '
                f'fill="{colour}" stroke="#111" stroke-width="2"/><text x="{cx}" '
                f'y="{y + size / 2 + 5}" text-anchor="middle" font-size="14" '
                f'font-weight="bold" fill="{ink}">{name}</text></g>'
            )
        return parts

    @property
    def to_move(self) -> str | None:
        """'A' or 'B', or None once the game is over."""
        return None if self.is_over else self.mover

    @property
    def winner(self) -> str | None:
        """The player who has won once the game is over (there are no draws), else None."""
        return self._other() if self.is_over else None

    def __repr__(self) -> str:
        return (
            f"footholds.Position({self.text()!r}, {self.aloc}, {self.bloc}, "
            f"to_move={self.mover!r})  # {self._status_text()}"
        )


def review(record: Any, *, start: Position | None = None, **options: Any) -> Review:
    """A game reviewed move by move against perfect play (``perfectplay._kernel.review``):
    ``record`` is a list of the cells ``(row, col)`` the players step to, A first unless
    ``start`` (default: ``Position.start()``) says otherwise. An illegal move ends the review,
    reported at its ply (``Review.illegal``); ``options`` (``node_limit``) pass on to the
    searches.

    >>> from perfectplay import footholds
    >>> game = footholds.review([(0, 0), (0, 2)])
    >>> tuple((m.player, m.move, m.value_before, m.value_after) for m in game.moves)
    (('A', (0, 0), 1, -1), ('B', (0, 2), 1, -1))"""
    if isinstance(record, str):
        raise TypeError(
            f"a footholds record is a list of cells (row, col), not the string {quoted(record)}"
        )
    here = Position.start() if start is None else start
    return _review.review(here, record, ("A", "B"), **options)
