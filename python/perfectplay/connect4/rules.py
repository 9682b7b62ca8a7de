"""Connect Four's rules in Python, once: the board (``Shape``), reading a position, the
legality of a drawn board, and Pons' score. The twin (``twin.py``), the opening books
(``openings.py``) and the ``Position`` class read them.

Bit layout as the compiled core's (Pascal Pons' and John Tromp's): column ``c`` is bits
``c * (H + 1)`` to ``c * (H + 1) + H - 1``, bottom first, with a spare bit on top. A position is
(the side to move's stones, every stone, stones played).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any, cast

from perfectplay._kernel import args
from perfectplay._kernel import score as scoring
from perfectplay._kernel.args import Item
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay.errors import IllegalPosition

DEFAULT = (7, 6)
MAX_WIDTH = 16  # the most columns, as the core allows
MAX_BITS = 128  # the most bits a board takes, width * (height + 1), as the core allows
Position = tuple[int, int, int]  # (stones of the side to move, every stone, stones played)


class Shape:
    """A board of ``width`` columns and ``height`` rows, with its masks."""

    def __init__(self, width: int, height: int) -> None:
        for name, side in (("width", width), ("height", height)):
            if side < 1:
                raise ValueError(f"{name} must be at least 1, got {side}")
        if width * (height + 1) > MAX_BITS or width > MAX_WIDTH:
            raise ValueError(
                f"a {width}x{height} board does not fit: at most {MAX_WIDTH} columns and "
                f"width * (height + 1) at most {MAX_BITS} (7x6, 8x8, 7x9, 10x6, 11x5, 5x13 fit)"
            )
        self.width, self.height, self.stride = width, height, height + 1
        self.cells = width * height
        self.bottom = sum(1 << (col * self.stride) for col in range(width))
        self.board = self.bottom * ((1 << height) - 1)

    def preference(self, col: int) -> int:
        """Which best column ``best_move`` and the line take: the lowest preference, so centre-out
        and the left one of two first (7 wide: 3 2 4 1 5 0 6); Rust's ``Shape::preference``."""
        return abs(2 * col - (self.width - 1))

    def column(self, col: int) -> int:
        return ((1 << self.height) - 1) << (col * self.stride)

    def cell(self, col: int, row: int) -> int:
        return 1 << (col * self.stride + row)

    def has_four(self, stones: int) -> bool:
        for shift in (1, self.height, self.height + 1, self.height + 2):
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def landing(self, position: Position) -> int:
        return (position[1] + self.bottom) & self.board

    def is_won(self, position: Position) -> bool:
        current, mask, _ = position
        return self.has_four(current ^ mask)

    def moves(self, position: Position) -> list[int]:
        """The playable columns, ascending; none once the game is over."""
        if self.is_won(position):
            return []
        landing = self.landing(position)
        return [col for col in range(self.width) if landing & self.column(col)]

    def play(self, position: Position, col: int) -> Position:
        current, mask, played = position
        cell = self.landing(position) & self.column(col)
        return current ^ mask, mask | cell, played + 1

    def cells_left(self, position: Position) -> int:
        return self.cells - position[2]

    def wins_now(self, position: Position) -> bool:
        """Can the side to move complete four with its next stone?"""
        current, landing = position[0], self.landing(position)
        return any(
            self.has_four(current | (landing & self.column(col)))
            for col in range(self.width)
            if landing & self.column(col)
        )

    def key(self, position: Position) -> int:
        return position[0] + position[1] + self.bottom

    def mirrored(self, key: int) -> int:
        """A key with its columns in reverse order (a key is column by column)."""
        column = (1 << self.stride) - 1
        return sum(
            ((key >> (col * self.stride)) & column) << ((self.width - 1 - col) * self.stride)
            for col in range(self.width)
        )

    def book_key(self, position: Position) -> int:
        """The key an opening book holds a position and its mirror image under: the smaller of
        their keys on a board of up to 64 bits. Past 64 bits, that key recoded column by
        column, column 0 in the lowest bits, each as its height in unary (that many 1s, then a
        0) and then its stones (1: the side to move's), a code no other column's begins:
        ``2 * stones + width`` bits, so that a book of up to ``(64 - width) // 2`` stones
        keeps 64-bit keys (as the core)."""
        key = self.key(position)
        key = min(key, self.mirrored(key))
        if self.width * self.stride <= 64:
            return key
        column = (1 << self.stride) - 1
        recoded = used = 0
        for col in range(self.width):
            bits = (key >> (col * self.stride)) & column
            stones = bits.bit_length() - 1
            side_to_move = bits ^ (1 << stones)
            recoded |= ((1 << stones) - 1 | side_to_move << (stones + 1)) << used
            used += 2 * stones + 1
        return recoded


# The column an int beyond 64 bits is read as (both backends).
HUGE_COLUMN = -(2**63)


