"""m,n,k-games from the empty board: the Rust solver, the Python twin and the peers.

python -m pytest benches/test_bench_mnk.py
(peers that do not finish (4,4,4) in minutes: benches/mnk_peers.py 4 4 4 --timeout 120)
"""

from __future__ import annotations

from typing import Any

import pytest

from perfectplay._backend import implementation

RUST = implementation("mnk", "rust")
PYTHON = implementation("mnk", "python")


@pytest.mark.parametrize(
    ("rows", "cols", "k", "value", "rounds"),
    [(4, 4, 3, 1, 20), (4, 4, 4, 0, 20), (5, 4, 4, 0, 10), (5, 5, 4, 0, 3), (6, 5, 4, 1, 3)],
)
@pytest.mark.benchmark(group="mnk: empty board, Rust solve_empty (value, best moves, line)")
def test_rust(benchmark: Any, rows: int, cols: int, k: int, value: int, rounds: int) -> None:
    solution = benchmark.pedantic(RUST.solve_empty, (rows, cols, k), rounds=rounds)
    assert solution.value == value
    benchmark.extra_info["nodes"] = solution.nodes


@pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
def test_443_rust(benchmark: Any) -> None:
    assert benchmark(RUST.solve_empty, 4, 4, 3).value == 1


@pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
def test_443_python_twin(benchmark: Any) -> None:
    assert benchmark.pedantic(PYTHON.solve_empty, (4, 4, 3), rounds=1).value == 1


@pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
def test_443_openspiel_alpha_beta(benchmark: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("mnk(m=4,n=4,k=3)")
    value, _ = benchmark.pedantic(minimax.alpha_beta_search, (game,), rounds=1)
    assert value == 1


@pytest.mark.benchmark(group="mnk: (4,4,4) from the empty board")
def test_444_rust(benchmark: Any) -> None:
    assert benchmark(RUST.solve_empty, 4, 4, 4).value == 0


@pytest.mark.benchmark(group="mnk: (4,4,4) from the empty board")
def test_444_python_twin(benchmark: Any) -> None:
    assert benchmark.pedantic(PYTHON.solve_empty, (4, 4, 4), rounds=1).value == 0
