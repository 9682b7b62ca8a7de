"""m,n,k: the Rust search against the Python twin and the plain exhaustive search on random
legal positions of boards up to 4x4; malformed input raises the same class on both."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from conformance import mnk_positions

# Compares the backends with each other whatever PERFECTPLAY_BACKEND says, and with the plain
# search of the test-only core.
pytestmark = [pytest.mark.both_backends, pytest.mark.testing_core]


@settings(max_examples=1500, deadline=None)
@given(mnk_positions())
def test_rust_python_and_exhaustive_agree(
    rust_mnk: Any, python_mnk: Any, plain_core: Any, position: tuple[str, int]
) -> None:
    board, k = position
    rust = rust_mnk.solve(board, k)
    assert rust == python_mnk.solve(board, k)
    value, plies, best = plain_core.exhaustive_mnk(board, k)
    assert (rust.value, rust.plies, rust.best_moves) == (value, plies, tuple(best))
    assert rust_mnk.analyze(board, k) == python_mnk.analyze(board, k)
    # The weak search alone, as mnk.value runs it where the prover finds no proof.
    assert rust_mnk.search_value(board, k) == python_mnk.search_value(board, k) == value
