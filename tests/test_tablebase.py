"""Tablebases: counts against an independent enumeration, every entry against the search,
both backends byte for byte, files that are damaged in every way, the Dask build."""

from __future__ import annotations

import os
import random
import stat
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import BACKEND, IllegalPosition, mnk
from perfectplay._kernel.backend import implementation
from perfectplay.cli import main
from perfectplay.mnk import tablebase
from tests_support import assert_ctrl_c_stops_within_a_second

WINDOWS: dict[tuple[int, int, int], list[int]] = {}


def windows(rows: int, cols: int, k: int) -> list[int]:
    """Every run of k cells, written again here so the enumeration is independent."""
    if (rows, cols, k) not in WINDOWS:
        found = set()
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + dr * i, c + dc * i) for i in range(k)]
                    if all(0 <= i < rows and 0 <= j < cols for i, j in cells):
                        found.add(sum(1 << (i * cols + j) for i, j in cells))
        WINDOWS[rows, cols, k] = sorted(found)
    return WINDOWS[rows, cols, k]


def reachable(rows: int, cols: int, k: int) -> set[tuple[int, int]]:
    """Every position play reaches from the empty board, stopping at the first line."""
    lines = windows(rows, cols, k)
    seen = {(0, 0)}
    frontier = [(0, 0)]
    while frontier:
        x, o = frontier.pop()
        if any(x & w == w for w in lines) or any(o & w == w for w in lines):
            continue
        x_moves = x.bit_count() == o.bit_count()
        for cell in range(rows * cols):
            if not (x | o) >> cell & 1:
                child = (x | 1 << cell, o) if x_moves else (x, o | 1 << cell)
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
    return seen


def text(rows: int, cols: int, x: int, o: int) -> str:
    return "/".join(
        "".join(
            "x" if x >> (r * cols + c) & 1 else "o" if o >> (r * cols + c) & 1 else "."
            for c in range(cols)
        )
        for r in range(rows)
    )


