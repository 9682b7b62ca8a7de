"""What the shared layers read about m,n,k-games (see ``perfectplay._kernel.game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay._kernel.game import BatchOption, Game, OpenSpielGame, parse_int
from perfectplay.mnk import Position
from perfectplay.mnk.commands import COMMANDS


def _openspiel_options(parameters: Mapping[str, Any]) -> dict[str, Any]:
    # OpenSpiel's m is the number of columns, n the number of rows.
    return {"rows": int(parameters["n"]), "cols": int(parameters["m"]), "k": int(parameters["k"])}


GAME = Game(
    "mnk",
    "m,n,k-game",
    options={"rows": 4, "cols": 4, "k": 3},
    players=("x", "o"),
    moves="row-col",
    codes="(N, rows, cols): 0 empty, 1 X, 2 O",
    batch_options=("k",),
    batch_option_help={"k": BatchOption("marks in a row that win")},
    openspiel=OpenSpielGame("mnk", _openspiel_options),
    gym="perfectplay/MNK-v0",
    parse={"rows": parse_int, "cols": parse_int, "k": parse_int},
    read=lambda text, options: Position(text, options["k"]),
    read_help="rows of x o . joined by / such as 'x.../.o../..../....'",
    commands=COMMANDS,
    tablebase_key=lambda of: (of.rows, of.cols, of.k),
    # A nearly full board (the benchmarks page has the times).
    searches_little=lambda here: here.cells - here.marks <= 12,
    option_help={
        "rows": "rows of the board",
        "cols": "columns of the board",
        "k": "marks in a row that win",
    },
)
