"""Backend choice (PERFECTPLAY_BACKEND) and the public package surface."""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys

import pytest

import perfectplay
from perfectplay._kernel import backend as _backend

# Runs a snippet in a fresh interpreter where importing perfectplay._core fails.
HIDE_CORE = """
import sys
class HideCore:
    def find_spec(self, name, path=None, target=None):
        if name == "perfectplay._core":
            raise ImportError("hidden for the test")
sys.meta_path.insert(0, HideCore())
"""


def run_python(code: str, backend: str | None, hide_core: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PERFECTPLAY_BACKEND"}
    if backend is not None:
        env["PERFECTPLAY_BACKEND"] = backend
    source = (HIDE_CORE if hide_core else "") + code
    return subprocess.run(
        [sys.executable, "-W", "default", "-c", source], env=env, capture_output=True, text=True
    )


def test_rust_is_chosen_when_built() -> None:
    result = run_python("import perfectplay; print(perfectplay.BACKEND)", None, hide_core=False)
    assert result.stdout.strip() == "rust"
    assert result.stderr == ""


def test_python_can_be_forced() -> None:
    result = run_python("import perfectplay; print(perfectplay.BACKEND)", "python", False)
    assert result.stdout.strip() == "python"
    assert result.stderr == ""


def test_missing_extension_falls_back_with_one_warning() -> None:
    code = (
        "import perfectplay; print(perfectplay.BACKEND, perfectplay.tictactoe.value('.........'))"
    )
    result = run_python(code, None, hide_core=True)
    assert result.stdout.strip() == "python 0"
    assert result.stderr.count("RuntimeWarning") == 1


def test_rust_demanded_but_missing_is_an_import_error() -> None:
    result = run_python("import perfectplay", "rust", hide_core=True)
    assert result.returncode != 0
    assert "ImportError: PERFECTPLAY_BACKEND=rust" in result.stderr


def test_unknown_backend_is_an_import_error() -> None:
    result = run_python("import perfectplay", "java", hide_core=False)
    assert "PERFECTPLAY_BACKEND must be 'rust' or 'python'" in result.stderr


POSITION = {"Position"}


#: The functions a given ``tablebase=`` answers: m,n,k's wrap the backend's own, which they
#: call when none is given.
TABLE_ANSWERED = {
    "mnk": {"solve", "solve_empty", "analyze", "ranked_moves", "best_move", "batch_solve"}
}


def test_public_functions_come_from_the_chosen_backend() -> None:
    """Every public function is the chosen backend's own function, no wrapper between; but
    ``batch_solve``, which first turns a list of positions into rows (one isinstance check for
    any other input), and m,n,k's functions a tablebase answers (one look for ``tablebase=``),
    which then call the backend's own."""
    for game in perfectplay.GAMES:
        chosen = _backend.implementation(game, perfectplay.BACKEND)
        module = getattr(perfectplay, game)
        wrapped = TABLE_ANSWERED.get(game, set()) | {"batch_solve"}
        above = set(getattr(module, "ABOVE_BACKENDS", ()))
        for name in set(module.__all__) - POSITION - wrapped - above:
            assert getattr(module, name) is getattr(chosen, name), f"{game}.{name}"
        for name in wrapped:
            function = getattr(module, name)
            while function is not getattr(chosen, name):
                function = function.__wrapped__  # an AttributeError once past the backend's
        # Position is the public module's own class, answering through those functions.
        assert module.Position.__module__ == module.__name__


def test_both_backends_offer_the_same_functions() -> None:
    for game in perfectplay.GAMES:
        rust = {n for n in vars(_backend.implementation(game, "rust")) if not n.startswith("_")}
        module = getattr(perfectplay, game)
        public = set(module.__all__) - POSITION - set(getattr(module, "ABOVE_BACKENDS", ()))
        assert rust == public
        python = _backend.implementation(game, "python")
        assert all(callable(getattr(python, name)) for name in public)


@pytest.mark.compiled
@pytest.mark.parametrize("module", ["tictactoe", "mnk", "connect4", "footholds", "mnk.tablebase"])
def test_the_core_takes_the_twins_arguments(module: str) -> None:
    # The core's stubs re-export the twin's signatures, so a type checker reads the twin's: each
    # compiled function must take the same parameters, of the same kinds, with the same defaults.
    core = importlib.import_module(f"perfectplay._core.{module.rpartition('.')[2]}")
    twin = importlib.import_module(f"perfectplay.{module}.twin")
    assert sorted(core.__all__) == sorted(twin.__all__)
    for name in twin.__all__:
        compiled = inspect.signature(getattr(core, name)).parameters.values()
        pure = inspect.signature(getattr(twin, name)).parameters.values()
        assert [(p.name, p.kind, p.default) for p in compiled] == [
            (p.name, p.kind, p.default) for p in pure
        ], f"{module}.{name}"


@pytest.mark.parametrize("game", ["tictactoe", "mnk", "connect4", "footholds"])
def test_each_game_module_exports_its_twins_functions_and_position(game: str) -> None:
    public = importlib.import_module(f"perfectplay.{game}")
    twin = importlib.import_module(f"perfectplay.{game}.twin")
    above = getattr(public, "ABOVE_BACKENDS", ())
    assert sorted(public.__all__) == sorted(["Position", *twin.__all__, *above])
    backend = _backend.implementation(game)
    for name in twin.__all__:
        function = getattr(public, name)
        # batch_solve is wrapped (it also takes Positions), and so are m,n,k's functions a
        # tablebase answers; the rest are the backend's own.
        while hasattr(function, "__wrapped__"):
            function = function.__wrapped__
        assert function is getattr(backend, name), name
