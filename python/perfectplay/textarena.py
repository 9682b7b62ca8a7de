"""TextArena: ``TextArenaAgent``, a perfect or graded player in TextArena's own convention
(``agent(observation) -> action``, a ``textarena.Agent``) for its Connect Four
(``ConnectFour-v0`` and the boards perfectplay takes) and tic-tac-toe (``TicTacToe-v0``)
environments, and ``position(env_id, observation)``, the position an observation shows.

The agent reads the last board in the observation text (the ``-blind`` Connect Four variant
shows none: its moves are read from the game's own "dropped their disk" lines) and answers
``[col N]`` (columns from 0) or ``[N]`` (cells 0 to 8, row by row). TextArena's Connect Four
gives the first player ``X``; its tic-tac-toe gives the first player (Player 0) ``O``.

>>> from perfectplay.textarena import TextArenaAgent
>>> rows = "\\n".join([". . . . . . ."] * 5 + [". . . X . . ."])
>>> TextArenaAgent("ConnectFour-v0")(f"Board state:\\n0 1 2 3 4 5 6\\n-------------\\n{rows}")
'[col 3]'
"""

from __future__ import annotations

import re
from typing import Any

from perfectplay.errors import missing_extra

try:
    import textarena
except ImportError as error:
    raise missing_extra(error, "textarena") from error

from perfectplay import connect4, tictactoe
from perfectplay.agents import GradedAgent

__all__ = ["GAMES", "TextArenaAgent", "position"]

#: The environments the agent plays, by the start of their id: perfectplay's game of each.
GAMES = {"ConnectFour": "connect4", "TicTacToe": "tictactoe"}

_CONNECT4_BOARD = re.compile(
    r"Board state:\n(?P<header>\d+(?: \d+)*)\n-+\n(?P<rows>(?:[.XO](?: [.XO])*(?:\n|$))+)"
)
_CONNECT4_SIZE = re.compile(r"The game board has (\d+) rows and (\d+) columns")
_CONNECT4_DROP = re.compile(r"dropped their disk \([XO]\) into column (\d+)")
_TICTACTOE_BOARD = re.compile(
    r"Current Board:\s*\n(?P<rows>(?: [0-8XO] \| [0-8XO] \| [0-8XO] \n?(?:---\+---\+---\n)?){3})"
)


def _game_of(env_id: Any) -> str:
    if not isinstance(env_id, str):
        raise TypeError(f"env_id must be a str, not {type(env_id).__name__}")
    for prefix, game in GAMES.items():
        if env_id.startswith(prefix) and not env_id[len(prefix) :][:1].isalpha():
            return game
    raise ValueError(
        f"perfectplay plays TextArena's {', '.join(f'{p}-*' for p in GAMES)}, not {env_id!r}"
    )


def position(env_id: str, observation: str) -> connect4.Position | tictactoe.Position:
    """The position the last board of ``observation`` shows, in environment ``env_id``'s
    layout; a ``ValueError`` when it shows none, or one no game reaches."""
    if not isinstance(observation, str):
        raise TypeError(f"observation must be a str, not {type(observation).__name__}")
    if _game_of(env_id) == "connect4":
        return _connect4_position(observation)
    boards = list(_TICTACTOE_BOARD.finditer(observation))
    if not boards:
        raise ValueError("the observation shows no tic-tac-toe board ('Current Board:')")
    cells = re.findall(r" ([0-8XO]) ", boards[-1]["rows"])
    # Player 0 moves first and plays O.
    marks = "".join({"O": "x", "X": "o"}.get(cell, ".") for cell in cells)
    return tictactoe.Position(marks)


def _connect4_position(observation: str) -> connect4.Position:
    boards = list(_CONNECT4_BOARD.finditer(observation))
    if boards:
        board = boards[-1]
        width = len(board["header"].split())
        rows = [row.replace(" ", "") for row in board["rows"].strip("\n").split("\n")]
        if any(len(row) != width for row in rows):
            raise ValueError(f"the Connect Four board's rows are not {width} cells wide")
        return connect4.Position([row.translate(str.maketrans("XO", "xo")) for row in rows])
    size = _CONNECT4_SIZE.search(observation)
    if size is None:
        raise ValueError(
            "the observation shows no Connect Four board ('Board state:') and no board size"
        )
    height, width = int(size[1]), int(size[2])
    here = connect4.Position.empty(width, height)
    for column in _CONNECT4_DROP.findall(observation):
        here = here.play(int(column))
    return here


class TextArenaAgent(textarena.Agent):  # type: ignore[misc]
    """Plays environment ``env_id`` (``"ConnectFour-v0"``, ``"TicTacToe-v0"``, ...) at
    ``level`` 1 to 10 (10: perfect; see ``perfectplay.agents.GradedAgent``); ``seed`` an int,
    a ``random.Random`` or None; ``options`` (``node_limit``...) pass on to the searches."""

    def __init__(self, env_id: str, level: int = 10, seed: Any = None, **options: Any) -> None:
        self.game = _game_of(env_id)
        self.env_id = env_id
        self.player = GradedAgent(level, seed=seed, **options)

    def __call__(self, observation: str) -> str:
        here = position(self.env_id, observation)
        if here.is_over:
            raise ValueError(f"the game is over: {here!r}")
        move = self.player.move(here)
        return f"[col {move}]" if self.game == "connect4" else f"[{move}]"

    def __repr__(self) -> str:
        return f"TextArenaAgent({self.env_id!r}, level={self.player.level})"
