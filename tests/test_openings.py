"""Connect Four opening books: built by the rules and the search, answers unchanged by a book on
both backends, the packaged 7x6 book against the known values of the empty board's columns,
hostile and damaged files refused, the command line."""

from __future__ import annotations

import contextlib
import os
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay._kernel.backend import implementation
from perfectplay.connect4 import book_build, book_file, openings
from perfectplay.connect4.rules import Shape, codes_of
from perfectplay.errors import SearchLimitExceeded
from tests_support import perfectplay_command, quiet_games, wide_positions

RUST = implementation("connect4", "rust")
SMALL = {"width": 4, "height": 4}


@pytest.fixture(scope="module")
def book() -> openings.Book:
    return openings.build(6, width=4, height=4, threads=2)


def random_games(rng: random.Random, count: int, least: int, most: int) -> list[str]:
    """Move strings of random play (stopping before a move that ends the game)."""
    games = []
    for _ in range(count):
        text = ""
        for _ in range(rng.randint(least, most)):
            col = rng.randrange(SMALL["width"]) + 1
            try:
                if RUST.solve(text + str(col), **SMALL).plies == 0:
                    break
            except ValueError:
                break
            text += str(col)
        games.append(text)
    return games


def test_answers_do_not_change_with_a_book(c4: Any, book: openings.Book) -> None:
    games = random_games(random.Random(3), 50, 3, 10)
    for text in games:
        plain = (c4.solve(text, **SMALL), c4.analyze(text, **SMALL), c4.score(text, **SMALL))
        booked = (
            c4.solve(text, **SMALL, book=book),
            c4.analyze(text, **SMALL, book=book),
            c4.score(text, **SMALL, book=book),
        )
        assert plain == booked, text
        assert c4.value(text, **SMALL, book=book) == plain[0].value
        assert c4.best_move(text, **SMALL, book=book) == c4.best_move(text, **SMALL)


class _FixedBook:
    """A book look-alike that takes no new attributes (nothing may be kept on it)."""

    __slots__ = ("book", "deep", "depth", "height", "keys", "scores", "width")

    def __init__(self, book: openings.Book) -> None:
        self.book = book
        self.width, self.height, self.depth = book.width, book.height, book.depth
        self.keys, self.scores, self.deep = book.keys, book.scores, book.deep

    def score_of(self, position: Any) -> int | None:
        return self.book.score_of(position)


def test_a_book_look_alike_that_takes_no_attributes_is_read(c4: Any, book: openings.Book) -> None:
    fixed = _FixedBook(book)
    for text in random_games(random.Random(5), 10, 2, 8):
        assert c4.analyze(text, **SMALL, book=fixed) == c4.analyze(text, **SMALL), text


def test_a_batch_reads_the_book_and_its_answers_do_not_change(c4: Any, book: openings.Book) -> None:
    games = random_games(random.Random(4), 60, 0, 8)
    plain = c4.batch_solve(games, **SMALL, moves=True)
    booked = c4.batch_solve(games, **SMALL, moves=True, book=book)
    for name, column in plain.to_dict().items():
        if name != "nodes":
            assert np.array_equal(column, booked.to_dict()[name]), name
    if c4 is RUST:  # the twin's batch counts no nodes
        # A position above the book's depth has its score and its moves' in the book: no search.
        held = [row for row, text in enumerate(games) if len(text) < book.depth]
        assert held and (booked.nodes[held] == 0).all() and (plain.nodes[held] > 0).all()
    with pytest.raises(ValueError, match="the book is for 4x4 boards, not 7x6"):
        c4.batch_solve(["44"], book=book)


def test_a_position_in_the_book_needs_no_search(c4: Any, book: openings.Book) -> None:
    for text in ("", "3", "32", "3241"):
        assert c4.score(text, **SMALL, book=book) == c4.score(text, **SMALL)
    # The mirror image of a held position is held too.
    assert book.get(book.shape.book_key(book.shape.play((0, 0, 0), 0))) is not None


