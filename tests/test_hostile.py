"""Never a crash, never a hang: every way found to take the process down, each run in a fresh
interpreter (a crash fails the test instead of killing the run), on both backends; the fuzz
target over hostile arguments; the command line's clean failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest

from conftest import BACKENDS_UNDER_TEST

HERE = Path(__file__).parent

# Prints the class of what a call raised, or "ok" and the answer's repr.
PRELUDE = """
import numpy as np
from perfectplay import tictactoe, mnk, footholds
def show(call):
    try:
        answer = call()
    except BaseException as error:
        print(type(error).__name__)
    else:
        print("ok", answer.tolist() if isinstance(answer, np.ndarray) else answer)
"""


def run_python(code: str, backend: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PERFECTPLAY_BACKEND=backend)
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class Repro(NamedTuple):
    id: str
    code: str
    expected: str  # one line of output per show(...) in code


REPROS = [
    Repro(
        "rows x cols overflowing 64 bits",
        """
        show(lambda: mnk.solve_empty(2**32, 2**32, 3))
        show(lambda: mnk.solve_empty(2**33, 2**31, 5))
        show(lambda: mnk.solve_empty(4, 2**62, 2**62))
        show(lambda: mnk.solve_empty(2**200, 2**200, 3))
        """,
        "ValueError\nValueError\nValueError\nValueError",
    ),
    Repro(
        "table_mb beyond the stated limit, or more than the board can use",
        """
        show(lambda: mnk.solve_empty(2, 2, 2, table_mb=65536))
        show(lambda: mnk.solve_empty(2, 2, 2, table_mb=40000))
        show(lambda: mnk.solve_empty(2, 2, 2, table_mb=4096).value)
        """,
        "ValueError\nValueError\nok 1",
    ),
    Repro(
        "self-referential array-likes",
        """
        a = np.empty((), object); a[()] = a
        show(lambda: mnk.solve(a, 3))
        class Itself:
            shape = (3, 3)
            def tolist(self):
                return self
        show(lambda: tictactoe.value(Itself()))
        show(lambda: mnk.solve(Itself(), 3))
        show(lambda: footholds.solve(Itself(), (0, 0), (0, 0)))
        show(lambda: footholds.solve("11", Itself(), (0, 0)))
        items = []; items.append(items)
        show(lambda: tictactoe.value(items))
        """,
        "TypeError\nTypeError\nTypeError\nTypeError\nTypeError\nValueError",
    ),
    Repro(
        "a sequence claiming a huge length",
        """
        show(lambda: tictactoe.batch_values(range(10**12)))
        show(lambda: tictactoe.value(range(10**12)))
        """,
        "MemoryError\nValueError",
    ),
    Repro(
        "a batch claiming more rows than memory holds is refused before it is read",
        """
        from collections.abc import Sequence
        from perfectplay import connect4
        class Endless(Sequence):
            def __len__(self): raise OverflowError("too long")
            def __getitem__(self, row): return "........."
        for boards in (range(10**12), Endless()):
            show(lambda: tictactoe.batch_solve(boards))
            show(lambda: connect4.batch_solve(boards))
            show(lambda: mnk.batch_solve(boards, 3))
            show(lambda: footholds.batch_solve(boards, [0, 0], [1, 1]))
            show(lambda: footholds.batch_solve(["..", ".."], boards, [1, 1]))
        """,
        "MemoryError\n" * 10,
    ),
    Repro(
        "big-endian integer arrays read like native ones",
        """
        rows = [[1, 1, 0, 2, 2, 0, 0, 0, 0], [0] * 9]
        for dtype in (">i4", ">u2", ">i2", ">i8", "<i4"):
            show(lambda: tictactoe.batch_values(np.array(rows, dtype)))
        """,
        "ok [1, 0]\n" * 4 + "ok [1, 0]",
    ),
    Repro(
        "a misaligned C-contiguous array read like an aligned one",
        """
        a = np.zeros(37, np.uint8)[1:].view(np.int32).reshape(1, 9)
        a[0, :3] = [1, 1, 0]; a[0, 3:5] = 2
        show(lambda: tictactoe.batch_values(a))
        show(lambda: tictactoe.batch_best_move(a))
        """,
        "ok [1]\nok [2]",
    ),
    Repro(
        "table_mb of every numeric type",
        """
        from fractions import Fraction
        from decimal import Decimal
        for table_mb in (np.float32(1), np.int64(1), Fraction(1, 2), 10**400, Decimal(1),
                         True, float("nan"), -1, "1"):
            show(lambda: mnk.solve("x.../..../..../....", 3, table_mb=table_mb).value)
        """,
        "ok -1\nok -1\nok -1\nValueError\nTypeError\nTypeError\nValueError\nValueError\nTypeError",
    ),
    Repro(
        "a 2-D memoryview batch",
        """
        show(lambda: tictactoe.batch_values(memoryview(np.zeros((2, 9), np.uint8))))
        """,
        "TypeError",
    ),
    Repro(
        "k out of range is shown as given",
        """
        for k in (-5, 2**70, 0):
            try:
                mnk.solve("x./..", k)
            except ValueError as error:
                print(str(error).rsplit(" ", 1)[-1])
        """,
        "-5\n1180591620717411303424\n0",
    ),
    Repro(
        "huge inputs rejected by length, before conversion",
        """
        show(lambda: tictactoe.value([[0] * 10**7] * 3))
        show(lambda: mnk.solve([[0] * 10**7] * 3, 3))
        show(lambda: footholds.solve([[1] * 10**7], (0, 0), (0, 0)))
        show(lambda: footholds.solve("11", list(range(10**6)), (0, 0)))
        """,
        "ValueError\nValueError\nValueError\nValueError",
    ),
]


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
@pytest.mark.parametrize("repro", REPROS, ids=[repro.id for repro in REPROS])
def test_repro_in_a_fresh_interpreter(repro: Repro, backend: str) -> None:
    result = run_python(repro.code, backend)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == repro.expected.strip()


@pytest.mark.both_backends
def test_hostile_arguments_fuzzed_on_both_backends() -> None:
    """The fuzz target in a subprocess: only ValueError/TypeError/MemoryError, the same class
    on both backends, and the process survives."""
    examples = os.environ.get("PERFECTPLAY_FUZZ_EXAMPLES", "400")
    result = subprocess.run(
        [sys.executable, str(HERE / "fuzz_arguments.py"), "--examples", examples],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "both backends agree" in result.stdout


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
def test_hostile_files_threads_and_programs_fuzzed(backend: str) -> None:
    """The second fuzz target in a subprocess: damaged and forged tablebases, damaged .npy
    inputs, racing threads, hostile programs under test (see tests/fuzz_files.py)."""
    # A quarter of the argument target's examples: each one writes files or starts programs.
    examples = str(max(int(os.environ.get("PERFECTPLAY_FUZZ_EXAMPLES", "400")) // 4, 20))
    if backend == "python":  # the twin checks each loaded table slowly
        examples = str(max(int(examples) // 10, 20))
    result = subprocess.run(
        [sys.executable, str(HERE / "fuzz_files.py"), "--examples", examples],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PERFECTPLAY_BACKEND": backend},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"on the {backend} backend: files, threads and programs held" in result.stdout


def run_cli(command: str, stdin: bytes, backend: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="C", LC_ALL="C")  # a C locale: stdin is still read as UTF-8
    return subprocess.run(
        [sys.executable, "-m", "perfectplay", command, "--backend", backend],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
    )


class BadInput(NamedTuple):
    id: str
    command: str
    stdin: bytes
    stderr_words: str


BAD_INPUTS = [
    BadInput(
        "json integer of 5,000 digits",
        "footholds",
        json.dumps({"board": [[1]], "aloc": [0, 0], "bloc": [0, 0]})
        .replace("[0, 0]}", "[0, 0]")
        .encode()
        + b', "x": '
        + b"9" * 5000
        + b"}\n",
        "line 1: invalid JSON",
    ),
    BadInput("json nested 2,000 deep", "footholds", b"[" * 2000 + b"]" * 2000 + b"\n", "line 1"),
    BadInput("not UTF-8", "final", b"XXXOO.XXX\n\xff\xfe...\nend\n", "line 2: input is not UTF-8"),
    BadInput("a 10 MB bad line", "final", b"X" * 10_000_000 + b"\nend\n", "line 1: a board has"),
]


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
@pytest.mark.parametrize("bad", BAD_INPUTS, ids=[bad.id for bad in BAD_INPUTS])
def test_cli_bad_input_is_one_short_line(bad: BadInput, backend: str) -> None:
    result = run_cli(bad.command, bad.stdin, backend)
    stderr = result.stderr.decode()
    assert result.returncode == 1
    assert bad.stderr_words in stderr
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1 and len(stderr) < 400


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
def test_final_without_end_keeps_the_answers_and_says_so(backend: str) -> None:
    result = run_cli("final", b"XXXOO.XXX\nXOXOXOXOX\n", backend)
    assert (result.returncode, result.stdout) == (0, b"invalid\nvalid\n")
    assert b"without its 'end' line" in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("4294967296x4294967296", "3"), "board has 18446744073709551616 cells"),
        (("4x4", "-1"), "got -1"),
        (("3x3", "3", "--table-mb", "65536"), "table_mb must be more than 0 and at most 4096"),
    ],
)
def test_cli_mnk_sizes_from_input_are_checked(args: tuple[str, ...], words: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "perfectplay", "mnk", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert words in result.stderr
    assert "Traceback" not in result.stderr


class LyingList(list):  # type: ignore[type-arg]
    """A list whose own methods lie about its size and items."""

    def __len__(self) -> int:
        return 10**15

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter([[0, 0]])

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return [0, 0]


@pytest.mark.both_backends
def test_a_list_subclass_that_lies_is_read_as_it_is_on_both_backends() -> None:
    from perfectplay._kernel.backend import implementation

    answers = []
    for backend in ("rust", "python"):
        api = implementation("footholds", backend)
        answers.append(api.total_moves(LyingList([[1, 1]]), (0, 0), (0, 1)))
    assert answers == [1, 1]


@pytest.mark.both_backends
@pytest.mark.parametrize(
    "record, start",
    [
        ("4" * 7 + "1" * 100_000, "move 7 of '4444444111111111111111111111111111111111'..."),
        ("1 2\t" + "9" * 50, "move 3 of '1 2\\t" + "9" * 36 + "'... (54 characters)"),
        ("4444444", "move 7 of '4444444': column 4 is full"),
    ],
    ids=["100,007 characters", "a tab", "short"],
)
def test_a_long_move_string_is_quoted_short_and_alike_on_both_backends(
    record: str, start: str
) -> None:
    from perfectplay._kernel.backend import implementation

    messages = []
    for backend in ("rust", "python"):
        with pytest.raises(ValueError) as raised:
            implementation("connect4", backend).solve(record)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(start)
    assert len(messages[0]) < 150
    if len(record) > 40:
        assert f"({len(record)} characters)" in messages[0]
