"""``perfectplay.gym`` against the real Gymnasium: the env checker, perfect opponents, forfeits."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import perfectplay.gym  # registers the environments
import perfectplay.mnk
from perfectplay import tictactoe
from perfectplay.agents import PerfectAgent
from tests_support import quiet_games


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
    assert isinstance(text.position, tictactoe.Position)


@pytest.mark.parametrize(
    "options",
    [
        {"width": 4, "height": 4},
        {"width": 5, "height": 3, "play_as": "o", "skill": 0.5, "render_mode": "rgb_array"},
        {"render_mode": "ansi", "skill": 0.0},  # 7x6 against a random opponent
    ],
)
def test_connect_four_env_checker_passes(options: dict[str, Any]) -> None:
    env = gymnasium.make("perfectplay/ConnectFour-v0", **options)
    check_env(env.unwrapped)
    observation, info = env.reset(seed=1)
    height, width = options.get("height", 6), options.get("width", 7)
    assert observation.shape == (height, width, 2) and info["action_mask"].shape == (width,)


def test_connect_four_past_64_bits() -> None:
    """An 8x8 environment: the checker against a random opponent, then a game from a random
    quiet position 12 cells from the end against the perfect opponent, whose replies keep
    the value."""
    check_env(gymnasium.make("perfectplay/ConnectFour-v0", width=8, height=8, skill=0.0).unwrapped)
    env = gymnasium.make("perfectplay/ConnectFour-v0", width=8, height=8)
    (moves,) = quiet_games(8, 8, 12, 1, seed=3)
    start = perfectplay.connect4.Position(moves, width=8, height=8)
    observation, info = env.reset(seed=1, options={"position": start})
    assert observation.shape == (8, 8, 2) and info["action_mask"].shape == (8,)
    done = False
    while not done:
        position = info["position"]
        observation, _, terminated, truncated, info = env.step(position.legal_actions[0])
        done = terminated or truncated
        if not done:
            after = position.play(position.legal_actions[0])
            assert info["position"].solve().value == -after.solve().value


def test_connect_four_observation_and_actions_are_columns() -> None:
    env = gymnasium.make("perfectplay/ConnectFour-v0", skill=0.0, render_mode="rgb_array")
    observation, info = env.reset(seed=0)
    observation, _, _, _, info = env.step(3)
    assert observation[5, 3, 0] == 1  # the agent's stone, at the bottom of column 3
    assert observation[:, :, 1].sum() == 1 and observation[:, :, 0].sum() == 1
    assert info["position"].legal_actions == tuple(range(7))
    image = env.unwrapped.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (6 * 32, 7 * 32, 3) and image.dtype == np.uint8
    # The agent's (first player's) disc is drawn in the bottom cell of column 3.
    assert tuple(image[5 * 32 + 16, 3 * 32 + 16]) == (0, 114, 178)


def test_the_perfect_agent_gets_the_value_of_connect_four_4x4() -> None:
    value = perfectplay.connect4.Position.empty(4, 4).solve().value
    env = gymnasium.make("perfectplay/ConnectFour-v0", width=4, height=4, skill=1.0)
    agent = PerfectAgent(seed=5)
    for episode in range(4):
        _, info = env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            position = info["position"]
            _, step_reward, done, _, info = env.step(position.action(agent.move(position)))
            reward = float(step_reward)
        assert reward == value, f"episode {episode}"


def test_a_step_the_opponent_cannot_answer_changes_nothing() -> None:
    env = perfectplay.gym.MNKEnv(5, 5, 4, node_limit=50, render_mode="ansi")
    observation, info = env.reset(seed=0)
    before = (observation.copy(), env.position, env.render())
    for _ in range(2):
        with pytest.raises(perfectplay.SearchLimitExceeded):
            env.step(12)
        assert env.position == before[1] and env.render() == before[2]
        assert np.array_equal(env._observation(), before[0])
    # With room to search, the same step goes through and the opponent replies.
    env = perfectplay.gym.MNKEnv(3, 3, 3, node_limit=None)
    env.reset(seed=0)
    _, _, _, _, info = env.step(4)
    assert info["position"].marks == 2


@pytest.mark.compiled  # the twin searches a node about a hundred times slower
def test_the_default_budget_stops_a_hard_reply_quickly() -> None:
    env = perfectplay.gym.MNKEnv(7, 7, 5)
    env.reset(seed=0)
    with pytest.raises(perfectplay.SearchLimitExceeded):
        env.step(24)
    assert env.position.marks == 0


def make_tic_tac_toe() -> Any:
    return gymnasium.make("perfectplay/TicTacToe-v0", skill=0.5)


def test_async_vector_env_resets_steps_and_closes() -> None:
    envs = gymnasium.vector.AsyncVectorEnv([make_tic_tac_toe, make_tic_tac_toe])
    try:
        observations, infos = envs.reset(seed=[1, 2])
        assert observations.shape == (2, 3, 3, 2)
        assert infos["position"][0] == tictactoe.Position()  # positions cross processes
        observations, *_ = envs.step(np.array([4, 0]))
        assert observations[0, 1, 1, 0] == 1 and observations[1, 0, 0, 0] == 1
    finally:
        envs.close()


@pytest.mark.compiled  # 7x6 replies past the book are searches of millions of nodes
def test_connect_four_replies_past_the_book_fit_the_default_budget() -> None:
    """Against a random agent, the 7x6 opponent's replies just past the depth-6 book needed more
    than m,n,k's 2,000,000 nodes (that budget raised in most episodes); its searches now stop
    at the 12-ply book, and that budget answers the episode that raised; Connect Four's own
    default answers every step."""

    def play(seat: str, episode: int, **budget: Any) -> int:
        env = perfectplay.gym.ConnectFourEnv(play_as=seat, **budget)
        agent = random.Random(episode)
        _, info = env.reset(seed=episode)
        steps, done = 0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(agent.choice(legal)))
            steps += 1
        return steps

    assert play("x", 1, node_limit=perfectplay.gym.DEFAULT_NODE_LIMIT) >= 3
    for seat in ("x", "o"):
        for episode in range(3):
            assert play(seat, episode) >= 3  # the fewest steps of a lost game


def test_node_limit_names_what_it_takes() -> None:
    with pytest.raises(ValueError, match='node_limit must be an int, None or "game"'):
        perfectplay.gym.MNKEnv(node_limit="all")
    assert perfectplay.gym.MNKEnv(node_limit="game")._solve_options == {
        "node_limit": perfectplay.gym.DEFAULT_NODE_LIMIT
    }


@pytest.mark.parametrize(
    ("env_id", "kwargs", "text", "stones"),
    [
        ("perfectplay/TicTacToe-v0", {}, "x../.o./...", 2),
        ("perfectplay/MNK-v0", {"rows": 4, "cols": 4, "k": 3}, "x.../.o../..../....", 2),
        ("perfectplay/ConnectFour-v0", {}, "4453", 4),
    ],
)
def test_reset_starts_from_a_chosen_position(
    env_id: str, kwargs: dict[str, Any], text: str, stones: int
) -> None:
    """``reset(options={"position": ...})`` as Gymnasium's convention has it: from a text or
    a Position; the opponent replies first when it is to move; ``info`` holds the position;
    a plain ``reset()`` starts from the empty board again."""
    for play_as, extra in (("x", 0), ("o", 1)):
        env = gymnasium.make(env_id, play_as=play_as, **kwargs)
        observation, info = env.reset(seed=3, options={"position": text})
        position = info["position"]
        assert int(np.count_nonzero(position.to_array())) == stones + extra
        assert position.to_move == play_as
        assert int(observation.sum()) == stones + extra
        again, info = env.reset(seed=3, options={"position": position})
        assert info["position"] == position and np.array_equal(again, observation)
        _, info = env.reset(seed=3)
        assert int(np.count_nonzero(info["position"].to_array())) == extra
        env.close()


def test_a_chosen_position_that_does_not_fit_is_refused() -> None:
    env = gymnasium.make("perfectplay/MNK-v0", rows=4, cols=4, k=3)
    with pytest.raises(ValueError, match="not a position of this environment's game"):
        env.reset(options={"position": perfectplay.mnk.Position.empty(3, 3, 3)})
    with pytest.raises(ValueError, match="not a position of this environment's game"):
        env.reset(options={"position": perfectplay.mnk.Position.empty(4, 4, 4)})
    with pytest.raises(ValueError, match="already over"):
        env.reset(options={"position": "xxx./oo../..../...."})
    with pytest.raises(TypeError, match=r"options\['position'\] must be a Position or a str"):
        env.reset(options={"position": 7})
    with pytest.raises(ValueError, match="takes the option 'position'"):
        env.reset(options={"board": "x"})
    env.close()