def test_the_book_is_every_position_scored_by_the_rules(book: openings.Book) -> None:
    shape = book.shape
    level: list[tuple[int, int, int]] = [(0, 0, 0)]
    for _ in range(book.depth + 1):
        for position in level:
            held = book.get(shape.book_key(position))
            rows = np.reshape(codes_of(shape, position), (shape.height, shape.width))
            text_score = RUST.score(rows.tolist(), **SMALL)
            assert held == text_score
        level = [
            child
            for position in level
            for col in shape.moves(position)
            if not shape.is_won(child := shape.play(position, col))
        ][:400]


def test_a_book_of_another_size_is_refused(c4: Any, book: openings.Book) -> None:
    with pytest.raises(ValueError, match="the book is for 4x4 boards, not 7x6"):
        c4.solve("44", book=book)


def test_save_and_load(tmp_path: Path, book: openings.Book) -> None:
    path = tmp_path / "small.book"
    book.save(str(path))
    loaded = openings.load(str(path))
    assert (loaded.width, loaded.height, loaded.depth) == (4, 4, 6)
    assert np.array_equal(loaded.keys, book.keys)
    assert np.array_equal(loaded.scores, book.scores)
    assert [p.name for p in tmp_path.iterdir()] == ["small.book"]  # nothing half-written left
    loaded.verify(6)


def _rewrite(path: Path, change: Any) -> None:
    """Applies ``change`` to the body and writes a correct checksum: a hostile file."""
    body = bytearray(path.read_bytes()[:-4])
    change(body)
    path.write_bytes(bytes(body) + struct.pack("<I", zlib.crc32(bytes(body))))


def _score_offset(book: openings.Book, index: int) -> int:
    return 24 + 8 * len(book) + index


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[:10], "too short"),
        (lambda data: b"NOTABOOK" + data[8:], "not a perfectplay opening book"),
        (lambda data: data[:8] + struct.pack("<I", 99) + data[12:], "format version 99"),
        (lambda data: data[:-1], "header promises"),
        (lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:], "checksum does not match"),
    ],
)
def test_damaged_files_are_refused(
    tmp_path: Path, book: openings.Book, damage: Any, message: str
) -> None:
    path = tmp_path / "damaged.book"
    book.save(str(path))
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ValueError, match=message):
        openings.load(str(path))


def test_altered_scores_are_found_despite_a_good_checksum(
    tmp_path: Path, book: openings.Book
) -> None:
    path = tmp_path / "altered.book"
    book.save(str(path))
    root = int(np.searchsorted(book.keys, book.shape.book_key((0, 0, 0))))

    def lie(body: bytearray) -> None:
        body[_score_offset(book, root)] = (body[_score_offset(book, root)] + 1) % 256

    _rewrite(path, lie)
    with pytest.raises(ValueError, match="not the best of its moves' scores"):
        openings.load(str(path))


@pytest.mark.parametrize("lie", [127, 100, 6, -128])
def test_a_deepest_score_the_stones_do_not_allow_is_refused(tmp_path: Path, lie: int) -> None:
    """A depth-4 4x4 book whose '1111' (not its parent's best move) is given a score no
    position of 4 stones can have, the checksum recomputed: refused when loaded, so no search
    ever turns it into a wrapped count of plies."""
    small = openings.build(4, width=4, height=4, threads=1)
    path = tmp_path / "edited.book"
    small.save(str(path))
    position = (0, 0, 0)
    for _ in range(4):
        position = small.shape.play(position, 0)
    at = int(np.searchsorted(small.keys, small.shape.book_key(position)))

    def edit(body: bytearray) -> None:
        body[_score_offset(small, at)] = lie % 256

    _rewrite(path, edit)
    with pytest.raises(ValueError, match=rf"'1111' scores {lie}, but its stones allow only"):
        openings.load(str(path))


