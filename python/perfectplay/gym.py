"""Gymnasium environments: play any registered game that has one (tic-tac-toe, m,n,k,
Connect Four) against a perfect or graded opponent (``pip install 'perfectplay[gym]'``).

>>> import gymnasium
>>> import perfectplay.gym  # registers perfectplay/TicTacToe-v0, MNK-v0 and ConnectFour-v0
>>> env = gymnasium.make("perfectplay/MNK-v0", rows=4, cols=4, k=3, play_as="x", skill=1.0)
>>> observation, info = env.reset(seed=0)
>>> observation.shape, int(info["action_mask"].sum())
((4, 4, 2), 16)

The observation is ``(rows, cols, 2)`` int8 (``Position.planes()`` seen by the agent): plane 0
the agent's stones, plane 1 the opponent's, indexed ``[row, col]``, row 0 on top. Actions are
``Discrete(position.action_count)``: the cell ``row * cols + col`` for tic-tac-toe and m,n,k,
the column for Connect Four. ``info["action_mask"]`` marks the legal actions and
``info["position"]`` is the ``Position``. A step plays the agent's move and then the
opponent's (a ``PerfectAgent(skill)``); the reward is +1 when the agent wins, -1 when it loses,
0 otherwise. An illegal action in range (an occupied cell, a full column) ends the episode with
reward -1 (as PettingZoo does), never an exception. With ``play_as="o"`` the opponent opens. The
opponent draws its moves from the environment's seeded ``np_random``, so ``reset(seed=...)``
repeats an episode exactly.

**The opponent's budget.** Where a game's answers come from a search (m,n,k, Connect Four),
the opponent searches at most ``node_limit`` nodes a move on each thread: by default
(``node_limit="game"``) the game's own budget, ``DEFAULT_NODE_LIMIT`` (2,000,000) for m,n,k and
400,000,000 for Connect Four, whose 7x6 replies past the packaged opening book need up to about
10^8; ``None`` for no limit. When a reply needs more, ``step`` raises
``perfectplay.SearchLimitExceeded`` and the environment is left exactly as it was before the
step (the agent's move is not applied), so the caller can raise the limit and step again.

**Starting from a position.** ``env.reset(options={"position": p})`` starts the episode from
``p`` (Gymnasium's convention for reset options): a ``Position`` of the environment's game and
size, or a text the game reads (a move string such as ``"4453"``, or a board). When the
opponent is to move there, it replies first; ``info["position"]`` holds the position the agent
plays from. A position of another size or game, or a game already over, is a ``ValueError``;
``reset()`` without options starts from the empty board again.

>>> env = gymnasium.make("perfectplay/TicTacToe-v0", play_as="x")
>>> observation, info = env.reset(seed=0, options={"position": "xx./oo./..."})
>>> str(info["position"].to_move), int(info["action_mask"].sum())
('x', 5)

``render_mode="ansi"`` gives the text diagram, ``"rgb_array"`` an ``(H, W, 3)`` uint8 image
(so ``gymnasium.wrappers.RecordVideo`` works): first-player stones filled discs, second-player
stones rings, so the sides differ by shape as well as colour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from perfectplay.errors import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:
    raise missing_extra(error, "gym") from error

from perfectplay._kernel.game import DEFAULT_REPLY_NODE_LIMIT, Game
from perfectplay._kernel.position import BasePosition
from perfectplay._registry import GAMES, game
from perfectplay.agents import PerfectAgent

__all__ = ["DEFAULT_NODE_LIMIT", "GameEnv"]  # and each game's class (see __getattr__)

Observation = npt.NDArray[np.int8]

#: The opponent's search budget a move in a game that sets none of its own (m,n,k), unless
#: ``node_limit`` says otherwise: a second or two of search, so that a step never pins a core
#: for minutes. Connect Four's is larger (see the module's documentation).
DEFAULT_NODE_LIMIT = DEFAULT_REPLY_NODE_LIMIT

_PIXELS = 32  # a cell of the rgb_array image
_STONE_COLOURS = {1: (0, 114, 178), 2: (213, 94, 0)}  # Okabe-Ito blue and vermilion
_BOARD_COLOUR, _GRID_COLOUR = (247, 244, 236), (85, 85, 85)


def _stone_masks() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Pixel masks of one cell: a filled disc (first player) and a ring (second player)."""
    centre = (_PIXELS - 1) / 2
    y, x = np.mgrid[0:_PIXELS, 0:_PIXELS]
    distance = np.hypot(x - centre, y - centre)
    radius = _PIXELS * 0.4
    return distance <= radius, (distance <= radius) & (distance >= radius - 4)


