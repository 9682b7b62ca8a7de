"""Which implementation answers: the compiled core or the pure-Python twin.

``PERFECTPLAY_BACKEND=python`` forces the pure one; ``=rust`` makes a missing extension an
ImportError; unset, a missing extension falls back to Python with one ``RuntimeWarning``.
"""

from __future__ import annotations

import importlib
import os
import types
import warnings
from typing import Literal

__all__ = ["BACKEND", "BACKENDS", "implementation"]

Backend = Literal["rust", "python"]
BACKENDS: tuple[Backend, ...] = ("rust", "python")
# Each backend's modules besides one a game (the registry's): the tablebase functions.
EXTRA_MODULES = ("tablebase",)


def _choose() -> Backend:
    wanted = os.environ.get("PERFECTPLAY_BACKEND", "").strip().lower()
    if wanted not in ("", "rust", "python"):
        raise ImportError(f"PERFECTPLAY_BACKEND must be 'rust' or 'python', not {wanted!r}")
    if wanted == "python":
        return "python"
    try:
        core = importlib.import_module("perfectplay._core")
        if getattr(core, "__file__", None) is None:
            # Only the folder of its stubs: a namespace package, not the extension.
            raise ImportError("perfectplay._core is not built")
    except ImportError as missing:
        if wanted == "rust":
            raise ImportError(
                "PERFECTPLAY_BACKEND=rust but the compiled extension perfectplay._core is not "
                f"available ({missing}); build it with `pip install .`"
            ) from missing
        warnings.warn(
            "perfectplay: the compiled extension is not available, using the much slower "
            "pure-Python backend (set PERFECTPLAY_BACKEND=python to silence this warning)",
            RuntimeWarning,
            stacklevel=3,
        )
        return "python"
    return "rust"


BACKEND: Backend = _choose()


def implementation(game: str, backend: str = BACKEND) -> types.ModuleType:
    """The functions of one game from one backend, as attributes (``value``, ``solve``, ...):
    the module ``perfectplay._core.<game>`` or ``perfectplay._pure.<game>``."""
    from perfectplay._registry import GAMES

    if game not in GAMES and game not in EXTRA_MODULES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected 'rust' or 'python'")
    package = "perfectplay._pure" if backend == "python" else "perfectplay._core"
    return importlib.import_module(f"{package}.{game}")
