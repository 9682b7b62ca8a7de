"""Stress testing of judge solutions: random inputs, perfectplay's answers, the smallest failing
input.

>>> from perfectplay import stress
>>> result = stress.run("alpha", ["python3", "my_alpha.py"], cases=200, seed=7)  # doctest: +SKIP
>>> result.passed, result.failure  # doctest: +SKIP

A run generates random valid inputs of one problem (the formats of the ``perfectplay``
subcommands), runs the program on them (several cases a run where the format has several),
compares its output with perfectplay's, and on the first wrong answer, crash, time limit or
malformed output shrinks the input: fewer cases, then simpler cases (fewer marks, fewer
footholds, a smaller board), for as long as the program still fails the same way. The answers
come from the very code of the ``perfectplay tictactoe|alpha|final|footholds`` commands.

Output is compared as judges do: trailing whitespace on a line, CRLF line ends and blank lines
at the end are accepted; fewer or more lines than cases, blank lines between answers and
leading whitespace are failures of their own kind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import math
import numbers
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

from perfectplay import footholds, judge, tictactoe
from perfectplay._kernel.backend import BACKEND
from perfectplay._kernel.files import write_whole
from perfectplay._play import rank
from perfectplay.errors import IllegalPosition
from perfectplay.mnk import twin as rules

__all__ = ["PROBLEMS", "Failure", "StressResult", "check", "generate", "render", "run"]

PROBLEMS = ("tictactoe", "alpha", "final", "footholds")
# The kinds of failure, in the words of the report.
WRONG, CRASH, TIME, OUTPUT = "wrong answer", "crash", "time limit", "malformed output"
_OUTPUT_CAP = 32 << 20  # bytes of standard output kept; a program printing more fails
_ERROR_CAP = 8 << 10  # bytes of standard error kept for the report
_RESTARTS = 8  # random games tried on each smaller board when shrinking footholds

# A case: a tic-tac-toe board as 9 characters of ``x o .`` (row-major), or a footholds game
# as (board rows of 0/1, aloc, bloc).
Board = str
Game = tuple[tuple[tuple[int, ...], ...], tuple[int, int], tuple[int, int]]
Case = Any


# --- The boards of tic-tac-toe, every legal one, by kind ------------------------------------


@functools.cache
def _legal_boards() -> dict[str, list[Board]]:
    """Every legal tic-tac-toe board (5,478), sorted into the kinds the generators mix."""
    seen: set[tictactoe.Position] = set()
    frontier = [tictactoe.Position()]
    while frontier:
        position = frontier.pop()
        if position in seen:
            continue
        seen.add(position)
        frontier.extend(position.play(move) for move in position.legal_moves)
    kinds: dict[str, list[Board]] = {
        "playing": [],
        "near end": [],
        "x won": [],
        "o won": [],
        "full": [],
        "double line": [],
    }
    for position in sorted(seen, key=lambda p: p.text()):
        board = position.text().replace("/", "")
        if not position.is_over:
            kinds["near end" if board.count(".") <= 2 else "playing"].append(board)
            continue
        if board.count(".") == 0:
            kinds["full"].append(board)
        if position.winner is not None:
            mask = position.x if position.winner == "x" else position.o
            lines = sum(mask & w == w for w in position._geometry.windows)
            kinds["double line" if lines > 1 else f"{position.winner} won"].append(board)
    return kinds


def _pick(rng: random.Random, weights: Mapping[str, float]) -> Board:
    kinds = _legal_boards()
    kind = rng.choices(list(weights), list(weights.values()))[0]
    return rng.choice(kinds[kind])


_TICTACTOE_MIX = {
    "playing": 4,
    "near end": 2,
    "x won": 1.5,
    "o won": 1.5,
    "full": 1,
    "double line": 1,
}
_ALPHA_MIX = {"playing": 3, "near end": 1}  # BOJ 16571 asks only of games still going


def _illegal_board(rng: random.Random) -> Board:
    """A board no game reaches, of one kind drawn at random: wrong counts, two winners, or a
    winner who was not the last to move. (Lines no single move completes need six marks of
    one side on 3x3, which the counts already rule out.)"""
    geometry = rules.Geometry(3, 3, 3)
    kind = rng.randrange(4)
    while True:
        cells = rng.sample(range(9), 9)
        xs = rng.randint(1, 5)
        if kind == 0:  # wrong counts
            os_ = rng.choice([n for n in range(0, 10 - xs) if xs - n not in (0, 1)] or [0])
        else:
            os_ = min(rng.choice((xs, xs - 1)), 9 - xs)
        x = sum(1 << c for c in cells[:xs])
        o = sum(1 << c for c in cells[xs : xs + os_])
        try:
            rules.status(geometry, x, o)
        except IllegalPosition as why:
            text = str(why)
            wanted = ("marks", "both", "X has", "O has")[kind]
            if kind == 0 or wanted in text:
                return "".join(".xo"[(x >> c & 1) + 2 * (o >> c & 1)] for c in range(9))
        if rng.random() < 0.02:
            kind = rng.randrange(4)  # some kinds are rare at some counts: move on


def _footholds_game(rng: random.Random, max_rows: int, max_cols: int) -> Game:
    """A footholds game: holes, pieces sharing a cell, pieces cut off from each other."""
    while True:
        rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
        holes = rng.choice((0.0, 0.0, 0.15, 0.3, 0.45))
        board = [[int(rng.random() >= holes) for _ in range(cols)] for _ in range(rows)]
        if rng.random() < 0.2 and max(rows, cols) >= 3:  # a wall of holes splits the board
            if cols >= 3 and (rows < 3 or rng.random() < 0.5):
                wall = rng.randrange(1, cols - 1)
                for row in board:
                    row[wall] = 0
            else:
                board[rng.randrange(1, rows - 1)] = [0] * cols
        cells = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]]
        if not cells:
            continue
        a = rng.choice(cells)
        b = a if rng.random() < 0.1 else rng.choice(cells)
        return tuple(tuple(row) for row in board), a, b


def generate(problem: str, rng: random.Random, max_size: tuple[int, int] = (5, 5)) -> Case:
    """One random valid case of a problem."""
    if problem == "tictactoe":
        return _pick(rng, _TICTACTOE_MIX)
    if problem == "alpha":
        return _pick(rng, _ALPHA_MIX)
    if problem == "final":
        if rng.random() < 0.45:
            return _pick(rng, {"x won": 2, "o won": 2, "full": 1, "double line": 1})
        if rng.random() < 0.25:
            return _pick(rng, {"playing": 1, "near end": 2})
        return _illegal_board(rng)
    if problem == "footholds":
        return _footholds_game(rng, *max_size)
    raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")


# --- Inputs as the programs read them --------------------------------------------------------


def render(problem: str, cases: Sequence[Case]) -> str:
    """The input text of a list of cases, exactly as the judge gives it."""
    if problem == "tictactoe":
        return f"{len(cases)}\n" + "".join(
            f"{case[0:3]}\n{case[3:6]}\n{case[6:9]}\n" for case in cases
        )
    if problem == "alpha":
        (case,) = cases
        codes = [".xo".index(cell) for cell in case]
        return "".join(" ".join(map(str, codes[r * 3 : r * 3 + 3])) + "\n" for r in range(3))
    if problem == "final":
        return "".join(case.upper() + "\n" for case in cases) + "end\n"
    return "".join(
        json.dumps({"board": [list(row) for row in board], "aloc": list(a), "bloc": list(b)}) + "\n"
        for board, a, b in cases
    )


def expected_lines(problem: str, cases: Sequence[Case], backend: str = BACKEND) -> list[str]:
    """perfectplay's answers, from the code of the ``perfectplay PROBLEM`` command."""
    return judge.answers(problem, render(problem, cases), backend)


