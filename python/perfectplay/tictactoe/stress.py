"""Tic-tac-toe's stress-test problems (``perfectplay stress tictactoe|alpha|final``): cases drawn
from every legal board by kind, and unreachable ones for ``final``."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from perfectplay._kernel.play import explain_line
from perfectplay._kernel.stress import Problem
from perfectplay.errors import IllegalPosition
from perfectplay.mnk import twin as rules
from perfectplay.tictactoe import Position

__all__ = ["PROBLEMS"]

#: A case: a board as 9 characters of ``x o .``, row-major.
Board = str


@functools.cache
def _legal_boards() -> dict[str, list[Board]]:
    """Every legal tic-tac-toe board (5,478), sorted into the kinds the generators mix."""
    seen: set[Position] = set()
    frontier = [Position()]
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


def _render_boards(cases: Sequence[Board]) -> str:
    return f"{len(cases)}\n" + "".join(f"{c[0:3]}\n{c[3:6]}\n{c[6:9]}\n" for c in cases)


def _render_alpha(cases: Sequence[Board]) -> str:
    (case,) = cases
    codes = [".xo".index(cell) for cell in case]
    return "".join(" ".join(map(str, codes[r * 3 : r * 3 + 3])) + "\n" for r in range(3))


def _render_final(cases: Sequence[Board]) -> str:
    return "".join(case.upper() + "\n" for case in cases) + "end\n"


def _generate_final(rng: random.Random) -> Board:
    if rng.random() < 0.45:
        return _pick(rng, {"x won": 2, "o won": 2, "full": 1, "double line": 1})
    if rng.random() < 0.25:
        return _pick(rng, {"playing": 1, "near end": 2})
    return _illegal_board(rng)


def _reachable(case: Board) -> bool:
    try:
        Position(case)
    except IllegalPosition:
        return False
    return True


def _going_on(case: Board) -> bool:
    try:
        return not Position(case).is_over
    except IllegalPosition:
        return False


def _reader(name: str, valid: Callable[[Board], bool], wanted: str) -> Callable[[int, Any], Board]:
    def read(index: int, case: Any) -> Board:
        """A case as the generators make it: 9 cells of ``x o .`` (rows may be split by
        ``/``)."""
        cells = case.replace("/", "") if isinstance(case, str) else None
        if cells is None or len(cells) != 9 or set(cells) - set("xo."):
            raise ValueError(
                f"case {index}: {case!r} is not a tic-tac-toe board: 9 cells of x, o and . "
                "(rows may be split by /)"
            )
        if not valid(cells):
            raise ValueError(f"case {index}: {case!r} is not an input of {name}: {wanted}")
        return cells

    return read


def _simpler(case: Board) -> Iterator[Board]:
    """One mark fewer, or one of each."""
    marks = [cell for cell in range(9) if case[cell] != "."]
    for cell in marks:
        yield case[:cell] + "." + case[cell + 1 :]
    for first in marks:
        for second in marks:
            if first < second and case[first] != case[second]:
                pair = case[:first] + "." + case[first + 1 :]
                yield pair[:second] + "." + pair[second + 1 :]


def _explain_final(case: Board) -> str:
    """The board as a grid and why it is or is not a valid final position, naming every line
    of three."""
    try:
        position = Position(case)
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


def _explain_game(case: Board) -> str:
    return explain_line(Position(case))


def _boards(name: str, mix: Any, render: Any, valid: Any, what: str, **more: Any) -> Problem:
    """The problem of boards drawn from ``mix``: valid when ``valid`` says (``what``)."""
    return Problem(
        generate=lambda rng, size: _pick(rng, mix),
        render=render,
        read=_reader(name, valid, what),
        valid=valid,
        simpler=_simpler,
        explain=_explain_game,
        **more,
    )


PROBLEMS = {
    "tictactoe": _boards(
        "tictactoe", _TICTACTOE_MIX, _render_boards, _reachable, "a board that arises in play"
    ),
    "alpha": _boards(
        "alpha", _ALPHA_MIX, _render_alpha, _going_on, "a game still going on", most_per_run=1
    ),
    "final": Problem(
        generate=lambda rng, size: _generate_final(rng),
        render=_render_final,
        read=_reader("final", lambda case: True, "any board"),
        valid=lambda case: True,
        simpler=_simpler,
        explain=_explain_final,
    ),
}
