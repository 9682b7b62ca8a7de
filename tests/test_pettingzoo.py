"""``perfectplay.pettingzoo`` against the real PettingZoo ``tictactoe_v3`` and
``connect_four_v3``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pettingzoo
import pytest

from perfectplay import IllegalPosition, connect4, tictactoe
from perfectplay.pettingzoo import (
    PerfectPolicy,
    action_of_move,
    move_of_action,
    position_from_observation,
)


def make_env() -> Any:
    """tictactoe_v3 through PettingZoo's registry (its module import is deprecated)."""
    return pettingzoo.make("aec", "classic/tictactoe-v3")


def play(env: Any, policies: dict[str, Any]) -> tuple[dict[str, float], list[int]]:
    """One game: each agent's final cumulative reward and the actions played."""
    final: dict[str, float] = {}
    actions: list[int] = []
    for agent in env.agent_iter():
        last = env.last()
        final[agent] = last[1]
        action = policies[agent](last)
        if action is not None:
            actions.append(action)
        env.step(action)
    return final, actions


def random_policy(rng: random.Random) -> Any:
    def choose(last: Any) -> int | None:
        observation, _, terminated, truncated, _ = last
        if terminated or truncated:
            return None
        legal: list[int] = np.flatnonzero(observation["action_mask"]).tolist()
        return rng.choice(legal)

    return choose


def test_perfect_policy_never_loses_to_random_in_either_seat() -> None:
    env = make_env()
    rng = random.Random(0)
    perfect = PerfectPolicy(seed=1)
    for game in range(2_000):
        env.reset(seed=game)
        seat = ("player_1", "player_2")[game % 2]
        other = "player_2" if seat == "player_1" else "player_1"
        final, _ = play(env, {seat: perfect, other: random_policy(rng)})
        assert final[seat] >= 0, f"game {game}: the perfect {seat} lost"


def test_perfect_against_perfect_is_always_a_draw_and_varied() -> None:
    env = make_env()
    games = set()
    for game in range(200):
        env.reset(seed=game)
        final, actions = play(
            env, {"player_1": PerfectPolicy(seed=game), "player_2": PerfectPolicy(seed=-game - 1)}
        )
        assert final == {"player_1": 0, "player_2": 0}
        assert len(actions) == 9
        games.add(tuple(actions))
    assert len(games) >= 100


def test_position_follows_the_environment_board() -> None:
    env = make_env()
    rng = random.Random(3)
    for game in range(100):
        env.reset(seed=game)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            position = position_from_observation(observation)
            # PettingZoo keeps squares column by column: square 3 * col + row.
            squares = env.unwrapped.board.squares
            marks = "".join(".xo"[squares[3 * col + row]] for row in range(3) for col in range(3))
            assert position == tictactoe.Position(marks)
            assert position.to_move == ("x" if agent == "player_1" else "o")
            legal = sorted(action_of_move(cell) for cell in position.legal_actions)
            assert legal == np.flatnonzero(observation["action_mask"]).tolist()
            env.step(rng.choice(legal))


def test_every_final_observation_is_the_final_board() -> None:
    env = make_env()
    rng = random.Random(4)
    for game in range(200):
        env.reset(seed=game)
        position = tictactoe.Position()
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            # The last mover's final observation too (it has one mark more than the other).
            assert position_from_observation(observation) == position
            if terminated or truncated:
                env.step(None)
                continue
            cell = rng.choice(position.legal_actions)
            position = position.play(cell)
            env.step(action_of_move(cell))


def test_policy_returns_none_once_done_and_reads_the_bare_observation() -> None:
    env = make_env()
    env.reset(seed=0)
    observation = env.observe("player_1")
    policy = PerfectPolicy(seed=0)
    assert policy(observation) in range(9)
    assert policy(observation["observation"]) in range(9)
    assert policy((observation, 0, True, False, {})) is None
    final = np.zeros((3, 3, 2), dtype=np.int8)
    final[0, :, 1] = 1  # the opponent has a line (squares 0, 1, 2: one column)
    final[1, :2, 0] = 1
    final[2, 0, 0] = 1
    assert policy(final) is None


