"""Helpers shared by the test modules."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from perfectplay.connect4.rules import Shape

T = TypeVar("T")


def play(board: str, moves: Iterable[int]) -> str:
    """The tic-tac-toe board after playing ``moves`` (cells 0..8) from ``board``."""
    cells = [c for c in board if c in "xo."]
    for cell in moves:
        assert cells[cell] == ".", f"cell {cell} is taken"
        cells[cell] = "x" if cells.count("x") == cells.count("o") else "o"
    return "".join(cells)


def footholds_replay(
    board: list[list[int]], a: tuple[int, int], b: tuple[int, int], line: Iterable[tuple[int, int]]
) -> tuple[str, int]:
    """Plays a footholds line from the start, checking every move, and returns (the player who
    is stuck or has lost their cell at the end, moves played). Raises AssertionError on an
    illegal move."""
    standing = [list(map(bool, row)) for row in board]
    pieces = {"A": a, "B": b}
    mover, other = "A", "B"
    played = 0
    for to in line:
        here = pieces[mover]
        assert standing[here[0]][here[1]], f"{mover} moved from a vanished cell"
        assert abs(to[0] - here[0]) + abs(to[1] - here[1]) == 1, f"{mover}: {here}->{to}"
        assert standing[to[0]][to[1]], f"{mover} stepped on a hole at {to}"
        standing[here[0]][here[1]] = False
        pieces[mover] = to
        mover, other = other, mover
        played += 1
    here = pieces[mover]
    if standing[here[0]][here[1]]:
        rows, cols = len(board), len(board[0])
        steps = [(here[0] + dr, here[1] + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        assert not any(0 <= r < rows and 0 <= c < cols and standing[r][c] for r, c in steps), (
            f"{mover} could still move after the line"
        )
    return mover, played


def in_fresh_thread(work: Callable[[], T]) -> T:
    """Runs `work` in a new thread and returns its result or raises its exception: the Rust
    searches keep what they learnt per thread, so this is a search that knows nothing yet."""
    results: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(work())
        except BaseException as error:  # handed back to the caller as it is
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return results[0]


def perfectplay_command(
    *args: str, stdin: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python -m perfectplay ARGS`` with ``stdin``, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "perfectplay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def assert_ctrl_c_stops_within_a_second(setup: str, work: str, after: float) -> None:
    """``work`` (after ``setup``) on the compiled core, sent Ctrl-C ``after`` seconds in, stops
    with KeyboardInterrupt within a second."""
    out, seconds = stopped_by_ctrl_c(setup, work, after, env={"PERFECTPLAY_BACKEND": "rust"})
    assert "interrupted" in out
    assert seconds < 1.0


def stopped_by_ctrl_c(
    setup: str, work: str, after: float, env: dict[str, str] | None = None, timeout: float = 60
) -> tuple[str, float]:
    """Runs ``setup`` then ``work`` in a fresh interpreter, sends it SIGINT ``after`` seconds
    into ``work``: what it printed ("interrupted" once ``work`` raised KeyboardInterrupt) and
    the seconds from the signal to its exit."""
    code = f"{setup}\nprint('go', flush=True)\ntry:\n    {work}\nexcept KeyboardInterrupt:\n"
    code += "    print('interrupted', flush=True)\n"
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        # As in a terminal: a background CI job would start it with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "go"
    time.sleep(after)
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=timeout)
    seconds = time.monotonic() - sent
    if "interrupted" not in out:  # say what happened instead, for the failing assert
        out += f"\n[exit status {process.returncode}; stderr: {err[-2000:]!r}]"
    return out, seconds


def openspiel_alpha_beta(benchmark: Any, game: str, rounds: int) -> float:
    """The value of OpenSpiel's ``alpha_beta_search`` of the game named ``game`` from its
    start, timed by ``benchmark`` over ``rounds`` rounds."""
    import pyspiel
    from open_spiel.python.algorithms import minimax

    value, _ = benchmark.pedantic(
        minimax.alpha_beta_search, (pyspiel.load_game(game),), rounds=rounds
    )
    return float(value)


def quiet_games(width: int, height: int, left: int, count: int, seed: int) -> list[list[int]]:
    """Random games of a board, of moves that complete no four, stopped ``left`` cells from
    the end (random play seldom gets so far on large boards)."""
    shape, rng = Shape(width, height), random.Random(seed)
    games: list[list[int]] = []
    while len(games) < count:
        position, moves = (0, 0, 0), []
        while shape.cells_left(position) > left:
            quiet = [c for c in shape.moves(position) if not shape.is_won(shape.play(position, c))]
            if not quiet:
                break
            moves.append(rng.choice(quiet))
            position = shape.play(position, moves[-1])
        if shape.cells_left(position) == left:
            games.append(moves)
    return games


def wide_positions() -> list[tuple[int, int, list[int], int]]:
    """The shared Connect Four positions of boards past 64 bits (and 9x5), as (width, height,
    columns from 0, the independent solver's score)."""
    # Not conftest's DATA: the benchmarks import this module beside a conftest of their own.
    lines = (Path(__file__).parent / "data" / "connect4_wide.txt").read_text().splitlines()
    return [
        (int(width), int(height), [int(col) for col in moves.split(",")], int(score))
        for width, height, moves, score in (line.split() for line in lines)
    ]
