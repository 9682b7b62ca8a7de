"""Tic-tac-toe, the (3,3,3) m,n,k-game: the twin of ``rust/games/tictactoe/``.

Every answer comes from the exact scores of the m,n,k exhaustive search, memoised over the whole
game the first time it is needed (5,478 legal positions).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

from perfectplay._kernel import batch, driver, score
from perfectplay._kernel.args import Long, to_item
from perfectplay._kernel.board_input import MarkReader, board_type_error
from perfectplay._kernel.options import Options, SearchOptions, takes
from perfectplay._kernel.types import BatchSolution, Codes, Solution
from perfectplay.errors import IllegalPosition
from perfectplay.mnk import twin as mnk

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from typing_extensions import Unpack

__all__ = [
    "analyze",
    "batch_best_move",
    "batch_solve",
    "batch_values",
    "best_move",
    "is_reachable",
    "is_valid_final",
    "outcome",
    "random_positions",
    "ranked_moves",
    "solve",
    "to_move",
    "value",
]

GEOMETRY = mnk.Geometry(3, 3, 3)
# Every answer shares one memo: the whole game is 5,478 positions.
_SEARCH = mnk.Search(GEOMETRY)


def _read(board: Any) -> tuple[int, int]:
    """(X mask, O mask) of a board: 9 cells of text, a sequence of 9 cells, or 3 rows of 3; or
    of the moves of a list of ints (cells 0..8) from the empty board."""
    item = to_item(board)
    reader = MarkReader()
    marks: list[int] = []
    if _is_move_list(item):
        return _after_moves(cast(list[int], item))
    if isinstance(item, str):
        cells = reader.read_text(item, marks)
        if cells != 9:
            raise ValueError(
                f"board has {cells} cells, expected 9 (3 rows of 3, such as 'xx./oo./...')"
            )
    elif isinstance(item, list) and len(item) == 9:
        marks = [reader.read_cell(cell) for cell in item]
    elif isinstance(item, list) and len(item) == 3:
        for index, row in enumerate(item):
            cells = reader.read_row(row, marks)
            if cells != 3:
                raise ValueError(f"row {index} has {cells} cells, expected 3")
    elif isinstance(item, (list, Long)):
        length = len(item) if isinstance(item, list) else item.length
        raise ValueError(
            f"board must have 9 cells or 3 rows of 3, got a sequence of {length} items"
        )
    else:
        raise board_type_error(item)
    return mnk.marks_to_masks(marks)


def _is_move_list(item: Any) -> bool:
    """A list of ints (cells), not a board: any list of ints but one of 9 is moves; of 9, only
    distinct ones of 64 bits are (a board's 9 cells repeat the codes 0, 1 and 2; 9 moves are 9
    cells)."""
    if not isinstance(item, list):
        return False
    if not all(isinstance(cell, int) and not isinstance(cell, bool) for cell in item):
        return False
    if len(item) != 9:
        return True
    return len(set(item)) == 9 and all(-(2**63) <= cell < 2**63 for cell in item)


def _after_moves(moves: list[int]) -> tuple[int, int]:
    """(X mask, O mask) after ``moves`` from the empty board: a ``ValueError`` naming the
    first move off the board, on a taken cell, or after the game ended."""
    x = o = 0
    for number, cell in enumerate(moves, 1):
        if not 0 <= cell <= 8:
            what = f"cell {cell}" if -(2**63) <= cell < 2**63 else "the cell"
            raise ValueError(f"move {number}: {what} is off the board (cells are 0..8)")
        if GEOMETRY.has_line(x) or GEOMETRY.has_line(o):
            raise ValueError(
                f"move {number}: the game is over (three in a row) before move {number}"
            )
        if (x | o) >> cell & 1:
            raise ValueError(f"move {number}: cell {cell} is taken")
        if mnk.x_to_move(x, o):
            x |= 1 << cell
        else:
            o |= 1 << cell
    return x, o


class _Position:
    """A legal board, relative to the side to move."""

    def __init__(self, board: Any) -> None:
        x, o = _read(board)
        self.status = mnk.status(GEOMETRY, x, o)
        self.x_to_move = mnk.x_to_move(x, o)
        self.root = (x, o) if self.x_to_move else (o, x)
        self.score = _SEARCH.score(self.root)


def value(board: Any) -> int:
    """+1 the side to move wins, 0 draw, -1 it loses (in a final board: -1 if a line was made)."""
    return score.value(_Position(board).score)


def outcome(board: Any) -> Literal["x", "o", "draw"]:
    """Who wins from here under perfect play: 'x', 'o' or 'draw'."""
    position = _Position(board)
    if position.score == score.DRAW:
        return "draw"
    return "x" if (position.score > 0) == position.x_to_move else "o"


def _cell(cell: int) -> int:
    return cell


def solve(board: Any) -> Solution[int]:
    """The position solved for the side to move, from the table of the whole game; moves are
    cells 0..8, row-major."""
    position = _Position(board)
    solution = driver.solve(_SEARCH, position.root, ("x", "o"), position.x_to_move, _cell)
    # Answered from the memo of the whole game, as the compiled core answers from its table.
    return dataclasses.replace(solution, nodes=0)


def best_move(board: Any) -> int | None:
    """The first best move (cells 0..8, row-major), or None in a final position."""
    return driver.best_move(_SEARCH, _Position(board).root)


def analyze(board: Any) -> dict[int, tuple[int, int]]:
    """{move: (value for the player making it, plies from now with that move)} for every move."""
    return driver.analyze(_SEARCH, _Position(board).root, _cell)


def ranked_moves(board: Any) -> list[tuple[int, int, int]]:
    """[(move, value for the player making it, plies from now with it)] for every move, best
    first: the higher value; among wins the quicker, among draws and losses the longer; then
    the lower cell."""
    return driver.ranked(_SEARCH, _Position(board).root, _cell)


def to_move(board: Any) -> Literal["x", "o"] | None:
    """Whose move it is, 'x' or 'o', or None in a final position."""
    position = _Position(board)
    if position.status != mnk.PLAYING:
        return None
    return "x" if position.x_to_move else "o"


def is_reachable(board: Any) -> bool:
    """Can the board arise in play? Raises only for malformed input."""
    x, o = _read(board)
    try:
        mnk.status(GEOMETRY, x, o)
    except IllegalPosition:
        return False
    return True


def is_valid_final(board: Any) -> bool:
    """Reachable and final: a line was completed, or the board is full."""
    x, o = _read(board)
    try:
        return mnk.status(GEOMETRY, x, o) != mnk.PLAYING
    except IllegalPosition:
        return False


def _array_rows(boards: np.ndarray[Any, Any]) -> list[Any]:
    """The rows of a batch array of shape (N, 9) or (N, 3, 3), checked, as lists of 9 codes."""
    if boards.dtype.kind not in "iu":
        raise TypeError(
            f"boards must be an integer array, not {boards.dtype}: "
            "convert it with .astype(numpy.uint8)"
        )
    if boards.ndim not in (2, 3) or boards.shape[1:] not in ((9,), (3, 3)):
        raise ValueError(f"boards must have shape (N, 9) or (N, 3, 3), got {list(boards.shape)}")
    rows: list[Any] = boards.reshape(len(boards), 9).tolist()
    return rows


def _batch(boards: Any, answer: Any) -> npt.NDArray[np.int8]:
    import numpy as np

    if isinstance(boards, np.ndarray):
        rows: Sequence[Any] = _array_rows(boards)
    else:
        rows = batch.sequence_items(boards, "boards")
    out = []
    for row, board in enumerate(rows):
        try:
            out.append(answer(board))
        except (ValueError, TypeError) as error:
            raise type(error)(f"row {row}: {error}") from None
    return np.array(out, dtype=np.int8)


def batch_values(boards: Any) -> npt.NDArray[np.int8]:
    """``value`` of every board, as a numpy int8 array."""
    return _batch(boards, value)


def batch_best_move(boards: Any) -> npt.NDArray[np.int8]:
    """``best_move`` of every board as a numpy int8 array, -1 for final boards."""
    return _batch(boards, lambda board: -1 if (move := best_move(board)) is None else move)


@takes(("moves", "errors"))
def batch_solve(boards: Any, **options: Unpack[SearchOptions]) -> BatchSolution:
    """Every board's value, plies, best moves (and with ``moves``, each move's answer):
    see ``perfectplay.BatchSolution``."""
    import numpy as np

    checked = Options.read(options, "batch_solve", ("moves", "errors"))
    if isinstance(boards, np.ndarray):
        items: list[Any] = _array_rows(boards)
    else:
        items = batch.sequence_items(boards, "boards")
    rows = [batch.rows_of(lambda board: _Position(board).root, board) for board in items]

    def solve_row(root: tuple[int, int]) -> batch.Label:
        return driver.label(_SEARCH, root, checked.moves)

    return batch.solve_rows(rows, 9, checked, "", solve_row)


@takes(mnk.RANDOM)
def random_positions(n: Any, **options: Unpack[SearchOptions]) -> Codes:
    """``n`` positions by uniformly random play, ``(n, 3, 3)`` uint8 codes (``ongoing=True``:
    only games still going on)."""
    return mnk.random_marks(GEOMETRY, n, Options.read(options, "random_positions", mnk.RANDOM))
