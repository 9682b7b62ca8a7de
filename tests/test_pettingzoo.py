"""``perfectplay.pettingzoo`` against the real PettingZoo ``tictactoe_v3``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pettingzoo
import pytest

from perfectplay import IllegalPosition, tictactoe
from perfectplay.pettingzoo import PerfectPolicy, action_of_move, position_from_observation


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
