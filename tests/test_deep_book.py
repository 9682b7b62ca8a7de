"""The community's 12-ply 7x6 book (bitbully-databases), read by default: its documented
examples, answers unchanged by it on both backends, the twin and the core alike with it, its
entries re-solved by the search alone, and a damaged, truncated, missing or altered file
refused with the fix named."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from perfectplay import SearchLimitExceeded
from perfectplay._kernel.backend import implementation
from perfectplay.connect4 import deep_book, openings
from perfectplay.connect4.rules import Shape, _play_columns
from tests_support import perfectplay_command

RUST = implementation("connect4", "rust")
PYTHON = implementation("connect4", "python")
SEVEN_BY_SIX = Shape(7, 6)


def random_line(rng: random.Random, stones: int) -> str | None:
    """A move string of ``stones`` uniformly random moves, the game still going on after it;
    None when it ended on the way."""
    position = (0, 0, 0)
    line = ""
    for _ in range(stones):
        moves = SEVEN_BY_SIX.moves(position)
        if not moves:
            return None
        column = rng.choice(moves)
        position = SEVEN_BY_SIX.play(position, column)
        line += str(column + 1)
    return line if SEVEN_BY_SIX.moves(position) else None


def random_lines(seed: int, stones: int, count: int) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count:
        line = random_line(rng, stones)
        if line is not None:
            lines.append(line)
    return lines


@pytest.mark.both_backends
def test_the_books_documented_examples() -> None:
    """bitbully-databases' own examples (its documentation, drawn top row first): 71, the
    first player wins in 29 moves (with the 41st stone: Pons' score 1); 73, wins in 27 (the
    39th: 2); -88, loses in 12 (to the 24th stone, the second player's 12th: -10)."""
    deep = openings.deep()
    assert len(deep) == 4_200_899 and deep.stones == 12
    examples = [
        ("......./...x.../.x.o.../.o.x.o./.x.o.x./.o.x.o.", 1),
        ("......./......./.x...../.oo.x../.ox.o../xxoxo..", 2),
        ("......./......./..xx.../..oo.../.xox.../.xxo.oo", -10),
    ]
    for board, pons in examples:
        assert RUST.score(board) == pons
        assert RUST.score(board, book=None) == pons
        assert PYTHON.score(board) == pons
        # No node searched: answered from the book.
        assert RUST.score(board, node_limit=1) == pons
        assert RUST.value(board, node_limit=1) == (pons > 0) - (pons < 0)


def test_distances_map_onto_pons_scores_and_impossible_ones_are_refused() -> None:
    values = np.array([0, 71, 97, 99, 72, -70, -98, -71, 1, -1, 127, -128], dtype=np.int32)
    scores = openings.deep_scores(values).tolist()
    impossible = deep_book._IMPOSSIBLE
    # 71: the 41st stone, the first player's 21st: 22 - 21 = 1. -70: the 42nd, -1.
    assert scores == [0, 1, 14, impossible, impossible, -1, -15] + [impossible] * 5


@pytest.mark.compiled
def test_answers_do_not_change_with_the_books() -> None:
    """Random positions from 7 stones on (searched down to the 12-ply book, answered by it,
    or searched past it), with and without the books, on the core: equal wherever the
    book-free search is cheap enough to compare (a node limit). Shallower positions are the
    packaged book's, whose scores were solved this way when it was built and are checked by
    the rules on every load."""
    compared = dict.fromkeys(range(7, 17), 0)
    for stones in compared:
        for line in random_lines(stones, stones, 4):
            try:
                plain = RUST.score(line, book=None, node_limit=20_000_000, threads=1)
            except SearchLimitExceeded:
                continue
            assert RUST.score(line) == plain, line
            if stones >= 10:
                assert RUST.analyze(line) == RUST.analyze(line, book=None, threads=1), line
            compared[stones] += 1
    assert all(compared.values()), compared


@pytest.mark.both_backends
@pytest.mark.parametrize(("scored", "analysed", "seed"), [(14, 13, 14), (15, 14, 15)])
def test_one_stone_past_the_books_their_bound_changes_no_answer(
    scored: int, analysed: int, seed: int
) -> None:
    """A search of a position the books leave out starts from the bound they give it (minus
    the best score of the positions it follows): random positions scored, and positions a
    stone shallower analysed (every column such a search), equal with and without the
    books. At 14 stones the positions the 14-ply book leaves out (a win at once) take the
    13-ply book's bound; at 15 every one takes the 14-ply book's."""
    compared = 0
    for line in random_lines(seed, scored, 30):
        try:
            plain = RUST.score(line, book=None, node_limit=20_000_000, threads=1)
        except SearchLimitExceeded:
            continue
        assert RUST.score(line) == plain, line
        compared += 1
    for line in random_lines(seed * 100 + analysed, analysed, 6):
        assert RUST.analyze(line) == RUST.analyze(line, book=None), line
    assert compared >= 20


def position_of(line: str) -> tuple[int, int, int]:
    return _play_columns(SEVEN_BY_SIX, [int(col) - 1 for col in line], line)


def held(position: tuple[int, int, int]) -> bool:
    """Held by the 12-, 13- or 14-ply book, as the issue and the books' builds define them:
    the side to move cannot win at once and, past 12 stones, a position one stone shallower
    is held (the children of held positions). A position past a missed win is not."""
    current, mask, moves = position
    if SEVEN_BY_SIX.wins_now(position):
        return False
    if moves == 12:
        return True
    last = current ^ mask  # the stones of the side that moved last
    for col in range(7):
        stones = mask & SEVEN_BY_SIX.column(col)
        top = 1 << (stones.bit_length() - 1) if stones else 0
        # A parent: that side's top stone taken off, that side to move.
        if top & last and held((last ^ top, mask ^ top, moves - 1)):
            return True
    return False


@pytest.mark.compiled
@pytest.mark.parametrize(("stones", "least"), [(13, 250), (14, 150)])
def test_the_packaged_deeper_books_answer_random_positions_as_the_search_does(
    stones: int, least: int
) -> None:
    """Random positions of 13 and 14 stones the packaged books hold, and their mirror
    images: read by both backends without a node, equal to the search alone."""
    deep = openings.deep()
    assert deep.next_scores is not None and len(deep.next_scores) == 7 * len(deep)
    assert deep.fourteen is not None and deep.fourteen.keys == openings.FOURTEEN_POSITIONS
    lines = [line for line in random_lines(stones * 101, stones, 400) if held(position_of(line))]
    assert len(lines) >= least
    for line in lines:
        expected = RUST.score(line, book=None, threads=1)
        mirror = "".join(str(8 - int(col)) for col in line)
        for shown in (line, mirror):
            RUST.clear_tables()  # read from the book, not from the table the search filled
            assert RUST.score(shown, node_limit=1) == expected, shown
            assert PYTHON.score(shown, node_limit=1) == expected, shown
            assert deep.get(position_of(shown)) == expected, shown


@pytest.mark.parametrize("plies", [13, 14])
def test_a_deep_book_damaged_truncated_or_missing_is_refused_with_the_fix(
    plies: int, tmp_path: Path
) -> None:
    twelve = openings.load_deep(openings.deep_path() or "")
    attach: Any
    if plies == 13:
        base, source, sha256 = twelve, openings.next_path(), openings.NEXT_SHA256
        attach = openings.with_next
    else:
        base = openings.with_next(twelve, openings.next_path(), sha256=openings.NEXT_SHA256)
        source, sha256 = openings.fourteen_path(), openings.FOURTEEN_SHA256
        attach = openings.with_fourteen
    copy = tmp_path / Path(source).name
    shutil.copyfile(source, copy)

    def attached_path_and_scores(book: openings.DeepBook) -> tuple[str | None, Any]:
        if plies == 13:
            return book.next_path, book.next_scores
        assert book.fourteen is not None
        return book.fourteen.path, book.fourteen.scores

    attached = attach(base, copy, sha256=sha256)
    assert f"{plies}-ply book {str(copy)!r}" in repr(attached)
    path, scores = attached_path_and_scores(attached)
    assert path == str(copy)
    data = bytearray(copy.read_bytes())
    # The scores end the file (the 13-ply file is nothing else).
    held = np.flatnonzero(scores != openings.NOT_HELD)
    changed = len(data) - len(scores) + int(held[len(held) // 2])
    data[changed] = 0 if data[changed] else 3  # one position's score, to another it could be
    flipped = tmp_path / "flipped.book"
    flipped.write_bytes(bytes(data))
    fix = r"pip install --force-reinstall perfectplay"
    with pytest.raises(ValueError, match=rf"flipped\.book is not the one this .*{fix}"):
        attach(base, flipped, sha256=sha256)
    # Without a checksum (a book built here) a flipped score is read: verify re-solves.
    read = attached_path_and_scores(attach(base, flipped))[1]
    assert read[changed - (len(data) - len(scores))] == data[changed]
    truncated = tmp_path / "truncated.book"
    truncated.write_bytes(bytes(data[:-7]))
    with pytest.raises(ValueError, match=rf"is {len(data) - 7:,} bytes, not {len(data):,}.*{fix}"):
        attach(base, truncated, sha256=sha256)
    with pytest.raises(FileNotFoundError, match=rf"missing\.book is missing: .*{fix}"):
        attach(base, tmp_path / "missing.book", sha256=sha256)
    with pytest.raises(ValueError, match="a directory"):
        attach(base, tmp_path, sha256=sha256)


@pytest.mark.compiled
def test_a_wrong_13_ply_score_is_caught_by_verify() -> None:
    deep = openings.deep()
    assert deep.next_scores is not None
    # verify draws the same slots for the same seed: find them, then change the second
    rng = np.random.default_rng(8)
    rng.choice(len(deep), size=3, replace=False)
    held = np.flatnonzero(deep.next_scores != openings.NOT_HELD)
    second = int(rng.choice(held, size=3, replace=False)[1])
    slots = deep.next_scores.copy()
    slots[second] = 0 if slots[second] else 3
    altered = openings.DeepBook(
        deep.codes, deep.scores, deep.path, next_scores=slots, next_path="altered"
    )
    with pytest.raises(ValueError, match=rf"altered: 13-ply slot {second:,} \(.*\) scores -?\d+"):
        altered.verify(3, seed=8)


@pytest.mark.both_backends
def test_the_twin_reads_the_same_book_and_agrees_with_the_core() -> None:
    """Around the book's depth, where the twin's plain search is short: the same answers
    (not ``solve``, whose line the twin would search to the end of the game)."""
    for stones in (10, 11):
        for line in random_lines(100 + stones, stones, 4):
            assert PYTHON.analyze(line) == RUST.analyze(line), line
            assert PYTHON.best_moves(line) == RUST.best_moves(line), line
            assert PYTHON.score(line) == RUST.score(line), line
    for line in random_lines(112, 12, 40):  # held by the book: its moves' are not
        assert PYTHON.score(line) == RUST.score(line), line
        assert PYTHON.value(line) == RUST.value(line), line


@pytest.mark.both_backends
def test_a_batch_reads_the_books_by_default() -> None:
    lines = random_lines(7, 12, 40) + random_lines(8, 11, 10)
    booked = RUST.batch_solve(lines, moves=True)
    plain = RUST.batch_solve(lines, moves=True, book=None)
    for name, column in plain.to_dict().items():
        if name != "nodes":
            assert np.array_equal(column, booked.to_dict()[name]), name
    assert booked.nodes.sum() < plain.nodes.sum()
    # 11 stones: every move's answer is in the book.
    twin = PYTHON.batch_solve(lines[40:], moves=True)
    assert np.array_equal(twin.value, booked.value[40:])
    assert np.array_equal(twin.move_plies, booked.move_plies[40:])


@pytest.mark.compiled
def test_entries_re_solved_by_the_search_alone() -> None:
    """A few hundred entries of the book, drawn at random, against the search without it."""
    openings.deep().verify(300, seed=2026)


@pytest.mark.compiled
def test_a_wrong_entry_is_caught_by_verify() -> None:
    deep = openings.deep()
    scores = deep.scores.copy()
    chosen = np.random.default_rng(5).choice(len(deep), size=3, replace=False)
    scores[chosen[1]] = 0 if scores[chosen[1]] else 3
    altered = openings.DeepBook(deep.codes.copy(), scores, "altered")
    with pytest.raises(ValueError, match=r"altered: entry [\d,]+ \(.*\) scores -?\d+, the book"):
        # verify draws the same entries for the same seed
        altered.verify(3, seed=5)


@pytest.fixture(scope="module")
def copy_of_the_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = openings.deep_path()
    assert source is not None
    path = tmp_path_factory.mktemp("deep") / "book_12ply_distances.dat"
    shutil.copyfile(source, path)
    return path


def test_a_damaged_truncated_or_missing_file_is_refused_with_the_fix(
    copy_of_the_book: Path, tmp_path: Path
) -> None:
    assert len(openings.load_deep(copy_of_the_book)) == 4_200_899
    data = bytearray(copy_of_the_book.read_bytes())
    flipped = tmp_path / "flipped.dat"
    data[5 * 1_000_000 + 4] ^= 0x01  # one entry's distance byte
    flipped.write_bytes(bytes(data))
    fix = r"pip install --force-reinstall bitbully-databases==0\.0\.2"
    with pytest.raises(
        ValueError, match=rf"flipped\.dat is not bitbully-databases 0\.0\.2's: .*{fix}"
    ):
        openings.load_deep(flipped)
    truncated = tmp_path / "truncated.dat"
    truncated.write_bytes(bytes(data[:-5]))
    with pytest.raises(ValueError, match=rf"is 21,004,490 bytes, not 21,004,495: .*{fix}"):
        openings.load_deep(truncated)
    longer = tmp_path / "longer.dat"
    longer.write_bytes(bytes(data) + b"\0")
    with pytest.raises(ValueError, match="bytes or more"):
        openings.load_deep(longer)
    with pytest.raises(FileNotFoundError, match=rf"missing\.dat is missing: .*{fix}"):
        openings.load_deep(tmp_path / "missing.dat")
    with pytest.raises(ValueError, match="a directory"):
        openings.load_deep(tmp_path)


def test_book_arguments_are_checked_alike(c4: Any) -> None:
    for bad, kind, message in [
        (
            "x",
            ValueError,
            "book must be 'packaged', None or a perfectplay.openings.Book, not 'x'",
        ),
        (
            5,
            TypeError,
            "book must be 'packaged', None or a perfectplay.openings.Book, not int",
        ),
        (b"packaged", TypeError, "not bytes"),
        # A Book's look-alike: both backends read a Book's arrays as it makes them.
        (
            SimpleNamespace(**{**vars(openings.packaged()), "keys": np.zeros(3, np.int64)}),
            TypeError,
            "the book's keys must be a contiguous 1-D uint64 array, not int64",
        ),
    ]:
        with pytest.raises(kind, match=message):
            c4.score("4453", book=bad)
        with pytest.raises(kind, match=message):
            c4.batch_solve(["4453"], book=bad)
    # Other sizes have no packaged book: the default and 'packaged' search.
    small = {"width": 4, "height": 4}
    assert c4.score("1234", **small) == c4.score("1234", **small, book="packaged")


@pytest.mark.compiled
def test_the_command_line_verifies_the_packaged_books() -> None:
    checked = perfectplay_command("openings", "verify", "--sample", "20", "--seed", "3")
    assert checked.returncode == 0, checked.stderr
    assert "the 12-ply book, 4,200,899 positions" in checked.stdout
    assert "20 re-solved (seed 3)" in checked.stdout
    assert "connect4-7x6-13ply.scores: the 13-ply book, 7 scores for each" in checked.stdout
    assert "14ply.book14: the 14-ply book, 21,675,617 positions: size, SHA-256" in checked.stdout


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_without_bitbully_databases_the_default_names_the_fix(backend: str) -> None:
    """In a fresh process where the package is not found: the default book is a
    FileNotFoundError naming the fix at the first call that reads it (one of 6 stones); book=None
    and other sizes still answer."""
    code = (
        "from perfectplay.connect4 import shipped\n"
        "shipped.deep_path = lambda: None\n"
        "from perfectplay._kernel.backend import implementation\n"
        f"c4 = implementation('connect4', {backend!r})\n"
        "near_the_end = '2252576253462244111563365343671351441'\n"
        "print(c4.score(near_the_end, book=None), c4.score('1234', width=4, height=4))\n"
        "c4.score('445344')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["-1", "0"], run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        "FileNotFoundError: the 12-ply opening book is missing: bitbully-databases is not "
        "installed; install it (pip install bitbully-databases==0.0.2), or pass book=None to "
        "search without a book"
    )


def test_a_deep_book_and_a_book_take_only_the_arrays_both_backends_read() -> None:
    wanted = r"made\.bin: codes must be a contiguous 1-D int32 array, not"
    with pytest.raises(TypeError, match=f"{wanted} int64"):
        openings.DeepBook(np.zeros(2, np.int64), np.zeros(2, np.int8), "made.bin")
    # Every other code: the core reads the column in place, so it must be contiguous.
    with pytest.raises(TypeError, match=f"{wanted} int32"):
        openings.DeepBook(np.zeros(4, np.int32)[::2], np.zeros(2, np.int8), "made.bin")
    packaged = openings.packaged()
    with pytest.raises(TypeError, match="deep must be a DeepBook or None, not dict"):
        openings.Book(7, 6, packaged.depth, packaged.keys, packaged.scores, deep={})  # type: ignore[arg-type]


@pytest.mark.both_backends
def test_a_books_fields_cannot_be_changed_after_it_is_made() -> None:
    """The core reads a book's arrays in place and by dtype, the twin reads any: a book whose
    arrays were swapped would be answered by one backend and refused by the other."""
    packaged = openings.packaged()
    made = openings.Book(7, 6, packaged.depth, packaged.keys, packaged.scores, deep=packaged.deep)
    for field, value in [("keys", packaged.keys.astype(np.int64)), ("deep", None), ("depth", 2)]:
        with pytest.raises(AttributeError, match=f"a Book's {field} cannot be changed"):
            setattr(made, field, value)
    assert packaged.deep is not None
    with pytest.raises(AttributeError, match="a DeepBook's codes cannot be changed"):
        packaged.deep.codes = packaged.deep.codes.astype(np.int64)
    # Other attributes are the user's, and the book still answers alike.
    made.note = "mine"
    assert RUST.score("4453", book=made) == PYTHON.score("4453", book=made) == -2


def children_boards(code: int) -> list[np.ndarray | None]:
    """A 12-ply entry's children in its own orientation, column by column (None where the
    column is full); 6x7 cell codes, top row first."""
    board = np.array(deep_book._deep_board(code), dtype=np.uint8)
    children: list[np.ndarray | None] = []
    for col in range(7):
        empty = np.flatnonzero(board[:, col] == 0)
        if not len(empty):
            children.append(None)
            continue
        child = board.copy()
        child[empty[-1], col] = 1  # 12 stones: the first player moves
        children.append(child)
    return children


@pytest.fixture(scope="module")
def with_13_ply_slots() -> tuple[openings.Book, dict[int, list[np.ndarray]]]:
    """The packaged books with a 13-ply book attached that holds the children of a dozen
    random 12-ply entries (each solved by the search, the others' slots left empty), and those
    entries' children it holds."""
    deep, packaged = openings.deep(), openings.packaged()
    slots = np.full(7 * len(deep), openings.NOT_HELD, dtype=np.int8)
    held: dict[int, list[np.ndarray]] = {}
    for at in np.random.default_rng(13).choice(len(deep), size=12, replace=False).tolist():
        held[at] = []
        for col, child in enumerate(children_boards(int(deep.codes[at]))):
            if child is None:
                continue
            answers = RUST.analyze(child)
            # The book holds neither a game over nor a position whose side wins at once.
            if not answers or (1, 1) in answers.values():
                continue
            slots[7 * at + col] = RUST.score(child)
            held[at].append(child)
    attached = openings.DeepBook(deep.codes, deep.scores, "slots", next_scores=slots)
    book = openings.Book(7, 6, packaged.depth, packaged.keys, packaged.scores, deep=attached)
    return book, held


@pytest.mark.both_backends
def test_a_13_ply_book_answers_its_positions_and_changes_no_answer(
    with_13_ply_slots: tuple[openings.Book, dict[int, list[np.ndarray]]],
) -> None:
    """Each held position, and its mirror image, read from the 13-ply book by both backends
    (the core without a node); its parents analysed and its children scored (14 stones, from
    the bound it gives) as without it."""
    book, held = with_13_ply_slots
    entries = [child for children in held.values() for child in children]
    assert len(entries) >= 50
    for child in entries:
        expected = RUST.score(child)
        for image in (child, child[:, ::-1].copy()):
            RUST.clear_tables()  # read from the book, not from the table the search filled
            assert RUST.score(image, book=book, node_limit=1) == expected
            assert PYTHON.score(image, book=book, node_limit=1) == expected
        for col in RUST.analyze(child):
            grandchild = child.copy()
            grandchild[np.flatnonzero(grandchild[:, col] == 0)[-1], col] = 2
            if RUST.analyze(grandchild):
                assert RUST.score(grandchild, book=book) == RUST.score(grandchild)
    for at in held:
        parent = np.array(deep_book._deep_board(int(openings.deep().codes[at])), dtype=np.uint8)
        expected_analysis = RUST.analyze(parent)
        RUST.clear_tables()
        assert RUST.analyze(parent, book=book, node_limit=1) == expected_analysis
        assert PYTHON.analyze(parent, book=book) == RUST.analyze(parent)


@pytest.mark.both_backends
def test_a_13_ply_book_of_the_wrong_length_or_an_impossible_score_is_refused() -> None:
    deep = openings.deep()
    with pytest.raises(ValueError, match=r"mine: the 13-ply book holds 7 scores, not 7 for each"):
        openings.DeepBook(deep.codes, deep.scores, "mine", next_scores=np.zeros(7, np.int8))
    slots = np.full(7 * len(deep), openings.NOT_HELD, dtype=np.int8)
    slots[12_345] = 15  # a win at once: never held
    with pytest.raises(ValueError, match=r"mine: the 13-ply score 12,345 is 15, which no"):
        openings.DeepBook(deep.codes, deep.scores, "mine", next_scores=slots)
    # A look-alike that skipped those checks: both backends refuse it alike before reading.
    packaged = openings.packaged()
    look_alike = SimpleNamespace(
        **{
            **vars(packaged),
            "deep": SimpleNamespace(
                codes=deep.codes, scores=deep.scores, next_scores=np.zeros(7, np.int8)
            ),
        }
    )
    for backend in (RUST, PYTHON):
        with pytest.raises(ValueError, match="the 13-ply book's scores are not 7 for each"):
            backend.score("4453", book=look_alike)
    with pytest.raises(TypeError, match=r"mine: next_scores must be a contiguous 1-D int8"):
        openings.DeepBook(
            deep.codes,
            deep.scores,
            "mine",
            next_scores=slots.astype(np.int16),
        )
