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


def implementation(name: str, backend: str = BACKEND) -> types.ModuleType:
    """The functions of one game (or of one of its parts, such as ``"mnk.tablebase"``) from one
    backend, as attributes (``value``, ``solve``, ...): the compiled module
    ``perfectplay._core.<last part of name>`` or the twin ``perfectplay.<name>.twin``."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected 'rust' or 'python'")
    if not isinstance(name, str) or not all(part.isidentifier() for part in name.split(".")):
        raise ValueError(f"unknown game {name!r}")
    module = (
        f"perfectplay.{name}.twin"
        if backend == "python"
        else f"perfectplay._core.{name.rpartition('.')[2]}"
    )
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name is not None and module.startswith(missing.name):
            raise ValueError(f"unknown game {name!r}") from None
        raise
