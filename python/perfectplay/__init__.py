"""perfectplay: small two-player games solved perfectly, fast.

The winner wins in the fewest moves, the loser survives the most, a draw is a draw. The search
runs in Rust (``perfectplay._core``); a pure-Python twin gives the same answers when the
extension is missing or ``PERFECTPLAY_BACKEND=python``. ``BACKEND`` says which one answers.
Every game is described once in ``perfectplay.GAMES`` (its module, players, moves, options
and the frameworks that have it); each game's module, and the rest of the namespace, is
imported when first used.
"""

import importlib
from typing import TYPE_CHECKING, Any

from perfectplay._kernel.backend import BACKEND
from perfectplay._registry import GAMES

if TYPE_CHECKING:
    from perfectplay import agents, connect4, footholds, mnk, tablebase, tictactoe
    from perfectplay._kernel.game import Game
    from perfectplay._kernel.review import Review, review_many
    from perfectplay._kernel.types import BatchSolution, Solution
    from perfectplay.errors import IllegalPosition, SearchLimitExceeded

# Where each name of the namespace is, imported when first asked for: a start imports what its
# calls need (a Connect Four answer does not import the other games, numpy or the agents).
_LAZY = {
    **{name: f"perfectplay.{name}" for name in GAMES},
    "agents": "perfectplay.agents",
    "tablebase": "perfectplay.tablebase",
    "Game": "perfectplay._kernel.game",
    "Review": "perfectplay._kernel.review",
    "review_many": "perfectplay._kernel.review",
    "BatchSolution": "perfectplay._kernel.types",
    "Solution": "perfectplay._kernel.types",
    "IllegalPosition": "perfectplay.errors",
    "SearchLimitExceeded": "perfectplay.errors",
}


def __getattr__(name: str) -> Any:
    # The version is read from the package's metadata when asked for: reading the metadata
    # costs more than the rest of a start needs.
    if name == "__version__":
        from importlib import metadata

        try:
            # Written once, in Cargo.toml; the package's metadata carries it.
            return metadata.version("perfectplay")
        except metadata.PackageNotFoundError:  # a source tree never installed
            return "unknown"
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        found = module if module.__name__ == f"perfectplay.{name}" else getattr(module, name)
        globals()[name] = found
        return found
    raise AttributeError(f"module 'perfectplay' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
