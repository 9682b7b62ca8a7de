"""Disappearing footholds (KAKAO 2022): the twin of ``rust/games/footholds/``.

Cell ``(row, col)`` is bit ``row * cols + col`` of an int; the footholds still standing are a
mask. The player to move steps to an orthogonal neighbour that still stands (the opponent's cell
included) and the cell it left disappears; a player loses when, on its turn, it cannot move or
its cell is gone. The search is plain negamax over every move, memoised by position, scored by
``score.py``: each move removes one cell, so the score counts the cells left at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay._kernel import args, batch, driver, score
from perfectplay._kernel.args import to_item, type_word
from perfectplay._kernel.board_input import I64, CellReader, describe_char, read_grid
from perfectplay._kernel.options import Options, SearchOptions, random_args, takes
from perfectplay._kernel.types import BatchSolution, Codes, Int64s, Solution
from perfectplay.errors import SearchLimitExceeded

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["analyze", "batch_solve", "random_positions", "ranked_moves", "solve", "total_moves"]


class _FootholdReader(CellReader[bool]):
    """Footholds cells: 0 a hole, 1 a foothold (bools and ``"0"``/``"1"`` allowed)."""

    def read_char(self, char: str) -> bool:
        if char not in "01":
            raise ValueError(
                f"unknown symbol {describe_char(char)} in board (cells are 0 for a hole, 1 for a "
                "foothold)"
            )
        return char == "1"

    def read_number(self, cell: int) -> bool:
        if isinstance(cell, bool):
            return cell
        if cell not in I64:
            raise ValueError("cell value is out of range: cells are 0 or 1")
        if cell not in (0, 1):
            raise ValueError(f"cell value {cell} is not 0 or 1")
        return cell == 1


class Board:
    """A board's shape, its footholds, and each cell's orthogonal neighbours."""

    def __init__(self, board: Any) -> None:
        self.rows, self.cols, cells = read_grid(to_item(board), _FootholdReader())
        self.footholds = sum(1 << cell for cell, standing in enumerate(cells) if standing)
        self.neighbours = [
            sum(
                1 << (r * self.cols + c)
                for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                if 0 <= r < self.rows and 0 <= c < self.cols
            )
            for row in range(self.rows)
            for col in range(self.cols)
        ]

    def location(self, location: Any, name: str) -> int:
        """The cell of a (row, col) pair that must be a foothold."""
        item = to_item(location)
        length = args.sequence_len(item)
        if length is None:
            raise TypeError(f"{name} must be a (row, col) pair, not {type_word(item)}")
        if not isinstance(item, list) or length != 2:
            raise ValueError(f"{name} must be a (row, col) pair, got a sequence of {length} items")
        coordinates: list[int] = []
        for coordinate in item:
            if isinstance(coordinate, bool) or not isinstance(coordinate, int):
                raise TypeError(f"{name} must hold ints, not {type_word(coordinate)}")
            coordinates.append(min(coordinate, 2**63 - 1))  # as the Rust side reads big ints
        row, col = coordinates
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"{name} ({row}, {col}) is off the {self.rows}x{self.cols} board")
        cell = row * self.cols + col
        if not self.footholds >> cell & 1:
            raise ValueError(
                f"{name} ({row}, {col}) is on a hole: pieces stand on footholds, cells of 1"
            )
        return cell

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)


class _Search:
    """Exact scores of positions (footholds, me, you), the side to move first."""

    def __init__(self, board: Board, node_limit: int | None) -> None:
        self.board = board
        self.node_limit = node_limit
        self.nodes = 0
        self.memo: dict[tuple[int, int, int], int] = {}

    def moves(self, position: tuple[int, int, int]) -> list[int]:
        """Where the side to move may step (nowhere if its own cell is gone)."""
        footholds, me, _ = position
        if not footholds >> me & 1:
            return []
        steps = self.board.neighbours[me] & footholds
        return [cell for cell in range(self.board.rows * self.board.cols) if steps >> cell & 1]

    def play(self, position: tuple[int, int, int], to: int) -> tuple[int, int, int]:
        footholds, me, you = position
        return footholds & ~(1 << me), you, to

    def cells_left(self, position: tuple[int, int, int]) -> int:
        return position[0].bit_count()

    def score(self, position: tuple[int, int, int]) -> int:
        if position in self.memo:
            return self.memo[position]
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimitExceeded(f"search needed more than node_limit={self.node_limit} nodes")
        moves = self.moves(position)
        if not moves:
            result = score.loss(self.cells_left(position))
        else:
            result = max(-self.score(self.play(position, to)) for to in moves)
        self.memo[position] = result
        return result


def _start(
    board: Any, aloc: Any, bloc: Any, given: Any, function: str
) -> tuple[Board, _Search, tuple[int, int, int]]:
    node_limit = Options.read(given, function, ("node_limit",)).node_limit
    parsed = Board(board)
    a = parsed.location(aloc, "aloc")
    b = parsed.location(bloc, "bloc")
    return parsed, _Search(parsed, node_limit), (parsed.footholds, a, b)


@takes(("node_limit",))
def solve(
    board: Any, aloc: Any, bloc: Any, **options: Unpack[SearchOptions]
) -> Solution[tuple[int, int]]:
    """The game with A at ``aloc`` and B at ``bloc``, A to move, solved from A's side: value +1
    if A wins, -1 if B does; plies is the judge's total; moves are (row, col) destinations."""
    parsed, search, root = _start(board, aloc, bloc, options, "solve")
    return driver.solve(search, root, ("A", "B"), True, parsed.row_col)


