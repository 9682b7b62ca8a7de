"""The compiled core (Rust): one submodule a game. Use the public modules instead:
perfectplay.tictactoe, perfectplay.mnk, perfectplay.connect4, perfectplay.footholds."""

from perfectplay._core import connect4 as connect4
from perfectplay._core import footholds as footholds
from perfectplay._core import mnk as mnk
from perfectplay._core import tablebase as tablebase
from perfectplay._core import tictactoe as tictactoe

__all__ = ["connect4", "footholds", "mnk", "tablebase", "tictactoe"]
