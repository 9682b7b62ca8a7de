"""Connect Four: the twin of ``rust/games/connect4/``, plainly right and slow (small boards,
positions near the end). The rules are ``rules.py``'s; the search is negamax over every legal
column, memoised by position, scored by ``score.py``; Pons' score follows from that score
exactly (``rules.pons_of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay._kernel import batch, driver
from perfectplay._kernel import score as scoring
from perfectplay._kernel.args import to_item
from perfectplay._kernel.options import Options, SearchOptions, random_args, takes
from perfectplay._kernel.types import BatchSolution, Codes, Solution
from perfectplay.connect4.rules import (
    Position,
    Shape,
    codes_of,
    default_shape,
    engine_of,
    from_codes,
    parse,
    pons_of,
)
from perfectplay.errors import IllegalPosition, SearchLimitExceeded

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "analyze",
    "batch_solve",
    "best_move",
    "best_moves",
    "clear_tables",
    "is_reachable",
    "random_positions",
    "ranked_moves",
    "score",
    "solve",
    "value",
]


class _Search:
    """Exact scores (``scoring``) of positions of one board, memoised; the driver's game. A
    ``book`` (``perfectplay.connect4.openings.Book``) answers the positions it holds."""

    def __init__(self, shape: Shape, node_limit: int | None, book: Any = None) -> None:
        self.shape = shape
        self.node_limit = node_limit
        self.nodes = 0
        self.memo: dict[int, int] = {}
        self.book = book

    def moves(self, position: Position) -> list[int]:
        return self.shape.moves(position)

    def play(self, position: Position, col: int) -> Position:
        return self.shape.play(position, col)

    def cells_left(self, position: Position) -> int:
        return self.shape.cells_left(position)

    def score(self, position: Position) -> int:
        key = self.shape.key(position)
        known = self.memo.get(key)
        if known is not None:
            return known
        if self.book is not None:
            pons = self.book.score_of(position)
            if pons is not None:
                return engine_of(pons, position[2], self.shape.cells)
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimitExceeded(f"search needed more than node_limit={self.node_limit} nodes")
        shape = self.shape
        left = shape.cells_left(position)
        if shape.is_won(position):
            result = scoring.loss(left)
        elif left == 0:
            result = scoring.DRAW
        else:
            current = position[0]
            wins = [
                col
                for col in shape.moves(position)
                if shape.has_four(current | (shape.landing(position) & shape.column(col)))
            ]
            if wins:  # a side that can win at once does: the best score there is
                result = scoring.win(left - 1)
            else:
                result = max(
                    -self.score(shape.play(position, col)) for col in shape.moves(position)
                )
        self.memo[key] = result
        return result


def _book_for(book: Any, width: int, height: int, reach: int | None = None) -> Any:
    # The books' modules are imported when a call first needs a book, not with the package:
    # a start that answers nothing from them does not pay for them.
    from perfectplay.connect4 import openings

    return openings.book_for(book, width, height, reach)


class _Call:
    """A call's options (checked first), position and search."""

    def __init__(
        self, position: Any, given: Mapping[str, Any], function: str, allowed: Any
    ) -> None:
        self.options = Options.read(given, function, allowed)
        size = (self.options.width, self.options.height)
        self.shape, self.root = parse(to_item(position), size)
        # solve walks a line to the game's end; the others read one stone past the position.
        reach = None if function == "solve" else self.root[2]
        book = _book_for(self.options.book, self.shape.width, self.shape.height, reach)
        self.search = _Search(self.shape, self.options.node_limit, book)

    def first_to_move(self) -> bool:
        return self.root[2] % 2 == 0


#: The options of a function of one position.
POSITION = ("width", "height", "node_limit", "table_mb", "book", "threads")


def _column(col: int) -> int:
    return col


@takes(POSITION)
def solve(position: Any, **options: Unpack[SearchOptions]) -> Solution[int]:
    """Solves a Connect Four position for the side to move: value, winner, plies, every best
    column and one optimal line; moves are columns."""
    call = _Call(position, options, "solve", POSITION)
    return driver.solve(
        call.search, call.root, ("x", "o"), call.first_to_move(), _column, call.shape.preference
    )


@takes(POSITION)
def analyze(position: Any, **options: Unpack[SearchOptions]) -> dict[int, tuple[int, int]]:
    """{column: (value for the player making it, plies from now with it)} for every move."""
    call = _Call(position, options, "analyze", POSITION)
    return driver.analyze(call.search, call.root, _column)


@takes(POSITION)
def ranked_moves(position: Any, **options: Unpack[SearchOptions]) -> list[tuple[int, int, int]]:
    """[(column, value for the player making the move, plies from now with it)] for every
    legal column, best first: the higher value; among wins the quicker, among draws and losses
    the longer; then nearest the centre (the left one of two)."""
    call = _Call(position, options, "ranked_moves", POSITION)
    return driver.ranked(call.search, call.root, _column, call.shape.preference)


@takes(POSITION)
def best_move(position: Any, **options: Unpack[SearchOptions]) -> int | None:
    """The best column nearest the centre (the left one of two), or None once the game is over."""
    call = _Call(position, options, "best_move", POSITION)
    return driver.best_move(call.search, call.root, call.shape.preference)


