"""Every game perfectplay plays, listed once: each game's package says what the shared layers
need in its ``game.py`` (a ``perfectplay._kernel.game.Game``), and every layer reads this list:
the package's namespace, ``perfectplay.dask``, the command line, the judge formats, the agents,
the integrations, the web board and the tests. A game added here appears in all of them (or the
layer says clearly that the outside framework has no such game).
"""

from __future__ import annotations

from perfectplay._kernel.game import Game
from perfectplay.connect4.game import GAME as CONNECT4
from perfectplay.footholds.game import GAME as FOOTHOLDS
from perfectplay.mnk.game import GAME as MNK
from perfectplay.tictactoe.game import GAME as TICTACTOE

__all__ = ["GAMES", "game"]

GAMES: dict[str, Game] = {game.name: game for game in (TICTACTOE, MNK, CONNECT4, FOOTHOLDS)}


def game(name: str) -> Game:
    """The game of that name; a ``ValueError`` listing the games otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; perfectplay plays {', '.join(GAMES)}") from None
