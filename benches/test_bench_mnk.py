"""m,n,k-games from the empty board: the Rust solver, the Python twin and the peers.

python -m pytest benches/test_bench_mnk.py
(peers that do not finish (4,4,4) in minutes: benches/mnk_peers.py 4 4 4 --timeout 120)
"""

from __future__ import annotations

from typing import Any

import pytest

from perfectplay._kernel.backend import implementation
from tests_support import in_fresh_thread, openspiel_alpha_beta

RUST = implementation("mnk", "rust")
PYTHON = implementation("mnk", "python")


@pytest.mark.parametrize(
    ("rows", "cols", "k", "value", "rounds"),
    [(4, 4, 3, 1, 20), (4, 4, 4, 0, 20), (5, 4, 4, 0, 10), (5, 5, 4, 0, 3), (6, 5, 4, 1, 3)],
)
@pytest.mark.benchmark(group="mnk: empty board, Rust solve_empty (value, best moves, line)")
def test_rust(benchmark: Any, rows: int, cols: int, k: int, value: int, rounds: int) -> None:
    """Each round in a new thread: no table kept from an earlier round."""
    solution = benchmark.pedantic(
        lambda: in_fresh_thread(lambda: RUST.solve_empty(rows, cols, k)), rounds=rounds
    )
    assert solution.value == value
    benchmark.extra_info["nodes"] = solution.nodes


@pytest.mark.parametrize(
    ("k", "value", "rounds"),
    [
        pytest.param(
            3, 1, 50, marks=pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
        ),
        pytest.param(
            4, 0, 20, marks=pytest.mark.benchmark(group="mnk: (4,4,4) from the empty board")
        ),
    ],
)
def test_4x4_rust(benchmark: Any, k: int, value: int, rounds: int) -> None:
    solution = benchmark.pedantic(
        lambda: in_fresh_thread(lambda: RUST.solve_empty(4, 4, k)), rounds=rounds
    )
    assert solution.value == value


@pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
def test_443_thread_start_alone(benchmark: Any) -> None:
    """What starting the fresh thread of the cold rounds costs by itself."""
    benchmark.pedantic(lambda: in_fresh_thread(lambda: None), rounds=50)


@pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
def test_443_python_twin(benchmark: Any) -> None:
    assert benchmark.pedantic(PYTHON.solve_empty, (4, 4, 3), rounds=1).value == 1


@pytest.mark.benchmark(group="mnk: (4,4,3) from the empty board")
def test_443_openspiel_alpha_beta(benchmark: Any) -> None:
    assert openspiel_alpha_beta(benchmark, "mnk(m=4,n=4,k=3)", rounds=1) == 1


@pytest.mark.benchmark(group="mnk: small positions, one call each")
def test_small_position_rust(benchmark: Any) -> None:
    """A 4x4, k=4 position with six stones, solved again and again on one thread, as a
    labelling loop would: the kept table answers much of it."""
    assert benchmark(RUST.solve, "xo../.ox./x.../....", 4).plies == 11


@pytest.mark.benchmark(group="mnk: (4,4,4) from the empty board")
def test_444_python_twin(benchmark: Any) -> None:
    assert benchmark.pedantic(PYTHON.solve_empty, (4, 4, 4), rounds=1).value == 0
