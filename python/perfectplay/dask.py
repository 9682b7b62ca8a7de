"""batch_solve on a Dask cluster: ``pip install 'perfectplay[dask]'``.

>>> import dask.array as da                                               # doctest: +SKIP
>>> from distributed import Client
>>> client = Client("tcp://scheduler:8786")      # or Client() for a local cluster
>>> boards = da.from_npy_stack("boards/")        # (N, rows, cols), chunked along N
>>> labels = perfectplay.dask.batch_solve(boards, "mnk", k=4, moves=True)
>>> value, plies = dask.compute(labels["value"], labels["plies"])

Each chunk of rows is solved by the game's ``batch_solve`` in a worker (on every core it has);
the fields come back as dask arrays chunked like the boards, equal to the local call's.

``review(records, game)`` reviews games the same way: each partition of a ``dask.bag.Bag`` of
records (the game's ``review`` records) by ``review_many`` in a worker, a ``Bag`` of
``Review`` objects in the records' order:

>>> import dask.bag as db                                                 # doctest: +SKIP
>>> records = db.read_text("games-*.txt").map(str.strip)
>>> reviews = perfectplay.dask.review(records, "connect4").compute()
>>> sum(r.players["x"].blunders for r in reviews)
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from perfectplay.errors import missing_extra

try:
    import dask.array as da
    import dask.bag as db
except ImportError as error:
    raise missing_extra(error, "dask") from error

from perfectplay._registry import game as find_game

__all__ = ["batch_solve", "review"]

# Packed columns of a chunk: these five, then best_mask, then move_value and move_plies.
_SCALARS = (("value", np.int8), ("plies", np.int16), ("best_move", np.int16),
            ("status", np.uint8), ("nodes", np.uint64))  # fmt: skip


def batch_solve(boards: da.Array, game: str, **options: Any) -> dict[str, da.Array]:
    """The fields of ``<game>.batch_solve`` as dask arrays, for ``boards`` chunked along N.

    ``game`` is any game of ``perfectplay.GAMES``; ``boards`` are its batch codes (``(N, 9)`` or
    ``(N, 3, 3)`` for tic-tac-toe, ``(N, rows, cols)`` otherwise, Connect Four's top row
    first). The game's own batch options (``GAMES[game].batch_options``: m,n,k's ``k``;
    footholds' ``alocs`` and ``blocs``) are given by name, an array option as one value for
    every row or an ``(N, ...)`` array (numpy or dask). Other options (``moves``, ``threads``,
    ``node_limit``, ``table_mb``, ``errors``) go to the game's ``batch_solve`` in each worker.
    """
    if not isinstance(boards, da.Array):
        raise TypeError(f"boards must be a dask array, not {type(boards).__name__}")
    described = find_game(game)
    if boards.ndim < 2:
        raise ValueError(f"boards must have a row axis and a board, got shape {boards.shape}")
    if "progress" in options:
        raise TypeError("progress is not shown for a cluster: use the dask dashboard")
    for name in described.batch_options:
        if options.get(name) is None:
            option = described.batch_option_help[name]
            # A missing array of values is a missing value; a missing scalar, a missing argument.
            error = ValueError if option.array else TypeError
            raise error(f"{game} needs {name} ({option.help})")
    cells = described.moves_per_row(tuple(boards.shape[1:]))
    moves = bool(options.get("moves", False))
    width = len(_SCALARS) + cells * (3 if moves else 1)
    boards = boards.rechunk({axis: -1 for axis in range(1, boards.ndim)})
    extra: list[Any] = []
    per_row: list[str] = []
    for name in described.batch_options:
        if not described.batch_option_help[name].array:
            continue
        values = options[name]
        array = values if isinstance(values, da.Array) else np.asarray(values)
        if array.ndim >= 2:
            # map_blocks lines arrays up by their last axes: give the values the boards' rank,
            # (N, 2, 1), so that their rows meet the boards' rows.
            rows = da.asarray(array).reshape(array.shape + (1,) * (boards.ndim - array.ndim))
            extra.append(rows.rechunk((boards.chunks[0], *((-1,) * (boards.ndim - 1)))))
            per_row.append(name)
            del options[name]
        else:
            options[name] = np.asarray(array).tolist()
    packed = da.map_blocks(
        _solve_block,
        boards,
        *extra,
        dtype=np.int64,
        chunks=(boards.chunks[0], (width,)),
        drop_axis=list(range(2, boards.ndim)),
        meta=np.empty((0, width), np.int64),
        game=game,
        cells=cells,
        options=options,
        per_row=per_row,
    )
    fields = {
        name: packed[:, column].astype(dtype) for column, (name, dtype) in enumerate(_SCALARS)
    }
    start = len(_SCALARS)
    fields["best_mask"] = packed[:, start : start + cells].astype(np.bool_)
    if moves:
        fields["move_value"] = packed[:, start + cells : start + 2 * cells].astype(np.int8)
        fields["move_plies"] = packed[:, start + 2 * cells :].astype(np.int16)
    return fields


def _solve_block(
    boards: np.ndarray[Any, Any],
    *rows: np.ndarray[Any, Any],
    game: str,
    cells: int,
    options: dict[str, Any],
    per_row: list[str],
    block_info: dict[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """One chunk of rows solved in a worker, its columns packed side by side as int64 (the
    options ``per_row`` given as the chunk's rows of them). An error names the row as the local
    call would (its index in the whole array)."""
    first_row = 0 if block_info is None else int(block_info[0]["array-location"][0][0])
    given: dict[str, Any] = dict(options)
    given.update(
        (name, values.reshape(len(boards), -1)) for name, values in zip(per_row, rows, strict=True)
    )
    try:
        result = find_game(game).batch_solve(boards, **given)
    except (ValueError, TypeError) as error:
        raise _renumbered(error, first_row) from None
    arrays = result.to_dict()
    columns = [arrays[name].astype(np.int64)[:, None] for name, _ in _SCALARS]
    columns.append(arrays["best_mask"].reshape(len(result), cells).astype(np.int64))
    if "move_value" in arrays:
        columns.append(arrays["move_value"].astype(np.int64))
        columns.append(arrays["move_plies"].astype(np.int64))
    return np.concatenate(columns, axis=1)


def review(records: Any, game: str, **options: Any) -> db.Bag:
    """``<game>.review`` of every record, as a ``dask.bag.Bag`` of ``Review`` objects in the
    records' order. ``records`` is a ``Bag`` (or a list, made one); each partition is reviewed
    in a worker by ``perfectplay.review_many`` (on every core it has). ``options``
    (``node_limit``, ``start``...) pass on to the game's ``review``; a record the local call
    refuses raises the same error when the bag is computed."""
    module = find_game(game).module()
    if not hasattr(module, "review"):
        raise ValueError(f"{game} has no review")
    if "threads" in options:
        raise TypeError("threads is not taken for a cluster: each worker uses every core it has")
    if isinstance(records, (str, bytes)) or not isinstance(records, (db.Bag, list, tuple)):
        raise TypeError(f"records must be a dask bag or a list, not {type(records).__name__}")
    if not isinstance(records, db.Bag):
        records = db.from_sequence(list(records), partition_size=64)
    bag: db.Bag = records.map_partitions(_review_partition, game=game, options=options)
    return bag


def _review_partition(records: Any, game: str, options: dict[str, Any]) -> list[Any]:
    from perfectplay._kernel.review import review_many

    return review_many(find_game(game).module().review, list(records), **options)


def _renumbered(error: Exception, first_row: int) -> Exception:
    """The error of a chunk with its "row N:" counted from the whole array's first row."""
    message = str(error)
    match = re.match(r"row (\d+): ", message)
    if match is None or first_row == 0:
        return error
    whole = f"row {int(match.group(1)) + first_row}: {message[match.end() :]}"
    try:
        return type(error)(whole)
    except TypeError:  # an exception class that takes other arguments: keep it as it is
        return error
