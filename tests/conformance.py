"""The conformance kit every game's tests use: what both backends must agree on, random legal
positions of each game, a replay of a solution's line by the plain rules, and the malformed
input every parser must refuse alike. tests/test_conformance.py runs it for every game of
``perfectplay.GAMES`` and fails for a registered game without its entry here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from hypothesis import strategies as st

from perfectplay._kernel.backend import implementation
from perfectplay.connect4 import rules as connect4_rules
from perfectplay.footholds import twin as pure_footholds
from perfectplay.mnk import twin as pure_mnk
from tests_support import footholds_replay


def outcome_of(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """("ok", result) or ("raises", exception class): what both backends must agree on."""
    try:
        return ("ok", function(*args, **kwargs))
    except (ValueError, TypeError) as error:
        return ("raises", type(error))


def both_backends(game: str, function: str, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """The outcome of one call on the Rust and on the Python backend."""
    return tuple(  # type: ignore[return-value]
        outcome_of(getattr(implementation(game, backend), function), *args, **kwargs)
        for backend in ("rust", "python")
    )


# Malformed input of every shape: wrong types, wrong sizes, unknown symbols, nesting.
junk = st.recursive(
    st.one_of(
        st.integers(-2, 3),
        st.booleans(),
        st.none(),
        st.text(max_size=3),
        st.floats(allow_nan=False),
        st.binary(max_size=2),
    ),
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner),
    max_leaves=20,
)


def _windows(rows: int, cols: int, k: int) -> list[tuple[int, ...]]:
    found = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.append(tuple(rr * cols + cc for rr, cc in cells))
    return found


@st.composite
def mark_positions(draw: st.DrawFn, rows: int, cols: int, k: int, most_empty: int) -> str:
    """A legal position: random moves from the empty board, stopping at the first line, with
    at most ``most_empty`` empty cells (so the twin's exhaustive search stays quick)."""
    cells = rows * cols
    order = draw(st.permutations(range(cells)))
    length = draw(st.integers(max(0, cells - most_empty), cells))
    marks = ["."] * cells
    windows = _windows(rows, cols, k)
    for turn, cell in enumerate(order[:length]):
        marks[cell] = "x" if turn % 2 == 0 else "o"
        if any(all(marks[c] == marks[cell] for c in w) for w in windows if cell in w):
            break
    return "/".join("".join(marks[r * cols : (r + 1) * cols]) for r in range(rows))


@st.composite
def mnk_positions(draw: st.DrawFn) -> tuple[str, int]:
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    k = draw(st.integers(1, max(rows, cols)))
    return draw(mark_positions(rows, cols, k, most_empty=10)), k


@st.composite
def footholds_positions(draw: st.DrawFn, max_side: int = 4) -> tuple[list[list[int]], Any, Any]:
    """A board of up to ``max_side`` x ``max_side`` with holes, and two pieces on footholds."""
    rows, cols = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    board = [[draw(st.sampled_from([1, 1, 1, 0])) for _ in range(cols)] for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]]
    if not cells:
        board[0][0], cells = 1, [(0, 0)]
    return board, draw(st.sampled_from(cells)), draw(st.sampled_from(cells))


def replay_marks(board: str, k: int, line: tuple[Any, ...]) -> tuple[bool, str | None, int]:
    """Plays a line of (row, col) or cell moves by the plain m,n,k rules: (the game is over at
    the end, the winner or None, moves played). Raises AssertionError on an illegal move."""
    rows = [row for row in board.split("/") if row]
    geometry = pure_mnk.Geometry(len(rows), len(rows[0]), k)
    x, o = pure_mnk.marks_to_masks([".xo".index(c) for c in "".join(rows)])
    search = pure_mnk.Search(geometry)
    x_moves = pure_mnk.x_to_move(x, o)
    position = (x, o) if x_moves else (o, x)
    for move in line:
        cell = move if isinstance(move, int) else move[0] * geometry.cols + move[1]
        assert cell in search.moves(position), f"illegal move {move}"
        position = search.play(position, cell)
        x_moves = not x_moves
    over = not search.moves(position)
    # The player who just moved has a line, or nobody has.
    last_mover_won = geometry.has_line(position[1])
    winner = ("o" if x_moves else "x") if last_mover_won else None
    return over, winner, len(line)


@st.composite
def connect4_positions(draw: st.DrawFn, most_empty: int = 12) -> tuple[list[int], int, int]:
    """Columns played from the empty board of a 4..7 x 4..6 board, stopping at a four, with at
    most ``most_empty`` empty cells (so the twin's search stays quick)."""
    width, height = draw(st.integers(4, 7)), draw(st.integers(4, 6))
    shape = connect4_rules.Shape(width, height)
    position: connect4_rules.Position = (0, 0, 0)
    columns: list[int] = []
    length = draw(st.integers(max(0, shape.cells - most_empty), shape.cells))
    while len(columns) < length:
        legal = shape.moves(position)
        if not legal:
            break
        col = draw(st.sampled_from(legal))
        position = shape.play(position, col)
        columns.append(col)
    return columns, width, height


