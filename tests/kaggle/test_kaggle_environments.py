"""kaggle-environments' OpenSpiel environments (Kaggle Game Arena's harness) with
``perfectplay.openspiel.kaggle_agent``. The package pins its own Gymnasium and OpenSpiel, so
these tests run in a virtual environment of their own (CI's kaggle-environments step)."""

from __future__ import annotations

import kaggle_environments
import pytest

from perfectplay.openspiel import kaggle_agent


def rewards(name: str, agents: list[object], **configuration: object) -> tuple[list[float], int]:
    env = kaggle_environments.make(name, configuration=configuration, debug=True)
    env.run(agents)
    assert [state["status"] for state in env.state] == ["DONE", "DONE"]
    return [state["reward"] for state in env.state], len(env.steps)


def test_perfect_play_ends_as_the_games_are_solved() -> None:
    # Connect Four: the first player wins with the 41st stone (the first step sets up).
    assert rewards("open_spiel_connect_four", [kaggle_agent(seed=1), kaggle_agent(seed=2)]) == (
        [1, -1],
        43,
    )
    assert rewards("open_spiel_tic_tac_toe", [kaggle_agent(seed=1), kaggle_agent(seed=2)]) == (
        [0, 0],
        11,
    )


@pytest.mark.parametrize("name", ["open_spiel_connect_four", "open_spiel_tic_tac_toe"])
def test_perfect_play_never_loses_to_random_in_either_seat(name: str) -> None:
    for seed in range(4):
        perfect = kaggle_agent(seed=seed)
        seats: list[object] = [perfect, "random"] if seed % 2 == 0 else ["random", perfect]
        got, _ = rewards(name, seats, includeLegalActions=True)
        assert got[seats.index(perfect)] >= 0


def test_a_graded_agent_plays_whole_games() -> None:
    got, steps = rewards(
        "open_spiel_connect_four", [kaggle_agent(2, seed=3), kaggle_agent(9, seed=4)]
    )
    assert sorted(got) in ([-1, 1], [0, 0]) and 9 <= steps <= 44


def test_what_it_cannot_read_is_refused() -> None:
    agent = kaggle_agent()
    assert agent({"step": 0}, {}) == {"submission": -1}
    with pytest.raises(TypeError, match="serializedGameAndState must be a str, not int"):
        agent({"serializedGameAndState": 4}, {})
    with pytest.raises(ValueError, match="level must be from 1 to 10"):
        kaggle_agent(0)
