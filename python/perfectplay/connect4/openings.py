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
``value``, ``score`` and ``batch_solve`` take ``book=`` (on 7x6 they read the packaged books
unless given another or ``book=None``) and answer a position the book holds at once, in the
search itself, so a position one stone past the book is searched only as deep as its moves.
Answers never change with a book, only the time. ``save`` writes a versioned file with a
checksum; ``load`` reads one and checks it before it answers: its size, checksum and order,
that it holds exactly the positions of its depth, that every score above the deepest
stones follows from the scores below by the rules, and that every deepest score is one its
stones allow (the deepest are otherwise trusted to the checksum;
``verify(sample)`` re-solves some). ``packaged()`` is the 7x6 book that ships with
perfectplay, built by ``perfectplay openings build`` (see the README for its depth and what
it took), with the community's 12-ply book attached (``deep()``, below).

**The 12-ply book** is the one of ``bitbully-databases`` (Markus Thill, MIT licence, a
dependency pinned to version 0.0.2): the exact distance to the end of every 7x6 position of
12 stones where nobody has won and the side to move cannot win at once, a mirror image once
(4,200,899 entries, 21,004,495 bytes). ``deep()`` loads it once a process and checks it before
the first answer: the file's size and SHA-256, its keys in increasing order, and every score
one the stones on the board allow (a win ends on a stone of the winner's parity, after the
12th and by the 42nd); ``DeepBook.verify(sample)`` re-solves a seeded random sample with the
search alone.

**The 13-ply book** is perfectplay's own, built on the 12-ply one by the search
(``perfectplay.connect4.book13``) and shipped in ``perfectplay-books`` (``NEXT_FILE``,
29,406,293 bytes): Pons' score of every child of a 12-ply entry that the side to move cannot
win at once, seven int8 slots for each entry (``DeepBook.next_scores``). ``deep()`` attaches
it, checked by size, SHA-256 (``NEXT_SHA256``) and score range.

**The 14-ply book** is perfectplay's too, built on the 13-ply one the same way and shipped in
``perfectplay-books`` (``FOURTEEN_FILE``): Pons' score of each of the 21,675,617 children of
the 13-ply book's positions that the side to move cannot win at once. It keeps no keys: the
rules and the 13-ply book tell which positions it holds, and a perfect hash gives each one a
slot (``write_14`` and ``read_14`` say how). ``deep()`` attaches it, checked by size, SHA-256
(``FOURTEEN_SHA256``), header and score range. The compiled core reads the shipped files
itself, once a process, where ``shipped_files()`` says they are, checked by size and SHA-256 as
this module checks them (the same errors, the same words): the twin and
``packaged()``/``deep()`` read them here. A 7x6 search then stops at 14 stones: positions with
fewer are searched down to the books, those the packaged book holds are answered at once, and a
search past 14 stones starts from the bound the 14-ply book gives.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources, util
from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._kernel import perfect_hash, score
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.batch import progress_bar
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay._kernel.options import PACKAGED as PACKAGED_NAME
from perfectplay._kernel.options import flag
from perfectplay.connect4.rules import Position, Shape, _top, codes_of, pons_of

__all__ = [
    "FORMAT_VERSION",
    "NOT_HELD",
    "Book",
    "DeepBook",
    "build",
    "deep",
    "load",
    "load_deep",
    "packaged",
]

MAGIC = b"PPC4BK\r\n"  # the line-end bytes catch text-mode damage, as PNG's do
FORMAT_VERSION = 1
# magic, version, width, height, depth, reserved, entries
_FIXED = struct.Struct("<8sIBBBBQ")
_CHECKSUM = struct.Struct("<I")
PACKAGED = "connect4-7x6.book"
PACKAGED_BYTES = 99_874
PACKAGED_SHA256 = "e2186470573105308ff71b81c5e867ed700420f2fa0b9381a839a4a6325a6355"
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
        deep: DeepBook | None = None,
    ) -> None:
        self._set(width, height, depth, keys, scores, path, deep)
        self._check()

    @classmethod
    def _as_shipped(
        cls,
        width: int,
        height: int,
        depth: int,
        keys: npt.NDArray[np.uint64],
        scores: npt.NDArray[np.int8],
        path: str,
        deep: DeepBook | None,
    ) -> Book:
        """The book of a file whose SHA-256 is the shipped one's: the tests walk that book
        whole (``_check``), so a start does not walk it again."""
        book = object.__new__(cls)
        book._set(width, height, depth, keys, scores, path, deep)
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

    def save(self, path: str) -> None:
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


