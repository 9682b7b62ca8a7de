"""What every game's ``Position`` shares: flat actions, equality, numpy codes, text and SVG.

A game's ``Position`` supplies its rules (legal cells, playing a cell, who won) and how to ask
the solver; this base turns that into the same object for every game. Cells are numbered
row-major, ``row * cols + col``, the flat action index PettingZoo, OpenSpiel and Gymnasium use.
Positions are immutable, so the answers of ``solve`` and ``analyze`` are kept (an LRU cache of
4,096 calls shared by all positions): an agent asking again about a position it met before
costs a lookup.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any, Generic, TypeVar
from xml.sax.saxutils import escape

import numpy as np
import numpy.typing as npt

from perfectplay._types import Solution

__all__ = ["BasePosition", "RowColPosition", "check_action"]

Move = TypeVar("Move")
P = TypeVar("P", bound="BasePosition[Any]")

_CELL = 48  # pixels a cell in the SVG drawings
_MARGIN = 6
# Okabe-Ito colours (distinguishable with every common colour-vision deficiency), and a letter
# on every annotation, so that colour is never the only cue.
_VALUE_STYLE = {
    1: ("W", "#0072B2", "win"),
    0: ("D", "#999999", "draw"),
    -1: ("L", "#D55E00", "loss"),
}


def check_action(action: Any, cells: int) -> int:
    """A flat action index 0..cells-1 (an int or numpy integer, never a bool)."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise TypeError(f"action must be an int, not {type(action).__name__}")
    index = int(action.__index__())
    if not 0 <= index < cells:
        raise ValueError(f"action {index} is off the board: actions are 0..{cells - 1}")
    return index


@functools.lru_cache(maxsize=4096)
def _answer(position: BasePosition[Any], question: str, options: tuple[Any, ...]) -> Any:
    kwargs = dict(options)
    return position._solve(**kwargs) if question == "solve" else position._analyze(**kwargs)


