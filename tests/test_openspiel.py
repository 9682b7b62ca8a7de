"""``perfectplay.openspiel`` against the real OpenSpiel: its own exact values, its random bots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.minimax_solver import MinimaxSolver
from open_spiel.python.bots.uniform_random import UniformRandomBot

from perfectplay import connect4, mnk, tictactoe
from perfectplay.openspiel import PerfectBot, position_from_state
from tests_support import quiet_games


def every_state(game: Any) -> list[Any]:
    """Every non-terminal state of the game, once each (by its text)."""
    seen: dict[str, Any] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal() or str(state) in seen:
            continue
        seen[str(state)] = state
        stack.extend(state.child(action) for action in state.legal_actions())
    return list(seen.values())


def test_perfect_bot_matches_openspiel_minimax_on_every_tic_tac_toe_state() -> None:
    game = pyspiel.load_game("tic_tac_toe")
    solver = MinimaxSolver("tic_tac_toe")
    solver.solve()
    states = every_state(game)
    assert len(states) == 4520  # 5,478 legal positions less the 958 final ones
    bots = [PerfectBot(game, 0, seed=1), PerfectBot(game, 1, seed=2)]
    for state in states:
        player = state.current_player()
        action_values = solver.action_values_from_state(state)
        best = max(action_values[action] for action in state.legal_actions())
        position = position_from_state(state)
        assert position.solve().value == best, str(state)
        for move, (value, _) in position.analyze().items():
            assert action_values[position.action(move)] == value, str(state)
        action = bots[player].step(state)
        assert action_values[action] == best
        policy, chosen = bots[player].step_with_policy(state)
        assert sum(p for _, p in policy) == pytest.approx(1.0)
        assert all(action_values[a] == best for a, p in policy if p > 0)
        assert action_values[chosen] == best


def test_mnk_parameters_m_is_columns_and_n_is_rows() -> None:
    game = pyspiel.load_game("mnk", {"m": 5, "n": 3, "k": 3})
    state = game.new_initial_state()
    for action in (7, 0, 14):
        state.apply_action(action)
    position = position_from_state(state)
    assert isinstance(position, mnk.Position)
    assert (position.rows, position.cols, position.k) == (3, 5, 3)
    assert position == mnk.Position("o..../..x../....x", 3)
    assert str(state).split() == str(position).replace(" ", "").split()


def test_first_player_wins_every_game_of_4x4_k3_against_random() -> None:
    game = pyspiel.load_game("mnk", {"m": 4, "n": 4, "k": 3})
    for seed in range(100):
        bots = [
            PerfectBot(game, 0, seed=seed),
            UniformRandomBot(1, np.random.RandomState(seed)),
        ]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert list(returns) == [1.0, -1.0], f"game {seed}"


def test_graded_bot_loses_sometimes_and_bad_arguments() -> None:
    game = pyspiel.load_game("tic_tac_toe")
    results = []
    for seed in range(300):
        bots = [PerfectBot(game, 0, skill=0.0, seed=seed), PerfectBot(game, 1, seed=seed + 1000)]
        results.append(pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0])
    assert max(results) <= 0 and min(results) == -1  # never beats perfect play, loses some
    with pytest.raises(ValueError, match="tic_tac_toe, mnk, connect_four, not 'othello'"):
        PerfectBot(pyspiel.load_game("othello"), 0)
    with pytest.raises(ValueError, match="four in a row, not x_in_row=3"):
        PerfectBot(pyspiel.load_game("connect_four", {"x_in_row": 3}), 0)
    with pytest.raises(ValueError, match="player_id"):
        PerfectBot(game, 2)
    with pytest.raises(ValueError, match="turn"):
        PerfectBot(game, 1).step(game.new_initial_state())
    with pytest.raises(TypeError, match=r"pyspiel\.State"):
        position_from_state("x........")
    assert position_from_state(game.new_initial_state()) == tictactoe.Position()


def test_graded_bots_at_every_level() -> None:
    """Level 10 never loses to a lower level and its policy holds only best moves; every
    level's policy is a distribution over the legal actions."""
    from perfectplay.openspiel import GradedBot

    game = pyspiel.load_game("tic_tac_toe")
    for level in range(1, 11):
        for seed in range(6):
            bots = [GradedBot(game, 0, 10, seed=seed), GradedBot(game, 1, level, seed=seed + 50)]
            if seed % 2:
                bots = [GradedBot(game, 0, level, seed=seed), GradedBot(game, 1, 10, seed=seed)]
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            assert returns[0 if seed % 2 == 0 else 1] >= 0
    state = game.new_initial_state()
    for action in (4, 1):
        state.apply_action(action)
    here = position_from_state(state)
    best = {here.action(move) for move in here.best_moves()}
    for level in (1, 5, 10):
        policy, action = GradedBot(game, 0, level, seed=1).step_with_policy(state)
        assert {a for a, _ in policy} == set(state.legal_actions())
        assert sum(p for _, p in policy) == pytest.approx(1.0)
        if level == 10:
            assert {a for a, p in policy if p > 0} == best and action in best
    assert repr(GradedBot(game, 1, 3)) == "GradedBot(player_id=1, level=3)"
    with pytest.raises(ValueError, match="level must be from 1 to 10"):
        GradedBot(game, 0, 11)


