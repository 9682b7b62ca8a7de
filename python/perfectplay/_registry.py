"""Every game perfectplay plays, listed once: each game's package says what the shared layers
need in its ``game.py`` (a ``perfectplay._kernel.game.Game``), and every layer reads this list:
the package's namespace, ``perfectplay.dask``, the command line, the judge formats, the agents,
the integrations, the web board and the tests. A game added here appears in all of them (or the
layer says clearly that the outside framework has no such game).

A game's description (with its commands, judge formats and stress problems) is imported when a
layer first asks for it, not with the package: a call of one game loads no other game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay._kernel.game import Game

__all__ = ["GAMES", "game"]

#: Each game's name and the module whose ``GAME`` describes it, in the order layers list them.
_DESCRIBED_IN = {
    "tictactoe": "perfectplay.tictactoe.game",
    "mnk": "perfectplay.mnk.game",
    "connect4": "perfectplay.connect4.game",
    "footholds": "perfectplay.footholds.game",
}


class _Games(Mapping[str, "Game"]):
    """The games by name; a game's ``Game`` is imported the first time it is looked up."""

    def __getitem__(self, name: str) -> Game:
        module = _DESCRIBED_IN[name]  # a KeyError for a game that is not here
        described: Game = importlib.import_module(module).GAME
        return described

    def __iter__(self) -> Iterator[str]:
        return iter(_DESCRIBED_IN)

    def __len__(self) -> int:
        return len(_DESCRIBED_IN)

    def __repr__(self) -> str:
        return f"GAMES({', '.join(_DESCRIBED_IN)})"


GAMES: Mapping[str, Game] = _Games()


def game(name: str) -> Game:
    """The game of that name; a ``ValueError`` listing the games otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; perfectplay plays {', '.join(GAMES)}") from None
