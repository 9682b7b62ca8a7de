"""Batches too large for the memory a process may use: a ``MemoryError``, never an abort.

Each case runs in a fresh process whose address space is limited (``RLIMIT_AS``) to what it
holds after the import plus ``ROOM`` bytes; the batch's result columns alone need more. Every
game's batch is tried with every set of result columns it can fill (values only, the best
moves, every move's answer), from a list of boards (each row's board copied by the core) and
from a broadcast array (read in place: only the columns take memory). After the refusal the
same process answers a small batch: nothing is left half-allocated.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

ROOM = 768 << 20

# name: (a batch call of ``boards``, a board of the list, a numpy board of codes (None: no
# array case), the bytes a row's columns take at the least).
CALLS = {
    "tictactoe values": ("tictactoe.batch_values(boards)", "'x........'", "[1] + [0] * 8", 1),
    "tictactoe best": ("tictactoe.batch_solve(boards)", "'x........'", "[1] + [0] * 8", 15),
    "tictactoe moves": (
        "tictactoe.batch_solve(boards, moves=True)",
        "'x........'",
        "[1] + [0] * 8",
        42,
    ),
    "mnk best": (
        "mnk.batch_solve(boards, 3)",
        "'x........'",
        "[[1, 0, 0], [0] * 3, [0] * 3]",
        15,
    ),
    "mnk moves": (
        "mnk.batch_solve(boards, 3, moves=True)",
        "'x........'",
        "[[1, 0, 0], [0] * 3, [0] * 3]",
        42,
    ),
    "connect4 best": ("connect4.batch_solve(boards, book=None)", "'4453'", None, 13),
    "connect4 moves": (
        "connect4.batch_solve(boards, moves=True, book=None)",
        "'4453'",
        None,
        34,
    ),
    "footholds best": (
        "footholds.batch_solve(boards, [1, 0], [1, 2])",
        "'111/111/111'",
        "[[1] * 3] * 3",
        15,
    ),
    "footholds moves": (
        "footholds.batch_solve(boards, [1, 0], [1, 2], moves=True)",
        "'111/111/111'",
        "[[1] * 3] * 3",
        42,
    ),
}

SCRIPT = """
import resource, sys
import numpy as np
from perfectplay import connect4, footholds, mnk, tictactoe

def used() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")

small = {board}
assert len(np.atleast_1d({call_of_small}).ravel()) >= 1
rows = {rows}
if {kind!r} == "list":
    boards = [small] * rows
else:
    boards = np.broadcast_to(np.array({codes}, np.uint8), (rows, *np.shape({codes})))
limit = used() + {room}
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    {call}
except MemoryError as error:
    print("MemoryError", error)
else:
    print("answered")
del boards
boards = [small] * 3
result = {call}
print("then", len(getattr(result, "value", result)))
"""


def cases() -> list[tuple[str, str, int]]:
    """An array whose columns alone need three times the room (refused before any row is
    solved), and a list whose rows' copies need more than the room (refused part of the way
    through them, where each row's small allocation would otherwise abort the process)."""
    found = []
    for name, (_, _, codes, row_bytes) in CALLS.items():
        if codes is not None:
            found.append((name, "array", 3 * ROOM // row_bytes))
        found.append((name, "list", ROOM // 48))
    return found


@pytest.mark.compiled
@pytest.mark.parametrize(("name", "kind", "rows"), cases())
def test_a_batch_too_large_for_memory_is_a_memory_error(name: str, kind: str, rows: int) -> None:
    call, board, codes, _ = CALLS[name]
    script = SCRIPT.format(
        board=board,
        call_of_small=call.replace("boards", f"[{board}]", 1),
        rows=rows,
        kind=kind,
        codes=codes,
        room=ROOM,
        call=call,
    )
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PERFECTPLAY_BACKEND": "rust", "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    first, then = run.stdout.splitlines()
    assert first.startswith("MemoryError"), run.stdout
    assert then == "then 3"