def test_a_deep_score_that_lies_is_found_by_verify(book: openings.Book) -> None:
    """Every deepest position called a draw (but those won at once, which the load refuses
    to call anything else) and the rest scored from them by the rules: the file holds
    together, and only re-solving finds the lie."""
    shape = book.shape
    levels = book_file._levels(shape, book.depth)
    scores = {}
    for key, (position, _) in levels[-1].items():
        low, high = openings.score_range(shape, position)
        scores[key] = high if low == high else 0
    book_file._backed_up_levels(shape, levels, scores)
    lying = openings.Book(4, 4, 6, book.keys, np.array([scores[int(k)] for k in book.keys]))
    with pytest.raises(ValueError, match="the book says 0"):
        lying.verify(len(levels[-1]))


def test_missing_positions_and_bad_order_are_refused(book: openings.Book) -> None:
    with pytest.raises(ValueError, match="holds 901 positions, not 900"):
        openings.Book(4, 4, 6, book.keys[:-1], book.scores[:-1])
    with pytest.raises(ValueError, match="increasing order"):
        openings.Book(4, 4, 6, book.keys[::-1], book.scores[::-1])


def test_files_that_are_not_regular_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="a FIFO"):
        openings.load(str(fifo))
    with pytest.raises(ValueError, match="a directory"):
        openings.load(str(tmp_path))


