"""Players for any game's ``Position``: a perfect one with a skill knob, and a random one; and
``connectx_agent``, a perfect agent for Kaggle's ConnectX in its own calling convention.

>>> from perfectplay import tictactoe
>>> from perfectplay.agents import PerfectAgent
>>> agent = PerfectAgent(seed=7)
>>> agent.move(tictactoe.Position("xx./oo./..."))
2

``PerfectAgent(skill)`` plays, at each turn, with probability ``skill`` a best move (drawn
uniformly among ``position.best_moves()``, so perfect play is varied, not one fixed game) and
otherwise a uniformly random legal move. ``skill=1.0`` never turns a won or drawn position
into a worse one, and never wins more slowly or loses faster than it must.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Mapping
from typing import Any, TypeVar

from perfectplay import connect4
from perfectplay._kernel.position import BasePosition
from perfectplay._registry import GAMES
from perfectplay.connect4 import rules
from perfectplay.errors import SearchLimitExceeded

__all__ = ["CONNECTX_NODES_PER_SECOND", "PerfectAgent", "RandomAgent", "connectx_agent"]

Move = TypeVar("Move")


def _rng(seed: Any) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and (isinstance(seed, bool) or not hasattr(seed, "__index__")):
        raise TypeError(f"seed must be an int, a random.Random or None, not {type(seed).__name__}")
    return random.Random(None if seed is None else int(seed.__index__()))


def _legal(position: BasePosition[Move]) -> tuple[Move, ...]:
    if not isinstance(position, BasePosition):
        raise TypeError(
            f"an agent plays a perfectplay Position, not {type(position).__name__} "
            f"({', '.join(f'{name}.Position' for name in GAMES)})"
        )
    moves = position.legal_moves
    if not moves:
        raise ValueError(f"the game is over, there is no move to choose: {position!r}")
    return moves


class RandomAgent:
    """Plays a uniformly random legal move (``seed``: an int, a ``random.Random`` or None)."""

    def __init__(self, seed: Any = None) -> None:
        self._random = _rng(seed)

    def move(self, position: BasePosition[Move]) -> Move:
        return self._random.choice(_legal(position))

    def __repr__(self) -> str:
        return "RandomAgent()"


class PerfectAgent:
    """With probability ``skill`` a best move drawn uniformly among the best moves, otherwise a
    uniformly random legal move. ``skill`` is a number in [0, 1]; ``seed`` an int, a
    ``random.Random`` or None; ``solve_options`` (``node_limit``, ``table_mb``) pass on to the
    position's ``solve``."""

    def __init__(self, skill: float = 1.0, seed: Any = None, **solve_options: Any) -> None:
        # A number (numpy's included), never a bool or a string that happens to parse.
        given: object = skill  # mypy does not count float as a numbers.Real
        if isinstance(given, bool) or not isinstance(given, numbers.Real):
            raise TypeError(f"skill must be a number, not {type(given).__name__}")
        if not 0.0 <= float(given) <= 1.0:
            raise ValueError(f"skill must be between 0 and 1, got {skill}")
        self.skill = float(given)
        self.solve_options = solve_options
        self._random = _rng(seed)

    def move(self, position: BasePosition[Move]) -> Move:
        legal = _legal(position)
        if self._random.random() < self.skill:
            return self._random.choice(position.best_moves(**self.solve_options))
        return self._random.choice(legal)

    def policy(self, position: BasePosition[Move]) -> dict[Move, float]:
        """The probability of each legal move: ``skill`` spread over the best moves, the rest
        over every legal move."""
        legal = _legal(position)
        best = position.best_moves(**self.solve_options)
        return {
            move: (1.0 - self.skill) / len(legal) + (self.skill / len(best) if move in best else 0)
            for move in legal
        }

    def __repr__(self) -> str:
        return f"PerfectAgent(skill={self.skill})"


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
