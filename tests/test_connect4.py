"""Connect Four on both backends: Pons' scores computed by his own solver (tests/data), John
Tromp's values of small empty boards, a plain memoised search, both backends against each
other on thousands of random positions, batches, positions and the command line."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import DATA
from perfectplay import IllegalPosition, SearchLimitExceeded, connect4, openings
from perfectplay._kernel.backend import implementation
from tests_support import (
    assert_ctrl_c_stops_within_a_second,
    perfectplay_command,
    quiet_games,
    wide_positions,
)

RUST = implementation("connect4", "rust")
PYTHON = implementation("connect4", "python")


def pons_lines(name: str) -> list[tuple[str, list[int]]]:
    rows = []
    for text in (DATA / name).read_text().splitlines():
        moves, *scores = text.split()
        rows.append((moves, [int(s) for s in scores]))
    return rows


PONS = pons_lines("connect4_pons.txt")
PONS_ANALYZE = pons_lines("connect4_pons_analyze.txt")
TROMP = [
    (int(w), int(h), {"+": 1, "=": 0, "-": -1}[v])
    for line in (DATA / "connect4_tromp.txt").read_text().splitlines()
    if line and not line.startswith("#")
    for w, h, v in [line.split()]
]


def stones(moves: str) -> int:
    return len(moves)


@pytest.mark.compiled
def test_pons_scores_on_the_compiled_core() -> None:
    """All 400 positions, from the end of the game to its beginning, as Pons' solver scores
    them, with the books (the default) and by the search alone; the weak score is their sign;
    value agrees; the table kept between calls changes nothing."""
    for moves, (expected,) in PONS:
        assert RUST.score(moves, book=None) == expected, moves
        assert RUST.score(moves) == expected, moves
        assert RUST.score(moves, weak=True) in (expected, (expected > 0) - (expected < 0))
        assert RUST.value(moves) == (expected > 0) - (expected < 0), moves
    RUST.clear_tables()
    for moves, (expected,) in PONS[::37]:
        assert RUST.score(moves) == expected, moves


@pytest.mark.both_backends
def test_pons_scores_on_the_twin() -> None:
    """The twin on the positions near the end (its exhaustive search is slow elsewhere)."""
    for moves, (expected,) in PONS[:100]:
        if 42 - stones(moves) <= 14:
            assert PYTHON.score(moves) == expected, moves


@pytest.mark.compiled
def test_weak_score_is_the_sign_except_a_win_at_once() -> None:
    for moves, (expected,) in PONS[:200:7]:
        weak = RUST.score(moves, weak=True)
        position = connect4.Position(moves)
        wins_at_once = any(position.play(c).winner for c in position.legal_moves)
        assert weak == (expected if wins_at_once else (expected > 0) - (expected < 0))


@pytest.mark.compiled
def test_analysis_matches_pons_per_column() -> None:
    """analyze's (value, plies) per column give exactly Pons' per-column scores."""
    for moves, scores in PONS_ANALYZE[:60]:
        analysis = RUST.analyze(moves)
        for column, expected in enumerate(scores):
            if expected == -1000:
                assert column not in analysis
                continue
            value, plies = analysis[column]
            end = stones(moves) + plies  # stones on the board when the game ends
            assert expected == (value * ((42 + 2 - end) // 2) if value else 0), (moves, column)


@pytest.mark.both_backends
@pytest.mark.parametrize(("width", "height", "value"), [t for t in TROMP if t[0] * t[1] <= 30])
def test_tromps_small_boards(width: int, height: int, value: int) -> None:
    assert RUST.value("", width=width, height=height) == value
    if width * height <= 16:
        assert PYTHON.value("", width=width, height=height) == value


@pytest.mark.compiled
@pytest.mark.parametrize(
    ("width", "height", "value"), [t for t in TROMP if 28 <= t[0] * t[1] <= 30]
)
def test_two_threads_match_tromps_boards(width: int, height: int, value: int) -> None:
    """Empty boards of 28 to 30 cells, searched by both threads of a parallel search (each
    from a cleared table), against Tromp's values; the full solution agrees with one thread's."""
    RUST.clear_tables()
    assert RUST.value("", width=width, height=height, threads=2) == value
    RUST.clear_tables()
    two = RUST.solve("", width=width, height=height, threads=2)
    RUST.clear_tables()
    one = RUST.solve("", width=width, height=height, threads=1)
    assert (two.value, two.plies, two.best_moves, two.line) == (
        one.value,
        one.plies,
        one.best_moves,
        one.line,
    )


SLOW_ON_TWO_CORES = {(9, 4), (5, 8)}  # 7-14 s each here


@pytest.mark.compiled
@pytest.mark.parametrize(
    ("width", "height", "value"),
    [t for t in TROMP if 30 < t[0] * t[1] <= 36 and t[:2] not in SLOW_ON_TWO_CORES],
)
def test_tromps_larger_boards_on_two_threads(width: int, height: int, value: int) -> None:
    RUST.clear_tables()
    assert RUST.value("", width=width, height=height, threads=2) == value


@pytest.mark.compiled
def test_one_search_on_two_threads_matches_pons() -> None:
    """Pons' positions with 28 or more moves left, each from a cleared table, on two threads
    by the search alone (no book); analyze agrees with one thread's on some of them."""
    early = [(moves, expected) for moves, (expected,) in PONS if 42 - stones(moves) >= 28]
    assert len(early) >= 20
    for moves, expected in early:
        RUST.clear_tables()
        assert RUST.score(moves, threads=2, book=None) == expected, moves
    for moves, _ in early[:: len(early) // 4]:
        RUST.clear_tables()
        two = RUST.analyze(moves, threads=2, book=None)
        RUST.clear_tables()
        assert two == RUST.analyze(moves, threads=1, book=None), moves


@pytest.mark.compiled
def test_two_threads_in_a_small_table_match_one_thread() -> None:
    """Random positions of 6 to 8 stones, each from a cleared 1 MiB table (entries replaced all
    the time while both threads search over it): two threads score them as one does."""
    boards = RUST.random_positions(12, seed=11, plies=(6, 8))
    for board in boards:
        RUST.clear_tables()
        two = RUST.score(board, threads=2, table_mb=1, book=None)
        RUST.clear_tables()
        assert two == RUST.score(board, threads=1, table_mb=1, book=None), board


@pytest.mark.compiled
def test_an_analysis_on_two_threads_matches_one_thread_and_the_batch() -> None:
    """Random positions of 12 to 16 stones, whose columns take more than a moment: searched
    side by side on two threads (tables cleared), one thread, and a batch agree."""
    boards = RUST.random_positions(12, seed=5, plies=(12, 16))
    labels = RUST.batch_solve(boards, moves=True, threads=1)
    for row, board in enumerate(boards):
        RUST.clear_tables()
        two = RUST.analyze(board, threads=2)
        RUST.clear_tables()
        assert two == RUST.analyze(board, threads=1), row
        assert two == {
            col: (int(labels.move_value[row, col]), int(labels.move_plies[row, col])) for col in two
        }, row


@pytest.mark.compiled
def test_a_parallel_search_keeps_the_node_limit_on_each_thread() -> None:
    with pytest.raises(SearchLimitExceeded, match="node_limit=5000"):
        RUST.solve("", threads=2, node_limit=5000)
    RUST.clear_tables()
    assert RUST.solve("4444443", threads=2).nodes > 0


@pytest.mark.compiled
def test_ctrl_c_stops_a_search_on_two_threads_within_a_second() -> None:
    """The empty board takes about half a minute on two threads without the books; Ctrl-C one
    second in stops both, in one search and in an analysis's columns searched side by side."""
    for call in ("score", "analyze"):
        assert_ctrl_c_stops_within_a_second(
            "from perfectplay import connect4",
            f"connect4.{call}('', threads=2, book=None)",
            after=1.0,
        )


def test_threads_are_checked(c4: Any) -> None:
    with pytest.raises(ValueError, match="threads must be between 1 and 4096, got 0"):
        c4.score("4", threads=0)
    with pytest.raises(TypeError, match="threads"):
        c4.solve("4", threads="2")
    near_the_end = PONS[0][0]
    assert c4.score(near_the_end, threads=1) == c4.score(near_the_end, threads=None)


@pytest.mark.compiled
@pytest.mark.testing_core
def test_compiled_search_agrees_with_the_plain_search(plain_core: Any) -> None:
    boards = RUST.random_positions(1500, seed=7, plies=(26, 42))
    for board in boards:
        _, value, plies = plain_core.plain_connect4(board.tolist())
        solution = RUST.solve(board.tolist())
        assert (solution.value, solution.plies) == (value, plies)


@pytest.mark.compiled
@pytest.mark.testing_core
def test_a_board_searched_on_128_bits_scores_as_on_64(plain_core: Any) -> None:
    """The benchmarks' 128-bit search of boards 64 bits hold (``benches/connect4_bits.py``)."""
    for size, plies in (
        ({}, (16, 30)),
        ({"width": 8, "height": 6}, (18, 30)),
        ({"width": 5, "height": 4}, (6, 14)),
    ):
        for board in RUST.random_positions(40, seed=3, plies=plies, ongoing=True, **size):
            position = board.tolist()
            narrow = RUST.score(position, book=None, **size)
            assert plain_core.connect4_score_on_128_bits(position, **size) == narrow


SETS = [  # (size, seed, plies): random positions whose exhaustive twin search stays quick
    ({}, 11, (28, 42)),
    ({"width": 5, "height": 4}, 12, (10, 20)),
    ({"width": 4, "height": 5}, 13, (10, 20)),
]


@pytest.mark.both_backends
def test_random_positions_are_the_same_on_both_backends() -> None:
    for size, seed, plies in SETS:
        rust = RUST.random_positions(300, seed=seed, plies=plies, **size)
        assert np.array_equal(rust, PYTHON.random_positions(300, seed=seed, plies=plies, **size))
        assert all(RUST.is_reachable(board.tolist()) for board in rust)
        counts = (rust != 0).sum(axis=(1, 2))
        assert counts.min() >= plies[0] or RUST.solve(rust[counts.argmin()].tolist()).plies == 0


@pytest.mark.both_backends
def test_backends_agree_on_thousands_of_random_positions() -> None:
    """2,000 random positions of 7x6 in the last 14 stones and 1,000 of smaller boards, batch
    solved with each move's answers on both backends; some solved and analyzed one by one."""
    for (size, seed, plies), count in zip(SETS, (2000, 500, 500), strict=True):
        boards = RUST.random_positions(count, seed=seed, plies=plies, **size)
        rust = RUST.batch_solve(boards, moves=True)
        python = PYTHON.batch_solve(boards, moves=True)
        for name, column in rust.to_dict().items():
            if name != "nodes":  # the backends search differently
                assert np.array_equal(column, python.to_dict()[name]), name
        assert (rust.status == 0).all()
        for board in boards[:: max(1, count // 100)]:
            codes = board.tolist()
            solution = RUST.solve(codes)
            assert solution == PYTHON.solve(codes)
            assert RUST.analyze(codes) == PYTHON.analyze(codes)
            assert RUST.score(codes) == PYTHON.score(codes)
            assert RUST.best_moves(codes) == PYTHON.best_moves(codes) == solution.best_moves


def test_batch_rows_match_single_calls(c4: Any) -> None:
    boards = RUST.random_positions(200, seed=5, plies=(30, 42))
    result = c4.batch_solve(boards, moves=True, threads=2)
    for row, board in enumerate(boards):
        solution = c4.solve(board.tolist())
        assert (result.value[row], result.plies[row]) == (solution.value, solution.plies)
        best = [col for col in range(7) if result.best_mask[row, col]]
        assert tuple(best) == solution.best_moves
        assert result.best_move[row] == (-1 if solution.best_move is None else solution.best_move)
        analysis = c4.analyze(board.tolist())
        for col in range(7):
            if col in analysis:
                assert (result.move_value[row, col], result.move_plies[row, col]) == analysis[col]


@pytest.mark.compiled
def test_batch_answers_do_not_depend_on_threads_or_order() -> None:
    boards = RUST.random_positions(400, seed=9, plies=(20, 42))
    one = RUST.batch_solve(boards, threads=1)
    two = RUST.batch_solve(boards[::-1], threads=2)
    for name, column in one.to_dict().items():
        if name != "nodes":
            assert np.array_equal(column, two.to_dict()[name][::-1]), name


def test_bad_rows_are_named_or_masked(c4: Any) -> None:
    boards = RUST.random_positions(6, seed=3, plies=(30, 42))
    boards[2] = 0
    boards[2, 0, 0] = 1  # a floating stone
    with pytest.raises(IllegalPosition, match="row 2"):
        c4.batch_solve(boards)
    masked = c4.batch_solve(boards, errors="mask")
    assert masked.status.tolist() == [0, 0, 1, 0, 0, 0]
    assert masked.best_move[2] == -1


def test_node_limit(c4: Any) -> None:
    with pytest.raises(SearchLimitExceeded):
        c4.solve("", node_limit=50, book=None)
    result = c4.batch_solve(
        np.zeros((2, 6, 7), dtype=np.uint8), node_limit=50, errors="mask", book=None
    )
    assert result.status.tolist() == [2, 2]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("1111111", "move 7 of '1111111': column 1 is full"),
        ("8", "column 8 is off the board"),
        ("0453", r"move 1 of '0453': column 0 is off the board \(columns are 1..7 here\)"),
        (
            "4453x",
            r"^neither a move string \(columns from 1, digits only or split by spaces or commas, "
            r"as in '4453' or '4 4 5 3'\) nor a "
            r"board \(rows of x o . or 1 2 0, top row first, split by /\): unknown symbol '4'",
        ),
        ([[0, 1], [0, 0]], "above an empty cell"),
        ([[0, 0], [2, 0]], "first player"),
        ("", "width"),
    ],
)
def test_bad_positions_say_what_is_wrong(c4: Any, position: Any, message: str) -> None:
    size = {"width": 0} if message == "width" else {}
    with pytest.raises(ValueError, match=message):
        c4.solve(position, **size)


def test_reachability(c4: Any) -> None:
    assert c4.is_reachable("4453")
    assert c4.is_reachable([[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 2, 0]], width=3, height=4) is True
    assert not c4.is_reachable([[0, 0], [0, 0], [2, 0]])  # second player first
    assert not c4.is_reachable([[1, 0], [1, 0], [1, 0], [1, 0], [2, 2], [2, 2]])  # too many
    # Two fours: the game ended at the first.
    both = [[0] * 7 for _ in range(6)]
    for row in (3, 4, 5):
        both[row][0], both[row][1] = 1, 2
    both[2][0] = 1  # four for the first player
    both[2][1] = 2  # and then one for the second
    assert not c4.is_reachable(both)
    # The four's last stone is column 2's top, not column 1's: every candidate must be tried.
    assert c4.is_reachable([[2, 0, 0, 2], [1, 0, 0, 1], [2, 2, 2, 2], [1, 2, 1, 1], [2, 1, 1, 1]])


@pytest.mark.compiled
def test_wide_boards_are_checked_without_a_table_of_every_order(c4: Any) -> None:
    """A 32x1 board (2^32 height vectors: a fuzzed one made the core allocate a flag for each,
    and the process was killed for its memory) is refused as too wide; 16 columns are the
    most, and 16x3 boards (4^16 height vectors) are checked without such a table."""
    with pytest.raises(ValueError, match="at most 16 columns"):
        c4.is_reachable([[1, 2] * 16])
    row = [1, 2] * 8
    assert c4.is_reachable([row])
    assert c4.solve([row]).plies == 0
    assert not c4.is_reachable([[2, 1] * 7 + [2, 2]])  # more second-player stones
    assert c4.is_reachable([[0] * 16, [2, 1] * 8, [1, 2] * 8])


def test_every_random_position_is_reachable() -> None:
    for width, height in ((4, 4), (4, 5), (5, 4), (7, 6)):
        boards = RUST.random_positions(5000, width=width, height=height, seed=1)
        result = RUST.batch_solve(boards, errors="mask", node_limit=1)
        assert (result.status != 1).all()


# --- positions ------------------------------------------------------------------------


def test_position_plays_draws_and_pickles() -> None:
    opening = connect4.Position("4453")
    assert opening.legal_moves == tuple(range(7))
    assert opening.to_move == "x"
    after = opening.play(3)
    assert after.to_move == "o" and after != opening
    moves, (score,) = PONS[5]  # near the end: quick on the twin too
    position = connect4.Position(moves)
    assert connect4.Position.start() == connect4.Position("")
    assert "x" in str(position) and len(str(position).splitlines()) == 6
    assert position.svg().startswith("<svg") and "circle" in position.svg()
    assert pickle.loads(pickle.dumps(position)) == position
    assert position.score() == score
    assert position.solve().best_moves == connect4.solve(moves).best_moves
    assert position.best_moves() == position.best_moves(book=None) == position.solve().best_moves
    assert position.legal_moves == tuple(sorted(connect4.analyze(moves)))
    with pytest.raises(ValueError, match="off the board"):
        position.play(9)


def centre_most(columns: tuple[int, ...], width: int) -> int:
    """The column of ``columns`` nearest the centre, the left one of two."""
    return min(columns, key=lambda col: (abs(2 * col - (width - 1)), col))


def test_best_move_and_every_turn_of_the_line_take_the_best_column_nearest_the_centre(
    c4: Any,
) -> None:
    # After 333 on 5x4 every column draws in 17 plies.
    assert c4.solve("333", width=5, height=4).best_moves == (0, 1, 2, 3, 4)
    assert c4.best_move("333", width=5, height=4) == 2  # not 0, the lowest
    assert c4.best_move("", width=4, height=4) == 1  # of two at the centre, the left one
    for size, seed, plies in SETS:
        width = size.get("width", 7)
        boards = RUST.random_positions(60, seed=seed + 100, plies=plies, **size)
        batch = c4.batch_solve(boards, **size)
        for row, board in enumerate(boards):
            codes = board.tolist()
            solution = c4.solve(codes)
            expected = centre_most(solution.best_moves, width) if solution.best_moves else None
            assert solution.best_move == c4.best_move(codes) == expected
            assert batch.best_move[row] == (-1 if expected is None else expected)
            position = connect4.Position(codes)
            for move in solution.line:  # each turn: that position's centre-most best column
                assert move == centre_most(c4.best_moves(position.text()), width)
                position = position.play(move)
            assert position.is_over


def test_best_moves_without_the_line_match_the_solution(c4: Any) -> None:
    for moves, _ in PONS[:40]:
        assert c4.best_moves(moves) == c4.solve(moves).best_moves
    assert c4.best_moves("1212121") == ()  # over: the first player made four in column 1
    assert c4.best_moves("", width=4, height=4) == c4.solve("", width=4, height=4).best_moves


@pytest.mark.compiled
def test_a_position_reads_the_packaged_book_on_seven_by_six() -> None:
    """The opening moves come from the book without a search (a node limit of 1 is enough;
    without the book it is not), and give the module functions' answers with the book."""
    empty = connect4.Position("")
    assert empty.best_moves(node_limit=1) == (3,)
    assert empty.analyze(node_limit=1) == connect4.analyze("", book=openings.packaged())
    after = connect4.Position("44")
    assert after.score(node_limit=1) == connect4.score("44", book=openings.packaged())
    with pytest.raises(SearchLimitExceeded):
        after.best_moves(book=None, node_limit=1)
    small = connect4.Position("", width=4, height=4)  # no packaged book of this size
    assert small.best_moves() == connect4.solve("", width=4, height=4).best_moves


# --- the command line -----------------------------------------------------------------


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return perfectplay_command("connect4", *args, stdin=stdin)


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_cli_prints_what_pons_prints(backend: str, tmp_path: Path) -> None:
    near_end = [(m, s) for m, s in PONS[:100] if backend == "rust" or 42 - len(m) <= 12]
    result = run_cli("--backend", backend, stdin="".join(m + "\n" for m, _ in near_end))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "".join(f"{m} {s[0]}\n" for m, s in near_end)
    analysed = [(m, s) for m, s in PONS_ANALYZE[:40] if backend == "rust" or 42 - len(m) <= 12]
    result = run_cli("-a", "--backend", backend, stdin="".join(m + "\n" for m, _ in analysed))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "".join(f"{m} {' '.join(str(x) for x in s)}\n" for m, s in analysed)


def test_cli_reports_bad_lines_and_answers_the_rest() -> None:
    """As Pons' solver does: a bad line is one line on standard error, the next lines are still
    answered; the exit status says that one was bad."""
    moves, (score,) = PONS[150]
    result = run_cli(stdin=f"12121212\n{moves}\n1111111\n1212121\nx\n{moves}\n")
    assert result.returncode == 1
    assert result.stdout == f"{moves} {score}\n{moves} {score}\n"
    assert result.stderr.splitlines()[:4] == [
        "perfectplay connect4: line 1: move 8 of '12121212': the game is over (four in a row) "
        "before move 8",
        "perfectplay connect4: line 3: move 7 of '1111111': column 1 is full",
        "perfectplay connect4: line 4: the game is over after the last move of '1212121' (four "
        "in a row)",
        result.stderr.splitlines()[3],
    ]
    assert result.stderr.splitlines()[3].startswith("perfectplay connect4: line 5:")
    assert len(result.stderr.splitlines()) == 4
    # An empty line is the empty board (on 4x4: 7x6 takes minutes).
    small = run_cli("--width", "4", "--height", "4", stdin="1\n\n")
    assert small.stdout == "1 0\n 0\n" and small.returncode == 0


@pytest.mark.compiled
def test_ctrl_c_stops_a_search_in_a_child_forked_from_a_worker_thread() -> None:
    """Which thread receives Ctrl-C is learnt once per thread and process: in a child forked
    from a worker thread that thread is the main one, and its searches stop at Ctrl-C there."""
    script = """
import _thread, os, signal, threading, time, warnings
warnings.simplefilter("ignore", DeprecationWarning)  # forking with threads running (3.12+)
# As in a terminal: a background CI job starts the interpreter with SIGINT ignored.
signal.signal(signal.SIGINT, signal.default_int_handler)
from perfectplay._kernel.backend import implementation
rust = implementation("connect4", "rust")
reader, writer = os.pipe()

def worker():
    rust.score("2252576253462244111563365343671351441")  # learnt here: not the main thread
    if os.fork() == 0:
        threading.Timer(0.3, _thread.interrupt_main).start()
        start = time.monotonic()
        try:
            # minutes; the limit bounds a failure
            rust.score("", node_limit=2_000_000_000, book=None)
        except KeyboardInterrupt:
            # Stopped by the search itself, not raised after it reached its limit.
            if time.monotonic() - start < 30:
                os.write(writer, b"stopped")
        os._exit(0)
    os.close(writer)
    print(os.read(reader, 100).decode())

thread = threading.Thread(target=worker)
thread.start()
thread.join()
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert run.stdout.strip() == "stopped", run.stderr


def test_a_move_string_may_end_with_a_newline(c4: Any) -> None:
    assert c4.score("4453\n") == c4.score(" 4453\r\n") == -2
    assert connect4.Position("4453\n") == connect4.Position("4453")


def test_a_column_beyond_64_bits_is_not_shown_as_another_number(c4: Any) -> None:
    for huge in (2**70, -(2**70), 2**64):
        with pytest.raises(ValueError, match=r"move 2: a column of 64 bits or more is off"):
            c4.score([3, huge])
    with pytest.raises(ValueError, match=r"move 1: column 9 is off the board"):
        c4.score([9])


NEAR_THE_END = "2252576253462244111563365343671351441"


@pytest.mark.parametrize("split", [" ", ",", ", ", "\t"])
def test_a_move_string_split_by_spaces_or_commas_is_the_same_moves(c4: Any, split: str) -> None:
    """Move strings as language models write them: digits split by spaces, tabs or commas."""
    text = f" {split.join(NEAR_THE_END)}\n"
    assert c4.solve(text) == c4.solve(NEAR_THE_END)
    assert c4.analyze(text) == c4.analyze(NEAR_THE_END)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4 4 9", "move 3 of '4 4 9': column 9 is off the board"),
        ("1,1,1,1,1,1,1", "move 7 of '1,1,1,1,1,1,1': column 1 is full"),
        (",4453", "neither a move string"),
        ("4453,", "neither a move string"),
        ("4;4", "neither a move string"),
    ],
)
def test_a_split_move_string_that_is_wrong_says_so(c4: Any, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        c4.solve(text)


def test_a_move_string_of_any_length_is_read_only_as_far_as_the_board_goes(c4: Any) -> None:
    """A move past the full board is an error at its number, so a text of a million digits
    costs no more than one of 43: the same error, quickly, on both backends; the message quotes
    the text's first 40 characters and its length."""
    long = "1" * 1_000_000
    quoted = r"'1{40}'\.\.\. \(1000000 characters\)"
    with pytest.raises(ValueError, match=rf"^move 7 of {quoted}: column 1 is full$"):
        c4.value(long)
    won = "2252576253462244111563365343671351441" + "7" * 100_000
    quoted = r"'\d{40}'\.\.\. \(100037 characters\)"
    with pytest.raises(
        ValueError, match=rf"^move 40 of {quoted}: the game is over \(four in a row\)"
    ):
        c4.value(won)


WIDE = wide_positions()


@pytest.mark.compiled
def test_positions_past_64_bits_score_as_the_independent_solver() -> None:
    """Every position of 10x6, 8x8 and 7x9 (and 9x5) in the shared data, on two threads, as
    the independent solver scores it; the value is its sign and the best moves keep it."""
    assert {(w, h) for w, h, _, _ in WIDE} >= {(10, 6), (8, 8), (7, 9)}
    for width, height, moves, expected in WIDE:
        size = {"width": width, "height": height}
        assert RUST.score(moves, threads=2, **size) == expected, (width, height, moves)
        assert RUST.value(moves, **size) == (expected > 0) - (expected < 0)
    for width, height, moves, expected in WIDE[::11]:
        size = {"width": width, "height": height}
        for column in RUST.best_moves(moves, **size):
            assert -RUST.score([*moves, column], **size) == expected


@pytest.mark.both_backends
def test_positions_past_64_bits_on_the_twin() -> None:
    """The twin on the shared positions near the end (its exhaustive search is slow elsewhere)."""
    deep = [row for row in WIDE if row[0] * row[1] - len(row[2]) <= 17]
    assert len(deep) >= 5
    for width, height, moves, expected in deep:
        size = {"width": width, "height": height}
        assert PYTHON.score(moves, **size) == expected, (width, height, moves)
        assert PYTHON.analyze(moves, **size) == RUST.analyze(moves, **size)


@pytest.mark.both_backends
@pytest.mark.parametrize(("width", "height"), [(8, 8), (13, 4), (16, 7)])
def test_backends_agree_past_64_bits(width: int, height: int) -> None:
    """Random positions of 8x8, of 13x4 and of 16x7, the largest board (128 bits), 12 cells
    from the end: the same batch labels and answers on both backends, and the same random
    rows drawn."""
    size = {"width": width, "height": height}
    games = quiet_games(width, height, 12, 60, seed=width)
    fast, twin = (
        RUST.batch_solve(games, moves=True, **size),
        PYTHON.batch_solve(games, moves=True, **size),
    )
    for name, column in fast.to_dict().items():
        if name != "nodes":
            assert np.array_equal(column, twin.to_dict()[name]), name
    assert (fast.status == 0).all()
    for moves in games[::15]:
        assert RUST.solve(moves, **size) == PYTHON.solve(moves, **size)
        assert RUST.analyze(moves, **size) == PYTHON.analyze(moves, **size)
    drawn = RUST.random_positions(200, seed=3, **size)
    assert np.array_equal(drawn, PYTHON.random_positions(200, seed=3, **size))


def test_boards_past_128_bits_are_refused(c4: Any) -> None:
    with pytest.raises(ValueError, match=r"16x8 board does not fit.*at most 128"):
        c4.solve("", width=16, height=8)
    with pytest.raises(ValueError, match=r"17x4 board does not fit.*at most 16 columns"):
        c4.solve("", width=17, height=4)


def test_boards_under_four_columns_have_fours_only_in_columns(c4: Any) -> None:
    """A board one to three columns wide and as tall as its integer allows: the shifts that find
    a four across columns would reach past the last bit (the compiled core once took a lone
    stone of a 1x62 board for a line)."""
    for height in (62, 63, 127):  # the tallest single columns on 64 and on 128 bits
        size = {"width": 1, "height": height}
        for stones in (1, 3, 5, height - 2):
            assert c4.is_reachable([0] * stones, **size)
        assert c4.score([0] * (height - 2), book=None, **size) == 0
    # X at rows 0 and 2 of the first column and 1 and 3 of the second: no line.
    for height in (31, 63):
        crossed = [0, 1, 1, 0, 0, 1, 1, 0]
        assert c4.is_reachable(crossed, width=2, height=height)
    assert c4.is_reachable([0, 1, 2, 1, 1, 0, 0, 2, 2], width=3, height=41)


@pytest.mark.both_backends
def test_backends_agree_near_the_end_of_boards_under_four_columns() -> None:
    """Tall boards of two and three columns, on 64 bits (3x20, 2x31) and 128 (3x41): where the
    compiled core once saw lines across columns that are not there."""
    for width, height in ((3, 20), (2, 31), (3, 41)):
        size, cells = {"width": width, "height": height}, width * height
        drawn = RUST.random_positions(3000, seed=4, plies=(cells - 9, cells - 1), **size)
        near_end = [board for board in drawn if (board != 0).sum() >= cells - 9][:60]
        assert len(near_end) >= 50
        for board in near_end:
            codes = board.tolist()
            assert RUST.solve(codes, book=None, **size) == PYTHON.solve(codes, book=None, **size)


def test_wide_boards_write_moves_as_column_numbers(c4: Any) -> None:
    """Past 9 columns a move string is column numbers from 1 split by spaces or commas, each
    read whole; an error names the column as it was written."""
    size = {"width": 10, "height": 6}
    assert connect4.Position("10 1 10,5", **size) == connect4.Position([9, 0, 9, 4], **size)
    with pytest.raises(ValueError, match=r"move 2 of '1 11': column 11 is off the board"):
        c4.solve("1 11", **size)
    with pytest.raises(ValueError, match=r"move 1 of '0 1': column 0 is off the board"):
        c4.solve("0 1", **size)
    with pytest.raises(ValueError, match=r"column 4453 is off the board \(columns are 1..10"):
        c4.solve("4453", **size)
    with pytest.raises(ValueError, match="a column of 64 bits or more"):
        c4.solve("1 " + "9" * 30, **size)
    # Read only as far as the board goes: a long text costs nothing past it.
    with pytest.raises(ValueError, match=r"move 8 of .*: the game is over"):
        c4.solve("1 2 " * 1_000_000, **size)


def test_a_position_plays_past_64_bits() -> None:
    size = {"width": 8, "height": 8}
    position = connect4.Position("", **size).play(3).play(4)
    assert position == connect4.Position([3, 4], **size) == connect4.Position("4 5", **size)
    assert position.legal_moves == tuple(range(8)) and position.to_move == "x"
    assert len(str(position).splitlines()) == 8 and "<svg" in position.svg()
    assert pickle.loads(pickle.dumps(position)) == position
    width, height, moves, expected = max(
        (row for row in WIDE if row[:2] == (8, 8)), key=lambda row: len(row[2])
    )
    deep = connect4.Position(moves, width=width, height=height)
    assert deep.score() == expected
    wide = connect4.Position("10 1 10", width=10, height=6).play(4)
    assert wide == connect4.Position([9, 0, 9, 4], width=10, height=6)


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_the_command_plays_boards_past_64_bits(backend: str) -> None:
    """``perfectplay connect4 --width W --height H`` scores 8x8, 7x9 and 10x6 as the
    independent solver does: Pons' digits to 9 columns, column numbers split by spaces past
    9 (the twin on the positions near the end)."""
    for width, height in [(8, 8), (7, 9), (10, 6)]:
        rows = [row for row in WIDE if row[:2] == (width, height)]
        if backend == "python":
            rows = [row for row in rows if width * height - len(row[2]) <= 17]
        rows = rows[:4]
        assert rows, (width, height)
        if width <= 9:
            lines = ["".join(str(column + 1) for column in moves) for _, _, moves, _ in rows]
        else:
            lines = [" ".join(str(column + 1) for column in moves) for _, _, moves, _ in rows]
        size = ("--width", str(width), "--height", str(height))
        result = run_cli("--backend", backend, *size, stdin="".join(f"{line}\n" for line in lines))
        assert result.returncode == 0, result.stderr
        expected = [f"{line} {score}" for line, (_, _, _, score) in zip(lines, rows, strict=True)]
        assert result.stdout.splitlines() == expected


def test_a_batch_picks_its_board_integer_from_every_row(c4: Any) -> None:
    """A row past 64 bits reads in a batch as it reads alone (here a 1x100 board no game
    reaches), and an empty batch of a wide size is a batch of that size."""
    with pytest.raises(IllegalPosition, match="row 0: the first player has 100 stones"):
        c4.batch_solve([["x"] * 100])
    assert c4.batch_solve([], width=8, height=8).value.shape == (0,)
