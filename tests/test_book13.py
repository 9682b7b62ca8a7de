"""The 13-ply book's builder: a short build (the children of the first 12-ply entries) read
alike by both backends and equal to the search, a build stopped part way going on from its
checkpoint to the same book, and a checkpoint of another build, a damaged chunk or a book file
of the wrong size refused. The children found on whole arrays equal the rules' one by one, and
a short 14-ply build equals the search."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from perfectplay._kernel.backend import implementation
from perfectplay.connect4 import book13, fourteen_file, openings
from perfectplay.connect4.rules import from_codes
from tests_support import perfectplay_command

RUST = implementation("connect4", "rust")
PYTHON = implementation("connect4", "python")
ENTRIES = 40


def with_book(deep: openings.DeepBook) -> openings.Book:
    packaged = openings.packaged()
    return openings.Book(7, 6, packaged.depth, packaged.keys, packaged.scores, deep=deep)


@pytest.fixture(scope="module")
def short_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    folder = tmp_path_factory.mktemp("book13")
    count = book13.build(
        folder / "short.book", checkpoint=folder / "checkpoint", threads=2, entries=ENTRIES
    )
    assert not (folder / "checkpoint").exists()  # removed once the book is written
    return folder / "short.book", count


@pytest.mark.both_backends
@pytest.mark.compiled  # a build solves hundreds of 13-stone positions: the core's work
def test_a_short_build_is_read_alike_and_equals_the_search(
    short_build: tuple[Path, int],
) -> None:
    path, count = short_build
    deep = book13.load(path)
    assert deep.next_scores is not None
    held = np.flatnonzero(deep.next_scores != openings.NOT_HELD)
    # The first entries' columns only, and every child of theirs a book holds.
    assert held.max() < 7 * ENTRIES
    keys = book13.children_keys(openings.deep().codes[:ENTRIES]).reshape(-1)
    assert np.array_equal(held, np.flatnonzero(keys))
    assert count == len(np.unique(keys[keys != 0]))
    book = with_book(deep)
    for key in np.unique(keys[keys != 0]).tolist()[::5]:
        board = book13.board_of(key)
        expected = RUST.score(board, book=None, threads=1)
        RUST.clear_tables()
        assert RUST.score(board, book=book, node_limit=1) == expected
        assert PYTHON.score(board, book=book, node_limit=1) == expected


def rules_children(position: tuple[int, int, int]) -> list[int]:
    """The held children of a position by ``Shape``'s rules, one at a time: ascending keys
    (``current + mask``, the smaller of a mirror pair's)."""
    shape = openings.DEEP_SHAPE
    children = (shape.play(position, col) for col in shape.moves(position))
    return sorted(
        {
            shape.book_key(child) - shape.bottom
            for child in children
            if not shape.is_won(child) and not shape.wins_now(child)
        }
    )


def test_the_children_on_whole_arrays_are_the_rules_children() -> None:
    codes = openings.deep().codes
    sample = np.random.default_rng(5).choice(len(codes), 400, replace=False)
    found = book13.children_keys(codes[sample])
    keys13 = set()
    for row, code in zip(found, codes[sample].tolist(), strict=True):
        parent = (*openings.deep_stones(code), openings.DEEP_STONES)
        assert sorted(set(row[row != 0].tolist())) == rules_children(parent)
        # A column holds its own child (the one its play makes), or nothing.
        for col in openings.DEEP_SHAPE.moves(parent):
            child = openings.DEEP_SHAPE.play(parent, col)
            expected = openings.DEEP_SHAPE.book_key(child) - openings.DEEP_SHAPE.bottom
            assert row[col] in (0, expected)
        keys13.update(row[row != 0].tolist())
    grandchildren: set[int] = set()
    for key in sorted(keys13)[::9]:
        board = book13.board_of(key)
        grandchildren.update(
            rules_children(from_codes(openings.DEEP_SHAPE, board.ravel().tolist()))
        )
    assert book13.next_keys(np.array(sorted(keys13)[::9], dtype=np.uint64)).tolist() == sorted(
        grandchildren
    )


@pytest.mark.compiled  # a 14-ply build solves 14-stone positions: the core's work
def test_a_short_14_ply_build_equals_the_search(tmp_path: Path) -> None:
    path = tmp_path / "b.book14"
    count = book13.build(path, checkpoint=tmp_path / "checkpoint", plies=14, entries=3)
    assert not (tmp_path / "checkpoint").exists()
    book = openings.read_14(path)
    children = book13.children_keys(openings.deep().codes[:3])
    keys = book13.next_keys(np.unique(children[children != 0]))
    assert count == book.keys == len(keys) > 50
    assert np.count_nonzero(book.scores != openings.NOT_HELD) == count
    for key in keys.tolist():
        board = book13.board_of(key, 14)
        assert np.count_nonzero(board) == 14
        assert RUST.score(board, book=None, threads=1) == book.score(key)
    # The same positions and scores write the same bytes.
    openings.write_14(
        tmp_path / "again",
        keys[::-1].copy(),
        np.array([book.score(key) for key in keys[::-1].tolist()], dtype=np.int8),
    )
    assert (tmp_path / "again").read_bytes() == path.read_bytes()


def test_a_14_ply_file_that_is_not_one_is_refused(tmp_path: Path) -> None:
    keys = np.arange(1, 90_000, 3, dtype=np.uint64)  # enough for an overflow list
    scores = (np.arange(len(keys)) % 28 - 14).astype(np.int8)
    path = tmp_path / "b.book14"
    openings.write_14(path, keys, scores)
    assert [openings.read_14(path).score(key) for key in keys.tolist()] == scores.tolist()
    good = path.read_bytes()
    header = fourteen_file._HEADER_14.size
    _, _, _, _, buckets, overflow, slots = fourteen_file._HEADER_14.unpack_from(good)
    damaged = {
        "foreign": (b"PK\x03\x04" + good[4:], "is not a 14-ply book"),
        "short": (good[:-1], f"is {len(good) - 1:,} bytes, not {len(good):,}"),
        "version": (good[:8] + b"\x02" + good[9:], "of another version or board"),
        "score": (good[:-1] + bytes([100]), "holds 100, which no position of 14 stones has"),
    }
    assert overflow >= 2
    at = header + buckets
    swapped = good[at + 4 : at + 8] + good[at : at + 4] + good[at + 8 :]
    damaged["order"] = (good[:at] + swapped, "overflow list is out of order")
    stray = int(np.flatnonzero(np.frombuffer(good, np.uint8, buckets, header) != 255)[0])
    damaged["stray"] = (  # a pilot byte sending the readers to a list without its bucket
        good[: header + stray] + b"\xff" + good[header + stray + 1 :],
        "not its pilots'",
    )
    for name, (data, message) in damaged.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ValueError, match=message):
            openings.read_14(tmp_path / name)
    assert slots == len(good) - header - buckets - 6 * overflow