@takes(POSITION)
def best_moves(position: Any, **options: Unpack[SearchOptions]) -> tuple[int, ...]:
    """Every best column, ascending (none once the game is over): ``solve``'s best moves
    without its line, so cheaper early in a game."""
    call = _Call(position, options, "best_moves", POSITION)
    return tuple(driver.best_moves(call.search, call.root))


@takes(POSITION)
def value(position: Any, **options: Unpack[SearchOptions]) -> int:
    """+1 the side to move wins, 0 draw, -1 it loses (a weak solve: faster than the score)."""
    call = _Call(position, options, "value", POSITION)
    return scoring.value(call.search.score(call.root))


@takes(("weak", *POSITION))
def score(position: Any, **options: Unpack[SearchOptions]) -> int:
    """Pons' score of the position (see the module's documentation); ``weak=True`` only its
    sign, as his solver's ``-w`` gives it (a win at once keeps its exact score)."""
    call = _Call(position, options, "score", ("weak", *POSITION))
    shape, root = call.shape, call.root
    if (
        not shape.is_won(root)
        and root[2] < shape.cells
        and any(
            shape.has_four(root[0] | (shape.landing(root) & shape.column(col)))
            for col in shape.moves(root)
        )
    ):
        return (shape.cells + 1 - root[2]) // 2
    exact = pons_of(call.search.score(root))
    if call.options.weak and not shape.is_won(root):
        return (exact > 0) - (exact < 0)
    return exact


@takes(("width", "height"))
def is_reachable(position: Any, **options: Unpack[SearchOptions]) -> bool:
    """Can the position arise in play? Raises only for malformed input."""
    checked = Options.read(options, "is_reachable", ("width", "height"))
    try:
        parse(to_item(position), (checked.width, checked.height))
    except IllegalPosition:
        return False
    return True


def clear_tables() -> None:
    """Forgets what this thread's searches learnt: the next search starts from empty tables
    (as benchmarks that time each position "from a cleared table" want). The pure-Python twin
    keeps nothing between calls."""


#: ``batch_solve``'s options.
BATCH = (*POSITION, "moves", "errors", "progress")


@takes(BATCH)
def batch_solve(positions: Any, **options: Unpack[SearchOptions]) -> BatchSolution:
    """Many positions of one board size: see ``perfectplay.BatchSolution``; moves are columns."""
    checked = Options.read(options, "batch_solve", BATCH)
    size = (checked.width, checked.height)
    rows: list[Position | BaseException] = []
    shape: Shape | None = None
    if isinstance(positions, np.ndarray):
        shape_, cells = batch.array_cells(positions, bools=False, what="positions")
        if len(shape_) != 3:
            raise ValueError(f"positions must have shape (N, height, width), got {list(shape_)}")
        count, rows_, cols = shape_
        for name, given, actual in (("width", size[0], cols), ("height", size[1], rows_)):
            if given is not None and given != actual:
                raise ValueError(
                    f"the boards are {cols} wide and {rows_} high, but {name}={given} was given"
                )
        shape = Shape(cols, rows_)
        per = rows_ * cols
        for row in range(count):
            codes = cells[row * per : (row + 1) * per]
            bad = next((c for c in codes if c not in (0, 1, 2)), None)
            if bad is not None:
                rows.append(ValueError(f"cell value {bad} is not 0, 1 or 2"))
            else:
                rows.append(batch.rows_of(from_codes, shape, codes))
    else:
        for item in batch.sequence_items(positions, "positions"):
            parsed = batch.rows_of(lambda p: parse(to_item(p), size), item)
            if isinstance(parsed, BaseException):
                rows.append(parsed)
                continue
            this, position = parsed
            if shape is None:
                shape = this
            if (this.width, this.height) != (shape.width, shape.height):
                rows.append(
                    ValueError(
                        f"the board is {this.width}x{this.height}, not "
                        f"{shape.width}x{shape.height} as the batch"
                    )
                )
                continue
            rows.append(position)
    if shape is None:
        shape = default_shape(size)
    board, book = shape, _book_for(checked.book, shape.width, shape.height)

    def solve_row(position: Position) -> batch.Label:
        search = _Search(board, checked.node_limit, book)
        return driver.label(search, position, checked.moves, board.preference)

    what = f"connect4 {shape.width}x{shape.height}"
    return batch.solve_rows(rows, shape.width, checked, what, solve_row)


#: ``random_positions``' options.
RANDOM = ("width", "height", "seed", "plies", "ongoing", "threads")


@takes(RANDOM)
def random_positions(n: Any, **options: Unpack[SearchOptions]) -> Codes:
    """``n`` positions by uniformly random play from the empty board, ``(n, height, width)``
    uint8 codes, top row first, the same on both backends for the same seed (``ongoing=True``:
    only games still going on)."""
    checked = Options.read(options, "random_positions", RANDOM)
    shape = default_shape((checked.width, checked.height))
    count, seed_, low, high = random_args(n, checked, shape.cells)
    out = np.zeros((count, shape.height, shape.width), dtype=np.uint8)
    for row in range(count):
        rng = batch.SplitMix64.for_row(seed_, row)
        position: Position = (0, 0, 0)
        for _ in range(low + rng.below(high - low + 1)):
            legal = shape.moves(position)
            if not legal:
                break
            following = shape.play(position, legal[rng.below(len(legal))])
            if checked.ongoing and not shape.moves(following):
                break
            position = following
        out[row] = np.array(codes_of(shape, position), dtype=np.uint8).reshape(
            shape.height, shape.width
        )
    return out