_DISC, _RING = _stone_masks()


def rgb_image(position: BasePosition[Any]) -> npt.NDArray[np.uint8]:
    """The board as an ``(rows * 32, cols * 32, 3)`` uint8 image (see the module's text)."""
    codes = position.to_array()
    image = np.empty((position.rows * _PIXELS, position.cols * _PIXELS, 3), dtype=np.uint8)
    image[:] = _BOARD_COLOUR
    image[::_PIXELS, :] = image[:, ::_PIXELS] = _GRID_COLOUR
    image[-1, :] = image[:, -1] = _GRID_COLOUR
    for (row, col), code in np.ndenumerate(codes):
        if code in _STONE_COLOURS:
            cell = image[row * _PIXELS : (row + 1) * _PIXELS, col * _PIXELS : (col + 1) * _PIXELS]
            cell[_DISC if code == 1 else _RING] = _STONE_COLOURS[int(code)]
    return image


class GameEnv(gymnasium.Env[Observation, np.int64]):
    """A registered game against a ``PerfectAgent(skill)``; see the module's documentation.
    ``options`` are the game's own (``rows``, ``cols``, ``k``; ``width``, ``height``), with the
    registry's defaults."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_name: str,
        *sizes: int,
        play_as: str = "x",
        skill: float = 1.0,
        seed: int | None = None,
        render_mode: str | None = None,
        node_limit: int | Literal["game"] | None = "game",
        **options: Any,
    ) -> None:
        self.game = game(game_name)
        if self.game.gym is None:
            raise ValueError(f"perfectplay has no Gymnasium environment of {game_name!r}")
        # Sizes by position follow the registry's order of the game's options (rows, cols, k).
        names = list(self.game.options)
        if len(sizes) > len(names):
            raise TypeError(f"{game_name} takes its options {names} by position, not {sizes}")
        for name, size in zip(names, sizes, strict=False):  # fewer sizes than options
            if name in options:
                raise TypeError(f"{name} given both by position and by name")
            options[name] = size
        if play_as not in self.game.players:
            raise ValueError(f"play_as must be one of {self.game.players}, not {play_as!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self._options = options
        self._start: BasePosition[Any] = self.game.start(**options)
        self.rows, self.cols = self._start.rows, self._start.cols
        self.play_as, self.skill, self.render_mode = play_as, skill, render_mode
        if isinstance(node_limit, str):
            if node_limit != "game":
                raise ValueError(f'node_limit must be an int, None or "game", not {node_limit!r}')
            node_limit = self.game.reply_node_limit
        self._solve_options = {"node_limit": node_limit} if self.game.searches else {}
        PerfectAgent(skill)  # checks skill now rather than at the first reset
        self._seed = seed
        self.observation_space = spaces.Box(0, 1, (self.rows, self.cols, 2), dtype=np.int8)
        self.action_space = spaces.Discrete(self._start.action_count)
        self.position = self._start
        self._opponent: PerfectAgent | None = None
        self._over = self._forfeited = False

    def _observation(self) -> Observation:
        codes = self.position.to_array()
        mine = 1 if self.play_as == self.game.players[0] else 2
        planes = np.zeros((self.rows, self.cols, 2), dtype=np.int8)
        planes[:, :, 0] = codes == mine
        planes[:, :, 1] = codes == 3 - mine
        return planes

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.position.action_mask(), "position": self.position}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None  # the constructor's seed, used once
        start = self._start if options is None else self._chosen_start(options)
        super().reset(seed=seed)
        opponent_seed = int(self.np_random.integers(2**63))
        self._opponent = PerfectAgent(self.skill, opponent_seed, **self._solve_options)
        self.position = start
        self._over = self._forfeited = False
        if self.position.to_move != self.play_as:
            self.position = self._with_reply(start)
        return self._observation(), self._info()

    def _chosen_start(self, options: dict[str, Any]) -> BasePosition[Any]:
        """The position ``reset(options={"position": ...})`` names: a ``Position`` of this
        game and size, or a text the game reads (a move string or a board, as the board's
        paste box takes them); a game still going on."""
        if not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, not {type(options).__name__}")
        unknown = set(options) - {"position"}
        if unknown:
            raise ValueError(f"reset takes the option 'position', not {sorted(unknown)}")
        if "position" not in options:
            return self._start
        given = options["position"]
        if isinstance(given, str):
            chosen = self.game.read_position(given, **self._options)
        elif isinstance(given, type(self._start)):
            chosen = given
        else:
            raise TypeError(
                f"options['position'] must be a {type(self._start).__name__} or a str, not "
                f"{type(given).__name__}"
            )
        wanted = {**self.game.options, **self._options}
        if any(getattr(chosen, name, value) != value for name, value in wanted.items()):
            raise ValueError(
                f"options['position'] is not a position of this environment's game "
                f"({self.rows}x{self.cols}, {self._options or 'its defaults'})"
            )
        if chosen.is_over:
            raise ValueError("options['position'] is a game already over: nothing to play")
        return chosen  # type: ignore[no-any-return]

    def _with_reply(self, position: BasePosition[Any]) -> BasePosition[Any]:
        """``position`` after the opponent's reply (itself once the game is over). The
        opponent's random state is restored when the reply fails, so a retried step repeats."""
        if position.is_over:
            return position
        assert self._opponent is not None
        state = self._opponent._random.getstate()
        try:
            return position.play(self._opponent.move(position))
        except BaseException:
            self._opponent._random.setstate(state)
            raise

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._opponent is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over; call reset()")
        move = self.position.move(action)  # off the action space: ValueError/TypeError
        if self.position.action(move) not in self.position.legal_actions:
            self._over = self._forfeited = True
            return self._observation(), -1.0, True, False, self._info()
        # The whole step or none of it: the reply is found before anything changes.
        self.position = self._with_reply(self.position.play(move))
        reward = 0.0
        if self.position.winner is not None:
            reward = 1.0 if self.position.winner == self.play_as else -1.0
        self._over = self.position.is_over
        return self._observation(), reward, self._over, False, self._info()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            status = (
                "forfeited (an illegal move)" if self._forfeited else self.position._status_text()
            )
            return f"{self.position}\n{status}\n"
        if self.render_mode == "rgb_array":
            return rgb_image(self.position)
        return None


