"""Arguments reduced to plain data, and the scalar arguments' rules: the twin of
``rust/py/convert.rs`` and ``rust/input/``.

The scalar options' rules are ``options.py``'s (the core's ``rust/input/options.rs``).

* Integers (``k``, ``rows``, ``cols``, ``node_limit``): an ``int`` or anything with
  ``__index__`` (numpy integers), never a bool.
* ``table_mb``: a real number (``numbers.Real``: ints, floats, fractions, numpy numbers), never
  a bool, more than 0 and at most ``MAX_TABLE_MB``.
* Boards: str, bool, int, sequences (any ``collections.abc.Sequence``; array-likes with
  ``tolist`` and ``shape``), objects with ``__index__``; anything else by its type name. A
  sequence of more than 128 items is never a board, row or location: it is kept as ``Long`` by
  its length alone, so a huge argument is rejected before its items are read.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

__all__ = [
    "MAX_TABLE_MB",
    "Item",
    "Long",
    "Other",
    "int_arg",
    "node_limit",
    "quoted",
    "table_mb",
]

MAX_CELLS = 64  # the cells of a board read as rows unless its game says otherwise
MAX_ITEMS = 128  # the items of a sequence read: Connect Four's largest boards and move lists
MAX_DEPTH = 2  # board, rows, cells: deeper sequences are never looked into
MAX_UNWRAPS = 4  # array-likes whose tolist() gives another array-like, at most
MAX_TABLE_MB = 4096  # the largest transposition table a search may be given, in MiB
QUOTED_CHARS = 40  # the characters of a text a message quotes whole; a longer one is cut


def quoted(text: str) -> str:
    """``text`` as an error message quotes it, by ``repr``: whole up to ``QUOTED_CHARS``
    characters, else its start and its length, so a message stays short however long the input
    (the core's ``input::quoted``, for move strings)."""
    if len(text) <= QUOTED_CHARS:
        return repr(text)
    return f"{text[:QUOTED_CHARS]!r}... ({len(text)} characters)"


@dataclass(frozen=True)
class Other:
    """An argument of a type parsing does not take, by its type name."""

    type_name: str


@dataclass(frozen=True)
class Long:
    """A sequence of more than 128 items, by its length: its items are not read."""

    length: int


Item = Union[str, bool, int, list["Item"], Long, Other]  # noqa: UP007 (a recursive alias)


def to_item(obj: Any) -> Item:
    """Reduces an argument to plain data. An exception raised by the argument's own methods
    becomes a ``TypeError`` naming it (``MemoryError`` and Ctrl-C pass through)."""
    try:
        return _item_at(obj, 0, 0)
    except MemoryError:
        raise
    except Exception as error:
        raise TypeError(
            f"the argument could not be read: {type(error).__name__}: {error}"
        ) from error


def _item_at(obj: Any, depth: int, unwraps: int) -> Item:
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, bool):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return Other(type(obj).__name__)
    if isinstance(obj, (list, tuple)):
        # The real size and items, as the core reads them: a subclass's __len__, __iter__ or
        # __getitem__ may say otherwise.
        base: Any = list if isinstance(obj, list) else tuple
        length = base.__len__(obj)
        if length > MAX_ITEMS:
            return Long(length)
        if depth >= MAX_DEPTH:
            return []
        return [_item_at(base.__getitem__(obj, index), depth + 1, 0) for index in range(length)]
    if isinstance(obj, Sequence):
        length = len(obj)
        if length > MAX_ITEMS:
            return Long(length)
        if depth >= MAX_DEPTH:
            return []
        items: list[Item] = []
        for item in obj:  # len() may lie: one item past the most any board has, never more
            if len(items) == MAX_ITEMS:
                return Long(MAX_ITEMS + 1)
            items.append(_item_at(item, depth + 1, 0))
        return items
    if hasattr(obj, "tolist") and hasattr(obj, "shape"):
        if unwraps >= MAX_UNWRAPS:
            return Other(type(obj).__name__)
        return _item_at(obj.tolist(), depth, unwraps + 1)
    if hasattr(obj, "__index__"):
        return _as_int(obj.__index__())
    return Other(type(obj).__name__)


def _as_int(value: Any) -> int:
    """``__index__`` must return an int; Python itself insists, so do we."""
    if not isinstance(value, int):
        raise TypeError(f"__index__ returned non-int (type {type(value).__name__})")
    return int(value)


def type_word(item: Item) -> str:
    if isinstance(item, Other):
        return item.type_name
    if isinstance(item, (list, Long)):
        return "sequence"
    return type(item).__name__


def sequence_len(item: Item) -> int | None:
    if isinstance(item, list):
        return len(item)
    if isinstance(item, Long):
        return item.length
    return None


def int_arg(value: Any, name: str) -> int:
    """An integer argument: an int or anything with ``__index__``, never a bool."""
    if isinstance(value, bool) or not (isinstance(value, int) or hasattr(type(value), "__index__")):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    try:
        return operator.index(value)
    except Exception as error:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from error


def node_limit(value: Any) -> int | None:
    """None or a positive integer; beyond 2^64 it is no limit at all."""
    if value is None:
        return None
    if isinstance(value, bool) or not (isinstance(value, int) or hasattr(type(value), "__index__")):
        raise TypeError(f"node_limit must be an int or None, not {type(value).__name__}")
    limit = int_arg(value, "node_limit")
    if limit < 1:
        raise ValueError(f"node_limit must be positive, got {limit}")
    return limit


def table_mb(value: Any) -> float | None:
    """None or a number of MiB in (0, MAX_TABLE_MB]; the twin keeps no table, but checks alike."""
    if value is None:
        return None
    wrong = TypeError(f"table_mb must be a number of MiB, not {type(value).__name__}")
    if isinstance(value, bool):
        raise wrong
    number: Any = value  # any numbers.Real: compared as it is, huge ints and fractions too
    if not isinstance(value, numbers.Real):
        if not hasattr(type(value), "__index__"):
            raise wrong
        try:
            number = operator.index(value)
        except Exception as error:
            raise wrong from error
    try:
        in_range = bool(0 < number <= MAX_TABLE_MB)
    except Exception as error:
        raise wrong from error
    if not in_range:  # NaN too
        raise ValueError(f"table_mb must be more than 0 and at most {MAX_TABLE_MB}, got {number}")
    return float(number)


def board_sides(rows: Any, cols: Any) -> tuple[int, int]:
    """``rows`` and ``cols`` of a board given by its size, checked as the compiled core
    checks them (it counts cells in 128 bits)."""
    sides = {"rows": int_arg(rows, "rows"), "cols": int_arg(cols, "cols")}
    for name, side in sides.items():
        if side < 1:
            raise ValueError(f"{name} must be at least 1, got {side}")
    cells = sides["rows"] * sides["cols"]
    if cells >= 2**127:
        raise ValueError(f"board has more than 2^127 cells; at most {MAX_CELLS} are supported")
    if cells > MAX_CELLS:
        raise ValueError(f"board has {cells} cells; at most {MAX_CELLS} are supported")
    return sides["rows"], sides["cols"]