def test_packaged_book_knows_the_empty_board(c4: Any) -> None:
    """Pons' scores of the seven first moves of 7x6 (published in his tutorial and computed by
    every strong solver): the centre wins with the 41st stone."""
    book = openings.packaged()
    assert (book.width, book.height) == (7, 6) and book.depth >= 2
    assert openings.packaged() is book  # loaded once
    analysis = c4.analyze("", book=book)
    # n stones at the end: the winner scores (42 + 2 - n) // 2.
    pons = [value * ((44 - plies) // 2) for _, (value, plies) in sorted(analysis.items())]
    assert pons == [-2, -1, 0, 1, 0, -1, -2]
    assert c4.score("", book=book) == 1
    assert c4.best_move("", book=book) == 3


def test_the_shipped_book_passes_every_check_a_start_skips() -> None:
    """A start trusts the packaged book's structure to its SHA-256 (the file is the one
    shipped); this is where the shipped file is walked whole, as any other book is on load."""
    book = openings.packaged()
    book._check()
    rebuilt = openings.Book(7, 6, book.depth, book.keys, book.scores)  # walks it on creation
    assert len(rebuilt) == len(book)


def test_the_command_line_builds_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "cli.book"
    built = perfectplay_command(
        "openings", "build", "--depth", "3", "--width", "4", "--height", "4", "-o", str(path)
    )
    assert built.returncode == 0, built.stderr
    assert "4x4 depth 3" in built.stderr
    checked = perfectplay_command("openings", "verify", str(path), "--sample", "2")
    assert checked.returncode == 0, checked.stderr
    assert "checksum, positions and scores above depth 3 agree" in checked.stdout
    path.write_bytes(path.read_bytes()[:-2])
    refused = perfectplay_command("openings", "verify", str(path))
    assert refused.returncode == 1
    assert "header promises" in refused.stderr


# The shared positions past 64 bits a book can hold (``2 * stones + width <= 64``).
WIDE = [
    (width, height, moves, score)
    for width, height, moves, score in wide_positions()
    if width * (height + 1) > 64 and 2 * len(moves) + width <= 64
]


def _position(shape: Shape, moves: list[int]) -> tuple[int, int, int]:
    position = (0, 0, 0)
    for col in moves:
        position = shape.play(position, col)
    return position


def test_book_keys_past_64_bits_tell_positions_apart() -> None:
    """Past 64 bits a book key is the position's key recoded into ``2 * stones + width`` bits:
    two positions share one only when one is the other or its mirror image."""
    rng = random.Random(7)
    for width, height, shallow in ((8, 8, 3), (2, 32, 6), (16, 4, 2), (5, 12, 3)):
        shape = Shape(width, height)
        positions = {(0, 0, 0)}
        level = [(0, 0, 0)]
        for _ in range(shallow):
            level = list({shape.play(p, col) for p in level for col in shape.moves(p)})
            positions.update(level)
        for _ in range(300):  # random games up to the deepest a book keeps
            position = (0, 0, 0)
            for _ in range(rng.randint(0, (64 - width) // 2)):
                moves = shape.moves(position)
                if not moves or position[2] == shape.cells:
                    break
                position = shape.play(position, rng.choice(moves))
            positions.add(position)
        mirror = {p: (shape.mirrored(p[0]), shape.mirrored(p[1]), p[2]) for p in positions}
        by_key: dict[int, set[tuple[int, int]]] = {}
        for p in positions:
            assert 0 <= shape.book_key(p) < 1 << (width + 2 * p[2])
            by_key.setdefault(shape.book_key(p), set()).add(min(p[:2], mirror[p][:2]))
        assert all(len(held) == 1 for held in by_key.values()), (width, height)


class _HeldPositions:
    """A book look-alike holding only some positions (a test of the keys the core looks up)."""

    def __init__(self, width: int, height: int, held: dict[int, int], depth: int) -> None:
        self.width, self.height, self.depth, self.deep = width, height, depth, None
        self.shape = Shape(width, height)
        self.keys = np.array(sorted(held), dtype=np.uint64)
        self.scores = np.array([held[key] for key in sorted(held)], dtype=np.int8)
        self.held = held

    def score_of(self, position: tuple[int, int, int]) -> int | None:
        if position[2] > self.depth:
            return None
        return self.held.get(self.shape.book_key(position))


def _held_positions(width: int, height: int, count: int) -> list[tuple[list[int], int]]:
    """``count`` positions: the shared ones, then quiet random play as deep as a book of the
    board goes, where the side to move cannot win at once, with the core's scores (those it
    scores within a few million nodes)."""
    shape, deepest = Shape(width, height), (64 - width) // 2
    held = [(moves, score) for w, h, moves, score in WIDE if (w, h) == (width, height)]
    for moves in quiet_games(width, height, shape.cells - deepest, 40, width * 100 + height):
        if len(held) == count:
            break
        if not shape.wins_now(_position(shape, moves)):
            with contextlib.suppress(SearchLimitExceeded):
                held.append((moves, RUST.score(moves, **_size_of(shape), node_limit=3_000_000)))
    assert len(held) == count
    return held


def _size_of(shape: Shape) -> dict[str, int]:
    return {"width": shape.width, "height": shape.height}


@pytest.mark.both_backends
@pytest.mark.parametrize(("width", "height"), [(10, 6), (8, 8), (7, 9), (16, 4), (2, 32)])
def test_a_book_of_a_board_past_64_bits_is_read_by_both_backends(width: int, height: int) -> None:
    """Positions past 64 bits, put in a book under their keys: both backends answer them, and
    their mirror images, from it without a search; a batch's answers do not change."""
    python = implementation("connect4", "python")
    shape = Shape(width, height)
    rows = _held_positions(width, height, 4)
    held = {shape.book_key(_position(shape, moves)): score for moves, score in rows}
    book = _HeldPositions(width, height, held, max(len(moves) for moves, _ in rows))
    size = _size_of(shape)
    for moves, score in rows:
        mirror = [width - 1 - col for col in moves]
        for c4 in (RUST, python):  # a search of more than one node would be over the limit
            assert c4.score(moves, **size, book=book, node_limit=1) == score
            assert c4.score(mirror, **size, book=book, node_limit=1) == score
    texts = [moves for moves, _ in rows]
    assert np.array_equal(
        RUST.batch_solve(texts, **size, book=book).value,
        RUST.batch_solve(texts, **size, book=None).value,
    )


def test_a_book_of_a_board_past_64_bits_saves_loads_and_answers(c4: Any, tmp_path: Path) -> None:
    """A built book of 1x64 (65 bits) and an 8x8 book of the empty board alone, scored as
    Steininger and Tromp publish it (the second player wins with the 62nd stone): saved,
    loaded, and read by both backends (``solve`` would search on: it gives a line too)."""
    tall = openings.build(31, width=1, height=64, threads=1)
    tall.save(tmp_path / "tall.book")
    assert np.array_equal(openings.load(tmp_path / "tall.book").keys, tall.keys)
    for stones in range(32):
        assert c4.score([0] * stones, width=1, height=64, book=tall) == 0
    shape = Shape(8, 8)
    # Pons' score: a win with one's s-th stone scores cells / 2 + 1 - s (here the 31st, -2).
    published = -(shape.cells // 2 + 1 - 62 // 2)
    empty = openings.Book(
        8, 8, 0, np.array([shape.book_key((0, 0, 0))], np.uint64), np.array([published], np.int8)
    )
    empty.save(tmp_path / "8x8.book")
    loaded = openings.load(tmp_path / "8x8.book")
    assert c4.score("", width=8, height=8, book=loaded) == published
    assert c4.value("", width=8, height=8, book=loaded) == -1


def test_books_of_boards_past_64_bits_hold_at_most_half_of_64_minus_width_stones(
    tmp_path: Path,
) -> None:
    """Their keys take ``2 * stones + width`` bits: a deeper book is refused at once, by the
    build (before any search), by a book made in code and by the command line."""
    message = r"depth must be from 0 to 28 \(a book of a board past 64 bits holds at most"
    with pytest.raises(ValueError, match=message):
        openings.build(29, width=8, height=8)
    with pytest.raises(ValueError, match="depth 29 is not from 0 to 28, the most stones a book"):
        openings.Book(8, 8, 29, np.array([0], np.uint64), np.array([0], np.int8))
    built = perfectplay_command(
        "openings",
        "build",
        "--depth",
        "29",
        "--width",
        "8",
        "--height",
        "8",
        "-o",
        str(tmp_path / "b"),
    )
    assert built.returncode == 1 and "from 0 to 28" in built.stderr
    assert not (tmp_path / "b").exists()


def test_a_stopped_build_goes_on_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the third chunk: the checkpoint holds the first two; built again, only the
    rest is solved, the book is the one a build in one go makes, and the checkpoint is gone."""
    connect4 = implementation("connect4")  # the backend's functions, which the build calls
    checkpoint = tmp_path / "build.checkpoint"
    solve = connect4.batch_solve
    solved: list[int] = []

    def stopped_in_the_third_chunk(lines: Any, **options: Any) -> Any:
        if len(solved) == 2:
            raise KeyboardInterrupt
        solved.append(len(lines))
        return solve(lines, **options)

    monkeypatch.setattr(connect4, "batch_solve", stopped_in_the_third_chunk)
    with pytest.raises(KeyboardInterrupt):
        openings.build(5, width=4, height=4, threads=1, checkpoint=checkpoint, chunk=20)
    assert checkpoint.exists() and solved == [20, 20]

    def counted(lines: Any, **options: Any) -> Any:
        solved.append(len(lines))
        return solve(lines, **options)

    monkeypatch.setattr(connect4, "batch_solve", counted)
    resumed = openings.build(5, width=4, height=4, threads=1, checkpoint=checkpoint, chunk=20)
    deepest = len(book_file._levels(resumed.shape, 5)[-1])
    assert sum(solved[2:]) == deepest - 40
    assert not checkpoint.exists()
    whole = openings.build(5, width=4, height=4, threads=1)
    assert np.array_equal(resumed.keys, whole.keys)
    assert np.array_equal(resumed.scores, whole.scores)


def test_a_checkpoint_of_another_build_is_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "other.checkpoint"
    book_build._save_checkpoint(checkpoint, Shape(4, 4), 3, {})
    with pytest.raises(ValueError, match=r"is of another build \(\[4, 4, 3\], not \[4, 4, 4\]\)"):
        openings.build(4, width=4, height=4, checkpoint=checkpoint)
    checkpoint.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match=r"cannot be read .*: remove it to start over"):
        openings.build(4, width=4, height=4, checkpoint=checkpoint)


def test_the_packaged_book_is_read_only_as_the_file_shipped(tmp_path: Path) -> None:
    """The depth-6 book goes through the reader of every shipped file: a FIFO, a link to a
    device or a directory in its place is refused at once, and a score edited within the range
    its stones allow, the CRC32 recomputed, is refused by the SHA-256 (``'111111'`` scores 1;
    read as 2 it would be answered)."""
    source = Path(openings.packaged_path())
    whole = openings.load_packaged(source)
    assert len(whole) == 11_094 and whole.path == str(source)
    position = (0, 0, 0)
    for _ in range(6):
        position = whole.shape.play(position, 0)
    at = int(np.searchsorted(whole.keys, whole.shape.book_key(position)))
    assert whole.scores[at] == 1
    edited = tmp_path / "edited.book"
    edited.write_bytes(source.read_bytes())

    def lie(body: bytearray) -> None:
        body[_score_offset(whole, at)] = 2

    _rewrite(edited, lie)
    assert openings.load(str(edited)).scores[at] == 2  # a book built here has no SHA-256
    fix = r"pip install --force-reinstall perfectplay"
    with pytest.raises(ValueError, match=rf"edited\.book is not the one this .*{fix}"):
        openings.load_packaged(edited)
    fifo = tmp_path / "fifo.book"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="a FIFO, not a regular file"):
        openings.load_packaged(fifo)
    zeros = tmp_path / "zeros.book"
    zeros.symlink_to("/dev/zero")
    with pytest.raises(ValueError, match="a device, not a regular file"):
        openings.load_packaged(zeros)
    with pytest.raises(ValueError, match="a directory, not a regular file"):
        openings.load_packaged(tmp_path)
    with pytest.raises(FileNotFoundError, match=rf"missing\.book is missing: .*{fix}"):
        openings.load_packaged(tmp_path / "missing.book")


@pytest.mark.parametrize("backend", ["rust", "python"])
@pytest.mark.parametrize("kind", ["fifo", "device", "edited"])
def test_a_default_7x6_call_refuses_a_packaged_book_put_in_its_place(
    backend: str, kind: str, tmp_path: Path
) -> None:
    """In a fresh process whose packaged book is a FIFO, a link to ``/dev/zero`` or an edited
    copy: the first default 7x6 call is a ValueError naming the file, not a hang, memory run
    out or a wrong answer; ``book=None`` still answers."""
    planted = tmp_path / "connect4-7x6.book"
    if kind == "fifo":
        os.mkfifo(planted)
    elif kind == "device":
        planted.symlink_to("/dev/zero")
    else:
        data = bytearray(Path(openings.packaged_path()).read_bytes())
        data[30] ^= 1
        planted.write_bytes(bytes(data))
    setup = (
        "from perfectplay.connect4 import shipped\n"
        f"shipped.packaged_path = lambda: {str(planted)!r}\n"
    )
    last = _refused_in_a_fresh_process(backend, setup)
    assert last.startswith(f"ValueError: the opening book {planted}"), last


def _refused_in_a_fresh_process(backend: str, setup: str, call: str = "score('445344')") -> str:
    """The last line a fresh process prints that runs ``setup``, then answers a position with
    ``book=None`` (which must answer) and asks a default 7x6 ``call`` (which must fail; by
    default one past the depth-6 book, which reads every book)."""
    code = setup + (
        "from perfectplay._kernel.backend import implementation\n"
        f"c4 = implementation('connect4', {backend!r})\n"
        "print(c4.score('2252576253462244111563365343671351441', book=None))\n"
        f"c4.{call}\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["-1"], run.stderr
    return run.stderr.strip().splitlines()[-1]


_PATHS = {
    "deep": "deep_path",
    "next": "next_path",
    "fourteen": "fourteen_path",
    "opening": "packaged_path",
}


def _first_error(backend: str, role: str, planted: Path) -> str:
    """The last line a fresh process prints whose ``role`` book is ``planted`` when a default
    7x6 call first reads the books."""
    setup = (
        "from perfectplay.connect4 import shipped\n"
        f"shipped.{_PATHS[role]} = lambda: {str(planted)!r}\n"
    )
    return _refused_in_a_fresh_process(backend, setup)


@pytest.mark.compiled
@pytest.mark.parametrize("role", list(_PATHS))
def test_both_backends_refuse_a_damaged_shipped_book_alike(role: str, tmp_path: Path) -> None:
    """The compiled core reads the shipped books itself, and the twin through this module: a
    truncated or altered copy of any of the four is the same exception, with the same words,
    naming the file, on both backends."""
    source = Path(openings.shipped_files()[role]["path"])
    data = source.read_bytes()
    truncated, altered = tmp_path / "truncated", tmp_path / "altered"
    truncated.write_bytes(data[: len(data) // 2])
    changed = bytearray(data)
    changed[len(changed) // 3] ^= 1
    altered.write_bytes(bytes(changed))
    for planted in (truncated, altered, tmp_path / "missing"):
        rust, python = (_first_error(backend, role, planted) for backend in ("rust", "python"))
        assert rust == python, (rust, python)
        assert str(planted) in rust and rust.startswith(("ValueError", "FileNotFoundError"))


@pytest.mark.compiled
def test_the_compiled_core_reads_the_shipped_books_without_python_copies() -> None:
    """A default 7x6 answer of the compiled core builds no Python book: the module's loaders
    were never called (the twin's answer loads them)."""
    code = (
        "from perfectplay.connect4 import openings\n"
        "from perfectplay._kernel.backend import implementation\n"
        "assert implementation('connect4', 'rust').score('') == 1\n"
        "print(openings.packaged.cache_info().misses, openings.deep.cache_info().misses)\n"
        "assert implementation('connect4', 'python').score('444444') == 1\n"
        "print(openings.packaged.cache_info().misses, openings.deep.cache_info().misses)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["0", "0", "1", "1"], run.stderr


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_answers_near_the_start_read_only_the_depth_6_book(backend: str, tmp_path: Path) -> None:
    """A one-move answer of fewer than 6 stones reads the depth-6 book alone, so a fresh
    process's first answer does not wait for the deep books: with the 12-ply book missing,
    ``analyze('')`` and ``score('4453')`` answer, and a call that needs the deep books (6
    stones, or ``solve``, which walks a line to the end) names the missing file."""
    setup = (
        "from perfectplay.connect4 import shipped\n"
        f"shipped._installed_deep_path = lambda: {str(tmp_path / 'missing')!r}\n"
        "from perfectplay._kernel.backend import implementation\n"
        f"c4 = implementation('connect4', {backend!r})\n"
        "print(c4.analyze('')[3], c4.score('4453'), c4.value('44533'))\n"
    )
    for call in ("score('445344')", "solve('')"):
        code = setup + f"c4.{call}\n"
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
        )
        assert run.stdout.split() == ["(1,", "41)", "-2", "1"], run.stderr
        last = run.stderr.strip().splitlines()[-1]
        assert last.startswith(f"FileNotFoundError: the 12-ply opening book {tmp_path}"), last


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_without_the_books_package_a_default_call_says_how_to_install_it(backend: str) -> None:
    """perfectplay-books not importable: the first call that needs the books is a
    FileNotFoundError saying how to install it, never a search of minutes; book=None answers."""
    setup = "import sys\nsys.modules['perfectplay_books'] = None  # as if it were not installed\n"
    last = _refused_in_a_fresh_process(backend, setup)
    assert last.startswith("FileNotFoundError: the opening books are missing: perfectplay-books")
    assert "pip install perfectplay-books==1.0.0" in last and "pip install ./books" in last


def test_the_books_package_is_pinned_to_the_version_the_code_reads() -> None:
    """One version, written three times: the books' own pyproject, the code's dependency and
    the constant the messages name; and the installed books are that version."""
    import importlib.metadata
    import re

    books = Path(__file__).resolve().parents[1] / "books" / "pyproject.toml"
    found = re.search(r'^version = "([^"]+)"$', books.read_text(), re.MULTILINE)
    assert found is not None
    books_version = found.group(1)
    pinned = f"{openings.BOOKS_DISTRIBUTION}=={books_version}"
    assert pinned in (importlib.metadata.requires("perfectplay") or [])
    assert books_version == openings.BOOKS_VERSION
    assert importlib.metadata.version(openings.BOOKS_DISTRIBUTION) == books_version
