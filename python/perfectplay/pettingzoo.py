"""A perfect (or graded) player for PettingZoo's classic games that perfectplay plays:
``tictactoe_v3`` and ``connect_four_v3`` (``pip install 'perfectplay[pettingzoo]'``).

>>> import pettingzoo
>>> from perfectplay.pettingzoo import PerfectPolicy
>>> env = pettingzoo.make("aec", "classic/tictactoe-v3")
>>> env.reset(seed=1)
>>> policy = PerfectPolicy(seed=1)
>>> for agent in env.agent_iter():  # perfect against perfect: always a draw
...     env.step(policy(env.last()))

PettingZoo's observations are ``(rows, cols, 2)`` planes: plane 0 the stones of the player
observing, plane 1 the opponent's. ``tictactoe_v3`` indexes its planes ``[col, row]`` and
numbers its actions column by column (0 3 6 / 1 4 7 / 2 5 8); ``connect_four_v3`` indexes
``[row, col]``, row 0 on top, and its actions are the columns, as perfectplay's are. Which
game an observation belongs to follows from its shape (or ``game=``), and which stones are the
first player's from the counts: the player to move has as many stones as the opponent (the
first player) or one fewer. A final observation is read from the player who moved last when
the counts or the winning line say so; a full drawn board with equal counts is read as seen by
the first player (the observation itself cannot tell).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perfectplay._kernel.game import Game, PettingZooGame
from perfectplay._kernel.position import BasePosition
from perfectplay._registry import GAMES
from perfectplay.agents import PerfectAgent
from perfectplay.errors import IllegalPosition

__all__ = ["PerfectPolicy", "action_of_move", "move_of_action", "position_from_observation"]


class _Environment:
    """One PettingZoo game: its registry entry, its start position and its planes' shape."""

    def __init__(self, game: Game, form: PettingZooGame) -> None:
        self.game, self.form = game, form
        self.start: BasePosition[Any] = game.start(**form.options)
        rows, cols = self.start.rows, self.start.cols
        self.shape = (cols, rows, 2) if form.column_major else (rows, cols, 2)

    def action_of(self, action: int) -> int:
        """perfectplay's action of one of the environment's actions."""
        if not self.form.column_major:
            return action
        col, row = divmod(action, self.start.rows)
        return row * self.start.cols + col

    def environment_action(self, action: int) -> int:
        """The environment's action of one of perfectplay's."""
        if not self.form.column_major:
            return action
        row, col = divmod(action, self.start.cols)
        return col * self.start.rows + row


_ENVIRONMENTS = {
    entry.pettingzoo.env: _Environment(entry, entry.pettingzoo)
    for entry in GAMES.values()
    if entry.pettingzoo is not None
}


def _environment(game: str | None, shape: tuple[int, ...] | None = None) -> _Environment:
    """The environment named ``game`` (PettingZoo's name or perfectplay's), else the one whose
    observations have ``shape``."""
    if game is not None:
        for name, environment in _ENVIRONMENTS.items():
            if game in (name, environment.game.name):
                return environment
        raise ValueError(f"perfectplay plays PettingZoo's {', '.join(_ENVIRONMENTS)}, not {game!r}")
    for environment in _ENVIRONMENTS.values():
        if environment.shape == shape:
            return environment
    expected = " or ".join(
        f"a {name} observation of shape {env.shape}" for name, env in _ENVIRONMENTS.items()
    )
    raise ValueError(f"expected {expected} (own and opponent planes), got shape {shape}")


def move_of_action(action: int, game: str = "tictactoe_v3") -> int:
    """perfectplay's action (tic-tac-toe: the row-major cell ``3 * row + col``) of a PettingZoo
    action of ``game``."""
    environment = _environment(game)
    if not 0 <= int(action) < environment.start.action_count:
        raise ValueError(f"action {action} is off the board of {game}")
    return environment.action_of(int(action))


