"""m,n,k-games: geometry, legality and search, the twin of ``rust/games/mnk/``.

Cell ``(row, col)`` of a ``rows x cols`` board is bit ``row * cols + col`` of an int mask; a
position is an X mask and an O mask, or, in the search, (mine, theirs) for the side to move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from perfectplay._kernel import args, batch, driver, score
from perfectplay._kernel.args import MAX_CELLS, to_item
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.options import Options, SearchOptions, random_args, takes
from perfectplay._kernel.types import BatchSolution, Codes, Solution
from perfectplay.errors import IllegalPosition, SearchLimitExceeded
from perfectplay.mnk import prover

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "analyze",
    "batch_solve",
    "best_move",
    "breaker_proof",
    "clear_tables",
    "is_reachable",
    "random_positions",
    "ranked_moves",
    "search_value",
    "solve",
    "solve_empty",
]


class Geometry:
    """A ``rows x cols`` board where ``k`` in a row wins, with its winning windows."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        if rows <= 0 or cols <= 0:
            raise ValueError("board is empty")
        if rows * cols > MAX_CELLS:
            raise ValueError(f"board has {rows * cols} cells; at most {MAX_CELLS} are supported")
        if not 1 <= k <= max(rows, cols):
            raise ValueError(
                f"k must be between 1 and {max(rows, cols)} for a {rows}x{cols} board, got {k}"
            )
        self.rows, self.cols, self.k = rows, cols, k
        self.full = (1 << rows * cols) - 1
        windows: list[int] = []
        for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for row in range(rows):
                for col in range(cols):
                    end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                    if not (0 <= end_row < rows and 0 <= end_col < cols):
                        continue
                    window = 0
                    for step in range(k):
                        window |= 1 << (row + d_row * step) * cols + col + d_col * step
                    if window not in windows:  # k = 1 makes every direction one cell
                        windows.append(window)
        self.windows = windows

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def has_line(self, stones: int) -> bool:
        return any(stones & w == w for w in self.windows)

    def wins_now(self, mine: int, theirs: int) -> bool:
        """Can the side with ``mine`` complete a line with its next move?"""
        return any(w & theirs == 0 and (w & mine).bit_count() == self.k - 1 for w in self.windows)


def marks_to_masks(marks: list[int]) -> tuple[int, int]:
    """(X mask, O mask) of marks listed cell by cell."""
    x = sum(1 << cell for cell, mark in enumerate(marks) if mark == 1)
    o = sum(1 << cell for cell, mark in enumerate(marks) if mark == 2)
    return x, o


def x_to_move(x: int, o: int) -> bool:
    """X moves when both have as many marks (X moves first)."""
    return x.bit_count() == o.bit_count()


PLAYING, WON, DRAWN = "playing", "won", "drawn"


def status(geometry: Geometry, x: int, o: int) -> str:
    """PLAYING, WON or DRAWN for a board that can arise in play; IllegalPosition says why not."""
    xs, os_, k = x.bit_count(), o.bit_count(), geometry.k
    if xs not in (os_, os_ + 1):
        raise IllegalPosition(
            f"X has {xs} marks and O has {os_}, but X moves first, so X has as many marks as O "
            "or one more"
        )
    x_line, o_line = geometry.has_line(x), geometry.has_line(o)
    if x_line and o_line:
        raise IllegalPosition(f"both X and O have {k} in a row")
    if x_line and xs == os_:
        raise IllegalPosition(f"X has {k} in a row but O moved after the game ended")
    if o_line and xs == os_ + 1:
        raise IllegalPosition(f"O has {k} in a row but X moved after the game ended")
    if x_line or o_line:
        name, stones = ("X", x) if x_line else ("O", o)
        common = geometry.full
        for window in geometry.windows:
            if stones & window == window:
                common &= window
        if common == 0:
            # The winner's last move completed every line it has, so they must share a cell.
            raise IllegalPosition(
                f"{name}'s lines of {k} share no cell, so no single last move made them all "
                "(a move after the game ended)"
            )
        return WON
    return DRAWN if x | o == geometry.full else PLAYING


