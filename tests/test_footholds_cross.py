"""Footholds: the fast Rust search, the plain Rust backtracking and the Python twin agree on
random boards; the line is a legal game; malformed input raises the same class on both."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from hypothesis import given, settings

from conformance import footholds_positions
from tests_support import footholds_replay

# Compares the backends with each other whatever PERFECTPLAY_BACKEND says.
pytestmark = pytest.mark.both_backends


@pytest.mark.testing_core
@settings(max_examples=2000, deadline=None)
@given(footholds_positions())
def test_three_solvers_agree(
    rust_footholds: Any,
    python_footholds: Any,
    plain_core: Any,
    game: tuple[list[list[int]], Any, Any],
) -> None:
    board, a, b = game
    fast = rust_footholds.solve(board, a, b)
    value, plies, best = plain_core.backtrack_footholds(board, a, b)
    python = python_footholds.solve(board, a, b)
    assert (fast.value, fast.plies, fast.best_moves) == (value, plies, tuple(best))
    assert fast == python
    assert rust_footholds.total_moves(board, a, b) == plies
    loser, played = footholds_replay(board, a, b, fast.line)
    assert played == fast.plies
    assert loser != fast.winner


@pytest.mark.testing_core
@settings(max_examples=300, deadline=None)
@given(footholds_positions(max_side=5))
def test_fast_search_agrees_with_backtracking_up_to_5x5(
    rust_footholds: Any, plain_core: Any, game: tuple[list[list[int]], Any, Any]
) -> None:
    board, a, b = game
    fast = rust_footholds.solve(board, a, b)
    value, plies, best = plain_core.backtrack_footholds(board, a, b)
    assert (fast.value, fast.plies, fast.best_moves) == (value, plies, tuple(best))


SYMMETRIC_BOARDS = [
    # Every rotation and reflection keeps these footholds: the Rust search solves each class of
    # mirrored placements once and turns the answer; the twin solves every placement as given.
    "1111/1111/1111/1111",
    "1111/1001/1001/1111",
    # Only the two flips and their product.
    "11011/11111/11011",
]


def test_mirrored_placements_get_mirrored_answers(
    rust_footholds: Any, python_footholds: Any
) -> None:
    for text in SYMMETRIC_BOARDS:
        board = [[int(c) for c in row] for row in text.split("/")]
        cells = [(r, c) for r, row in enumerate(board) for c, on in enumerate(row) if on]
        # Largest first, so most placements meet a mirror image solved before them.
        for a in reversed(cells):
            for b in reversed(cells):
                fast = rust_footholds.solve(board, a, b)
                assert fast == python_footholds.solve(board, a, b), (text, a, b)
                assert rust_footholds.total_moves(board, a, b) == fast.plies
                assert footholds_replay(board, a, b, fast.line)[1] == fast.plies


def test_eight_threads_agree_with_one(rust_footholds: Any) -> None:
    board = [[1] * 5 for _ in range(5)]
    placements = [((r, c), (4 - c, r)) for r in range(5) for c in range(5)]
    expected = [rust_footholds.solve(board, a, b) for a, b in placements]
    results: list[list[Any]] = []

    def run() -> None:
        results.append([rust_footholds.solve(board, a, b) for a, b in placements])

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 8
