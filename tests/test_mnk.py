"""m,n,k-games on each backend: values known from the literature, positions as ASCII boards,
tic-tac-toe through the general engine, input forms, errors, limits and interruption."""

from __future__ import annotations

import _thread
import itertools
import threading
from typing import Any, NamedTuple

import pytest

from perfectplay import IllegalPosition, SearchLimitExceeded
from perfectplay._kernel.backend import implementation

# (rows, cols, k, value for X to move first, plies): draws fill the board.
KNOWN = [
    (3, 3, 3, 0, 9),
    (4, 3, 3, 1, 7),
    (3, 4, 3, 1, 7),
    (4, 4, 3, 1, 5),
    (2, 2, 1, 1, 1),
    (1, 5, 4, 0, 5),
]


@pytest.mark.parametrize(("rows", "cols", "k", "value", "plies"), KNOWN)
def test_known_values_from_the_empty_board(
    mnk: Any, rows: int, cols: int, k: int, value: int, plies: int
) -> None:
    solution = mnk.solve_empty(rows, cols, k)
    assert (solution.value, solution.plies) == (value, plies)
    assert solution.winner == ("x" if value > 0 else None)
    assert len(solution.line) == plies


@pytest.mark.parametrize(("rows", "cols", "k"), [(4, 4, 4), (5, 4, 4), (4, 5, 4)])
def test_bigger_draws_on_rust(rust_mnk: Any, rows: int, cols: int, k: int) -> None:
    solution = rust_mnk.solve_empty(rows, cols, k)
    assert (solution.value, solution.winner, solution.plies) == (0, None, rows * cols)


@pytest.mark.slow
def test_5x5_k4_is_a_draw_and_6x5_k4_a_first_player_win(rust_mnk: Any) -> None:
    assert rust_mnk.solve_empty(5, 5, 4).value == 0
    solution = rust_mnk.solve_empty(6, 5, 4)
    assert (solution.value, solution.winner) == (1, "x")


class Case(NamedTuple):
    """A position written as the game shows it, with its answer for the side to move."""

    id: str
    board: str
    k: int
    value: int
    plies: int
    best_moves: tuple[tuple[int, int], ...]


EVERY_EMPTY_CELL = tuple(
    (r, c) for r in range(4) for c in range(4) if (r, c) not in {(0, 0), (0, 1), (1, 1), (2, 2)}
)

ASCII = [
    Case(
        "x completes three at once",
        """
        x x . .
        o o . .
        . . . .
        . . . .
        """,
        k=3,
        value=1,
        plies=1,
        best_moves=((0, 2),),
    ),
    Case(
        "o to move wins first",
        """
        x x . .
        o o . .
        x . . .
        . . . .
        """,
        k=3,
        value=1,
        plies=1,
        best_moves=((1, 2),),
    ),
    Case(
        "4x4 k=4 drawn whatever happens next",
        """
        x o . .
        . x . .
        . . o .
        . . . .
        """,
        k=4,
        value=0,
        plies=12,
        best_moves=EVERY_EMPTY_CELL,
    ),
    Case(
        "nothing left to win",
        """
        x o x o
        o x o x
        o x o x
        x o . .
        """,
        k=4,
        value=0,
        plies=2,
        best_moves=((3, 2), (3, 3)),
    ),
    Case(
        "final: x has won, o to move has lost",
        """
        x x x .
        o o . .
        . . . .
        """,
        k=3,
        value=-1,
        plies=0,
        best_moves=(),
    ),
]


@pytest.mark.parametrize("case", ASCII, ids=[case.id for case in ASCII])
def test_ascii_positions(mnk: Any, case: Case) -> None:
    solution = mnk.solve(case.board, case.k)
    assert (solution.value, solution.plies) == (case.value, case.plies)
    assert solution.best_moves == case.best_moves
    assert len(solution.line) == case.plies
    assert mnk.best_move(case.board, case.k) == (case.best_moves[0] if case.best_moves else None)


def test_tictactoe_through_the_general_engine(mnk: Any, backend: str) -> None:
    """The (3,3,3) member answers like the tic-tac-toe module on every legal position."""
    ttt = implementation("tictactoe", backend)
    legal = [
        "".join(cells)
        for cells in itertools.product(".xo", repeat=9)
        if ttt.is_reachable("".join(cells))
    ]
    assert len(legal) == 5478
    for board in legal[:: 1 if backend == "rust" else 7]:
        rows = "/".join(board[i : i + 3] for i in (0, 3, 6))
        expected = ttt.solve(board)
        solution = mnk.solve(rows, 3)
        assert (solution.value, solution.winner, solution.plies) == (
            expected.value,
            expected.winner,
            expected.plies,
        )
        assert solution.best_moves == tuple(divmod(m, 3) for m in expected.best_moves)
        assert solution.line == tuple(divmod(m, 3) for m in expected.line)
        assert mnk.analyze(rows, 3) == {
            divmod(m, 3): answer for m, answer in ttt.analyze(board).items()
        }


def test_analyze_agrees_with_solve(mnk: Any) -> None:
    board = "x.../.o../..../...."
    solution = mnk.solve(board, 3)
    moves = mnk.analyze(board, 3)
    assert len(moves) == 14
    top = max(v for v, _ in moves.values())
    assert top == solution.value
    for move in solution.best_moves:
        assert moves[move] == (solution.value, solution.plies)


