"""What the shared layers read about disappearing footholds (see ``perfectplay._kernel.game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay._kernel.args import quoted
from perfectplay._kernel.game import BatchOption, Game, parse_location
from perfectplay.footholds import Position
from perfectplay.footholds.judge import FORMATS
from perfectplay.footholds.stress import PROBLEMS


def _read(text: str, options: Mapping[str, Any]) -> Position:
    words = text.split()
    if len(words) not in (3, 4):
        raise ValueError(
            "a footholds position is BOARD ALOC BLOC [A|B], such as '111/111/111 1,0 1,2 A', "
            f"not {quoted(text)}"
        )
    mover = words[3] if len(words) == 4 else "A"
    return Position(words[0], parse_location(words[1]), parse_location(words[2]), mover)


GAME = Game(
    "footholds",
    "Disappearing footholds",
    options={"board": "111/111/111", "aloc": (1, 0), "bloc": (1, 2)},
    players=("A", "B"),
    moves="row-col",
    codes="(N, rows, cols): 1 foothold, 0 hole; alocs and blocs (N, 2)",
    batch_options=("alocs", "blocs"),
    batch_option_help={
        "alocs": BatchOption("A's cells, (N, 2) or (2,)", array=True),
        "blocs": BatchOption("B's cells, (N, 2) or (2,)", array=True),
    },
    judge=FORMATS,
    stress=PROBLEMS,
    parse={"board": str, "aloc": parse_location, "bloc": parse_location},
    read=_read,
    # The judge's boards, up to 5x5, take a millisecond at most.
    searches_little=lambda here: here.cells <= 25,
    read_help="BOARD ALOC BLOC [A|B] such as '111/111/111 1,0 1,2 A' (1 foothold, 0 hole)",
    option_help={
        "board": "rows of 1 (foothold) and 0 (hole) split by /, such as 111/101/111",
        "aloc": "A's cell ROW,COL, such as 1,0",
        "bloc": "B's cell ROW,COL, such as 1,2",
    },
)