def replay_columns(
    position: tuple[Any, ...], line: tuple[Any, ...]
) -> tuple[bool, str | None, int]:
    """Plays a line of columns by the twin's Connect Four rules, as ``replay_marks`` does."""
    columns, width, height = position
    shape = connect4_rules.Shape(width, height)
    state: connect4_rules.Position = (0, 0, 0)
    for col in [*columns, *line]:
        assert col in shape.moves(state), f"illegal move {col}"
        state = shape.play(state, col)
    over = not shape.moves(state)
    # Stones played decide who moved last: the first player after an odd number.
    winner = ("x" if state[2] % 2 else "o") if shape.is_won(state) else None
    return over, winner, len(line)


class Game(NamedTuple):
    """How the kit drives one game: a strategy of positions (argument tuples), the calls that
    solve and analyze one, and a replay of a line by the plain rules."""

    name: str
    positions: st.SearchStrategy[tuple[Any, ...]]
    solve: Callable[..., Any]
    analyze: Callable[..., Any]
    ranked_moves: Callable[..., Any]
    best_move: Callable[..., Any]
    replay: Callable[[tuple[Any, ...], Any], tuple[bool, str | None, int]]
    malformed: st.SearchStrategy[tuple[Any, ...]]
    #: The call that must refuse malformed arguments alike on both backends.
    check: Callable[..., Any]


def _replay_footholds(position: tuple[Any, ...], solution: Any) -> tuple[bool, str | None, int]:
    board, a, b = position
    loser, played = footholds_replay(board, a, b, solution.line)
    return True, "B" if loser == "A" else "A", played


locations = st.one_of(st.tuples(st.integers(-1, 4), st.integers(-1, 4)), junk)

GAMES = [
    Game(
        "tictactoe",
        mark_positions(3, 3, 3, most_empty=9).map(lambda board: (board,)),
        solve=lambda api, board: api.solve(board),
        analyze=lambda api, board: api.analyze(board),
        ranked_moves=lambda api, board: api.ranked_moves(board),
        best_move=lambda api, board: api.best_move(board),
        replay=lambda position, solution: replay_marks(position[0], 3, solution.line),
        malformed=st.one_of(junk, st.text(alphabet="xo.012/\n q", max_size=20)).map(
            lambda board: (board,)
        ),
        check=lambda api, board: api.is_reachable(board),
    ),
    Game(
        "mnk",
        mnk_positions(),
        solve=lambda api, board, k: api.solve(board, k),
        analyze=lambda api, board, k: api.analyze(board, k),
        ranked_moves=lambda api, board, k: api.ranked_moves(board, k),
        best_move=lambda api, board, k: api.best_move(board, k),
        replay=lambda position, solution: replay_marks(position[0], position[1], solution.line),
        malformed=st.tuples(
            st.one_of(junk, st.text(alphabet="xo.012/\n q", max_size=20)),
            st.one_of(st.integers(-1, 6), junk),
        ),
        check=lambda api, board, k: api.is_reachable(board, k),
    ),
    Game(
        "connect4",
        connect4_positions(),
        solve=lambda api, columns, w, h: api.solve(columns, width=w, height=h),
        analyze=lambda api, columns, w, h: api.analyze(columns, width=w, height=h),
        ranked_moves=lambda api, columns, w, h: api.ranked_moves(columns, width=w, height=h),
        best_move=lambda api, columns, w, h: api.best_move(columns, width=w, height=h),
        replay=lambda position, solution: replay_columns(position, solution.line),
        malformed=st.tuples(
            st.one_of(junk, st.text(alphabet="0123456789xo./\n q", max_size=20)),
            st.one_of(st.none(), st.integers(-1, 12), junk),
            st.one_of(st.none(), st.integers(-1, 12), junk),
        ),
        check=lambda api, position, w, h: api.is_reachable(position, width=w, height=h),
    ),
    Game(
        "footholds",
        footholds_positions(),
        solve=lambda api, board, a, b: api.solve(board, a, b),
        analyze=lambda api, board, a, b: api.analyze(board, a, b),
        ranked_moves=lambda api, board, a, b: api.ranked_moves(board, a, b),
        # The best move footholds prefers: solve's line starts with it.
        best_move=lambda api, board, a, b: next(iter(api.solve(board, a, b).line), None),
        replay=_replay_footholds,
        malformed=st.tuples(
            st.one_of(junk, st.text(alphabet="01/\n x2", max_size=20)), locations, locations
        ),
        check=lambda api, board, a, b: api.total_moves(board, a, b),
    ),
]

# The twin's footholds rules, named here so a reader of the kit finds every game's rules.
FOOTHOLDS_RULES = pure_footholds