# --- Running a program -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Failure:
    """How a program failed on an input: ``kind`` is "wrong answer", "crash", "time limit" or
    "malformed output"; ``case`` the index of the first wrong case (wrong answers)."""

    kind: str
    cases: tuple[Case, ...]
    input: str
    expected: str
    actual: str
    detail: str
    case: int | None = None
    stderr: str = ""  # the program's standard error (the first 8 KiB)


class _Program:
    """A command to run on inputs, with a time limit per run; runs may overlap (threads)."""

    def __init__(self, command: Sequence[str], time_limit: float, backend: str) -> None:
        self.command = list(command)
        self.time_limit = time_limit
        self.backend = backend  # which perfectplay gives the expected answers
        self._live: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()
        self._stopped = False  # set by kill_all: no run starts after it
        self.seconds = 0.0  # wall time of every run, added up

    def start_check(self) -> None:
        """Raises OSError when the command cannot be started at all."""
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        # Its whole group: on a busy machine the program may have started children already.
        _kill(process)
        process.wait()

    def kill_all(self) -> None:
        """Kills every run under way, with all they started, and refuses new runs."""
        with self._lock:
            self._stopped = True
            for process in self._live:
                _kill(process)

    def execute(self, data: bytes) -> tuple[int | None, bytes, bytes, bool]:
        """(exit status or None on time-out, stdout, stderr, output over the cap); the run's
        wall time is added to ``seconds``."""
        started = time.monotonic()
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: killed with all it started
        )
        with self._lock:
            self._live.add(process)
            stopped = self._stopped
        if stopped:  # kill_all ran while this one started
            self._end(process)
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
            raise _Stopped
        out: list[bytes] = []
        err: list[bytes] = []
        over = threading.Event()
        assert process.stdin and process.stdout and process.stderr
        readers = [
            threading.Thread(target=_drain, args=(process.stdout, out, _OUTPUT_CAP, over, process)),
            threading.Thread(target=_drain, args=(process.stderr, err, _ERROR_CAP, None, None)),
            threading.Thread(target=_feed, args=(process.stdin, data)),
        ]
        for reader in readers:
            reader.daemon = True
            reader.start()
        try:
            status: int | None = process.wait(self.time_limit)
        except subprocess.TimeoutExpired:
            status = None
        finally:  # a time-out, Ctrl-C, or a program that exited leaving children behind
            self._end(process)
        with self._lock:
            self.seconds += time.monotonic() - started
        for reader in readers:
            reader.join(1.0)
        return status, b"".join(out), b"".join(err), over.is_set()

    def _end(self, process: subprocess.Popen[bytes]) -> None:
        """Kills the run's process group (the program, or what it left running after it
        exited, which would also hold its output open), reaps it, forgets it."""
        _kill(process)
        process.wait()
        with self._lock:
            self._live.discard(process)


