"""What every game's ``Position`` shares: actions, equality, pickling, numpy codes and planes,
text and SVG drawings.

A game's ``Position`` supplies its rules (legal actions, playing one, who won), how its moves
and actions relate, how to ask the solver, and how to draw a cell; this base turns that into
the same object for every game.

* **Actions** are a layer of their own: the integers ``0 .. action_count - 1`` that
  frameworks (Gymnasium, OpenSpiel) number moves by. For the games on a grid of cells an action
  is the cell ``row * cols + col``; for Connect Four it is the column. ``action(move)`` and
  ``move(action)`` translate.
* **Cells** are the board's squares, ``row * cols + col``, row 0 on top as the board is drawn;
  ``to_array()`` gives their codes and ``planes()`` the own/opponent planes.
* Positions are immutable: ``copy`` and ``deepcopy`` return the position itself, pickling
  stores what rebuilds it, and the answers of ``solve`` and ``analyze`` are kept (an LRU cache
  of 4,096 calls shared by all positions), so an agent asking again costs a lookup.
"""

from __future__ import annotations

import functools
import html
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

if TYPE_CHECKING:
    # Only for annotations: numpy is imported by what makes arrays, not by every start.
    import numpy as np
    import numpy.typing as npt

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.types import Solution

__all__ = ["BasePosition", "RowColPosition", "accepts_positions", "check_action"]


def _escape(text: str) -> str:
    """``&``, ``<`` and ``>`` escaped for SVG text, as ``xml.sax.saxutils.escape`` does
    without importing urllib, http and ssl at every start."""
    return html.escape(text, quote=False)


Move = TypeVar("Move")
P = TypeVar("P", bound="BasePosition[Any]")

_CELL = 48  # pixels a cell in the SVG drawings
_MARGIN = 6
# Dark shades of Okabe-Ito's blue, grey and vermilion (apart with every common colour-vision
# deficiency; white text on them, or they on white, at least 6:1, past WCAG AA's 4.5:1), and a
# letter on every annotation, so that colour is never the only cue.
VALUE_STYLE = {
    1: ("W", "#005A8C", "win"),
    0: ("D", "#5C5C5C", "draw"),
    -1: ("L", "#A63F00", "loss"),
}


def line_cells(codes: Sequence[int], rows: int, cols: int, k: int) -> tuple[int, ...]:
    """The first ``k`` cells in a row (across, down or diagonal) holding one player's stones,
    or ``()``."""
    for row in range(rows):
        for col in range(cols):
            code = codes[row * cols + col]
            if not code:
                continue
            for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + down * (k - 1), col + right * (k - 1)
                if not (end_row < rows and 0 <= end_col < cols):
                    continue
                line = tuple((row + down * i) * cols + col + right * i for i in range(k))
                if all(codes[cell] == code for cell in line):
                    return line
    return ()


def backend_functions(
    game: str, above: Callable[[str, Callable[..., Any]], Callable[..., Any]] | None = None
) -> dict[str, Any]:
    """The chosen backend's functions of ``game``, by the names of its twin's ``__all__``, for a
    public module to take as its own; ``batch_solve`` also takes a list of ``Position``s.
    ``above(name, function)``, when given, stands for each function: what the game answers
    above both backends (m,n,k's ``tablebase=``)."""
    functions = implementation(game)
    names = functions.__all__
    found = {name: getattr(functions, name) for name in names}
    if above is not None:
        found = {name: above(name, function) for name, function in found.items()}
    found["batch_solve"] = accepts_positions(found["batch_solve"], game)
    return found


def accepts_positions(batch_solve: Callable[..., Any], game: str) -> Callable[..., Any]:
    """``batch_solve`` of ``game`` that also takes a list (or tuple) of its ``Position``s: their
    boards become the rows and what a batch needs beyond the board (m,n,k's ``k``, footholds'
    locations) comes from the positions."""

    @functools.wraps(batch_solve)
    def batch(boards: Any, *args: Any, **options: Any) -> Any:
        if not (
            isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], BasePosition)
        ):
            return batch_solve(boards, *args, **options)
        kind = type(boards[0])
        if kind.__module__ != f"perfectplay.{game}":
            raise TypeError(
                f"{game}.batch_solve takes {game} positions, not {kind.__module__}.{kind.__name__}"
            )
        rows, given = _rows_of(boards)
        taken = set(given) & set(options)
        if args or taken:
            raise TypeError(
                f"a batch of positions takes {', '.join(sorted(given)) or 'nothing'} from the "
                "positions; give only keyword options such as moves= or threads="
            )
        return batch_solve(rows, **given, **options)

    return batch


