"""Disappearing footholds' stress-test problem (``perfectplay stress footholds``): random
boards with holes, walls and shared cells; ``--python FILE:FUNCTION`` tests the Programmers
form ``solution(board, aloc, bloc) -> int``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

from perfectplay._kernel.play import explain_line
from perfectplay._kernel.stress import Problem
from perfectplay.footholds import Position

__all__ = ["PROBLEMS"]

#: A case: (board rows of 0/1, aloc, bloc).
Game = tuple[tuple[tuple[int, ...], ...], tuple[int, int], tuple[int, int]]
#: Random games tried on each smaller board when shrinking.
RESTARTS = 8


def _game(rng: random.Random, max_rows: int, max_cols: int) -> Game:
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


def _render(cases: Sequence[Game]) -> str:
    return "".join(
        json.dumps({"board": [list(row) for row in board], "aloc": list(a), "bloc": list(b)}) + "\n"
        for board, a, b in cases
    )


def _read(index: int, case: Any) -> Game:
    """A case as the generators make it: (board rows of 0/1, aloc, bloc)."""
    try:
        board, a, b = case
        game = (
            tuple(tuple(int(cell) for cell in row) for row in board),
            (int(a[0]), int(a[1])),
            (int(b[0]), int(b[1])),
        )
        Position([list(row) for row in game[0]], game[1], game[2])
    except (ValueError, TypeError) as error:
        raise ValueError(
            f"case {index}: {case!r} is not a footholds game (board rows of 0/1, aloc, bloc): "
            f"{error}"
        ) from None
    return game


def _simpler(case: Game) -> Iterator[Game]:
    """A row or a column fewer, or one foothold fewer."""
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


def _smaller(case: Game) -> Iterator[Game]:
    """Fresh random games on every board smaller than the case's, smallest first, RESTARTS a
    size (seeded by the case's area): one step at a time can stall on a big board (a row
    holding a piece is never dropped)."""
    board = case[0]
    area, side = len(board) * len(board[0]), max(len(board), len(board[0]))
    rng = random.Random(area)
    sizes = sorted(
        ((rows, cols) for rows in range(1, side + 1) for cols in range(1, side + 1)),
        key=lambda size: (size[0] * size[1], size),
    )
    for rows, cols in sizes:
        if rows * cols >= area:
            return
        for _ in range(RESTARTS):
            yield _game(rng, rows, cols)


def _explain(case: Game) -> str:
    board, a, b = case
    return explain_line(Position([list(row) for row in board], a, b))


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


PROBLEMS = {
    "footholds": Problem(
        generate=lambda rng, size: _game(rng, *size),
        render=_render,
        read=_read,
        valid=lambda case: True,
        simpler=_simpler,
        explain=_explain,
        smaller=_smaller,
        python_runner=PYTHON_RUNNER,
    ),
}