class _Stopped(Exception):
    """A run asked for after the program was stopped (Ctrl-C, or the end of the run)."""


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _drain(
    stream: IO[bytes],
    into: list[bytes],
    cap: int,
    over: threading.Event | None,
    process: subprocess.Popen[bytes] | None,
) -> None:
    kept = 0
    while chunk := stream.read1(1 << 16):  # type: ignore[attr-defined]
        if kept < cap:
            into.append(chunk[: cap - kept])
        kept += len(chunk)
        if kept > cap and over is not None and process is not None and not over.is_set():
            over.set()
            _kill(process)
    stream.close()


def _feed(stream: IO[bytes], data: bytes) -> None:
    try:
        stream.write(data)
        stream.close()
    except (BrokenPipeError, OSError):
        pass  # the program stopped reading: its output says the rest


def _compare(problem: str, cases: Sequence[Case], text: str, program: _Program) -> Failure | None:
    """Runs the program on the cases; the failure, or None when every answer is right."""
    expected = expected_lines(problem, cases, program.backend)
    status, out, err, over = program.execute(text.encode())

    stderr = err.decode("utf-8", errors="replace")

    def failure(kind: str, detail: str, actual: str, case: int | None = None) -> Failure:
        return Failure(kind, tuple(cases), text, "\n".join(expected), actual, detail, case, stderr)

    stdout = out.decode("utf-8", errors="replace")
    if status is None:
        return failure(TIME, f"no answer within {program.time_limit:g} s", stdout)
    if over:
        return failure(OUTPUT, f"printed more than {_OUTPUT_CAP >> 20} MiB", stdout[:2000])
    if status != 0:
        tail = stderr.strip().splitlines()[-3:]
        how = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
        return failure(CRASH, how + (": " + " | ".join(tail) if tail else ""), stdout)
    lines = [line.rstrip() for line in stdout.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    for index, line in enumerate(lines):
        if not line or line != line.lstrip():
            return failure(
                OUTPUT, f"extra whitespace on output line {index + 1} ({line!r})", stdout
            )
    if len(lines) != len(expected):
        fewer = "fewer" if len(lines) < len(expected) else "more"
        return failure(
            OUTPUT, f"printed {len(lines)} lines for {len(expected)} cases ({fewer})", stdout
        )
    for index, (got, want) in enumerate(zip(lines, expected, strict=True)):
        if got != want:
            return failure(
                WRONG, f"case {index + 1}: expected {want!r}, got {got!r}", got, case=index
            )
    return None


def _check_command(command: Any) -> None:
    if isinstance(command, (str, bytes)):
        raise TypeError(
            "command is a sequence of arguments, such as ['python3', 'sol.py'] or "
            f"shlex.split({command!r}), not a string"
        )
    if not command:
        raise ValueError("no command to test")


def _check_seconds(name: str, seconds: object) -> None:
    """A finite, positive number of seconds (NaN and infinity would never time out)."""
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(seconds).__name__}")
    if not (math.isfinite(seconds) and float(seconds) > 0):
        raise ValueError(f"{name} must be a finite, positive number of seconds, got {seconds}")