@takes(("node_limit",))
def total_moves(board: Any, aloc: Any, bloc: Any, **options: Unpack[SearchOptions]) -> int:
    """The judge's answer: the total number of moves under perfect play."""
    _, search, root = _start(board, aloc, bloc, options, "total_moves")
    return driver.plies(search, root)


@takes(("node_limit",))
def analyze(
    board: Any, aloc: Any, bloc: Any, **options: Unpack[SearchOptions]
) -> dict[tuple[int, int], tuple[int, int]]:
    """{(row, col): (value for A, plies from now with that move)} for each of A's first moves."""
    parsed, search, root = _start(board, aloc, bloc, options, "analyze")
    return driver.analyze(search, root, parsed.row_col)


@takes(("node_limit",))
def ranked_moves(
    board: Any, aloc: Any, bloc: Any, **options: Unpack[SearchOptions]
) -> list[tuple[tuple[int, int], int, int]]:
    """[((row, col), value for A, plies from now with it)] for each of A's first moves, best
    first: the higher value; among wins the quicker, among losses the longer; then the lower
    cell."""
    parsed, search, root = _start(board, aloc, bloc, options, "ranked_moves")
    return driver.ranked(search, root, parsed.row_col)


def _nested(item: Any) -> bool:
    return isinstance(item, (np.ndarray, str)) or (
        isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray, memoryview))
    )


def _boards_arg(boards: Any) -> tuple[bool, list[Any]]:
    """(one per row, the boards): the compiled core's rules, see ``batch_solve``."""
    if isinstance(boards, np.ndarray):
        if boards.ndim == 2:
            return False, [boards]
        if boards.ndim == 3:
            return True, list(boards)
        raise ValueError(
            f"boards must have shape (rows, cols) or (N, rows, cols), got {boards.ndim} dimensions"
        )
    if isinstance(boards, str):
        return False, [boards]
    items = batch.sequence_items(boards, "boards")
    first = items[0] if items else None
    one_board = (
        first is not None
        and not isinstance(first, str)
        and _nested(first)
        and (cells := list(first)[:1]) != []
        and not _nested(cells[0])
    )
    return (False, [boards]) if one_board else (True, items)


def _locations_arg(locations: Any, name: str) -> tuple[bool, list[Any]]:
    if isinstance(locations, np.ndarray):
        if locations.ndim == 1:
            return False, [locations]
        if locations.ndim == 2:
            return True, list(locations)
        raise ValueError(f"{name} must have shape (2,) or (N, 2), got {locations.ndim} dimensions")
    items = batch.sequence_items(locations, name)
    return (True, items) if any(_nested(item) for item in items) else (False, [locations])


#: ``batch_solve``'s options.
BATCH = ("moves", "threads", "node_limit", "errors", "progress")


