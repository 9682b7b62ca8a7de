"""m,n,k-games: geometry, legality and search, the twin of ``rust/mnk.rs``.

Cell ``(row, col)`` of a ``rows x cols`` board is bit ``row * cols + col`` of an int mask; a
position is an X mask and an O mask, or, in the search, (mine, theirs) for the side to move.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from perfectplay._pure import score
from perfectplay._pure.board_input import read_mark_grid, to_item
from perfectplay._types import Solution
from perfectplay.errors import IllegalPosition, SearchLimitExceeded

__all__ = ["analyze", "best_move", "is_reachable", "solve", "solve_empty"]


class Geometry:
    """A ``rows x cols`` board where ``k`` in a row wins, with its winning windows."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        if rows <= 0 or cols <= 0:
            raise ValueError("board is empty")
        if rows * cols > 64:
            raise ValueError(f"board has {rows * cols} cells; at most 64 are supported")
        if not 1 <= k <= max(rows, cols):
            raise ValueError(
                f"k must be between 1 and {max(rows, cols)} for a {rows}x{cols} board, got {k}"
            )
        self.rows, self.cols, self.k = rows, cols, k
        self.full = (1 << rows * cols) - 1
        windows: list[int] = []
        for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for row in range(rows):
                for col in range(cols):
                    end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                    if not (0 <= end_row < rows and 0 <= end_col < cols):
                        continue
                    window = 0
                    for step in range(k):
                        window |= 1 << (row + d_row * step) * cols + col + d_col * step
                    if window not in windows:  # k = 1 makes every direction one cell
                        windows.append(window)
        self.windows = windows

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def has_line(self, stones: int) -> bool:
        return any(stones & w == w for w in self.windows)

    @cached_property
    def windows_through(self) -> list[list[int]]:
        return [[w for w in self.windows if w >> cell & 1] for cell in range(self.cells)]


def marks_to_masks(marks: list[int]) -> tuple[int, int]:
    """(X mask, O mask) of marks listed cell by cell."""
    x = sum(1 << cell for cell, mark in enumerate(marks) if mark == 1)
    o = sum(1 << cell for cell, mark in enumerate(marks) if mark == 2)
    return x, o


def x_to_move(x: int, o: int) -> bool:
    """X moves when both have as many marks (X moves first)."""
    return x.bit_count() == o.bit_count()


PLAYING, WON, DRAWN = "playing", "won", "drawn"


def status(geometry: Geometry, x: int, o: int) -> str:
    """PLAYING, WON or DRAWN for a board that can arise in play; IllegalPosition says why not."""
    xs, os_, k = x.bit_count(), o.bit_count(), geometry.k
    if xs not in (os_, os_ + 1):
        raise IllegalPosition(
            f"X has {xs} marks and O has {os_}, but X moves first, so X has as many marks as O "
            "or one more"
        )
    x_line, o_line = geometry.has_line(x), geometry.has_line(o)
    if x_line and o_line:
        raise IllegalPosition(f"both X and O have {k} in a row")
    if x_line and xs == os_:
        raise IllegalPosition(f"X has {k} in a row but O moved after the game ended")
    if o_line and xs == os_ + 1:
        raise IllegalPosition(f"O has {k} in a row but X moved after the game ended")
    if x_line or o_line:
        name, stones = ("X", x) if x_line else ("O", o)
        common = geometry.full
        for window in geometry.windows:
            if stones & window == window:
                common &= window
        if common == 0:
            # The winner's last move completed every line it has, so they must share a cell.
            raise IllegalPosition(
                f"{name}'s lines of {k} share no cell, so no single last move made them all "
                "(a move after the game ended)"
            )
        return WON
    return DRAWN if x | o == geometry.full else PLAYING


def negamax(
    geometry: Geometry,
    mine: int,
    theirs: int,
    memo: dict[tuple[int, int], int],
    count_node: Callable[[], None] = lambda: None,
) -> int:
    """The exact score (``score.py``) of a legal position with ``mine`` to move: negamax over
    every move, memoised. One shortcut, plainly right: a side that can complete a line now
    wins at once, the best score there is."""
    key = (mine, theirs)
    if key not in memo:
        count_node()
        empty = geometry.full & ~(mine | theirs)
        empties = empty.bit_count()
        if geometry.has_line(theirs):
            memo[key] = score.loss(empties)
        elif empty == 0:
            memo[key] = score.DRAW
        elif any(
            w & theirs == 0 and (w & mine).bit_count() == geometry.k - 1 for w in geometry.windows
        ):
            memo[key] = score.win(empties - 1)
        else:
            memo[key] = max(
                -negamax(geometry, theirs, mine | 1 << cell, memo, count_node)
                for cell in range(geometry.cells)
                if empty >> cell & 1
            )
    return memo[key]


def _check_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return value


def check_node_limit(node_limit: Any) -> int | None:
    """None or a positive int, as the compiled core checks it."""
    if node_limit is None:
        return None
    if isinstance(node_limit, bool) or not isinstance(node_limit, int):
        raise TypeError(f"node_limit must be an int or None, not {type(node_limit).__name__}")
    if node_limit < 1:
        raise ValueError(f"node_limit must be positive, got {node_limit}")
    return int(node_limit)