@pytest.mark.parametrize(
    ("observation", "message"),
    [
        (np.zeros((3, 3), dtype=np.int8), r"shape \(3, 3, 2\).*got shape \(3, 3\)"),
        (np.zeros((3, 3, 2), dtype=np.float32), "integer or bool dtype"),
        (np.full((3, 3, 2), 2, dtype=np.int8), "only 0 and 1"),
        (np.ones((3, 3, 2), dtype=np.int8), "both players"),
        ({"action_mask": np.ones(9)}, "'observation' entry"),
    ],
)
def test_malformed_observations(observation: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        position_from_observation(observation)


def test_impossible_counts() -> None:
    observation = np.zeros((3, 3, 2), dtype=np.int8)
    observation[0, 0, 0] = observation[1, 1, 0] = 1
    with pytest.raises(IllegalPosition, match="marks"):
        position_from_observation(observation)


# Connect Four: connect_four_v3's planes are [row, col], row 0 on top; its actions are columns.


def connect_four() -> Any:
    return pettingzoo.make("aec", "classic/connect_four-v3")


def test_connect_four_positions_follow_the_moves_played() -> None:
    env = connect_four()
    rng = random.Random(7)
    for game in range(60):
        env.reset(seed=game)
        columns: list[int] = []
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            position = position_from_observation(observation)
            board = connect4.Position(columns)
            if agent == "player_1" and board.is_over and board.winner is None:
                # A full drawn board shows equal counts and no line: documented as read from
                # the first player's side, so the second player's planes come out swapped.
                board = board.with_board((3 - board.to_array()) % 3)
            # Every observation, the last mover's final one included, is the board so far.
            assert position == board, (game, columns, agent)
            if terminated or truncated:
                assert PerfectPolicy()(env.last()) is None
                env.step(None)
                continue
            assert position.to_move == ("x" if agent == "player_0" else "o")
            legal = list(position.legal_actions)
            assert legal == np.flatnonzero(observation["action_mask"]).tolist()
            column = rng.choice(legal)
            columns.append(column)
            env.step(column)


def play_from(env: Any, opening: list[int], policies: dict[str, Any]) -> dict[str, float]:
    """Plays ``opening`` (columns), then lets the policies finish; the final rewards."""
    for column in opening:
        env.step(column)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = float(reward)
            env.step(None)
        else:
            env.step(policies[agent](env.last()))
    return final


def random_opening(rng: random.Random, plies: int) -> list[int]:
    """A random opening of ``plies`` moves that leaves the game going."""
    while True:
        position = connect4.Position.empty()
        columns: list[int] = []
        while len(columns) < plies and not position.is_over:
            columns.append(rng.choice(position.legal_actions))
            position = position.play(columns[-1])
        if not position.is_over:
            return columns


@pytest.mark.compiled  # the twin takes minutes on a 7x6 board after 12 moves
def test_connect_four_perfect_policy_never_does_worse_than_the_value() -> None:
    env = connect_four()
    rng = random.Random(2)
    perfect = PerfectPolicy(seed=3, game="connect_four_v3")
    for game in range(60):
        opening = random_opening(rng, 12)
        position = connect4.Position(opening)
        seat = "player_0" if position.to_move == "x" else "player_1"
        other = "player_1" if seat == "player_0" else "player_0"
        env.reset(seed=game)
        final = play_from(env, opening, {seat: perfect, other: random_policy(rng)})
        assert final[seat] >= position.solve().value, f"game {game}: {opening}"
        env.reset(seed=game)
        both = PerfectPolicy(seed=game)
        final = play_from(env, opening, {"player_0": both, "player_1": both})
        assert final[seat] == position.solve().value, f"game {game}: {opening}"


@pytest.mark.slow
@pytest.mark.compiled  # the twin cannot search a 7x6 board after five stones in time
@pytest.mark.parametrize("seat", ["player_0", "player_1"])
def test_connect_four_perfect_policy_never_loses_to_random_from_the_empty_board(seat: str) -> None:
    """500 games in each seat from the empty 7x6 board: the packaged opening book answers the
    first moves, the search the rest."""
    env = connect_four()
    rng = random.Random(seat)
    perfect = PerfectPolicy(seed=5, game="connect_four_v3")
    other = "player_1" if seat == "player_0" else "player_0"
    for game in range(500):
        env.reset(seed=game)
        final, _ = play(env, {seat: perfect, other: random_policy(rng)})
        assert final[seat] >= 0, f"game {game}: the perfect {seat} lost"


GAMES_OF_PERFECT_PLAY = 20


@pytest.mark.slow
@pytest.mark.compiled
def test_connect_four_perfect_against_perfect_the_first_player_wins_with_the_41st_stone() -> None:
    env = connect_four()
    games = set()
    for game in range(GAMES_OF_PERFECT_PLAY):
        env.reset(seed=game)
        final, actions = play(
            env,
            {
                "player_0": PerfectPolicy(seed=game, game="connect_four_v3"),
                "player_1": PerfectPolicy(seed=-game - 1, game="connect_four_v3"),
            },
        )
        assert final == {"player_0": 1, "player_1": -1}, f"game {game}: {actions}"
        assert len(actions) == 41, f"game {game}: {actions}"
        games.add(tuple(actions))
    assert len(games) > 1  # the best moves are drawn at random: the games differ


def test_connect_four_observation_errors() -> None:
    with pytest.raises(ValueError, match=r"connect_four_v3 observation of shape \(6, 7, 2\)"):
        position_from_observation(np.zeros((7, 6, 2), dtype=np.int8))
    floating = np.zeros((6, 7, 2), dtype=np.int8)
    floating[0, 3, 0] = 1  # a stone in the air
    with pytest.raises(IllegalPosition):
        position_from_observation(floating)
    with pytest.raises(ValueError, match="tictactoe_v3, connect_four_v3, not 'chess_v6'"):
        PerfectPolicy(game="chess_v6")
    assert move_of_action(3, "connect_four_v3") == 3 and action_of_move(6, "connect4") == 6
