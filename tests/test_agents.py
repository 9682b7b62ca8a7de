"""``perfectplay.agents``: perfect play that is varied and never worse, graded skill, random."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from perfectplay import footholds, mnk, tictactoe
from perfectplay._kernel.position import BasePosition
from perfectplay.agents import PerfectAgent, RandomAgent
from test_positions import POSITIONS


@pytest.mark.parametrize("position", [p for p in POSITIONS if not p.is_over][:120], ids=repr)
def test_perfect_agent_keeps_the_value_and_the_plies(position: BasePosition[Any]) -> None:
    agent = PerfectAgent(seed=3)
    solution = position.solve()
    for _ in range(4):
        move = agent.move(position)
        assert move in solution.best_moves
        after = position.play(move).solve()
        assert (-after.value, after.plies + 1) == (solution.value, solution.plies)


def test_best_moves_are_drawn_uniformly() -> None:
    # The empty board: every move keeps the draw in 9 plies, so all 9 are best.
    agent = PerfectAgent(seed=11)
    start = tictactoe.Position()
    counts = Counter(agent.move(start) for _ in range(9_000))
    assert sorted(counts) == list(range(9))
    # 1,000 expected each; the standard deviation is about 30.
    assert all(abs(count - 1_000) < 150 for count in counts.values()), counts


def test_skill_zero_is_uniform_over_legal_moves_and_skill_grades_between() -> None:
    position = tictactoe.Position("xx./oo./...")  # X wins at 2; 2, 5, 6, 7, 8 are legal
    assert position.solve().best_moves == (2,)
    shares = {}
    for skill in (0.0, 0.5, 1.0):
        agent = PerfectAgent(skill, seed=42)
        picks = Counter(agent.move(position) for _ in range(5_000))
        shares[skill] = picks[2] / 5_000
        if skill == 0.0:
            assert sorted(picks) == [2, 5, 6, 7, 8]
            assert all(abs(count - 1_000) < 130 for count in picks.values()), picks
    assert shares[1.0] == 1.0
    assert abs(shares[0.5] - 0.6) < 0.03  # skill + (1 - skill) / 5
    assert shares[0.0] < shares[0.5] < shares[1.0]
    assert PerfectAgent(0.5).policy(position) == pytest.approx(
        {2: 0.6, 5: 0.1, 6: 0.1, 7: 0.1, 8: 0.1}
    )


def test_random_agent_is_uniform_and_seeded() -> None:
    position = mnk.Position.empty(2, 3, 3)
    agent = RandomAgent(seed=7)
    picks = [agent.move(position) for _ in range(6_000)]
    counts = Counter(picks)
    assert sorted(counts) == list(position.legal_moves)
    assert all(abs(count - 1_000) < 150 for count in counts.values()), counts
    again = RandomAgent(seed=7)
    assert [again.move(position) for _ in range(6_000)] == picks


def test_same_seed_same_game_on_every_game() -> None:
    def game(seed: int, start: BasePosition[Any]) -> list[Any]:
        agents = [PerfectAgent(0.7, seed), PerfectAgent(0.7, seed + 1)]
        moves: list[Any] = []
        position = start
        while not position.is_over:
            move = agents[len(moves) % 2].move(position)
            moves.append(move)
            position = position.play(move)
        return moves

    for start in (
        tictactoe.Position(),
        mnk.Position("x.../.o../..../....", 3),
        footholds.Position("1111/1101/1111", (0, 0), (2, 3)),
    ):
        assert game(5, start) == game(5, start)
        assert {tuple(game(seed, start)) for seed in range(30)} != {tuple(game(5, start))}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        PerfectAgent(1.5)
    with pytest.raises(TypeError, match="skill must be a number"):
        PerfectAgent("high")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        RandomAgent(seed=1.5)
    with pytest.raises(ValueError, match="game is over"):
        PerfectAgent().move(tictactoe.Position("xxx/oo./..."))
    with pytest.raises(TypeError, match="Position"):
        PerfectAgent().move("xx./oo./...")  # type: ignore[arg-type]
    assert PerfectAgent(seed=random.Random(3)).move(tictactoe.Position("xx./oo./...")) == 2


@pytest.mark.parametrize("skill", [True, "0.5", None, [1.0]])
def test_skill_is_a_number_not_a_bool_or_a_string(skill: Any) -> None:
    with pytest.raises(TypeError, match="skill must be a number"):
        PerfectAgent(skill)