def _check_table_mb(table_mb: Any) -> None:
    """None or a number of MiB in (0, 65536]; the twin keeps no table, but checks alike."""
    if table_mb is None:
        return
    if isinstance(table_mb, bool) or not isinstance(table_mb, (int, float)):
        raise TypeError(f"table_mb must be a number of MiB, not {type(table_mb).__name__}")
    if not 0 < table_mb <= 65536:
        raise ValueError(f"table_mb must be more than 0 and at most 65536, got {table_mb}")


class _Game:
    """A legal position with its geometry, the side to move first, and a memo of scores."""

    def __init__(self, geometry: Geometry, x: int, o: int, node_limit: Any) -> None:
        self.geometry, self.x, self.o = geometry, x, o
        self.status = status(geometry, x, o)
        self.node_limit = check_node_limit(node_limit)
        self.nodes = 0
        self.memo: dict[tuple[int, int], int] = {}

    def count_node(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimitExceeded(f"search needed more than node_limit={self.node_limit} nodes")

    def score(self, mine: int, theirs: int) -> int:
        return negamax(self.geometry, mine, theirs, self.memo, self.count_node)

    def moves(self, mine: int, theirs: int) -> list[int]:
        if self.geometry.has_line(theirs):
            return []
        empty = self.geometry.full & ~(mine | theirs)
        return [cell for cell in range(self.geometry.cells) if empty >> cell & 1]

    def best_moves(self, mine: int, theirs: int) -> list[int]:
        best = self.score(mine, theirs)
        return [c for c in self.moves(mine, theirs) if -self.score(theirs, mine | 1 << c) == best]

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.geometry.cols)

    def root(self) -> tuple[int, int]:
        return (self.x, self.o) if x_to_move(self.x, self.o) else (self.o, self.x)


def _game(board: Any, k: Any, node_limit: Any, table_mb: Any) -> _Game:
    rows, cols, marks = read_mark_grid(to_item(board))
    geometry = Geometry(rows, cols, _check_int(k, "k"))
    x, o = marks_to_masks(marks)
    game = _Game(geometry, x, o, node_limit)
    _check_table_mb(table_mb)
    return game


def _solve(game: _Game) -> Solution[tuple[int, int]]:
    mine, theirs = game.root()
    result = game.score(mine, theirs)
    line = []
    position = (mine, theirs)
    while moves := game.best_moves(*position):
        line.append(moves[0])
        position = (position[1], position[0] | 1 << moves[0])
    x_moves = x_to_move(game.x, game.o)
    winner = None if result == 0 else "x" if (result > 0) == x_moves else "o"
    return Solution(
        score.value(result),
        winner,
        score.plies(result, (game.geometry.full & ~(mine | theirs)).bit_count()),
        tuple(game.row_col(c) for c in game.best_moves(mine, theirs)),
        tuple(game.row_col(c) for c in line),
        game.nodes,
    )


def solve(
    board: Any, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> Solution[tuple[int, int]]:
    """The position solved for the side to move; moves are (row, col)."""
    return _solve(_game(board, k, node_limit, table_mb))


def solve_empty(
    rows: int, cols: int, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> Solution[tuple[int, int]]:
    """The empty ``rows`` x ``cols`` board where ``k`` in a row wins, X to move."""
    for name, side in (("rows", rows), ("cols", cols)):
        if _check_int(side, name) < 1:
            raise ValueError(f"{name} must be at least 1, got {side}")
    if rows * cols > 64:
        raise ValueError(f"board has {rows * cols} cells; at most 64 are supported")
    geometry = Geometry(rows, cols, _check_int(k, "k"))
    game = _Game(geometry, 0, 0, node_limit)
    _check_table_mb(table_mb)
    return _solve(game)


def analyze(
    board: Any, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> dict[tuple[int, int], tuple[int, int]]:
    """{(row, col): (value for the player making it, plies from now with it)} for every move."""
    game = _game(board, k, node_limit, table_mb)
    mine, theirs = game.root()
    answers = {}
    for cell in game.moves(mine, theirs):
        child = game.score(theirs, mine | 1 << cell)
        empties = (game.geometry.full & ~(mine | theirs | 1 << cell)).bit_count()
        answers[game.row_col(cell)] = (-score.value(child), 1 + score.plies(child, empties))
    return answers


def best_move(
    board: Any, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> tuple[int, int] | None:
    """The first best move as (row, col), or None once the game is over."""
    game = _game(board, k, node_limit, table_mb)
    best = game.best_moves(*game.root())
    return game.row_col(best[0]) if best else None


def is_reachable(board: Any, k: int) -> bool:
    """Can the board arise in play? Raises only for malformed input."""
    rows, cols, marks = read_mark_grid(to_item(board))
    geometry = Geometry(rows, cols, _check_int(k, "k"))
    try:
        status(geometry, *marks_to_masks(marks))
    except IllegalPosition:
        return False
    return True
