"""batch_solve of every game, on both backends: row by row equal to the single calls, the same
whatever the thread count and row order, bad rows raised or masked, arrays of every integer
dtype and layout read."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import footholds_positions, mark_positions
from perfectplay import BatchSolution, IllegalPosition, SearchLimitExceeded
from perfectplay._kernel.backend import implementation

# Compares the backends with each other whatever PERFECTPLAY_BACKEND says.
pytestmark = pytest.mark.both_backends


def flat(move: Any, cols: int) -> int:
    return move if isinstance(move, int) else move[0] * cols + move[1]


def assert_rows_are_single_calls(
    result: BatchSolution,
    solutions: list[Any],
    analyses: list[dict[Any, tuple[int, int]]],
    cols: int,
) -> None:
    assert len(result) == len(solutions)
    assert result.status.tolist() == [0] * len(solutions)
    for row, (solution, analysis) in enumerate(zip(solutions, analyses, strict=True)):
        assert result.value[row] == solution.value
        assert result.plies[row] == solution.plies
        best = {flat(move, cols) for move in solution.best_moves}
        assert set(np.flatnonzero(result.best_mask[row]).tolist()) == best
        assert result.best_move[row] == (min(best) if best else -1)
        assert result.move_value is not None and result.move_plies is not None
        legal = {flat(move, cols): answer for move, answer in analysis.items()}
        for cell in range(result.best_mask.shape[1]):
            expected = legal.get(cell, (0, -1))
            assert (result.move_value[row, cell], result.move_plies[row, cell]) == expected


@pytest.mark.parametrize("backend", ["rust", "python"])
@settings(max_examples=40, deadline=None)
@given(st.lists(mark_positions(3, 3, 3, most_empty=9), min_size=1, max_size=100))
def test_tictactoe_rows_are_single_calls(backend: str, boards: list[str]) -> None:
    api = implementation("tictactoe", backend)
    codes = np.array([[".xo".index(c) for c in b if c != "/"] for b in boards], np.uint8)
    result = api.batch_solve(codes, moves=True)
    assert_rows_are_single_calls(
        result, [api.solve(b) for b in boards], [api.analyze(b) for b in boards], 3
    )
    plain = api.batch_solve(boards)
    for name in ("value", "plies", "best_move", "best_mask", "status"):
        assert np.array_equal(getattr(plain, name), getattr(result, name))
    assert plain.move_value is None


@pytest.mark.parametrize(
    ("backend", "side", "most_empty", "most_rows"),
    [("rust", 4, 11, 100), ("rust", 5, 11, 100), ("python", 3, 8, 100), ("python", 4, 9, 50)],
)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_mnk_rows_are_single_calls(
    backend: str, side: int, most_empty: int, most_rows: int, data: st.DataObject
) -> None:
    """Thousands of positions in all: up to 4x4 and 5x5 on Rust, up to 4x4 on the twin (whose
    plain search keeps 4x4 boards to 9 empty cells and fewer rows, to stay quick)."""
    api = implementation("mnk", backend)
    k = data.draw(st.integers(3, side))
    boards = data.draw(
        st.lists(
            mark_positions(side, side, k, most_empty=most_empty), min_size=1, max_size=most_rows
        )
    )
    result = api.batch_solve(boards, k, moves=True, threads=2)
    assert_rows_are_single_calls(
        result,
        [api.solve(b, k) for b in boards],
        [api.analyze(b, k) for b in boards],
        side,
    )


@pytest.mark.parametrize("backend", ["rust", "python"])
@settings(max_examples=40, deadline=None)
@given(footholds_positions(max_side=4), st.data())
def test_footholds_rows_are_single_calls(backend: str, game: Any, data: st.DataObject) -> None:
    """One board a batch, every row another placement on it (up to 60 rows)."""
    api = implementation("footholds", backend)
    board = game[0]
    cells = [(r, c) for r, row in enumerate(board) for c, on in enumerate(row) if on]
    pairs = data.draw(
        st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(cells)), max_size=60)
    )
    pairs = [game[1:], *pairs]
    alocs, blocs = [a for a, _ in pairs], [b for _, b in pairs]
    result = api.batch_solve(board, alocs, blocs, moves=True)
    assert_rows_are_single_calls(
        result,
        [api.solve(board, a, b) for a, b in pairs],
        [api.analyze(board, a, b) for a, b in pairs],
        len(board[0]),
    )


def _random_game(rng: random.Random, side: int, k: int) -> str:
    from conformance import _windows

    cells = side * side
    order = rng.sample(range(cells), cells)
    marks = ["."] * cells
    windows = _windows(side, side, k)
    for turn, cell in enumerate(order[: rng.randint(cells - 12, cells)]):
        marks[cell] = "x" if turn % 2 == 0 else "o"
        if any(all(marks[c] == marks[cell] for c in w) for w in windows if cell in w):
            break
    return "/".join("".join(marks[r * side : (r + 1) * side]) for r in range(side))


def without_nodes(result: BatchSolution) -> dict[str, Any]:
    return {name: array.tolist() for name, array in result.to_dict().items() if name != "nodes"}


def test_threads_and_row_order_change_nothing() -> None:
    api = implementation("mnk", "rust")
    boards = [_random_game(random.Random(seed), 4, 4) for seed in range(300)]
    one = api.batch_solve(boards, 4, threads=1, moves=True)
    two = api.batch_solve(boards, 4, threads=2, moves=True)
    assert without_nodes(one) == without_nodes(two)
    order = list(range(len(boards)))
    random.Random(7).shuffle(order)
    shuffled = api.batch_solve([boards[i] for i in order], 4, threads=2, moves=True)
    for name, array in shuffled.to_dict().items():
        if name != "nodes":
            assert np.array_equal(array, one.to_dict()[name][order]), name
    footholds = implementation("footholds", "rust")
    cells = [(r, c) for r in range(4) for c in range(4)]
    alocs = [a for a in cells for _ in cells]
    blocs = [b for _ in cells for b in cells]
    board = [[1] * 4 for _ in range(4)]
    assert without_nodes(footholds.batch_solve(board, alocs, blocs, threads=1)) == without_nodes(
        footholds.batch_solve(board, alocs, blocs, threads=2)
    )


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_bad_rows_are_masked_or_raised(backend: str) -> None:
    mnk = implementation("mnk", backend)
    boards = ["x.../..../..../....", "xxx./ooo./..../....", "xq../..../..../....", "x../.../..."]
    result = mnk.batch_solve(boards, 3, errors="mask")
    assert result.status.tolist() == [0, 1, 1, 1]
    assert result.value.tolist()[1:] == [0, 0, 0]
    assert result.plies.tolist()[1:] == [-1, -1, -1]
    assert result.best_move.tolist()[1:] == [-1, -1, -1]
    assert not result.best_mask[1:].any()
    with pytest.raises(IllegalPosition, match=r"^row 1: both X and O"):
        mnk.batch_solve(boards, 3)
    with pytest.raises(ValueError, match=r"^row 1: unknown symbol 'q'"):
        mnk.batch_solve([boards[0], boards[2]], 3)
    limited = mnk.batch_solve(
        ["...../...../...../...../....."] * 2, 4, node_limit=50, errors="mask"
    )
    assert limited.status.tolist() == [2, 2]
    with pytest.raises(SearchLimitExceeded, match=r"^row 0: "):
        mnk.batch_solve(["...../...../...../...../....."], 4, node_limit=50)
    footholds = implementation("footholds", backend)
    result = footholds.batch_solve("111/101/111", [(0, 0), (1, 1), (5, 5)], (2, 2), errors="mask")
    assert result.status.tolist() == [0, 1, 1]
    ttt = implementation("tictactoe", backend)
    rows = np.array([[0] * 9, [1, 1, 1, 0, 0, 0, 0, 0, 0], [3] * 9, [-1] * 9], np.int16)
    assert ttt.batch_solve(rows, errors="mask").status.tolist() == [0, 1, 1, 1]
    with pytest.raises(IllegalPosition, match=r"^row 1: "):
        ttt.batch_solve(rows)


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_footholds_location_arrays_are_read_alike(backend: str) -> None:
    """A location array of shape (2,) is one for every row, (N, 2) one a row; bools are no
    coordinates (each row refused, as a sequence of bools is), and any other shape is a
    ValueError on both backends."""
    footholds = implementation("footholds", backend)
    board = "111/111/111"
    shared = footholds.batch_solve(board, np.array([0, 0]), np.array([[2, 2], [1, 1]]))
    each = footholds.batch_solve(board, [(0, 0), (0, 0)], [(2, 2), (1, 1)])
    assert shared.value.tolist() == each.value.tolist()
    with pytest.raises(TypeError, match=r"^row 0: aloc must hold ints, not bool"):
        footholds.batch_solve(board, np.array([[True, False]]), [(2, 2)])
    masked = footholds.batch_solve(board, np.array([[True, False]]), [(2, 2)], errors="mask")
    assert masked.status.tolist() == [1]
    for shape in [(1, 2, 2), (1, 1, 1, 2)]:
        for dtype in [np.bool_, np.int64]:
            with pytest.raises(ValueError, match=r"^alocs must have shape \(2,\) or \(N, 2\)"):
                footholds.batch_solve(board, np.zeros(shape, dtype), [(2, 2)])


@pytest.mark.parametrize("backend", ["rust", "python"])
@pytest.mark.parametrize(
    ("boards", "error"),
    [
        (np.zeros((2, 3)), TypeError),  # float dtype
        (np.zeros((2, 3), np.int8), ValueError),  # wrong ndim for mnk
        (np.full((1, 3, 3), 3, np.int8), ValueError),  # code 3
        (np.full((1, 3, 3), -1, np.int64), ValueError),  # code -1
        (np.zeros((1, 9, 9), np.uint8), ValueError),  # 81 cells
        (np.zeros((1, 3, 3), np.bool_), TypeError),  # bools are no marks
        ("x../.../...", TypeError),  # a str is not a batch
        (None, TypeError),
    ],
)
def test_malformed_arrays(backend: str, boards: Any, error: type[Exception]) -> None:
    with pytest.raises(error) as raised:
        implementation("mnk", backend).batch_solve(boards, 3)
    assert type(raised.value) is error


DTYPES = ["u1", "i1", "<u2", ">u2", "<i2", ">i2", "<u4", ">u4", "<i4", ">i4", "<u8", ">i8"]


@pytest.mark.parametrize("backend", ["rust", "python"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_every_integer_dtype_and_layout(backend: str, dtype: str) -> None:
    boards = ["x.o/.x./...", "xxo/oo./x..", ".../.../..."]
    codes = np.array([[[".xo".index(c) for c in row] for row in b.split("/")] for b in boards])
    expected = implementation("mnk", "rust").batch_solve(boards, 3)
    for array in (
        codes.astype(dtype),
        np.asfortranarray(codes.astype(dtype)),
        codes.astype(dtype).transpose(0, 2, 1).copy().transpose(0, 2, 1),
        np.repeat(codes.astype(dtype), 2, axis=0)[::2],
    ):
        got = implementation("mnk", backend).batch_solve(array, 3)
        assert without_nodes(got) == without_nodes(expected)
        ttt = implementation("tictactoe", backend).batch_solve(array.reshape(3, 9))
        assert ttt.value.tolist() == expected.value.tolist()


def test_batch_solution_is_immutable_and_converts() -> None:
    result = implementation("tictactoe", "rust").batch_solve(["x........"], moves=True)
    assert len(result) == 1
    assert set(result.to_dict()) == {
        "value", "plies", "best_move", "best_mask", "status", "nodes", "move_value", "move_plies"
    }  # fmt: skip
    with pytest.raises(ValueError):
        result.value[0] = 1
    with pytest.raises(AttributeError):
        result.value = result.value
    dtypes = {name: array.dtype for name, array in result.to_dict().items()}
    assert dtypes == {
        "value": np.int8, "plies": np.int16, "best_move": np.int16, "best_mask": np.bool_,
        "status": np.uint8, "nodes": np.uint64, "move_value": np.int8, "move_plies": np.int16,
    }  # fmt: skip


@pytest.mark.usefixtures("sigint_handled")
def test_ctrl_c_stops_every_worker_within_a_second() -> None:
    import _thread
    import threading
    import time

    api = implementation("mnk", "rust")
    # Each of these takes seconds: the batch would run for minutes on two threads.
    boards = ["......./......./......./......./......./......./......."] * 1 + [
        f"{'x' if i % 2 else '.'}....../......./......./......./......./......./......."
        for i in range(2)
    ]
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            api.batch_solve(boards, 5, threads=2)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 1.3


def test_progress_bar_on_standard_error(capfd: pytest.CaptureFixture[str]) -> None:
    boards = [_random_game(random.Random(seed), 4, 4) for seed in range(200)]
    implementation("mnk", "rust").batch_solve(boards, 4, progress=True)
    err = capfd.readouterr().err
    assert "4x4 k=4" in err and "positions" in err and "100%" in err
    implementation("mnk", "python").batch_solve(boards[:20], 4, progress=True)
    assert "20/20" in capfd.readouterr().err


def test_a_progress_bar_that_fails_stops_the_work_with_its_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled core draws its bar through ``perfectplay._kernel.batch.Progress``: a bar
    that raises (a closed standard error, say) stops the batch, and its error is raised."""
    from perfectplay._kernel import batch as kernel_batch

    class FailingBar(kernel_batch.Progress):
        def __call__(self, done: int, total: int) -> None:
            raise OSError("standard error is closed")

    monkeypatch.setattr(kernel_batch, "Progress", FailingBar)
    boards = [_random_game(random.Random(seed), 4, 4) for seed in range(200)]
    with pytest.raises(OSError, match="standard error is closed"):
        implementation("mnk", "rust").batch_solve(boards, 4, progress=True)


