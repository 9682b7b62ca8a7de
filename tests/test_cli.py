"""The command line: judge samples byte for byte on each backend, and clean failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import perfectplay
from conftest import load_json
from tests_support import perfectplay_command

SAMPLES = load_json("judge_samples.json")


def run(command: str, stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return perfectplay_command(command, *args, stdin=stdin, timeout=120)


def judge_cases() -> list[tuple[str, str, str]]:
    cases = []
    for command, samples in SAMPLES.items():
        for sample in samples if isinstance(samples, list) else [samples]:
            cases.append((command, sample["input"], sample["output"]))
    return cases


@pytest.mark.parametrize(("command", "stdin", "expected"), judge_cases())
def test_judge_samples_byte_for_byte(backend: str, command: str, stdin: str, expected: str) -> None:
    result = run(command, stdin, "--backend", backend)
    assert result.stderr == ""
    assert result.returncode == 0
    assert result.stdout == expected


def test_reads_a_file_argument(tmp_path: Path, backend: str) -> None:
    sample = SAMPLES["final"]
    path = tmp_path / "boards.txt"
    path.write_text(sample["input"])
    result = run("final", "", str(path), "--backend", backend)
    assert (result.returncode, result.stdout) == (0, sample["output"])


@pytest.mark.parametrize(
    ("command", "stdin", "words"),
    [
        ("tictactoe", "2\n...\n.q.\n...\n", "line 2: unknown symbol 'q'"),
        ("tictactoe", "2\n...\n...\n...\n", "line 5: expected a board row"),
        ("tictactoe", "two\n", "line 1: expected the number of boards"),
        ("tictactoe", "1\n...\n....\n...\n", "line 3: a board row has 3 cells"),
        ("tictactoe", "1\nxxx\n...\n...\n", "line 2: X has 3 marks and O has 0"),
        ("tictactoe", "1\n...\n...\n...\n...\n", "line 5: unexpected input"),
        ("alpha", "1 1 1 0 0 0 0 0 0\n", "line 1: X has 3 marks"),
        ("alpha", "1 2 0\n0 0 0\n0 0\n", "line 3: a board has 9 cells"),
        ("alpha", "1 2 0\n0 0 0\n0 0 7\n", "line 1: unknown symbol '7'"),
        ("alpha", "", "expected a board"),
        ("final", "XXX\nend\n", "line 1: a board has 9 characters"),
        ("final", "XXXOO.XXX\nXXXOOQXXX\nend\n", "line 2: unknown symbol 'Q'"),
    ],
)
def test_bad_input_fails_with_one_line_on_stderr(
    backend: str, command: str, stdin: str, words: str
) -> None:
    result = run(command, stdin, "--backend", backend)
    assert result.returncode == 1
    assert words in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_wrong_usage_exits_2() -> None:
    assert run("nonsense", "").returncode == 2
    assert run("final", "", "--backend", "java").returncode == 2


def test_missing_file_exits_1(tmp_path: Path) -> None:
    result = run("final", "", str(tmp_path / "missing.txt"))
    assert result.returncode == 1
    assert "cannot read" in result.stderr


def test_streams_many_cases(backend: str) -> None:
    boards = ["XXXOO.XXX", "XOXOXOXOX", "OXOXOXOXO", "XXOOOXXOX"] * 25_000
    result = run("final", "\n".join(boards) + "\nend\n", "--backend", backend)
    assert result.returncode == 0
    assert result.stdout == "invalid\nvalid\ninvalid\nvalid\n" * 25_000


def run_mnk(*args: str) -> subprocess.CompletedProcess[str]:
    return perfectplay_command("mnk", *args, timeout=120)


def test_mnk_prints_the_solution(backend: str) -> None:
    result = run_mnk("4x4", "3", "--backend", backend)
    assert result.returncode == 0
    assert result.stdout == (
        "value: +1\nwinner: x\nplies: 5\nbest moves: 1,1 1,2 2,1 2,2\nline: 1,1 0,0 1,2 0,1 1,0\n"
    )
    result = run_mnk("3x3", "3", "xx./oo./...", "--json", "--backend", backend)
    answer = json.loads(result.stdout)
    # The search effort differs between backends: a count, not part of the answer.
    nodes = answer.pop("nodes")
    assert isinstance(nodes, int) and nodes >= 0
    assert answer == {
        "value": 1,
        "winner": "x",
        "plies": 1,
        "best_moves": [[0, 2]],
        "line": [[0, 2]],
    }


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        (("4x4", "3", "xx./oo./..."), 1, "the board is 3x3, not 4x4"),
        (("3x3", "3", "xx./oq./..."), 1, "unknown symbol 'q'"),
        (("3x3", "3", "xxx/.../..."), 1, "X has 3 marks and O has 0"),
        (("4x4", "5"), 1, "k must be between 1 and 4"),
        (("5x5", "4", "--node-limit", "100"), 1, "node_limit=100"),
        (("44", "3"), 2, "expected ROWSxCOLS"),
        (("4x4",), 2, "required"),
    ],
)
def test_mnk_failures(args: tuple[str, ...], status: int, words: str) -> None:
    result = run_mnk(*args)
    assert result.returncode == status
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_mnk_reports_progress_on_long_searches() -> None:
    # Seconds of the twin: past the first report, at 1 s.
    result = run_mnk("4x4", "4", "--backend", "python", "--node-limit", "800000")
    assert "still solving 4x4 k=4 (1 s)" in result.stderr


def test_label_writes_the_batch_arrays(tmp_path: Path, backend: str) -> None:
    import numpy as np

    boards = np.array([[[1, 0, 0], [0, 2, 0], [0, 0, 0]], [[1, 1, 1], [2, 2, 0], [0, 0, 0]]])
    np.save(tmp_path / "boards.npy", boards)
    out = tmp_path / "labels.npz"
    result = run(
        "label", "", "mnk", str(tmp_path / "boards.npy"), "-o", str(out), "--k", "3",
        "--moves", "--backend", backend,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "2 rows" in result.stderr and "2 solved" in result.stderr
    labels = np.load(out)
    assert labels["value"].tolist() == [0, -1]
    assert labels["move_plies"].shape == (2, 9)
    np.save(tmp_path / "a.npy", np.array([[1, 0], [0, 0]]))
    np.save(tmp_path / "b.npy", np.array([1, 2]))
    np.save(tmp_path / "board.npy", np.ones((3, 3), np.int8))
    result = run(
        "label", "", "footholds", str(tmp_path / "board.npy"), "-o", str(out),
        "--alocs", str(tmp_path / "a.npy"), "--blocs", str(tmp_path / "b.npy"),
        "--backend", backend,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert np.load(out)["plies"].tolist() == [5, 6]


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"not numpy", "cannot read boards"), (b"\x93NUMPY\x01\x00", "cannot read boards")],
)
def test_label_bad_files_are_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / "boards.npy").write_bytes(content)
    result = run("label", "", "tictactoe", str(tmp_path / "boards.npy"), "-o", str(tmp_path / "x"))
    assert result.returncode == 1
    assert words in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_label_refuses_a_huge_npy_header_unread_even_with_little_memory(tmp_path: Path) -> None:
    boards = tmp_path / "boards.npy"
    header = b"{'descr': '|u1', 'fortran_order': False, 'shape': (1, 3, 3), }"
    boards.write_bytes(b"\x93NUMPY\x03\x00" + (2**32 - 1).to_bytes(4, "little") + header)
    command = [sys.executable, "-m", "perfectplay", "label", "mnk", str(boards), "--k", "3"]
    result = subprocess.run(
        ["prlimit", "--as=3000000000", *command, "-o", str(tmp_path / "x.npz")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "its header claims 4,294,967,295 bytes" in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1


def test_an_error_without_a_message_still_says_what_happened() -> None:
    from perfectplay._kernel.command import error_text

    assert error_text(MemoryError()) == "not enough memory"
    assert error_text(MemoryError("a 9 GB column")) == "a 9 GB column"
    assert error_text(EOFError()) == "EOFError"


def test_version_is_the_package_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "perfectplay", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0
    assert result.stdout.split()[:2] == ["perfectplay", perfectplay.__version__]
    assert perfectplay.__version__ != "unknown"


def test_label_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "boards.npy"
    os.mkfifo(fifo)
    result = subprocess.run(
        [sys.executable, "-m", "perfectplay", "label", "tictactoe", str(fifo), "-o", "x.npz"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "a FIFO, not a regular file" in result.stderr


@pytest.mark.parametrize("target", ["fifo.npz", "directory.npz"])
def test_label_writes_only_regular_files_and_leaves_nothing_behind(
    tmp_path: Path, target: str
) -> None:
    import numpy as np

    np.save(tmp_path / "boards.npy", np.zeros((3, 9), dtype=np.uint8))
    out = tmp_path / target
    if target.startswith("fifo"):
        os.mkfifo(out)
    else:
        out.mkdir()
    result = run("label", "", "tictactoe", str(tmp_path / "boards.npy"), "-o", str(out))
    assert result.returncode == 1
    assert "is not a regular file" in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boards.npy", target]


def test_label_output_gets_numpys_suffix_and_replaces_whole(tmp_path: Path) -> None:
    import numpy as np

    np.save(tmp_path / "boards.npy", np.zeros((3, 9), dtype=np.uint8))
    for _ in range(2):
        result = run(
            "label", "", "tictactoe", str(tmp_path / "boards.npy"), "-o", str(tmp_path / "out")
        )
        assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boards.npy", "out.npz"]
    assert np.load(tmp_path / "out.npz")["value"].tolist() == [0, 0, 0]


@pytest.mark.parametrize("command", ["tictactoe", "alpha", "final", "footholds", "connect4"])
def test_each_judge_commands_help_states_its_input(command: str) -> None:
    result = run(command, "", "--help")
    assert result.returncode == 0 and "input: " in result.stdout


def test_a_forgotten_double_dash_gets_a_hint() -> None:
    result = run("stress", "", "alpha", "--cases", "3", "python3", "solution.py")
    assert result.returncode == 2
    assert "the program under test goes after --" in result.stderr
    assert "perfectplay stress alpha -- python3 solution.py" in result.stderr


def bytes_command(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "perfectplay", *args], input=stdin, capture_output=True, timeout=120
    )


def test_connect4_answers_the_empty_board_from_the_books() -> None:
    # Pons' solver prints the empty line as " 1"; without the books this took minutes.
    result = run("connect4", "\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, " 1\n", "")


def test_connect4_reports_an_undecodable_line_and_answers_the_next() -> None:
    result = bytes_command("connect4", stdin=b"44\xff53\n4453\n")
    assert result.stdout == b"4453 -2\n"
    assert b"line 1: input is not UTF-8 text (byte 3)" in result.stderr
    assert result.returncode == 1 and b"Traceback" not in result.stderr


def test_a_byte_order_mark_before_the_first_line_is_dropped() -> None:
    result = bytes_command("connect4", stdin=b"\xef\xbb\xbf4453\n44\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"4453 -2\n44 1\n", b"")


def test_a_device_is_no_file_of_cases() -> None:
    result = bytes_command("connect4", "/dev/zero", stdin=b"")
    assert result.returncode == 1
    assert result.stderr == b"perfectplay connect4: /dev/zero is a device, not a file of cases\n"


def test_a_line_with_no_end_stops_the_input() -> None:
    result = bytes_command("connect4", stdin=b"4" * (17 << 20))
    assert result.returncode == 1
    assert b"line 1: a line longer than 16,777,216 bytes" in result.stderr


def test_closed_standard_output_is_said_once_without_a_traceback() -> None:
    closed = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m perfectplay connect4 >&-"],
        input="4453\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert closed.returncode == 1
    assert closed.stderr == (
        "perfectplay connect4: standard output is closed: nowhere to write the answers\n"
    )


@pytest.mark.parametrize("command", sorted(SAMPLES))
def test_closed_standard_input_is_said_once_without_a_traceback(command: str) -> None:
    closed = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m perfectplay {command} <&-"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert closed.returncode == 1
    assert closed.stderr == f"perfectplay {command}: standard input is closed: no cases to read\n"
