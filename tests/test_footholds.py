"""Disappearing footholds on each backend: the shared cases, edge cases as small ASCII boards,
the line as a playable game, every error, node limits and interruption."""

from __future__ import annotations

import _thread
import threading
from typing import Any

import pytest

from conftest import load_jsonl
from perfectplay import SearchLimitExceeded, Solution
from tests_support import footholds_replay, in_fresh_thread

CASES = load_jsonl("footholds.jsonl")


def grid(text: str) -> list[list[int]]:
    """A board drawn with '#' for footholds and '.' for holes, one row a line."""
    return [[1 if c == "#" else 0 for c in row.strip()] for row in text.strip().splitlines()]


def test_shared_cases(footholds: Any) -> None:
    for case in CASES:
        moves = footholds.total_moves(case["board"], case["aloc"], case["bloc"])
        assert moves == case["moves"], case


def test_judge_examples(footholds: Any) -> None:
    full = [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
    assert footholds.solve(full, (1, 0), (1, 2)) == Solution(
        1, "A", 5, ((1, 1),), ((1, 1), (0, 2), (0, 1), (0, 1), (0, 0))
    )
    assert footholds.total_moves([[1, 1, 1], [1, 0, 1], [1, 1, 1]], [1, 0], [1, 2]) == 4
    assert footholds.total_moves([[1, 1, 1, 1, 1]], (0, 0), (0, 4)) == 4
    assert footholds.total_moves([[1]], (0, 0), (0, 0)) == 0


# (board, A, B, winner, total moves, A's best first moves), the board as '#' footholds.
EDGE_CASES = [
    ("#", (0, 0), (0, 0), "B", 0, ()),  # 1x1: A cannot move at all
    ("##", (0, 0), (0, 0), "A", 1, ((0, 1),)),  # both on one cell: A steps off, B falls
    ("###", (0, 1), (0, 1), "A", 1, ((0, 0), (0, 2))),  # either way strands B
    (
        """
        ###
        ###
        ###
        """,
        (1, 1),
        (1, 1),
        "A",
        1,
        ((0, 1), (1, 0), (1, 2), (2, 1)),
    ),  # in the open, sharing a cell is an instant win for the mover
    ("##.##", (0, 0), (0, 4), "B", 2, ((0, 1),)),  # 1xn strips split by a hole
    ("#####", (0, 0), (0, 4), "B", 4, ((0, 1),)),  # they meet in the middle
    ("####", (0, 0), (0, 3), "A", 3, ((0, 1),)),  # A reaches the middle first
    ("#.##", (0, 0), (0, 2), "B", 0, ()),  # A's start has no neighbours
    (
        """
        #.##
        #.##
        """,
        (0, 0),
        (0, 2),
        "B",
        2,
        ((1, 0),),  # isolated regions: 1 step against 3
    ),
    (
        """
        ##.##
        ##.#.
        """,
        (0, 0),
        (0, 3),
        "A",
        3,
        ((0, 1), (1, 0)),  # isolated regions: 3 steps against 1
    ),
]


@pytest.mark.parametrize(("board", "a", "b", "winner", "plies", "best"), EDGE_CASES)
def test_edge_cases(
    footholds: Any, board: str, a: Any, b: Any, winner: str, plies: int, best: tuple[Any, ...]
) -> None:
    cells = grid(board)
    solution = footholds.solve(cells, a, b)
    assert (solution.winner, solution.plies, solution.best_moves) == (winner, plies, best)
    assert solution.value == (1 if winner == "A" else -1)
    assert footholds.total_moves(cells, a, b) == plies
    loser, played = footholds_replay(cells, a, b, solution.line)
    assert played == plies
    assert loser != winner


def test_line_is_a_legal_game_on_every_shared_case(footholds: Any) -> None:
    for case in CASES[::5]:
        solution = footholds.solve(case["board"], case["aloc"], case["bloc"])
        loser, played = footholds_replay(case["board"], case["aloc"], case["bloc"], solution.line)
        assert played == solution.plies == case["moves"]
        assert {loser, solution.winner} == {"A", "B"}


def test_a_full_5x5_board(footholds: Any) -> None:
    board = [[1] * 5 for _ in range(5)]
    solution = footholds.solve(board, (0, 0), (4, 4))
    assert footholds_replay(board, (0, 0), (4, 4), solution.line)[1] == solution.plies
    assert solution.plies == footholds.total_moves("11111/11111/11111/11111/11111", [0, 0], [4, 4])


EQUIVALENT_BOARDS: list[Any] = [
    [[1, 1, 1], [1, 0, 1], [1, 1, 1]],
    [[True, True, True], [True, False, True], [True, True, True]],
    ((1, 1, 1), (1, 0, 1), (1, 1, 1)),
    "111/101/111",
    "111\n101\n111\n",
    "1 1 1 | 1 0 1 | 1 1 1".replace("|", "/"),
    ["111", "101", "111"],
    [["1", "1", "1"], ["1", "0", "1"], ["1", "1", "1"]],
]


@pytest.mark.parametrize("board", EQUIVALENT_BOARDS, ids=repr)
def test_board_forms(footholds: Any, board: Any) -> None:
    assert footholds.total_moves(board, (1, 0), (1, 2)) == 4


MALFORMED = [
    (([[1, 1], [1]], (0, 0), (0, 1)), ValueError, "different lengths"),
    (([[1, 2], [1, 1]], (0, 0), (0, 1)), ValueError, "cell value 2 is not 0 or 1"),
    (("11/1x", (0, 0), (0, 1)), ValueError, "unknown symbol 'x'"),
    (([], (0, 0), (0, 0)), ValueError, "empty"),
    (([[]], (0, 0), (0, 0)), ValueError, "empty"),
    (("", (0, 0), (0, 0)), ValueError, "empty"),
    (([[1] * 9] * 8, (0, 0), (0, 1)), ValueError, "72 cells; at most 64"),
    (([[1, 1], [1, 1]], (2, 0), (0, 1)), ValueError, "aloc (2, 0) is off the 2x2 board"),
    (([[1, 1], [1, 1]], (0, 0), (0, -1)), ValueError, "bloc (0, -1) is off"),
    (([[1, 0], [1, 1]], (0, 0), (0, 1)), ValueError, "bloc (0, 1) is on a hole"),
    (([[1, 1], [1, 1]], (0, 0, 0), (0, 1)), ValueError, "aloc must be a (row, col) pair"),
    (([[1, 1], [1, 1]], (0, 10**30), (0, 1)), ValueError, "off the 2x2 board"),
    (([[1, 1], [1, 1]], None, (0, 1)), TypeError, "aloc must be a (row, col) pair, not NoneType"),
    (([[1, 1], [1, 1]], "00", (0, 1)), TypeError, "not str"),
    (([[1, 1], [1, 1]], (0, 0), (0.0, 1)), TypeError, "bloc must hold ints, not float"),
    (([[1, 1], [1, 1]], (0, 0), (False, 1)), TypeError, "bloc must hold ints, not bool"),
    ((None, (0, 0), (0, 1)), TypeError, "board must be a str or a sequence"),
    (([[1, 1], None], (0, 0), (0, 1)), TypeError, "row must be"),
    (([[1, 1.0], [1, 1]], (0, 0), (0, 1)), TypeError, "cell must be"),
    ((b"11/11", (0, 0), (0, 1)), TypeError, "not bytes"),
]


@pytest.mark.parametrize(("args", "error", "words"), MALFORMED, ids=lambda v: repr(v)[:40])
def test_malformed_input(
    footholds: Any, args: tuple[Any, ...], error: type[Exception], words: str
) -> None:
    for query in (footholds.solve, footholds.total_moves):
        with pytest.raises(error) as raised:
            query(*args)
        assert words in str(raised.value)


def test_node_limit(footholds: Any) -> None:
    board = [[1] * 5 for _ in range(5)]
    # In a fresh thread: a thread that has solved this placement (or a mirror image of it)
    # answers from what it kept, without a search for the limit to stop.
    with pytest.raises(SearchLimitExceeded, match="node_limit=10"):
        in_fresh_thread(lambda: footholds.solve(board, (0, 0), (4, 4), node_limit=10))
    with pytest.raises(SearchLimitExceeded):
        in_fresh_thread(lambda: footholds.total_moves(board, (0, 0), (4, 4), node_limit=1))
    # A steps onto B's cell; B, stranded there, cannot move.
    assert footholds.total_moves("11", (0, 0), (0, 1), node_limit=10**30) == 1
    for bad, error in (
        (0, ValueError),
        (-5, ValueError),
        (1.5, TypeError),
        ("9", TypeError),
        (True, TypeError),
    ):
        with pytest.raises(error):
            footholds.total_moves(board, (0, 0), (4, 4), node_limit=bad)


@pytest.mark.usefixtures("sigint_handled")
def test_a_long_search_is_interrupted_by_ctrl_c(rust_footholds: Any) -> None:
    """A SIGINT arriving while the GIL is released stops the search with KeyboardInterrupt."""
    board = [[1] * 8 for _ in range(8)]
    timer = threading.Timer(0.1, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # One of the hardest 8x8 placements: about a second of search, far more than 0.1 s;
            # the node limit keeps a failure from hanging.
            rust_footholds.solve(board, (1, 2), (7, 7), node_limit=10**9)
    finally:
        timer.cancel()