def codes(rows: int, cols: int, positions: list[tuple[int, int]]) -> np.ndarray[Any, Any]:
    out = np.zeros((len(positions), rows, cols), dtype=np.uint8)
    for row, (x, o) in enumerate(positions):
        for cell in range(rows * cols):
            out[row, cell // cols, cell % cols] = (x >> cell & 1) + 2 * (o >> cell & 1)
    return out


SMALL = [(3, 3, 3), (4, 3, 3), (3, 4, 3), (2, 4, 2)]


@pytest.mark.parametrize("game", SMALL, ids=str)
def test_counts_agree_with_an_independent_enumeration(
    backend: str, game: tuple[int, int, int]
) -> None:
    core = implementation("mnk.tablebase", backend)
    data = core.build(*game)
    positions = reachable(*game)
    assert int(np.count_nonzero(data)) == len(positions)
    if game[:2] == (3, 3):
        assert len(positions) == 5478
    if game[:2] == (4, 3):
        assert len(positions) == 111_973


@pytest.mark.both_backends
@pytest.mark.parametrize("game", SMALL, ids=str)
def test_both_backends_build_the_same_bytes(game: tuple[int, int, int]) -> None:
    rust = implementation("mnk.tablebase", "rust").build(*game)
    python = implementation("mnk.tablebase", "python").build(*game)
    assert rust.tobytes() == python.tobytes()


@pytest.mark.parametrize("game", [(3, 3, 3), (4, 3, 3), (3, 4, 3)], ids=str)
def test_every_entry_equals_the_search(backend: str, game: tuple[int, int, int]) -> None:
    rows, cols, k = game
    table = tablebase.Tablebase(
        rows, cols, k, implementation("mnk.tablebase", backend).build(*game)
    )
    positions = sorted(reachable(*game))
    boards = codes(rows, cols, positions)
    if backend == "rust" and BACKEND == "rust":
        # Every position: the table's labels against the search's, moves included.
        ours = table.batch_solve(boards, moves=True)
        theirs = mnk.batch_solve(boards, k, moves=True)
        for field in (
            "value",
            "plies",
            "best_move",
            "best_mask",
            "status",
            "move_value",
            "move_plies",
        ):
            assert np.array_equal(getattr(ours, field), getattr(theirs, field)), field
    else:
        # The twin's search, one memo for the whole game: every value and plies.
        from perfectplay._kernel import score
        from perfectplay.mnk import twin as twin

        geometry = twin.Geometry(rows, cols, k)
        search = twin.Search(geometry)
        value, plies = table.probe(boards)
        for row, (x, o) in enumerate(positions):
            root = (x, o) if twin.x_to_move(x, o) else (o, x)
            result = search.score(root)
            left = rows * cols - (x | o).bit_count()
            assert (value[row], plies[row]) == (score.value(result), score.plies(result, left))
    # Whole solutions (best moves and the line) on a sample, through the public functions.
    for x, o in random.Random(1).sample(positions, 300):
        board = text(rows, cols, x, o)
        assert table.solve(board) == mnk.solve(board, k)
        assert table.analyze(board) == mnk.analyze(board, k)


@pytest.mark.compiled
@pytest.mark.parametrize("game", [(4, 4, 4), (4, 4, 3)], ids=str)
def test_random_positions_of_4x4_equal_mnk_solve(game: tuple[int, int, int]) -> None:
    rows, cols, k = game
    table = tablebase.build(*game)
    rng = random.Random(sum(game))
    lines = windows(*game)
    boards: list[str] = []
    while len(boards) < 2000:
        x = o = 0
        for turn, cell in enumerate(rng.sample(range(16), rng.randint(0, 12))):
            if any(x & w == w for w in lines) or any(o & w == w for w in lines):
                break
            if turn % 2 == 0:
                x |= 1 << cell
            else:
                o |= 1 << cell
        boards.append(text(rows, cols, x, o))
    for board in boards:
        assert table.solve(board) == mnk.solve(board, k), board
    batch = table.batch_solve(boards, moves=True)
    search = mnk.batch_solve(boards, k, moves=True)
    for field in ("value", "plies", "best_mask", "move_value", "move_plies"):
        assert np.array_equal(getattr(batch, field), getattr(search, field)), field
    value, plies = table.probe(boards)
    assert np.array_equal(value, search.value) and np.array_equal(plies, search.plies)


@pytest.mark.both_backends
def test_the_twin_probes_a_compiled_table_alike() -> None:
    data = implementation("mnk.tablebase", "rust").build(4, 4, 4)
    rust, python = (
        implementation("mnk.tablebase", "rust"),
        implementation("mnk.tablebase", "python"),
    )
    rng = random.Random(3)
    positions = rng.sample(sorted(reachable(3, 3, 3)), 50)  # small boards only for the twin
    small = implementation("mnk.tablebase", "rust").build(3, 3, 3)
    for x, o in positions:
        board = text(3, 3, x, o)
        assert rust.solve(small, 3, 3, 3, board) == python.solve(small, 3, 3, 3, board)
        assert rust.analyze(small, 3, 3, 3, board) == python.analyze(small, 3, 3, 3, board)
    boards = codes(4, 4, [(0, 0), (1, 2), (1 | 4, 2 | 8)]).reshape(3, 4, 4)
    for got, want in zip(
        rust.label_rows(data, 4, 4, 4, boards, moves=True),
        python.label_rows(data, 4, 4, 4, boards, moves=True),
        strict=True,
    ):
        assert np.array_equal(got, want)


def test_mnk_functions_answer_from_a_table(backend: str) -> None:
    # ``tablebase=`` is answered above both backends, by the public module.
    functions = mnk
    table = tablebase.Tablebase(4, 3, 3, implementation("mnk.tablebase", backend).build(4, 3, 3))
    board = "x../.o./.../..."
    assert functions.solve(board, 3, tablebase=table) == mnk.solve(board, 3)
    assert functions.solve(board, 3, tablebase=table).nodes == 0
    assert functions.analyze(board, 3, tablebase=table) == mnk.analyze(board, 3)
    assert functions.best_move(board, 3, tablebase=table) == mnk.best_move(board, 3)
    assert functions.solve_empty(4, 3, 3, tablebase=table) == mnk.solve_empty(4, 3, 3)
    batch = functions.batch_solve([board, ".../.../.../..."], 3, tablebase=table)
    assert list(batch.value) == [mnk.solve(board, 3).value, mnk.solve_empty(4, 3, 3).value]
    with pytest.raises(ValueError, match="k=3, not k=4"):
        functions.solve(board, 4, tablebase=table)
    with pytest.raises(ValueError, match="the board is 3x3"):
        functions.solve("x../.../...", 3, tablebase=table)
    with pytest.raises(IllegalPosition, match="marks"):
        functions.solve("xx./.../.../...", 3, tablebase=table)
    # The other options are checked as the search checks them; the table's own pass on.
    with pytest.raises(TypeError, match=r"solve\(\) got an unexpected keyword argument 'book'"):
        functions.solve(board, 3, tablebase=table, book=None)
    with pytest.raises(ValueError, match="table_mb"):
        functions.analyze(board, 3, tablebase=table, table_mb=0)
    with_moves = functions.batch_solve([board], k=3, tablebase=table, moves=True, node_limit=9)
    assert with_moves.move_value is not None and with_moves.move_value.shape == (1, 12)
    assert functions.batch_solve([board], 3, tablebase=table).move_value is None
    position = mnk.Position(board, 3)
    assert position.solve(tablebase=table) == position.solve()
    assert position.analyze(tablebase=table) == position.analyze()


def test_batch_errors_raise_or_mask_like_the_search(backend: str) -> None:
    table = tablebase.Tablebase(3, 3, 3, implementation("mnk.tablebase", backend).build(3, 3, 3))
    boards = np.array(
        [
            [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
            [[1, 1, 1], [0, 0, 0], [0, 0, 0]],
            [[1, 3, 0], [0, 0, 0], [0, 0, 0]],
            [[1, 2, 0], [0, 0, 0], [0, 0, 0]],
        ],
        dtype=np.int16,
    )
    masked = table.batch_solve(boards, errors="mask", moves=True)
    assert list(masked.status) == [0, 1, 1, 0]
    search = mnk.batch_solve(boards, 3, errors="mask", moves=True)
    for field in ("value", "plies", "best_move", "best_mask", "status", "move_value", "move_plies"):
        assert np.array_equal(getattr(masked, field), getattr(search, field)), field
    with pytest.raises(IllegalPosition, match=r"^row 1: X has 3 marks"):
        table.batch_solve(boards)
    with pytest.raises(ValueError, match=r"^row 0: cell value 3"):
        table.batch_solve(boards[2:])
    with pytest.raises(TypeError, match="integer array"):
        table.batch_solve(boards.astype(float))
    with pytest.raises(ValueError, match=r"shape \(N, 3, 3\)"):
        table.batch_solve(boards.reshape(4, 9))
    value, plies = table.probe(boards, errors="mask")
    last = mnk.solve(boards[3], 3)
    assert list(value) == [0, 0, 0, last.value] and list(plies) == [9, -1, -1, last.plies]


def test_stats_report_the_whole_game(backend: str) -> None:
    table = tablebase.Tablebase(4, 3, 3, implementation("mnk.tablebase", backend).build(4, 3, 3))
    stats = table.stats()
    positions = reachable(4, 3, 3)
    assert stats["reachable"] == len(positions) == sum(stats["by_value"].values())
    assert sum(stats["by_value_plies"].values()) == len(positions)
    # Up to symmetry, counted here by the smallest image of each position.
    maps = []
    for flip_rows in (False, True):
        for flip_cols in (False, True):
            maps.append(
                [
                    (3 - r if flip_rows else r) * 3 + (2 - c if flip_cols else c)
                    for r in range(4)
                    for c in range(3)
                ]
            )

    def image(mask: int, m: list[int]) -> int:
        return sum(1 << m[cell] for cell in range(12) if mask >> cell & 1)

    assert stats["canonical"] == len(
        {min((image(x, m), image(o, m)) for m in maps) for x, o in positions}
    )
    longest = stats["longest"]
    assert mnk.solve(longest["board"], 3).plies == longest["plies"]
    assert longest["plies"] == max(plies for (_, plies) in stats["by_value_plies"])


def test_files_round_trip_and_load_lazily(tmp_path: Path, backend: str) -> None:
    table = tablebase.Tablebase(4, 3, 3, implementation("mnk.tablebase", backend).build(4, 3, 3))
    path = tmp_path / "433.tb"
    table.save(path)
    loaded = tablebase.load(path)
    path.unlink()  # the header was read; the entries are read at the first answer
    with pytest.raises(FileNotFoundError):
        loaded.solve("x../.o./.../...")
    table.save(path)
    assert loaded.data.tobytes() == table.data.tobytes()
    assert not isinstance(loaded.data, np.memmap) and not loaded.data.flags.writeable
    assert (loaded.rows, loaded.cols, loaded.k) == (4, 3, 3)
    assert loaded.solve("x../.o./.../...") == table.solve("x../.o./.../...")
    assert loaded.stats() == table.stats()


def _damaged(path: Path, tmp_path: Path, name: str, change: Any) -> Path:
    raw = bytearray(path.read_bytes())
    out = tmp_path / name
    out.write_bytes(bytes(change(raw)))
    return out


@pytest.fixture(scope="module")
def saved_433(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tb") / "433.tb"
    tablebase.build(4, 3, 3).save(path)
    return path


def flip(raw: bytearray, at: int) -> bytearray:
    raw[at] ^= 0x40
    return raw


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("empty", lambda raw: b"", "empty file"),
        ("foreign", lambda raw: b"PK\x03\x04" + raw[4:], "not a perfectplay tablebase"),
        ("truncated header", lambda raw: raw[:30], "truncated inside its header"),
        ("truncated data", lambda raw: raw[:-1000], "truncated or extended"),
        ("extended", lambda raw: raw + b"\0", "truncated or extended"),
        ("version", lambda raw: raw[:8] + struct.pack("<I", 9) + raw[12:], "version 9"),
        ("header byte", lambda raw: flip(raw, 60), "header is damaged"),
        ("board size", lambda raw: raw[:12] + bytes([9, 9]) + raw[14:], "header is damaged"),
    ],
)
def test_bad_files_are_value_errors_at_load(
    saved_433: Path, tmp_path: Path, name: str, change: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        tablebase.load(_damaged(saved_433, tmp_path, name.replace(" ", "_"), change))


def test_a_flipped_data_byte_is_found_before_any_answer(saved_433: Path, tmp_path: Path) -> None:
    size = saved_433.stat().st_size
    damaged = _damaged(saved_433, tmp_path, "data.tb", lambda raw: flip(raw, size - 5000))
    table = tablebase.load(damaged)  # the header is intact: loading reads nothing else
    with pytest.raises(ValueError, match=r"tier .* checksum does not match"):
        table.solve("x../.../.../...")
    with pytest.raises(ValueError, match="checksum"):
        tablebase.load(damaged).verify()


def test_a_damaged_table_is_never_saved_with_fresh_checksums(
    saved_433: Path, tmp_path: Path
) -> None:
    size = saved_433.stat().st_size
    damaged = _damaged(saved_433, tmp_path, "launder.tb", lambda raw: flip(raw, size - 5000))
    copy = tmp_path / "copy.tb"
    with pytest.raises(ValueError, match="checksum does not match"):
        tablebase.load(damaged).save(copy)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["launder.tb"]


def test_save_replaces_whole_through_a_private_temporary_file(tmp_path: Path) -> None:
    table = tablebase.build(3, 3, 3)
    # The old fixed temporary name is no way in: a link there is left alone.
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "out.tb.partial").symlink_to(victim)
    target = tmp_path / "out.tb"
    table.save(target)
    assert victim.read_text() == "keep me"
    assert tablebase.load(target).stats() == table.stats()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    target.chmod(0o600)
    table.save(target)  # a replaced file keeps its mode
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tb", "out.tb.partial", "victim.txt"]


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_save_refuses_targets_that_are_not_regular_files(tmp_path: Path, kind: str) -> None:
    table = tablebase.build(3, 3, 3)
    target = {
        "directory": tmp_path / "dir",
        "fifo": tmp_path / "fifo",
        "device": Path("/dev/null"),
    }[kind]
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    with pytest.raises(ValueError, match="is not a regular file"):
        table.save(target)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]
    assert Path("/dev/null").is_char_device()


