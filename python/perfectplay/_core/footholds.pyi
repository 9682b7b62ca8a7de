from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._types import BatchSolution, Solution

def solve(
    board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None
) -> Solution[tuple[int, int]]: ...
def total_moves(board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None) -> int: ...
def analyze(
    board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None
) -> dict[tuple[int, int], tuple[int, int]]: ...
def batch_solve(
    boards: Any,
    alocs: Any,
    blocs: Any,
    *,
    moves: bool = False,
    threads: Any = None,
    node_limit: Any = None,
    errors: Any = None,
    progress: bool = False,
) -> BatchSolution: ...
def random_positions(
    board: Any,
    aloc: Any,
    bloc: Any,
    n: Any,
    *,
    seed: Any = None,
    plies: Any = None,
    threads: Any = None,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

__all__ = ["analyze", "batch_solve", "random_positions", "solve", "total_moves"]