def check(
    problem: str,
    command: Sequence[str],
    cases: Sequence[Case],
    *,
    time_limit: float = 2.0,
    backend: str = BACKEND,
) -> Failure | None:
    """Runs ``command`` once on ``cases`` (one case for ``alpha``) and compares its output
    with perfectplay's: the failure, or None if every answer is right."""
    _problem(problem)
    _check_command(command)
    _check_seconds("time_limit", time_limit)
    cases = [_read_case(problem, index, case) for index, case in enumerate(cases)]
    if problem == "alpha" and len(cases) != 1:
        raise ValueError(f"alpha reads one case a run, not {len(cases)}")
    program = _Program(command, time_limit, backend)
    try:
        return _compare(problem, cases, render(problem, cases), program)
    finally:
        program.kill_all()


def _read_case(problem: str, index: int, case: Case) -> Case:
    """A case as the generators make it: a tic-tac-toe board as 9 cells of ``x o .`` (rows may
    be split by ``/``), a footholds game as (board rows of 0/1, aloc, bloc)."""
    if problem != "footholds":
        cells = case.replace("/", "") if isinstance(case, str) else None
        if cells is None or len(cells) != 9 or set(cells) - set("xo."):
            raise ValueError(
                f"case {index}: {case!r} is not a tic-tac-toe board: 9 cells of x, o and . "
                "(rows may be split by /)"
            )
        if not _valid(problem, cells):
            wanted = (
                "a game still going on" if problem == "alpha" else "a board that arises in play"
            )
            raise ValueError(f"case {index}: {case!r} is not an input of {problem}: {wanted}")
        return cells
    try:
        board, a, b = case
        game = (
            tuple(tuple(int(cell) for cell in row) for row in board),
            (int(a[0]), int(a[1])),
            (int(b[0]), int(b[1])),
        )
        footholds.Position([list(row) for row in game[0]], game[1], game[2])
    except (ValueError, TypeError) as error:
        raise ValueError(
            f"case {index}: {case!r} is not a footholds game (board rows of 0/1, aloc, bloc): "
            f"{error}"
        ) from None
    return game


# --- Shrinking -------------------------------------------------------------------------------


def _valid(problem: str, case: Case) -> bool:
    """Is the case an input the problem allows (tictactoe: a reachable board; alpha: a
    reachable board where the game goes on; final: any board; footholds: pieces on
    footholds)?"""
    if problem in ("tictactoe", "alpha"):
        try:
            position = tictactoe.Position(case)
        except IllegalPosition:
            return False
        return problem == "tictactoe" or not position.is_over
    return True