def test_connect_four_states_match_positions_and_boards() -> None:
    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(5)
    for _ in range(50):
        state = game.new_initial_state()
        columns: list[int] = []
        while not state.is_terminal():
            position = position_from_state(state)
            assert position == connect4.Position(columns)
            assert list(position.legal_actions) == state.legal_actions()
            # OpenSpiel draws the board top row first, as perfectplay's text does.
            assert str(state).split() == str(position).replace(" ", "").split()
            column = int(rng.choice(state.legal_actions()))
            columns.append(column)
            state.apply_action(column)
        final = position_from_state(state)
        assert final.is_over and final == connect4.Position(columns)
        expected = {"x": [1.0, -1.0], "o": [-1.0, 1.0], None: [0.0, 0.0]}[final.winner]
        assert state.returns() == expected


def test_connect_four_past_64_bits() -> None:
    """OpenSpiel's 8x8 and 7x9 boards: states read as positions, and the bot's move keeps
    the value (random quiet games, 12 cells from the end)."""
    for rows, columns in [(8, 8), (9, 7)]:
        game = pyspiel.load_game("connect_four", {"rows": rows, "columns": columns})
        for seed, moves in enumerate(quiet_games(columns, rows, 12, 4, seed=rows)):
            state = game.new_initial_state()
            for column in moves:
                state.apply_action(column)
            position = position_from_state(state)
            assert position == connect4.Position(moves, width=columns, height=rows)
            assert str(state).split() == str(position).replace(" ", "").split()
            move = PerfectBot(game, state.current_player(), seed=seed).step(state)
            assert move in position.solve().best_moves


@pytest.mark.parametrize(
    ("rows", "columns"),
    [
        (4, 4),
        (3, 5),
        # The boards the pure-Python search takes minutes over; 6x4 is a second player's win.
        pytest.param(4, 6, marks=pytest.mark.compiled),
        pytest.param(4, 5, marks=pytest.mark.compiled),
    ],
)
def test_perfect_connect_four_bot_gets_the_value_against_random(rows: int, columns: int) -> None:
    game = pyspiel.load_game("connect_four", {"rows": rows, "columns": columns})
    value = connect4.Position.empty(columns, rows).solve().value
    for seed in range(5):
        rand = np.random.RandomState(seed)
        bots = [PerfectBot(game, 0, seed=seed), UniformRandomBot(1, rand)]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0] >= value
        bots = [UniformRandomBot(0, rand), PerfectBot(game, 1, seed=seed)]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[1] >= -value
        bots = [PerfectBot(game, 0, seed=seed), PerfectBot(game, 1, seed=seed + 1)]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0] == value


@pytest.mark.slow
@pytest.mark.compiled  # the twin cannot search a 7x6 board after five stones in time
def test_perfect_bot_as_first_player_wins_every_seven_by_six_game_against_random() -> None:
    game = pyspiel.load_game("connect_four")
    for seed in range(50):
        bots = [PerfectBot(game, 0, seed=seed), UniformRandomBot(1, np.random.RandomState(seed))]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0] == 1, seed


def test_a_finished_game_has_no_move() -> None:
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in (0, 3, 1, 4, 2):
        state.apply_action(action)
    with pytest.raises(ValueError, match="the game is over"):
        PerfectBot(game, 0).step(state)


def test_the_kaggle_agent_reads_a_serialized_state() -> None:
    """The agent of kaggle-environments' OpenSpiel environments on pyspiel's own serialized
    states (kaggle's proxy games are played in tests/kaggle, in a venv of their own)."""
    from perfectplay.openspiel import kaggle_agent

    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in (4, 1):
        state.apply_action(action)
    here = position_from_state(state)
    best = {here.action(move) for move in here.best_moves()}
    serialized = pyspiel.serialize_game_and_state(game, state)
    for seed in range(5):
        answer = kaggle_agent(seed=seed)({"serializedGameAndState": serialized}, {})
        assert set(answer) == {"submission"} and answer["submission"] in best
    assert kaggle_agent()({"step": 0}, {}) == {"submission": -1}
    for action in (0, 2, 8):
        state.apply_action(action)
    assert state.is_terminal()
    finished = pyspiel.serialize_game_and_state(game, state)
    assert kaggle_agent()({"serializedGameAndState": finished}, {}) == {"submission": -1}
