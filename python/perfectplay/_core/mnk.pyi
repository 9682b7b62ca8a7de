from typing import Any

from perfectplay._types import Solution

def solve(
    board: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None
) -> Solution[tuple[int, int]]: ...
def solve_empty(
    rows: Any, cols: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None
) -> Solution[tuple[int, int]]: ...
def analyze(
    board: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None
) -> dict[tuple[int, int], tuple[int, int]]: ...
def best_move(
    board: Any, k: Any, *, node_limit: Any = None, table_mb: Any = None
) -> tuple[int, int] | None: ...
def is_reachable(board: Any, k: Any) -> bool: ...

__all__ = ["analyze", "best_move", "is_reachable", "solve", "solve_empty"]
