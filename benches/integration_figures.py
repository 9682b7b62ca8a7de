"""What a perfect player costs inside the frameworks (report, never assert): per-move medians.

    python benches/integration_figures.py [--games N]

* PettingZoo ``tictactoe_v3``: one ``env.step`` against one ``PerfectPolicy`` call on what
  ``env.last()`` returned, and against PettingZoo's own random choice
  (``env.action_space(agent).sample(mask)``).
* OpenSpiel ``tic_tac_toe`` and ``mnk`` (m=4, n=4, k=3): one ``state.apply_action`` against one
  ``PerfectBot.step`` and one ``UniformRandomBot.step``.
* Gymnasium ``perfectplay/TicTacToe-v0``: one ``env.step`` (the agent's move and the perfect
  opponent's reply).
Every move of every game is timed on its own with ``perf_counter_ns``; the medians are per move.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pyspiel
from open_spiel.python.bots.uniform_random import UniformRandomBot

import perfectplay.gym  # noqa: F401  # registers the environments
from perfectplay import BACKEND
from perfectplay.openspiel import PerfectBot
from perfectplay.pettingzoo import PerfectPolicy


def timed(samples: list[int], work: Callable[[], Any]) -> Any:
    start = time.perf_counter_ns()
    result = work()
    samples.append(time.perf_counter_ns() - start)
    return result


def pettingzoo_figures(games: int) -> dict[str, list[int]]:
    env = pettingzoo.make("aec", "classic/tictactoe-v3")
    policy = PerfectPolicy(seed=0)
    times: dict[str, list[int]] = {"env.step": [], "PerfectPolicy": [], "random sample": []}
    for game in range(games):
        env.reset(seed=game)
        for agent in env.agent_iter():
            last = env.last()
            observation, _, terminated, truncated, _ = last
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            timed(times["random sample"], lambda: env.action_space(agent).sample(mask))  # noqa: B023
            action = timed(times["PerfectPolicy"], lambda: policy(last))  # noqa: B023
            timed(times["env.step"], lambda: env.step(action))  # noqa: B023
    return times


def openspiel_figures(
    game_name: str, parameters: dict[str, int], games: int
) -> dict[str, list[int]]:
    game = pyspiel.load_game(game_name, parameters)
    perfect = [PerfectBot(game, 0, seed=1), PerfectBot(game, 1, seed=2)]
    rng = np.random.RandomState(0)
    uniform = [UniformRandomBot(0, rng), UniformRandomBot(1, rng)]
    times: dict[str, list[int]] = {"apply_action": [], "PerfectBot.step": [], "random step": []}
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            timed(times["random step"], lambda: uniform[player].step(state))  # noqa: B023
            action = timed(times["PerfectBot.step"], lambda: perfect[player].step(state))  # noqa: B023
            timed(times["apply_action"], lambda: state.apply_action(action))  # noqa: B023
    return times


def gymnasium_figures(games: int) -> dict[str, list[int]]:
    env = gymnasium.make("perfectplay/TicTacToe-v0")
    rng = np.random.default_rng(0)
    times: dict[str, list[int]] = {"env.step (agent + perfect reply)": []}
    for game in range(games):
        _, info = env.reset(seed=game)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, done, _, info = timed(
                times["env.step (agent + perfect reply)"],
                lambda: env.step(action),  # noqa: B023
            )
    return times


def report(title: str, times: dict[str, list[int]]) -> None:
    print(f"\n{title}")
    for name, samples in times.items():
        print(f"  {name:36s} {statistics.median(samples) / 1000:8.2f} us  ({len(samples)} moves)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000)
    games = parser.parse_args().games
    print(f"backend: {BACKEND}; medians per move over {games} games each")
    report("PettingZoo tictactoe_v3", pettingzoo_figures(games))
    report("OpenSpiel tic_tac_toe", openspiel_figures("tic_tac_toe", {}, games))
    report("OpenSpiel mnk m=4 n=4 k=3", openspiel_figures("mnk", {"m": 4, "n": 4, "k": 3}, games))
    report("Gymnasium perfectplay/TicTacToe-v0", gymnasium_figures(games))


if __name__ == "__main__":
    main()