def action_of_move(move: int, game: str = "tictactoe_v3") -> int:
    """PettingZoo's action of perfectplay's action ``move`` (for tic-tac-toe the mapping is its
    own inverse)."""
    environment = _environment(game)
    if not 0 <= int(move) < environment.start.action_count:
        raise ValueError(f"action {move} is off the board of {game}")
    return environment.environment_action(int(move))


def _planes(observation: Any, game: str | None) -> tuple[_Environment, np.ndarray]:
    """The observation's planes, checked, indexed ``[row, col]``, and its environment."""
    if isinstance(observation, dict):
        if "observation" not in observation:
            raise ValueError("a PettingZoo observation dict has an 'observation' entry")
        observation = observation["observation"]
    array = observation if isinstance(observation, np.ndarray) else np.asarray(observation)
    environment = _environment(game, array.shape)
    name = environment.form.env
    if array.shape != environment.shape:
        raise ValueError(
            f"expected a {name} observation of shape {environment.shape} (own and opponent "
            f"planes), got shape {array.shape}"
        )
    if array.dtype.kind not in "iub":
        raise ValueError(
            f"expected a {name} observation of integer or bool dtype, got {array.dtype}"
        )
    if ((array != 0) & (array != 1)).any():
        raise ValueError(f"a {name} observation holds only 0 and 1")
    if (array[:, :, 0] & array[:, :, 1]).any():
        raise ValueError(f"a {name} observation marks a cell for both players")
    planes = array.astype(np.uint8)
    return environment, planes.transpose(1, 0, 2) if environment.form.column_major else planes


def position_from_observation(observation: Any, game: str | None = None) -> Any:
    """The ``Position`` of a PettingZoo observation (the dict from ``env.observe`` or
    ``env.last()``, or its array), seen from the player whose observation it is; ``game`` names
    the environment when the shape should not decide. A wrong shape or dtype is a
    ``ValueError`` naming the expected shape; a board no game reaches is
    ``perfectplay.IllegalPosition``."""
    return _read(observation, game)[1]


def _read(observation: Any, game: str | None) -> tuple[_Environment, Any]:
    environment, planes = _planes(observation, game)
    mine, theirs = planes[:, :, 0], planes[:, :, 1]
    own, other = int(mine.sum()), int(theirs.sum())
    if own == other:
        readings = [(mine, theirs), (theirs, mine)]  # the observer to move, or just moved
    elif other == own + 1:
        readings = [(theirs, mine)]
    elif own == other + 1:
        readings = [(mine, theirs)]  # the first player's final observation
    else:
        raise IllegalPosition(
            f"the player observing has {own} marks and the opponent {other}: the player to "
            "move has as many marks as the opponent or one fewer"
        )
    error: IllegalPosition | None = None
    for first, second in readings:
        try:
            return environment, environment.start.with_board(first + 2 * second)
        except IllegalPosition as exc:
            error = error or exc
    assert error is not None
    raise error


class PerfectPolicy:
    """``(observation) -> action`` for ``tictactoe_v3`` and ``connect_four_v3``: give it what
    ``env.last()`` returns (the whole tuple, or its observation dict). With probability
    ``skill`` a best move drawn uniformly among the best, otherwise a random legal move;
    ``None`` once the agent is done (terminated or truncated, or the board is final), as
    ``env.step`` then wants. ``game`` fixes the environment (else each observation's shape
    says); ``solve_options`` (``node_limit``, ``table_mb``) pass on to the solver. A 7x6
    Connect Four opening takes the solver minutes; later moves milliseconds."""

    def __init__(
        self, skill: float = 1.0, seed: Any = None, game: str | None = None, **solve_options: Any
    ) -> None:
        self.agent = PerfectAgent(skill, seed, **solve_options)
        self.game = None if game is None else _environment(game).form.env

    def __call__(self, observation: Any) -> int | None:
        if isinstance(observation, tuple) and len(observation) == 5:
            observation, _reward, terminated, truncated, _info = observation
            if terminated or truncated:
                return None
        environment, position = _read(observation, self.game)
        if position.is_over:
            return None
        return environment.environment_action(position.action(self.agent.move(position)))

    def __repr__(self) -> str:
        return f"PerfectPolicy(skill={self.agent.skill})"
