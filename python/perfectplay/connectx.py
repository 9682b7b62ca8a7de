"""Kaggle's ConnectX: ``connectx_agent``, a perfect agent in ConnectX's own calling convention
(``agent(observation, configuration) -> column``), for any board perfectplay's Connect Four
takes.

>>> from perfectplay.connectx import connectx_agent
>>> connectx_agent({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
3
"""

from __future__ import annotations

import math
import numbers
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from perfectplay import connect4
from perfectplay.connect4 import openings, rules
from perfectplay.errors import SearchLimitExceeded

__all__ = ["CONNECTX_TIME_SHARE", "connectx_agent", "position_from_observation"]

#: The share of ``actTimeout`` a move may take. The search runs under node budgets that grow
#: fourfold while the measured speed says the next one ends within it, so a loaded or slow
#: machine gets a smaller search, not a late move.
CONNECTX_TIME_SHARE = 0.4
#: The first budget: a few milliseconds of search, enough for most positions of 7x6 past the
#: books, and a measure of this machine's speed for the next.
_FIRST_NODES = 50_000
_GROWTH = 4
_MISSING = object()


def _connectx_field(thing: Any, name: str, what: str, default: Any = _MISSING) -> Any:
    """``thing.name`` or ``thing[name]``: Kaggle passes objects that allow both, tests dicts."""
    value = (
        thing.get(name, default) if isinstance(thing, Mapping) else getattr(thing, name, default)
    )
    if value is _MISSING:
        raise ValueError(f"the ConnectX {what} has no {name!r}")
    return value


def _whole(value: Any, name: str) -> int:
    """``value`` as an int: an int, or a float with no fraction (JSON may give ``6.0``); a
    ``TypeError`` or ``ValueError`` naming ``name`` for anything else (0.5, NaN, infinity,
    None, a str), never a truncation."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, numbers.Real)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    if not math.isfinite(number) or not number.is_integer():
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return int(number)


def _seconds(value: Any) -> float:
    """``actTimeout``: a finite, positive number of seconds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"configuration.actTimeout must be a number, not {type(value).__name__}")
    seconds = float(value)
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(
            f"configuration.actTimeout must be a finite, positive number, not {value!r}"
        )
    return seconds


def _cells(board: Any, count: int) -> list[int]:
    """The ``count`` cells of ``observation.board``, each 0, 1 or 2: a sized sequence (a
    list, a tuple, a numpy array), never read past ``count`` items."""
    if isinstance(board, (str, bytes, bytearray, Mapping)) or not (
        isinstance(board, Sequence) or (hasattr(board, "__len__") and hasattr(board, "__getitem__"))
    ):
        raise TypeError(
            f"observation.board must be a list of rows * columns cells, not {type(board).__name__}"
        )
    if len(board) != count:
        raise ValueError(f"the board has {len(board)} cells, not rows * columns = {count}")
    cells = []
    for index in range(count):
        cell = _whole(board[index], f"observation.board[{index}]")
        if cell not in (0, 1, 2):
            raise ValueError(f"observation.board[{index}] is {cell}, not 0, 1 or 2")
        cells.append(cell)
    return cells


def _connectx_fallback(position: connect4.Position) -> int:
    """A move when the search would need more than the time: a win at once, else a block of
    the opponent's win at once, else the legal column nearest the centre."""
    shape = rules.Shape(position.width, position.height)
    landing = shape.landing((position.current, position.mask, position.played))
    for stones in (position.current, position.current ^ position.mask):  # ours, theirs
        for col in position.legal_moves:
            if shape.has_four(stones | (landing & shape.column(col))):
                return col
    return min(position.legal_moves, key=lambda col: (abs(2 * col - (position.width - 1)), col))


_LOADING = threading.Lock()
_loader: threading.Thread | None = None


def _book(width: int, height: int) -> str | None:
    """The book a move reads: the packaged ones once loaded, else none (no search waits for
    them). The first 7x6 move starts loading them in a thread of their own, which takes 1 to 3
    s, more than a move's share of the clock; the moves meanwhile search without them, under
    the clock like any other."""
    global _loader
    if (width, height) != openings.PACKAGED_SIZE or openings.packaged.cache_info().currsize:
        return "packaged"
    with _LOADING:
        if _loader is None:
            _loader = threading.Thread(target=openings.packaged, name="books", daemon=True)
            _loader.start()
    return None