def _play_columns(shape: Shape, columns: Sequence[int], shown: str | None) -> Position:
    """Plays columns (0-based) from the empty board; a bad move is a ValueError naming it,
    its column numbered as the caller wrote it (from 1 in a move string ``shown``)."""
    position: Position = (0, 0, 0)
    over = False
    first = 0 if shown is None else 1
    for index, col in enumerate(columns):
        where = f"move {index + 1}" + ("" if shown is None else f" of {args.quoted(shown)}")
        if over:
            raise ValueError(f"{where}: the game is over (four in a row) before move {index + 1}")
        if not 0 <= col < shape.width:
            shown_col = (
                "a column of 64 bits or more" if col == HUGE_COLUMN else f"column {col + first}"
            )
            raise ValueError(
                f"{where}: {shown_col} is off the board "
                f"(columns are {first}..{shape.width - 1 + first} here)"
            )
        if not shape.landing(position) & shape.column(col):
            raise ValueError(f"{where}: column {col + first} is full")
        position = shape.play(position, col)
        if shape.is_won(position) or position[2] == shape.cells:
            over = True
    return position


def _describe(char: str) -> str:
    return f"'{char}'" if "!" <= char <= "~" else f"U+{ord(char):04X}"


#: What a text that is no position was expected to be (both backends say it).
NEITHER = (
    "neither a move string (columns from 1, digits only or split by spaces or commas, as in "
    "'4453' or '4 4 5 3') nor a board "
    "(rows of x o . or 1 2 0, top row first, split by /)"
)


def _move_digits(text: str) -> str | None:
    """The digits of a move string, or None when ``text`` is no move string but maybe a board
    drawn as rows: digits once the ASCII whitespace around them is dropped (``"4453\\n"``
    too), maybe split by spaces, tabs or commas (``"4 4 5 3"``, ``"4,4,5,3"``)."""
    trimmed = text.strip(" \t\n\r\x0b\x0c")
    if not all(c in "0123456789 \t," for c in trimmed):
        return None
    if trimmed and not (trimmed[0] in "0123456789" and trimmed[-1] in "0123456789"):
        return None
    return "".join(c for c in trimmed if c in "0123456789")


def default_shape(size: tuple[int | None, int | None]) -> Shape:
    """The board of ``size``, each side not given taken from the default 7x6."""
    width, height = size
    return Shape(DEFAULT[0] if width is None else width, DEFAULT[1] if height is None else height)


def sides(width: Any, height: Any) -> tuple[int | None, int | None]:
    return (
        None if width is None else args.int_arg(width, "width"),
        None if height is None else args.int_arg(height, "height"),
    )


def parse(item: Item, size: tuple[int | None, int | None]) -> tuple[Shape, Position]:
    """The board and position of an argument (see ``perfectplay.connect4``)."""

    digits = _move_digits(item) if isinstance(item, str) else None
    if digits is not None:
        shape = default_shape(size)
        text = cast(str, item).strip(" \t\n\r\x0b\x0c")
        if shape.width > 9:
            # Wide boards: column numbers from 1 split by spaces, tabs or commas, each read
            # whole, as far as the board goes.
            found = re.finditer("[0-9]+", text)
            tokens = [int(match[0]) for match in itertools.islice(found, shape.cells + 1)]
            columns = [t - 1 if t < 2**63 else HUGE_COLUMN for t in tokens]
            return shape, _play_columns(shape, columns, text)
        # A move past the full board is an error at its number: no digit after it is read.
        columns = [int(c) - 1 for c in digits[: shape.cells + 1]]
        return shape, _play_columns(shape, columns, text)
    if isinstance(item, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in item):
        shape = default_shape(size)
        # As the core reads them: an int beyond 64 bits is one column no board has.
        columns = [cast(int, i) if -(2**63) <= cast(int, i) < 2**63 else HUGE_COLUMN for i in item]
        return shape, _play_columns(shape, columns, None)
    if isinstance(item, list) and any(isinstance(i, bool) for i in item):
        raise TypeError("a column must be an int, not bool")
    try:
        rows, cols, marks = read_mark_grid(item, args.MAX_ITEMS)
    except ValueError as error:
        if isinstance(item, str) and not isinstance(error, IllegalPosition):
            raise ValueError(f"{NEITHER}: {error}") from None
        raise
    for name, given, actual in (("width", size[0], cols), ("height", size[1], rows)):
        if given is not None and given != actual:
            raise ValueError(
                f"the board is {cols} wide and {rows} high, but {name}={given} was given"
            )
    shape = Shape(cols, rows)
    return shape, from_codes(shape, marks)


