"""Kaggle's ConnectX: ``connectx_agent``, a perfect agent in ConnectX's own calling convention
(``agent(observation, configuration) -> column``), for any board perfectplay's Connect Four
takes.

>>> from perfectplay.connectx import connectx_agent
>>> connectx_agent({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay import connect4
from perfectplay.connect4 import rules
from perfectplay.errors import SearchLimitExceeded

__all__ = ["CONNECTX_NODES_PER_SECOND", "connectx_agent"]

#: Search nodes a ConnectX move may visit for each second of ``actTimeout`` (on each thread):
#: well under what one thread searches in a second here (about 20 million), so that a move
#: stays in time on a slower machine.
CONNECTX_NODES_PER_SECOND = 5_000_000
_MISSING = object()


def _connectx_field(thing: Any, name: str, what: str, default: Any = _MISSING) -> Any:
    """``thing.name`` or ``thing[name]``: Kaggle passes objects that allow both, tests dicts."""
    value = (
        thing.get(name, default) if isinstance(thing, Mapping) else getattr(thing, name, default)
    )
    if value is _MISSING:
        raise ValueError(f"the ConnectX {what} has no {name!r}")
    return value


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


def connectx_agent(observation: Any, configuration: Any) -> int:
    """A perfect agent for Kaggle's ConnectX: ``agent(observation, configuration) -> column``.

    Kaggle's shapes: ``observation.board``, the ``rows * columns`` cells row by row, top row
    first (0 empty, 1 the first player, 2 the second), and ``observation.mark``, the agent's
    (1 or 2); ``configuration.rows``, ``.columns``, ``.inarow`` (4: perfectplay plays Connect
    Four) and ``.actTimeout`` (seconds a move, 2 by default). Dicts work as well as Kaggle's
    objects. Any board perfectplay takes (``columns * (rows + 1) <= 64``).

    The column is a best move (the quickest win, the slowest loss) from the books and the
    search, which may visit ``CONNECTX_NODES_PER_SECOND * actTimeout`` nodes a thread; where it
    would need more (only boards larger than 7x6 come near that), a win at once, else a block
    of the opponent's win at once, else the legal column nearest the centre. A board that is
    no ConnectX position, a game already over or another ``inarow`` is a ``ValueError``.

    >>> connectx_agent({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
    3
    """
    rows = int(_connectx_field(configuration, "rows", "configuration"))
    columns = int(_connectx_field(configuration, "columns", "configuration"))
    inarow = int(_connectx_field(configuration, "inarow", "configuration", 4))
    seconds = float(_connectx_field(configuration, "actTimeout", "configuration", 2))
    if inarow != 4:
        raise ValueError(f"perfectplay plays ConnectX with inarow=4 (Connect Four), not {inarow}")
    board = [int(cell) for cell in _connectx_field(observation, "board", "observation")]
    mark = int(_connectx_field(observation, "mark", "observation"))
    if len(board) != rows * columns:
        raise ValueError(f"the board has {len(board)} cells, not rows * columns = {rows * columns}")
    grid = [board[row * columns : (row + 1) * columns] for row in range(rows)]
    position = connect4.Position(grid, width=columns, height=rows)
    if position.is_over:
        raise ValueError("the game is over: no move to make")
    if mark != (1 if position.to_move == "x" else 2):
        raise ValueError(f"mark {mark} is not the player to move on this board")
    node_limit = max(1, int(CONNECTX_NODES_PER_SECOND * seconds))
    try:
        best = connect4.best_move(grid, width=columns, height=rows, node_limit=node_limit)
    except SearchLimitExceeded:
        return _connectx_fallback(position)
    assert best is not None  # the game goes on
    return int(best)