def negamax(
    geometry: Geometry,
    mine: int,
    theirs: int,
    memo: dict[tuple[int, int], int],
    count_node: Callable[[], None] = lambda: None,
) -> int:
    """The exact score (``score.py``) of a legal position with ``mine`` to move: negamax over
    every move, memoised. One shortcut, plainly right: a side that can complete a line now
    wins at once, the best score there is."""
    key = (mine, theirs)
    if key not in memo:
        count_node()
        empty = geometry.full & ~(mine | theirs)
        empties = empty.bit_count()
        if geometry.has_line(theirs):
            memo[key] = score.loss(empties)
        elif empty == 0:
            memo[key] = score.DRAW
        elif geometry.wins_now(mine, theirs):
            memo[key] = score.win(empties - 1)
        else:
            memo[key] = max(
                -negamax(geometry, theirs, mine | 1 << cell, memo, count_node)
                for cell in range(geometry.cells)
                if empty >> cell & 1
            )
    return memo[key]


class Search:
    """A legal position's search: positions are (mine, theirs), the side to move first; exact
    scores are memoised, nodes counted against the node limit."""

    def __init__(
        self,
        geometry: Geometry,
        node_limit: int | None = None,
        memo: dict[tuple[int, int], int] | None = None,
    ) -> None:
        self.geometry = geometry
        self.node_limit = node_limit
        self.nodes = 0
        self.memo: dict[tuple[int, int], int] = {} if memo is None else memo

    def count_node(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimitExceeded(f"search needed more than node_limit={self.node_limit} nodes")

    def moves(self, position: tuple[int, int]) -> list[int]:
        mine, theirs = position
        if self.geometry.has_line(theirs):
            return []
        empty = self.geometry.full & ~(mine | theirs)
        return [cell for cell in range(self.geometry.cells) if empty >> cell & 1]

    def play(self, position: tuple[int, int], cell: int) -> tuple[int, int]:
        mine, theirs = position
        return theirs, mine | 1 << cell

    def cells_left(self, position: tuple[int, int]) -> int:
        return (self.geometry.full & ~(position[0] | position[1])).bit_count()

    def score(self, position: tuple[int, int]) -> int:
        return negamax(self.geometry, *position, self.memo, self.count_node)


class _Call:
    """A checked call: the position (X and O masks), its search and the move form."""

    def __init__(self, geometry: Geometry, x: int, o: int, options: Options):
        status(geometry, x, o)
        self.search = Search(geometry, options.node_limit)
        self.x_first = x_to_move(x, o)
        self.root = (x, o) if self.x_first else (o, x)
        self.cols = geometry.cols

    def move_form(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def solve(self) -> Solution[tuple[int, int]]:
        return driver.solve(self.search, self.root, ("x", "o"), self.x_first, self.move_form)


#: The options of a function of one board.
BOARD = ("node_limit", "table_mb")


def _call(board: Any, k: Any, options: Options) -> _Call:
    rows, cols, marks = read_mark_grid(to_item(board))
    geometry = Geometry(rows, cols, args.int_arg(k, "k"))
    return _Call(geometry, *marks_to_masks(marks), options)


def clear_tables() -> None:
    """Frees the table this thread's searches keep (a given ``table_mb`` one, however big):
    the next search starts from an empty one. The pure-Python twin keeps none."""


#: The options of ``breaker_proof``.
PROOF = ("node_limit", "table_mb", "progress")

#: Nodes between two updates of a proof's progress bar (the compiled core's poll interval).
PROGRESS_EVERY = 1 << 15


@takes(PROOF)
def breaker_proof(board: Any, k: int, breaker_first: bool, **options: Unpack[SearchOptions]) -> Any:
    """A proof that Breaker stops Maker from getting ``k`` in a row first: Maker is the side
    to move, or with ``breaker_first`` the other side. ``None`` when no proof is found; else
    ``(reply or None, root, nodes)``, each node ``("pairs", [(a, b), ...])``,
    ``("potential",)``, ``("split", [(move, reply, node), ...])``, ``("mirror", node,
    symmetry)``, ``("forced", [move, reply, node])`` or ``("won",)``; cells are
    ``row * cols + col``. ``perfectplay.mnk.prove`` writes it as a certificate."""
    checked = Options.read(options, "breaker_proof", PROOF)
    call = _call(board, k, checked)
    geometry, (mine, theirs) = call.search.geometry, call.root
    if status(geometry, *((mine, theirs) if call.x_first else (theirs, mine))) != PLAYING:
        return None
    maker, breaker = (theirs, mine) if breaker_first else (mine, theirs)
    given = checked.table_mb
    # Not given: half the machine's memory, so a long proof stops before the system runs out.
    memory = prover.half_the_machine() if given is None else int(float(given) * (1 << 20))
    search, first = call.search, bool(breaker_first)
    if not checked.progress:
        return prover.prove(geometry, maker, breaker, first, search.count_node, memory)
    bar = batch.Progress("proof nodes")

    def count_node() -> None:
        search.count_node()
        if search.nodes % PROGRESS_EVERY == 0:
            bar(search.nodes, checked.node_limit or 0)

    try:
        return prover.prove(geometry, maker, breaker, first, count_node, memory)
    finally:
        bar.close()


@takes(BOARD)
def solve(board: Any, k: int, **options: Unpack[SearchOptions]) -> Solution[tuple[int, int]]:
    """Solves an m,n,k position for the side to move (``k`` in a row wins, X moves first);
    moves are (row, col)."""
    checked = Options.read(options, "solve", BOARD)
    return _call(board, k, checked).solve()


@takes(BOARD)
def search_value(board: Any, k: int, **options: Unpack[SearchOptions]) -> int:
    """The value for the side to move, 1, 0 or -1, by the search alone, no move ranked
    (``mnk.value`` runs it when the prover finds no proof)."""
    checked = Options.read(options, "search_value", BOARD)
    call = _call(board, k, checked)
    return score.value(call.search.score(call.root))


@takes(BOARD)
def solve_empty(
    rows: int, cols: int, k: int, **options: Unpack[SearchOptions]
) -> Solution[tuple[int, int]]:
    """The empty ``rows`` x ``cols`` board where ``k`` in a row wins, X to move."""
    checked = Options.read(options, "solve_empty", BOARD)
    geometry = Geometry(*args.board_sides(rows, cols), args.int_arg(k, "k"))
    return _Call(geometry, 0, 0, checked).solve()


@takes(BOARD)
def analyze(
    board: Any, k: int, **options: Unpack[SearchOptions]
) -> dict[tuple[int, int], tuple[int, int]]:
    """{(row, col): (value for the player making it, plies from now with it)} for every move."""
    checked = Options.read(options, "analyze", BOARD)
    call = _call(board, k, checked)
    return driver.analyze(call.search, call.root, call.move_form)


@takes(BOARD)
def ranked_moves(
    board: Any, k: int, **options: Unpack[SearchOptions]
) -> list[tuple[tuple[int, int], int, int]]:
    """[((row, col), value for the player making the move, plies from now with it)] for every
    move, best first: the higher value; among wins the quicker, among draws and losses the
    longer; then the lower cell."""
    checked = Options.read(options, "ranked_moves", BOARD)
    call = _call(board, k, checked)
    return driver.ranked(call.search, call.root, call.move_form)


@takes(BOARD)
def best_move(board: Any, k: int, **options: Unpack[SearchOptions]) -> tuple[int, int] | None:
    """The first best move as (row, col), or None once the game is over."""
    checked = Options.read(options, "best_move", BOARD)
    call = _call(board, k, checked)
    best = driver.best_move(call.search, call.root)
    return None if best is None else call.move_form(best)


def is_reachable(board: Any, k: int) -> bool:
    """Can the board arise in play? Raises only for malformed input."""
    rows, cols, marks = read_mark_grid(to_item(board))
    geometry = Geometry(rows, cols, args.int_arg(k, "k"))
    try:
        status(geometry, *marks_to_masks(marks))
    except IllegalPosition:
        return False
    return True


#: ``batch_solve``'s options.
BATCH = ("moves", "threads", "node_limit", "table_mb", "errors", "progress")


@takes(BATCH)
def batch_solve(boards: Any, k: int, **options: Unpack[SearchOptions]) -> BatchSolution:
    """Many positions of one board shape and one k: see ``perfectplay.BatchSolution``."""
    checked = Options.read(options, "batch_solve", BATCH)
    k = args.int_arg(k, "k")
    grids, shape = _read_grids(boards)
    if shape is None:  # no board could be read: every row is bad
        return batch.solve_rows(list(grids), 0, checked, "", _never)
    rows, cols = shape
    geometry = Geometry(rows, cols, k)

    def legal(grid: tuple[int, int, list[int]]) -> tuple[int, int]:
        if grid[:2] != shape:
            raise ValueError(f"board is {grid[0]}x{grid[1]}, not {rows}x{cols} as the batch")
        x, o = marks_to_masks(grid[2])
        status(geometry, x, o)
        return x, o

    parsed = [
        grid if isinstance(grid, BaseException) else batch.rows_of(legal, grid) for grid in grids
    ]

    def solve_row(masks: tuple[int, int]) -> batch.Label:
        x, o = masks
        search = Search(geometry, checked.node_limit)
        root = (x, o) if x_to_move(x, o) else (o, x)
        return driver.label(search, root, checked.moves)

    return batch.solve_rows(parsed, rows * cols, checked, f"{rows}x{cols} k={k}", solve_row)


def _never(row: Any) -> batch.Label:
    raise AssertionError("no row to solve")


def _read_grids(
    boards: Any,
) -> tuple[list[tuple[int, int, list[int]] | BaseException], tuple[int, int] | None]:
    """Every board read (or its error) and the batch's shape: an (N, rows, cols) integer
    array, or a sequence of boards in any form ``solve`` takes."""
    import numpy as np

    if isinstance(boards, np.ndarray):
        shape, cells = batch.array_cells(boards, bools=False)
        if len(shape) != 3:
            raise ValueError(f"boards must have shape (N, rows, cols), got {list(shape)}")
        count, rows, cols = shape
        size = rows * cols
        if size == 0:
            raise ValueError("board is empty")
        grids: list[tuple[int, int, list[int]] | BaseException] = []
        for row in range(count):
            marks = cells[row * size : (row + 1) * size]
            bad = next((code for code in marks if code not in (0, 1, 2)), None)
            grids.append(
                ValueError(f"cell value {bad} is not 0, 1 or 2")
                if bad is not None
                else (rows, cols, marks)
            )
        return grids, (rows, cols)
    grids = [
        batch.rows_of(lambda board: read_mark_grid(to_item(board)), board)
        for board in batch.sequence_items(boards, "boards")
    ]
    shapes = [(g[0], g[1]) for g in grids if not isinstance(g, BaseException)]
    return grids, shapes[0] if shapes else None


#: ``random_positions``' options (tic-tac-toe's too).
RANDOM = ("seed", "plies", "ongoing", "threads")


def random_marks(geometry: Geometry, n: Any, options: Options) -> Codes:
    """Random positions of a geometry as ``(n, rows, cols)`` uint8 codes: the compiled core's
    very positions for the same seed (``engine/random.rs``)."""
    import numpy as np

    count, seed_, low, high = random_args(n, options, geometry.cells)
    out = np.zeros((count, geometry.rows, geometry.cols), dtype=np.uint8)
    search = Search(geometry)
    for row in range(count):
        rng = batch.SplitMix64.for_row(seed_, row)
        x = o = 0
        for _ in range(low + rng.below(high - low + 1)):
            mine, theirs = (x, o) if x_to_move(x, o) else (o, x)
            legal = search.moves((mine, theirs)) if not geometry.has_line(theirs) else []
            if not legal or geometry.has_line(mine):
                break
            cell = legal[rng.below(len(legal))]
            after = (x | 1 << cell, o) if x_to_move(x, o) else (x, o | 1 << cell)
            # Over when the side to move next has no move (a line, or a full board).
            if options.ongoing and not search.moves(after if x_to_move(*after) else after[::-1]):
                break
            x, o = after
        codes = [(x >> c & 1) + 2 * (o >> c & 1) for c in range(geometry.cells)]
        out[row] = np.array(codes, dtype=np.uint8).reshape(geometry.rows, geometry.cols)
    return out


@takes(RANDOM)
def random_positions(
    rows: Any, cols: Any, k: Any, n: Any, **options: Unpack[SearchOptions]
) -> Codes:
    """``n`` positions by uniformly random play from the empty board, ``(n, rows, cols)``
    uint8 codes (``ongoing=True``: only games still going on)."""
    checked = Options.read(options, "random_positions", RANDOM)
    geometry = Geometry(*args.board_sides(rows, cols), args.int_arg(k, "k"))
    return random_marks(geometry, n, checked)