class StopsAfter:
    """A backend whose ``score`` is Ctrl-C after ``calls`` answers."""

    def __init__(self, calls: int) -> None:
        self.calls = calls

    def score(self, *args: Any, **kwargs: Any) -> int:
        self.calls -= 1
        if self.calls < 0:
            raise KeyboardInterrupt
        return int(RUST.score(*args, **kwargs))


@pytest.mark.compiled
def test_a_stopped_build_goes_on_from_its_checkpoint_to_the_same_book(
    short_build: tuple[Path, int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(book13, "CHUNK", 30)
    stopping = StopsAfter(70)
    monkeypatch.setattr(book13, "implementation", lambda game: stopping)
    checkpoint = tmp_path / "checkpoint"
    with pytest.raises(KeyboardInterrupt):
        book13.build(tmp_path / "b.book", checkpoint=checkpoint, threads=1, entries=ENTRIES)
    assert not (tmp_path / "b.book").exists()
    kept = sorted(path.name for path in checkpoint.iterdir())
    assert kept == ["chunk_00000.npy", "chunk_00001.npy", "keys.sha256"]
    monkeypatch.setattr(book13, "implementation", lambda game: SimpleNamespace(score=RUST.score))
    count = book13.build(
        tmp_path / "b.book", checkpoint=checkpoint, threads=2, entries=ENTRIES, progress=True
    )
    assert (tmp_path / "b.book").read_bytes() == short_build[0].read_bytes()
    # The bar starts from the two chunks kept, and leaves them out of its rate.
    assert f" 60/{count} [00:00<?, ? positions/s]" in capfd.readouterr().err


@pytest.mark.compiled
def test_another_builds_checkpoint_a_damaged_chunk_or_a_wrong_size_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(book13, "CHUNK", 30)
    monkeypatch.setattr(book13, "implementation", lambda game: StopsAfter(40))
    checkpoint = tmp_path / "checkpoint"
    with pytest.raises(KeyboardInterrupt):
        book13.build(tmp_path / "b.book", checkpoint=checkpoint, threads=1, entries=ENTRIES)
    with pytest.raises(ValueError, match="checkpoint holds another build's checkpoint"):
        book13.build(tmp_path / "b.book", checkpoint=checkpoint, threads=1, entries=ENTRIES + 1)
    (checkpoint / "chunk_00000.npy").write_bytes(b"\x93NUMPY damaged")
    with pytest.raises(ValueError, match=r"chunk_00000\.npy is not a chunk of this build"):
        book13.build(tmp_path / "b.book", checkpoint=checkpoint, threads=1, entries=ENTRIES)
    short = tmp_path / "short.book"
    short.write_bytes(bytes(100))
    with pytest.raises(ValueError, match=r"short\.book is 100 bytes, not 29,406,293"):
        book13.load(short)


def test_the_command_says_why_a_build_cannot_start(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("not a folder")
    run = perfectplay_command(
        "openings",
        "build-13ply",
        "-o",
        str(tmp_path / "b.book"),
        "--checkpoint",
        str(tmp_path / "taken"),
    )
    assert run.returncode == 1
    assert run.stderr.startswith("perfectplay openings build-13ply: ")
    assert "taken" in run.stderr


def test_a_build_of_another_ply_is_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="plies must be 13 or 14, got 15"):
        book13.build(tmp_path / "b.book", checkpoint=tmp_path / "checkpoint", plies=15)
    assert not (tmp_path / "checkpoint").exists()


def test_a_build_searches_with_the_shallower_books_only() -> None:
    """A build of 13 (14) plies searches with the packaged books of fewer stones, never with
    the one it builds (it would copy it, not solve it)."""
    for stones in (13, 14):
        deep = openings.shallower_than(stones).deep
        assert deep is not None and deep.fourteen is None
        assert (deep.next_scores is not None) == (stones == 14)
    with pytest.raises(ValueError, match="stones must be 13 or 14, got 12"):
        openings.shallower_than(12)
