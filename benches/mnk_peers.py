"""The m,n,k peers a user would otherwise pick, each on the empty board, with a time limit.

    python benches/mnk_peers.py 4 4 4 --timeout 120

Runs OpenSpiel's Python `alpha_beta_search` and `MinimaxSolver` on its `mnk` game, easyAI's
`solve_with_iterative_deepening` (with its transposition table) on an m,n,k game written for it,
and perfectplay's Rust solver, each in a subprocess killed at the time limit; prints one line
each: the value found (from X's side) and the time, or "did not finish".
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

PEERS = {
    "openspiel alpha_beta_search": """
import pyspiel
from open_spiel.python.algorithms import minimax
value, _ = minimax.alpha_beta_search(pyspiel.load_game("mnk(m={rows},n={cols},k={k})"))
print(int(value))
""",
    "openspiel MinimaxSolver": """
from open_spiel.python.algorithms.minimax_solver import MinimaxSolver
import pyspiel
solver = MinimaxSolver("mnk(m={rows},n={cols},k={k})")
solver.solve()
state = pyspiel.load_game("mnk(m={rows},n={cols},k={k})").new_initial_state()
print(int(solver._table[str(state)].value))
""",
    "easyAI iterative deepening + TT": """
from easyAI import AI_Player, TranspositionTable, TwoPlayerGame, solve_with_iterative_deepening

ROWS, COLS, K = {rows}, {cols}, {k}
LINES = [
    [(r + dr * i) * COLS + c + dc * i for i in range(K)]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    for r in range(ROWS) for c in range(COLS)
    if 0 <= r + dr * (K - 1) < ROWS and 0 <= c + dc * (K - 1) < COLS
]

class Mnk(TwoPlayerGame):
    def __init__(self, players):
        self.players = players
        self.board = [0] * (ROWS * COLS)
        self.current_player = 1
    def possible_moves(self):
        return [i for i, v in enumerate(self.board) if v == 0]
    def make_move(self, move):
        self.board[move] = self.current_player
    def unmake_move(self, move):
        self.board[move] = 0
    def lose(self):
        return any(all(self.board[c] == self.opponent_index for c in line) for line in LINES)
    def is_over(self):
        return self.lose() or not self.possible_moves()
    def scoring(self):
        return -100 if self.lose() else 0
    def ttentry(self):
        return tuple(self.board) + (self.current_player,)

game = Mnk([AI_Player(None), AI_Player(None)])
result, depth, move = solve_with_iterative_deepening(
    game, range(1, ROWS * COLS + 1), win_score=90, tt=TranspositionTable(), verbose=False
)
print(result)
""",
    "perfectplay rust": """
from perfectplay._kernel.backend import implementation
print(implementation("mnk", "rust").solve_empty({rows}, {cols}, {k}).value)
""",
    "perfectplay python twin": """
from perfectplay._kernel.backend import implementation
print(implementation("mnk", "python").solve_empty({rows}, {cols}, {k}).value)
""",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("cols", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--only", default="", help="run the peers whose name contains this")
    args = parser.parse_args()
    for name, code in PEERS.items():
        if args.only not in name:
            continue
        source = code.format(rows=args.rows, cols=args.cols, k=args.k)
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-c", source],
                capture_output=True,
                text=True,
                timeout=args.timeout,
            )
        except subprocess.TimeoutExpired:
            print(
                f"({args.rows},{args.cols},{args.k}) {name}: did not finish in {args.timeout:.0f} s"
            )
            continue
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            error = done.stderr.strip().splitlines()[-1:] or ["?"]
            print(f"({args.rows},{args.cols},{args.k}) {name}: failed: {error[0]}")
            continue
        print(
            f"({args.rows},{args.cols},{args.k}) {name}: value {done.stdout.strip()} "
            f"in {elapsed:.2f} s (process start included)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
