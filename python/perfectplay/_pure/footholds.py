"""Disappearing footholds (KAKAO 2022): the twin of ``rust/footholds*.rs``.

Cell ``(row, col)`` is bit ``row * cols + col`` of an int; the footholds still standing are a
mask. The player to move steps to an orthogonal neighbour that still stands (the opponent's cell
included) and the cell it left disappears; a player loses when, on its turn, it cannot move or
its cell is gone. The search is plain negamax over every move, memoised by position, scored by
``score.py``: each move removes one cell, so the score counts the cells left at the end.
"""

from __future__ import annotations

from typing import Any

from perfectplay._pure import score
from perfectplay._pure.board_input import (
    SEPARATORS,
    Item,
    board_type_error,
    cell_type_error,
    check_rectangle,
    describe_char,
    row_type_error,
    text_rows,
    to_item,
    type_word,
)
from perfectplay._pure.mnk import check_node_limit
from perfectplay._types import Solution
from perfectplay.errors import SearchLimitExceeded

__all__ = ["solve", "total_moves"]

_I64 = range(-(2**63), 2**63)


def _foothold_char(char: str) -> bool:
    if char not in "01":
        raise ValueError(
            f"unknown symbol {describe_char(char)} in board (cells are 0 for a hole, 1 for a "
            "foothold)"
        )
    return char == "1"


def _foothold_cell(cell: Item) -> bool:
    if isinstance(cell, bool):
        return cell
    if isinstance(cell, int):
        if cell not in _I64:
            raise ValueError("cell value is out of range: cells are 0 or 1")
        if cell not in (0, 1):
            raise ValueError(f"cell value {cell} is not 0 or 1")
        return cell == 1
    if isinstance(cell, str):
        if len(cell) != 1:
            raise ValueError(f"cell must be a single character, got a str of length {len(cell)}")
        return _foothold_char(cell)
    raise cell_type_error(cell)


class Board:
    """A board's shape, its footholds, and each cell's orthogonal neighbours."""

    def __init__(self, board: Any) -> None:
        item = to_item(board)
        cells: list[bool] = []
        lengths: list[int] = []
        if isinstance(item, str):
            for row in text_rows(item):
                read = [_foothold_char(c) for c in row if c not in SEPARATORS]
                cells += read
                lengths.append(len(read))
        elif isinstance(item, list):
            for row_item in item:
                if isinstance(row_item, str):
                    read = [_foothold_char(c) for c in row_item if c not in SEPARATORS]
                elif isinstance(row_item, list):
                    read = [_foothold_cell(cell) for cell in row_item]
                else:
                    raise row_type_error(row_item)
                cells += read
                lengths.append(len(read))
        else:
            raise board_type_error(item)
        self.rows, self.cols = check_rectangle(lengths)
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
        if not isinstance(item, list):
            raise TypeError(f"{name} must be a (row, col) pair, not {type_word(item)}")
        if len(item) != 2:
            raise ValueError(
                f"{name} must be a (row, col) pair, got a sequence of {len(item)} items"
            )
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
            raise ValueError(f"{name} ({row}, {col}) is on a hole")
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

    def moves(self, footholds: int, me: int) -> list[int]:
        """Where the side to move may step (nowhere if its own cell is gone)."""
        if not footholds >> me & 1:
            return []
        steps = self.board.neighbours[me] & footholds
        return [cell for cell in range(self.board.rows * self.board.cols) if steps >> cell & 1]

    def score(self, footholds: int, me: int, you: int) -> int:
        key = (footholds, me, you)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimitExceeded(f"search needed more than node_limit={self.node_limit} nodes")
        moves = self.moves(footholds, me)
        if not moves:
            result = score.loss(footholds.bit_count())
        else:
            left = footholds & ~(1 << me)
            result = max(-self.score(left, you, to) for to in moves)
        self.memo[key] = result
        return result

    def best_moves(self, footholds: int, me: int, you: int) -> list[int]:
        best = self.score(footholds, me, you)
        left = footholds & ~(1 << me)
        return [to for to in self.moves(footholds, me) if -self.score(left, you, to) == best]


def _start(
    board: Any, aloc: Any, bloc: Any, node_limit: Any
) -> tuple[Board, _Search, tuple[int, int, int]]:
    parsed = Board(board)
    a = parsed.location(aloc, "aloc")
    b = parsed.location(bloc, "bloc")
    return parsed, _Search(parsed, check_node_limit(node_limit)), (parsed.footholds, a, b)


def solve(
    board: Any, aloc: Any, bloc: Any, *, node_limit: int | None = None
) -> Solution[tuple[int, int]]:
    """The game with A at ``aloc`` and B at ``bloc``, A to move, solved from A's side: value +1
    if A wins, -1 if B does; plies is the judge's total; moves are (row, col) destinations."""
    parsed, search, root = _start(board, aloc, bloc, node_limit)
    result = search.score(*root)
    line = []
    position = root
    while moves := search.best_moves(*position):
        footholds, me, you = position
        line.append(moves[0])
        position = (footholds & ~(1 << me), you, moves[0])
    return Solution(
        score.value(result),
        "A" if result > 0 else "B",
        score.plies(result, root[0].bit_count()),
        tuple(parsed.row_col(cell) for cell in search.best_moves(*root)),
        tuple(parsed.row_col(cell) for cell in line),
        search.nodes,
    )


def total_moves(board: Any, aloc: Any, bloc: Any, *, node_limit: int | None = None) -> int:
    """The judge's answer: the total number of moves under perfect play."""
    _, search, root = _start(board, aloc, bloc, node_limit)
    return score.plies(search.score(*root), root[0].bit_count())
