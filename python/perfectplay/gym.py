"""Gymnasium environments: play tic-tac-toe or any m,n,k-game against a perfect or graded
opponent (``pip install 'perfectplay[gym]'``).

>>> import gymnasium
>>> import perfectplay.gym  # registers perfectplay/TicTacToe-v0 and perfectplay/MNK-v0
>>> env = gymnasium.make("perfectplay/MNK-v0", rows=4, cols=4, k=3, play_as="x", skill=1.0)
>>> observation, info = env.reset(seed=0)
>>> observation.shape, int(info["action_mask"].sum())
((4, 4, 2), 16)

The observation is ``(rows, cols, 2)`` int8: plane 0 the agent's marks, plane 1 the opponent's
(as PettingZoo's ``tictactoe_v3``), indexed ``[row, col]``; actions are ``Discrete(rows * cols)``,
cell ``row * cols + col``. ``info["action_mask"]`` marks the legal actions. A step plays the
agent's move and then the opponent's (a ``PerfectAgent(skill)``); the reward is +1 when the agent
wins, -1 when it loses, 0 otherwise. Playing on an occupied cell ends the episode with reward -1
(as PettingZoo does), never an exception. With ``play_as="o"`` the opponent opens. The opponent
draws its moves from the environment's seeded ``np_random``, so ``reset(seed=...)`` repeats an
episode exactly.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from perfectplay import mnk
from perfectplay.agents import PerfectAgent

__all__ = ["MNKEnv", "TicTacToeEnv"]

Observation = npt.NDArray[np.int8]


class MNKEnv(gymnasium.Env[Observation, np.int64]):
    """An m,n,k-game against a ``PerfectAgent(skill)``; see the module's documentation."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # Gymnasium's form

    def __init__(
        self,
        rows: int = 3,
        cols: int = 3,
        k: int = 3,
        play_as: str = "x",
        skill: float = 1.0,
        seed: int | None = None,
        render_mode: str | None = None,
        **solve_options: Any,
    ) -> None:
        if play_as not in ("x", "o"):
            raise ValueError(f"play_as must be 'x' or 'o', not {play_as!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._start = mnk.Position.empty(rows, cols, k)
        self.rows, self.cols, self.k = self._start.rows, self._start.cols, self._start.k
        self.play_as, self.skill, self.render_mode = play_as, skill, render_mode
        self._solve_options = solve_options
        PerfectAgent(skill)  # checks skill now rather than at the first reset
        self._seed = seed
        self.observation_space = spaces.Box(0, 1, (self.rows, self.cols, 2), dtype=np.int8)
        self.action_space = spaces.Discrete(self.rows * self.cols)
        self.position = self._start
        self._opponent: PerfectAgent | None = None
        self._over = self._forfeited = False

    def _observation(self) -> Observation:
        codes = self.position.to_array()
        mine = 1 if self.play_as == "x" else 2
        planes = np.zeros((self.rows, self.cols, 2), dtype=np.int8)
        planes[:, :, 0] = codes == mine
        planes[:, :, 1] = codes == 3 - mine
        return planes

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.position.action_mask(), "position": self.position}

    def _opponent_moves(self) -> None:
        assert self._opponent is not None
        move = self._opponent.move(self.position)
        self.position = self.position.play(move)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None  # the constructor's seed, used once
        super().reset(seed=seed)
        opponent_seed = int(self.np_random.integers(2**63))
        self._opponent = PerfectAgent(self.skill, opponent_seed, **self._solve_options)
        self.position = self._start
        self._over = self._forfeited = False
        if self.play_as == "o":
            self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._opponent is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over; call reset()")
        move = self.position.move(action)  # off the action space: ValueError/TypeError
        if self.position.action(move) not in self.position.legal_actions:
            self._over = self._forfeited = True
            return self._observation(), -1.0, True, False, self._info()
        self.position = self.position.play(move)
        if not self.position.is_over:
            self._opponent_moves()
        reward = 0.0
        if self.position.winner is not None:
            reward = 1.0 if self.position.winner == self.play_as else -1.0
        self._over = self.position.is_over
        return self._observation(), reward, self._over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            status = (
                "forfeited (a move on an occupied cell)"
                if self._forfeited
                else (self.position._status_text())
            )
            return f"{self.position}\n{status}\n"
        return None


class TicTacToeEnv(MNKEnv):
    """Tic-tac-toe against a ``PerfectAgent(skill)``: ``MNKEnv`` on the 3x3 board, k = 3."""

    def __init__(
        self,
        play_as: str = "x",
        skill: float = 1.0,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(3, 3, 3, play_as, skill, seed, render_mode)


for _id, _entry in (
    ("perfectplay/TicTacToe-v0", "perfectplay.gym:TicTacToeEnv"),
    ("perfectplay/MNK-v0", "perfectplay.gym:MNKEnv"),
):
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry, max_episode_steps=64)
