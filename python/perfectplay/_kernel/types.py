"""The result types both backends return (the compiled core builds instances of these classes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar

if TYPE_CHECKING:
    # Only for annotations: numpy is imported by what makes arrays, not by every start.
    import numpy as np
    import numpy.typing as npt

#: Board codes as every game's batch functions take and `random_positions` return them.
Codes: TypeAlias = "npt.NDArray[np.uint8]"
Int64s: TypeAlias = "npt.NDArray[np.int64]"

__all__ = ["BatchSolution", "Solution"]

Move = TypeVar("Move")


@dataclass(frozen=True, slots=True)
class Solution(Generic[Move]):
    """A position solved under perfect play: the winner wins fastest, the loser survives longest.

    ``value`` is +1 if the side to move wins (for footholds: player A), 0 for a draw and -1 if it
    loses. ``winner`` is ``'x'``/``'o'`` (``'A'``/``'B'`` for footholds) or None for a draw.
    ``plies`` counts the moves still played. ``best_moves`` holds every move that keeps both the
    value and the plies optimal, ascending; ``line`` is one optimal game from here, taking at every
    turn the best move the game prefers (the lowest; in Connect Four the column nearest the centre).
    ``nodes`` is the search effort (0 when answered from a table; it differs between backends and
    takes no part in equality).
    """

    value: int
    winner: str | None
    plies: int
    best_moves: tuple[Move, ...]
    line: tuple[Move, ...]
    nodes: int = field(default=0, compare=False)

    @property
    def best_move(self) -> Move | None:
        """The best move the game prefers (the line's first), or None when the game is over."""
        return self.line[0] if self.line else None


_FRAMES = "{} is not installed: pip install 'perfectplay[frames]'"


@dataclass(frozen=True, eq=False)
class BatchSolution:
    """Many positions solved at once, one row each (``batch_solve`` of every game).

    ``value`` int8 (side to move; footholds: A), ``plies`` int16, ``best_move`` int16 (flat cell
    ``row * cols + col`` of ``Solution.best_move``, the best move the game prefers; -1 when the game
    is over or the row failed), ``best_mask`` bool ``(N, cells)`` (every best move), ``status``
    uint8 (``OK`` 0, ``BAD`` 1 malformed or illegal, ``LIMIT`` 2 node limit), ``nodes`` uint64; with
    ``moves=True`` also ``move_value`` int8 and ``move_plies`` int16, ``(N, cells)``: each cell's
    move as ``analyze`` gives it, ``move_plies`` -1 where the cell is no legal move. A failed row
    holds value 0, plies -1, best_move -1 and no best move. The arrays are read-only.
    """

    OK: ClassVar[int] = 0
    BAD: ClassVar[int] = 1
    LIMIT: ClassVar[int] = 2

    value: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int16]
    best_move: npt.NDArray[np.int16]
    best_mask: npt.NDArray[np.bool_]
    status: npt.NDArray[np.uint8]
    nodes: npt.NDArray[np.uint64]
    move_value: npt.NDArray[np.int8] | None = None
    move_plies: npt.NDArray[np.int16] | None = None

    def __post_init__(self) -> None:
        for array in self.to_dict().values():
            array.flags.writeable = False

    def __len__(self) -> int:
        return len(self.value)

    def to_dict(self) -> dict[str, npt.NDArray[Any]]:
        """The arrays by name as they are, the per-move ones ``(N, cells)`` (moves only if
        computed): for numpy (``numpy.savez``). For pandas or pyarrow, whose columns have one
        dimension, see ``columns()``, ``to_pandas()`` and ``to_arrow()``."""
        arrays: dict[str, npt.NDArray[Any] | None] = {
            "value": self.value,
            "plies": self.plies,
            "best_move": self.best_move,
            "best_mask": self.best_mask,
            "status": self.status,
            "nodes": self.nodes,
            "move_value": self.move_value,
            "move_plies": self.move_plies,
        }
        return {name: array for name, array in arrays.items() if array is not None}

    def columns(self) -> dict[str, npt.NDArray[Any]]:
        """Every array as columns of one dimension, one item a row: ``value``, ``plies``,
        ``best_move``, ``status`` and ``nodes`` as they are, and each per-move array split into
        a column a move, named by the flat cell or column: ``best_mask_0``, ``best_mask_1``,
        ... (and ``move_value_0``, ``move_plies_0``, ... when computed). The columns are views
        of the arrays, not copies."""
        found: dict[str, npt.NDArray[Any]] = {}
        for name, array in self.to_dict().items():
            if array.ndim == 1:
                found[name] = array
            else:
                for move in range(array.shape[1]):
                    found[f"{name}_{move}"] = array[:, move]
        return found

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` of ``columns()``, one row a position (pandas is the
        ``frames`` extra: ``pip install 'perfectplay[frames]'``)."""
        try:
            import pandas as pd
        except ImportError as error:
            raise ImportError(_FRAMES.format("pandas")) from error
        return pd.DataFrame(self.columns())

    def to_arrow(self) -> Any:
        """A ``pyarrow.Table`` of ``columns()`` (``pyarrow.parquet.write_table`` writes it
        to Parquet; pyarrow is the ``frames`` extra)."""
        try:
            import pyarrow as pa
        except ImportError as error:
            raise ImportError(_FRAMES.format("pyarrow")) from error
        return pa.table(self.columns())

    def __repr__(self) -> str:
        import numpy as np

        statuses = np.bincount(self.status, minlength=3)
        moves = "yes" if self.move_value is not None else "no"
        return (
            f"BatchSolution({len(self)} rows: {statuses[0]} solved, {statuses[1]} bad, "
            f"{statuses[2]} over the node limit; moves={moves})"
        )