def _env_class(entry: Game) -> type[GameEnv]:
    """``GameEnv`` of one game as a class of its own, named after its Gymnasium id
    (``perfectplay/ConnectFour-v0``: ``ConnectFourEnv``)."""

    def __init__(self: GameEnv, *sizes: int, **options: Any) -> None:
        GameEnv.__init__(self, entry.name, *sizes, **options)

    name = _class_name(entry)
    doc = (
        f"{entry.title} (its options {list(entry.options)}, by position or name; the "
        "registry's defaults unless given) against a ``PerfectAgent(skill)``."
    )
    attributes = {
        "__init__": __init__,
        "__doc__": doc,
        "__module__": __name__,
        "__qualname__": name,
    }
    return type(name, (GameEnv,), attributes)


_CLASSES: dict[str, type[GameEnv]] = {}


def _class_name(entry: Game) -> str:
    assert entry.gym is not None
    return entry.gym.split("/")[-1].split("-")[0] + "Env"


def __getattr__(name: str) -> Callable[..., GameEnv]:
    """Each registered game's environment class: ``TicTacToeEnv``, ``MNKEnv``,
    ``ConnectFourEnv`` (``GameEnv`` with its ``game_name``)."""
    for entry in GAMES.values():
        if entry.gym is not None and _class_name(entry) == name:
            if name not in _CLASSES:  # made once, so that the class is one class
                _CLASSES[name] = _env_class(entry)
            return _CLASSES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register() -> None:
    """Registers every registered game's environment: ``GameEnv`` with its ``game_name``."""
    for entry in GAMES.values():
        if entry.gym is not None and entry.gym not in gymnasium.registry:
            gymnasium.register(
                id=entry.gym,
                entry_point="perfectplay.gym:GameEnv",
                max_episode_steps=1024,
                kwargs={"game_name": entry.name},
            )


_register()
__all__ += [_class_name(entry) for entry in GAMES.values() if entry.gym is not None]