def _rows_of(positions: Sequence[Any]) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
    """The code rows of a batch of positions of one game and size, and their batch options."""
    import numpy as np

    first = positions[0]
    shared, first_own = first._batch_fields()
    per_row: dict[str, list[Any]] = {name: [] for name in first_own}
    rows = np.empty((len(positions), first.rows, first.cols), dtype=np.uint8)
    for index, position in enumerate(positions):
        if type(position) is not type(first) or (position.rows, position.cols) != (
            first.rows,
            first.cols,
        ):
            raise ValueError(
                f"row {index}: a batch of positions holds positions of one game and size "
                f"(row 0 is {first!r}, this is {position!r})"
            )
        own_shared, own_per_row = position._batch_fields()
        if own_shared != shared:
            raise ValueError(f"row {index}: {own_shared} differs from row 0's {shared}")
        rows[index] = position.to_array()
        for name, value in own_per_row.items():
            per_row[name].append(value)
    arrays = {name: np.array(values, dtype=np.int64) for name, values in per_row.items()}
    return rows, {**shared, **arrays}


def check_action(action: Any, count: int, move: str = "") -> int:
    """An action index 0..count-1 (an int or numpy integer, never a bool); ``move`` says what
    a move of the game is when its moves are these indices (``"a column number 0..6"``)."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        if move:
            raise TypeError(f"a move is {move}, not {type(action).__name__} {action!r}")
        raise TypeError(f"action must be an int, not {type(action).__name__}")
    index = int(action.__index__())
    if not 0 <= index < count:
        raise ValueError(f"action {index} is off the board: actions are 0..{count - 1}")
    return index


@functools.lru_cache(maxsize=4096)
def _answer(position: BasePosition[Any], question: str, options: tuple[Any, ...]) -> Any:
    kwargs = dict(options)
    if question == "solve":
        return position._solve(**kwargs)
    if question == "best_moves":
        return position._best_moves(**kwargs)
    if question == "ranked_moves":
        return tuple(position._ranked_moves(**kwargs))
    return position._analyze(**kwargs)


def _rebuild(cls: type[P], state: tuple[Any, ...]) -> P:
    """The position a pickle holds (see ``BasePosition.__reduce__``)."""
    position = object.__new__(cls)
    position._restore(state)
    return position


class BasePosition(ABC, Generic[Move]):
    """A position of a game in progress: immutable, hashable, equal by position."""

    __slots__ = ("__weakref__", "cols", "rows")
    rows: int
    cols: int
    #: What the game's moves are called in messages.
    _MOVE: ClassVar[str] = "a move"
    #: ``perfectplay.agents.GradedAgent``'s softmax temperature of levels 1 to 9 on this game,
    #: calibrated by ``python benches/ladder.py --calibrate``; None: the agents' default.
    LEVEL_TEMPERATURES: ClassVar[tuple[float, ...] | None] = None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; play() returns a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _init(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    # What a game supplies.
    @abstractmethod
    def _key(self) -> Hashable:
        """Everything that makes the position what it is (equality, hashing, pickling)."""

    @abstractmethod
    def _restore(self, state: tuple[Any, ...]) -> None:
        """Sets the fields of a position from its ``_state()``."""

    def _state(self) -> tuple[Any, ...]:
        """What rebuilds the position (by default its key)."""
        key = self._key()
        return key if isinstance(key, tuple) else (key,)

    @property
    @abstractmethod
    def action_count(self) -> int:
        """How many actions the game has (legal or not): cells, or columns."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """The legal actions, ascending; empty once the game is over."""

    @abstractmethod
    def _play_action(self: P, action: int) -> P:
        """The position after the legal action ``action``."""

    @abstractmethod
    def _why_illegal(self, action: int) -> str:
        """Why ``action`` (in range) is not legal here."""

    @abstractmethod
    def _move_of_action(self, action: int) -> Move:
        """The game's move form of an action."""

    @abstractmethod
    def _action_of_move(self, move: Any) -> int:
        """The action of a move in the game's form; ValueError/TypeError for anything else."""

    @abstractmethod
    def _solve(self, **options: Any) -> Solution[Move]: ...

    @abstractmethod
    def _analyze(self, **options: Any) -> dict[Move, tuple[int, int]]: ...

    @abstractmethod
    def _ranked_moves(self, **options: Any) -> list[tuple[Move, int, int]]: ...

    def _best_moves(self, **options: Any) -> tuple[Move, ...]:
        # A game whose solution's line costs much more than its best moves answers them apart.
        return self._solve(**options).best_moves

    @abstractmethod
    def _cell_codes(self) -> list[int]:
        """The numpy code of every cell, row 0 on top (the codes the batch functions read)."""

    @abstractmethod
    def _cell_char(self, cell: int) -> str:
        """One character for a cell in the text diagram."""

    @abstractmethod
    def _svg_cell(self, cell: int, x: float, y: float) -> list[str]:
        """SVG elements drawn on a cell whose top-left corner is (x, y); stones carry the
        class ``stone``."""

    def _action_cell(self, action: int) -> int:
        """The cell where an action's annotation is drawn (the cell itself by default)."""
        return action

    def _in_a_row(self) -> int | None:
        """How many stones in a row win (None: the game is not won by a line)."""
        return None

    def winning_cells(self) -> tuple[int, ...]:
        """The cells of the line that won the game (``row * cols + col``, row 0 on top), or
        ``()`` when nobody has won by a line."""
        k = self._in_a_row()
        if k is None or self.winner is None:
            return ()
        return line_cells(self._cell_codes(), self.rows, self.cols, k)

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
        """Every legal move in the game's form, in ascending action order (empty once over)."""
        return tuple(self._move_of_action(action) for action in self._legal_actions())

    @property
    def legal_actions(self) -> tuple[int, ...]:
        """Every legal move as an action index, ascending."""
        return tuple(self._legal_actions())

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action, 0 elsewhere, shape ``(action_count,)``."""
        import numpy as np

        mask = np.zeros(self.action_count, dtype=np.int8)
        mask[self._legal_actions()] = 1
        return mask

    @property
    def is_over(self) -> bool:
        return not self._legal_actions()

    def play(self: P, move: Any) -> P:
        """The position after ``move``; an illegal move is a ``ValueError`` saying why."""
        action = self._action_of_move(move)
        if action not in self._legal_actions():
            raise ValueError(f"illegal move {move!r}: {self._why_illegal(action)}")
        return self._play_action(action)

    def action(self, move: Any) -> int:
        """The action index of a move in the game's form."""
        return self._action_of_move(move)

    def move(self, action: Any) -> Move:
        """The game's move form of an action index."""
        return self._move_of_action(check_action(action, self.action_count))

    def solve(self, **options: Any) -> Solution[Move]:
        """The position solved under perfect play; ``value`` is for the side to move.
        Options (``node_limit``, ``table_mb`` where the game's ``solve`` takes them) pass on."""
        result: Solution[Move] = _answer(
            self, "solve", tuple(sorted(options.items())) if options else ()
        )
        return result

    def best_moves(self, **options: Any) -> tuple[Move, ...]:
        """Every best move (``solve().best_moves``), without the solution's line, which some
        games (Connect Four early on) take much longer to find; none once the game is over."""
        result: tuple[Move, ...] = _answer(
            self, "best_moves", tuple(sorted(options.items())) if options else ()
        )
        return result

    def analyze(self, **options: Any) -> dict[Move, tuple[int, int]]:
        """{move: (value for the side making it, plies from now with it)} for every legal move."""
        result: dict[Move, tuple[int, int]] = _answer(
            self, "analyze", tuple(sorted(options.items()))
        )
        return dict(result)

    def ranked_moves(self, **options: Any) -> list[tuple[Move, int, int]]:
        """[(move, value for the side making it, plies from now with it)] for every legal move,
        best first: the higher value; among wins the quicker, among draws and losses the
        longer; then the move ``best_move`` prefers (the lowest; in Connect Four the column
        nearest the centre)."""
        result: tuple[tuple[Move, int, int], ...] = _answer(
            self, "ranked_moves", tuple(sorted(options.items()))
        )
        return list(result)

    def to_array(self) -> npt.NDArray[np.uint8]:
        """The board as the game's numpy codes, shape ``(rows, cols)``, row 0 on top."""
        import numpy as np

        return np.array(self._cell_codes(), dtype=np.uint8).reshape(self.rows, self.cols)

    def planes(self) -> npt.NDArray[np.int8]:
        """``(rows, cols, 2)`` int8: plane 0 the stones of the side to move (of the side that
        moved last once the game is over), plane 1 the other side's, as PettingZoo's boards
        and the Gymnasium environments show them."""
        import numpy as np

        codes = self.to_array()
        mine = self._plane_code()
        planes = np.zeros((self.rows, self.cols, 2), dtype=np.int8)
        planes[:, :, 0] = codes == mine
        planes[:, :, 1] = (codes != 0) & (codes != mine)
        return planes

    def with_board(self: P, codes: Any) -> P:
        """The position of this game, size and rules whose board holds ``codes`` (what
        ``to_array()`` gives, shape ``(rows, cols)``), the side to move following from the
        stones; a board no game reaches is ``perfectplay.IllegalPosition``."""
        import numpy as np

        array = np.asarray(codes)
        if array.shape != (self.rows, self.cols):
            raise ValueError(
                f"expected a board of shape {(self.rows, self.cols)}, got shape {array.shape}"
            )
        return self._with_codes(array)

    def _with_codes(self: P, codes: npt.NDArray[Any]) -> P:
        raise TypeError(f"{type(self).__qualname__} is not built from a board of codes")

    def _batch_fields(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What ``batch_solve`` needs beyond the board: options every row shares, and each
        row's own (stacked into arrays)."""
        return {}, {}

    def _plane_code(self) -> int:
        """The code of the side whose stones make plane 0."""
        return 1

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, BasePosition)
        return bool(self._key() == other._key())

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self._key()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._state()))

    def __copy__(self: P) -> P:
        return self

    def __deepcopy__(self: P, memo: dict[int, Any]) -> P:
        return self

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
            answers = self.analyze(**options)
            for move, (value, plies) in sorted(answers.items(), key=lambda item: repr(item[0])):
                row, col = divmod(self._action_cell(self._action_of_move(move)), self.cols)
                x, y = _MARGIN + col * _CELL, _MARGIN + row * _CELL
                letter, colour, word = VALUE_STYLE[value]
                parts.append(
                    f'<g class="annotation {word}"><title>{_escape(repr(move))}: {word} '
                    f"for {_escape(str(self.to_move))}, {plies} plies</title>"
                    f'<rect x="{x + 6}" y="{y + 6}" width="{_CELL - 12}" height="{_CELL - 12}" '
                    f'rx="6" fill="{colour}" fill-opacity="0.85"/>'
                    f'<text x="{x + _CELL / 2}" y="{y + _CELL / 2 + 5}" text-anchor="middle" '
                    f'font-size="15" font-weight="bold" fill="#fff">{letter}{plies}</text></g>'
                )
        parts.append(
            f'<text class="status" x="{_MARGIN}" y="{height - 8}" font-size="14" '
            f'fill="#222">{_escape(self._status_text())}</text>'
        )
        parts.append("</svg>")
        return "".join(parts)

    def _repr_svg_(self) -> str:
        return self.svg()


class GridPosition(BasePosition[Move], Generic[Move]):
    """A position whose actions are the board's cells."""

    __slots__ = ()

    @property
    def action_count(self) -> int:
        return self.cells


class RowColPosition(GridPosition[tuple[int, int]]):
    """A position whose moves are ``(row, col)`` cells and actions ``row * cols + col``."""

    __slots__ = ()

    def _move_of_action(self, action: int) -> tuple[int, int]:
        row, col = divmod(action, self.cols)
        return row, col

    def _action_of_move(self, move: Any) -> int:
        if not isinstance(move, (tuple, list)) or len(move) != 2:
            raise TypeError(f"{self._MOVE} is a (row, col) pair, not {move!r}")
        for part in move:
            if isinstance(part, bool) or not hasattr(part, "__index__"):
                raise TypeError(f"{self._MOVE} is a pair of ints, not {move!r}")
        row, col = (int(part.__index__()) for part in move)
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"move {(row, col)} is off the {self.rows}x{self.cols} board")
        return row * self.cols + col
