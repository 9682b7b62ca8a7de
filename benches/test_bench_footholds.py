"""Footholds: every placement of A and B on full boards, fast search against the peers.

The fast search turns each placement to the first of its mirror images, so in a loop over
every placement most answers come from the table; the "one per class" group times the search
alone, against plain backtracking on the same placements.

python -m pytest benches/test_bench_footholds.py
(7x7 and 8x8 take minutes: see benches/footholds_boards.py)
"""

from __future__ import annotations

from typing import Any

import pytest

from footholds_boards import placements
from perfectplay._core import _testing
from perfectplay._kernel.backend import implementation
from tests_support import in_fresh_thread

RUST = implementation("footholds", "rust")
PYTHON = implementation("footholds", "python")


def every_placement(solver: Any, side: int) -> int:
    board = [[1] * side for _ in range(side)]
    cells = [(r, c) for r in range(side) for c in range(side)]
    total = 0
    for a in cells:
        for b in cells:
            total += solver(board, a, b)
    return total


def one_per_class(solver: Any, side: int) -> int:
    """One placement of each class of mirrored placements: no answer comes from a mirror image
    solved before it, so this is the search alone."""
    board = [[1] * side for _ in range(side)]
    return sum(solver(board, a, b) for a, b in placements(side, distinct=True))


def backtrack_moves(board: Any, a: Any, b: Any) -> int:
    return int(_testing.backtrack_footholds(board, a, b)[1])


BOARDS = [
    pytest.param(5, 20, marks=pytest.mark.benchmark(group="footholds: 625 placements, full 5x5")),
    pytest.param(6, 5, marks=pytest.mark.benchmark(group="footholds: 1,296 placements, full 6x6")),
]


@pytest.mark.parametrize(("side", "rounds"), BOARDS)
def test_fast_rust_cold(benchmark: Any, side: int, rounds: int) -> None:
    """Each round in a new thread: nothing learnt by earlier rounds helps."""
    benchmark.pedantic(
        lambda: in_fresh_thread(lambda: every_placement(RUST.total_moves, side)), rounds=rounds
    )


@pytest.mark.parametrize(("side", "rounds"), BOARDS)
def test_fast_rust_solve_cold(benchmark: Any, side: int, rounds: int) -> None:
    """solve(): the total, every best first move and a whole optimal line."""
    benchmark.pedantic(
        lambda: in_fresh_thread(lambda: every_placement(lambda *a: RUST.solve(*a).plies, side)),
        rounds=rounds,
    )


@pytest.mark.benchmark(group="footholds: 91 placements, one per symmetry class, full 5x5")
def test_5x5_one_per_class_fast_rust_cold(benchmark: Any) -> None:
    benchmark.pedantic(
        lambda: in_fresh_thread(lambda: one_per_class(RUST.total_moves, 5)), rounds=20
    )


@pytest.mark.benchmark(group="footholds: 91 placements, one per symmetry class, full 5x5")
def test_5x5_one_per_class_plain_backtracking_rust(benchmark: Any) -> None:
    benchmark.pedantic(one_per_class, (backtrack_moves, 5), rounds=3)


@pytest.mark.benchmark(group="footholds: 625 placements, full 5x5")
def test_5x5_plain_backtracking_rust(benchmark: Any) -> None:
    benchmark.pedantic(every_placement, (backtrack_moves, 5), rounds=3)


@pytest.mark.benchmark(group="footholds: 625 placements, full 5x5")
def test_5x5_python_twin(benchmark: Any) -> None:
    benchmark.pedantic(every_placement, (PYTHON.total_moves, 5), rounds=1)