def test_a_failed_save_leaves_nothing_behind(tmp_path: Path) -> None:
    # A file-size limit makes the write fail part way (as a full disk would).
    code = f"""
import resource, signal
from perfectplay import tablebase
table = tablebase.build(4, 3, 3)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
try:
    table.save({str(tmp_path / "big.tb")!r})
except OSError as error:
    print("failed:", error.strerror)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.startswith("failed: File too large"), result.stderr
    assert list(tmp_path.iterdir()) == []


def test_forged_entries_are_errors_not_crashes(backend: str) -> None:
    """Random bytes where the entries should be (a file whose checksums were forged to fit):
    every answer is a ValueError naming the damage, never a crash or a panic."""
    core = implementation("mnk.tablebase", backend)
    data = np.random.default_rng(0).integers(0, 256, size=6046, dtype=np.uint8)
    with pytest.raises(ValueError, match="damaged"):
        core.solve(data, 3, 3, 3, ".../.../...")
    with pytest.raises(ValueError, match="damaged"):
        core.stats(data, 3, 3, 3)
    for board in ("x../.../...", "xo./.x./...", "xo./xo./x.."):
        try:
            core.analyze(data, 3, 3, 3, board)
        except ValueError as error:
            assert "damaged" in str(error)


def test_a_table_of_another_board_refuses_the_board(backend: str) -> None:
    table = tablebase.Tablebase(3, 3, 3, implementation("mnk.tablebase", backend).build(3, 3, 3))
    with pytest.raises(ValueError, match="the board is 4x3, but the tablebase is for 3x3"):
        table.solve("x../.../.../...")
    with pytest.raises(ValueError, match="k=3, not k=2"):
        table.solve("x../.../...", 2)
    with pytest.raises(ValueError, match="up to 20 cells"):
        tablebase.build(7, 3, 3)
    with pytest.raises(ValueError, match="k must be"):
        tablebase.build(3, 3, 4)
    with pytest.raises(ValueError, match="has 6046 entries, not 10"):
        tablebase.Tablebase(3, 3, 3, np.zeros(10, dtype=np.uint8))


@pytest.mark.compiled
def test_ctrl_c_stops_a_build_within_a_second() -> None:
    assert_ctrl_c_stops_within_a_second(
        "from perfectplay import tablebase", "tablebase.build(5, 4, 4, threads=2)", after=1.5
    )


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "433.tb"
    assert main(["tablebase", "build", "4x3", "3", "-o", str(path), "--threads", "2"]) == 0
    assert "tablebase 4x3 k=3" in capsys.readouterr().err  # the progress bar
    assert main(["tablebase", "stats", str(path)]) == 0
    out = capsys.readouterr().out
    assert "reachable positions: 111,973" in out and "from the empty board: x in 7" in out
    assert main(["tablebase", "probe", str(path), "x../.o./.../..."]) == 0
    assert "best moves:" in capsys.readouterr().out
    assert main(["tablebase", "probe", str(path), "x../.../..."]) == 1
    assert "the board is 3x3" in capsys.readouterr().err
    (tmp_path / "junk.tb").write_bytes(b"junk")
    assert main(["tablebase", "stats", str(tmp_path / "junk.tb")]) == 1
    assert "not a perfectplay tablebase" in capsys.readouterr().err


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "table.fifo"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO"), ("/dev/zero", "a device"), (tmp_path, "a directory")):
        with pytest.raises(ValueError, match=f"{kind}, not a regular file"):
            tablebase.load(path)
    # /proc files are regular but claim size 0 while holding text: not a tablebase.
    with pytest.raises(ValueError, match="not a perfectplay tablebase"):
        tablebase.load("/proc/self/status")


def test_the_first_probes_of_a_fresh_load_race_safely(saved_433: Path) -> None:
    # Eight threads on one freshly loaded table: each first probe may be the one verifying.
    from concurrent.futures import ThreadPoolExecutor

    expected = mnk.solve("x../.../.../...", 3)
    for _ in range(20):
        table = tablebase.load(saved_433)
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(type(table).solve, [table] * 8, ["x../.../.../..."] * 8))
        assert all(answer.value == expected.value for answer in answers)


# A file changed under a loaded table: answers stay right or the change is named, never a
# crash. A mapped file that shrinks kills its reader with SIGBUS, so each case runs in a
# process of its own.
CHANGED_FILE = """
import os, shutil, sys
from perfectplay import mnk, tablebase
path, other, board, k, when, how = sys.argv[1:]
table = tablebase.load(path)
if when == "after":
    table.verify()
