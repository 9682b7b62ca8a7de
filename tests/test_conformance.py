"""The conformance kit (tests/conformance.py) run for every game: both backends agree on
random legal positions, answers and exception classes alike; a solution's line plays out by
the plain rules to the promised end; analyze agrees with solve; threads agree; the error
classes are exactly the promised ones."""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perfectplay
from conformance import GAMES, Game, outcome_of
from perfectplay import IllegalPosition, SearchLimitExceeded
from perfectplay._kernel.backend import implementation

# Compares the backends with each other whatever PERFECTPLAY_BACKEND says.
pytestmark = pytest.mark.both_backends

BY_NAME = {game.name: game for game in GAMES}
NAMES = list(BY_NAME)


def rank(answer: tuple[int, int]) -> tuple[int, int]:
    """How good a move's (value, plies) is for its player: win fastest, lose slowest."""
    value, plies = answer
    return (value, -plies if value > 0 else plies)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_backends_agree_and_lines_play_out(name: str, data: st.DataObject) -> None:
    game: Game = BY_NAME[name]
    position = data.draw(game.positions)
    rust_api, python_api = implementation(name, "rust"), implementation(name, "python")
    solution = game.solve(rust_api, *position)
    assert solution == game.solve(python_api, *position)
    analysis = game.analyze(rust_api, *position)
    assert analysis == game.analyze(python_api, *position)
    ranked = game.ranked_moves(rust_api, *position)
    assert ranked == game.ranked_moves(python_api, *position)
    # Ranked: the analysis, best first, the first the move best_move takes.
    assert {move: (value, plies) for move, value, plies in ranked} == analysis
    assert len(ranked) == len(analysis)
    order = [rank((value, plies)) for _, value, plies in ranked]
    assert order == sorted(order, reverse=True)
    assert (ranked[0][0] if ranked else None) == game.best_move(rust_api, *position)

    over, winner, played = game.replay(position, solution)
    assert over and played == solution.plies == len(solution.line)
    assert winner == solution.winner

    # The best moves are exactly the moves analyze ranks highest.
    if analysis:
        best = max(rank(answer) for answer in analysis.values())
        assert tuple(move for move, a in analysis.items() if rank(a) == best) == tuple(
            sorted(solution.best_moves)
        )
        assert rank(analysis[solution.best_moves[0]]) == (
            solution.value,
            -solution.plies if solution.value > 0 else solution.plies,
        )
    else:
        assert solution.best_moves == () and solution.plies == 0


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=800, deadline=None)
@given(data=st.data())
def test_malformed_input_raises_the_same_class(name: str, data: st.DataObject) -> None:
    game = BY_NAME[name]
    arguments = data.draw(game.malformed)
    rust, python = (
        outcome_of(game.check, implementation(name, backend), *arguments)
        for backend in ("rust", "python")
    )
    assert rust == python


def test_every_registered_game_is_in_the_kit() -> None:
    assert list(perfectplay.GAMES) == NAMES


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_threads_agree_with_one(name: str, data: st.DataObject) -> None:
    game = BY_NAME[name]
    api = implementation(name, "rust")
    positions = data.draw(st.lists(game.positions, min_size=30, max_size=30))
    expected = [game.solve(api, *position) for position in positions]
    results: list[list[Any]] = []

    def run() -> None:
        results.append([game.solve(api, *position) for position in positions])

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


class ErrorCase(NamedTuple):
    id: str
    game: str
    function: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    error: type[Exception]


ERRORS = [
    ErrorCase("ttt illegal", "tictactoe", "value", ("xxx/.../...",), {}, IllegalPosition),
    ErrorCase("ttt symbol", "tictactoe", "value", ("xq.......",), {}, ValueError),
    ErrorCase("ttt type", "tictactoe", "solve", (None,), {}, TypeError),
    ErrorCase("ttt batch row", "tictactoe", "batch_values", (["x" * 9],), {}, IllegalPosition),
    ErrorCase("mnk illegal", "mnk", "solve", ("xxx/.../...", 3), {}, IllegalPosition),
    ErrorCase("mnk k", "mnk", "solve", ("x../.../...", 5), {}, ValueError),
    ErrorCase("mnk k type", "mnk", "solve", ("x../.../...", 2.0), {}, TypeError),
    ErrorCase("mnk board type", "mnk", "analyze", (1.5, 3), {}, TypeError),
    ErrorCase(
        "mnk limit", "mnk", "solve_empty", (4, 4, 4), {"node_limit": 10}, SearchLimitExceeded
    ),
    ErrorCase("mnk table", "mnk", "solve_empty", (3, 3, 3), {"table_mb": 0}, ValueError),
    ErrorCase("c4 full column", "connect4", "solve", ("1111111",), {}, ValueError),
    ErrorCase("c4 after a four", "connect4", "solve", ("12121212",), {}, ValueError),
    ErrorCase("c4 floating", "connect4", "solve", ([[0, 1], [0, 0]],), {}, IllegalPosition),
    ErrorCase("c4 type", "connect4", "analyze", (1.5,), {}, TypeError),
    ErrorCase("c4 size", "connect4", "solve", ("",), {"width": 16, "height": 8}, ValueError),
    ErrorCase("c4 limit", "connect4", "solve", ("",), {"node_limit": 10}, SearchLimitExceeded),
    ErrorCase("footholds hole", "footholds", "solve", ("101", (0, 1), (0, 0)), {}, ValueError),
    ErrorCase("footholds type", "footholds", "analyze", (None, (0, 0), (0, 0)), {}, TypeError),
    ErrorCase(
        "footholds limit",
        "footholds",
        "total_moves",
        ("11111/11111/11111", (0, 0), (2, 4)),
        {"node_limit": 5},
        SearchLimitExceeded,
    ),
]


@pytest.mark.parametrize("backend", ["rust", "python"])
@pytest.mark.parametrize("case", ERRORS, ids=[case.id for case in ERRORS])
def test_errors_are_exactly_the_promised_class(case: ErrorCase, backend: str) -> None:
    function = getattr(implementation(case.game, backend), case.function)
    with pytest.raises(Exception) as raised:
        function(*case.args, **case.kwargs)
    assert type(raised.value) is case.error
