from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._types import Solution

def sizes(rows: Any, cols: Any, k: Any) -> list[int]: ...
def build(
    rows: Any, cols: Any, k: Any, *, threads: Any = None, progress: bool = False
) -> npt.NDArray[np.uint8]: ...
def build_range(
    rows: Any,
    cols: Any,
    k: Any,
    tier: int,
    start: int,
    count: int,
    next: npt.NDArray[np.uint8],
    *,
    threads: Any = None,
) -> npt.NDArray[np.uint8]: ...
def solve(
    data: npt.NDArray[np.uint8], rows: Any, cols: Any, k: Any, board: Any
) -> Solution[tuple[int, int]]: ...
def analyze(
    data: npt.NDArray[np.uint8], rows: Any, cols: Any, k: Any, board: Any
) -> dict[tuple[int, int], tuple[int, int]]: ...
def label_rows(
    data: npt.NDArray[np.uint8],
    rows: Any,
    cols: Any,
    k: Any,
    boards: npt.NDArray[np.integer[Any]],
    *,
    best: bool = True,
    moves: bool = False,
    threads: Any = None,
    progress: bool = False,
) -> tuple[Any, ...]: ...
def stats(
    data: npt.NDArray[np.uint8],
    rows: Any,
    cols: Any,
    k: Any,
    *,
    threads: Any = None,
    progress: bool = False,
) -> dict[str, Any]: ...
def position(rows: Any, cols: Any, k: Any, index: int) -> tuple[int, int, int]: ...
def check_sample(
    data: npt.NDArray[np.uint8], rows: Any, cols: Any, k: Any, samples: int
) -> None: ...
def check_all(
    data: npt.NDArray[np.uint8],
    rows: Any,
    cols: Any,
    k: Any,
    *,
    threads: Any = None,
    progress: bool = False,
) -> None: ...

__all__ = [
    "analyze",
    "build",
    "build_range",
    "check_all",
    "check_sample",
    "label_rows",
    "position",
    "sizes",
    "solve",
    "stats",
]
