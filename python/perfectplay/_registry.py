"""Every game perfectplay plays, described once. Each layer reads this: the backend choice, the
package's modules, ``perfectplay.dask``, the command line, the agents, the integrations, the
web board and the tests. A game added here appears in all of them (or the layer says clearly
that the outside framework has no such game).

A game's module (``perfectplay.<name>``) has the functions of both backends, a ``Position``
class (``Position.start(**options)`` is where a game starts, with the game's own options and
their defaults) and ``batch_solve``; this file says how they are called.
"""

from __future__ import annotations

import importlib
import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GAMES", "Game", "OpenSpielGame", "PettingZooGame", "game"]


@dataclass(frozen=True)
class PettingZooGame:
    """How a PettingZoo environment shows a game: observations ``(rows, cols, 2)`` with the
    observer's stones in plane 0, and its actions."""

    #: The environment's name (``pettingzoo.classic.<env>``).
    env: str
    #: The game's options on the environment's fixed board.
    options: Mapping[str, Any]
    #: True when the environment indexes the observation ``[col, row]`` and numbers cells
    #: column by column (``tictactoe_v3``); False when both follow perfectplay's actions.
    column_major: bool


@dataclass(frozen=True)
class OpenSpielGame:
    """How an OpenSpiel game maps onto a game here; its actions are perfectplay's actions."""

    #: The game's short name in ``pyspiel.load_game``.
    name: str
    #: The game's options from OpenSpiel's parameters (a ``ValueError`` for parameters
    #: perfectplay does not play).
    options: Callable[[Mapping[str, Any]], dict[str, Any]]


#: A search's budget for one reply of an opponent (the Gymnasium environments' ``node_limit``)
#: in a game that sets none of its own: a second or two of search.
DEFAULT_REPLY_NODE_LIMIT = 2_000_000


@dataclass(frozen=True)
class Game:
    """One game, as every layer needs it."""

    #: Its module's name (``perfectplay.<name>``) and its name everywhere.
    name: str
    title: str
    #: The options of ``Position.start`` and their defaults (board size and the like).
    options: Mapping[str, Any]
    #: The players' names, first player first.
    players: tuple[str, str]
    #: How moves are written: "cell" (0..cells-1), "row-col" ((row, col)), "column".
    moves: str
    #: What a batch's arrays hold, for the documentation and the command line.
    codes: str
    #: The options of ``batch_solve`` beyond the boards (``k``; ``alocs`` and ``blocs``).
    batch_options: tuple[str, ...] = ()
    #: Whether its answers come from a search that takes ``node_limit`` (not a lookup table).
    searches: bool = True
    #: The outside frameworks' forms of this game (None: the framework has no such game).
    pettingzoo: PettingZooGame | None = None
    openspiel: OpenSpielGame | None = None
    #: Its Gymnasium environment, registered by ``perfectplay.gym``.
    gym: str | None = None
    #: The nodes (a thread) the environment's opponent may search for one reply, unless the
    #: environment is given ``node_limit``; what most replies need, and bounded, so that a step
    #: never pins the cores for minutes.
    reply_node_limit: int = DEFAULT_REPLY_NODE_LIMIT
    #: The judge formats of the command line that answer it.
    judge: tuple[str, ...] = ()
    #: How to read the options of a start from text (the command line, the web board).
    parse: Mapping[str, Callable[[str], Any]] = field(default_factory=dict)
    #: A position from pasted text and the game's options (the web board, ``perfectplay play``).
    read: Callable[[str, Mapping[str, Any]], Any] | None = None
    #: What ``read`` takes, for help texts.
    read_help: str = ""
    #: What each of ``options`` is, for help texts (its default is added where it is shown).
    option_help: Mapping[str, str] = field(default_factory=dict)

    def module(self) -> types.ModuleType:
        """``perfectplay.<name>``: the chosen backend's functions and the ``Position``."""
        return importlib.import_module(f"perfectplay.{self.name}")

    def api(self, backend: str | None = None) -> types.ModuleType:
        """The game's functions from one backend."""
        from perfectplay._backend import BACKEND, implementation

        return implementation(self.name, backend or BACKEND)

    @property
    def position(self) -> Any:
        """The game's ``Position`` class."""
        return self.module().Position

    def check_options(self, names: Iterable[str], error: type[Exception] = TypeError) -> None:
        """Raises ``error`` naming the options among ``names`` that the game does not take."""
        unknown = set(names) - set(self.options)
        if unknown:
            raise error(
                f"{self.name} takes the options {', '.join(self.options) or 'none'}, "
                f"not {', '.join(sorted(unknown))}"
            )

    def start(self, **options: Any) -> Any:
        """The position where a game starts, with the game's options (defaults filled in)."""
        self.check_options(options)
        return self.position.start(**{**self.options, **options})

    def read_position(self, text: str, **options: Any) -> Any:
        """The position a pasted text describes (an empty text: the start), with the game's
        options (defaults filled in); a ``ValueError``/``TypeError`` or ``IllegalPosition``
        naming the problem otherwise."""
        options = {**self.options, **options}
        if not text.strip():
            return self.start(**options)
        assert self.read is not None, f"{self.name} has no reader of pasted positions"
        return self.read(text, options)

    def moves_per_row(self, board: tuple[int, ...]) -> int:
        """How many moves a batch row's move columns have, for boards of shape ``board``:
        its columns for Connect Four, its cells for the others."""
        if self.moves == "column":
            return int(board[-1])
        count = 1
        for side in board:
            count *= int(side)
        return count

    def batch_solve(self, boards: Any, backend: str | None = None, **options: Any) -> Any:
        """``batch_solve`` of the game on one backend (its own options by name: ``k`` for
        m,n,k; ``alocs`` and ``blocs`` for footholds)."""
        api = self.api(backend)
        positional = [options.pop(name) for name in self.batch_options if name in options]
        return api.batch_solve(boards, *positional, **options)