DEEP_SIZE = (7, 6)  # the board of the 12-ply book
DEEP_SHAPE = Shape(*DEEP_SIZE)
DEEP_STONES = 12
DEEP_DISTRIBUTION = "bitbully-databases"
DEEP_VERSION = "0.0.2"
DEEP_FILE = "assets/book_12ply_distances.dat"
DEEP_BYTES = 21_004_495
DEEP_SHA256 = "1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704"
_REINSTALL = (
    f"reinstall it (pip install --force-reinstall {DEEP_DISTRIBUTION}=={DEEP_VERSION}), or "
    "pass book=None to search without a book"
)
# An entry: a 4-byte big-endian key of the stones, then the distance byte.
_DEEP_ENTRY = np.dtype([("code", ">i4"), ("value", "i1")])


class DeepBook:
    """The community's 12-ply 7x6 book (``bitbully-databases``, MIT): Pons' score of every
    position of 12 stones where nobody has won and the side to move cannot win at once, a
    mirror image once. ``codes`` are its keys (increasing int32: each column bottom up, a
    first player's stone ``10``, a second player's ``11``, ``0`` closing the column, one more
    ``0`` at the end), ``scores`` Pons' scores beside them, both read-only numpy arrays
    (25 MB in all). ``next_scores``, when given, is a 13-ply book (``perfectplay.connect4.
    book13``): seven int8 scores an entry, its columns' children in the entry's orientation,
    ``NOT_HELD`` where a child ends the game or its side to move can win at once; ``next_path``
    the file it was read from."""

    width, height, stones = 7, 6, DEEP_STONES

    def __init__(
        self,
        codes: npt.NDArray[np.int32],
        scores: npt.NDArray[np.int8],
        path: str,
        next_scores: npt.NDArray[np.int8] | None = None,
        next_path: str | None = None,
        fourteen: Book14 | None = None,
    ):
        # The compiled core reads them in place, by dtype (the twin would read any).
        _check_array(f"{path}: codes", codes, np.int32)
        _check_array(f"{path}: scores", scores, np.int8)
        if next_scores is not None:
            named = next_path or path
            _check_array(f"{named}: next_scores", next_scores, np.int8)
            if len(next_scores) != 7 * len(codes):
                raise ValueError(
                    f"{named}: the 13-ply book holds {len(next_scores):,} scores, not 7 for each "
                    f"of the 12-ply book's {len(codes):,} entries"
                )
            # Both backends answer a held score as it is: each must be one a game of 13
            # stones allows (the side to move cannot win at once there: -14 to 14).
            bad = np.flatnonzero((np.abs(next_scores) > 14) & (next_scores != NOT_HELD))
            if len(bad):
                raise ValueError(
                    f"{named}: the 13-ply score {int(bad[0]):,} is {int(next_scores[bad[0]])}, "
                    f"which no position of 13 stones has"
                )
            next_scores.flags.writeable = False
        if fourteen is not None:
            if next_scores is None:
                raise ValueError("a 14-ply book is read through the 13-ply book: attach both")
            if fourteen.keys != FOURTEEN_POSITIONS:
                # Its positions are told by the rules: a part of the book would answer the
                # positions it leaves out with other positions' scores.
                raise ValueError(
                    f"{fourteen.path}: the 14-ply book holds {fourteen.keys:,} positions, not "
                    f"{FOURTEEN_POSITIONS:,}: only the whole book can be read"
                )
        codes.flags.writeable = scores.flags.writeable = False
        self.codes, self.scores, self.path = codes, scores, path
        self.next_scores, self.next_path = next_scores, next_path
        self.fourteen = fourteen

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse_change(self, name, ("codes", "scores", "next_scores", "fourteen"))
        super().__setattr__(name, value)

    def __len__(self) -> int:
        return len(self.codes)

    def __repr__(self) -> str:
        deeper = ""
        if self.next_scores is not None:
            where = "" if self.next_path is None else f" {self.next_path!r}"
            joined = "," if self.fourteen is not None else ", and"
            deeper = f"{joined} a 13-ply book{where}"
        if self.fourteen is not None:
            deeper += f" and a 14-ply book {self.fourteen.path!r}"
        return (
            f"<DeepBook 7x6 at {self.stones} stones: {len(self):,} positions, {self.path!r}"
            f"{deeper}>"
        )

    def get(self, position: Position) -> int | None:
        """Pons' score of a 7x6 position of 12 stones (as ``Shape.play`` makes them), or of 13
        stones when the 13-ply book's ``next_scores`` are attached, or None when the books
        leave it out."""
        if position[2] == self.stones:
            found = self._find(position)
            return None if found is None else int(self.scores[found[0]])
        if position[2] == self.stones + 1 and self.next_scores is not None:
            return self._next_score(position, self.next_scores)
        if position[2] == self.stones + 2 and self.fourteen is not None:
            return self._fourteen_score(position, self.fourteen)
        return None

    def _find(self, position: Position) -> tuple[int, bool] | None:
        """Where the book holds a position of 12 stones, and whether as its mirror image."""
        for mirrored in (False, True):
            # An int32 key: a Python int would make numpy convert the whole column first.
            code = np.int32(deep_code(position, mirrored))
            at = int(np.searchsorted(self.codes, code))
            if at < len(self.codes) and int(self.codes[at]) == code:
                return at, mirrored
        return None

    def _next_score(self, position: Position, next_scores: npt.NDArray[np.int8]) -> int | None:
        """The 13-ply book's score, read through the first parent (the first player's top
        stone taken off, column by column) the 12-ply book holds with this child held."""
        current, mask, moves = position
        first = current ^ mask  # 13 stones: the first player moved last
        for col in range(7):
            top = _top(DEEP_SHAPE, mask, col)
            if not top & first:
                continue
            found = self._find((first ^ top, mask ^ top, moves - 1))
            if found is None:
                continue
            at, mirrored = found
            score = int(next_scores[7 * at + (6 - col if mirrored else col)])
            if score != NOT_HELD:
                return score
        return None

    def _fourteen_score(self, position: Position, fourteen: Book14) -> int | None:
        """The 14-ply book's score of a position it holds: one whose side to move cannot win
        at once, with a parent (the second player's top stone taken off) the 13-ply book
        holds. Its key's slot holds the score; no key is stored, so the rules decide."""
        current, mask, moves = position
        if DEEP_SHAPE.wins_now(position):
            return None
        second = current ^ mask  # 14 stones: the second player moved last
        for col in range(DEEP_SHAPE.width):
            top = _top(DEEP_SHAPE, mask, col)
            if top & second and self.get((second ^ top, mask ^ top, moves - 1)) is not None:
                score = fourteen.score(DEEP_SHAPE.book_key(position) - DEEP_SHAPE.bottom)
                return None if score == NOT_HELD else score
        return None

    def verify(self, sample: int = 16, *, seed: int = 0, threads: Any = None) -> None:
        """Re-solves ``sample`` entries drawn at random (seeded) with the search alone, and as
        many of the 13-ply and 14-ply books' when they are attached; a ``ValueError`` naming
        the first that disagrees."""
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
            raise ValueError(f"sample must be an int of at least 0, got {sample!r}")
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(self), size=min(sample, len(self)), replace=False)
        boards = [_deep_board(int(self.codes[at])) for at in chosen]
        self._re_solve(boards, self.scores[chosen], self.stones, threads, self.path, chosen)
        if self.next_scores is not None:
            held = np.flatnonzero(self.next_scores != NOT_HELD)
            slots = rng.choice(held, size=min(sample, len(held)), replace=False)
            boards = []
            for slot in slots.tolist():
                board, col = _deep_board(int(self.codes[slot // 7])), slot % 7
                row = max(row for row in range(DEEP_SHAPE.height) if not board[row][col])
                board[row][col] = 1  # 12 stones: the first player moves
                boards.append(board)
            path = self.next_path or self.path
            self._re_solve(boards, self.next_scores[slots], self.stones + 1, threads, path, slots)
        if self.fourteen is not None:
            self._verify_fourteen(self.fourteen, sample, rng, threads)

    def _verify_fourteen(
        self, fourteen: Book14, sample: int, rng: np.random.Generator, threads: Any
    ) -> None:
        """Re-solves ``sample`` positions of the 14-ply book: a held child of each of as many
        13-ply positions drawn at random (the book keeps no keys to draw from)."""
        assert self.next_scores is not None  # a 14-ply book is read through the 13-ply one
        held = np.flatnonzero(self.next_scores != NOT_HELD)
        boards, scores, slots = [], [], []
        for slot in rng.choice(held, size=min(sample, len(held)), replace=False).tolist():
            first, mask = deep_stones(int(self.codes[slot // 7]))
            parent = DEEP_SHAPE.play((first, mask, self.stones), slot % 7)
            for col in rng.permutation(DEEP_SHAPE.moves(parent)).tolist():
                child = DEEP_SHAPE.play(parent, col)
                score = self.get(child)
                if score is not None:
                    boards.append(_rows(codes_of(DEEP_SHAPE, child)))
                    scores.append(score)
                    key = DEEP_SHAPE.book_key(child) - DEEP_SHAPE.bottom
                    slots.append(perfect_hash.slot(fourteen.hash, key))
                    break
        self._re_solve(
            boards,
            np.array(scores, dtype=np.int8),
            self.stones + 2,
            threads,
            fourteen.path,
            np.array(slots, dtype=np.intp),
        )

    @staticmethod
    def _re_solve(
        boards: list[list[list[int]]],
        scores: npt.NDArray[np.int8],
        stones: int,
        threads: Any,
        path: str,
        where: npt.NDArray[np.intp],
    ) -> None:
        """A ``ValueError`` naming the first board whose score by the search alone is not the
        book's (``where`` its index in the book)."""
        solved = implementation("connect4").batch_solve(
            np.array(boards, dtype=np.uint8).reshape(-1, DEEP_SHAPE.height, DEEP_SHAPE.width),
            book=None,
            threads=threads,
        )
        for at, board, expected, value, plies in zip(
            where.tolist(), boards, scores.tolist(), solved.value, solved.plies, strict=True
        ):
            found = _pons(int(value), int(plies), stones, DEEP_SHAPE.width * DEEP_SHAPE.height)
            if found != expected:
                rows = "/".join("".join(".xo"[c] for c in row) for row in board)
                what = {DEEP_STONES: "entry", DEEP_STONES + 1: "13-ply slot"}.get(
                    stones, "14-ply slot"
                )
                raise ValueError(
                    f"{path}: {what} {at:,} ({rows}) scores {found}, the book says {expected}"
                )


def deep_code(position: Position, mirrored: bool = False) -> int:
    """The 12-ply book's key of a 7x6 position (its mirror image's with ``mirrored``)."""
    current, mask, moves = position
    first = current if moves % 2 == 0 else current ^ mask
    code = 0
    for index in range(7):
        col = 6 - index if mirrored else index
        stones, firsts = (mask >> (7 * col)) & 0x3F, (first >> (7 * col)) & 0x3F
        row = 0
        while stones >> row & 1:
            code = code << 2 | (0b10 if firsts >> row & 1 else 0b11)
            row += 1
        code <<= 1
    code <<= 1
    return code - (1 << 32) if code >= 1 << 31 else code


def deep_stones(code: int) -> tuple[int, int]:
    """The first player's stones and the occupied cells (``Shape`` bitboards) of a 12-ply
    key."""
    bits, at, first, mask = code & 0xFFFFFFFF, 31, 0, 0
    for col in range(DEEP_SHAPE.width):
        row = 0
        while bits >> at & 1:
            cell = DEEP_SHAPE.cell(col, row)
            mask |= cell
            if not bits >> (at - 1) & 1:
                first |= cell
            at, row = at - 2, row + 1
        at -= 1
    return first, mask


def _deep_board(code: int) -> list[list[int]]:
    """The 6x7 cell codes (top row first) of a 12-ply key."""
    return _rows(codes_of(DEEP_SHAPE, (*deep_stones(code), DEEP_STONES)))


def _rows(codes: list[int]) -> list[list[int]]:
    """7x6 cell codes (top row first) as rows."""
    width = DEEP_SHAPE.width
    return [codes[row * width : (row + 1) * width] for row in range(DEEP_SHAPE.height)]


def deep_path() -> str | None:
    """Where the installed ``bitbully-databases`` keeps the 12-ply book, or None when it is not
    installed (found without importing it)."""
    try:
        spec = util.find_spec("bitbully_databases")
    except (ImportError, ValueError):  # a broken installation: as good as none
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(next(iter(spec.submodule_search_locations)), *DEEP_FILE.split("/"))


def _read_whole(
    path: str, where: str, size: int, why: str, fix: str, *, sha256: str | None = None
) -> bytes:
    """A book file's bytes, the one way every file perfectplay ships is read: a
    ``FileNotFoundError`` or ``ValueError`` naming ``where`` and the fix when it is missing,
    not a regular file (a FIFO, a device, a directory), not ``size`` bytes (``why``) or, given
    ``sha256``, not the file of that SHA-256. No more than ``size + 1`` bytes are read."""
    try:
        file = open_regular(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{where} is missing: {fix}") from None
    except ValueError as error:  # a FIFO, a device, a directory
        raise ValueError(f"{where}: {str(error).removeprefix(f'{path}: ')}: {fix}") from None
    with file:
        data: bytes = file.read(size + 1)
    if len(data) != size:
        raise ValueError(
            f"{where} is {len(data):,} bytes{' or more' if len(data) > size else ''}, not "
            f"{size:,}{why}: {fix}"
        )
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{where} is not the one this perfectplay shipped: {fix}")
    return data


def load_deep(path: str | os.PathLike[str]) -> DeepBook:
    """The 12-ply book in ``path``, checked (see the module): a ``ValueError`` naming the file
    and the fix when it is not the one this perfectplay was made for."""
    path = os.fspath(path)
    where = f"the 12-ply opening book {path}"
    data = _read_whole(path, where, DEEP_BYTES, "", _REINSTALL)
    if hashlib.sha256(data).hexdigest() != DEEP_SHA256:
        raise ValueError(f"{where} is not {DEEP_DISTRIBUTION} {DEEP_VERSION}'s: {_REINSTALL}")
    entries = np.frombuffer(data, dtype=_DEEP_ENTRY)
    codes = entries["code"].astype(np.int32)
    values = entries["value"].astype(np.int32)
    if not bool(np.all(codes[1:] > codes[:-1])):
        raise ValueError(f"{where}: the keys are not in increasing order: {_REINSTALL}")
    scores = deep_scores(values)
    bad = np.flatnonzero(scores == _IMPOSSIBLE)
    if len(bad):
        raise ValueError(
            f"{where}: entry {int(bad[0]):,} holds {int(values[bad[0]])}, a distance no game of "
            f"12 stones ends at: {_REINSTALL}"
        )
    return DeepBook(codes, scores.astype(np.int8), path)


#: The 13-ply book (``perfectplay.connect4.book13`` built it), in ``perfectplay-books``.
NEXT_FILE = "connect4-7x6-13ply.scores"
NEXT_SHA256 = "e857e57eac239578cf765d663e0c3eccc37d71a9ebaa413d024610b4025dd012"
NEXT_BYTES = 29_406_293
#: The data-only distribution that holds perfectplay's own books, pinned in pyproject.toml.
BOOKS_DISTRIBUTION = "perfectplay-books"
BOOKS_VERSION = "1.0.0"
_BOOKS_PACKAGE = "perfectplay_books"
_REFETCH = (
    f"reinstall {BOOKS_DISTRIBUTION} (pip install --force-reinstall "
    f"{BOOKS_DISTRIBUTION}=={BOOKS_VERSION}), or pass book=None to search without a book"
)
_IMPOSSIBLE = 99  # no Pons score of 7x6
#: A 13-ply book's slot for a child it does not hold (the game over, or a win at once).
NOT_HELD = 127


def deep_scores(values: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """Pons' scores of the 12-ply book's distance bytes (``_IMPOSSIBLE`` for a byte no game
    allows). ``v > 0``: the first player, to move, wins with stone ``12 + 100 - v``; ``v < 0``:
    it loses to stone ``12 + 100 - |v|``; 0 a draw. A win ends on a stone of the winner's
    parity (the first player's are odd), after the 13th (the side to move cannot win at once)
    and by the 42nd."""
    end = DEEP_STONES + 100 - np.abs(values)
    first_wins = (values > 0) & (end % 2 == 1) & (end >= 15) & (end <= 41)
    second_wins = (values < 0) & (end % 2 == 0) & (end >= 14) & (end <= 42)
    pons = np.where(values > 0, 1, -1) * ((44 - end) // 2)
    return np.where(values == 0, 0, np.where(first_wins | second_wins, pons, _IMPOSSIBLE))


def with_next(
    deep: DeepBook, path: str | os.PathLike[str], *, sha256: str | None = None
) -> DeepBook:
    """``deep`` with the 13-ply book in ``path`` attached (``next_scores``): a ``ValueError``
    naming the file when it is not seven scores for each 12-ply entry (or, given ``sha256``,
    not the file of that SHA-256), each one a 13-stone position can have."""
    path = os.fspath(path)
    where = f"the 13-ply opening book {path}"
    fix = _REFETCH if sha256 is not None else "build it again"
    data = _read_whole(
        path, where, 7 * len(deep), " (seven for each 12-ply entry)", fix, sha256=sha256
    )
    # Read in place: the bytes are already immutable, and both backends only read them.
    slots = np.frombuffer(data, dtype=np.int8)
    return DeepBook(deep.codes, deep.scores, deep.path, next_scores=slots, next_path=path)


#: The 14-ply book's file: magic, format version, stones, keys, buckets, overflow pilots and
#: slots, then the pilots (uint8), the overflow list's buckets (uint32) and pilots (uint16) and
#: a score a slot (int8, ``NOT_HELD`` in a slot no key has), all little-endian.
MAGIC_14 = b"PPC4H14\n"
_HEADER_14 = struct.Struct("<8sIIQQQQ")


@dataclass(frozen=True)
class Book14:
    """A 14-ply book: the perfect hash of its positions' keys and a score a slot. Which
    positions it holds is the rules' to say (``next_keys``): a key outside them gets some
    slot's score."""

    hash: perfect_hash.PerfectHash
    scores: npt.NDArray[np.int8]
    keys: int
    path: str

    def score(self, key: int) -> int:
        """The score of the position of ``key`` (one the book holds)."""
        return int(self.scores[perfect_hash.slot(self.hash, key)])


def write_14(
    path: str | os.PathLike[str], keys: npt.NDArray[np.uint64], scores: npt.NDArray[np.int8]
) -> None:
    """Writes the 14-ply book of ``keys`` (distinct) and their ``scores`` to ``path``, whole
    or not at all. The same keys and scores write the same bytes."""
    table, slot_of = perfect_hash.build(keys)
    by_slot = np.full(table.slots, NOT_HELD, dtype=np.int8)
    by_slot[slot_of] = scores
    header = _HEADER_14.pack(
        MAGIC_14,
        1,
        DEEP_STONES + 2,
        len(keys),
        len(table.pilots),
        len(table.overflow_buckets),
        table.slots,
    )
    parts = (
        table.pilots,
        table.overflow_buckets.astype("<u4"),
        table.overflow_pilots.astype("<u2"),
        by_slot,
    )
    write_whole(path, lambda file: file.write(header + b"".join(p.tobytes() for p in parts)))


def read_14(path: str | os.PathLike[str], *, sha256: str | None = None) -> Book14:
    """The 14-ply book in ``path``, read in place: a ``FileNotFoundError`` or ``ValueError``
    naming the file and the fix when it is missing or not one (its header, its length, an
    overflow list out of order, or a score no position of 14 stones has; given ``sha256``,
    not the file of that SHA-256)."""
    path = os.fspath(path)
    where = f"the 14-ply opening book {path}"
    fix = _REFETCH if sha256 is not None else "build it again"
    try:
        file = open_regular(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{where} is missing: {fix}") from None
    with file:
        data = file.read(_HEADER_14.size)
        if len(data) < _HEADER_14.size or data[:8] != MAGIC_14:
            raise ValueError(f"{where} is not a 14-ply book (its first bytes): {fix}")
        _, version, stones, keys, buckets, overflow, slots = _HEADER_14.unpack_from(data)
        if (version, stones) != (1, DEEP_STONES + 2) or not (
            0 < keys <= slots < 1 << 32 and 0 < buckets <= keys and overflow <= buckets
        ):
            raise ValueError(f"{where} is of another version or board: {fix}")
        size = _HEADER_14.size + buckets + 6 * overflow + slots
        data += file.read(size + 1 - _HEADER_14.size)  # no more than the header says, and one
    if len(data) != size:
        raise ValueError(f"{where} is {len(data):,} bytes, not {size:,}: {fix}")
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{where} is not the one this perfectplay shipped: {fix}")
    at = _HEADER_14.size
    pilots = np.frombuffer(data, np.uint8, buckets, at)
    overflow_buckets = np.frombuffer(data, "<u4", overflow, at + buckets).astype(np.uint32)
    overflow_pilots = np.frombuffer(data, "<u2", overflow, at + buckets + 4 * overflow)
    scores = np.frombuffer(data, np.int8, slots, at + buckets + 6 * overflow)
    # Both readers take a pilot byte of 255 to the overflow list: the list must hold exactly
    # those buckets, in order.
    if not np.array_equal(np.flatnonzero(pilots == perfect_hash.OVERFLOW), overflow_buckets):
        raise ValueError(f"{where}: its overflow list is out of order or not its pilots': {fix}")
    # Held at 14 stones: the side to move cannot win at once, so -14 to 13.
    bad = np.flatnonzero(((scores < -14) | (scores > 13)) & (scores != NOT_HELD))
    if len(bad):
        raise ValueError(
            f"{where}: slot {int(bad[0]):,} holds {int(scores[bad[0]])}, which "
            f"no position of 14 stones has: {fix}"
        )
    overflow_pilots = overflow_pilots.astype(np.uint16)
    table = perfect_hash.PerfectHash(pilots, overflow_buckets, overflow_pilots, slots)
    for array in (overflow_buckets, overflow_pilots):
        array.flags.writeable = False
    return Book14(table, scores, keys, path)


#: The positions of the 14-ply book: every held child of the 13-ply book's positions.
FOURTEEN_POSITIONS = 21_675_617


def with_fourteen(
    deep: DeepBook, path: str | os.PathLike[str], *, sha256: str | None = None
) -> DeepBook:
    """``deep`` (with its 13-ply book) with the 14-ply book in ``path`` attached
    (``fourteen``): a ``ValueError`` naming the file when it is not a whole 14-ply book (or,
    given ``sha256``, not the file of that SHA-256)."""
    return DeepBook(
        deep.codes,
        deep.scores,
        deep.path,
        next_scores=deep.next_scores,
        next_path=deep.next_path,
        fourteen=read_14(path, sha256=sha256),
    )


#: The 14-ply book (``perfectplay.connect4.book13`` built it), in ``perfectplay-books``.
FOURTEEN_FILE = "connect4-7x6-14ply.book14"
FOURTEEN_SHA256 = "c2e12a32c02e87dea344da584059986b648fc6acf0aac5d1606c164bc7711343"
FOURTEEN_BYTES = 31_315_885


def _data_path(name: str) -> str:
    """Where the installed books package keeps ``name``: a ``FileNotFoundError`` saying how to
    install it when it is not installed (never a silent search of minutes without books)."""
    try:
        books = resources.files(_BOOKS_PACKAGE)
    except ModuleNotFoundError:
        raise FileNotFoundError(
            f"the opening books are missing: {BOOKS_DISTRIBUTION} is not installed; install it "
            f"(pip install {BOOKS_DISTRIBUTION}=={BOOKS_VERSION}; from a clone of perfectplay, "
            "pip install ./books), or pass book=None to search without a book"
        ) from None
    return str(books.joinpath(name))


def next_path() -> str:
    """Where the packaged 13-ply book is."""
    return _data_path(NEXT_FILE)


def fourteen_path() -> str:
    """Where the packaged 14-ply book is."""
    return _data_path(FOURTEEN_FILE)


def _installed_deep_path() -> str:
    path = deep_path()
    if path is None:
        raise FileNotFoundError(
            f"the 12-ply opening book is missing: {DEEP_DISTRIBUTION} is not installed; install "
            f"it (pip install {DEEP_DISTRIBUTION}=={DEEP_VERSION}), or pass book=None to search "
            "without a book"
        )
    return path


@functools.cache
def deep() -> DeepBook:
    """The 12-ply book of the installed ``bitbully-databases`` with the packaged 13-ply and
    14-ply books attached (all loaded and checked once)."""
    path = _installed_deep_path()
    through_13 = with_next(load_deep(path), next_path(), sha256=NEXT_SHA256)
    return with_fourteen(through_13, fourteen_path(), sha256=FOURTEEN_SHA256)


def shallower_than(stones: int) -> Book:
    """The packaged book with only its deep books of fewer than ``stones`` stones (13 or 14)
    attached: what a build of the book of ``stones`` stones searches with, so that it never
    reads the book it builds."""
    if stones not in (13, 14):
        raise ValueError(f"stones must be 13 or 14, got {stones!r}")
    whole, books = packaged(), deep()
    kept = stones == 14
    cut = DeepBook(
        books.codes,
        books.scores,
        books.path,
        next_scores=books.next_scores if kept else None,
        next_path=books.next_path if kept else None,
    )
    return Book(7, 6, whole.depth, whole.keys, whole.scores, path=whole.path, deep=cut)


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


def load(path: str) -> Book:
    """The book in ``path``, checked (see the module)."""
    with open_regular(path) as file:
        data = file.read()
    return _decode(data, str(path))


_BOOK_FORMS = "book must be 'packaged', None or a perfectplay.openings.Book"
_BOOK_FIELDS = ("width", "height", "depth", "keys", "scores", "deep")


def book_for(book: Any, width: int, height: int) -> Book | None:
    """The book a call given ``book=`` reads on a ``width`` x ``height`` board (both backends
    ask here): ``'packaged'`` (the packaged 7x6 book and the 12-ply book, on 7x6; nothing on
    other sizes), None, or a book of the board's size."""
    if book is None:
        return None
    if isinstance(book, str):
        if book != PACKAGED_NAME:
            raise ValueError(f"{_BOOK_FORMS}, not {book!r}")
        return packaged() if (width, height) == PACKAGED_SIZE else None
    if not all(hasattr(book, field) for field in _BOOK_FIELDS):
        raise TypeError(f"{_BOOK_FORMS}, not {type(book).__name__}")
    if not isinstance(book, Book):
        _check_arrays(book)
    if (book.width, book.height) != (width, height):
        raise ValueError(f"the book is for {book.width}x{book.height} boards, not {width}x{height}")
    return book  # type: ignore[no-any-return]


def _refuse_change(book: Book | DeepBook, name: str, fields: tuple[str, ...]) -> None:
    """An ``AttributeError`` for a change to a field a book was made with: the compiled core
    reads the arrays in place, by dtype, and the twin would read any, so a changed book could
    be answered by one backend and refused by the other."""
    if name in fields and name in vars(book):
        kind = type(book).__name__
        raise AttributeError(f"a {kind}'s {name} cannot be changed: make a new {kind}")


def _check_arrays(book: Any) -> None:
    """A book-like object's arrays are read as a ``Book`` makes them (the compiled core reads
    them in place): a ``TypeError`` naming the first that is not."""
    _check_array("the book's keys", book.keys, np.uint64)
    _check_array("the book's scores", book.scores, np.int8)
    if book.deep is not None:
        _check_array("the book's deep.codes", book.deep.codes, np.int32)
        _check_array("the book's deep.scores", book.deep.scores, np.int8)
        next_scores = getattr(book.deep, "next_scores", None)
        if next_scores is not None:
            _check_array("the book's deep.next_scores", next_scores, np.int8)
            if len(next_scores) != 7 * len(book.deep.codes):
                raise ValueError(
                    "the 13-ply book's scores are not 7 for each entry of the 12-ply book"
                )


def _check_array(what: str, array: Any, dtype: type[np.generic]) -> None:
    """A ``TypeError`` unless ``array`` is a contiguous 1-D numpy array of ``dtype``."""
    if not (
        isinstance(array, np.ndarray)
        and array.dtype == dtype
        and array.ndim == 1
        and array.flags.c_contiguous
    ):
        shown = getattr(array, "dtype", type(array).__name__)
        raise TypeError(
            f"{what} must be a contiguous 1-D {np.dtype(dtype).name} array, not {shown}"
        )


@functools.cache
def packaged() -> Book:
    """The 7x6 book that ships with perfectplay, the 12-ply book attached (``deep``): what a
    7x6 answer reads by default (both loaded and checked once)."""
    return load_packaged(packaged_path(), deep())


def shipped_files() -> dict[str, dict[str, Any]]:
    """Where each book a default 7x6 call reads is and what it must be, for the compiled core,
    which reads and checks them itself (``rust/games/connect4/shipped.rs``): its path, size,
    SHA-256, and the words of the errors that name it, as this module's readers word them."""
    deep_file = _installed_deep_path()
    files = {
        "deep": (deep_file, DEEP_BYTES, DEEP_SHA256, "the 12-ply opening book", "", _REINSTALL),
        "next": (
            next_path(),
            NEXT_BYTES,
            NEXT_SHA256,
            "the 13-ply opening book",
            " (seven for each 12-ply entry)",
            _REFETCH,
        ),
        "fourteen": (
            fourteen_path(),
            FOURTEEN_BYTES,
            FOURTEEN_SHA256,
            "the 14-ply opening book",
            "",
            _REFETCH,
        ),
        "opening": (
            packaged_path(),
            PACKAGED_BYTES,
            PACKAGED_SHA256,
            "the opening book",
            "",
            _REFETCH,
        ),
    }
    shipped = {}
    for role, (path, size, sha256, kind, size_means, fix) in files.items():
        named = f"{kind} {path}"
        not_ours = (
            f"{named} is not {DEEP_DISTRIBUTION} {DEEP_VERSION}'s: {fix}"
            if role == "deep"
            else f"{named} is not the one this perfectplay shipped: {fix}"
        )
        shipped[role] = {
            "path": os.fspath(path),
            "bytes": size,
            "sha256": sha256,
            "named": named,
            "size_means": size_means,
            "fix": fix,
            "not_ours": not_ours,
        }
    return shipped


def packaged_path() -> str:
    """Where the packaged 7x6 book is."""
    return _data_path(PACKAGED)


def load_packaged(path: str | os.PathLike[str], deep: DeepBook | None = None) -> Book:
    """The packaged 7x6 book in ``path``, checked as every file perfectplay ships is (a
    regular file, its size and SHA-256) and then as every book is (see the module): a
    ``FileNotFoundError`` or ``ValueError`` naming the file and the fix when it is not the one
    this perfectplay shipped."""
    path = os.fspath(path)
    where = f"the opening book {path}"
    data = _read_whole(path, where, PACKAGED_BYTES, "", _REFETCH, sha256=PACKAGED_SHA256)
    return _decode(data, path, deep, shipped=True)


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
    if not 0 <= depth < shape.cells:
        raise ValueError(f"depth must be from 0 to {shape.cells - 1}, got {depth}")
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
