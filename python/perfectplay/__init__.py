"""perfectplay: small two-player games solved perfectly, fast.

The winner wins in the fewest moves, the loser survives the most, a draw is a draw. The search
runs in Rust (``perfectplay._core``); a pure-Python twin gives the same answers when the
extension is missing or ``PERFECTPLAY_BACKEND=python``. ``BACKEND`` says which one answers.
Every game is described once in ``perfectplay.GAMES`` (its module, players, moves, options
and the frameworks that have it); each game's module is imported here.
"""

import importlib
from typing import Any

from perfectplay import agents, tablebase
from perfectplay._kernel.backend import BACKEND
from perfectplay._kernel.game import Game
from perfectplay._kernel.review import Review, review_many
from perfectplay._kernel.types import BatchSolution, Solution
from perfectplay._registry import GAMES
from perfectplay.errors import IllegalPosition, SearchLimitExceeded


def __getattr__(name: str) -> Any:
    # The version is read from the package's metadata when asked for: reading the metadata
    # costs more than the rest of a start needs.
    if name == "__version__":
        import importlib.metadata

        try:
            # Written once, in Cargo.toml; the package's metadata carries it.
            return importlib.metadata.version("perfectplay")
        except importlib.metadata.PackageNotFoundError:  # a source tree never installed
            return "unknown"
    raise AttributeError(f"module 'perfectplay' has no attribute {name!r}")


for _name in GAMES:
    globals()[_name] = importlib.import_module(f"perfectplay.{_name}")
del _name

from perfectplay import connect4, footholds, mnk, tictactoe  # noqa: E402  (named for readers)

__all__ = [
    "BACKEND",
    "GAMES",
    "BatchSolution",
    "Game",
    "IllegalPosition",
    "Review",
    "SearchLimitExceeded",
    "Solution",
    "__version__",
    "agents",
    "connect4",
    "footholds",
    "mnk",
    "review_many",
    "tablebase",
    "tictactoe",
]
