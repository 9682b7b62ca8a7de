"""The 13-ply 7x6 book, built here by the search: Pons' score of every child of the 12-ply
book's entries where nobody has won and the side to move cannot win at once, kept as seven
scores for each 12-ply entry (``openings.DeepBook``'s ``next_scores``; ``openings.NOT_HELD``
where a column's child is not one of those). And the 14-ply positions, the same children one
stone further, solved the same way.

``build`` finds the children (9,981,176 distinct positions, one of each mirror pair) by the
rules on whole arrays, solves them in chunks of ``CHUNK`` in key order on every core (each
thread a position at a time, its table kept, so that neighbours share what they learn; about 6
hours on 2 cores), writing each chunk's scores to a checkpoint folder as it goes, then writes
the book whole. A build stopped or killed goes on from its checkpoint. ``build(plies=14)``
does the same for the 21,675,617 positions of 14 stones (about 7 hours on 2 cores) and
writes them as a book file of its own (``openings.write_14``): no keys, one score a slot of a
perfect hash of the positions' keys, since the rules tell which positions it holds.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
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

__all__ = [
    "CHUNK",
    "board_of",
    "build",
    "children_keys",
    "load",
    "next_keys",
]

#: Positions a checkpoint file holds (the last one the rest).
CHUNK = 10_000
_SHAPE = openings.DEEP_SHAPE


_U = np.uint64
_BOTTOM = _U(_SHAPE.bottom)
_BOARD = _U(_SHAPE.board)
_COLUMNS = [_U(_SHAPE.column(col)) for col in range(_SHAPE.width)]
#: A column's stones read as ``current + mask`` (2**h - 1 plus the side to move's), to its height.
_HEIGHTS = np.array([(value + 1).bit_length() - 1 for value in range(128)], dtype=np.uint64)


def _has_four(stones: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """``Shape.has_four`` of each bitboard."""
    found = np.zeros(len(stones), dtype=bool)
    for shift in (1, _SHAPE.height, _SHAPE.height + 1, _SHAPE.height + 2):
        pairs = stones & (stones >> _U(shift))
        found |= (pairs & (pairs >> _U(2 * shift))) != 0
    return found


def _mirrored(keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """``Shape.mirrored`` of each key."""
    column, stride, width = _U((1 << _SHAPE.stride) - 1), _SHAPE.stride, _SHAPE.width
    mirrored = np.zeros(len(keys), dtype=np.uint64)
    for col in range(width):
        mirrored |= ((keys >> _U(stride * col)) & column) << _U(stride * (width - 1 - col))
    return mirrored


def _children(
    current: npt.NDArray[np.uint64], mask: npt.NDArray[np.uint64]
) -> npt.NDArray[np.uint64]:
    """For each position (the side to move's stones and every stone), its seven columns'
    children as keys (Pons' ``current + mask``, the smaller of the position's and its mirror
    image's; 0 where the child is not held: the column full, the game over, or the side to
    move able to win at once), by the rules of ``Shape`` on whole arrays."""
    landing = (mask + _BOTTOM) & _BOARD
    keys = np.zeros((len(current), _SHAPE.width), dtype=np.uint64)
    for col, column in enumerate(_COLUMNS):
        cell = landing & column
        child_current, child_mask = current ^ mask, mask | cell
        held = (cell != 0) & ~_has_four(current | cell)
        child_landing = (child_mask + _BOTTOM) & _BOARD
        for reply in _COLUMNS:
            wins = child_landing & reply
            held &= ~((wins != 0) & _has_four(child_current | wins))
        key = child_current + child_mask + _BOTTOM
        keys[:, col] = np.where(held, np.minimum(key, _mirrored(key)) - _BOTTOM, _U(0))
    return keys


def _stones_of(keys: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.uint64], ...]:
    """The side to move's stones and every stone of each key (``current + mask``)."""
    mask = np.zeros(len(keys), dtype=np.uint64)
    column, stride = _U((1 << _SHAPE.stride) - 1), _SHAPE.stride
    for col in range(_SHAPE.width):
        height = _HEIGHTS[((keys >> _U(stride * col)) & column).astype(np.intp)]
        mask |= ((_U(1) << height) - _U(1)) << _U(stride * col)
    return keys - mask, mask


def children_keys(codes: npt.NDArray[np.int32]) -> npt.NDArray[np.uint64]:
    """For each 12-ply code, its seven columns' children as keys (Pons' ``current + mask``,
    the smaller of the position's and its mirror image's; 0 where the child is not held: the
    column full, the game over, or the side to move able to win at once)."""
    first, mask = _decode(codes)
    return _children(first, mask)  # 12 stones: the first player moves


def next_keys(keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The held children of the positions of ``keys`` (as ``children_keys`` holds them), each
    once, ascending: the 14-ply book's positions from the 13-ply book's."""
    found = [np.zeros(0, dtype=np.uint64)]
    for part in np.array_split(keys, max(1, len(keys) // 500_000)):  # a bounded peak memory
        children = _children(*_stones_of(part)).reshape(-1)
        found.append(np.unique(children[children != 0]))
    return np.unique(np.concatenate(found))


def _decode(codes: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.uint64], ...]:
    """``openings.deep_stones`` of each 12-ply code: the first player's stones and every
    stone. A code reads column by column from its top bit: 1 then the stone's bit (0 the first
    player's) for each stone, then a 0 ending the column."""
    bits = codes.astype(np.int64) & 0xFFFFFFFF
    first = np.zeros(len(codes), dtype=np.uint64)
    mask = np.zeros(len(codes), dtype=np.uint64)
    at = np.full(len(codes), 31, dtype=np.int64)
    for col in range(_SHAPE.width):
        for row in range(_SHAPE.height):
            stone = (at >= 1) & ((bits >> np.maximum(at, 0)) & 1 == 1)
            firsts = stone & ((bits >> np.maximum(at - 1, 0)) & 1 == 0)
            cell = _U(_SHAPE.cell(col, row))
            mask |= np.where(stone, cell, _U(0))
            first |= np.where(firsts, cell, _U(0))
            at = np.where(stone, at - 2, at)
        at -= 1
    return first, mask


def board_of(key: int, stones: int = openings.DEEP_STONES + 1) -> npt.NDArray[np.uint8]:
    """The 6x7 cell codes (top row first; 1 the first player's) of a key of ``stones``
    stones (13 by default)."""
    current, mask = (int(part[0]) for part in _stones_of(np.array([key], dtype=np.uint64)))
    position = (current, mask, stones)
    return np.array(codes_of(_SHAPE, position), dtype=np.uint8).reshape(6, 7)


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
    plies: int = 13,
    threads: int | None = None,
    progress: bool = False,
    entries: int | None = None,
) -> int:
    """Builds the book of ``plies`` stones into ``output`` and returns how many positions it
    holds. 13: seven int8 scores for each 12-ply entry, Pons' score of its columns' children
    (9,981,176 positions). 14: ``openings.write_14``'s file of every held child (as
    ``children_keys`` holds them) of those (21,675,617). ``checkpoint`` is a folder for each
    chunk's scores and the keys' digest; a build that finds them there goes on from them (one
    whose keys differ is a ``ValueError``), and removes them once the book is written.
    ``entries``: only the descendants of the first so many 12-ply entries (the others' not
    held), for a build that must be short."""
    if plies not in (13, 14):
        raise ValueError(f"plies must be 13 or 14, got {plies!r}")
    folder = _folder(checkpoint)
    deep = openings.deep()
    slots = children_keys(deep.codes if entries is None else deep.codes[:entries]).reshape(-1)
    keys = np.unique(slots[slots != 0])
    if plies == 14:
        keys = next_keys(keys)
    scores = _solve(keys, plies, folder, threads, progress)
    if plies == 14:
        openings.write_14(output, keys, scores)
    else:
        held = slots != 0
        book = np.full(len(deep) * 7, openings.NOT_HELD, dtype=np.int8)
        book[: len(slots)][held] = scores[np.searchsorted(keys, slots[held])]
        write_whole(output, lambda file: file.write(book.tobytes()))
    _remove(folder)
    return len(keys)


def _folder(checkpoint: str | os.PathLike[str]) -> Path:
    folder = Path(checkpoint)
    folder.mkdir(parents=True, exist_ok=True)  # before minutes of work: a bad folder fails now
    return folder


def _remove(folder: Path) -> None:
    """The checkpoint, once the book it was for is written."""
    for chunk in folder.glob("chunk_*.npy"):
        chunk.unlink()
    (folder / "keys.sha256").unlink(missing_ok=True)
    if not any(folder.iterdir()):
        folder.rmdir()


def _solve(
    keys: npt.NDArray[np.uint64],
    stones: int,
    folder: Path,
    threads: int | None,
    progress: bool,
) -> npt.NDArray[np.int8]:
    """Pons' score of the position of each key (of ``stones`` stones), solved in chunks of
    ``CHUNK`` on every core (each thread a position at a time, its table kept), each chunk
    written to ``folder`` as it is solved and read back from there by a build going on (the
    folder also keeps the keys' SHA-256, so that another build's chunks are refused)."""
    # The keys' digest, not the keys (173 MB at 14 plies): a build's keys are found again
    # by the rules in a minute, and the digest tells another build's checkpoint apart.
    digest = hashlib.sha256(keys.tobytes()).hexdigest()
    digest_path = folder / "keys.sha256"
    if digest_path.exists():
        if digest_path.read_text().strip() != digest:
            raise ValueError(f"{folder} holds another build's checkpoint: remove it or pick one")
    else:
        write_whole(digest_path, lambda file: file.write(digest.encode()))
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
    below = openings.shallower_than(stones)  # never the book being built
    stop = threading.Event()

    def solve(index: int, part: slice) -> tuple[slice, npt.NDArray[np.int8]]:
        solved = np.zeros(part.stop - part.start, dtype=np.int8)
        for row, key in enumerate(keys[part].tolist()):
            if stop.is_set():
                raise KeyboardInterrupt
            solved[row] = score(board_of(key, stones), threads=1, book=below)
        write_whole(_chunk_path(folder, index), lambda file: np.save(file, solved))
        return part, solved

    left = sum(part.stop - part.start for _, part in pending)
    bar = progress_bar(progress, f"connect4 7x6 {stones}-ply book", len(keys), len(keys) - left)
    workers = threads or os.cpu_count() or 1
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
    return scores


def load(path: str | os.PathLike[str]) -> Any:
    """The 12-ply book with the 13-ply book in ``path`` attached (``openings.DeepBook``): a
    ``ValueError`` naming the file when it is not seven scores for each 12-ply entry, each one
    a 13-stone position can have. ``openings.deep()`` attaches the packaged one."""
    return openings.with_next(openings.deep(), path)
