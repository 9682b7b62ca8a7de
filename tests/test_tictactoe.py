"""Tic-tac-toe on each backend: the shared cases, the game's known facts, boards written as
small ASCII grids with their expected answers, every input form, and every error."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pytest

from conftest import load_jsonl
from perfectplay import IllegalPosition, Solution
from tests_support import play

CASES = load_jsonl("tictactoe.jsonl")


def all_boards() -> list[str]:
    return ["".join(cells) for cells in itertools.product(".xo", repeat=9)]


def test_shared_cases(ttt: Any) -> None:
    for case in CASES:
        board = case["board"]
        assert ttt.is_reachable(board) is case["reachable"], board
        assert ttt.is_valid_final(board) is case["valid_final"], board
        if case["reachable"]:
            assert ttt.to_move(board) == (None if case["valid_final"] else case["to_move"]), board
            assert ttt.value(board) == case["value"], board
            assert ttt.outcome(board) == case["outcome"], board
        else:
            with pytest.raises(IllegalPosition):
                ttt.value(board)


def test_counts_of_legal_and_final_positions(ttt: Any) -> None:
    legal = [board for board in all_boards() if ttt.is_reachable(board)]
    assert len(legal) == 5478
    final = [board for board in legal if ttt.is_valid_final(board)]
    assert len(final) == 958
    winners = [ttt.outcome(board) for board in final]
    assert (winners.count("x"), winners.count("o"), winners.count("draw")) == (626, 316, 16)


def test_empty_board_is_a_draw_in_nine_with_every_move_best(ttt: Any) -> None:
    solution = ttt.solve(".........")
    assert solution == Solution(0, None, 9, tuple(range(9)), solution.line)
    assert len(solution.line) == 9
    assert ttt.analyze(".........") == {cell: (0, 9) for cell in range(9)}
    assert ttt.to_move(".........") == "x"


# Boards as the game shows them, with the answer beside them:
# (board, to_move, value, outcome, plies, best_moves)
ASCII_CASES = [
    (
        """
        x x .
        o o .
        . . .
        """,
        "x",
        1,
        "x",
        1,
        (2,),  # X completes the top row at once
    ),
    (
        """
        x x .
        o o .
        x . .
        """,
        "o",
        1,
        "o",
        1,
        (5,),  # O to move wins first, although X threatens too
    ),
    (
        """
        x . .
        . o .
        . . x
        """,
        "o",
        0,
        "draw",
        6,
        (1, 3, 5, 7),  # O must take an edge, never a corner
    ),
    (
        """
        x . .
        . . .
        . . .
        """,
        "o",
        0,
        "draw",
        8,
        (4,),  # only the centre answers a corner opening
    ),
    (
        """
        x . .
        . . .
        . . o
        """,
        "x",
        1,
        "x",
        5,
        (2, 6),  # the other corners win fastest: a double threat at ply 3
    ),
    (
        """
        x o x
        o x o
        . . .
        """,
        "x",
        1,
        "x",
        1,
        (6, 8),  # both corners complete a diagonal
    ),
    (
        """
        x x x
        o o .
        . . .
        """,
        None,
        -1,
        "x",
        0,
        (),  # final: X has won, O (to move) has lost
    ),
    (
        """
        x o x
        x o o
        o x x
        """,
        None,
        0,
        "draw",
        0,
        (),  # full board, no line
    ),
    (
        """
        x o x
        o x o
        x o x
        """,
        None,
        -1,
        "x",
        0,
        (),  # the last move made two lines at once
    ),
]


@pytest.mark.parametrize(("board", "to_move", "value", "outcome", "plies", "best"), ASCII_CASES)
def test_ascii_boards(
    ttt: Any,
    board: str,
    to_move: str | None,
    value: int,
    outcome: str,
    plies: int,
    best: tuple[int, ...],
) -> None:
    assert ttt.to_move(board) == to_move
    assert ttt.value(board) == value
    assert ttt.outcome(board) == outcome
    solution = ttt.solve(board)
    assert (solution.value, solution.plies, solution.best_moves) == (value, plies, best)
    assert solution.winner == (None if outcome == "draw" else outcome)
    assert ttt.best_move(board) == (best[0] if best else None)
    assert len(solution.line) == plies


def test_analyze_counts_the_move_itself(ttt: Any) -> None:
    # X to move: 5 draws (block), 7 and 8 let O complete the middle row next move.
    assert ttt.analyze("xxo/oo./x..") == {5: (0, 3), 7: (-1, 2), 8: (-1, 2)}
    assert ttt.analyze("xxx/oo./...") == {}


def test_line_plays_out_to_the_promised_end(ttt: Any) -> None:
    for board in ["x../.o./..x", "x../.../...", "xo./.../...", "........."]:
        solution = ttt.solve(board)
        final = play(board, solution.line)
        assert ttt.is_valid_final(final)
        assert ttt.outcome(final) == ("draw" if solution.winner is None else solution.winner)


EQUIVALENT_FORMS: list[Any] = [
    "xxo/oo./x..",
    "xxo oo. x..",
    "XXO|OO-|X__",
    "x,x,o,o,o,.,x,.,.",
    "  xxo\n  oo.\n  x..\n",
    "112220100",
    "1 1 2 / 2 2 0 / 1 0 0",
    list("xxooo.x.."),
    tuple("xxooo.x.."),
    [1, 1, 2, 2, 2, 0, 1, 0, 0],
    [[1, 1, 2], [2, 2, 0], [1, 0, 0]],
    ["xxo", "oo.", "x.."],
    [["x", "x", "o"], ["o", "o", "."], ["x", ".", "."]],
    np.array([1, 1, 2, 2, 2, 0, 1, 0, 0], dtype=np.uint8),
    np.array([[1, 1, 2], [2, 2, 0], [1, 0, 0]]),
    [np.int64(1), 1, 2, 2, 2, 0, 1, 0, 0],
    (1, 1, 2, 2, 2, 0, 1, 0, 0),
]


@pytest.mark.parametrize("board", EQUIVALENT_FORMS, ids=repr)
def test_every_input_form_reads_the_same_board(ttt: Any, board: Any) -> None:
    assert ttt.to_move(board) == "x"
    assert ttt.analyze(board) == {5: (0, 3), 7: (-1, 2), 8: (-1, 2)}


MALFORMED = [
    ("xxo/oo./x.", ValueError, "8 cells, expected 9"),
    ("xxo/oo./x...", ValueError, "10 cells, expected 9"),
    ("", ValueError, "0 cells"),
    ("xxo/oo./x.q", ValueError, "unknown symbol 'q'"),
    ("xxo/oo./x.é", ValueError, "U+00E9"),
    ("xxo/oo./x.1", ValueError, "mixes symbols"),
    ("x" * 1_000_000, ValueError, "1000000 cells"),
    ([1, 1, 2, 2, 2, 0, 1, 0, 3], ValueError, "cell value 3"),
    ([1, 1, 2, 2, 2, 0, 1, 0, 10**30], ValueError, "out of range"),
    ([1, 1, 2, 2, 2, 0, 1, 0, -1], ValueError, "cell value -1"),
    (["x", "x", "o", "o", "o", ".", "x", ".", ".."], ValueError, "single character"),
    (["x", "x", "o", "o", "o", ".", "x", "."], ValueError, "9 cells or 3 rows of 3"),
    # A list of ints is moves, but one of 9 with a repeat (a board of codes).
    ([1, 1, 2, 2, 2, 0, 1, 0], ValueError, "move 2: cell 1 is taken"),
    ([4, 9], ValueError, "move 2: cell 9 is off the board (cells are 0..8)"),
    ([4, -1], ValueError, "move 2: cell -1 is off the board (cells are 0..8)"),
    ([4, 10**30], ValueError, "move 2: the cell is off the board (cells are 0..8)"),
    ([0, 3, 1, 4, 2, 5], ValueError, "move 6: the game is over (three in a row) before move 6"),
    ([[1, 1, 2], [2, 2], [1, 0, 0]], ValueError, "row 1 has 2 cells"),
    (["xxo", "oo.", "x..."], ValueError, "row 2 has 4 cells"),
    ([1, 1, 2, 2, 2, 0, 1, 0, "x"], ValueError, "mixes symbols"),
    (None, TypeError, "not NoneType"),
    (1.5, TypeError, "not float"),
    ({"a": 1}, TypeError, "not dict"),
    (112220100, TypeError, "not int"),
    (b"xxooo.x..", TypeError, "not bytes"),
    ([1, 1, 2, 2, 2, 0, 1, 0, 0.0], TypeError, "not float"),
    ([1, 1, 2, 2, 2, 0, 1, 0, True], TypeError, "not bool"),
    ([1, 1, 2, 2, 2, 0, 1, 0, None], TypeError, "not NoneType"),
    ([[[1]], [2, 2, 0], [1, 0, 0]], TypeError, "not sequence"),
    ([1, 1, 2, 2, 2, 0, 1, 0, [0]], TypeError, "not sequence"),
    ([b"xxo", "oo.", "x.."], TypeError, "row must be a str or a sequence"),
]


@pytest.mark.parametrize(("board", "error", "words"), MALFORMED, ids=lambda v: repr(v)[:40])
def test_malformed_boards_are_rejected_with_the_problem_named(
    ttt: Any, board: Any, error: type[Exception], words: str
) -> None:
    for query in (ttt.value, ttt.solve, ttt.is_reachable, ttt.is_valid_final, ttt.analyze):
        with pytest.raises(error, match=re.escape(words)) as raised:
            query(board)
        assert not isinstance(raised.value, IllegalPosition)


ILLEGAL = [
    ("xxx/.../...", "X has 3 marks and O has 0"),
    ("ooo/x../...", "X has 1 marks and O has 3"),
    ("xxx/ooo/x.o", "both X and O have 3 in a row"),
    ("xxx/oo./o..", "O moved after the game ended"),
    ("ooo/xx./xx.", "X moved after the game ended"),
]


@pytest.mark.parametrize(("board", "reason"), ILLEGAL)
def test_unreachable_boards_say_why(ttt: Any, board: str, reason: str) -> None:
    assert ttt.is_reachable(board) is False
    assert ttt.is_valid_final(board) is False
    for query in (ttt.value, ttt.outcome, ttt.solve, ttt.best_move, ttt.analyze, ttt.to_move):
        with pytest.raises(IllegalPosition, match=reason):
            query(board)


def test_batch_of_numpy_rows(ttt: Any) -> None:
    boards = np.array(
        [[0] * 9, [1, 1, 0, 2, 2, 0, 0, 0, 0], [1, 1, 1, 2, 2, 0, 0, 0, 0]], dtype=np.uint8
    )
    expected_values = [0, 1, -1]
    expected_moves = [0, 2, -1]
    for array in (
        boards,
        boards.reshape(3, 3, 3),
        boards.astype(np.int64),
        boards[:, ::-1][:, ::-1],
    ):
        values = ttt.batch_values(array)
        assert values.dtype == np.int8
        assert values.tolist() == expected_values
        assert ttt.batch_best_move(array).tolist() == expected_moves
    assert ttt.batch_values(["xx.oo....", "........."]).tolist() == [1, 0]
    assert ttt.batch_values(np.zeros((0, 9), dtype=np.uint8)).tolist() == []
    assert ttt.batch_values([]).tolist() == []


def test_batch_names_the_first_bad_row(ttt: Any) -> None:
    boards = np.zeros((5, 9), dtype=np.uint8)
    boards[3] = [1, 1, 1, 0, 0, 0, 0, 0, 0]
    boards[4] = 7
    with pytest.raises(IllegalPosition, match=r"^row 3: X has 3 marks"):
        ttt.batch_values(boards)
    boards[2, 4] = 9
    with pytest.raises(ValueError, match=r"^row 2: cell value 9"):
        ttt.batch_best_move(boards)
    with pytest.raises(ValueError, match=r"^row 1: unknown symbol"):
        ttt.batch_values([".........", "q........"])
    with pytest.raises(TypeError, match=r"^row 1:"):
        ttt.batch_values([".........", None])


@pytest.mark.parametrize(
    ("boards", "error"),
    [
        (np.zeros((4, 8), dtype=np.uint8), ValueError),
        (np.zeros(9, dtype=np.uint8), ValueError),
        (np.zeros((2, 9), dtype=np.float64), TypeError),
        (np.zeros((2, 9), dtype=bool), TypeError),
        (".........", TypeError),
        (None, TypeError),
        (b".........", TypeError),
        (7, TypeError),
    ],
    ids=repr,
)
def test_batch_rejects_bad_containers(ttt: Any, boards: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        ttt.batch_values(boards)


@pytest.mark.parametrize(
    ("moves", "board"),
    [
        ([], ".../.../..."),
        ([4, 0, 8], "o../.x./..x"),
        ((4, 0, 8), "o../.x./..x"),
        ([0, 3, 1, 4, 2], "xxx/oo./..."),
        ([0, 4, 1, 2, 6, 3, 5, 7, 8], "xxo/oox/xox"),
    ],
)
def test_a_move_list_from_the_start_is_the_board_it_reaches(
    ttt: Any, moves: Any, board: str
) -> None:
    """A list of cells (0..8, X first) plays from the empty board, as Connect Four's lists
    of columns do: every function answers it as the board it reaches."""
    assert ttt.solve(moves) == ttt.solve(board)
    assert ttt.analyze(moves) == ttt.analyze(board)
    assert ttt.is_reachable(moves) and ttt.to_move(moves) == ttt.to_move(board)
    assert ttt.batch_values([moves, board]).tolist() == [ttt.value(board)] * 2
