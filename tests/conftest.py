"""Shared fixtures: every API test runs on each backend under test.

By default both backends are tested; ``PERFECTPLAY_BACKEND=rust|python`` narrows the API tests
to that one. Tests that compare the backends with each other always use both.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from perfectplay._kernel.backend import BACKENDS, implementation

# kaggle-environments pins its own Gymnasium and OpenSpiel, so its tests run in a virtual
# environment of their own (CI's kaggle-environments step, which installs it): they are
# collected only where it is installed.
if importlib.util.find_spec("kaggle_environments") is None:
    collect_ignore = ["kaggle"]

DATA = Path(__file__).parent / "data"

_chosen = os.environ.get("PERFECTPLAY_BACKEND", "").strip().lower()
BACKENDS_UNDER_TEST = (_chosen,) if _chosen in BACKENDS else BACKENDS


def load_jsonl(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def load_json(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as file:
        return json.load(file)


@pytest.fixture(params=BACKENDS_UNDER_TEST)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def ttt(backend: str) -> Any:
    """The tic-tac-toe functions of the backend under test."""
    return implementation("tictactoe", backend)


@pytest.fixture(scope="session")
def rust_ttt() -> Any:
    return implementation("tictactoe", "rust")


@pytest.fixture(scope="session")
def python_ttt() -> Any:
    return implementation("tictactoe", "python")


@pytest.fixture
def footholds(backend: str) -> Any:
    """The footholds functions of the backend under test."""
    return implementation("footholds", backend)


@pytest.fixture(scope="session")
def rust_footholds() -> Any:
    return implementation("footholds", "rust")


@pytest.fixture(scope="session")
def python_footholds() -> Any:
    return implementation("footholds", "python")


@pytest.fixture
def mnk(backend: str) -> Any:
    """The m,n,k functions of the backend under test."""
    return implementation("mnk", backend)


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks ``each_backend`` every test run once a backend under test (through the
    ``backend`` fixture): a run of both backends has run its twin's case already."""
    if "backend" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.each_backend)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests of the test-only core, selected on a core built without it: say how to build it."""
    if not any(item.get_closest_marker("testing_core") for item in items):
        return
    try:
        from perfectplay._core import _testing  # noqa: F401
    except ImportError as error:
        raise pytest.UsageError(
            "tests marked testing_core need the core built with the testing feature: "
            "python -m pip install -e . --config-settings=build-args=--features=testing "
            "(or deselect them: -m 'not testing_core')"
        ) from error


@pytest.fixture(scope="session")
def plain_core() -> Any:
    """``perfectplay._core._testing``: the plain reference searches of a core built with the
    ``testing`` feature (tests that use it are marked ``testing_core``)."""
    from perfectplay._core import _testing

    return _testing


@pytest.fixture(scope="session")
def rust_mnk() -> Any:
    return implementation("mnk", "rust")


@pytest.fixture(scope="session")
def python_mnk() -> Any:
    return implementation("mnk", "python")


@pytest.fixture
def sigint_handled() -> Iterator[None]:
    """Python's own Ctrl-C handler for the test: a run started in the background of a
    non-interactive shell inherits SIGINT ignored, and then no KeyboardInterrupt ever comes."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def c4(backend: str) -> Any:
    """The Connect Four functions of the backend under test."""
    return implementation("connect4", backend)