def _simpler(problem: str, case: Case) -> Iterator[Case]:
    """Cases one step simpler: one mark fewer (or one of each), one foothold fewer, a row or
    a column fewer."""
    if problem != "footholds":
        marks = [cell for cell in range(9) if case[cell] != "."]
        for cell in marks:
            yield case[:cell] + "." + case[cell + 1 :]
        for first in marks:
            for second in marks:
                if first < second and case[first] != case[second]:
                    pair = case[:first] + "." + case[first + 1 :]
                    yield pair[:second] + "." + pair[second + 1 :]
        return
    board, a, b = case
    rows, cols = len(board), len(board[0])
    for drop_row in (rows - 1, 0):
        if rows > 1 and drop_row not in (a[0], b[0]):
            shift = 1 if drop_row == 0 else 0
            kept = tuple(row for index, row in enumerate(board) if index != drop_row)
            yield kept, (a[0] - shift, a[1]), (b[0] - shift, b[1])
    for drop_col in (cols - 1, 0):
        if cols > 1 and drop_col not in (a[1], b[1]):
            shift = 1 if drop_col == 0 else 0
            kept = tuple(row[:drop_col] + row[drop_col + 1 :] for row in board)
            yield kept, (a[0], a[1] - shift), (b[0], b[1] - shift)
    for r in range(rows):
        for c in range(cols):
            if board[r][c] and (r, c) not in (a, b):
                changed = tuple(
                    tuple(0 if (i, j) == (r, c) else v for j, v in enumerate(row))
                    for i, row in enumerate(board)
                )
                yield changed, a, b


def _shrink(problem: str, failure: Failure, program: _Program) -> Failure:
    """The smallest input found that fails the same way: first fewer cases, then simpler ones,
    until no single step keeps it failing; for footholds, then fresh games on smaller boards."""

    def attempt(cases: Sequence[Case]) -> Failure | None:
        if not cases:
            return None
        found = _compare(problem, cases, render(problem, cases), program)
        return found if found is not None and found.kind == failure.kind else None

    best = failure
    if best.case is not None and len(best.cases) > 1:
        alone = attempt([best.cases[best.case]])
        if alone is not None:
            best = alone
    best = _simplest(problem, best, attempt)
    if problem == "footholds" and len(best.cases) == 1:
        # One step at a time can stall on a big board (a row holding a piece is never
        # dropped), so fresh random games on every smaller board are tried, smallest first.
        board = best.cases[0][0]
        area, side = len(board) * len(board[0]), max(len(board), len(board[0]))
        sizes = sorted(
            ((rows, cols) for rows in range(1, side + 1) for cols in range(1, side + 1)),
            key=lambda size: (size[0] * size[1], size),
        )
        rng = random.Random(area)
        for rows, cols in sizes:
            if rows * cols >= area:
                break
            for _ in range(_RESTARTS):
                found = attempt([_footholds_game(rng, rows, cols)])
                if found is not None:
                    return _simplest(problem, found, attempt)
    return best


def _simplest(
    problem: str, best: Failure, attempt: Callable[[Sequence[Case]], Failure | None]
) -> Failure:
    """Fewer cases, then simpler ones, until no single step keeps the failure."""
    chunk = len(best.cases) // 2
    while chunk >= 1:  # remove runs of cases, halving the run length
        start, shrunk = 0, False
        while start < len(best.cases):
            fewer = list(best.cases[:start]) + list(best.cases[start + chunk :])
            found = attempt(fewer)
            if found is not None:
                best, shrunk = found, True
            else:
                start += chunk
        if not shrunk:
            chunk //= 2
    progress = True
    while progress:  # simpler cases, one step at a time
        progress = False
        for index, case in enumerate(best.cases):
            for simpler in _simpler(problem, case):
                if not _valid(problem, simpler):
                    continue
                cases = list(best.cases)
                cases[index] = simpler
                found = attempt(cases)
                if found is not None:
                    best, progress = found, True
                    break
            if progress:
                break
    return best


# --- The optimal line, drawn -----------------------------------------------------------------


_TICTACTOE_LINES = {
    "the top row": (0, 1, 2),
    "the middle row": (3, 4, 5),
    "the bottom row": (6, 7, 8),
    "the left column": (0, 3, 6),
    "the middle column": (1, 4, 7),
    "the right column": (2, 5, 8),
    "the diagonal from the top left": (0, 4, 8),
    "the diagonal from the top right": (2, 4, 6),
}


def _lines(board: Board) -> list[str]:
    """Each side's lines of three on a tic-tac-toe board, named."""
    out = []
    for mark in "xo":
        named = [
            name
            for name, cells in _TICTACTOE_LINES.items()
            if all(board[cell] == mark for cell in cells)
        ]
        if named:
            out.append(f"{mark} has {' and '.join(named)}")
    return out


