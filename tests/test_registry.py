"""Every registered game appears in every layer that reads the registry: the package's
namespace, both backends, positions and agents, random positions, batches, the command line's
labelling, and its judge formats."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import perfectplay
from perfectplay import GAMES, agents
from perfectplay.judge import FORMATS

NAMES = list(GAMES)


def random_batch(name: str, count: int) -> tuple[np.ndarray, dict[str, Any]]:
    """A batch of random positions of the game's start, and the batch options it needs."""
    game = GAMES[name]
    api = game.api("rust")
    if name == "tictactoe":
        return api.random_positions(count, seed=1), {}
    if name == "mnk":
        return api.random_positions(4, 4, 3, count, seed=1), {"k": 3}
    if name == "connect4":
        return api.random_positions(count, seed=1, plies=(24, 42)), {}
    boards, alocs, blocs = api.random_positions("111/111/111", (1, 0), (1, 2), count, seed=1)
    return boards, {"alocs": alocs, "blocs": blocs}


def test_every_game_is_in_the_namespace_and_both_backends() -> None:
    for name, game in GAMES.items():
        assert getattr(perfectplay, name) is game.module()
        for backend in ("rust", "python"):
            api = game.api(backend)
            assert callable(api.batch_solve) and callable(api.random_positions)
        assert all(FORMATS[f] is spec for f, spec in game.judge.items())
    # Every format is one game's, under one name.
    assert sum(len(game.judge) for game in GAMES.values()) == len(FORMATS)


@pytest.mark.parametrize("name", NAMES)
def test_every_game_starts_and_agents_play_it_to_the_end(name: str) -> None:
    game = GAMES[name]
    position = game.start()
    assert position == game.start(**game.options)
    if name == "connect4":
        position = game.start(width=4, height=4)  # a game the twin can also finish quickly
    perfect, rand = agents.PerfectAgent(seed=1), agents.RandomAgent(seed=2)
    turn = 0
    while position.legal_moves:
        position = position.play((perfect if turn % 2 == 0 else rand).move(position))
        turn += 1
    assert position.winner in (*game.players, None)


@pytest.mark.parametrize("name", NAMES)
def test_every_game_batches_on_both_backends_alike(name: str) -> None:
    boards, options = random_batch(name, 40)
    rust = GAMES[name].batch_solve(boards, "rust", moves=True, **options)
    python = GAMES[name].batch_solve(boards, "python", moves=True, **options)
    for column, values in rust.to_dict().items():
        if column != "nodes":
            assert np.array_equal(values, python.to_dict()[column]), column
    assert rust.move_value.shape[1] == GAMES[name].moves_per_row(boards.shape[1:])


