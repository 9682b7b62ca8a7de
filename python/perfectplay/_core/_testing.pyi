"""Reference searches for the tests and benchmarks; not part of the public API."""

from typing import Any

def backtrack_footholds(
    board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None
) -> tuple[int, int, list[tuple[int, int]]]: ...
def exhaustive_mnk(board: Any, k: Any) -> tuple[int, int, list[tuple[int, int]]]: ...
def build_tictactoe_table() -> int: ...

__all__ = ["backtrack_footholds", "build_tictactoe_table", "exhaustive_mnk"]
