"""A perfect (or graded) ``pyspiel.Bot`` for OpenSpiel's games that perfectplay plays:
``tic_tac_toe``, ``mnk`` and ``connect_four`` (``pip install 'perfectplay[openspiel]'``).

>>> import pyspiel
>>> from perfectplay.openspiel import PerfectBot
>>> game = pyspiel.load_game("mnk", {"m": 4, "n": 4, "k": 3})
>>> bots = [PerfectBot(game, 0, seed=1), PerfectBot(game, 1, seed=2)]
>>> returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
>>> list(returns)
[1.0, -1.0]

OpenSpiel's actions are perfectplay's: cells row-major (``row * cols + col``) in
``tic_tac_toe`` and ``mnk``, columns in ``connect_four``. In ``mnk`` its parameter ``m`` is the
number of columns and ``n`` the number of rows; ``connect_four``'s ``rows`` and ``columns`` are
its height and width (``x_in_row`` must be 4). Player 0 moves first. ``GradedBot(game,
player_id, level)`` plays at ``perfectplay.agents.GradedAgent``'s levels 1 to 10 (10 perfect).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from perfectplay.errors import missing_extra

try:
    import pyspiel
except ImportError as error:
    raise missing_extra(error, "openspiel") from error

from perfectplay._kernel.game import Game
from perfectplay._kernel.position import BasePosition
from perfectplay._registry import GAMES
from perfectplay.agents import GradedAgent, PerfectAgent

__all__ = ["GradedBot", "PerfectBot", "kaggle_agent", "position_from_state"]

_GAMES = {entry.openspiel.name: entry for entry in GAMES.values() if entry.openspiel is not None}


def _start(game: Any) -> BasePosition[Any]:
    """Where a game of OpenSpiel's ``game`` starts, as a perfectplay position."""
    name = game.get_type().short_name
    entry: Game | None = _GAMES.get(name)
    if entry is None or entry.openspiel is None:
        raise ValueError(f"perfectplay plays OpenSpiel's {', '.join(_GAMES)}, not {name!r}")
    # A game loaded without parameters lists none: its defaults are in its type.
    parameters = {**game.get_type().parameter_specification, **game.get_parameters()}
    start: BasePosition[Any] = entry.start(**entry.openspiel.options(parameters))
    return start


def position_from_state(state: Any) -> BasePosition[Any]:
    """The perfectplay position of an OpenSpiel state of a game perfectplay plays, from the
    moves played to reach it (player 0 moves first). A proxy state (kaggle-environments'
    ``connect_four_proxy``, ``tic_tac_toe_proxy``) is read through the state it wraps."""
    if not isinstance(state, pyspiel.State):
        raise TypeError(f"expected a pyspiel.State, not {type(state).__name__}")
    for _ in range(8):  # a proxy of a proxy, but never an endless chain
        wrapped = state.__dict__.get("__wrapped__") if hasattr(state, "__dict__") else None
        if not isinstance(wrapped, pyspiel.State):
            break
        state = wrapped
    position = _start(state.get_game())
    for action in state.history():
        position = position.play(position.move(action))
    return position


class PerfectBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """A ``pyspiel.Bot`` that plays, with probability ``skill``, a best move drawn uniformly
    among the best, otherwise a random legal move. ``step_with_policy`` gives that mixture as
    ``[(action, probability)]``. ``solve_options`` (``node_limit``, ``table_mb``) pass on."""

    def __init__(
        self, game: Any, player_id: int, skill: float = 1.0, seed: Any = None, **solve_options: Any
    ) -> None:
        pyspiel.Bot.__init__(self)
        _start(game)
        if player_id not in (0, 1):
            raise ValueError(f"player_id must be 0 or 1, got {player_id!r}")
        self._player_id = player_id
        self.agent: PerfectAgent | GradedAgent = PerfectAgent(skill, seed, **solve_options)
        self._strength = f"skill={self.agent.skill}"

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return True

    def _position(self, state: Any) -> BasePosition[Any]:
        if state.is_terminal():
            raise ValueError("the game is over: there is no move to make")
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
        return f"{type(self).__name__}(player_id={self._player_id}, {self._strength})"


class GradedBot(PerfectBot):
    """A ``pyspiel.Bot`` at ``level`` 1 to 10: ``perfectplay.agents.GradedAgent``'s softmax
    over the exact move values (10: only best moves). ``step_with_policy`` gives its
    probabilities; ``options`` (``node_limit``...) pass on to the searches."""

    def __init__(
        self, game: Any, player_id: int, level: int, seed: Any = None, **options: Any
    ) -> None:
        super().__init__(game, player_id)
        self.agent = GradedAgent(level, seed, **options)
        self._strength = f"level={self.agent.level}"


def kaggle_agent(
    level: int = 10, seed: Any = None, **options: Any
) -> Callable[[Any, Any], dict[str, int]]:
    """An agent for kaggle-environments' OpenSpiel environments (``open_spiel_connect_four``,
    ``open_spiel_tic_tac_toe``; Kaggle Game Arena's harness) at ``GradedAgent``'s ``level``
    (10: perfect): ``agent(observation, configuration) -> {"submission": action}``, the state
    read from ``observation["serializedGameAndState"]``. A call with no state to read (the
    episode's first, set-up call, whose action is not applied) or a finished game submits -1.
    ``options`` (``node_limit``...) pass on to the searches."""
    player = GradedAgent(level, seed, **options)

    def agent(observation: Any, configuration: Any) -> dict[str, int]:
        if isinstance(observation, Mapping):
            serialized = observation.get("serializedGameAndState")
        else:
            serialized = getattr(observation, "serializedGameAndState", None)
        if serialized is None:
            return {"submission": -1}
        if not isinstance(serialized, str):
            raise TypeError(
                f"serializedGameAndState must be a str, not {type(serialized).__name__}"
            )
        _, state = pyspiel.deserialize_game_and_state(serialized)
        if state.is_terminal():
            return {"submission": -1}
        here = position_from_state(state)
        return {"submission": here.action(player.move(here))}

    return agent