@pytest.mark.parametrize("name", NAMES)
def test_every_game_is_labelled_by_the_command_line(name: str, tmp_path: Path) -> None:
    boards, options = random_batch(name, 20)
    np.save(tmp_path / "boards.npy", boards)
    command = [sys.executable, "-m", "perfectplay", "label", name, str(tmp_path / "boards.npy")]
    for option, value in options.items():
        if option == "k":
            command += ["--k", str(value)]
        else:
            np.save(tmp_path / f"{option}.npy", value)
            command += [f"--{option}", str(tmp_path / f"{option}.npy")]
    result = subprocess.run(
        [*command, "-o", str(tmp_path / "labels.npz")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    with np.load(tmp_path / "labels.npz") as labels:
        expected = GAMES[name].batch_solve(boards, "rust", **options)
        assert np.array_equal(labels["value"], expected.value)


def test_the_command_line_offers_every_judge_format_and_stress_problem() -> None:
    import argparse

    from perfectplay import cli, stress

    parser = cli.parser.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(FORMATS) <= set(commands.choices)
    problem = next(a for a in commands.choices["stress"]._actions if a.dest == "problem")
    assert tuple(problem.choices or ()) == tuple(stress.PROBLEMS)


# Small starts the pure-Python search also finishes quickly.
SMALL_STARTS: dict[str, dict[str, Any]] = {
    "connect4": {"width": 4, "height": 4},
    "mnk": {"rows": 3, "cols": 4, "k": 3},
}


@pytest.mark.parametrize("name", NAMES)
def test_every_game_batches_a_list_of_its_positions(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(name)
    positions = []
    for _ in range(12):
        position = game.start(**SMALL_STARTS.get(name, {}))
        for _ in range(rng.randrange(6)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves))
        if name == "footholds" and position.is_over:
            continue  # its batches hold games whose pieces stand (a fallen piece has lost)
        positions.append(position)
    labels = game.module().batch_solve(positions)
    for index, position in enumerate(positions):
        solution = position.solve()
        assert (labels.value[index], labels.plies[index]) == (solution.value, solution.plies)
    with pytest.raises(TypeError, match=f"{name}.batch_solve takes {name} positions"):
        other = next(entry for entry in GAMES.values() if entry.name != name)
        game.module().batch_solve([other.start()])


def test_every_framework_form_in_the_registry_is_served() -> None:
    import gymnasium
    import pyspiel

    import perfectplay.gym
    from perfectplay.openspiel import position_from_state
    from perfectplay.pettingzoo import position_from_observation

    for game in GAMES.values():
        if game.gym is not None:
            env = gymnasium.make(game.gym, **SMALL_STARTS.get(game.name, {}))
            env.reset(seed=0)
            assert isinstance(env.unwrapped, perfectplay.gym.GameEnv)
            assert env.unwrapped.position == game.start(**SMALL_STARTS.get(game.name, {}))
        if game.pettingzoo is not None:
            import pettingzoo

            name, version = game.pettingzoo.env.rsplit("_v", 1)
            env = pettingzoo.make("aec", f"classic/{name}-v{version}")
            env.reset(seed=0)
            observation = env.last()[0]
            start = game.start(**game.pettingzoo.options)
            assert position_from_observation(observation) == start
            assert observation["observation"].shape[2] == 2
        if game.openspiel is not None:
            parameters = {"m": 4, "n": 4, "k": 3} if game.name == "mnk" else {}  # not 15x15
            state = pyspiel.load_game(game.openspiel.name, parameters).new_initial_state()
            assert type(position_from_state(state)) is game.position


def random_of(
    name: str, backend: str, count: int, **options: Any
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``random_positions`` of every game on one backend, as a tuple of arrays (the boards
    first), and the batch options its rows need."""
    api = GAMES[name].api(backend)
    if name == "tictactoe":
        return (api.random_positions(count, seed=3, **options),), {}
    if name == "mnk":
        return (api.random_positions(3, 4, 3, count, seed=3, **options),), {"k": 3}
    if name == "connect4":
        size = {"width": 5, "height": 4}
        return (api.random_positions(count, seed=3, **size, **options),), size
    drawn = api.random_positions("1111/1111", (0, 0), (1, 3), count, seed=3, **options)
    return drawn, {"alocs": drawn[1], "blocs": drawn[2]}


@pytest.mark.both_backends
@pytest.mark.parametrize("name", NAMES)
def test_ongoing_random_positions_are_games_still_going_on(name: str) -> None:
    """``ongoing=True``: every position has a move to make (the walk stops before a move that
    would end the game), the same positions on both backends; without it, some games are
    over (the option is not a no-op)."""
    plies = {"tictactoe": (5, 9), "footholds": (2, 8)}.get(name, (5, 12))
    drawn, options = random_of(name, "rust", 300, ongoing=True, plies=plies)
    twin, _ = random_of(name, "python", 300, ongoing=True, plies=plies)
    assert all(np.array_equal(mine, its) for mine, its in zip(drawn, twin, strict=True))
    api = GAMES[name].api("rust")
    solved = api.batch_solve(drawn[0], **options)
    assert (solved.plies >= 1).all() and (solved.best_move >= 0).all()
    every, options = random_of(name, "rust", 300, plies=plies)
    assert (api.batch_solve(every[0], **options).plies == 0).any()