FORMS: list[Any] = [
    "xo../.ox./x.../....",
    "xo..\n.ox.\nx...\n....\n",
    "1200/0210/1000/0000",
    "X O - - | - O X - | X - - - | - - - -".replace("|", "/"),
    ["xo..", ".ox.", "x...", "...."],
    [[1, 2, 0, 0], [0, 2, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0]],
    [list("xo.."), list(".ox."), list("x..."), list("....")],
]


@pytest.mark.parametrize("board", FORMS, ids=repr)
def test_board_forms(mnk: Any, board: Any) -> None:
    # O to move completes the middle column.
    assert mnk.solve(board, 3).best_moves == ((2, 1),)
    assert mnk.solve(board, 4) == mnk.solve("xo../.ox./x.../....", 4)


MALFORMED = [
    (("x../.o", 3), ValueError, "different lengths"),
    (("x../.q./...", 3), ValueError, "unknown symbol 'q'"),
    (("x../.1./...", 3), ValueError, "mixes symbols"),
    (("", 3), ValueError, "empty"),
    (("." * 65, 3), ValueError, "65 cells"),
    (("..../..../....", 5), ValueError, "k must be between 1 and 4"),
    (("..../..../....", 0), ValueError, "k must be between"),
    (("..../..../....", True), TypeError, "k must be an int"),
    (("..../..../....", 3.0), TypeError, "k must be an int"),
    ((None, 3), TypeError, "board must be"),
    (([1, 2, 0], 3), TypeError, "row must be"),
    (([[1, 0], [0, 3]], 2), ValueError, "cell value 3"),
]


@pytest.mark.parametrize(("args", "error", "words"), MALFORMED, ids=lambda v: repr(v)[:30])
def test_malformed_input(
    mnk: Any, args: tuple[Any, ...], error: type[Exception], words: str
) -> None:
    for query in (mnk.solve, mnk.analyze, mnk.best_move, mnk.is_reachable):
        with pytest.raises(error) as raised:
            query(*args)
        assert words in str(raised.value)
        assert not isinstance(raised.value, IllegalPosition)


ILLEGAL = [
    ("xxx./..../....", 3, "X has 3 marks and O has 0"),
    ("xxx./ooo./x...", 3, "both X and O have 3 in a row"),
    ("xxx./oo../o...", 3, "O moved after the game ended"),
    ("xxx./o.o./xxx./oo.o", 3, "share no cell"),
]


@pytest.mark.parametrize(("board", "k", "reason"), ILLEGAL)
def test_unreachable_positions_say_why(mnk: Any, board: str, k: int, reason: str) -> None:
    assert mnk.is_reachable(board, k) is False
    for query in (mnk.solve, mnk.analyze, mnk.best_move):
        with pytest.raises(IllegalPosition, match=reason):
            query(board, k)


def test_solve_empty_checks_its_arguments(mnk: Any) -> None:
    for args, error in [
        ((0, 3, 3), ValueError),
        ((9, 8, 3), ValueError),
        ((3, 3, 4), ValueError),
        ((3.0, 3, 3), TypeError),
        ((3, "3", 3), TypeError),
    ]:
        with pytest.raises(error):
            mnk.solve_empty(*args)


def test_node_limit_and_table_size(mnk: Any) -> None:
    with pytest.raises(SearchLimitExceeded, match="node_limit=5"):
        mnk.solve_empty(4, 4, 3, node_limit=5)
    assert mnk.solve_empty(3, 4, 3, table_mb=0.5).value == 1
    for bad, error in ((0, ValueError), (-1, ValueError), ("1", TypeError), (True, TypeError)):
        with pytest.raises(error):
            mnk.solve_empty(3, 3, 3, table_mb=bad)
        with pytest.raises(error):
            mnk.solve_empty(3, 4, 3, node_limit=bad)


def test_symmetric_positions_get_symmetric_answers(rust_mnk: Any) -> None:
    board = ["x...", ".o..", "..x.", "...."]

    def transform(rows: list[str], flip_rows: bool, flip_cols: bool, transpose: bool) -> list[str]:
        grid = [list(r) for r in rows]
        if transpose:
            grid = [list(col) for col in zip(*grid, strict=True)]
        if flip_rows:
            grid = grid[::-1]
        if flip_cols:
            grid = [r[::-1] for r in grid]
        return ["".join(r) for r in grid]

    def move_image(move: tuple[int, int], flip_rows: bool, flip_cols: bool, transpose: bool) -> Any:
        r, c = move
        if transpose:
            r, c = c, r
        return (3 - r if flip_rows else r, 3 - c if flip_cols else c)

    base = rust_mnk.solve(board, 3)
    for flags in itertools.product((False, True), repeat=3):
        image = rust_mnk.solve(transform(board, *flags), 3)
        assert (image.value, image.plies) == (base.value, base.plies)
        assert sorted(image.best_moves) == sorted(move_image(m, *flags) for m in base.best_moves)


@pytest.mark.usefixtures("sigint_handled")
def test_a_search_is_interrupted_by_ctrl_c(rust_mnk: Any) -> None:
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # 7x7 with k=5 takes far longer than 0.2 s; the limit keeps a failure from hanging.
            rust_mnk.solve_empty(7, 7, 5, node_limit=10**9)
    finally:
        timer.cancel()


def test_a_search_in_a_worker_thread_stops_at_its_limit(rust_mnk: Any) -> None:
    errors: list[BaseException] = []

    def work() -> None:
        try:
            rust_mnk.solve_empty(7, 7, 5, node_limit=100_000)
        except SearchLimitExceeded as error:
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert len(errors) == 1