if how.startswith("cut"):
    os.truncate(path, int(how[3:]))
else:
    shutil.copyfile(other, path)  # written into the same file, as cp does
try:
    print(table.solve(board) == mnk.solve(board, int(k)))
except ValueError as error:
    print("ValueError:", error)
"""


@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize("how", ["cut4096", "cut50000", "cut0", "copy"])
def test_a_file_changed_under_a_loaded_table(
    saved_433: Path, tmp_path: Path, backend: str, when: str, how: str
) -> None:
    path = tmp_path / "m.tb"
    path.write_bytes(saved_433.read_bytes())
    # The same entries under a 3x4 header (whose tiers have the same sizes).
    loaded = tablebase.load(saved_433)
    assert loaded._stored is not None
    other = tmp_path / "other.tb"
    other.write_bytes(
        tablebase._header(3, 4, 3, loaded.sizes, loaded._stored.crcs)
        + saved_433.read_bytes()[len(loaded._stored.header) :]
    )
    board = "x../.o./.../..."
    result = subprocess.run(
        [sys.executable, "-c", CHANGED_FILE, str(path), str(other), board, "3", when, how],
        capture_output=True,
        text=True,
        env={**os.environ, "PERFECTPLAY_BACKEND": backend},
    )
    assert result.returncode == 0, result.stderr
    if when == "after":
        assert result.stdout == "True\n"  # answered from the copy read at the first answer
    else:
        assert result.stdout.startswith("ValueError:") and "changed since it was loaded" in (
            result.stdout
        )


@pytest.mark.compiled
@pytest.mark.parametrize("cut", [4096, 1_000_000, 5_000_000])
def test_a_large_table_cut_after_loading(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "444.tb"
    tablebase.build(4, 4, 4).save(path)  # 10 MB
    board = "x.../..../..../...."
    for when in ("before", "after"):
        result = subprocess.run(
            [sys.executable, "-c", CHANGED_FILE, str(path), "-", board, "4", when, f"cut{cut}"],
            capture_output=True,
            text=True,
            env={**os.environ, "PERFECTPLAY_BACKEND": "rust"},
        )
        assert result.returncode == 0, result.stderr
        expected = "True\n" if when == "after" else "ValueError:"
        assert result.stdout.startswith(expected), result.stdout
        tablebase.build(4, 4, 4).save(path)


def _forged(path: Path, out: Path, change: Any) -> Path:
    """``path``'s table rewritten by ``change(rows, cols, k, data)`` with every checksum made
    to fit: what a forger (or a buggy writer) would produce."""
    table = tablebase.load(path)
    rows, cols, k, data = change(table.rows, table.cols, table.k, table.data.copy())
    sizes = list(implementation("mnk.tablebase").sizes(rows, cols, k))
    crcs, start = [], 0
    for size in sizes:
        crcs.append(zlib.crc32(data[start : start + size].tobytes()))
        start += size
    out.write_bytes(tablebase._header(rows, cols, k, sizes, crcs) + data.tobytes())
    return out


def _flip_root(rows: int, cols: int, k: int, data: np.ndarray[Any, Any]) -> Any:
    data[0] = 128 - data[0]
    return rows, cols, k, data


def _negated(rows: int, cols: int, k: int, data: np.ndarray[Any, Any]) -> Any:
    reached = data != 0
    data[reached] = 128 - data[reached]
    return rows, cols, k, data


def _all_draws(rows: int, cols: int, k: int, data: np.ndarray[Any, Any]) -> Any:
    data[data != 0] = 64
    return rows, cols, k, data


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("k set to 1", lambda rows, cols, k, data: (rows, cols, 1, data)),
        ("k set to 2", lambda rows, cols, k, data: (rows, cols, 2, data)),
        ("rows and cols swapped", lambda rows, cols, k, data: (cols, rows, k, data)),
        ("root flipped", _flip_root),
        ("values negated", _negated),
        ("all draws", _all_draws),
    ],
)
def test_forged_tables_are_refused_before_any_answer(
    saved_433: Path, tmp_path: Path, backend: str, name: str, change: Any
) -> None:
    forged = _forged(saved_433, tmp_path / "forged.tb", change)
    table = tablebase.load(forged)  # the header and its checksums are consistent
    with pytest.raises(ValueError, match="damaged or not this game's"):
        table.solve(f"x{'.' * (table.cols - 1)}/" + "/".join(["." * table.cols] * (table.rows - 1)))
    with pytest.raises(ValueError, match="damaged or not this game's"):
        tablebase.load(forged).stats()
    with pytest.raises(ValueError, match="damaged or not this game's"):
        tablebase.load(forged).save(tmp_path / "laundered.tb")
    assert not (tmp_path / "laundered.tb").exists()
    assert main(["tablebase", "verify", str(forged)]) == 1


def _passes(check: Any, data: np.ndarray[Any, Any]) -> bool:
    try:
        check(data, 3, 3, 3, 1024)
    except ValueError:
        return False
    return True


def test_one_changed_entry_is_found_by_the_deep_check(
    tmp_path: Path, backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    built = tmp_path / "333.tb"
    tablebase.build(3, 3, 3).save(built)
    assert main(["tablebase", "verify", str(built), "--deep"]) == 0
    assert "every entry agrees with the rules" in capsys.readouterr().out
    entries = tablebase.load(built).data
    compiled = implementation("mnk.tablebase", "rust")

    def changed(index: int) -> np.ndarray[Any, Any]:
        data: np.ndarray[Any, Any] = entries.copy()
        data[index] = 64 if data[index] != 64 else 66
        return data

    # An entry whose change the sample misses: neither it nor a parent is sampled (or the
    # parents' values do not move).
    index = next(
        index
        for index in range(len(entries) // 2, len(entries))
        if entries[index] != 0 and _passes(compiled.check_sample, changed(index))
    )

    def change(rows: int, cols: int, k: int, data: np.ndarray[Any, Any]) -> Any:
        return rows, cols, k, changed(index)

    forged = _forged(built, tmp_path / "one.tb", change)
    tablebase.load(forged).verify()  # checksums fit and the sample misses it
    # The first wrong entry in table order is named: the changed one or a parent of it.
    with pytest.raises(ValueError, match="is not what the rules and its children make it"):
        tablebase.load(forged).verify(deep=True)
    assert main(["tablebase", "verify", str(forged), "--deep"]) == 1
    assert "is not what the rules" in capsys.readouterr().err
    assert main(["tablebase", "verify", str(forged)]) == 0


@pytest.mark.both_backends
def test_both_backends_check_tables_alike(saved_433: Path, tmp_path: Path) -> None:
    for change in (_flip_root, _negated, _all_draws):
        data = change(4, 3, 3, tablebase.load(saved_433).data.copy())[3]
        messages = set()
        for backend in ("rust", "python"):
            with pytest.raises(ValueError) as error:
                implementation("mnk.tablebase", backend).check_sample(data, 4, 3, 3, 1024)
            messages.add(str(error.value))
        assert len(messages) == 1, messages
