"""The one batch loop of the twin (the twin of ``rust/engine/batch.rs`` and
``rust/py/batch.rs``): rows solved one by one, bad rows raised or masked, the columns of a
``BatchSolution``. The twin is single-threaded: ``threads`` is checked, not used.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from perfectplay._kernel.errors import SearchLimitExceeded
from perfectplay._kernel.options import Options
from perfectplay._kernel.types import BatchSolution

Row = TypeVar("Row")
Label = tuple[int, int, list[int], dict[int, tuple[int, int]]]


def sequence_items(obj: Any, what: str) -> list[Any]:
    """The items of a sequence argument of a batch (a list, a tuple or any sequence but str and
    bytes-likes), or a ``TypeError`` naming ``what``; both backends read a batch through it."""
    if not isinstance(obj, Sequence) or isinstance(obj, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be a numpy array or a sequence, not {type(obj).__name__}")
    if type(obj) in (list, tuple):
        return list(obj)  # their len() is true
    # A sequence may claim any length and yield forever: read no more than it claims, and
    # nothing of one that claims more rows than memory holds (range(10**12) would read for
    # hours before running out of it).
    try:
        claimed = len(obj)
    except OverflowError:
        claimed = sys.maxsize + 1
    if claimed > _most_rows():
        raise MemoryError(
            f"{what} claims {claimed:,} items: more rows than a batch can hold in this "
            "machine's memory"
        )
    items: list[Any] = []
    for item in obj:
        if len(items) == claimed:
            raise ValueError(f"{what} yields more items than its len() of {claimed}")
        items.append(item)
    return items


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, where the system says (the core's
    ``engine::memory::physical_memory``)."""
    try:
        pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * page if pages > 0 and page > 0 else None


@functools.cache
def _most_rows() -> int:
    """The most rows a batch read from a sequence can have: one pointer (8 bytes) a row, the
    least a row takes, in the machine's memory (1 TiB where it cannot be read)."""
    return (physical_memory() or 1 << 40) // 8


def array_cells(
    array: np.ndarray[Any, Any], bools: bool, what: str = "boards"
) -> tuple[tuple[int, ...], list[int]]:
    """The cells of an integer (or bool) array as ints in C order, with its shape."""
    if not (array.dtype.kind in "iu" or (bools and array.dtype.kind == "b")):
        wanted = "an integer or bool" if bools else "an integer"
        raise TypeError(
            f"{what} must be {wanted} array, not {array.dtype}: "
            "convert it with .astype(numpy.uint8)"
        )
    if array.dtype.kind == "u" and array.dtype.itemsize == 8:
        array = np.minimum(array, np.uint64(2**63 - 1))
    return tuple(array.shape), [int(v) for v in np.ascontiguousarray(array, np.int64).ravel()]


def solve_rows(
    rows: list[Row | BaseException],
    cells: int,
    options: Options,
    what: str,
    solve_row: Callable[[Row], Label],
) -> BatchSolution:
    """Bad rows (exceptions) raise naming the row, or are marked; the rest are solved (the
    options' ``moves``, ``errors`` and ``progress``)."""
    moves, errors, progress = options.moves, options.errors, options.progress
    if errors == "raise":
        for index, row in enumerate(rows):
            if isinstance(row, BaseException):
                raise with_row(row, index)
    count = len(rows)
    value = np.zeros(count, np.int8)
    plies = np.full(count, -1, np.int16)
    best_move = np.full(count, -1, np.int16)
    best_mask = np.zeros((count, cells), np.bool_)
    status = np.full(count, BatchSolution.BAD, np.uint8)
    nodes = np.zeros(count, np.uint64)
    move_value = np.zeros((count, cells), np.int8) if moves else None
    move_plies = np.full((count, cells), -1, np.int16) if moves else None
    bar = progress_bar(progress, what, count)
    for index, row in enumerate(rows):
        if bar is not None:
            bar.update(1)
        if isinstance(row, BaseException):
            continue
        try:
            row_value, row_plies, best, answers = solve_row(row)
        except SearchLimitExceeded as error:
            if errors == "raise":
                raise with_row(error, index) from None
            status[index] = BatchSolution.LIMIT
            continue
        value[index], plies[index], status[index] = row_value, row_plies, BatchSolution.OK
        best_move[index] = best[0] if best else -1
        best_mask[index, best] = True
        if move_value is not None and move_plies is not None:
            for cell, (move_val, move_pl) in answers.items():
                move_value[index, cell], move_plies[index, cell] = move_val, move_pl
    if bar is not None:
        bar.close()
    return BatchSolution(value, plies, best_move, best_mask, status, nodes, move_value, move_plies)


def with_row(error: BaseException, row: int) -> BaseException:
    """The same class of exception, its message prefixed with the batch row."""
    return type(error)(f"row {row}: {error}")


def progress_bar(show: bool, what: str, total: int | None, done: int = 0) -> Any:
    """A tqdm bar on standard error when ``show`` (``total`` None: told later), else None;
    ``done`` already done before it starts (a resumed build's), kept out of its rate."""
    if not show:
        return None
    import tqdm

    return tqdm.tqdm(total=total, initial=done, desc=what, unit=" positions", file=sys.stderr)


class Progress:
    """A tqdm bar on standard error that the compiled core's long jobs draw: made at the
    start, told ``(done, total)`` now and then, closed at the end."""

    def __init__(self, what: str) -> None:
        self.bar = progress_bar(True, what, None)
        self.shown = 0

    def __call__(self, done: int, total: int) -> None:
        if self.shown == 0:
            self.bar.total = total or None  # 0: no end known, a count
        if done > self.shown:
            self.bar.update(done - self.shown)
            self.shown = done

    def close(self) -> None:
        self.bar.close()


def rows_of(parse: Callable[..., Row], *arguments: Any) -> Row | BaseException:
    """``parse(*arguments)``: a row parsed, or the exception that says why it cannot be."""
    try:
        return parse(*arguments)
    except (ValueError, TypeError) as error:
        return error


_MASK = (1 << 64) - 1


def mix(x: int) -> int:
    """SplitMix64's finaliser (the compiled core's ``engine/random.rs`` ``mix``): every bit of
    ``x`` moves every bit of the result. Tables sample with it and the 14-ply book's file is
    laid out by it, so it must not change."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & _MASK
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class SplitMix64:
    """SplitMix64, the generator of ``random_positions`` (the compiled core's
    ``engine/random.rs``, written out): row ``i`` of a batch has its own stream."""

    MASK = (1 << 64) - 1

    def __init__(self, state: int) -> None:
        self.state = state & self.MASK

    @classmethod
    def for_row(cls, seed: int, row: int) -> SplitMix64:
        first = cls(seed ^ (row * 0xD1B54A32D192ED03 & cls.MASK))
        return cls(first.next())

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        return mix(self.state)

    def below(self, n: int) -> int:
        return self.next() % n
