"""The walkthrough of ``docs/guides/new-game.md``, built and run: the project is copied, every
block of the page is written into the copy (a diff applied with ``git apply``), the Rust
core is built with the fifth game, and the game's own tests and the shared layers run on it.
So CONTRIBUTING's list of what a new game touches is checked, and the page cannot go stale."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# It builds the Rust core (about a minute the first time): once, in the README's test run.
pytestmark = [pytest.mark.compiled, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guides" / "new-game.md"
BLOCK = re.compile(r'^```(\w+) title="([^"]+)"\n(.*?)^```$', re.DOTALL | re.MULTILINE)

#: What CONTRIBUTING.md says a new game touches: its Rust folder (and the line naming it), its
#: binding file (and the lines registering it), its Python package and stub, one registry
#: line, its tests.
TOUCHED = {
    "rust/games/kayles/mod.rs",
    "rust/games/mod.rs",
    "rust/py/kayles.rs",
    "rust/py/mod.rs",
    "python/perfectplay/kayles/twin.py",
    "python/perfectplay/kayles/__init__.py",
    "python/perfectplay/kayles/game.py",
    "python/perfectplay/_core/kayles.pyi",
    "python/perfectplay/_registry.py",
    "tests/test_kayles.py",
}


def blocks() -> list[tuple[str, str, str]]:
    """The page's titled blocks: (language, path, text)."""
    return BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_the_walkthrough_touches_only_what_contributing_lists() -> None:
    paths = [path for _, path, _ in blocks()]
    assert sorted(paths) == sorted(TOUCHED)
    diffs = {path: text for language, path, text in blocks() if language == "diff"}
    assert set(diffs) == {"rust/games/mod.rs", "rust/py/mod.rs", "python/perfectplay/_registry.py"}
    added = {
        path: [line for line in text.splitlines() if line.startswith("+") and line[1:2] != "+"]
        for path, text in diffs.items()
    }
    # The registry: the game's name and the module describing it, in the one list of games.
    assert len(added["python/perfectplay/_registry.py"]) == 1
    assert len(added["rust/games/mod.rs"]) == 1 and len(added["rust/py/mod.rs"]) == 2
    assert "CONTRIBUTING" in PAGE.read_text(encoding="utf-8")


def run(command: list[str], cwd: Path, **env: str) -> str:
    result = subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project with the page's game, its core built (debug) into the copy's package."""
    if shutil.which("cargo") is None or shutil.which("git") is None:
        pytest.fail("the walkthrough's build needs cargo and git on PATH")
    copy = tmp_path_factory.mktemp("walkthrough")
    for name in ("Cargo.toml", "Cargo.lock", "build.rs"):
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "rust", copy / "rust")
    ignored = shutil.ignore_patterns("_core*.so", "__pycache__")
    shutil.copytree(ROOT / "python", copy / "python", ignore=ignored)
    (copy / "tests").mkdir()
    for language, path, text in blocks():
        if language == "diff":
            (copy / "change.diff").write_text(text + "\n")
            run(["git", "apply", "--whitespace=error", "change.diff"], copy)
        else:
            (copy / path).parent.mkdir(parents=True, exist_ok=True)
            (copy / path).write_text(text + "\n")
    # The project's own target folder keeps the dependencies built between runs.
    target = str(ROOT / "target" / "walkthrough")
    for command in (["test", "--no-default-features", "--lib", "kayles"], ["build", "--lib"]):
        run(["cargo", "-q", *command], copy, CARGO_TARGET_DIR=target)
    shutil.copy(Path(target) / "debug" / "lib_core.so", copy / "python/perfectplay/_core.abi3.so")
    return copy


def test_the_new_game_passes_its_own_tests(built: Path) -> None:
    out = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_kayles.py"],
        built,
        PYTHONPATH=str(built / "python"),
        PERFECTPLAY_BACKEND="rust",
    )
    assert "passed" in out and "failed" not in out


SHARED_LAYERS = """
import subprocess, sys
import numpy as np
import dask.array as da
import perfectplay
from perfectplay import GAMES, agents, kayles
from perfectplay import dask as perfect_dask
from perfectplay.gym import GameEnv

assert perfectplay.__file__.startswith(sys.argv[1]), perfectplay.__file__
assert perfectplay.kayles is kayles and GAMES["kayles"].title == "Node Kayles"
# The agents play it to the end, as the solution says it ends.
start = GAMES["kayles"].start()
position = start
while not position.is_over:
    position = position.play(agents.PerfectAgent(seed=1).move(position))
assert position.winner == start.solve().winner
# Batches: the module, Dask and the command line label the same boards alike.
boards = np.zeros((4, 3, 4), np.uint8)
boards[1, 0, 0] = boards[2, 1, 1] = boards[3, 2, 3] = 1
want = kayles.batch_solve(boards)
labels = perfect_dask.batch_solve(da.from_array(boards, chunks=2), "kayles")
assert np.array_equal(labels["value"].compute(), want.value)
np.save("boards.npy", boards)
command = [sys.executable, "-m", "perfectplay", "label", "kayles", "boards.npy", "-o", "out.npz"]
subprocess.run(command, check=True)
assert np.array_equal(np.load("out.npz")["plies"], want.plies)
# Gymnasium: an episode against the perfect agent.
env = GameEnv("kayles", play_as="first", seed=1)
observation, info = env.reset(seed=1)
done = False
while not done:
    action = int(np.flatnonzero(info["action_mask"])[0])
    observation, reward, done, truncated, info = env.step(action)
# The board: its API answers a position of the game as the module does.
from starlette.testclient import TestClient
from perfectplay.web import create_app

with TestClient(create_app(workers=1)) as client:
    answer = client.get("/api/analyze", params={"game": "kayles", "moves": "5"}).json()
    here = start.play(start.move(5))
    assert {tuple(m["move"]): (m["value"], m["plies"]) for m in answer["moves"]} == here.analyze()
# The terminal game lists it.
command = [sys.executable, "-m", "perfectplay", "play", "--help"]
assert "kayles" in subprocess.run(command, check=True, capture_output=True, text=True).stdout
print("shared layers: ok")
"""


def test_every_shared_layer_takes_it(built: Path) -> None:
    for backend in ("rust", "python"):
        out = run(
            [sys.executable, "-c", SHARED_LAYERS, str(built / "python")],
            built,
            PYTHONPATH=str(built / "python"),
            PERFECTPLAY_BACKEND=backend,
        )
        assert "shared layers: ok" in out