BROADCAST_ROWS = 5 * 10**7


def _broadcast_batches() -> dict[str, Any]:
    from perfectplay import connect4, footholds, mnk, tablebase, tictactoe

    n = BROADCAST_ROWS
    table = tablebase.build(3, 3, 3)
    return {
        "tictactoe": lambda: tictactoe.batch_solve(
            np.broadcast_to(np.zeros(9, np.uint8), (n, 9)), moves=True
        ),
        "mnk": lambda: mnk.batch_solve(np.broadcast_to(np.zeros((4, 4), np.int64), (n, 4, 4)), 4),
        "footholds": lambda: footholds.batch_solve(
            np.broadcast_to(np.ones((3, 3), np.uint8), (n, 3, 3)),
            alocs=np.broadcast_to(np.array([0, 0]), (n, 2)),
            blocs=np.broadcast_to(np.array([2, 2]), (n, 2)),
        ),
        "connect4": lambda: connect4.batch_solve(
            np.broadcast_to(np.zeros((4, 4), np.uint8), (n, 4, 4))
        ),
        "tablebase": lambda: table.batch_solve(
            np.broadcast_to(np.zeros((3, 3), np.uint8), (n, 3, 3)), moves=True
        ),
    }


@pytest.mark.compiled
@pytest.mark.usefixtures("sigint_handled")
@pytest.mark.parametrize("game", ["tictactoe", "mnk", "footholds", "connect4", "tablebase"])
def test_ctrl_c_stops_a_broadcast_batch_within_a_second(game: str) -> None:
    # Fifty million equal rows of a stride-0 array: reading and de-duplicating them takes
    # seconds, and Ctrl-C must be seen there too (no copy before the core, no unwatched loop).
    import _thread
    import threading
    import time

    batch = _broadcast_batches()[game]
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            batch()
    finally:
        timer.cancel()
    assert time.monotonic() - started < 1.3
