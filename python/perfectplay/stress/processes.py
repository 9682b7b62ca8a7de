"""Running a program under test: one process group a run, its output capped and compared as
judges compare it, and nothing left running when it ends, times out or the tester stops."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import numbers
import os
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from perfectplay.stress.problems import Case, expected_lines

__all__ = [
    "CRASH",
    "OUTPUT",
    "TIME",
    "WRONG",
    "Failure",
    "Program",
    "Stopped",
    "check_command",
    "check_seconds",
    "compare",
]

# The kinds of failure, in the words of the report.
WRONG, CRASH, TIME, OUTPUT = "wrong answer", "crash", "time limit", "malformed output"
_OUTPUT_CAP = 32 << 20  # bytes of standard output kept; a program printing more fails
_ERROR_CAP = 8 << 10  # bytes of standard error kept for the report


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


class Program:
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
        kill(process)
        process.wait()

    def kill_all(self) -> None:
        """Kills every run under way, with all they started, and refuses new runs."""
        with self._lock:
            self._stopped = True
            for process in self._live:
                kill(process)

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
            raise Stopped
        out: list[bytes] = []
        err: list[bytes] = []
        over = threading.Event()
        assert process.stdin and process.stdout and process.stderr
        readers = [
            threading.Thread(target=drain, args=(process.stdout, out, _OUTPUT_CAP, over, process)),
            threading.Thread(target=drain, args=(process.stderr, err, _ERROR_CAP, None, None)),
            threading.Thread(target=feed, args=(process.stdin, data)),
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
        kill(process)
        process.wait()
        with self._lock:
            self._live.discard(process)


class Stopped(Exception):
    """A run asked for after the program was stopped (Ctrl-C, or the end of the run)."""


def kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def drain(
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
            kill(process)
    stream.close()


def feed(stream: IO[bytes], data: bytes) -> None:
    try:
        stream.write(data)
        stream.close()
    except (BrokenPipeError, OSError):
        pass  # the program stopped reading: its output says the rest


def compare(problem: str, cases: Sequence[Case], text: str, program: Program) -> Failure | None:
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


def check_command(command: Any) -> None:
    if isinstance(command, (str, bytes)):
        raise TypeError(
            "command is a sequence of arguments, such as ['python3', 'sol.py'] or "
            f"shlex.split({command!r}), not a string"
        )
    if not command:
        raise ValueError("no command to test")


def check_seconds(name: str, seconds: object) -> None:
    """A finite, positive number of seconds (NaN and infinity would never time out)."""
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(seconds).__name__}")
    if not (math.isfinite(seconds) and float(seconds) > 0):
        raise ValueError(f"{name} must be a finite, positive number of seconds, got {seconds}")