@takes(BATCH)
def batch_solve(
    boards: Any, alocs: Any, blocs: Any, **options: Unpack[SearchOptions]
) -> BatchSolution:
    """Many games at once: one board for all rows or one per row, one pair of locations for
    all or one per row; see ``perfectplay.BatchSolution``. Cells are ``row * cols + col``,
    values from A's side."""
    checked = Options.read(options, "batch_solve", BATCH)
    arguments = [
        _boards_arg(boards),
        _locations_arg(alocs, "alocs"),
        _locations_arg(blocs, "blocs"),
    ]
    counts = [len(items) for each_row, items in arguments if each_row]
    if any(count != counts[0] for count in counts):
        raise ValueError(f"boards, alocs and blocs have different numbers of rows: {counts}")
    count = counts[0] if counts else 1

    def pick(argument: tuple[bool, list[Any]], row: int) -> Any:
        return argument[1][row] if argument[0] else argument[1][0]

    shared = None if arguments[0][0] else batch.rows_of(Board, arguments[0][1][0])
    read = [
        shared if shared is not None else batch.rows_of(Board, pick(arguments[0], row))
        for row in range(count)
    ]
    shape = next(((b.rows, b.cols) for b in read if isinstance(b, Board)), None)

    def placed(board: Board, row: int) -> tuple[Board, int, int]:
        assert shape is not None
        if (board.rows, board.cols) != shape:
            raise ValueError(
                f"board is {board.rows}x{board.cols}, not {shape[0]}x{shape[1]} as the batch"
            )
        a = board.location(pick(arguments[1], row), "aloc")
        return board, a, board.location(pick(arguments[2], row), "bloc")

    rows = [
        board if isinstance(board, BaseException) else batch.rows_of(placed, board, row)
        for row, board in enumerate(read)
    ]

    def solve_row(row: tuple[Board, int, int]) -> batch.Label:
        board, a, b = row
        search = _Search(board, checked.node_limit)
        return driver.label(search, (board.footholds, a, b), checked.moves)

    cells = shape[0] * shape[1] if shape else 0
    what = f"footholds {shape[0]}x{shape[1]}" if shape else ""
    return batch.solve_rows(rows, cells, checked, what, solve_row)


#: ``random_positions``' options.
RANDOM = ("seed", "plies", "ongoing", "threads")


@takes(RANDOM)
def random_positions(
    board: Any, aloc: Any, bloc: Any, n: Any, **options: Unpack[SearchOptions]
) -> tuple[Codes, Int64s, Int64s]:
    """``n`` games by uniformly random play from A at ``aloc`` and B at ``bloc`` on ``board``, A
    to move in each (an even number of moves), both pieces on footholds (a game that ends
    stops at the last such position): ``(boards, alocs, blocs)``, uint8 ``(n, rows, cols)``
    standing cells and int64 ``(n, 2)`` pieces, as ``batch_solve`` takes them;
    ``ongoing=True``: only games where A has a move."""
    checked = Options.read(options, "random_positions", RANDOM)
    parsed, search, start = _start(board, aloc, bloc, {}, "random_positions")
    count, seed_, low, high = random_args(n, checked, parsed.footholds.bit_count())
    boards = np.zeros((count, parsed.rows, parsed.cols), dtype=np.uint8)
    alocs = np.zeros((count, 2), dtype=np.int64)
    blocs = np.zeros((count, 2), dtype=np.int64)
    for row in range(count):
        rng = batch.SplitMix64.for_row(seed_, row)
        position = start
        # Two moves at a time, keeping the last position a batch takes: A to move, both pieces
        # on footholds (a game that ends stops the walk where it stood).
        for _ in range(((low + rng.below(high - low + 1)) & ~1) // 2):
            following = position
            for _ in range(2):
                legal = search.moves(following)
                if not legal:
                    break
                following = search.play(following, legal[rng.below(len(legal))])
            standing, me, you = following
            moved = position[0].bit_count() - standing.bit_count()
            if moved < 2 or not (standing >> me & 1 and standing >> you & 1):
                break
            if checked.ongoing and not search.moves(following):
                break
            position = following
        standing, a, b = position
        cells = [standing >> cell & 1 for cell in range(parsed.rows * parsed.cols)]
        boards[row] = np.array(cells, dtype=np.uint8).reshape(parsed.rows, parsed.cols)
        alocs[row], blocs[row] = divmod(a, parsed.cols), divmod(b, parsed.cols)
    return boards, alocs, blocs
