"""The Kaggle ConnectX agent, on ConnectX's own observation and configuration shapes (the
``kaggle-environments`` package pins other versions of Gymnasium and OpenSpiel and brings jax
and transformers, so its rules are played here as its ``connectx.py`` plays them): a best move
at every turn, from the empty board to the end, in either seat, on 7x6 and smaller boards."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from perfectplay import connect4
from perfectplay.connectx import connectx_agent, position_from_observation

# Whole games at Kaggle's pace: the compiled core (the twin searches 7x6 past the books, and
# even 5x4 from the start, far too slowly; its answers are held to the core's elsewhere).
pytestmark = pytest.mark.compiled


@pytest.fixture(scope="module", autouse=True)
def books_loaded() -> None:
    """Perfect play on 7x6 from the first move needs the books in memory: a process's first
    7x6 moves are searched without them, under the clock, while they load (tested below)."""
    from perfectplay.connect4 import openings

    openings.packaged()


def play(board: list[int], column: int, mark: int, columns: int, rows: int) -> None:
    """ConnectX's ``play``: the lowest empty cell of the column (rows top first)."""
    row = max(r for r in range(rows) if board[column + r * columns] == 0)
    board[column + row * columns] = mark


def wins(board: list[int], column: int, mark: int, columns: int, rows: int) -> bool:
    """ConnectX's ``is_win`` for the stone just played in ``column``."""
    row = min(r for r in range(rows) if board[column + r * columns] == mark)

    def count(step_row: int, step_col: int) -> int:
        r, c, found = row + step_row, column + step_col, 0
        while 0 <= r < rows and 0 <= c < columns and board[c + r * columns] == mark:
            found, r, c = found + 1, r + step_row, c + step_col
        return found

    return any(
        count(dr, dc) + count(-dr, -dc) + 1 >= 4 for dr, dc in ((1, 0), (0, 1), (1, 1), (1, -1))
    )


def columns_played(board: list[int], history: list[int]) -> str:
    return "".join(str(col + 1) for col in history)


@pytest.mark.parametrize(("columns", "rows"), [(7, 6), (5, 4), (6, 5)])
@pytest.mark.parametrize("seat", [1, 2])
def test_a_best_move_at_every_turn_against_random(columns: int, rows: int, seat: int) -> None:
    rng = random.Random(columns * 10 + rows + seat)
    configuration = SimpleNamespace(rows=rows, columns=columns, inarow=4, actTimeout=2)
    for game in range(3 if (columns, rows) == (7, 6) else 2):
        board = [0] * (rows * columns)
        history: list[int] = []
        mark, winner = 1, None
        while winner is None and len(history) < rows * columns:
            legal = [c for c in range(columns) if board[c] == 0]
            if mark == seat:
                observation = SimpleNamespace(board=list(board), mark=mark)
                column = connectx_agent(observation, configuration)
                best = connect4.best_moves(history, width=columns, height=rows)
                assert column in best, (columns_played(board, history), column, best)
            else:
                column = rng.choice(legal)
            play(board, column, mark, columns, rows)
            history.append(column)
            if wins(board, column, mark, columns, rows):
                winner = mark
            mark = 3 - mark
        value = connect4.value("", width=columns, height=rows)
        if seat == 1 and value > 0:
            assert winner == 1, f"game {game}: the first player's win was lost"
        assert winner != 3 - seat or value < 0, f"game {game}: the agent lost a game it holds"


