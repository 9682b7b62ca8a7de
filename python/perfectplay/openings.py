"""Connect Four opening books: Pons' score of every position with at most ``depth`` stones.

>>> from perfectplay import connect4, openings
>>> book = openings.build(3, width=4, height=4)
>>> len(book), book.depth
(37, 3)
>>> connect4.score("", width=4, height=4, book=book)   # answered from the book
0

``build`` solves every position with exactly ``depth`` stones on every core (a mirror image
once) and takes the shallower ones from them by the rules (a position's score is the best of
its moves'); ``connect4``'s ``solve``, ``analyze``, ``best_move``, ``best_moves``,
``value``, ``score`` and ``batch_solve`` take ``book=`` (a 7x6 ``connect4.Position`` reads
the packaged book unless given one) and answer a position the book holds at once, in the
search itself, so a position one stone past the book is searched only as deep as its moves.
Answers never change with a book, only the time. ``save`` writes a versioned file with a
checksum; ``load`` reads one and checks it before it answers: its size, checksum and order,
that it holds exactly the positions of its depth, and that every score above the deepest
stones follows from the scores below by the rules (the deepest are trusted to the checksum;
``verify(sample)`` re-solves some). ``packaged()`` is the 7x6 book that ships with
perfectplay, built by ``perfectplay openings build`` (see the README for its depth and what
it took).
"""

from __future__ import annotations

import functools
import struct
import zlib
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._files import open_regular, write_whole
from perfectplay._pure import score
from perfectplay._pure.batch import flag
from perfectplay._pure.connect4 import Position, Shape, pons_of

__all__ = ["FORMAT_VERSION", "Book", "build", "load", "packaged"]

MAGIC = b"PPC4BK\r\n"  # the line-end bytes catch text-mode damage, as PNG's do
FORMAT_VERSION = 1
# magic, version, width, height, depth, reserved, entries
_FIXED = struct.Struct("<8sIBBBBQ")
_CHECKSUM = struct.Struct("<I")
PACKAGED = "connect4-7x6.book"
PACKAGED_SIZE = (7, 6)  # the board size of the packaged book


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
    ) -> None:
        self.shape = Shape(width, height)
        self.width, self.height, self.depth = width, height, depth
        keys, scores = np.array(keys, dtype=np.uint64), np.array(scores, dtype=np.int8)
        keys.flags.writeable = scores.flags.writeable = False
        self.keys, self.scores, self.path = keys, scores, path
        self._check()

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

    def _check(self) -> None:
        """Holds exactly the positions of its depth, keys increasing, and every score above
        the deepest stones is its moves' best: a ``ValueError`` naming what is wrong."""
        name = f"{self.path}: " if self.path else ""
        if not 0 <= self.depth <= self.shape.cells:
            raise ValueError(f"{name}depth {self.depth} is not within the board's cells")
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
        for moves, level in enumerate(levels[:-1]):
            for key, (position, _) in level.items():
                if scores[key] != _backed_up(self.shape, position, scores):
                    raise ValueError(
                        f"{name}the score of position {key:#x} ({moves} stones) is not the best "
                        "of its moves' scores: the file was altered"
                    )

    def save(self, path: str) -> None:
        """Writes the book to ``path``, whole or not at all."""

        def write(file: Any) -> None:
            file.write(_encode(self))

        write_whole(path, write)
        self.path = str(path)

    def verify(self, sample: int = 16, *, seed: int = 0, threads: Any = None) -> None:
        """Re-solves ``sample`` random positions of the deepest stones (without the book); a
        ``ValueError`` naming the first that disagrees."""
        from perfectplay import connect4

        deepest = [(key, text) for key, (_, text) in _levels(self.shape, self.depth)[-1].items()]
        chosen = np.random.default_rng(seed).permutation(len(deepest))[: max(0, int(sample))]
        picked = [deepest[i] for i in chosen]
        solved = connect4.batch_solve(
            [text for _, text in picked], width=self.width, height=self.height, threads=threads
        )
        scores = self.by_key
        for (key, text), value, plies in zip(picked, solved.value, solved.plies, strict=True):
            found = _pons(int(value), int(plies), self.depth, self.shape.cells)
            if found != scores[key]:
                raise ValueError(
                    f"{self.path or 'the book'}: position {text!r} scores {found}, the book says "
                    f"{scores[key]}"
                )


def _encode(book: Book) -> bytes:
    body = _FIXED.pack(
        MAGIC, FORMAT_VERSION, book.width, book.height, book.depth, 0, len(book.keys)
    )
    body += book.keys.astype("<u8").tobytes() + book.scores.astype("i1").tobytes()
    return body + _CHECKSUM.pack(zlib.crc32(body))


def _decode(data: bytes, path: str) -> Book:
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
    return Book(width, height, depth, keys, scores, path=path)


def load(path: str) -> Book:
    """The book in ``path``, checked (see the module)."""
    with open_regular(path) as file:
        data = file.read()
    return _decode(data, str(path))


@functools.cache
def packaged() -> Book:
    """The 7x6 book that ships with perfectplay (loaded and checked once)."""
    data = resources.files("perfectplay").joinpath("data").joinpath(PACKAGED).read_bytes()
    return _decode(data, PACKAGED)


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


def _pons(value: int, plies: int, moves: int, cells: int) -> int:
    """Pons' score of a solution's value and plies, for a position with ``moves`` stones."""
    return pons_of(value * score.win(cells - moves - plies))


def build(
    depth: int,
    *,
    width: int = 7,
    height: int = 6,
    threads: Any = None,
    progress: bool = False,
) -> Book:
    """Solves every position with ``depth`` stones (``connect4.batch_solve``, every core unless
    ``threads``), then every shallower one from them."""
    progress = flag(progress, "progress")
    from perfectplay import connect4

    shape = Shape(width, height)
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")
    if not 0 <= depth < shape.cells:
        raise ValueError(f"depth must be from 0 to {shape.cells - 1}, got {depth}")
    levels = _levels(shape, depth)
    deepest = levels[-1]
    solved = connect4.batch_solve(
        [text for _, text in deepest.values()],
        width=width,
        height=height,
        threads=threads,
        progress=progress,
    )
    scores = {
        key: _pons(int(value), int(plies), depth, shape.cells)
        for key, value, plies in zip(deepest, solved.value, solved.plies, strict=True)
    }
    _backed_up_levels(shape, levels, scores)
    keys = np.array(sorted(scores), dtype=np.uint64)
    return Book(width, height, depth, keys, np.array([scores[int(k)] for k in keys], dtype=np.int8))
