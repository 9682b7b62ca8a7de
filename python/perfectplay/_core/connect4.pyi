from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._types import BatchSolution, Solution

def solve(
    position: Any,
    *,
    width: Any = None,
    height: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
) -> Solution[int]: ...
def analyze(
    position: Any,
    *,
    width: Any = None,
    height: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
) -> dict[int, tuple[int, int]]: ...
def best_move(
    position: Any,
    *,
    width: Any = None,
    height: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
) -> int | None: ...
def value(
    position: Any,
    *,
    width: Any = None,
    height: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
) -> int: ...
def score(
    position: Any,
    *,
    weak: bool = False,
    width: Any = None,
    height: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
) -> int: ...
def is_reachable(position: Any, *, width: Any = None, height: Any = None) -> bool: ...
def clear_tables() -> None: ...
def batch_solve(
    positions: Any,
    *,
    width: Any = None,
    height: Any = None,
    moves: bool = False,
    threads: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
    errors: Any = None,
    progress: bool = False,
) -> BatchSolution: ...
def random_positions(
    n: Any,
    *,
    width: Any = None,
    height: Any = None,
    seed: Any = None,
    plies: Any = None,
    threads: Any = None,
) -> npt.NDArray[np.uint8]: ...

__all__ = [
    "analyze",
    "batch_solve",
    "best_move",
    "clear_tables",
    "is_reachable",
    "random_positions",
    "score",
    "solve",
    "value",
]
