"""What the shared layers read about Connect Four (see ``perfectplay._kernel.game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay._kernel.game import Game, OpenSpielGame, PettingZooGame, parse_int
from perfectplay.connect4 import STONES, Position
from perfectplay.connect4.commands import COMMANDS
from perfectplay.connect4.judge import FORMATS
from perfectplay.connect4.rules import move_pons


def _openspiel_options(parameters: Mapping[str, Any]) -> dict[str, Any]:
    if int(parameters.get("x_in_row", 4)) != 4:
        raise ValueError(
            f"perfectplay plays Connect Four with four in a row, not x_in_row="
            f"{parameters['x_in_row']}"
        )
    return {"width": int(parameters["columns"]), "height": int(parameters["rows"])}


GAME = Game(
    "connect4",
    "Connect Four",
    options={"width": 7, "height": 6},
    players=("x", "o"),
    moves="column",
    codes="(N, height, width), top row first: 0 empty, 1 first player, 2 second",
    pettingzoo=PettingZooGame("connect_four_v3", {"width": 7, "height": 6}, column_major=False),
    openspiel=OpenSpielGame("connect_four", _openspiel_options),
    gym="perfectplay/ConnectFour-v0",
    # 7x6 replies past the packaged book took up to 3.6 s in 1,000 games against random,
    # about 10^8 nodes a thread at 30 M nodes/s; 4 * 10^8 is about 12 s at most here.
    reply_node_limit=400_000_000,
    judge=FORMATS,
    commands=COMMANDS,
    parse={"width": parse_int, "height": parse_int},
    read=lambda text, options: Position(text, width=options["width"], height=options["height"]),
    read_help="Pons' move string (columns 1-7 such as '4453') or rows of x o . top first",
    option_help={"width": "columns of the board", "height": "rows of the board"},
    colours=("Red", "Yellow"),
    stone_colours=(STONES[1][0], STONES[2][0]),
    board_node_limit=400_000_000,
    # 7x6 with its books (answered at once at every ply: the benchmarks page), or a nearly
    # full board.
    searches_little=lambda here: (here.cols, here.rows) == (7, 6) or here.cells - here.played <= 16,
    move_score=lambda here, value, plies: move_pons(here.cells - here.played, value, plies),
)
