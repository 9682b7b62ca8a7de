"""batch_solve on a Dask cluster: ``pip install 'perfectplay[dask]'``.

>>> import dask.array as da                                               # doctest: +SKIP
>>> from distributed import Client
>>> client = Client("tcp://scheduler:8786")      # or Client() for a local cluster
>>> boards = da.from_npy_stack("boards/")        # (N, rows, cols), chunked along N
>>> labels = perfectplay.dask.batch_solve(boards, "mnk", k=4, moves=True)
>>> value, plies = dask.compute(labels["value"], labels["plies"])

Each chunk of rows is solved by the game's ``batch_solve`` in a worker (on every core it has);
the fields come back as dask arrays chunked like the boards, equal to the local call's.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from perfectplay.errors import missing_extra

try:
    import dask.array as da
except ImportError as error:
    raise missing_extra(error, "dask") from error

from perfectplay._registry import game as find_game

__all__ = ["batch_solve"]

# Packed columns of a chunk: these five, then best_mask, then move_value and move_plies.
_SCALARS = (("value", np.int8), ("plies", np.int16), ("best_move", np.int16),
            ("status", np.uint8), ("nodes", np.uint64))  # fmt: skip


def batch_solve(
    boards: da.Array,
    game: str,
    *,
    k: int | None = None,
    alocs: Any = None,
    blocs: Any = None,
    **options: Any,
) -> dict[str, da.Array]:
    """The fields of ``<game>.batch_solve`` as dask arrays, for ``boards`` chunked along N.

    ``game`` is any game of ``perfectplay.GAMES``; ``boards`` are its batch codes (``(N, 9)`` or
    ``(N, 3, 3)`` for tic-tac-toe, ``(N, rows, cols)`` otherwise, Connect Four's top row
    first). m,n,k takes ``k``; footholds takes ``alocs`` and ``blocs``, each one pair for every
    row or an ``(N, 2)`` array (numpy or dask). Other options (``moves``, ``threads``,
    ``node_limit``, ``table_mb``, ``errors``) go to the game's ``batch_solve`` in each worker.
    """
    if not isinstance(boards, da.Array):
        raise TypeError(f"boards must be a dask array, not {type(boards).__name__}")
    described = find_game(game)
    if boards.ndim < 2:
        raise ValueError(f"boards must have a row axis and a board, got shape {boards.shape}")
    if "progress" in options:
        raise TypeError("progress is not shown for a cluster: use the dask dashboard")
    if "k" in described.batch_options and k is None:
        raise TypeError(f"{game} needs k (the stones in a row that win)")
    for name, locations in (("alocs", alocs), ("blocs", blocs)):
        if name in described.batch_options and locations is None:
            raise ValueError(f"{game} needs {name}: one (row, col) pair or an (N, 2) array")
    cells = described.moves_per_row(tuple(boards.shape[1:]))
    moves = bool(options.get("moves", False))
    width = len(_SCALARS) + cells * (3 if moves else 1)
    boards = boards.rechunk({axis: -1 for axis in range(1, boards.ndim)})
    extra: list[Any] = []
    constants: dict[str, Any] = {"game": game, "cells": cells, "k": k, "options": options}
    for name, locations in (("alocs", alocs), ("blocs", blocs)):
        if game != "footholds" or locations is None:
            continue
        array = locations if isinstance(locations, da.Array) else np.asarray(locations)
        if array.ndim == 2:
            # map_blocks lines arrays up by their last axes: give the locations the boards'
            # rank, (N, 2, 1), so that their rows meet the boards' rows.
            rows = da.asarray(array).reshape(array.shape + (1,) * (boards.ndim - 2))
            extra.append(rows.rechunk((boards.chunks[0], *((-1,) * (boards.ndim - 1)))))
            constants[name] = None
        else:
            constants[name] = np.asarray(array).tolist()
    packed = da.map_blocks(
        _solve_block,
        boards,
        *extra,
        dtype=np.int64,
        chunks=(boards.chunks[0], (width,)),
        drop_axis=list(range(2, boards.ndim)),
        meta=np.empty((0, width), np.int64),
        **constants,
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
    k: int | None,
    options: dict[str, Any],
    alocs: Any = None,
    blocs: Any = None,
    block_info: dict[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """One chunk of rows solved in a worker, its columns packed side by side as int64. An
    error names the row as the local call would (its index in the whole array)."""
    first_row = 0 if block_info is None else int(block_info[0]["array-location"][0][0])
    extra: dict[str, Any] = {}
    if k is not None:
        extra["k"] = k
    given = [locations.reshape(len(boards), 2) for locations in rows]
    for name, locations in (("alocs", alocs), ("blocs", blocs)):
        if locations is not None:
            extra[name] = locations
        elif game == "footholds":
            if not given:
                raise ValueError(f"footholds needs {name}: one (row, col) pair or an (N, 2) array")
            extra[name] = given.pop(0)
    try:
        result = find_game(game).batch_solve(boards, **extra, **options)
    except (ValueError, TypeError) as error:
        raise _renumbered(error, first_row) from None
    arrays = result.to_dict()
    columns = [arrays[name].astype(np.int64)[:, None] for name, _ in _SCALARS]
    columns.append(arrays["best_mask"].reshape(len(result), cells).astype(np.int64))
    if "move_value" in arrays:
        columns.append(arrays["move_value"].astype(np.int64))
        columns.append(arrays["move_plies"].astype(np.int64))
    return np.concatenate(columns, axis=1)


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