def test_dicts_as_well_as_kaggles_objects() -> None:
    board = [0] * 42
    for mark, column in ((1, 3), (2, 3), (1, 4), (2, 2)):
        play(board, column, mark, 7, 6)
    as_dicts = connectx_agent({"board": board, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
    as_objects = connectx_agent(
        SimpleNamespace(board=board, mark=1),
        SimpleNamespace(rows=6, columns=7, inarow=4, actTimeout=2),
    )
    assert as_dicts == as_objects
    assert as_dicts in connect4.best_moves("4453")


@pytest.mark.parametrize(
    ("observation", "configuration", "message"),
    [
        ({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 5}, "inarow=4"),
        ({"board": [0] * 41, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4}, "41 cells"),
        ({"board": [0] * 42, "mark": 2}, {"rows": 6, "columns": 7, "inarow": 4}, "mark 2"),
        ({"board": [0] * 42}, {"rows": 6, "columns": 7, "inarow": 4}, "'mark'"),
        ({"board": [0] * 117, "mark": 1}, {"rows": 9, "columns": 13, "inarow": 4}, "does not fit"),
    ],
)
def test_what_is_no_connectx_position_is_a_clear_error(
    observation: Any, configuration: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        connectx_agent(observation, configuration)


def test_the_position_of_an_observation_is_the_board_as_played() -> None:
    """``position_from_observation`` reads ConnectX's flat board as the game stands, finished
    games included, and refuses what the agent refuses."""
    rng = random.Random(5)
    for columns, rows in ((7, 6), (5, 4), (4, 4)):
        for _ in range(40):
            board, here = [0] * (columns * rows), connect4.Position.empty(columns, rows)
            for _ in range(rng.randrange(columns * rows + 1)):
                if here.is_over:
                    break
                column = rng.choice(here.legal_moves)
                play(board, column, 1 if here.to_move == "x" else 2, columns, rows)
                here = here.play(column)
            mark = 1 if here.to_move in ("x", None) else 2
            observation = {"board": board, "mark": mark}
            read = position_from_observation(observation, {"rows": rows, "columns": columns})
            assert read == here
    for observation, configuration, message in (
        ({"board": [0] * 42, "mark": 2}, EMPTY_7X6, "mark 2"),
        ({"board": [0] * 41, "mark": 1}, EMPTY_7X6, "41 cells"),
        ({"board": [0] * 42, "mark": 1}, {**EMPTY_7X6, "inarow": 3}, "inarow=4"),
    ):
        with pytest.raises(ValueError, match=message):
            position_from_observation(observation, configuration)


def test_a_search_past_the_time_falls_back_to_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no time for the search (one node, no share of the clock), on a board without a
    book (6x5), the agent still wins at once, blocks a win at once, or takes the column nearest
    the centre."""
    import perfectplay.connectx

    monkeypatch.setattr(perfectplay.connectx, "CONNECTX_TIME_SHARE", 0)
    monkeypatch.setattr(perfectplay.connectx, "_FIRST_NODES", 1)
    fallbacks: list[int] = []
    fallback = perfectplay.connectx._connectx_fallback

    def counted(*args: Any) -> int:
        fallbacks.append(1)
        return fallback(*args)

    monkeypatch.setattr(perfectplay.connectx, "_connectx_fallback", counted)
    configuration = {"rows": 5, "columns": 6, "inarow": 4, "actTimeout": 1}
    cases = {"": 2, "121212": 0, "12121": 0}  # the centre; a win at once; a block
    for moves, expected in cases.items():
        board = [0] * 30
        for ply, column in enumerate(moves):
            play(board, int(column) - 1, 1 + ply % 2, 6, 5)
        mark = 1 + len(moves) % 2
        assert connectx_agent({"board": board, "mark": mark}, configuration) == expected, moves
    assert fallbacks, "the search never ran out of time"


def test_the_agent_is_still_found_at_its_first_address() -> None:
    """Kaggle submissions import it from ``perfectplay.agents``, where it was first."""
    import perfectplay.agents
    import perfectplay.connectx

    assert perfectplay.agents.connectx_agent is perfectplay.connectx.connectx_agent
    assert perfectplay.agents.CONNECTX_TIME_SHARE == perfectplay.connectx.CONNECTX_TIME_SHARE
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        perfectplay.agents.nothing  # noqa: B018


EMPTY_7X6 = {"rows": 6, "columns": 7, "inarow": 4}


@pytest.mark.parametrize(
    ("observation", "configuration", "kind", "message"),
    [
        ({"board": [0.5] + [0] * 41, "mark": 1}, EMPTY_7X6, ValueError, r"board\[0\] must be"),
        ({"board": [0] * 42, "mark": 1.5}, EMPTY_7X6, ValueError, "observation.mark must be"),
        ({"board": [0] * 42, "mark": float("nan")}, EMPTY_7X6, ValueError, "mark must be a whole"),
        ({"board": [0] * 42, "mark": float("inf")}, EMPTY_7X6, ValueError, "mark must be a whole"),
        ({"board": [3] + [0] * 41, "mark": 1}, EMPTY_7X6, ValueError, r"board\[0\] is 3"),
        ({"board": [None] * 42, "mark": 1}, EMPTY_7X6, TypeError, r"board\[0\] must be an int"),
        ({"board": None, "mark": 1}, EMPTY_7X6, TypeError, "observation.board must be a list"),
        ({"board": "0" * 42, "mark": 1}, EMPTY_7X6, TypeError, "observation.board must be a list"),
        ({"board": {0: 0}, "mark": 1}, EMPTY_7X6, TypeError, "observation.board must be a list"),
        ({"board": [0] * 42, "mark": None}, EMPTY_7X6, TypeError, "observation.mark must be"),
        (
            {"board": [0] * 42, "mark": 1},
            {**EMPTY_7X6, "rows": 6.5},
            ValueError,
            "configuration.rows must be a whole",
        ),
        (
            {"board": [0] * 42, "mark": 1},
            {**EMPTY_7X6, "columns": "7"},
            TypeError,
            "configuration.columns must be an int",
        ),
        (
            {"board": [0] * 42, "mark": 1},
            {**EMPTY_7X6, "actTimeout": float("nan")},
            ValueError,
            "actTimeout must be a finite, positive number",
        ),
        (
            {"board": [0] * 42, "mark": 1},
            {**EMPTY_7X6, "actTimeout": None},
            TypeError,
            "actTimeout must be a number",
        ),
    ],
)
def test_a_field_that_is_no_connectx_value_is_named(
    observation: Any, configuration: Any, kind: type[Exception], message: str
) -> None:
    with pytest.raises(kind, match=message):
        connectx_agent(observation, configuration)


def test_an_endless_board_is_refused_without_reading_it() -> None:
    def endless() -> Any:
        while True:
            yield 0

    with pytest.raises(TypeError, match=r"observation\.board must be a list"):
        connectx_agent({"board": endless(), "mark": 1}, EMPTY_7X6)


def test_whole_numbers_as_floats_and_numpy_values_are_taken() -> None:
    import numpy as np

    observation = {"board": np.zeros(42, np.int64), "mark": np.int64(1)}
    configuration = {"rows": 6.0, "columns": 7.0, "inarow": 4, "actTimeout": 2.0}
    assert connectx_agent(observation, configuration) == 3


@pytest.mark.parametrize(("columns", "rows"), [(8, 7), (9, 6)])
def test_a_move_on_a_loaded_machine_stays_within_the_clock(columns: int, rows: int) -> None:
    """Two busy processes per core take the machine while the agent plays the first moves
    of boards too large to solve in time; each move comes back, legal, within Kaggle's
    ``actTimeout`` (2 s): the agent stops its search by the clock, not by a guess at the
    machine's speed (CONNECTX_TIME_SHARE of the time, so a loaded machine keeps a margin)."""
    import multiprocessing
    import os
    import time

    configuration = {"rows": rows, "columns": columns, "inarow": 4, "actTimeout": 2}
    busy = [
        multiprocessing.get_context("spawn").Process(target=_spin, daemon=True)
        for _ in range(2 * (os.cpu_count() or 1))
    ]
    for process in busy:
        process.start()
    try:
        board = [0] * (rows * columns)
        for ply in range(4):
            mark = 1 + ply % 2
            began = time.perf_counter()
            column = connectx_agent({"board": list(board), "mark": mark}, configuration)
            took = time.perf_counter() - began
            assert board[column] == 0, column
            assert took < configuration["actTimeout"], (ply, took)
            play(board, column, mark, columns, rows)
    finally:
        for process in busy:
            process.terminate()
        for process in busy:
            process.join()


def _spin() -> None:
    while True:
        pass


def test_the_first_seven_by_six_move_does_not_wait_for_the_books() -> None:
    """In a fresh process with busy processes beside it, the first moves on 7x6 come within
    the clock while the books load in a thread of their own, and once they are loaded the agent
    plays best moves from them."""
    code = """
import multiprocessing, time
from perfectplay import connect4
from perfectplay.connect4 import openings
from perfectplay.connectx import connectx_agent, position_from_observation

def spin():
    while True:
        pass

if __name__ == "__main__":
    spawn = multiprocessing.get_context("spawn")
    busy = [spawn.Process(target=spin, daemon=True) for _ in range(4)]
    for process in busy:
        process.start()
    configuration = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
    board, took = [0] * 42, []
    board[38] = 1
    for _ in range(2):
        began = time.perf_counter()
        column = connectx_agent({"board": board, "mark": 2}, configuration)
        took.append(time.perf_counter() - began)
        assert board[column] == 0
    for process in busy:
        process.terminate()
    openings.packaged()  # loaded by now, or waited for
    column = connectx_agent({"board": board, "mark": 2}, configuration)
    print(max(took), column in connect4.best_moves("4"))
"""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    slowest, best = run.stdout.split()
    assert float(slowest) < 2 and best == "True", run.stdout
