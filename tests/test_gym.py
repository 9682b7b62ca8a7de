"""``perfectplay.gym`` against the real Gymnasium: the env checker, perfect opponents, forfeits."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import perfectplay.gym  # registers the environments
from perfectplay import mnk
from perfectplay.agents import PerfectAgent


@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("perfectplay/TicTacToe-v0", {}),
        ("perfectplay/TicTacToe-v0", {"play_as": "o", "skill": 0.3}),
        ("perfectplay/MNK-v0", {"rows": 4, "cols": 4, "k": 3}),
        ("perfectplay/MNK-v0", {"rows": 3, "cols": 5, "k": 3, "play_as": "o", "skill": 0.5}),
    ],
)
def test_env_checker_passes(env_id: str, options: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **options)
    check_env(env.unwrapped)
    observation, info = env.reset(seed=3)
    rows, cols = observation.shape[:2]
    assert observation.shape == (rows, cols, 2) and observation.dtype == np.int8
    assert info["action_mask"].shape == (rows * cols,)


def test_random_agent_never_beats_the_perfect_opponent_at_tic_tac_toe() -> None:
    rng = random.Random(1)
    for episode in range(300):
        env = gymnasium.make("perfectplay/TicTacToe-v0", play_as="xo"[episode % 2])
        _, info = env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            _, step_reward, done, truncated, info = env.step(action)
            reward = float(step_reward)
            assert not truncated
        assert reward <= 0


def test_perfect_x_wins_every_episode_of_4x4_k3() -> None:
    env = gymnasium.make("perfectplay/MNK-v0", rows=4, cols=4, k=3, play_as="x", skill=1.0)
    agent = PerfectAgent(seed=5)
    for episode in range(40):
        observation, info = env.reset(seed=episode)
        done = False
        while not done:
            position = info["position"]
            assert np.array_equal(observation[:, :, 0], position.to_array() == 1)
            observation, reward, done, _, info = env.step(position.action(agent.move(position)))
        assert reward == 1.0, f"episode {episode}"


def test_occupied_cell_forfeits_without_an_exception() -> None:
    env = gymnasium.make(
        "perfectplay/MNK-v0", rows=3, cols=4, k=3, play_as="o", seed=9, render_mode="ansi"
    )
    observation, info = env.reset()
    taken = int(np.flatnonzero(observation[:, :, 1].reshape(-1))[0])
    assert info["action_mask"][taken] == 0
    observation, reward, terminated, truncated, info = env.step(taken)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "forfeited" in str(env.render())
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    with pytest.raises(ValueError, match="off the board"):
        env.reset()
        env.step(12)


def test_seeded_resets_repeat_and_arguments_are_checked() -> None:
    env = gymnasium.make("perfectplay/TicTacToe-v0", play_as="o", skill=0.5)
    first = [env.reset(seed=seed)[0].tobytes() for seed in range(20)]
    assert first == [env.reset(seed=seed)[0].tobytes() for seed in range(20)]
    assert len(set(first)) > 1
    with pytest.raises(ValueError, match="play_as"):
        perfectplay.gym.MNKEnv(play_as="z")
    with pytest.raises(ValueError, match="between 0 and 1"):
        perfectplay.gym.TicTacToeEnv(skill=2.0)
    with pytest.raises(ValueError, match="k must be"):
        perfectplay.gym.MNKEnv(3, 3, 5)
    text = perfectplay.gym.TicTacToeEnv(render_mode="ansi")
    text.reset(seed=0)
    assert text.render() == ". . .\n. . .\n. . .\nx to move\n"
    assert isinstance(text.position, mnk.Position)
