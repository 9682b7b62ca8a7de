from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._types import BatchSolution, Solution

def solve(
    board: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None, tablebase: Any = None
) -> Solution[tuple[int, int]]: ...
def solve_empty(
    rows: Any,
    cols: Any,
    k: Any,
    *,
    node_limit: Any = None,
    table_mb: Any = None,
    tablebase: Any = None,
) -> Solution[tuple[int, int]]: ...
def analyze(
    board: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None, tablebase: Any = None
) -> dict[tuple[int, int], tuple[int, int]]: ...
def best_move(
    board: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None, tablebase: Any = None
) -> tuple[int, int] | None: ...
def is_reachable(board: Any, k: Any) -> bool: ...
def batch_solve(
    boards: Any,
    k: Any,
    *,
    moves: bool = False,
    threads: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
    errors: Any = None,
    progress: bool = False,
    tablebase: Any = None,
) -> BatchSolution: ...
def random_positions(
    rows: Any,
    cols: Any,
    k: Any,
    n: Any,
    *,
    seed: Any = None,
    plies: Any = None,
    threads: Any = None,
) -> npt.NDArray[np.uint8]: ...

__all__ = [
    "analyze",
    "batch_solve",
    "best_move",
    "is_reachable",
    "random_positions",
    "solve",
    "solve_empty",
]
