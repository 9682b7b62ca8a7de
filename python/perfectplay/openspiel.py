"""A perfect (or graded) ``pyspiel.Bot`` for OpenSpiel's ``tic_tac_toe`` and ``mnk``
(``pip install 'perfectplay[openspiel]'``).

>>> import pyspiel
>>> from perfectplay.openspiel import PerfectBot
>>> game = pyspiel.load_game("mnk", {"m": 4, "n": 4, "k": 3})
>>> bots = [PerfectBot(game, 0, seed=1), PerfectBot(game, 1, seed=2)]
>>> returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
>>> list(returns)
[1.0, -1.0]

OpenSpiel numbers both games' cells row-major, action ``row * cols + col``, as perfectplay's
flat actions do; in ``mnk`` its parameter ``m`` is the number of columns and ``n`` the number of
rows. Player 0 is X.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from perfectplay import mnk, tictactoe
from perfectplay._position import BasePosition
from perfectplay.agents import PerfectAgent

__all__ = ["PerfectBot", "position_from_state"]


def _shape(game: Any) -> tuple[str, int, int, int]:
    name = game.get_type().short_name
    if name == "tic_tac_toe":
        return name, 3, 3, 3
    if name == "mnk":
        parameters = game.get_parameters()
        return name, int(parameters["n"]), int(parameters["m"]), int(parameters["k"])
    raise ValueError(f"perfectplay plays OpenSpiel's tic_tac_toe and mnk, not {name!r}")


def position_from_state(state: Any) -> tictactoe.Position | mnk.Position:
    """The perfectplay position of an OpenSpiel ``tic_tac_toe`` or ``mnk`` state, from the
    moves played to reach it (player 0 is X)."""
    if not isinstance(state, pyspiel.State):
        raise TypeError(f"expected a pyspiel.State, not {type(state).__name__}")
    name, rows, cols, k = _shape(state.get_game())
    x = o = 0
    for ply, action in enumerate(state.history()):
        if ply % 2 == 0:
            x |= 1 << action
        else:
            o |= 1 << action
    if name == "tic_tac_toe":
        return tictactoe.Position.from_masks(x, o)
    return mnk.Position.from_masks(rows, cols, k, x, o)


class PerfectBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """A ``pyspiel.Bot`` that plays, with probability ``skill``, a best move drawn uniformly
    among the best, otherwise a random legal move. ``step_with_policy`` gives that mixture as
    ``[(action, probability)]``. ``solve_options`` (``node_limit``, ``table_mb``) pass on."""

    def __init__(
        self, game: Any, player_id: int, skill: float = 1.0, seed: Any = None, **solve_options: Any
    ) -> None:
        pyspiel.Bot.__init__(self)
        _shape(game)
        if player_id not in (0, 1):
            raise ValueError(f"player_id must be 0 or 1, got {player_id!r}")
        self._player_id = player_id
        self.agent = PerfectAgent(skill, seed, **solve_options)

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return True

    def _position(self, state: Any) -> BasePosition[Any]:
        if state.current_player() != self._player_id:
            raise ValueError(
                f"it is player {state.current_player()}'s turn, and this bot plays "
                f"player {self._player_id}"
            )
        return position_from_state(state)

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        position = self._position(state)
        policy = [(position.action(move), p) for move, p in self.agent.policy(position).items()]
        return policy, position.action(self.agent.move(position))

    def step(self, state: Any) -> int:
        position = self._position(state)
        return position.action(self.agent.move(position))

    def __repr__(self) -> str:
        return f"PerfectBot(player_id={self._player_id}, skill={self.agent.skill})"
