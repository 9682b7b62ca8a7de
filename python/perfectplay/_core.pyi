"""The compiled core (Rust). Use the public modules instead: perfectplay.tictactoe, .footholds."""

from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._types import Solution

__all__ = [
    "backtrack_footholds",
    "build_tictactoe_table",
    "exhaustive_mnk",
    "footholds_solve",
    "footholds_total_moves",
    "mnk_analyze",
    "mnk_best_move",
    "mnk_is_reachable",
    "mnk_solve",
    "mnk_solve_empty",
    "tictactoe_analyze",
    "tictactoe_batch_best_move",
    "tictactoe_batch_values",
    "tictactoe_best_move",
    "tictactoe_is_reachable",
    "tictactoe_is_valid_final",
    "tictactoe_outcome",
    "tictactoe_solve",
    "tictactoe_to_move",
    "tictactoe_value",
]

def tictactoe_value(board: Any) -> int: ...
def tictactoe_outcome(board: Any) -> str: ...
def tictactoe_solve(board: Any) -> Solution[int]: ...
def tictactoe_best_move(board: Any) -> int | None: ...
def tictactoe_analyze(board: Any) -> dict[int, tuple[int, int]]: ...
def tictactoe_to_move(board: Any) -> str | None: ...
def tictactoe_is_reachable(board: Any) -> bool: ...
def tictactoe_is_valid_final(board: Any) -> bool: ...
def build_tictactoe_table() -> int: ...
def tictactoe_batch_values(boards: Any) -> npt.NDArray[np.int8]: ...
def tictactoe_batch_best_move(boards: Any) -> npt.NDArray[np.int8]: ...
def footholds_solve(
    board: Any, aloc: Any, bloc: Any, *, node_limit: int | None = None
) -> Solution[tuple[int, int]]: ...
def footholds_total_moves(
    board: Any, aloc: Any, bloc: Any, *, node_limit: int | None = None
) -> int: ...
def backtrack_footholds(
    board: Any, aloc: Any, bloc: Any, *, node_limit: int | None = None
) -> tuple[int, int, list[tuple[int, int]]]: ...
def mnk_solve(
    board: Any, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> Solution[tuple[int, int]]: ...
def mnk_solve_empty(
    rows: int,
    cols: int,
    k: int,
    *,
    node_limit: int | None = None,
    table_mb: float | None = None,
) -> Solution[tuple[int, int]]: ...
def mnk_analyze(
    board: Any, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> dict[tuple[int, int], tuple[int, int]]: ...
def mnk_best_move(
    board: Any, k: int, *, node_limit: int | None = None, table_mb: float | None = None
) -> tuple[int, int] | None: ...
def mnk_is_reachable(board: Any, k: int) -> bool: ...
def exhaustive_mnk(board: Any, k: int) -> tuple[int, int, list[tuple[int, int]]]: ...
