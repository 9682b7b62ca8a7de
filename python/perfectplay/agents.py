"""Players for any game's ``Position``: a perfect one with a skill knob, and a random one.
(``connectx_agent``, Kaggle's ConnectX agent, lives in ``perfectplay.connectx``; it is still
found here under its old name.)

>>> from perfectplay import tictactoe
>>> from perfectplay.agents import PerfectAgent
>>> agent = PerfectAgent(seed=7)
>>> agent.move(tictactoe.Position("xx./oo./..."))
2

``PerfectAgent(skill)`` plays, at each turn, with probability ``skill`` a best move (drawn
uniformly among ``position.best_moves()``, so perfect play is varied, not one fixed game) and
otherwise a uniformly random legal move. ``skill=1.0`` never turns a won or drawn position
into a worse one, and never wins more slowly or loses faster than it must.

``GradedAgent(level)``, levels 1 to 10, errs as a weaker player does: level 10 plays only best
moves; below it, a move is drawn with probability proportional to ``exp(u / T)``, where ``u``
is the move's exact worth for the player (``1 + 0.5 * (1 - plies / cells)`` for a win, the
quicker the more; 0 for a draw; ``-1 - 0.5 * (1 - plies / cells)`` for a loss, the sooner the
worse; ``cells`` the board's) and ``T`` the level's temperature for the game,
``Position.LEVEL_TEMPERATURES[level - 1]`` of the game's ``Position``. Its mistakes are the
plausible ones: a drawing move before a losing one, a slow win before a draw. Each game's
temperatures are calibrated on one board (``python benches/ladder.py --calibrate GAME``) so
that the levels' ratings against perfect play are evenly spaced from random play's to perfect
play's; ``DEFAULT_TEMPERATURES`` (2.0 down to 0.2) is the schedule of a game that sets none,
and Connect Four's. ``benches/ladder.py`` rates the levels against each other (the docs'
review guide has the table per game).

>>> from perfectplay.agents import GradedAgent
>>> GradedAgent(10, seed=1).move(tictactoe.Position("xx./oo./..."))
2
"""

from __future__ import annotations

import math
import numbers
import random
from typing import Any, TypeVar

from perfectplay._kernel.position import BasePosition
from perfectplay._registry import GAMES

__all__ = ["DEFAULT_TEMPERATURES", "GradedAgent", "PerfectAgent", "RandomAgent", "softmax_policy"]

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


#: The softmax temperature of levels 1 to 9 (level 10 plays only best moves) of a game whose
#: ``Position`` sets no ``LEVEL_TEMPERATURES`` of its own: 2.0 down to 0.2, geometric.
DEFAULT_TEMPERATURES = tuple(2.0 * 0.1 ** ((level - 1) / 8) for level in range(1, 10))


class GradedAgent:
    """A player of a chosen strength, ``level`` 1 (weakest) to 10 (perfect): a softmax over
    the exact worth of every legal move (see the module). ``seed`` an int, a
    ``random.Random`` or None; ``options`` (``node_limit``...) pass on to the searches."""

    def __init__(self, level: int, seed: Any = None, **options: Any) -> None:
        given: object = level  # mypy does not count int as a numbers.Integral
        if isinstance(given, bool) or not isinstance(given, numbers.Integral):
            raise TypeError(f"level must be an int from 1 to 10, not {type(given).__name__}")
        if not 1 <= int(given) <= 10:
            raise ValueError(f"level must be from 1 to 10, got {level}")
        self.level = int(given)
        self.options = options
        self._random = _rng(seed)

    def policy(self, position: BasePosition[Move]) -> dict[Move, float]:
        """The probability of each legal move."""
        _legal(position)
        if self.level == 10:
            best = position.best_moves(**self.options)
            return {
                move: (1.0 / len(best) if move in best else 0.0) for move in position.legal_moves
            }
        temperatures = type(position).LEVEL_TEMPERATURES or DEFAULT_TEMPERATURES
        return softmax_policy(position, temperatures[self.level - 1], **self.options)

    def move(self, position: BasePosition[Move]) -> Move:
        policy = self.policy(position)
        moves = list(policy)
        chosen: Move = self._random.choices(moves, weights=[policy[m] for m in moves])[0]
        return chosen

    def __repr__(self) -> str:
        return f"GradedAgent(level={self.level})"


def softmax_policy(
    position: BasePosition[Move], temperature: float, **options: Any
) -> dict[Move, float]:
    """Each legal move's probability under a softmax of its exact worth at ``temperature``
    (see the module): what ``GradedAgent`` plays below level 10, and what the ladder's
    calibration measures at any temperature. ``options`` pass on to ``ranked_moves``."""
    if not temperature > 0:
        raise ValueError(f"temperature must be above 0, got {temperature!r}")
    _legal(position)
    ranked = position.ranked_moves(**options)
    cells = position.rows * position.cols
    worth = [_worth(value, plies, cells) for _, value, plies in ranked]
    top = max(worth)
    weights = [math.exp((w - top) / temperature) for w in worth]
    total = sum(weights)
    return {move: weight / total for (move, _, _), weight in zip(ranked, weights, strict=True)}


def _worth(value: int, plies: int, cells: int) -> float:
    """A move's worth for its player: a win above 1 (the quicker the more), a draw 0, a loss
    below -1 (the sooner the worse)."""
    if value == 0:
        return 0.0
    return value * (1.0 + 0.5 * (1.0 - plies / cells))


def __getattr__(name: str) -> Any:
    # ConnectX's agent under its first address (``perfectplay.agents.connectx_agent``), as
    # Kaggle submissions import it.
    if name in ("connectx_agent", "CONNECTX_TIME_SHARE"):
        from perfectplay import connectx

        return getattr(connectx, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
