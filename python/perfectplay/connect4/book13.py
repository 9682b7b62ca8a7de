"""The 13-ply 7x6 book, built here by the search: Pons' score of every child of the 12-ply
book's entries where nobody has won and the side to move cannot win at once, kept as seven
scores for each 12-ply entry (``openings.DeepBook``'s ``next_scores``; ``openings.NOT_HELD``
where a column's child is not one of those).

``build`` finds the children (9,981,176 distinct positions, one of each mirror pair), solves
them in chunks of ``CHUNK`` in key order on every core (each thread a position at a time, its
table kept, so that neighbours share what they learn; about 6 hours on 2 cores), writing each
chunk's scores to a checkpoint folder as it goes, then writes the book whole. A build stopped
or killed goes on from its checkpoint.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.batch import progress_bar
from perfectplay._kernel.files import write_whole
from perfectplay.connect4 import openings
from perfectplay.connect4.rules import codes_of

__all__ = ["CHUNK", "board_of", "build", "children_keys", "load"]

#: Positions a checkpoint file holds (the last one the rest).
CHUNK = 10_000
_SHAPE = openings.DEEP_SHAPE


def children_keys(codes: npt.NDArray[np.int32]) -> npt.NDArray[np.uint64]:
    """For each 12-ply code, its seven columns' children as keys (Pons' ``current + mask``,
    the smaller of the position's and its mirror image's; 0 where the child is not held: the
    column full, the game over, or the side to move able to win at once)."""
    keys = np.zeros((len(codes), 7), dtype=np.uint64)
    for row, code in enumerate(codes.tolist()):
        parent = (*openings.deep_stones(code), openings.DEEP_STONES)  # the first player moves
        for col in _SHAPE.moves(parent):
            child = _SHAPE.play(parent, col)
            if not _SHAPE.is_won(child) and not _SHAPE.wins_now(child):
                keys[row, col] = _SHAPE.book_key(child) - _SHAPE.bottom
    return keys


def board_of(key: int) -> npt.NDArray[np.uint8]:
    """The 6x7 cell codes (top row first; 1 the first player's) of a 13-stone key."""
    mask, stride = 0, _SHAPE.stride
    for col in range(_SHAPE.width):
        # current + mask: a column of h stones reads 2**h - 1 plus the side to move's.
        height = (((key >> (stride * col)) & ((1 << stride) - 1)) + 1).bit_length() - 1
        mask |= ((1 << height) - 1) << (stride * col)
    position = (key - mask, mask, openings.DEEP_STONES + 1)
    return np.array(codes_of(_SHAPE, position), dtype=np.uint8).reshape(6, 7)


def _all_children(codes: npt.NDArray[np.int32], processes: int) -> npt.NDArray[np.uint64]:
    if processes <= 1 or len(codes) < 10_000:
        return children_keys(codes)
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return np.concatenate(pool.map(children_keys, np.array_split(codes, 8 * processes)))


def _chunk_path(folder: Path, index: int) -> Path:
    return folder / f"chunk_{index:05d}.npy"


def _read_chunk(path: Path, length: int) -> npt.NDArray[np.int8]:
    """A checkpoint chunk's scores, or a ``ValueError`` naming it."""
    try:
        scores: npt.NDArray[np.int8] = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise ValueError(f"{path} is not a chunk of this build ({error}): remove it") from None
    if scores.dtype != np.int8 or scores.shape != (length,) or np.any(np.abs(scores) > 14):
        raise ValueError(f"{path} is not a chunk of this build: remove it")
    return scores


def build(
    output: str | os.PathLike[str],
    *,
    checkpoint: str | os.PathLike[str],
    threads: int | None = None,
    progress: bool = False,
    entries: int | None = None,
) -> int:
    """Builds the 13-ply book into ``output`` (seven int8 scores for each 12-ply entry) and
    returns how many positions it holds. ``checkpoint`` is a folder for the positions' keys
    and each chunk's scores; a build that finds them there goes on from them (one whose keys
    differ is a ``ValueError``), and removes them once the book is written. ``entries``: only
    the children of the first so many 12-ply entries (the others' columns not held), for a
    build that must be short."""
    folder = Path(checkpoint)
    folder.mkdir(parents=True, exist_ok=True)  # before minutes of work: a bad folder fails now
    deep = openings.deep()
    codes = deep.codes if entries is None else deep.codes[:entries]
    workers = threads or os.cpu_count() or 1
    slots = _all_children(codes, workers).reshape(-1)
    keys = np.unique(slots[slots != 0])
    keys_path = folder / "keys.npy"
    if keys_path.exists():
        kept = np.load(keys_path, allow_pickle=False)
        if not np.array_equal(kept, keys):
            raise ValueError(f"{folder} holds another build's checkpoint: remove it or pick one")
    else:
        write_whole(keys_path, lambda file: np.save(file, keys))
    count = -(-len(keys) // CHUNK)
    scores = np.zeros(len(keys), dtype=np.int8)
    pending = []
    for index in range(count):
        part = slice(index * CHUNK, min((index + 1) * CHUNK, len(keys)))
        if _chunk_path(folder, index).exists():
            scores[part] = _read_chunk(_chunk_path(folder, index), part.stop - part.start)
        else:
            pending.append((index, part))
    score = implementation("connect4").score
    stop = threading.Event()

    def solve(index: int, part: slice) -> tuple[slice, npt.NDArray[np.int8]]:
        solved = np.zeros(part.stop - part.start, dtype=np.int8)
        for row, key in enumerate(keys[part].tolist()):
            if stop.is_set():
                raise KeyboardInterrupt
            solved[row] = score(board_of(key), threads=1)
        write_whole(_chunk_path(folder, index), lambda file: np.save(file, solved))
        return part, solved

    left = sum(part.stop - part.start for _, part in pending)
    bar = progress_bar(progress, "connect4 7x6 13-ply book", len(keys), len(keys) - left)
    pool = concurrent.futures.ThreadPoolExecutor(workers)
    try:
        waiting = {pool.submit(solve, index, part) for index, part in pending}
        while waiting:
            # A short wait keeps Ctrl-C heard within a second.
            done, waiting = concurrent.futures.wait(
                waiting, timeout=0.5, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in done:
                part, solved = future.result()
                scores[part] = solved
                if bar is not None:
                    bar.update(len(solved))
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    held = slots != 0
    book = np.full(len(deep) * 7, openings.NOT_HELD, dtype=np.int8)
    book[: len(slots)][held] = scores[np.searchsorted(keys, slots[held])]
    write_whole(output, lambda file: file.write(book.tobytes()))
    for index in range(count):
        _chunk_path(folder, index).unlink(missing_ok=True)
    keys_path.unlink()
    if not any(folder.iterdir()):
        folder.rmdir()
    return len(keys)


def load(path: str | os.PathLike[str]) -> Any:
    """The 12-ply book with the 13-ply book in ``path`` attached (``openings.DeepBook``): a
    ``ValueError`` naming the file when it is not seven scores for each 12-ply entry, each one
    a 13-stone position can have. ``openings.deep()`` attaches the packaged one."""
    return openings.with_next(openings.deep(), path)
