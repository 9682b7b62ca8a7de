"""A perfect (or graded) player for PettingZoo's ``tictactoe_v3`` (``pip install
'perfectplay[pettingzoo]'``).

>>> import pettingzoo
>>> from perfectplay.pettingzoo import PerfectPolicy
>>> env = pettingzoo.make("aec", "classic/tictactoe-v3")
>>> env.reset(seed=1)
>>> policy = PerfectPolicy(seed=1)
>>> for agent in env.agent_iter():  # perfect against perfect: always a draw
...     env.step(policy(env.last()))

PettingZoo's observation is ``(3, 3, 2)``: plane 0 the marks of the player to move, plane 1 the
opponent's, indexed ``[action // 3, action % 3]``, and its actions number the cells column by
column (0 3 6 / 1 4 7 / 2 5 8). Whether the player to move is X (``player_1``) or O follows from
the counts: X has moved as often as O when X is to move.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perfectplay import tictactoe
from perfectplay.agents import PerfectAgent
from perfectplay.errors import IllegalPosition

__all__ = ["PerfectPolicy", "action_of_move", "move_of_action", "position_from_observation"]

_SHAPE = (3, 3, 2)


def move_of_action(action: int) -> int:
    """perfectplay's cell (row-major, ``3 * row + col``) of a PettingZoo action (column-major)."""
    column, row = divmod(int(action), 3)
    return 3 * row + column


def action_of_move(cell: int) -> int:
    """PettingZoo's action of a perfectplay cell; the mapping is its own inverse."""
    return move_of_action(cell)


def _squares(observation: Any) -> list[list[int]]:
    """The observation's 9 squares as [mine, theirs] pairs, checked (square ``3a + b`` is
    ``observation[a, b]``). Read as one list: numpy calls on 18 values cost more than the
    solve."""
    if isinstance(observation, dict):
        if "observation" not in observation:
            raise ValueError(
                "a tictactoe_v3 observation dict has an 'observation' entry of shape (3, 3, 2)"
            )
        observation = observation["observation"]
    array = observation if isinstance(observation, np.ndarray) else np.asarray(observation)
    if array.shape != _SHAPE:
        raise ValueError(
            f"expected a tictactoe_v3 observation of shape (3, 3, 2) (own and opponent planes), "
            f"got shape {array.shape}"
        )
    if array.dtype.kind not in "iub":
        raise ValueError(
            f"expected a tictactoe_v3 observation of integer or bool dtype, got {array.dtype}"
        )
    squares: list[list[int]] = array.reshape(9, 2).tolist()
    for mine, theirs in squares:
        if mine not in (0, 1) or theirs not in (0, 1):
            raise ValueError("a tictactoe_v3 observation holds only 0 and 1")
        if mine and theirs:
            raise ValueError("a tictactoe_v3 observation marks a cell for both players")
    return squares


# PettingZoo's square 3a + b is the cell at row b, column a: perfectplay's bit 3b + a.
_BIT_OF_SQUARE = [1 << move_of_action(square) for square in range(9)]


def position_from_observation(observation: Any) -> tictactoe.Position:
    """The ``tictactoe.Position`` of a ``tictactoe_v3`` observation (the dict from
    ``env.observe`` or ``env.last()``, or its ``(3, 3, 2)`` array), seen from the player whose
    observation it is. A wrong shape or dtype is a ``ValueError`` naming the expected shape;
    counts that no game gives are ``perfectplay.IllegalPosition``."""
    mine = theirs = 0
    for bit, (own, other) in zip(_BIT_OF_SQUARE, _squares(observation), strict=True):
        if own:
            mine |= bit
        elif other:
            theirs |= bit
    if mine.bit_count() == theirs.bit_count():
        return tictactoe.Position.from_masks(mine, theirs)
    if theirs.bit_count() == mine.bit_count() + 1:
        return tictactoe.Position.from_masks(theirs, mine)
    raise IllegalPosition(
        f"the player observing has {mine.bit_count()} marks and the opponent "
        f"{theirs.bit_count()}: the player to move has as many marks as the opponent or one fewer"
    )


class PerfectPolicy:
    """``(observation) -> action`` for ``tictactoe_v3``: give it what ``env.last()`` returns
    (the whole tuple, or its observation dict). With probability ``skill`` a best move drawn
    uniformly among the best, otherwise a random legal move; ``None`` once the agent is done
    (terminated or truncated, or the board is final), as ``env.step`` then wants."""

    def __init__(self, skill: float = 1.0, seed: Any = None) -> None:
        self.agent = PerfectAgent(skill, seed)

    def __call__(self, observation: Any) -> int | None:
        if isinstance(observation, tuple) and len(observation) == 5:
            observation, _reward, terminated, truncated, _info = observation
            if terminated or truncated:
                return None
        position = position_from_observation(observation)
        if position.is_over:
            return None
        return action_of_move(self.agent.move(position))

    def __repr__(self) -> str:
        return f"PerfectPolicy(skill={self.agent.skill})"
