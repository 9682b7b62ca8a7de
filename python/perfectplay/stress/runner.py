"""A whole stress run: cases generated, run in parallel jobs, compared, and the first failure
shrunk and saved; and one check of given cases."""

from __future__ import annotations

import os
import random
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from perfectplay._kernel.backend import BACKEND
from perfectplay._kernel.files import write_whole
from perfectplay.stress.problems import PROBLEMS, Case, generate, problem_of, render
from perfectplay.stress.processes import (
    Failure,
    Program,
    check_command,
    check_seconds,
    compare,
)
from perfectplay.stress.report import StressResult
from perfectplay.stress.shrinking import shrink

__all__ = ["check", "check_save", "python_command", "run"]


def check(
    problem: str,
    command: Sequence[str],
    cases: Sequence[Case],
    *,
    time_limit: float = 2.0,
    backend: str = BACKEND,
) -> Failure | None:
    """Runs ``command`` once on ``cases`` (``alpha`` reads one) and compares its output
    with perfectplay's: the failure, or None if every answer is right."""
    rules = problem_of(problem)
    check_command(command)
    check_seconds("time_limit", time_limit)
    cases = [rules.read(index, case) for index, case in enumerate(cases)]
    if rules.most_per_run is not None and len(cases) > rules.most_per_run:
        most = "one case" if rules.most_per_run == 1 else f"{rules.most_per_run} cases"
        raise ValueError(f"{problem} reads {most} a run, not {len(cases)}")
    program = Program(command, time_limit, backend)
    try:
        return compare(problem, cases, render(problem, cases), program)
    finally:
        program.kill_all()


def check_save(save: str | os.PathLike[str]) -> None:
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


def python_command(target: str, problem: str) -> list[str]:
    """The command that runs ``FILE:FUNCTION`` on the problem's input in its own Python process
    (footholds: ``solution(board, aloc, bloc) -> int``, the Programmers form)."""
    runner = problem_of(problem).python_runner
    if runner is None:
        with_one = [name for name, each in PROBLEMS.items() if each.python_runner is not None]
        raise ValueError(f"--python FILE:FUNCTION is for {', '.join(with_one)} only")
    path, sep, function = target.rpartition(":")
    if not sep or not path or not function.isidentifier():
        raise ValueError(
            f"--python takes FILE:FUNCTION such as solution.py:solution, not {target!r}"
        )
    if not Path(path).is_file():
        raise ValueError(f"--python: no file {path}")
    return [sys.executable, "-c", runner, path, function]


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
    rules = problem_of(problem)
    check_command(command)
    check_seconds("time_limit", time_limit)
    if duration is not None:
        check_seconds("duration", duration)
    if per_run < 1 or cases < 0:
        raise ValueError("per_run must be at least 1 and cases at least 0")
    rows, cols = max_size
    if not (rows >= 1 and cols >= 1 and rows * cols <= 64):
        raise ValueError(f"max_size must be ROWSxCOLS with at most 64 cells, got {rows}x{cols}")
    if save is not None:
        check_save(save)
    seed = secrets.randbelow(2**32) if seed is None else seed
    rng = random.Random(seed)
    program = Program(command, time_limit, backend)
    program.start_check()
    per_run = min(per_run, rules.most_per_run or per_run)
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
                pending.append((batch, pool.submit(compare, problem, batch, text, program)))
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
            found = shrink(problem, found, program)
            if save is not None:
                failing = found.input.encode()
                write_whole(save, lambda file: file.write(failing))
    finally:  # Ctrl-C included: no program is left running
        pool.shutdown(wait=False, cancel_futures=True)
        program.kill_all()
    return StressResult(
        problem, seed, passed, runs, time.monotonic() - started, found, program.seconds
    )
