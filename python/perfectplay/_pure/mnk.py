"""m,n,k-games: geometry, legality and search, the twin of ``rust/mnk.rs``.

Cell ``(row, col)`` of a ``rows x cols`` board is bit ``row * cols + col`` of an int mask; a
position is an X mask and an O mask, or, in the search, (mine, theirs) for the side to move.
"""

from __future__ import annotations

from functools import cached_property

from perfectplay._pure import score
from perfectplay.errors import IllegalPosition


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


def exhaustive_score(
    geometry: Geometry, mine: int, theirs: int, memo: dict[tuple[int, int], int]
) -> int:
    """The exact score (``score.py``) of a legal position with ``mine`` to move: negamax over
    every move, no pruning, memoised."""
    key = (mine, theirs)
    if key not in memo:
        empty = geometry.full & ~(mine | theirs)
        if geometry.has_line(theirs):
            memo[key] = score.loss(empty.bit_count())
        elif empty == 0:
            memo[key] = score.DRAW
        else:
            memo[key] = max(
                -exhaustive_score(geometry, theirs, mine | 1 << cell, memo)
                for cell in range(geometry.cells)
                if empty >> cell & 1
            )
    return memo[key]