def _grid(board: Board) -> list[str]:
    return ["    " + " ".join(board[row * 3 : row * 3 + 3]) for row in range(3)]


def _ranked_moves(position: Any) -> str:
    """Every move of a position, best first, with its value for the side making it."""
    words = {1: "wins", 0: "draws", -1: "loses"}
    return ", ".join(f"{move.move} {words[move.value]} in {move.plies}" for move in rank(position))


def explain(problem: str, case: Case) -> str:
    """For a game problem, every move of the start position with its value, then the optimal
    line drawn as boards; for ``final``, the board as a grid and why it is or is not a valid
    final position, naming every line of three."""
    if problem == "final":
        try:
            position = tictactoe.Position(case)
        except IllegalPosition as why:
            verdict = f"invalid: {why}"
        else:
            if position.is_over:
                verdict = f"valid: a final position ({position._status_text()})"
            else:
                verdict = f"invalid: the game is not over ({position._status_text()})"
        lines = _lines(case)
        if lines:
            verdict += "; " + "; ".join(lines)
        return "\n".join(["the board:", *_grid(case), verdict])
    start: Any
    if problem == "footholds":
        board, a, b = case
        start = footholds.Position([list(row) for row in board], a, b)
    else:
        start = tictactoe.Position(case)
    solution = start.solve()
    outcome = f"{solution.winner} wins" if solution.winner else "a draw"
    frames = [("start", start)]
    position = start
    for ply, move in enumerate(solution.line, start=1):
        mover = position.to_move
        position = position.play(move)
        frames.append((f"{ply}. {mover} {move}", position))
    lines = []
    if not start.is_over:
        lines.append(f"every move of {start.to_move}, best first: {_ranked_moves(start)}")
    lines.append(f"optimal line: {outcome} in {solution.plies} plies")
    for title, frame in frames:
        lines.append(f"  {title}")
        lines.extend("    " + row for row in str(frame).splitlines())
    return "\n".join(lines)


