from typing import Any

from perfectplay._types import Solution

def solve(
    board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None
) -> Solution[tuple[int, int]]: ...
def total_moves(board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None) -> int: ...
def analyze(
    board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None
) -> dict[tuple[int, int], tuple[int, int]]: ...

__all__ = ["analyze", "solve", "total_moves"]
