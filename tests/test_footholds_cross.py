"""Footholds: the fast Rust search, the plain Rust backtracking and the Python twin agree on
random boards; the line is a legal game; malformed input raises the same class on both."""

from __future__ import annotations

import threading
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay._core import _testing
from tests_support import footholds_replay


@st.composite
def games(draw: st.DrawFn, max_side: int = 4) -> tuple[list[list[int]], Any, Any]:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    board = [[draw(st.sampled_from([1, 1, 1, 0])) for _ in range(cols)] for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]]
    if not cells:
        board[0][0] = 1
        cells = [(0, 0)]
    return board, draw(st.sampled_from(cells)), draw(st.sampled_from(cells))


@settings(max_examples=2000, deadline=None)
@given(games())
def test_three_solvers_agree(
    rust_footholds: Any, python_footholds: Any, game: tuple[list[list[int]], Any, Any]
) -> None:
    board, a, b = game
    fast = rust_footholds.solve(board, a, b)
    value, plies, best = _testing.backtrack_footholds(board, a, b)
    python = python_footholds.solve(board, a, b)
    assert (fast.value, fast.plies, fast.best_moves) == (value, plies, tuple(best))
    assert fast == python
    assert rust_footholds.total_moves(board, a, b) == plies
    loser, played = footholds_replay(board, a, b, fast.line)
    assert played == fast.plies
    assert loser != fast.winner


@settings(max_examples=300, deadline=None)
@given(games(max_side=5))
def test_fast_search_agrees_with_backtracking_up_to_5x5(
    rust_footholds: Any, game: tuple[list[list[int]], Any, Any]
) -> None:
    board, a, b = game
    fast = rust_footholds.solve(board, a, b)
    value, plies, best = _testing.backtrack_footholds(board, a, b)
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


junk = st.recursive(
    st.one_of(
        st.integers(-2, 3),
        st.booleans(),
        st.none(),
        st.text(max_size=3),
        st.floats(allow_nan=False),
        st.binary(max_size=2),
    ),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=20,
)
locations = st.one_of(st.tuples(st.integers(-1, 4), st.integers(-1, 4)), junk)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(junk, st.text(alphabet="01/\n x2", max_size=20)), locations, locations)
def test_malformed_input_raises_the_same_class(
    rust_footholds: Any, python_footholds: Any, board: Any, a: Any, b: Any
) -> None:
    def outcome(api: Any) -> Any:
        try:
            return ("ok", api.solve(board, a, b))
        except (ValueError, TypeError) as error:
            return ("raises", type(error))

    assert outcome(rust_footholds) == outcome(python_footholds)


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
