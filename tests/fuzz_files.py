"""Fuzz target: hostile files, programs and threads, on the backend ``PERFECTPLAY_BACKEND`` names.

    python tests/fuzz_files.py [--examples N] [--seed S]

* **Tablebase files**: a saved (3,3,3) and (4,3,3) table cut, extended, bit-flipped, its
  header fields rewritten with a fitting header checksum, its entries rewritten wholesale or
  one by one with fitting tier checksums. Whatever happens, ``load``, ``solve``, ``analyze``,
  ``stats`` and ``save`` give the right answer or a ``ValueError``; every change the checks
  promise to catch (all but a few entries rewritten with fresh checksums) is a ``ValueError``
  before any answer; nothing is left half-written.
* **.npy inputs** of ``perfectplay label``: cut, bit-flipped, their header text and length
  rewritten: exit status 0 with a whole ``.npz``, or 1 with one line on standard error.
* **Concurrency**: threads probing a freshly loaded table while its file is cut or replaced
  (the right answer or a ``ValueError``, the same for every thread of one load); threads
  labelling a tic-tac-toe array that another thread keeps changing (answers or
  ``ValueError``s, never another exception).
* **Programs under test** of ``perfectplay stress``: hostile ones (bytes that are not UTF-8,
  endless output, death by signal, a closed output, forked children, sleeping past the limit):
  a ``Failure`` or a pass, never an exception, and nothing they started left running.

Being run in a subprocess (tests/test_hostile.py) also shows that the process survives. Exit
status 0 when every example passed; hypothesis prints the smallest failing one otherwise.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from perfectplay import BACKEND, mnk, stress, tablebase, tictactoe
from perfectplay.cli import main as cli

WORK = Path(tempfile.mkdtemp(prefix="perfectplay-fuzz-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)  # the run leaves nothing behind
BOARDS = {
    (3, 3): [".../.../...", "x../.../...", "xo./.x./...", "xxo/oox/x.."],
    (4, 3): ["x../.o./.../...", ".../.../.../...", "xo./xo./.../..."],
}
GAMES = [(3, 3, 3), (4, 3, 3)]
SAVED = {}
for rows, cols, k in GAMES:
    path = WORK / f"{rows}{cols}{k}.tb"
    tablebase.build(rows, cols, k).save(path)
    SAVED[rows, cols] = path.read_bytes()
_FIXED = struct.Struct("<8sIBBBBQ")


def _layout(raw: bytes) -> tuple[int, int, int]:
    """(cells, where the tier checksums start, where the entries start) of a saved table."""
    rows, cols = raw[12], raw[13]
    cells = rows * cols
    crcs = _FIXED.size + (cells + 1) * 8
    header = crcs + (cells + 1) * 4 + 4
    return cells, crcs, header + (-header % 64)


def _refit(raw: bytearray, header_only: bool = False) -> bytes:
    """Checksums recomputed to fit the bytes: a forger's file."""
    cells, crcs_at, data_at = _layout(bytes(raw))
    if not header_only:
        sizes = struct.unpack_from(f"<{cells + 1}Q", raw, _FIXED.size)
        start = data_at
        for tier, size in enumerate(sizes):
            crc = zlib.crc32(bytes(raw[start : start + size]))
            struct.pack_into("<I", raw, crcs_at + tier * 4, crc)
            start += size
    end = crcs_at + (cells + 1) * 4
    if end + 4 <= len(raw):  # a header naming a bigger board may not fit the file at all
        struct.pack_into("<I", raw, end, zlib.crc32(bytes(raw[:end])))
    return bytes(raw)


# A change and whether the checks promise to refuse it.
CAUGHT, MAYBE = True, False


