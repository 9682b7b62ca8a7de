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

Each file format has its module: ``book_file`` (``.book``, ``Book``, ``load``), ``deep_book``
(the 12-ply file, ``DeepBook``, the 13-ply book attached), ``fourteen_file`` (``.book14``),
``book_build`` (``build``), and ``book_io`` (what they share). This module says which books a
call reads (``book_for``, ``packaged``, ``deep``, ``shipped_files``) and names the others'
public parts, so ``perfectplay.openings`` stays the one place to find them.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from perfectplay._kernel.options import PACKAGED as PACKAGED_NAME
from perfectplay.connect4 import shipped
from perfectplay.connect4.book_build import build as build
from perfectplay.connect4.book_build import solve_texts as solve_texts
from perfectplay.connect4.book_file import (
    _BOOK_FIELDS,
    _decode,
)
from perfectplay.connect4.book_file import FORMAT_VERSION as FORMAT_VERSION
from perfectplay.connect4.book_file import MAGIC as MAGIC
from perfectplay.connect4.book_file import Book as Book
from perfectplay.connect4.book_file import load as load
from perfectplay.connect4.book_file import score_range as score_range
from perfectplay.connect4.book_io import DEEP_STONES as DEEP_STONES
from perfectplay.connect4.book_io import NOT_HELD as NOT_HELD
from perfectplay.connect4.book_io import _check_array, _read_whole
from perfectplay.connect4.deep_book import DEEP_SHAPE as DEEP_SHAPE
from perfectplay.connect4.deep_book import DEEP_SIZE as DEEP_SIZE
from perfectplay.connect4.deep_book import DeepBook as DeepBook
from perfectplay.connect4.deep_book import deep_code as deep_code
from perfectplay.connect4.deep_book import deep_scores as deep_scores
from perfectplay.connect4.deep_book import deep_stones as deep_stones
from perfectplay.connect4.deep_book import load_deep as load_deep
from perfectplay.connect4.deep_book import with_fourteen as with_fourteen
from perfectplay.connect4.deep_book import with_next as with_next
from perfectplay.connect4.fourteen_file import FOURTEEN_POSITIONS as FOURTEEN_POSITIONS
from perfectplay.connect4.fourteen_file import MAGIC_14 as MAGIC_14
from perfectplay.connect4.fourteen_file import Book14 as Book14
from perfectplay.connect4.fourteen_file import read_14 as read_14
from perfectplay.connect4.fourteen_file import write_14 as write_14
from perfectplay.connect4.shipped import _REFETCH
from perfectplay.connect4.shipped import BOOKS_DISTRIBUTION as BOOKS_DISTRIBUTION
from perfectplay.connect4.shipped import BOOKS_VERSION as BOOKS_VERSION
from perfectplay.connect4.shipped import DEEP_BYTES as DEEP_BYTES
from perfectplay.connect4.shipped import DEEP_DISTRIBUTION as DEEP_DISTRIBUTION
from perfectplay.connect4.shipped import DEEP_FILE as DEEP_FILE
from perfectplay.connect4.shipped import DEEP_SHA256 as DEEP_SHA256
from perfectplay.connect4.shipped import DEEP_VERSION as DEEP_VERSION
from perfectplay.connect4.shipped import FOURTEEN_BYTES as FOURTEEN_BYTES
from perfectplay.connect4.shipped import FOURTEEN_FILE as FOURTEEN_FILE
from perfectplay.connect4.shipped import FOURTEEN_SHA256 as FOURTEEN_SHA256
from perfectplay.connect4.shipped import NEXT_BYTES as NEXT_BYTES
from perfectplay.connect4.shipped import NEXT_FILE as NEXT_FILE
from perfectplay.connect4.shipped import NEXT_SHA256 as NEXT_SHA256
from perfectplay.connect4.shipped import PACKAGED as PACKAGED
from perfectplay.connect4.shipped import PACKAGED_BYTES as PACKAGED_BYTES
from perfectplay.connect4.shipped import PACKAGED_SHA256 as PACKAGED_SHA256
from perfectplay.connect4.shipped import PACKAGED_SIZE as PACKAGED_SIZE
from perfectplay.connect4.shipped import deep_path as deep_path
from perfectplay.connect4.shipped import fourteen_path as fourteen_path
from perfectplay.connect4.shipped import next_path as next_path
from perfectplay.connect4.shipped import packaged_path as packaged_path
from perfectplay.connect4.shipped import shipped_files as shipped_files

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


@functools.cache
def deep() -> DeepBook:
    """The 12-ply book of the installed ``bitbully-databases`` with the packaged 13-ply and
    14-ply books attached (all loaded and checked once)."""
    # Through the module, so that a path changed there is changed for both backends.
    path = shipped._installed_deep_path()
    through_13 = with_next(load_deep(path), shipped.next_path(), sha256=NEXT_SHA256)
    return with_fourteen(through_13, shipped.fourteen_path(), sha256=FOURTEEN_SHA256)


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


_BOOK_FORMS = "book must be 'packaged', None or a perfectplay.openings.Book"


def book_for(book: Any, width: int, height: int, reach: int | None = None) -> Book | None:
    """The book a call given ``book=`` reads on a ``width`` x ``height`` board (both backends
    ask here): ``'packaged'`` (the packaged 7x6 book and the 12-ply book, on 7x6; nothing on
    other sizes), None, or a book of the board's size. ``reach``: the stones of a position
    whose answer reads the books at most one stone further (None: the call may read any); the
    deep books are read only when the depth-6 book does not answer all of it."""
    if book is None:
        return None
    if isinstance(book, str):
        if book != PACKAGED_NAME:
            raise ValueError(f"{_BOOK_FORMS}, not {book!r}")
        if (width, height) != PACKAGED_SIZE:
            return None
        opening = packaged_opening()
        return opening if reach is not None and reach < opening.depth else packaged()
    if not all(hasattr(book, field) for field in _BOOK_FIELDS):
        raise TypeError(f"{_BOOK_FORMS}, not {type(book).__name__}")
    if not isinstance(book, Book):
        _check_arrays(book)
    if (book.width, book.height) != (width, height):
        raise ValueError(f"the book is for {book.width}x{book.height} boards, not {width}x{height}")
    return book  # type: ignore[no-any-return]


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


@functools.cache
def packaged_opening() -> Book:
    """The 7x6 book that ships with perfectplay, alone (loaded and checked once): what a 7x6
    answer near the start reads."""
    return load_packaged(shipped.packaged_path())


@functools.cache
def packaged() -> Book:
    """The 7x6 book that ships with perfectplay, the 12-ply book attached (``deep``): what a
    7x6 answer reads by default (both loaded and checked once, the depth-6 book first)."""
    opening = packaged_opening()
    return Book._as_shipped(7, 6, opening.depth, opening.keys, opening.scores, opening.path, deep())


def load_packaged(path: str | os.PathLike[str], deep: DeepBook | None = None) -> Book:
    """The packaged 7x6 book in ``path``, checked as every file perfectplay ships is (a
    regular file, its size and SHA-256) and then as every book is (see the module): a
    ``FileNotFoundError`` or ``ValueError`` naming the file and the fix when it is not the one
    this perfectplay shipped."""
    path = os.fspath(path)
    where = f"the opening book {path}"
    data = _read_whole(path, where, PACKAGED_BYTES, "", _REFETCH, sha256=PACKAGED_SHA256)
    return _decode(data, path, deep, shipped=True)