_INT = re.compile(r"[+-]?[0-9]+")


def parse_int(text: str) -> int:
    """An int written in ASCII digits (Python's ``int`` also takes Arabic-Indic, fullwidth and
    other digits, and its message for "²" names no option)."""
    stripped = text.strip()
    if not _INT.fullmatch(stripped):
        raise ValueError(f"expected an integer in the digits 0-9, got {text!r}")
    return int(stripped)


def _location(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(_INT.fullmatch(part.strip()) for part in parts):
        raise ValueError(f"expected a cell as ROW,COL such as 1,0, got {text!r}")
    row, col = (int(part) for part in parts)
    return row, col


def _read_footholds(text: str, options: Mapping[str, Any]) -> Any:
    from perfectplay.footholds import Position

    words = text.split()
    if len(words) not in (3, 4):
        raise ValueError(
            "a footholds position is BOARD ALOC BLOC [A|B], such as '111/111/111 1,0 1,2 A', "
            f"not {text!r}"
        )
    mover = words[3] if len(words) == 4 else "A"
    return Position(words[0], _location(words[1]), _location(words[2]), mover)


def _openspiel_mnk(parameters: Mapping[str, Any]) -> dict[str, Any]:
    # OpenSpiel's m is the number of columns, n the number of rows.
    return {"rows": int(parameters["n"]), "cols": int(parameters["m"]), "k": int(parameters["k"])}


def _openspiel_connect_four(parameters: Mapping[str, Any]) -> dict[str, Any]:
    if int(parameters.get("x_in_row", 4)) != 4:
        raise ValueError(
            f"perfectplay plays Connect Four with four in a row, not x_in_row="
            f"{parameters['x_in_row']}"
        )
    return {"width": int(parameters["columns"]), "height": int(parameters["rows"])}


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game(
            "tictactoe",
            "Tic-tac-toe",
            options={},
            players=("x", "o"),
            moves="cell",
            codes="(N, 9) or (N, 3, 3): 0 empty, 1 X, 2 O",
            searches=False,
            pettingzoo=PettingZooGame("tictactoe_v3", {}, column_major=True),
            openspiel=OpenSpielGame("tic_tac_toe", lambda parameters: {}),
            gym="perfectplay/TicTacToe-v0",
            judge=("tictactoe", "alpha", "final"),
            read=lambda text, options: GAMES["tictactoe"].position(text),
            read_help="9 cells such as 'xo./.x./..o' (x o . or 1 2 0)",
        ),
        Game(
            "mnk",
            "m,n,k-game",
            options={"rows": 4, "cols": 4, "k": 3},
            players=("x", "o"),
            moves="row-col",
            codes="(N, rows, cols): 0 empty, 1 X, 2 O",
            batch_options=("k",),
            openspiel=OpenSpielGame("mnk", _openspiel_mnk),
            gym="perfectplay/MNK-v0",
            parse={"rows": parse_int, "cols": parse_int, "k": parse_int},
            read=lambda text, options: GAMES["mnk"].position(text, options["k"]),
            read_help="rows of x o . joined by / such as 'x.../.o../..../....'",
            option_help={
                "rows": "rows of the board",
                "cols": "columns of the board",
                "k": "marks in a row that win",
            },
        ),
        Game(
            "connect4",
            "Connect Four",
            options={"width": 7, "height": 6},
            players=("x", "o"),
            moves="column",
            codes="(N, height, width), top row first: 0 empty, 1 first player, 2 second",
            pettingzoo=PettingZooGame(
                "connect_four_v3", {"width": 7, "height": 6}, column_major=False
            ),
            openspiel=OpenSpielGame("connect_four", _openspiel_connect_four),
            gym="perfectplay/ConnectFour-v0",
            # 7x6 replies past the packaged book took up to 3.6 s in 1,000 games against random,
            # about 10^8 nodes a thread at 30 M nodes/s; 4 * 10^8 is about 12 s at most here.
            reply_node_limit=400_000_000,
            judge=("connect4",),
            parse={"width": parse_int, "height": parse_int},
            read=lambda text, options: GAMES["connect4"].position(
                text, width=options["width"], height=options["height"]
            ),
            read_help="Pons' move string (columns 1-7 such as '4453') or rows of x o . top first",
            option_help={"width": "columns of the board", "height": "rows of the board"},
        ),
        Game(
            "footholds",
            "Disappearing footholds",
            options={"board": "111/111/111", "aloc": (1, 0), "bloc": (1, 2)},
            players=("A", "B"),
            moves="row-col",
            codes="(N, rows, cols): 1 foothold, 0 hole; alocs and blocs (N, 2)",
            batch_options=("alocs", "blocs"),
            judge=("footholds",),
            parse={"board": str, "aloc": _location, "bloc": _location},
            read=_read_footholds,
            read_help="BOARD ALOC BLOC [A|B] such as '111/111/111 1,0 1,2 A' (1 foothold, 0 hole)",
            option_help={
                "board": "rows of 1 (foothold) and 0 (hole) split by /, such as 111/101/111",
                "aloc": "A's cell ROW,COL, such as 1,0",
                "bloc": "B's cell ROW,COL, such as 1,2",
            },
        ),
    )
}


def game(name: str) -> Game:
    """The game of that name; a ``ValueError`` listing the games otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; perfectplay plays {', '.join(GAMES)}") from None