@st.composite
def damaged_tables(draw: Any) -> tuple[tuple[int, int], bytes, bool, str]:
    shape = draw(st.sampled_from(sorted(SAVED)))
    raw = bytearray(SAVED[shape])
    _, _, data_at = _layout(bytes(raw))
    kind = draw(
        st.sampled_from(
            ["cut", "extend", "flip", "header", "wholesale", "entries", "entries-refit"]
        )
    )
    if kind == "cut":
        return shape, bytes(raw[: draw(st.integers(0, len(raw) - 1))]), CAUGHT, kind
    if kind == "extend":
        return shape, bytes(raw) + draw(st.binary(min_size=1, max_size=100)), CAUGHT, kind
    if kind == "flip":
        at = draw(st.integers(0, len(raw) - 1))
        raw[at] ^= 1 << draw(st.integers(0, 7))
        # A flip in the header's padding changes nothing that is read.
        padding = _layout(SAVED[shape])[1] + (raw[12] * raw[13] + 1) * 4 + 4
        return shape, bytes(raw), not padding <= at < data_at, kind
    if kind == "header":
        field = draw(st.sampled_from([12, 13, 14]))  # rows, cols, k
        raw[field] = draw(st.integers(0, 255).filter(lambda v: v != raw[field]))
        return shape, _refit(raw, header_only=True), CAUGHT, kind
    if kind == "wholesale":
        data = np.frombuffer(bytes(raw[data_at:]), dtype=np.uint8).copy()
        how = draw(st.sampled_from(["draws", "negate", "shuffle", "random"]))
        reached = data != 0
        if how == "draws":
            data[reached] = 64
        elif how == "negate":
            data[reached] = 128 - data[reached]
        elif how == "shuffle":
            data[reached] = np.random.default_rng(draw(st.integers(0, 99))).permutation(
                data[reached]
            )
        else:
            data[:] = np.random.default_rng(draw(st.integers(0, 99))).integers(0, 256, len(data))
        raw[data_at:] = data.tobytes()
        return shape, _refit(raw), CAUGHT, f"wholesale-{how}"
    # A few entries changed: caught by the checksums, unless they were refitted.
    for _ in range(draw(st.integers(1, 3))):
        at = data_at + draw(st.integers(0, len(raw) - data_at - 1))
        raw[at] = draw(st.integers(0, 255))
    if kind == "entries":
        return shape, bytes(raw), bytes(raw) != SAVED[shape], kind
    return shape, _refit(raw), MAYBE, kind


def check_table(shape: tuple[int, int], raw: bytes, caught: bool, kind: str) -> None:
    path = WORK / "fuzzed.tb"
    path.write_bytes(raw)
    refused = False
    try:
        table = tablebase.load(path)
        for board in BOARDS[shape]:
            answer = table.solve(board)
            assert answer == mnk.solve(board, 3) or kind == "entries-refit", (kind, board)
            table.analyze(board)
        table.stats()
        copy = WORK / "copy.tb"
        table.save(copy)
        assert tablebase.load(copy).data.tobytes() == table.data.tobytes()
    except ValueError:
        refused = True
    assert refused or not caught, f"{kind}: not refused"
    leftovers = [p.name for p in WORK.iterdir() if p.name.endswith(".partial")]
    assert not leftovers, leftovers


