"""Rust against Python: the same answers and the same exception classes, on every board and on
random malformed input (hypothesis)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import outcome_of
from perfectplay import IllegalPosition
from tests_support import play

# Compares the backends with each other whatever PERFECTPLAY_BACKEND says.
pytestmark = pytest.mark.both_backends

ALL_BOARDS = ["".join(cells) for cells in itertools.product(".xo", repeat=9)]


def test_every_board_gets_the_same_answers(rust_ttt: Any, python_ttt: Any) -> None:
    """All 3^9 boards, legal or not: identical results or identical exception classes."""
    for board in ALL_BOARDS:
        for name in (
            "value",
            "outcome",
            "solve",
            "best_move",
            "analyze",
            "to_move",
            "is_reachable",
            "is_valid_final",
        ):
            rust = outcome_of(getattr(rust_ttt, name), board)
            python = outcome_of(getattr(python_ttt, name), board)
            assert rust == python, (name, board)


def rank(answer: tuple[int, int]) -> tuple[int, int]:
    """Orders (value, plies): higher value, then fewer plies when winning, more otherwise."""
    value, plies = answer
    return (value, -plies if value > 0 else plies)


def test_solutions_are_consistent_with_analyze(rust_ttt: Any) -> None:
    """value = max over analyze, best_moves = its argmax set, and the line plays out."""
    for board in ALL_BOARDS:
        if not rust_ttt.is_reachable(board):
            continue
        solution = rust_ttt.solve(board)
        moves = rust_ttt.analyze(board)
        if not moves:
            assert solution.best_moves == () and solution.line == () and solution.plies == 0
            continue

        top = max(rank(answer) for answer in moves.values())
        assert solution.value == top[0]
        assert solution.best_moves == tuple(m for m in sorted(moves) if rank(moves[m]) == top)
        assert solution.plies == moves[solution.best_moves[0]][1]
        final = play(board, solution.line)
        assert len(solution.line) == solution.plies
        assert rust_ttt.is_valid_final(final)
        expected = "draw" if solution.winner is None else solution.winner
        assert rust_ttt.outcome(final) == expected


def with_message(function: Any, *args: Any) -> tuple[str, Any]:
    """Like outcome_of, with the message too: batch errors name the same row and problem."""
    try:
        return ("ok", function(*args).tolist())
    except (ValueError, TypeError) as error:
        return ("raises", (type(error), str(error)))


# Random games: a prefix of a random permutation of the cells, stopping at the first line.
@st.composite
def legal_boards(draw: st.DrawFn) -> str:
    order = draw(st.permutations(range(9)))
    length = draw(st.integers(0, 9))
    board = "........."
    for cell in order[:length]:
        board = play(board, [cell])
        lines = [
            (0, 1, 2),
            (3, 4, 5),
            (6, 7, 8),
            (0, 3, 6),
            (1, 4, 7),
            (2, 5, 8),
            (0, 4, 8),
            (2, 4, 6),
        ]
        if any(board[a] == board[b] == board[c] != "." for a, b, c in lines):
            break
    return board


def to_form(board: str, form: int) -> Any:
    codes = [".xo".index(c) for c in board]
    return [
        board,
        board.upper().replace(".", "-"),
        "".join(map(str, codes)),
        " / ".join(board[i : i + 3] for i in (0, 3, 6)),
        codes,
        [codes[i : i + 3] for i in (0, 3, 6)],
        np.array(codes, dtype=np.int16),
        [board[i : i + 3] for i in (0, 3, 6)],
    ][form]


@settings(max_examples=1500, deadline=None)
@given(legal_boards(), st.integers(0, 7))
def test_random_legal_positions_in_every_form(
    rust_ttt: Any, python_ttt: Any, board: str, form: int
) -> None:
    given_board = to_form(board, form)
    for name in ("solve", "analyze", "value", "outcome", "to_move", "best_move"):
        assert getattr(rust_ttt, name)(given_board) == getattr(python_ttt, name)(given_board)
        assert getattr(rust_ttt, name)(given_board) == getattr(rust_ttt, name)(board)


cells = st.one_of(
    st.sampled_from(list("xXoO.-_012 /|,q")),
    st.integers(-3, 5),
    st.text(max_size=3),
    st.none(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.binary(max_size=2),
    st.integers(min_value=2**62, max_value=2**70),
)
junk = st.recursive(
    cells,
    lambda inner: st.lists(inner, max_size=10) | st.tuples(inner, inner, inner),
    max_leaves=30,
)
malformed = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="xo.012 /|,\n\t", max_size=20),
    st.lists(cells, min_size=0, max_size=12),
    st.lists(st.lists(cells, max_size=4), max_size=4),
    junk,
    st.binary(max_size=12),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@settings(max_examples=1500, deadline=None)
@given(malformed)
def test_random_malformed_input_raises_the_same_class(
    rust_ttt: Any, python_ttt: Any, board: Any
) -> None:
    for name in ("value", "solve", "is_reachable", "analyze"):
        rust = outcome_of(getattr(rust_ttt, name), board)
        python = outcome_of(getattr(python_ttt, name), board)
        assert rust == python, name


def test_huge_strings_are_rejected_quickly(rust_ttt: Any, python_ttt: Any) -> None:
    for board in ("x" * 10**6, "." * 9 + "é" * 10**5, " " * 10**6):
        for api in (rust_ttt, python_ttt):
            with pytest.raises(ValueError):
                api.value(board)


@settings(max_examples=200, deadline=None)
@given(st.lists(legal_boards(), max_size=40))
def test_batches_equal_single_calls(rust_ttt: Any, python_ttt: Any, boards: list[str]) -> None:
    codes = np.array([[".xo".index(c) for c in b] for b in boards], dtype=np.uint8).reshape(-1, 9)
    singles = [rust_ttt.value(b) for b in boards]
    moves = [-1 if (m := rust_ttt.best_move(b)) is None else m for b in boards]
    for api in (rust_ttt, python_ttt):
        assert api.batch_values(codes).tolist() == singles
        assert api.batch_values(boards).tolist() == singles
        assert api.batch_best_move(codes).tolist() == moves
        assert api.batch_best_move(codes.reshape(-1, 3, 3)).tolist() == moves


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 3), min_size=9, max_size=9), min_size=1, max_size=20),
    st.sampled_from([np.uint8, np.int8, np.int32, np.int64, np.uint64]),
)
def test_batches_fail_alike(
    rust_ttt: Any, python_ttt: Any, rows: list[list[int]], dtype: Any
) -> None:
    array = np.array(rows, dtype=dtype)
    for name in ("batch_values", "batch_best_move"):
        rust = with_message(getattr(rust_ttt, name), array)
        python = with_message(getattr(python_ttt, name), array)
        assert rust == python


def test_illegal_position_is_a_value_error_on_both_backends(rust_ttt: Any, python_ttt: Any) -> None:
    for api in (rust_ttt, python_ttt):
        with pytest.raises(IllegalPosition) as raised:
            api.value("xxx/oo./o..")
        assert isinstance(raised.value, ValueError) and type(raised.value) is IllegalPosition
