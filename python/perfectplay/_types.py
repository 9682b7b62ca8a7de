"""The result type both backends return (the compiled core builds instances of this class)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["Solution"]

Move = TypeVar("Move")


@dataclass(frozen=True, slots=True)
class Solution(Generic[Move]):
    """A position solved under perfect play: the winner wins fastest, the loser survives longest.

    ``value`` is +1 if the side to move wins (for footholds: player A), 0 for a draw and -1 if it
    loses. ``winner`` is ``'x'``/``'o'`` (``'A'``/``'B'`` for footholds) or None for a draw.
    ``plies`` counts the moves still played. ``best_moves`` holds every move that keeps both the
    value and the plies optimal, ascending; ``line`` is one optimal game from here, taking the
    first best move at every turn. ``nodes`` is the search effort (0 when answered from a table;
    it differs between backends and takes no part in equality).
    """

    value: int
    winner: str | None
    plies: int
    best_moves: tuple[Move, ...]
    line: tuple[Move, ...]
    nodes: int = field(default=0, compare=False)

    @property
    def best_move(self) -> Move | None:
        """The first best move, or None when the game is over."""
        return self.best_moves[0] if self.best_moves else None