@st.composite
def damaged_npy(draw: Any) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.zeros((draw(st.integers(0, 4)), 3, 3), dtype=np.uint8))
    raw = bytearray(buffer.getvalue())
    kind = draw(st.sampled_from(["cut", "flip", "header", "length"]))
    if kind == "cut":
        return bytes(raw[: draw(st.integers(0, len(raw)))])
    if kind == "flip":
        at = draw(st.integers(0, len(raw) - 1))
        raw[at] ^= 1 << draw(st.integers(0, 7))
        return bytes(raw)
    if kind == "length":
        struct.pack_into("<H", raw, 8, draw(st.integers(0, 0xFFFF)))
        return bytes(raw)
    header: str = draw(
        st.sampled_from(
            [
                "{'descr': '|u1', 'fortran_order': False, 'shape': (99999999999, 3, 3), }",
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3, 3), }",
                "{'descr': '|O', 'fortran_order': False, 'shape': (1, 3, 3), }",
                "{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3, 3), }",
                "{'descr': '|u1', 'fortran_order': False, 'shape': (-1, 3, 3), }",
                "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }",
                "__import__('os').system('echo pwned')",
            ]
        )
    )
    text = header.encode()
    text += b" " * (-(10 + len(text) + 1) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + bytes(raw[128:])


def check_npy(raw: bytes) -> None:
    boards, out = WORK / "boards.npy", WORK / "labels.npz"
    boards.write_bytes(raw)
    with contextlib.suppress(FileNotFoundError):
        out.unlink()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli(["label", "mnk", str(boards), "-o", str(out), "--k", "3"])
    if status == 0:
        with np.load(out) as labels:
            assert set(labels.files) >= {"value", "plies", "status"}
    else:
        assert status == 1 and err.getvalue().count("\n") == 1, err.getvalue()
        assert not out.exists()
    assert "pwned" not in err.getvalue()


def check_racing_table(how: str, threads: int) -> None:
    path = WORK / "racing.tb"
    path.write_bytes(SAVED[4, 3])
    table = tablebase.load(path)
    board = "x../.o./.../..."
    expected = mnk.solve(board, 3)
    results: list[Any] = []

    def probe() -> None:
        try:
            results.append(table.solve(board) == expected)
        except ValueError:
            results.append("refused")

    workers = [threading.Thread(target=probe) for _ in range(threads)]
    for worker in workers:
        worker.start()
    if how == "cut":
        os.truncate(path, 4096)
    else:
        path.write_bytes(SAVED[3, 3])
    for worker in workers:
        worker.join()
    # One load reads its file once: every thread got the same outcome, right or refused.
    assert len(set(results)) == 1 and False not in results, results


def check_racing_batch(toggles: int) -> None:
    boards = np.zeros((2000, 9), dtype=np.uint8)
    stop = threading.Event()

    def toggle() -> None:
        while not stop.is_set():
            for _ in range(toggles):
                boards[0, 0] ^= 1
            time.sleep(0)

    other = threading.Thread(target=toggle)
    other.start()
    try:
        for _ in range(5):
            with contextlib.suppress(ValueError):
                tictactoe.batch_solve(boards)
    finally:
        stop.set()
        other.join()


HOSTILE_PROGRAMS = {
    "not utf-8": "import sys; sys.stdout.buffer.write(bytes(range(256)) * 10)",
    "endless output": "import sys\nwhile True: sys.stdout.write('x' * 65536)",
    "killed": "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
    "closed output": "import os; os.close(1); input()",
    "children": "import os, time\nfor _ in range(3):\n    if os.fork() == 0: time.sleep(300)\n",
    "sleeps": "import time; time.sleep(300)",
    "reads nothing": "print('D')",
    "huge stderr": "import sys; sys.stderr.write('e' * (1 << 20)); sys.exit(1)",
}


def check_program(behaviour: str) -> None:
    marker = f"perfectplay-fuzz-{os.getpid()}-{time.monotonic_ns()}"
    code = f"MARKER = {marker!r}\n" + HOSTILE_PROGRAMS[behaviour]
    failure = stress.check("alpha", [sys.executable, "-c", code], ["x........"], time_limit=1.0)
    kinds = (stress.WRONG, stress.CRASH, stress.TIME, stress.OUTPUT)
    assert failure is None or failure.kind in kinds, failure
    time.sleep(0.1)
    running = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True).stdout
    assert marker not in running, f"{behaviour}: left running"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )

    @seed(args.seed)
    @options
    @given(damaged_tables())
    def tables(case: tuple[tuple[int, int], bytes, bool, str]) -> None:
        check_table(*case)

    @seed(args.seed)
    @options
    @given(damaged_npy())
    def npy(raw: bytes) -> None:
        check_npy(raw)

    @seed(args.seed)
    @settings(options, max_examples=max(args.examples // 10, 5))
    @given(st.sampled_from(["cut", "replace"]), st.integers(2, 8), st.integers(1, 50))
    def racing(how: str, threads: int, toggles: int) -> None:
        check_racing_table(how, threads)
        check_racing_batch(toggles)

    @seed(args.seed)
    @settings(options, max_examples=len(HOSTILE_PROGRAMS) * 2)
    @given(st.sampled_from(sorted(HOSTILE_PROGRAMS)))
    def programs(behaviour: str) -> None:
        check_program(behaviour)

    for target in (tables, npy, racing, programs):
        target()
    print(f"{args.examples} examples on the {BACKEND} backend: files, threads and programs held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
