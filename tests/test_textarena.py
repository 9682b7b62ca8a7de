"""TextArena: the agent plays the real package's Connect Four and tic-tac-toe environments,
reads every board it is shown as the environment holds it, and refuses what it cannot read."""

from __future__ import annotations

import random
from typing import Any

import pytest
import textarena

from perfectplay import connect4, tictactoe
from perfectplay.textarena import TextArenaAgent, position

ENVIRONMENTS = ["ConnectFour-v0", "ConnectFour-v0-blind", "TicTacToe-v0"]


def held(env: Any, env_id: str) -> Any:
    """The position the environment holds, from its own board."""
    board = env.state.game_state["board"]
    if env_id.startswith("ConnectFour"):
        rows = ["".join({"X": "x", "O": "o"}.get(cell, ".") for cell in row) for row in board]
        return connect4.Position(rows)
    # TextArena's Player 0 moves first and plays O.
    marks = "".join({"O": "x", "X": "o"}.get(cell, ".") for row in board for cell in row)
    return tictactoe.Position(marks)


def play(env_id: str, players: list[Any], seed: int) -> tuple[dict[int, int], int, list[Any]]:
    """One game: the rewards, the plies and the positions each observation showed."""
    env = textarena.make(env_id)
    env.reset(num_players=2, seed=seed)
    done, plies, shown = False, 0, []
    while not done:
        player, observation = env.get_observation()
        here = position(env_id, observation)
        assert here == held(env, env_id)
        shown.append(here)
        done, _ = env.step(players[player](observation))
        plies += 1
    rewards, _ = env.close()
    return rewards, plies, shown


# Whole 7x6 games are played by the compiled core (the twin searches 7x6 past the books far too
# slowly; its answers are held to the core's elsewhere).
@pytest.mark.compiled
@pytest.mark.parametrize("env_id", ENVIRONMENTS)
def test_perfect_play_ends_as_the_game_is_solved(env_id: str) -> None:
    rewards, plies, _ = play(env_id, [TextArenaAgent(env_id), TextArenaAgent(env_id)], seed=1)
    if env_id.startswith("ConnectFour"):
        # The first player wins with the 21st stone, the last of the first player's.
        assert (rewards, plies) == ({0: 1, 1: -1}, 41)
    else:
        assert (rewards, plies) == ({0: 0, 1: 0}, 9)


class RandomText:
    """A player that drops a uniformly random legal move in TextArena's format."""

    def __init__(self, env_id: str, seed: int) -> None:
        self.env_id, self.random = env_id, random.Random(seed)

    def __call__(self, observation: str) -> str:
        move = self.random.choice(position(self.env_id, observation).legal_moves)
        return f"[col {move}]" if self.env_id.startswith("ConnectFour") else f"[{move}]"


@pytest.mark.compiled
@pytest.mark.parametrize("env_id", ENVIRONMENTS)
def test_every_board_is_read_as_held_and_level_10_never_loses(env_id: str) -> None:
    for seed in range(6):
        perfect = TextArenaAgent(env_id, seed=seed)
        players = [perfect, RandomText(env_id, seed)]
        if seed % 2:
            players.reverse()
        rewards, _, shown = play(env_id, players, seed)
        assert rewards[players.index(perfect)] >= 0
        assert len(shown) > 2


@pytest.mark.compiled
def test_a_graded_agent_plays_a_legal_game_at_every_level() -> None:
    for level in (1, 5, 9):
        agents = [TextArenaAgent("ConnectFour-v0", level, seed=level) for _ in range(2)]
        rewards, plies, _ = play("ConnectFour-v0", agents, seed=level)
        assert sorted(rewards.values()) in ([-1, 1], [0, 0]) and 7 <= plies <= 42


def test_what_it_cannot_read_is_refused() -> None:
    with pytest.raises(ValueError, match=r"ConnectFour-\*, TicTacToe-\*, not 'Chess-v0'"):
        TextArenaAgent("Chess-v0")
    with pytest.raises(ValueError, match="not 'TicTacToeX-v0'"):
        TextArenaAgent("TicTacToeX-v0")
    with pytest.raises(TypeError, match="env_id must be a str, not int"):
        TextArenaAgent(4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level must be from 1 to 10"):
        TextArenaAgent("TicTacToe-v0", level=0)
    agent = TextArenaAgent("ConnectFour-v0")
    with pytest.raises(ValueError, match="no Connect Four board"):
        agent("[GAME] You are Player 0 in Connect Four.")
    with pytest.raises(TypeError, match="observation must be a str, not bytes"):
        agent(b"Board state:")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no tic-tac-toe board"):
        TextArenaAgent("TicTacToe-v0")("Board state:")
    # The large variant (15x12) is past what perfectplay's Connect Four takes.
    env = textarena.make("ConnectFour-v0-large")
    env.reset(num_players=2, seed=1)
    with pytest.raises(ValueError, match="180 cells; at most 128"):
        agent(env.get_observation()[1])
    # A board no game reaches, and a finished one.
    floating = "\n".join([". . . X . . ."] + [". . . . . . ."] * 5)
    with pytest.raises(ValueError):
        agent(f"Board state:\n0 1 2 3 4 5 6\n-------------\n{floating}")
    won = "\n".join([". . . . . . ."] * 2 + ["X . . . . . ."] + ["X O . . . . ."] * 3)
    with pytest.raises(ValueError, match="the game is over"):
        agent(f"Board state:\n0 1 2 3 4 5 6\n-------------\n{won}")
