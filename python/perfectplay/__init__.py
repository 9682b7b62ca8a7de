"""perfectplay: small two-player games solved perfectly, fast.

The winner wins in the fewest moves, the loser survives the most, a draw is a draw. The search
runs in Rust (``perfectplay._core``); a pure-Python twin gives the same answers when the
extension is missing or ``PERFECTPLAY_BACKEND=python``. ``BACKEND`` says which one answers.
"""

from perfectplay import agents, footholds, mnk, tablebase, tictactoe
from perfectplay._backend import BACKEND
from perfectplay._types import BatchSolution, Solution
from perfectplay.errors import IllegalPosition, SearchLimitExceeded

__all__ = [
    "BACKEND",
    "BatchSolution",
    "IllegalPosition",
    "SearchLimitExceeded",
    "Solution",
    "__version__",
    "agents",
    "footholds",
    "mnk",
    "tablebase",
    "tictactoe",
]

__version__ = "0.1.0"
