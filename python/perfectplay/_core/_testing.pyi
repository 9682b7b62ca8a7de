"""Reference searches for the tests and benchmarks; not part of the public API. Only a core
built with the ``testing`` feature has it (the README's test command builds one; the release
wheels do not)."""

from typing import Any

def backtrack_footholds(
    board: Any, aloc: Any, bloc: Any, *, node_limit: Any = None
) -> tuple[int, int, list[tuple[int, int]]]: ...
def exhaustive_mnk(board: Any, k: Any) -> tuple[int, int, list[tuple[int, int]]]: ...
def build_tictactoe_table() -> int: ...
def plain_connect4(
    position: Any, *, width: int | None = None, height: int | None = None
) -> tuple[int, int, int]: ...
def connect4_score_on_128_bits(
    position: Any,
    *,
    width: Any = None,
    height: Any = None,
    node_limit: Any = None,
    table_mb: Any = None,
    threads: Any = None,
) -> int: ...
def perfect_hash_slots(
    pilots: list[int],
    overflow_buckets: list[int],
    overflow_pilots: list[int],
    slots: int,
    keys: list[int],
) -> list[int]: ...

__all__ = [
    "backtrack_footholds",
    "build_tictactoe_table",
    "connect4_score_on_128_bits",
    "exhaustive_mnk",
    "perfect_hash_slots",
    "plain_connect4",
]