def _timed_best_move(position: connect4.Position, grid: list[list[int]], seconds: float) -> int:
    """A best move found within ``seconds`` (from now), else the fallback's."""
    start = time.perf_counter()
    deadline = start + seconds
    nodes = _FIRST_NODES
    book = _book(position.width, position.height)
    while True:
        began = time.perf_counter()
        try:
            best = connect4.best_move(
                grid, width=position.width, height=position.height, node_limit=nodes, book=book
            )
        except SearchLimitExceeded:
            pass
        else:
            assert best is not None  # the game goes on
            return int(best)
        now = time.perf_counter()
        # The next budget's time at the speed just seen (the books' first load included).
        if now + _GROWTH * (now - began) > deadline:
            return _connectx_fallback(position)
        nodes *= _GROWTH


def position_from_observation(observation: Any, configuration: Any) -> connect4.Position:
    """The Connect Four position of a ConnectX ``observation`` (``board``: ``rows * columns``
    cells row by row, top row first, 0 empty, 1 the first player, 2 the second; ``mark``: the
    player to move's, 1 or 2) under ``configuration`` (``rows``, ``columns``, ``inarow`` 4),
    checked as ``connectx_agent`` checks them.

    >>> here = position_from_observation(
    ...     {"board": [0] * 38 + [1, 0, 0, 0], "mark": 2}, {"rows": 6, "columns": 7}
    ... )
    >>> here.to_move, here.legal_moves
    ('o', (0, 1, 2, 3, 4, 5, 6))
    """
    return _read(observation, configuration)[0]


def _read(observation: Any, configuration: Any) -> tuple[connect4.Position, list[list[int]]]:
    rows = _whole(_connectx_field(configuration, "rows", "configuration"), "configuration.rows")
    columns = _whole(
        _connectx_field(configuration, "columns", "configuration"), "configuration.columns"
    )
    inarow = _whole(
        _connectx_field(configuration, "inarow", "configuration", 4), "configuration.inarow"
    )
    if inarow != 4:
        raise ValueError(f"perfectplay plays ConnectX with inarow=4 (Connect Four), not {inarow}")
    if not (rows > 0 and columns > 0):
        raise ValueError(f"the board must have rows and columns, not {rows}x{columns}")
    board = _cells(_connectx_field(observation, "board", "observation"), rows * columns)
    mark = _whole(_connectx_field(observation, "mark", "observation"), "observation.mark")
    grid = [board[row * columns : (row + 1) * columns] for row in range(rows)]
    position = connect4.Position(grid, width=columns, height=rows)
    if not position.is_over and mark != (1 if position.to_move == "x" else 2):
        raise ValueError(f"mark {mark} is not the player to move on this board")
    return position, grid


def connectx_agent(observation: Any, configuration: Any) -> int:
    """A perfect agent for Kaggle's ConnectX: ``agent(observation, configuration) -> column``.

    Kaggle's shapes: ``observation.board``, the ``rows * columns`` cells row by row, top row
    first (0 empty, 1 the first player, 2 the second), and ``observation.mark``, the agent's
    (1 or 2); ``configuration.rows``, ``.columns``, ``.inarow`` (4: perfectplay plays Connect
    Four) and ``.actTimeout`` (seconds a move, 2 by default). Dicts work as well as Kaggle's
    objects. Any board perfectplay takes (``columns * (rows + 1) <= 128``).

    The column is a best move (the quickest win, the slowest loss) from the books and the
    search, within ``CONNECTX_TIME_SHARE * actTimeout`` seconds: the search runs under node
    budgets that grow fourfold while this machine's measured speed says the next one ends in
    time. Where the time runs out first (boards larger than 7x6, a loaded machine, the first
    7x6 moves of a process, searched without the opening books while they load in a thread of
    their own), a win at once, else a block of the opponent's win at once, else the legal
    column nearest the centre. A board that is no ConnectX position, a game already over or
    another ``inarow`` is a ``ValueError``; a field of the wrong type (None, a str, a
    generator) a ``TypeError``; a number with a fraction, NaN or infinity where a whole number
    belongs a ``ValueError`` naming the field.

    >>> connectx_agent({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
    3
    """
    started = time.perf_counter()
    position, grid = _read(observation, configuration)
    if position.is_over:
        raise ValueError("the game is over: no move to make")
    seconds = _seconds(_connectx_field(configuration, "actTimeout", "configuration", 2))
    spent = time.perf_counter() - started
    return _timed_best_move(position, grid, CONNECTX_TIME_SHARE * seconds - spent)
