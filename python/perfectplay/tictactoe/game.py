"""What the shared layers read about tic-tac-toe (see ``perfectplay._kernel.game``)."""

from __future__ import annotations

from perfectplay._kernel.game import Game, OpenSpielGame, PettingZooGame
from perfectplay.tictactoe import Position
from perfectplay.tictactoe.judge import FORMATS
from perfectplay.tictactoe.stress import PROBLEMS

GAME = Game(
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
    judge=FORMATS,
    stress=PROBLEMS,
    read=lambda text, options: Position(text),
    read_help="9 cells such as 'xo./.x./..o' (x o . or 1 2 0)",
)
