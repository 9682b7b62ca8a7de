"""perfectplay.dask on a real distributed.LocalCluster with two worker processes: the fields
equal the local batch_solve's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask.array as da
import numpy as np
import pytest
from dask.base import compute
from distributed import Client, LocalCluster

import perfectplay.dask
from perfectplay._kernel.backend import implementation
from perfectplay.connect4 import openings
from test_batch import _random_game
from tests_support import perfectplay_command


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    # A dashboard on a free port: two test workers starting clusters at once would both ask
    # for 8787, and the second's warning is an error here.
    with (
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def same_as_local(fields: dict[str, Any], local: Any) -> None:
    computed = dict(zip(fields, compute(*fields.values()), strict=True))
    expected = local.to_dict()
    assert set(computed) == set(expected)
    for name, array in computed.items():
        assert array.dtype == expected[name].dtype, name
        if name != "nodes":  # effort: depends on what each worker's tables knew
            assert np.array_equal(array, expected[name]), name


def test_mnk_on_a_cluster_equals_the_local_call(client: Client) -> None:
    boards = [_random_game(random.Random(seed), 4, 4) for seed in range(120)]
    codes = np.array([[[".xo".index(c) for c in row] for row in b.split("/")] for b in boards])
    local = implementation("mnk").batch_solve(codes, 4, moves=True)
    fields = perfectplay.dask.batch_solve(
        da.from_array(codes, chunks=(25, 4, 4)), "mnk", k=4, moves=True
    )
    same_as_local(fields, local)


def test_footholds_and_tictactoe_on_a_cluster(client: Client) -> None:
    cells = [(r, c) for r in range(3) for c in range(3)]
    alocs = np.array([a for a in cells for _ in cells])
    blocs = np.array([b for _ in cells for b in cells])
    boards = np.ones((len(alocs), 3, 3), np.int8)
    boards[::7, 1, 1] = 0
    local = implementation("footholds").batch_solve(boards, alocs, blocs, errors="mask")
    fields = perfectplay.dask.batch_solve(
        da.from_array(boards, chunks=20), "footholds", alocs=alocs, blocs=blocs, errors="mask"
    )
    same_as_local(fields, local)
    rows = np.array([[0] * 9, [1, 1, 0, 2, 2, 0, 0, 0, 0]] * 50, np.uint8)
    local = implementation("tictactoe").batch_solve(rows, moves=True)
    same_as_local(
        perfectplay.dask.batch_solve(da.from_array(rows, chunks=30), "tictactoe", moves=True),
        local,
    )


def test_arguments_are_checked() -> None:
    with pytest.raises(TypeError):
        perfectplay.dask.batch_solve(np.zeros((2, 9)), "tictactoe")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        perfectplay.dask.batch_solve(da.zeros((2, 9)), "chess")


def test_a_bad_row_is_named_as_the_local_call_names_it(client: Client) -> None:
    rows = np.zeros((1000, 9), np.uint8)
    rows[700] = [1, 1, 1, 1, 0, 0, 0, 0, 0]  # four X and no O: no game reaches it
    with pytest.raises(ValueError, match="row 700: ") as local:
        implementation("tictactoe").batch_solve(rows)
    fields = perfectplay.dask.batch_solve(da.from_array(rows, chunks=300), "tictactoe")
    with pytest.raises(type(local.value), match="row 700: "):
        compute(fields["value"])


def test_missing_game_options_are_named_before_any_work() -> None:
    boards = da.ones((4, 3, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="footholds needs alocs"):
        perfectplay.dask.batch_solve(boards, "footholds", blocs=(0, 0))
    with pytest.raises(ValueError, match="footholds needs blocs"):
        perfectplay.dask.batch_solve(boards, "footholds", alocs=(0, 0))
    with pytest.raises(TypeError, match="mnk needs k"):
        perfectplay.dask.batch_solve(boards, "mnk")


def test_tablebase_built_on_a_cluster_equals_the_local_build(client: Client, tmp_path: Any) -> None:
    from perfectplay import BACKEND, tablebase

    # (4,4,4) as the issue asks; the pure-Python build takes boards of up to 12 cells.
    rows, cols, k = (4, 4, 4) if BACKEND == "rust" else (4, 3, 3)
    local = tablebase.build(rows, cols, k)
    distributed = tablebase.build(rows, cols, k, client=client, directory=tmp_path)
    assert distributed.data.tobytes() == local.data.tobytes()
    # Each tier's shards stay in the directory every worker reached.
    assert (tmp_path / "tier00.bin").exists()
    assert any((tmp_path / "tier08").iterdir())


def test_an_opening_book_built_on_the_cluster_is_the_local_one(
    client: Client, tmp_path: Path
) -> None:
    """Connect Four's book builder with ``client=``: every chunk solved on the workers, read
    back in order into the checkpoint; the very book a local build makes."""
    checkpoint = tmp_path / "cluster.checkpoint"
    on_cluster = openings.build(
        5, width=4, height=4, chunk=20, client=client, checkpoint=checkpoint
    )
    local = openings.build(5, width=4, height=4, threads=1)
    assert np.array_equal(on_cluster.keys, local.keys)
    assert np.array_equal(on_cluster.scores, local.scores)
    assert not checkpoint.exists()


def test_the_command_line_builds_a_book_on_a_scheduler(client: Client, tmp_path: Path) -> None:
    book = tmp_path / "4x4.book"
    address = str(client.scheduler_info()["address"])
    done = perfectplay_command(
        "openings", "build", "--width", "4", "--height", "4", "--depth", "4",
        "-o", str(book), "--scheduler", address,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    built = openings.load(str(book))
    assert np.array_equal(built.keys, openings.build(4, width=4, height=4).keys)
    assert np.array_equal(built.scores, openings.build(4, width=4, height=4).scores)


def test_a_proof_split_over_a_cluster_is_checked_and_resumed(
    client: Client, tmp_path: Path
) -> None:
    from perfectplay import mnk

    board = "/".join(["......."] * 6)
    proven = mnk.prove(board, 5, client=client, checkpoint=tmp_path)
    assert mnk.check(proven) == 0
    kept = sorted(tmp_path.iterdir())
    assert len(kept) == 12  # a task a first move up to the board's symmetries (42 moves)
    # A run stopped part-way, a kept task altered: only those are done again.
    kept[0].unlink()
    altered = kept[1].read_text().replace('"proof": [', '"proof": [5, ', 1)
    kept[1].write_text(altered)
    again = mnk.prove(board, 5, checkpoint=tmp_path)
    assert again == proven and mnk.check(again) == 0
    assert kept[0].exists() and kept[1].read_text() != altered


# Whole Connect Four games reviewed: the compiled core (the twin searches them far too slowly).
@pytest.mark.compiled
def test_reviews_on_a_cluster_equal_the_local_ones(client: Client) -> None:
    import dask.bag as db

    from perfectplay import connect4, mnk, review_many

    rng = random.Random(3)
    games = []
    for _ in range(40):
        here, moves = connect4.Position.empty(5, 4), list[int]()
        while not here.is_over and len(moves) < rng.randrange(4, 20):
            move = rng.choice(here.legal_moves)
            moves.append(move)
            here = here.play(move)
        games.append(moves)
    start = connect4.Position.empty(5, 4)
    bag = db.from_sequence(games, npartitions=4)
    reviews = perfectplay.dask.review(bag, "connect4", start=start).compute()
    assert reviews == review_many(connect4.review, games, start=start)
    # A list is taken too, and a start of another game.
    grid = mnk.Position.empty(3, 4, 3)
    records = [[(1, 1), (0, 0)], [(0, 0), (1, 1), (2, 3)]]
    assert perfectplay.dask.review(records, "mnk", start=grid).compute() == review_many(
        mnk.review, records, start=grid
    )


def test_a_review_the_local_call_refuses_is_refused(client: Client) -> None:
    with pytest.raises(ValueError, match="not 'x'"):
        perfectplay.dask.review(["44x"], "connect4").compute()
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        perfectplay.dask.review(["e4"], "chess")
    with pytest.raises(TypeError, match="records must be a dask bag or a list, not str"):
        perfectplay.dask.review("4453", "connect4")
    with pytest.raises(TypeError, match="threads is not taken"):
        perfectplay.dask.review(["4453"], "connect4", threads=2)
