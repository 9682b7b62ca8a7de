"""perfectplay's opening book file format (``.book``): Pons' score of every position of a board
with at most ``depth`` stones, as ``Book``; ``load`` reads one and walks it whole, ``save``
writes one, whole or not at all."""

from __future__ import annotations

import functools
import os
import struct
import zlib
from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay.connect4.book_io import _pons, _refuse_change
from perfectplay.connect4.deep_book import DEEP_SIZE, DeepBook
from perfectplay.connect4.rules import Position, Shape

MAGIC = b"PPC4BK\r\n"  # the line-end bytes catch text-mode damage, as PNG's do
FORMAT_VERSION = 1

# magic, version, width, height, depth, reserved, entries
_FIXED = struct.Struct("<8sIBBBBQ")
_CHECKSUM = struct.Struct("<I")


class Book:
    """Pons' scores of every position of one board with at most ``depth`` stones, a position
    and its mirror image under the smaller key (``keys`` increasing, ``scores`` beside them,
    both read-only numpy arrays)."""

    def __init__(
        self,
        width: int,
        height: int,
        depth: int,
        keys: npt.NDArray[np.uint64],
        scores: npt.NDArray[np.int8],
        *,
        path: str | None = None,
        deep: DeepBook | None = None,
    ) -> None:
        self._set(width, height, depth, keys, scores, path, deep)
        self._check()

    @classmethod
    def _as_shipped(cls, *fields: Any) -> Book:
        """The book of a file whose SHA-256 is the shipped one's (``fields`` as ``_set`` takes
        them): the tests walk that book whole (``_check``), so a start does not walk it again."""
        book = object.__new__(cls)
        book._set(*fields)
        return book

    def _set(
        self,
        width: int,
        height: int,
        depth: int,
        keys: npt.NDArray[np.uint64],
        scores: npt.NDArray[np.int8],
        path: str | None,
        deep: DeepBook | None,
    ) -> None:
        self.shape = Shape(width, height)
        self.width, self.height, self.depth = width, height, depth
        keys, scores = np.array(keys, dtype=np.uint64), np.array(scores, dtype=np.int8)
        keys.flags.writeable = scores.flags.writeable = False
        self.keys, self.scores, self.path = keys, scores, path
        if deep is not None and not isinstance(deep, DeepBook):
            raise TypeError(f"deep must be a DeepBook or None, not {type(deep).__name__}")
        if deep is not None and (width, height) != DEEP_SIZE:
            raise ValueError(f"the 12-ply book is for 7x6 boards, not {width}x{height}")
        #: The 12-ply book searches stop at, or None.
        self.deep = deep

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse_change(self, name, _BOOK_FIELDS)
        super().__setattr__(name, value)

    def __len__(self) -> int:
        return len(self.keys)

    def __repr__(self) -> str:
        where = f", {self.path!r}" if self.path else ""
        size = f"{self.width}x{self.height} depth {self.depth}"
        return f"<Book {size}: {len(self):,} positions{where}>"

    @functools.cached_property
    def by_key(self) -> dict[int, int]:
        """{key: score} (see ``Shape.book_key``), for lookups from Python."""
        return dict(zip(self.keys.tolist(), self.scores.tolist(), strict=True))

    def get(self, key: int) -> int | None:
        """The score held under ``key`` (see ``Shape.book_key``), or None."""
        return self.by_key.get(key)

    def score_of(self, position: Position) -> int | None:
        """Pons' score of ``position`` if this book, or the 12-ply book attached to it, holds
        it; else None."""
        if position[2] <= self.depth:
            return self.get(self.shape.book_key(position))
        return None if self.deep is None else self.deep.get(position)

    def _check(self) -> None:
        """Holds exactly the positions of its depth, keys increasing, and every score above
        the deepest stones is its moves' best: a ``ValueError`` naming what is wrong."""
        name = f"{self.path}: " if self.path else ""
        if not 0 <= self.depth <= most_stones(self.shape):
            raise ValueError(
                f"{name}depth {self.depth} is not from 0 to {most_stones(self.shape)}, the most "
                f"stones a book of {self.width}x{self.height} holds"
            )
        if len(self.keys) != len(self.scores):
            raise ValueError(f"{name}{len(self.keys)} keys but {len(self.scores)} scores")
        if len(self.keys) > 1 and not bool(np.all(self.keys[1:] > self.keys[:-1])):
            raise ValueError(f"{name}the keys are not in increasing order")
        levels = _levels(self.shape, self.depth)
        expected = sum(len(level) for level in levels)
        if expected != len(self.keys):
            raise ValueError(
                f"{name}a depth-{self.depth} book of {self.width}x{self.height} holds "
                f"{expected:,} positions, not {len(self.keys):,}"
            )
        scores = self.by_key
        for level in levels:
            for key in level:
                if key not in scores:
                    raise ValueError(f"{name}position {key:#x} is missing")
        # The deepest scores are the only ones not backed up from others: each must be one the
        # stones allow (an edit the checksum was recomputed for must not become a wrong answer).
        for key, (position, text) in levels[-1].items():
            low, high = score_range(self.shape, position)
            if not low <= scores[key] <= high:
                raise ValueError(
                    f"{name}position {text or 'the empty board'!r} scores {scores[key]}, but "
                    f"its stones allow only {low} to {high}: the file was altered"
                )
        for moves, level in enumerate(levels[:-1]):
            for key, (position, _) in level.items():
                if scores[key] != _backed_up(self.shape, position, scores):
                    raise ValueError(
                        f"{name}the score of position {key:#x} ({moves} stones) is not the best "
                        "of its moves' scores: the file was altered"
                    )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the book to ``path``, whole or not at all."""

        def write(file: Any) -> None:
            file.write(_encode(self))

        write_whole(path, write)
        self.path = str(path)

    def verify(self, sample: int = 16, *, seed: int = 0, threads: Any = None) -> None:
        """Re-solves ``sample`` random positions of the deepest stones (without the book); a
        ``ValueError`` naming the first that disagrees."""
        connect4 = implementation("connect4")
        deepest = [(key, text) for key, (_, text) in _levels(self.shape, self.depth)[-1].items()]
        chosen = np.random.default_rng(seed).permutation(len(deepest))[: max(0, int(sample))]
        picked = [deepest[i] for i in chosen]
        solved = connect4.batch_solve(
            [text for _, text in picked],
            width=self.width,
            height=self.height,
            threads=threads,
            book=None,
        )
        scores = self.by_key
        for (key, text), value, plies in zip(picked, solved.value, solved.plies, strict=True):
            found = _pons(int(value), int(plies), self.depth, self.shape.cells)
            if found != scores[key]:
                raise ValueError(
                    f"{self.path or 'the book'}: position {text!r} scores {found}, the book says "
                    f"{scores[key]}"
                )


def most_stones(shape: Shape) -> int:
    """The most stones a book of ``shape`` holds: every cell on a board of up to 64 bits
    (``width * (height + 1) <= 64``); past 64 bits ``(64 - width) // 2``, as its keys take
    ``2 * stones + width`` bits there (``Shape.book_key``) and a book keeps 64."""
    if shape.width * shape.stride <= 64:
        return shape.cells
    return min(shape.cells, (64 - shape.width) // 2)


def _encode(book: Book) -> bytes:
    body = _FIXED.pack(
        MAGIC, FORMAT_VERSION, book.width, book.height, book.depth, 0, len(book.keys)
    )
    body += book.keys.astype("<u8").tobytes() + book.scores.astype("i1").tobytes()
    return body + _CHECKSUM.pack(zlib.crc32(body))


def _decode(data: bytes, path: str, deep: DeepBook | None = None, *, shipped: bool = False) -> Book:
    if len(data) < _FIXED.size + _CHECKSUM.size:
        raise ValueError(f"{path}: {len(data)} bytes is too short for a book")
    magic, version, width, height, depth, _, count = _FIXED.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"{path}: not a perfectplay opening book")
    if version != FORMAT_VERSION:
        raise ValueError(
            f"{path}: book format version {version}; this perfectplay reads {FORMAT_VERSION}"
        )
    expected = _FIXED.size + 9 * count + _CHECKSUM.size
    if len(data) != expected:
        raise ValueError(f"{path}: {len(data)} bytes, but its header promises {expected}")
    (checksum,) = _CHECKSUM.unpack_from(data, len(data) - _CHECKSUM.size)
    if zlib.crc32(data[: -_CHECKSUM.size]) != checksum:
        raise ValueError(f"{path}: the checksum does not match: the file is damaged")
    try:
        Shape(width, height)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    start = _FIXED.size
    keys = np.frombuffer(data, dtype="<u8", count=count, offset=start)
    scores = np.frombuffer(data, dtype="i1", count=count, offset=start + 8 * count)
    if shipped:
        return Book._as_shipped(width, height, depth, keys, scores, path, deep)
    return Book(width, height, depth, keys, scores, path=path, deep=deep)


def load(path: str | os.PathLike[str]) -> Book:
    """The book in ``path``, checked (see the module)."""
    with open_regular(path) as file:
        data = file.read()
    return _decode(data, str(path))


def _levels(shape: Shape, depth: int) -> list[dict[int, tuple[Position, str]]]:
    """For 0, 1, ... ``depth`` stones, the games still going on, a mirror image once: {book
    key: (the position, a move string of Pons' that reaches it)}."""
    levels = [{shape.book_key((0, 0, 0)): ((0, 0, 0), "")}]
    for _ in range(depth):
        following: dict[int, tuple[Position, str]] = {}
        for position, text in levels[-1].values():
            for col in shape.moves(position):
                child = shape.play(position, col)
                if shape.is_won(child) or child[2] == shape.cells:
                    continue
                following.setdefault(shape.book_key(child), (child, f"{text}{col + 1}"))
        levels.append(following)
    return levels


def _backed_up_levels(
    shape: Shape, levels: list[dict[int, tuple[Position, str]]], scores: dict[int, int]
) -> None:
    """Scores every level above the deepest from the one below it, into ``scores``."""
    for level in reversed(levels[:-1]):
        for key, (position, _) in level.items():
            scores[key] = _backed_up(shape, position, scores)


def _backed_up(shape: Shape, position: Position, scores: dict[int, int]) -> int:
    """Pons' score of ``position`` from its moves': a win at once, a full board's draw, or the
    best of the children's negated scores."""
    best = -shape.cells
    for col in shape.moves(position):
        child = shape.play(position, col)
        if shape.is_won(child):
            return (shape.cells + 1 - position[2]) // 2
        best = max(best, 0 if child[2] == shape.cells else -scores[shape.book_key(child)])
    return best


def score_range(shape: Shape, position: Position) -> tuple[int, int]:
    """The Pons scores a game still going on can have: a win at once scores the most there
    is; otherwise the side to move wins at best with its next stone but one, and loses at
    worst to the opponent's next stone."""
    moves = position[2]
    top = (shape.cells + 1 - moves) // 2
    if shape.wins_now(position):
        return top, top
    return -((shape.cells - moves) // 2), (shape.cells - 1 - moves) // 2


_BOOK_FIELDS = ("width", "height", "depth", "keys", "scores", "deep")
