"""What a game tells the shared layers about itself (``Game``, one a game, in its package's
``game.py``): its module, players, moves, options and their help, batch options, the outside
frameworks' forms of it, its judge formats and how pasted text reads. The registry
(``perfectplay._registry``) lists the games; every layer reads their ``Game``."""

from __future__ import annotations

import importlib
import re
import types
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from perfectplay._kernel.args import quoted
from perfectplay._kernel.backend import BACKEND, implementation
from perfectplay._kernel.command import Command
from perfectplay._kernel.judge import Format
from perfectplay._kernel.stress import Problem

__all__ = [
    "DEFAULT_REPLY_NODE_LIMIT",
    "BatchOption",
    "Game",
    "OpenSpielGame",
    "PettingZooGame",
    "parse_int",
    "parse_location",
]


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
class BatchOption:
    """A ``batch_solve`` option beyond the boards, as ``perfectplay label`` takes it."""

    #: What it is, for help texts.
    help: str
    #: Given as a ``.npy`` file of values (else an int on the command line).
    array: bool = False


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
    #: What each of ``batch_options`` is, for ``perfectplay label``.
    batch_option_help: Mapping[str, BatchOption] = field(default_factory=dict)
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
    #: The judge formats of the command line that answer it, by command name.
    judge: Mapping[str, Format] = field(default_factory=dict)
    #: The judge formats the stress tester can test, by the same names.
    stress: Mapping[str, Problem] = field(default_factory=dict)
    #: Its own commands of ``perfectplay`` (``openings``, ``tablebase``).
    commands: tuple[Command, ...] = ()
    #: How to read the options of a start from text (the command line, the web board).
    parse: Mapping[str, Callable[[str], Any]] = field(default_factory=dict)
    #: A position from pasted text and the game's options (the web board, ``perfectplay play``).
    read: Callable[[str, Mapping[str, Any]], Any] | None = None
    #: What ``read`` takes, for help texts.
    read_help: str = ""
    #: What each of ``options`` is, for help texts (its default is added where it is shown).
    option_help: Mapping[str, str] = field(default_factory=dict)
    #: The players as people see them (Connect Four's red and yellow), first player first;
    #: None: ``players`` in capitals.
    colours: tuple[str, str] | None = None
    #: The colours of the players' stones (CSS), where the game has coloured stones.
    stone_colours: tuple[str, str] | None = None
    #: Nodes the board's search processes may take for one of its positions, when more than
    #: the server's limit: Connect Four's books leave at most about 10^8 to any 7x6 position.
    board_node_limit: int | None = None
    #: Does a search of this position cost little (milliseconds, a few hundred at most)? The
    #: web board answers those in its server process, never queued behind long searches; the
    #: rest in its search processes, which it can stop. None: no search is known to be cheap.
    searches_little: Callable[[Any], bool] | None = None
    #: The game's own score of a move (Pons' score for Connect Four), from the position, the
    #: move's value and plies; None: the game has none beyond value and plies.
    move_score: Callable[[Any, int, int], int] | None = None
    #: For a game a tablebase answers (``tablebase=``): which game a position or a tablebase
    #: is of, so that the web board answers a position from a tablebase of its game.
    tablebase_key: Callable[[Any], Hashable] | None = None

    @property
    def display_names(self) -> tuple[str, str]:
        """The players' names as people read them."""
        return self.colours or (self.players[0].upper(), self.players[1].upper())

    def module(self) -> types.ModuleType:
        """``perfectplay.<name>``: the chosen backend's functions and the ``Position``."""
        return importlib.import_module(f"perfectplay.{self.name}")

    def api(self, backend: str | None = None) -> types.ModuleType:
        """The game's functions from one backend."""
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
        raise ValueError(f"expected an integer in the digits 0-9, got {quoted(text)}")
    return int(stripped)


def parse_location(text: str) -> tuple[int, int]:
    """A cell written ``ROW,COL``."""
    parts = text.split(",")
    if len(parts) != 2 or not all(_INT.fullmatch(part.strip()) for part in parts):
        raise ValueError(f"expected a cell as ROW,COL such as 1,0, got {quoted(text)}")
    row, col = (int(part) for part in parts)
    return row, col