# --- The whole run ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StressResult:
    """What a stress run found: ``passed`` when every case's answer was right; otherwise
    ``failure`` holds the shrunk failing input."""

    problem: str
    seed: int
    cases: int
    runs: int
    seconds: float
    failure: Failure | None
    program_seconds: float = 0.0  # the runs' wall time, added up (overlapping with jobs > 1)

    @property
    def passed(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        rate = self.runs / self.seconds if self.seconds else 0.0
        if self.failure is None:
            return (
                f"perfectplay stress {self.problem}: all {self.cases} cases passed in "
                f"{self.runs} runs, {self.seconds:.1f} s ({rate:.1f} runs/s), seed {self.seed}"
            )
        return (
            f"perfectplay stress {self.problem}: {self.failure.kind} after {self.cases} cases "
            f"passed, seed {self.seed}"
        )

    def report(self) -> str:
        """For a failure, the minimal input with both outputs and the line; the summary last."""
        if self.failure is None:
            return self.summary()
        failure = self.failure
        parts = [
            f"minimal failing input ({len(failure.cases)} case"
            f"{'s' if len(failure.cases) != 1 else ''}):",
            failure.input.rstrip("\n"),
            "expected output:",
            failure.expected,
            "actual output:",
            failure.actual.rstrip("\n") if failure.actual.strip() else "(nothing)",
            f"why: {failure.detail}",
        ]
        if failure.stderr.strip():
            parts += ["standard error:", failure.stderr.rstrip("\n")]
        index = failure.case if failure.case is not None else 0
        if failure.cases:
            parts.append(explain(self.problem, failure.cases[index]))
        parts.append(self.summary())
        return "\n".join(parts)


def _check_save(save: str | os.PathLike[str]) -> None:
    """Where a failing input will be saved must be writable before anything runs, so that a
    failure found is never lost to a bad path."""
    path = Path(save)
    directory = path.parent
    why = (
        f"no directory {directory}"
        if not directory.is_dir()
        else f"{path} is not a regular file"
        if path.exists() and not path.is_file()
        else f"the directory {directory} is not writable"
        if not os.access(directory, os.W_OK)
        else None
    )
    if why is not None:
        raise ValueError(f"cannot save the failing input to {path}: {why}")


def _problem(problem: str) -> None:
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")


PYTHON_RUNNER = r"""
import importlib.util, json, sys
path, name = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("solution_under_test", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
solution = getattr(module, name)
for line in sys.stdin:
    if line.strip():
        case = json.loads(line)
        print(int(solution(case["board"], case["aloc"], case["bloc"])), flush=True)
"""


def python_command(target: str) -> list[str]:
    """The command that runs ``FILE:FUNCTION`` (``solution(board, aloc, bloc) -> int``, the
    Programmers form of footholds) on footholds input, in its own Python process."""
    path, sep, function = target.rpartition(":")
    if not sep or not path or not function.isidentifier():
        raise ValueError(
            f"--python takes FILE:FUNCTION such as solution.py:solution, not {target!r}"
        )
    if not Path(path).is_file():
        raise ValueError(f"--python: no file {path}")
    return [sys.executable, "-c", PYTHON_RUNNER, path, function]


def run(
    problem: str,
    command: Sequence[str],
    *,
    cases: int = 1000,
    duration: float | None = None,
    seed: int | None = None,
    time_limit: float = 2.0,
    max_size: tuple[int, int] = (5, 5),
    per_run: int = 100,
    jobs: int | None = None,
    save: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    backend: str = BACKEND,
) -> StressResult:
    """Stress-tests ``command`` on ``problem`` (see the module's documentation).

    ``cases`` random cases (or as many as fit in ``duration`` seconds), ``per_run`` of them
    per run of the program (``alpha`` reads one), ``jobs`` runs at once (default: the CPUs),
    ``time_limit`` seconds per run. ``seed`` (default: random) makes the run repeatable. On a
    failure the shrunk input is written to ``save`` if given. ``progress(cases_passed, runs,
    seconds)`` is called after every run; ``backend`` gives the expected answers. An
    unstartable command raises ``OSError``."""
    _problem(problem)
    _check_command(command)
    _check_seconds("time_limit", time_limit)
    if duration is not None:
        _check_seconds("duration", duration)
    if per_run < 1 or cases < 0:
        raise ValueError("per_run must be at least 1 and cases at least 0")
    rows, cols = max_size
    if not (rows >= 1 and cols >= 1 and rows * cols <= 64):
        raise ValueError(f"max_size must be ROWSxCOLS with at most 64 cells, got {rows}x{cols}")
    if save is not None:
        _check_save(save)
    seed = secrets.randbelow(2**32) if seed is None else seed
    rng = random.Random(seed)
    program = _Program(command, time_limit, backend)
    program.start_check()
    per_run = 1 if problem == "alpha" else per_run
    jobs = jobs or len(os.sched_getaffinity(0))
    started = time.monotonic()
    deadline = None if duration is None else started + duration

    def batches() -> Iterator[list[Case]]:
        made = 0
        while (deadline is None and made < cases) or (
            deadline is not None and time.monotonic() < deadline
        ):
            size = per_run if deadline is not None else min(per_run, cases - made)
            made += size
            yield [generate(problem, rng, max_size) for _ in range(size)]

    passed = runs = 0
    found: Failure | None = None
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        pending: list[Any] = []
        source = batches()
        while True:
            while len(pending) < 2 * jobs:
                batch = next(source, None)
                if batch is None:
                    break
                text = render(problem, batch)
                pending.append((batch, pool.submit(_compare, problem, batch, text, program)))
            if not pending:
                break
            batch, future = pending.pop(0)
            result = future.result()
            runs += 1
            if result is not None:
                found = result
                break
            passed += len(batch)
            if progress is not None:
                progress(passed, runs, time.monotonic() - started)
        # Runs still under way end before shrinking starts; their results do not count.
        pool.shutdown(wait=True, cancel_futures=True)
        if found is not None:
            found = _shrink(problem, found, program)
            if save is not None:
                failing = found.input.encode()
                write_whole(save, lambda file: file.write(failing))
    finally:  # Ctrl-C included: no program is left running
        pool.shutdown(wait=False, cancel_futures=True)
        program.kill_all()
    return StressResult(
        problem, seed, passed, runs, time.monotonic() - started, found, program.seconds
    )
