"""The 14-ply book read by both backends: a short build (the grandchildren of the first 12-ply
entries) answers its positions alike, at once, as the search does, and every column of an
analysis of their parents; positions the rules leave out are searched; a part of the book, a
14-ply book without the 13-ply one, or a file that is not the shipped one is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import connect4
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.errors import SearchLimitExceeded
from perfectplay.connect4 import book13, deep_book, openings
from perfectplay.connect4.rules import _top, codes_of, from_codes

RUST = implementation("connect4", "rust")
PYTHON = implementation("connect4", "python")
ENTRIES = 3


@pytest.fixture(scope="module")
def short_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    folder = tmp_path_factory.mktemp("book14")
    book13.build(
        folder / "short.book14", checkpoint=folder / "checkpoint", plies=14, entries=ENTRIES
    )
    children = book13.children_keys(openings.deep().codes[:ENTRIES])
    return folder / "short.book14", np.unique(children[children != 0])


def short_deep(path: Path, monkeypatch: pytest.MonkeyPatch) -> openings.DeepBook:
    """The 12-ply book with the 13-ply book cut to the first entries' children and the short
    14-ply book attached: a whole small world, where the rules and the 13-ply book tell the
    short book's positions exactly. Only a whole 14-ply book is taken, so the count it is
    checked against is the short build's here."""
    monkeypatch.setattr(deep_book, "FOURTEEN_POSITIONS", openings.read_14(path).keys)
    deep = openings.deep()
    assert deep.next_scores is not None
    cut = deep.next_scores.copy()
    cut[7 * ENTRIES :] = openings.NOT_HELD
    fourteen = openings.read_14(path)
    return openings.DeepBook(deep.codes, deep.scores, deep.path, cut, "cut", fourteen)


def attached(path: Path, monkeypatch: pytest.MonkeyPatch) -> openings.Book:
    """The packaged book with ``short_deep`` attached."""
    packaged = openings.packaged()
    deep = short_deep(path, monkeypatch)
    return openings.Book(7, 6, packaged.depth, packaged.keys, packaged.scores, deep=deep)


@pytest.mark.both_backends
@pytest.mark.compiled  # the expected scores are the core's search
def test_its_positions_and_their_parents_columns_are_answered_at_once_as_searched(
    short_book: tuple[Path, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, parents = short_book
    book = attached(path, monkeypatch)
    positions = book13.next_keys(parents)
    for key in positions.tolist()[::3]:
        board = book13.board_of(key, 14)
        expected = RUST.score(board, book=None, threads=1)
        RUST.clear_tables()
        assert RUST.score(board, book=book, node_limit=1) == expected
        assert PYTHON.score(board, book=book, node_limit=1) == expected
    for key in parents.tolist():
        board = book13.board_of(key)
        expected = RUST.analyze(board, book=None, threads=1)
        RUST.clear_tables()
        assert RUST.analyze(board, book=book, node_limit=1) == expected
        assert PYTHON.analyze(board, book=book, node_limit=1) == expected


@pytest.mark.both_backends
@pytest.mark.compiled
def test_positions_the_rules_leave_out_are_searched(
    short_book: tuple[Path, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Children of 13-ply positions (of any entry) whose side to move can win at once, and
    positions none of whose parents the 13-ply book holds: the book does not hold them, and
    must not answer them from some slot. (A 13-ply position's side to move cannot win at
    once, so none of its children is won.)"""
    path, _ = short_book
    book = attached(path, monkeypatch)
    shape, deep = openings.DEEP_SHAPE, openings.deep()
    codes = deep.codes
    sample = np.random.default_rng(7).choice(len(codes), 60, replace=False)
    children = book13.children_keys(codes[sample])
    left_out = []
    for key in np.unique(children[children != 0]).tolist():
        board = book13.board_of(key)
        parent = from_codes(shape, board.ravel().tolist())
        for col in shape.moves(parent):
            child = shape.play(parent, col)
            assert not shape.is_won(child)
            if shape.wins_now(child):
                left_out.append(np.array(codes_of(shape, child), dtype=np.uint8).reshape(6, 7))
    assert len(left_out) > 20
    # Random games of 14 stones whose every parent could have won at once (the 13-ply book
    # holds none of them): in no book, though their own side to move cannot win at once.
    missed = []
    for board in connect4.random_positions(600, seed=3, plies=(14, 14)):
        child = from_codes(shape, board.ravel().tolist())
        second = child[0] ^ child[1]
        tops = [_top(shape, child[1], col) for col in range(shape.width)]
        parents = [(second ^ top, child[1] ^ top, 13) for top in tops if top & second]
        if not shape.wins_now(child) and all(deep.get(parent) is None for parent in parents):
            missed.append(board)
    assert len(missed) > 5
    for board in left_out:
        expected = RUST.score(board, book=None, threads=1)
        assert RUST.score(board, book=book) == expected
        assert PYTHON.score(board, book=book) == expected
    for board in missed:  # searched, not read: with one node, as without the book
        for backend in (RUST, PYTHON):
            assert one_node(backend, board, book) == one_node(backend, board, None)
        expected = RUST.score(board, book=None, threads=1)
        assert RUST.score(board, book=book, threads=1) == expected


def one_node(backend: Any, board: np.ndarray, book: openings.Book | None) -> int | str:
    """The score a backend finds in one node from cleared tables, or that it could not."""
    RUST.clear_tables()
    try:
        return int(backend.score(board, book=book, node_limit=1, threads=1))
    except SearchLimitExceeded:
        return "over the node limit"


@pytest.mark.compiled  # verify re-solves 14-stone positions by the search alone
def test_verify_re_solves_its_positions_and_names_a_flipped_score(
    short_book: tuple[Path, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = short_book
    deep = short_deep(path, monkeypatch)
    deep.verify(30, seed=1)
    assert deep.fourteen is not None
    scores = deep.fourteen.scores.copy()
    held = np.flatnonzero(scores != openings.NOT_HELD)
    scores[held] = np.where(scores[held] > 0, -scores[held], 1 - scores[held])  # every one
    flipped = openings.Book14(deep.fourteen.hash, scores, deep.fourteen.keys, "flipped")
    altered = openings.DeepBook(
        deep.codes, deep.scores, deep.path, deep.next_scores, "cut", flipped
    )
    with pytest.raises(ValueError, match=r"^flipped: 14-ply slot [\d,]+ \(.{47}\) scores "):
        altered.verify(30, seed=1)


@pytest.mark.compiled  # the short book is built by the core's search
def test_a_part_of_the_book_without_the_13_ply_book_or_not_the_shipped_file_is_refused(
    short_book: tuple[Path, np.ndarray],
) -> None:
    path, _ = short_book
    deep = openings.deep()
    count = openings.read_14(path).keys
    with pytest.raises(
        ValueError, match=f"holds {count:,} positions, not 21,675,617: only the whole book"
    ):
        openings.with_fourteen(deep, path)
    with pytest.raises(ValueError, match="is not the one this perfectplay shipped"):
        openings.with_fourteen(deep, path, sha256="0" * 64)
    alone = openings.DeepBook(deep.codes, deep.scores, deep.path)
    with pytest.raises(ValueError, match="read through the 13-ply book: attach both"):
        openings.DeepBook(alone.codes, alone.scores, alone.path, fourteen=openings.read_14(path))
