"""Building an opening book (``build``): every position of the deepest stones solved, in
chunks, here or on a Dask cluster, kept in a checkpoint a killed build goes on from, and every
shallower position backed up from them by the rules."""

from __future__ import annotations

import contextlib
import io
import os
import zipfile
from collections.abc import Iterator
from typing import Any

import numpy as np

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.batch import progress_bar
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay._kernel.options import flag
from perfectplay.connect4.book_file import (
    Book,
    _backed_up_levels,
    _levels,
    most_stones,
    score_range,
)
from perfectplay.connect4.book_io import _pons
from perfectplay.connect4.rules import Position, Shape


def build(
    depth: int,
    *,
    width: int = 7,
    height: int = 6,
    threads: Any = None,
    progress: bool = False,
    book: Any = "packaged",
    checkpoint: str | os.PathLike[str] | None = None,
    chunk: int = 256,
    client: Any = None,
) -> Book:
    """Solves every position with ``depth`` stones (``connect4.batch_solve``, every core unless
    ``threads``; on 7x6 its searches stop at the 12-ply book unless ``book=None``), ``chunk``
    positions at a time, then every shallower one from them.

    With ``checkpoint`` (a file), the scores solved so far are written there after every
    chunk, whole or not at all, and a build started again with the same file goes on from them
    (a kill or Ctrl-C loses at most the chunk under way); the file is removed once the book is
    built. A checkpoint of another build (board, depth, or positions it cannot hold) is a
    ``ValueError``.

    With ``client`` (a ``dask.distributed.Client``), the chunks are solved on the cluster's
    workers instead, each by ``batch_solve`` on every core the worker has, every chunk sent at
    once; the answers come back in order, and the checkpoint and the progress bar follow
    them. The book is the very one a local build makes."""
    progress = flag(progress, "progress")
    shape = Shape(width, height)
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")
    deepest_allowed = min(shape.cells - 1, most_stones(shape))
    if not 0 <= depth <= deepest_allowed:
        past = " (a book of a board past 64 bits holds at most (64 - width) // 2 stones)"
        wide = deepest_allowed < shape.cells - 1
        raise ValueError(
            f"depth must be from 0 to {deepest_allowed}{past if wide else ''}, got {depth}"
        )
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive int, got {chunk!r}")
    levels = _levels(shape, depth)
    deepest = levels[-1]
    scores = {} if checkpoint is None else _resumed(checkpoint, shape, depth, deepest)
    pending = [(key, text) for key, (_, text) in deepest.items() if key not in scores]
    what = f"connect4 {width}x{height} depth {depth}"
    bar = progress_bar(progress, what, len(deepest), len(deepest) - len(pending))
    parts = [pending[start : start + chunk] for start in range(0, len(pending), chunk)]
    texts = [[text for _, text in part] for part in parts]
    if client is None:
        answers: Iterator[tuple[list[int], list[int]]] = (
            solve_texts(part, width, height, book, threads) for part in texts
        )
    else:  # every chunk on the cluster at once; read back in order
        futures = client.map(solve_texts, texts, width=width, height=height, book=book, pure=False)
        answers = (future.result() for future in futures)
    try:
        for part, (values, plies) in zip(parts, answers, strict=True):
            for (key, _), value, plies_left in zip(part, values, plies, strict=True):
                scores[key] = _pons(value, plies_left, depth, shape.cells)
            if checkpoint is not None:
                _save_checkpoint(checkpoint, shape, depth, scores)
            if bar is not None:
                bar.update(len(part))
    finally:
        if bar is not None:
            bar.close()
    _backed_up_levels(shape, levels, scores)
    keys = np.array(sorted(scores), dtype=np.uint64)
    built = Book(width, height, depth, keys, np.array([scores[int(k)] for k in keys], np.int8))
    if checkpoint is not None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(checkpoint)
    return built


def solve_texts(
    texts: list[str], width: int, height: int, book: Any, threads: Any = None
) -> tuple[list[int], list[int]]:
    """The value and plies of each move string by ``batch_solve`` (a chunk of a build, here or
    on a Dask worker)."""
    solved = implementation("connect4").batch_solve(
        texts, width=width, height=height, threads=threads, book=book
    )
    return [int(value) for value in solved.value], [int(plies) for plies in solved.plies]


def _save_checkpoint(
    path: str | os.PathLike[str], shape: Shape, depth: int, scores: dict[int, int]
) -> None:
    buffer = io.BytesIO()
    np.savez(
        buffer,
        build=np.array([shape.width, shape.height, depth], dtype=np.int64),
        keys=np.array(list(scores), dtype=np.uint64),
        scores=np.array(list(scores.values()), dtype=np.int8),
    )
    write_whole(path, lambda file: file.write(buffer.getvalue()))


def _resumed(
    path: str | os.PathLike[str],
    shape: Shape,
    depth: int,
    deepest: dict[int, tuple[Position, str]],
) -> dict[int, int]:
    """The scores a checkpoint holds ({} when there is none yet), checked against this build."""
    try:
        file = open_regular(path)
    except FileNotFoundError:
        return {}
    where = f"checkpoint {os.fspath(path)}"
    try:
        with file, np.load(file, allow_pickle=False) as saved:
            build, keys, scores = saved["build"], saved["keys"], saved["scores"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{where} cannot be read ({error}): remove it to start over") from None
    wanted = [shape.width, shape.height, depth]
    if build.tolist() != wanted or keys.dtype != np.uint64 or len(keys) != len(scores):
        raise ValueError(
            f"{where} is of another build ({build.tolist()}, not {wanted}): remove it or give "
            "another"
        )
    resumed = dict(zip(keys.tolist(), scores.tolist(), strict=True))
    for key, held in resumed.items():
        if key not in deepest:
            raise ValueError(f"{where} holds a position of no depth-{depth} game: remove it")
        low, high = score_range(shape, deepest[key][0])
        if not low <= held <= high:
            raise ValueError(f"{where} holds a score its position cannot have: remove it")
    return resumed