class BasePosition(ABC, Generic[Move]):
    """A position of a game in progress: immutable, hashable, equal by position."""

    __slots__ = ("__weakref__", "cols", "rows")
    rows: int
    cols: int

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; play() returns a new one")

    def _init(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    # What a game supplies.
    @abstractmethod
    def _key(self) -> Hashable:
        """Everything that makes the position what it is (equality and hashing)."""

    @abstractmethod
    def _legal_cells(self) -> list[int]:
        """The cells of the legal moves, ascending; empty once the game is over."""

    @abstractmethod
    def _play_cell(self: P, cell: int) -> P:
        """The position after the legal move to ``cell``."""

    @abstractmethod
    def _why_illegal(self, cell: int) -> str:
        """Why a move to ``cell`` is not legal here (the cell is on the board)."""

    @abstractmethod
    def _move_of_cell(self, cell: int) -> Move:
        """The game's move form of a cell."""

    @abstractmethod
    def _cell_of_move(self, move: Any) -> int:
        """The cell of a move in the game's form; ValueError/TypeError for anything else."""

    @abstractmethod
    def _solve(self, **options: Any) -> Solution[Move]: ...

    @abstractmethod
    def _analyze(self, **options: Any) -> dict[Move, tuple[int, int]]: ...

    @abstractmethod
    def _cell_codes(self) -> list[int]:
        """The numpy code of every cell (the codes the game's batch functions read)."""

    @abstractmethod
    def _cell_char(self, cell: int) -> str:
        """One character for a cell in the text diagram."""

    @abstractmethod
    def _svg_cell(self, cell: int, x: float, y: float) -> list[str]:
        """SVG elements drawn on a cell whose top-left corner is (x, y); stones carry the
        class ``stone``."""

    @property
    @abstractmethod
    def to_move(self) -> str | None:
        """The side to move, or None once the game is over."""

    @property
    @abstractmethod
    def winner(self) -> str | None:
        """Who has won (a final position), or None: the game goes on or was drawn."""

    @abstractmethod
    def __repr__(self) -> str: ...

    # What every game gets.
    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move in the game's form, in ascending cell order (empty once over)."""
        return tuple(self._move_of_cell(cell) for cell in self._legal_cells())

    @property
    def legal_actions(self) -> tuple[int, ...]:
        """Every legal move as a flat action index ``row * cols + col``, ascending."""
        return tuple(self._legal_cells())

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action, 0 elsewhere, shape ``(rows * cols,)``."""
        mask = np.zeros(self.cells, dtype=np.int8)
        mask[self._legal_cells()] = 1
        return mask

    @property
    def is_over(self) -> bool:
        return not self._legal_cells()

    def play(self: P, move: Any) -> P:
        """The position after ``move``; an illegal move is a ``ValueError`` saying why."""
        cell = self._cell_of_move(move)
        if cell not in self._legal_cells():
            raise ValueError(f"illegal move {move!r}: {self._why_illegal(cell)}")
        return self._play_cell(cell)

    def action(self, move: Any) -> int:
        """The flat action index ``row * cols + col`` of a move in the game's form."""
        return self._cell_of_move(move)

    def move(self, action: Any) -> Move:
        """The game's move form of a flat action index."""
        return self._move_of_cell(check_action(action, self.cells))

    def solve(self, **options: Any) -> Solution[Move]:
        """The position solved under perfect play; ``value`` is for the side to move.
        Options (``node_limit``, ``table_mb`` where the game's ``solve`` takes them) pass on."""
        result: Solution[Move] = _answer(
            self, "solve", tuple(sorted(options.items())) if options else ()
        )
        return result

    def analyze(self, **options: Any) -> dict[Move, tuple[int, int]]:
        """{move: (value for the side making it, plies from now with it)} for every legal move."""
        result: dict[Move, tuple[int, int]] = _answer(
            self, "analyze", tuple(sorted(options.items()))
        )
        return dict(result)

    def to_array(self) -> npt.NDArray[np.uint8]:
        """The board as the game's numpy codes, shape ``(rows, cols)``."""
        return np.array(self._cell_codes(), dtype=np.uint8).reshape(self.rows, self.cols)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, BasePosition)
        return bool(self._key() == other._key())

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self._key()))

    def __str__(self) -> str:
        return "\n".join(
            " ".join(self._cell_char(row * self.cols + col) for col in range(self.cols))
            for row in range(self.rows)
        )

    def _status_text(self) -> str:
        if not self.is_over:
            return f"{self.to_move} to move"
        return f"{self.winner} won" if self.winner is not None else "draw"

    def svg(self, analysis: bool = False, **options: Any) -> str:
        """An SVG drawing of the board; with ``analysis=True`` every legal move is marked with
        its value for the side to move (W win, D draw, L loss, in colours that stay apart for
        colour-blind readers) and the plies left with it. Options pass on to ``analyze``."""
        width = self.cols * _CELL + 2 * _MARGIN
        height = self.rows * _CELL + 2 * _MARGIN + 22
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
            f'<rect class="board" x="0" y="0" width="{width}" height="{height}" fill="#f7f4ec"/>',
        ]
        for cell in range(self.cells):
            row, col = divmod(cell, self.cols)
            x, y = _MARGIN + col * _CELL, _MARGIN + row * _CELL
            parts.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                'fill="none" stroke="#555" stroke-width="1"/>'
            )
            parts.extend(self._svg_cell(cell, x, y))
        if analysis:
            for move, (value, plies) in sorted(self.analyze(**options).items()):
                cell = self._cell_of_move(move)
                row, col = divmod(cell, self.cols)
                x, y = _MARGIN + col * _CELL, _MARGIN + row * _CELL
                letter, colour, word = _VALUE_STYLE[value]
                parts.append(
                    f'<g class="annotation {word}"><title>{escape(repr(move))}: {word} '
                    f"for {escape(str(self.to_move))}, {plies} plies</title>"
                    f'<rect x="{x + 6}" y="{y + 6}" width="{_CELL - 12}" height="{_CELL - 12}" '
                    f'rx="6" fill="{colour}" fill-opacity="0.85"/>'
                    f'<text x="{x + _CELL / 2}" y="{y + _CELL / 2 + 5}" text-anchor="middle" '
                    f'font-size="15" font-weight="bold" fill="#fff">{letter}{plies}</text></g>'
                )
        parts.append(
            f'<text class="status" x="{_MARGIN}" y="{height - 8}" font-size="14" '
            f'fill="#222">{escape(self._status_text())}</text>'
        )
        parts.append("</svg>")
        return "".join(parts)

    def _repr_svg_(self) -> str:
        return self.svg()


class RowColPosition(BasePosition[tuple[int, int]]):
    """A position whose moves are ``(row, col)`` pairs; ``_MOVE`` names them in messages."""

    __slots__ = ()
    _MOVE = "a move"

    def _move_of_cell(self, cell: int) -> tuple[int, int]:
        row, col = divmod(cell, self.cols)
        return row, col

    def _cell_of_move(self, move: Any) -> int:
        if not isinstance(move, (tuple, list)) or len(move) != 2:
            raise TypeError(f"{self._MOVE} is a (row, col) pair, not {move!r}")
        row, col = (check_action(part, 1 << 62) for part in move)
        if row >= self.rows or col >= self.cols:
            raise ValueError(f"move {(row, col)} is off the {self.rows}x{self.cols} board")
        return row * self.cols + col
