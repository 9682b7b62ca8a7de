"""``perfectplay stress``: correct programs pass, wrong ones are caught with a minimal input.

The programs under test are in ``tests/stress_programs``: a plain solution of each problem,
independent of perfectplay, with ``--bug NAME`` selecting a mistake real submissions make, a
crash or an endless loop."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from perfectplay import stress, tictactoe
from perfectplay.cli import main
from perfectplay.errors import IllegalPosition

PROGRAMS = Path(__file__).parent / "stress_programs"
# The programs answer in well under 0.1 s a run. An endless loop is waited out for the short
# limit; a program that only answers wrongly or crashes gets the long one, so that a machine
# slowed down by other work never turns its wrong answer into a time limit.
TIME_LIMIT = 0.5
SLOW_MACHINE_LIMIT = 10.0


def program(problem: str, *flags: str) -> list[str]:
    return [sys.executable, "-S", str(PROGRAMS / f"{problem}_solution.py"), *flags]


@pytest.mark.parametrize("problem", stress.PROBLEMS)
def test_correct_solutions_pass_a_thousand_cases(problem: str) -> None:
    result = stress.run(problem, program(problem), cases=1000, seed=2026, jobs=2)
    assert result.passed, result.report()
    assert result.cases == 1000
    assert result.runs == (1000 if problem == "alpha" else 10)


def _without_mark(problem: str, board: str) -> list[str]:
    """Every board with one mark fewer that is still an input of the problem."""
    simpler = []
    for cell, mark in enumerate(board):
        if mark == ".":
            continue
        candidate = board[:cell] + "." + board[cell + 1 :]
        if problem != "final":
            try:
                position = tictactoe.Position(candidate)
            except IllegalPosition:
                continue
            if problem == "alpha" and position.is_over:
                continue
        simpler.append(candidate)
    return simpler


def _without_foothold(case: Any) -> list[Any]:
    board, a, b = case
    simpler = []
    for r, row in enumerate(board):
        for c, standing in enumerate(row):
            if standing and (r, c) not in (a, b):
                changed = [list(cells) for cells in board]
                changed[r][c] = 0
                simpler.append((tuple(map(tuple, changed)), a, b))
    return simpler


def assert_minimal(
    problem: str, command: list[str], failure: stress.Failure, time_limit: float = TIME_LIMIT
) -> None:
    """Removing any case, any mark or any foothold makes the program pass."""
    cases = list(failure.cases)
    assert stress.check(problem, command, cases, time_limit=time_limit) is not None
    if len(cases) > 1:
        for index in range(len(cases)):
            fewer = cases[:index] + cases[index + 1 :]
            assert stress.check(problem, command, fewer, time_limit=time_limit) is None
    for index, case in enumerate(cases):
        simpler = (
            _without_foothold(case) if problem == "footholds" else _without_mark(problem, case)
        )
        for candidate in simpler:
            changed = [*cases[:index], candidate, *cases[index + 1 :]]
            found = stress.check(problem, command, changed, time_limit=time_limit)
            assert found is None, (candidate, found)


BUGS = [
    ("tictactoe", "swap-o", stress.WRONG),
    ("tictactoe", "ignore-line", stress.WRONG),
    ("tictactoe", "crash-full", stress.CRASH),
    ("tictactoe", "loop-o-won", stress.TIME),
    ("alpha", "parity", stress.WRONG),
    ("alpha", "full-only", stress.WRONG),
    ("alpha", "crash-center", stress.CRASH),
    ("alpha", "loop-near-end", stress.TIME),
    ("final", "both-lines", stress.WRONG),
    ("final", "winner-not-last", stress.WRONG),
    ("final", "crash-empty-row", stress.CRASH),
    ("final", "loop-full", stress.TIME),
    ("footholds", "loser-minimises", stress.WRONG),
    ("footholds", "vanished-ok", stress.WRONG),
    ("footholds", "crash-one-row", stress.CRASH),
    ("footholds", "loop-shared", stress.TIME),
    ("footholds", "no-holes", stress.WRONG),
]


@pytest.mark.parametrize(("problem", "bug", "kind"), BUGS, ids=lambda v: str(v))
def test_wrong_solutions_are_caught_and_shrunk_to_a_minimal_input(
    problem: str, bug: str, kind: str, tmp_path: Path
) -> None:
    command = program(problem, "--bug", bug)
    saved = tmp_path / "failing.txt"
    limit = TIME_LIMIT if kind == stress.TIME else SLOW_MACHINE_LIMIT
    result = stress.run(problem, command, cases=1000, seed=7, time_limit=limit, jobs=2, save=saved)
    failure = result.failure
    assert failure is not None, f"{bug} was not caught"
    assert failure.kind == kind, result.report()
    assert len(failure.cases) == 1
    assert (
        saved.read_text(encoding="utf-8") == failure.input == stress.render(problem, failure.cases)
    )
    assert_minimal(problem, command, failure, limit)
    report = result.report()
    assert failure.input.rstrip("\n") in report
    assert report.splitlines()[-1].startswith(f"perfectplay stress {problem}: {kind}")
    if problem != "final":
        assert "optimal line:" in report


@pytest.mark.parametrize(
    ("output", "passes", "detail"),
    [
        ("crlf", True, ""),
        ("trailing", True, ""),
        ("fewer", False, "fewer"),
        ("leading", False, "extra whitespace"),
        ("blank", False, "extra whitespace"),
    ],
)
def test_output_is_compared_as_judges_do(output: str, passes: bool, detail: str) -> None:
    command = program("final", "--output", output)
    result = stress.run("final", command, cases=200, seed=3, jobs=1)
    assert result.passed == passes, result.report()
    if not passes:
        assert result.failure is not None
        assert result.failure.kind == stress.OUTPUT
        assert detail in result.failure.detail


def test_python_function_mode_runs_in_a_subprocess(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(
        f"import sys\nsys.path.insert(0, {str(PROGRAMS)!r})\n"
        "from footholds_solution import solution\n",
        encoding="utf-8",
    )
    result = stress.run(
        "footholds", stress.python_command(f"{good}:solution", "footholds"), cases=300, seed=1
    )
    assert result.passed, result.report()
    endless = tmp_path / "endless.py"
    endless.write_text(
        f"import sys, os\nsys.path.insert(0, {str(PROGRAMS)!r})\n"
        "from footholds_solution import solution as right\n"
        "def solution(board, aloc, bloc):\n"
        "    if sum(map(sum, board)) == 3:\n"
        "        while True:\n"
        "            pass\n"
        "    if len(board[0]) == 4:\n"
        "        os._exit(3)\n"
        "    return right(board, aloc, bloc)\n",
        encoding="utf-8",
    )
    command = stress.python_command(f"{endless}:solution", "footholds")
    result = stress.run("footholds", command, cases=1000, seed=1, time_limit=TIME_LIMIT)
    assert result.failure is not None
    assert result.failure.kind in (stress.TIME, stress.CRASH)
    assert_minimal("footholds", command, result.failure)


def test_duration_and_progress() -> None:
    seen: list[tuple[int, int]] = []
    result = stress.run(
        "final",
        program("final"),
        duration=0.5,
        seed=4,
        per_run=20,
        progress=lambda passed, runs, _: seen.append((passed, runs)),
    )
    assert result.passed and result.cases > 0
    assert seen[-1] == (result.cases, result.runs)


def test_generators_make_the_mix_that_finds_bugs() -> None:
    import random

    rng = random.Random(0)
    boards = [stress.generate("tictactoe", rng) for _ in range(2000)]
    positions = [tictactoe.Position(board) for board in boards]
    assert any(p.is_over and p.winner == "x" for p in positions)
    assert any(p.is_over and p.winner == "o" for p in positions)
    assert any(p.is_over and p.winner is None for p in positions)  # full, drawn
    assert sum(not p.is_over for p in positions) > 800
    alpha = [tictactoe.Position(stress.generate("alpha", rng)) for _ in range(500)]
    assert not any(p.is_over for p in alpha)
    finals = [stress.generate("final", rng) for _ in range(2000)]
    reasons = set()
    for board in finals:
        try:
            tictactoe.Position(board)
        except IllegalPosition as why:
            reasons.add(str(why).split(" ")[0:3][-1])
    assert len(reasons) >= 3  # counts, two winners, a move after the end
    assert any(tictactoe.is_valid_final(board) for board in finals)
    games = [stress.generate("footholds", rng, (5, 5)) for _ in range(2000)]
    assert any(a == b for _, a, b in games)
    assert any(any(0 in row for row in board) for board, _, _ in games)
    assert max(len(board) * len(board[0]) for board, _, _ in games) == 25


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "perfectplay", *args], capture_output=True, text=True, timeout=300
    )


def test_command_line(tmp_path: Path) -> None:
    ok = run_cli("stress", "final", "--seed", "5", "--cases", "300", "--", *program("final"))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().endswith("seed 5")
    assert "perfectplay stress final: seed 5" in ok.stderr
    saved = tmp_path / "case.txt"
    wrong = run_cli(
        "stress",
        "alpha",
        "--seed",
        "5",
        "--cases",
        "300",
        "--save",
        str(saved),
        "--",
        *program("alpha", "--bug", "parity"),
    )
    assert wrong.returncode == 1, wrong.stderr
    assert "minimal failing input" in wrong.stdout and "optimal line" in wrong.stdout
    # The saved input replays: perfectplay and the program still disagree on it.
    replay = saved.read_text(encoding="utf-8")
    theirs = subprocess.run(
        program("alpha", "--bug", "parity"), input=replay, capture_output=True, text=True
    ).stdout
    ours = run_cli("alpha", str(saved)).stdout
    assert theirs.strip() != ours.strip()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["stress", "final"], "no program to test"),
        (["stress", "final", "--", "/no/such/program"], "cannot run"),
        (["stress", "alpha", "--python", "x.py:solution"], "footholds only"),
        (["stress", "footholds", "--python", "nofile.py:solution"], "no file"),
        (["stress", "footholds", "--max-size", "9x9", "--", "true"], "at most 64 cells"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1]
    assert not any("Traceback" in line for line in err)


def test_unknown_problem_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as stop:
        main(["stress", "chess", "--", "true"])
    assert stop.value.code == 2
    with pytest.raises(ValueError, match="unknown problem"):
        stress.run("chess", ["true"])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_the_run_and_every_program_it_started(signum: int) -> None:
    marker = f"perfectplay-test-{signum}-{time.monotonic_ns()}"  # apart from other tests' runs
    command = program("final", "--bug", "loop-full", marker)
    stress_command = ["stress", "final", "--seed", "1", "--time-limit", "60", "--", *command]
    process = subprocess.Popen(
        [sys.executable, "-m", "perfectplay", *stress_command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As in a terminal: a background CI job would start it with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)  # the first runs are under way, stuck on full boards
    assert process.poll() is None
    process.send_signal(signum)
    sent = time.monotonic()
    process.communicate(timeout=10)
    assert process.returncode == 128 + signum
    assert time.monotonic() - sent < 2
    time.sleep(0.2)
    assert _running(marker) == []


@pytest.mark.parametrize(
    "option",
    ["--time-limit=nan", "--time-limit=inf", "--time-limit=0", "--duration=-5", "--duration=nan"],
)
def test_seconds_that_never_end_are_usage_errors(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    with pytest.raises(SystemExit) as exit_:
        main(["stress", "alpha", "--cases", "1", option, "--", "sleep", "1000"])
    assert exit_.value.code == 2 and time.monotonic() - started < 5
    assert "finite, positive" in capsys.readouterr().err


def test_the_api_checks_its_command_and_seconds() -> None:
    with pytest.raises(TypeError, match=r"sequence of arguments.*shlex\.split"):
        stress.run("alpha", "perfectplay alpha")
    with pytest.raises(ValueError, match="time_limit must be a finite, positive"):
        stress.run("alpha", ["sleep", "1000"], cases=1, time_limit=float("nan"))
    with pytest.raises(ValueError, match="duration must be a finite, positive"):
        stress.run("alpha", ["sleep", "1000"], cases=1, duration=float("inf"))
    with pytest.raises(ValueError, match="time_limit must be a finite"):
        stress.check("alpha", ["sleep", "1000"], [], time_limit=-1.0)


# --- Nothing the tester starts outlives it or its run -------------------------------------


def _running(marker: str) -> list[str]:
    lines = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in lines.splitlines() if marker in line]


SLEEPER = "import sys, time; time.sleep(300)"


def _leaving_program(tmp_path: Path, marker: str, how: str) -> list[str]:
    """A correct alpha solution that leaves processes behind: a background child holding
    its standard output open, or five forked children."""
    script = tmp_path / f"{how}.py"
    solution = str(PROGRAMS / "alpha_solution.py")
    script.write_text(
        "import os, subprocess, sys\n"
        f"marker = {marker!r}\n"
        f"if {how == 'fork'!r}:\n"
        "    for _ in range(5):\n"
        "        if os.fork() == 0:\n"
        "            os.execv(sys.executable, [sys.executable, '-c', "
        f"{SLEEPER!r}, marker])\n"
        "else:\n"
        f"    subprocess.Popen([sys.executable, '-c', {SLEEPER!r}, marker])\n"
        f"os.execv(sys.executable, [sys.executable, '-S', {solution!r}])\n"
    )
    return [sys.executable, str(script)]


@pytest.mark.parametrize("how", ["background", "fork"])
def test_what_a_program_leaves_running_is_stopped_after_each_run(tmp_path: Path, how: str) -> None:
    marker = f"perfectplay-test-{how}-{time.monotonic_ns()}"
    command = _leaving_program(tmp_path, marker, how)
    result = stress.run("alpha", command, cases=10, seed=3, jobs=2, time_limit=SLOW_MACHINE_LIMIT)
    assert result.passed, result.report()
    assert result.runs == 10
    time.sleep(0.2)
    assert _running(marker) == []


def test_a_run_interrupted_while_it_waits_stops_its_program() -> None:
    # Ctrl-C arriving while a run waits for its program (as during shrinking).
    marker = f"perfectplay-test-interrupted-{time.monotonic_ns()}"
    program_ = stress.processes.Program([sys.executable, "-c", SLEEPER, marker], 60.0, "rust")

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            program_.execute(b"")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert _running(marker) == []
    program_.kill_all()
    with pytest.raises(stress.processes.Stopped):  # no run starts once the program is stopped
        program_.execute(b"")
    assert _running(marker) == []


@pytest.mark.parametrize("where", ["missing", "directory"])
def test_save_is_checked_before_anything_runs(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = tmp_path / "ran"
    save = tmp_path / "missing" / "case.txt" if where == "missing" else tmp_path
    command = ["sh", "-c", f"touch {ran}; echo 1"]
    assert main(["stress", "alpha", "--cases", "3", "--save", str(save), "--", *command]) == 2
    err = capsys.readouterr().err
    assert f"cannot save the failing input to {save}" in err
    assert ("no directory" if where == "missing" else "not a regular file") in err
    assert not ran.exists()


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_footholds_failures_shrink_to_the_smallest_board(seed: int) -> None:
    # Wrong on every board without holes: two cells are enough, whatever board failed first.
    command = program("footholds", "--bug", "no-holes")
    result = stress.run(
        "footholds", command, cases=1000, seed=seed, time_limit=SLOW_MACHINE_LIMIT, jobs=2
    )
    assert result.failure is not None
    ((board, _, _),) = result.failure.cases
    assert len(board) * len(board[0]) == 2, result.report()


def test_reports_teach(tmp_path: Path) -> None:
    # Every move of the start beside the optimal line.
    alpha = stress.run("alpha", program("alpha", "--bug", "parity"), cases=300, seed=5, jobs=2)
    assert "best first:" in alpha.report()
    # Final boards drawn as grids, naming both lines when there are two.
    assert stress.explain("final", "xoxoxoxox").splitlines() == [
        "the board:",
        "    x o x",
        "    o x o",
        "    x o x",
        "valid: a final position (x won); x has the diagonal from the top left and the "
        "diagonal from the top right",
    ]
    assert stress.explain("final", "xxxooo...").endswith("x has the top row; o has the middle row")
    # The whole standard error of a crash.
    crash = tmp_path / "crash.py"
    crash.write_text(
        "import sys\nfor i in range(50):\n    print('line', i, file=sys.stderr)\nsys.exit(3)\n"
    )
    result = stress.run("alpha", [sys.executable, str(crash)], cases=5, seed=1, jobs=1)
    report = result.report()
    assert result.failure is not None and result.failure.kind == stress.CRASH
    assert all(f"line {i}" in report for i in range(50))


def test_check_reads_its_cases_or_says_which_is_wrong() -> None:
    echo_d = [sys.executable, "-c", "print('D')"]
    assert stress.check("alpha", echo_d, ["x../.../..."]) is None  # read, and D is right
    with pytest.raises(ValueError, match=r"case 0: 'xx' is not a tic-tac-toe board"):
        stress.check("alpha", echo_d, ["xx"])
    with pytest.raises(ValueError, match=r"case 0: 'xxx/ooo/\.\.\.' is not an input of alpha"):
        stress.check("alpha", echo_d, ["xxx/ooo/..."])
    with pytest.raises(ValueError, match="alpha reads one case a run, not 2"):
        stress.check("alpha", echo_d, ["x........", "........."])
    with pytest.raises(ValueError, match=r"case 1: .* is not a footholds game.*off the 1x2"):
        stress.check("footholds", echo_d, [([[1, 1]], (0, 0), (0, 1)), ([[1, 1]], (0, 0), (0, 5))])