def from_codes(shape: Shape, codes: Sequence[int]) -> Position:
    """A position from cell codes, top row first; IllegalPosition when no game reaches it."""
    first = second = 0
    for index, code in enumerate(codes):
        row, col = divmod(index, shape.width)
        bit = shape.cell(col, shape.height - 1 - row)
        if code == 1:
            first |= bit
        elif code == 2:
            second |= bit
    mask = first | second
    for col in range(shape.width):
        stones = (mask & shape.column(col)) >> (col * shape.stride)
        if stones & (stones + 1):
            raise IllegalPosition(f"column {col} has a stone above an empty cell")
    ones, twos = first.bit_count(), second.bit_count()
    if ones not in (twos, twos + 1):
        raise IllegalPosition(
            f"the first player has {ones} stones and the second {twos}, but the first player "
            "moves first, so it has as many as the second or one more"
        )
    played = ones + twos
    position = (first if played % 2 == 0 else second, mask, played)
    first_four, second_four = shape.has_four(first), shape.has_four(second)
    if first_four and second_four:
        raise IllegalPosition("both players have four in a row")
    # The boards the game stood on before its last move: the board itself while no one has
    # four; once someone has, the board without one of the winner's top stones that every four
    # of the winner needs (there may be several: any one buildable will do).
    before = [(first, mask)]
    if first_four or second_four:
        winner, name = (first, "the first player") if first_four else (second, "the second player")
        if (played % 2 == 1) != first_four:
            raise IllegalPosition(
                f"{name} has four in a row but the other player moved after the game ended"
            )
        tops = [_top(shape, mask, col) for col in range(shape.width)]
        before = [
            (first & ~top, mask & ~top)
            for top in tops
            if top & winner and not shape.has_four(winner & ~top)
        ]
        if not before:
            raise IllegalPosition(
                f"{name}'s fours need more than one last stone (a move after the game ended)"
            )
    if not any(_buildable(shape, stones, taken) for stones, taken in before):
        raise IllegalPosition(
            "no order of alternate moves builds this board (a player's stone sits where only "
            "the other could have played)"
        )
    return position


def _top(shape: Shape, mask: int, col: int) -> int:
    stones = mask & shape.column(col)
    return 1 << (stones.bit_length() - 1) if stones else 0


# The most states ``_buildable`` visits before it gives up (a ValueError), as the core does.
BUILD_STATES = 1 << 20


def _buildable(shape: Shape, first: int, mask: int) -> bool:
    """Can alternate moves, the first player first, build exactly these stones? A search over
    the columns' heights in the core's order, giving up after ``BUILD_STATES`` states."""
    target = tuple((mask & shape.column(col)).bit_count() for col in range(shape.width))
    seen = set()
    stack = [tuple(0 for _ in target)]
    while stack:
        heights = stack.pop()
        if heights == target:
            return True
        first_moves = sum(heights) % 2 == 0
        for col, height in enumerate(heights):
            if height == target[col]:
                continue
            if bool(first & shape.cell(col, height)) != first_moves:
                continue
            following = (*heights[:col], height + 1, *heights[col + 1 :])
            if following not in seen:
                seen.add(following)
                if len(seen) > BUILD_STATES:
                    raise ValueError(
                        f"cannot tell whether this {shape.width}x{shape.height} board arises in "
                        "play: an order of moves that builds it was not found in "
                        f"{BUILD_STATES} states (a wide board with many stones)"
                    )
                stack.append(following)
    return False


def pons_of(result: int) -> int:
    """Pons' score of a ``score.py`` score."""
    return (1 if result > 0 else -1 if result < 0 else 0) * ((abs(result) + 1) // 2)


def engine_of(pons: int, moves: int, cells: int) -> int:
    """The ``score.py`` score of Pons' score of a position with ``moves`` stones: the winner's
    winning stone falls after ``n`` stones, ``n`` of the winner's parity."""
    if pons == 0:
        return 0
    winner_parity = moves % 2 if pons > 0 else (moves + 1) % 2
    before = cells + 1 - 2 * abs(pons)
    if before % 2 != winner_parity:
        before -= 1
    return (1 if pons > 0 else -1) * (cells - before)


def codes_of(shape: Shape, position: Position) -> list[int]:
    """The cell codes of a position, top row first."""
    current, mask, played = position
    first = current if played % 2 == 0 else current ^ mask
    return [
        0 if not mask & shape.cell(col, row) else 1 if first & shape.cell(col, row) else 2
        for row in reversed(range(shape.height))
        for col in range(shape.width)
    ]


def move_pons(cells_left: int, value: int, plies: int) -> int:
    """Pons' score of a move of value ``value`` (+1 win, 0 draw, -1 loss for its player) with
    ``plies`` plies to the end, from a position with ``cells_left`` empty cells."""
    at_end = cells_left - plies
    return pons_of(scoring.win(at_end) if value > 0 else scoring.loss(at_end) if value < 0 else 0)
