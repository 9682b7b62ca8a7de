"""Tic-tac-toe: single calls, batches, the table build, and the peers a user would reach for.

python -m pytest benches/test_bench_tictactoe.py
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from perfectplay._core import _testing
from perfectplay._kernel.backend import implementation
from perfectplay.mnk import twin as pure_mnk
from perfectplay.tictactoe import twin as pure_ttt
from tests_support import openspiel_alpha_beta

RUST = implementation("tictactoe", "rust")
PYTHON = implementation("tictactoe", "python")
BOARD = "xo./.x./..o"  # X to move, mid-game
ALL_BOARDS = ["".join(cells) for cells in itertools.product(".xo", repeat=9)]
LEGAL = [b for b in ALL_BOARDS if RUST.is_reachable(b)]
LOOKUP = {board: RUST.value(board) for board in LEGAL}


def random_legal_codes(count: int) -> np.ndarray:
    rng = random.Random(7)
    rows = [[".xo".index(c) for c in rng.choice(LEGAL)] for _ in range(min(count, 100_000))]
    block = np.array(rows, dtype=np.uint8)
    return np.tile(block, (count // len(block) + 1, 1))[:count]


@pytest.mark.benchmark(group="tictactoe: one value(str) call")
def test_value_rust(benchmark: Any) -> None:
    assert benchmark(RUST.value, BOARD) == 1


@pytest.mark.benchmark(group="tictactoe: one value(str) call")
def test_value_python(benchmark: Any) -> None:
    assert benchmark(PYTHON.value, BOARD) == 1


@pytest.mark.benchmark(group="tictactoe: one value(str) call")
def test_value_dict_lookup_floor(benchmark: Any) -> None:
    """A dict of every legal board, prepared in advance: the floor a Python user can reach."""
    assert benchmark(LOOKUP.__getitem__, "xo..x...o") == 1


@pytest.mark.benchmark(group="tictactoe: one solve(str) call")
def test_solve_rust(benchmark: Any) -> None:
    assert benchmark(RUST.solve, BOARD).value == 1


@pytest.mark.benchmark(group="tictactoe: one solve(str) call")
def test_solve_python(benchmark: Any) -> None:
    assert benchmark(PYTHON.solve, BOARD).value == 1


@pytest.mark.benchmark(group="tictactoe: batch_values")
def test_batch_values_rust_1m(benchmark: Any) -> None:
    boards = random_legal_codes(1_000_000)
    values = benchmark(RUST.batch_values, boards)
    assert len(values) == 1_000_000


@pytest.mark.benchmark(group="tictactoe: batch_values")
def test_batch_values_python_10k(benchmark: Any) -> None:
    boards = random_legal_codes(10_000)
    values = benchmark.pedantic(PYTHON.batch_values, (boards,), rounds=3, iterations=1)
    assert np.array_equal(values, RUST.batch_values(boards))


@pytest.mark.benchmark(group="tictactoe: batch_values")
def test_single_calls_rust_1m(benchmark: Any) -> None:
    """The same million boards one value() call at a time, for the batch's per-board gain."""
    boards = ["".join(".xo"[c] for c in row) for row in random_legal_codes(1_000_000)]
    value = RUST.value

    def every_board() -> int:
        return sum(value(board) for board in boards)

    benchmark.pedantic(every_board, rounds=3, iterations=1)


@pytest.mark.benchmark(group="tictactoe: whole table")
def test_table_build_rust(benchmark: Any) -> None:
    assert benchmark(_testing.build_tictactoe_table) == 5478


@pytest.mark.benchmark(group="tictactoe: whole table")
def test_table_build_python(benchmark: Any) -> None:
    def build() -> int:
        memo: dict[tuple[int, int], int] = {}
        return pure_mnk.negamax(pure_ttt.GEOMETRY, 0, 0, memo)

    assert benchmark.pedantic(build, rounds=5, iterations=1) == 0


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def plain_minimax(cells: list[str], player: str) -> int:
    """Judge-style: plain recursion over every move, no memo; +1 the player to move wins."""
    other = "o" if player == "x" else "x"
    if any(cells[a] == cells[b] == cells[c] == other for a, b, c in LINES):
        return -1
    best = None
    for i in range(9):
        if cells[i] == ".":
            cells[i] = player
            value = -plain_minimax(cells, other)
            cells[i] = "."
            best = value if best is None else max(best, value)
    return 0 if best is None else best


@pytest.mark.benchmark(group="tictactoe: empty board solved by a peer")
def test_peer_plain_recursion_python(benchmark: Any) -> None:
    assert benchmark.pedantic(plain_minimax, (list("........."), "x"), rounds=3) == 0


@pytest.mark.benchmark(group="tictactoe: empty board solved by a peer")
def test_peer_rust_value(benchmark: Any) -> None:
    assert benchmark(RUST.value, ".........") == 0


@pytest.mark.benchmark(group="tictactoe: empty board solved by a peer")
def test_peer_openspiel_alpha_beta(benchmark: Any) -> None:
    assert openspiel_alpha_beta(benchmark, "tic_tac_toe", rounds=5) == 0


@pytest.mark.benchmark(group="tictactoe: empty board solved by a peer")
def test_peer_openspiel_minimax_solver(benchmark: Any) -> None:
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    table = benchmark.pedantic(lambda: MinimaxSolver("tic_tac_toe").solve(), rounds=5)
    assert len(table) > 4000


@pytest.mark.benchmark(group="tictactoe: empty board solved by a peer")
def test_peer_easyai_iterative_deepening(benchmark: Any) -> None:
    from easyAI import AI_Player, TranspositionTable, solve_with_iterative_deepening
    from easyAI.games import TicTacToe

    class Game(TicTacToe):  # type: ignore[misc]
        def ttentry(self) -> tuple[int, ...]:  # the table's key, which the game lacks
            return (*self.board, self.current_player)

    def solve() -> int:
        game = Game([AI_Player(None), AI_Player(None)])
        result, _depth, _move = solve_with_iterative_deepening(
            game, range(2, 10), win_score=100, tt=TranspositionTable(), verbose=False
        )
        return int(result)

    assert benchmark.pedantic(solve, rounds=5) == 0
