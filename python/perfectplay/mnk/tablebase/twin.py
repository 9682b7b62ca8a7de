"""Tablebases of whole m,n,k games: the twin of ``rust/games/mnk/tablebase.rs`` and
``rust/engine/tiers.rs``, plain and slow (it builds boards of up to 12 cells).

Tier ``t`` holds the positions with ``t`` marks (X ``ceil(t/2)``, O ``floor(t/2)``); a
position's index is its tier's offset plus ``colex(occupied) * C(t, xs) + colex(X among the
occupied)``, ``colex`` being the rank in the combinatorial number system. Each entry is one
byte: 0 for a rank no game reaches, else the score (``score.py``) plus 64.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay._kernel import args, batch, driver, score
from perfectplay._kernel.args import to_item
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.options import Options, SearchOptions
from perfectplay._kernel.symmetry import symmetries
from perfectplay._kernel.types import Codes, Solution
from perfectplay.errors import IllegalPosition
from perfectplay.mnk.twin import PLAYING, WON, Geometry, marks_to_masks, status, x_to_move

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "analyze",
    "build",
    "build_range",
    "check_all",
    "check_sample",
    "label_rows",
    "position",
    "ranked_moves",
    "sizes",
    "solve",
    "stats",
]

MAX_CELLS = 20
PURE_BUILD_CELLS = 12
UNREACHED = 0
ZERO = 64


class Tiers:
    """The tiers of one game: sizes, offsets, ranking."""

    def __init__(self, rows: Any, cols: Any, k: Any) -> None:
        rows, cols = args.board_sides(rows, cols)
        self.geometry = Geometry(rows, cols, args.int_arg(k, "k"))
        self.cells: int = rows * cols
        if self.cells > MAX_CELLS:
            raise ValueError(
                f"tablebases hold boards of up to {MAX_CELLS} cells; {rows}x{cols} has {self.cells}"
            )
        self.sizes = [comb(self.cells, t) * comb(t, (t + 1) // 2) for t in range(self.cells + 1)]
        self.offsets = [sum(self.sizes[:t]) for t in range(self.cells + 1)]
        self.total = sum(self.sizes)

    def index(self, x: int, o: int) -> int:
        occupied = x | o
        members = [cell for cell in range(self.cells) if occupied >> cell & 1]
        tier = len(members)
        ordinals = [i for i, cell in enumerate(members) if x >> cell & 1]
        return self.offsets[tier] + _colex(members) * comb(tier, (tier + 1) // 2) + _colex(ordinals)

    def positions(self, tier: int) -> list[tuple[int, int]]:
        """Every (X, O) of a tier, in no particular order."""
        out = []
        for members in itertools.combinations(range(self.cells), tier):
            for xs in itertools.combinations(members, (tier + 1) // 2):
                x = sum(1 << cell for cell in xs)
                out.append((x, sum(1 << cell for cell in members) & ~x))
        return out

    def position(self, index: int) -> tuple[int, int, int]:
        """(tier, X mask, O mask) of a table index: the ranking undone."""
        tier = max(t for t in range(self.cells + 1) if self.offsets[t] <= index)
        per_occupied = comb(tier, (tier + 1) // 2)
        occupied_rank, x_rank = divmod(index - self.offsets[tier], per_occupied)
        members = _uncolex(occupied_rank, tier)
        x = sum(1 << members[i] for i in _uncolex(x_rank, (tier + 1) // 2))
        return tier, x, sum(1 << cell for cell in members) & ~x

    def entry(self, x: int, o: int, data: Any) -> int:
        """The entry of a position from the next tier's entries in ``data`` (a whole table),
        computed as the compiled core computes it (so a damaged table fails both alike)."""
        try:
            state = status(self.geometry, x, o)
        except IllegalPosition:
            return UNREACHED
        left = self.cells - (x | o).bit_count()
        if state == WON:
            return score.loss(left) + ZERO
        if state != PLAYING:
            return score.DRAW + ZERO
        mine_is_x = x_to_move(x, o)
        children = [
            (x | 1 << cell, o) if mine_is_x else (x, o | 1 << cell)
            for cell in range(self.cells)
            if not (x | o) >> cell & 1
        ]
        g = self.geometry
        if any(g.has_line(child[0] if mine_is_x else child[1]) for child in children):
            return score.win(left - 1) + ZERO  # the fastest win there is
        reached = [int(data[self.index(*child)]) for child in children]
        scores = [-(entry - ZERO) for entry in reached if entry != UNREACHED]
        # Only a damaged table leaves a playable position no reached child.
        return max(scores) + ZERO if scores else UNREACHED

    def first_wrong(self, data: Any, indices: Any) -> int | None:
        """The first of ``indices`` whose entry is not what the rules and its children make
        it, or ``None``."""
        for index in indices:
            _, x, o = self.position(index)
            if self.entry(x, o, data) != int(data[index]):
                return int(index)
        return None

    def data_fits(self, data: Any) -> None:
        if len(data) != self.total:
            g = self.geometry
            raise ValueError(
                f"the tablebase data has {len(data)} bytes, but a {g.rows}x{g.cols} k={g.k} "
                f"table has {self.total}"
            )


def _colex(members: list[int]) -> int:
    return sum(comb(member, i + 1) for i, member in enumerate(members))


def _uncolex(rank: int, count: int) -> list[int]:
    """The set of ``count`` members whose colex rank is ``rank``, in increasing order."""
    members = []
    for i in range(count, 0, -1):
        member = i - 1
        while comb(member + 1, i) <= rank:
            member += 1
        rank -= comb(member, i)
        members.append(member)
    return members[::-1]


_MASK = (1 << 64) - 1


def _wrong_entry(data: Any, index: int) -> ValueError:
    return ValueError(
        f"the tablebase data is damaged or not this game's: entry {int(data[index])} at index "
        f"{index} is not what the rules and its children make it"
    )


#: The options of a whole-table job.
WORK = ("threads", "progress")


def check_sample(data: Any, rows: Any, cols: Any, k: Any, samples: int) -> None:
    """The root, every tier's first and last ranks and ``samples`` ranks drawn by the compiled
    core's fixed sequence, each checked against its children."""
    tiers = Tiers(rows, cols, k)
    tiers.data_fits(data)
    seed = 0x243F6A8885A308D3
    indices = [0]
    for tier in range(tiers.cells + 1):
        indices += [tiers.offsets[tier], tiers.offsets[tier] + tiers.sizes[tier] - 1]
    for _ in range(samples):
        seed = seed + 0x9E3779B97F4A7C15 & _MASK
        indices.append(batch.mix(seed) % tiers.total)
    wrong = tiers.first_wrong(data, indices)
    if wrong is not None:
        raise _wrong_entry(data, wrong)


def check_all(data: Any, rows: Any, cols: Any, k: Any, **options: Unpack[SearchOptions]) -> None:
    """Every entry checked against its children; the first wrong one is named."""
    progress = Options.read(options, "check_all", WORK).progress
    tiers = Tiers(rows, cols, k)
    tiers.data_fits(data)
    g = tiers.geometry
    bar = batch.progress_bar(progress, f"checking {g.rows}x{g.cols} k={g.k}", tiers.total)
    for index in range(tiers.total):
        if tiers.first_wrong(data, [index]) is not None:
            raise _wrong_entry(data, index)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()


def sizes(rows: Any, cols: Any, k: Any) -> list[int]:
    return Tiers(rows, cols, k).sizes


def build(rows: Any, cols: Any, k: Any, **options: Unpack[SearchOptions]) -> Codes:
    """Every entry of the game, last tier first (boards of up to 12 cells here)."""
    progress = Options.read(options, "build", WORK).progress
    tiers = Tiers(rows, cols, k)
    if tiers.cells > PURE_BUILD_CELLS:
        raise ValueError(
            f"the pure-Python build takes boards of up to {PURE_BUILD_CELLS} cells; "
            f"{tiers.geometry.rows}x{tiers.geometry.cols} has {tiers.cells} (use the compiled "
            "backend)"
        )
    data = np.zeros(tiers.total, dtype=np.uint8)
    g = tiers.geometry
    bar = batch.progress_bar(progress, f"tablebase {g.rows}x{g.cols} k={g.k}", tiers.total)
    for tier in reversed(range(tiers.cells + 1)):
        for x, o in tiers.positions(tier):
            data[tiers.index(x, o)] = tiers.entry(x, o, data)
        if bar is not None:
            bar.update(tiers.sizes[tier])
    if bar is not None:
        bar.close()
    return data


def build_range(
    rows: Any,
    cols: Any,
    k: Any,
    tier: int,
    start: int,
    count: int,
    next: Codes,  # the compiled core's name
    **options: Unpack[SearchOptions],
) -> Codes:
    """Ranks ``start .. start + count`` of ``tier`` from the next tier's entries."""
    Options.read(options, "build_range", ("threads",))
    tiers = Tiers(rows, cols, k)
    if not 0 <= tier <= tiers.cells:
        raise ValueError(f"tier must be below {tiers.cells + 1}, got {tier}")
    if start + count > tiers.sizes[tier]:
        raise ValueError(
            f"ranks {start}..{start}+{count} are past tier {tier}'s {tiers.sizes[tier]} ranks"
        )
    wanted = tiers.sizes[tier + 1] if tier < tiers.cells else 0
    if len(next) != wanted:
        raise ValueError(f"the next tier has {len(next)} entries, expected {wanted}")
    # A whole-table view: the next tier where it belongs, so `entry` indexes it as usual.
    data = np.zeros(tiers.total, dtype=np.uint8)
    if wanted:
        begin = tiers.offsets[tier + 1]
        data[begin : begin + wanted] = next
    out = np.zeros(count, dtype=np.uint8)
    base = tiers.offsets[tier] + start
    for x, o in tiers.positions(tier):
        at = tiers.index(x, o) - base
        if 0 <= at < count:
            out[at] = tiers.entry(x, o, data)
    return out


class _Table:
    """The table as a game for the driver: every score is a lookup."""

    nodes = 0

    def __init__(self, tiers: Tiers, data: Any) -> None:
        self.tiers: Tiers = tiers
        self.data = data

    def moves(self, position: tuple[int, int]) -> list[int]:
        x, o = position
        g = self.tiers.geometry
        if g.has_line(x) or g.has_line(o):
            return []
        return [cell for cell in range(self.tiers.cells) if not (x | o) >> cell & 1]

    def play(self, position: tuple[int, int], cell: int) -> tuple[int, int]:
        x, o = position
        return (x | 1 << cell, o) if x_to_move(x, o) else (x, o | 1 << cell)

    def cells_left(self, position: tuple[int, int]) -> int:
        return self.tiers.cells - (position[0] | position[1]).bit_count()

    def score(self, position: tuple[int, int]) -> int:
        index = self.tiers.index(*position)
        stored = int(self.data[index])
        if stored == UNREACHED or abs(stored - ZERO) > self.cells_left(position) + 1:
            raise ValueError(f"the tablebase data is damaged: entry {stored} at index {index}")
        return int(stored - ZERO)


def _probe(data: Any, rows: Any, cols: Any, k: Any, board: Any) -> tuple[_Table, tuple[int, int]]:
    tiers = Tiers(rows, cols, k)
    tiers.data_fits(data)
    board_rows, board_cols, marks = read_mark_grid(to_item(board))
    g = tiers.geometry
    if (board_rows, board_cols) != (g.rows, g.cols):
        raise ValueError(
            f"the board is {board_rows}x{board_cols}, but the tablebase is for {g.rows}x{g.cols} "
            f"boards (k={g.k})"
        )
    x, o = marks_to_masks(marks)
    status(g, x, o)
    return _Table(tiers, data), (x, o)


def solve(data: Any, rows: Any, cols: Any, k: Any, board: Any) -> Solution[tuple[int, int]]:
    table, root = _probe(data, rows, cols, k, board)
    cols_ = table.tiers.geometry.cols
    return driver.solve(table, root, ("x", "o"), x_to_move(*root), lambda cell: divmod(cell, cols_))


def analyze(
    data: Any, rows: Any, cols: Any, k: Any, board: Any
) -> dict[tuple[int, int], tuple[int, int]]:
    table, root = _probe(data, rows, cols, k, board)
    cols_ = table.tiers.geometry.cols
    return driver.analyze(table, root, lambda cell: divmod(cell, cols_))


def ranked_moves(
    data: Any, rows: Any, cols: Any, k: Any, board: Any
) -> list[tuple[tuple[int, int], int, int]]:
    table, root = _probe(data, rows, cols, k, board)
    cols_ = table.tiers.geometry.cols
    return driver.ranked(table, root, lambda cell: divmod(cell, cols_))


def label_rows(
    data: Any,
    rows: Any,
    cols: Any,
    k: Any,
    boards: Any,
    **options: Unpack[SearchOptions],
) -> tuple[Any, ...]:
    """Row labels from the table (see the compiled core's ``label_rows``)."""
    checked = Options.read(options, "label_rows", ("best", "moves", "threads", "progress"))
    best, moves = checked.best, checked.moves
    tiers = Tiers(rows, cols, k)
    cells = tiers.cells
    g = tiers.geometry
    if boards.ndim != 3 or boards.shape[1:] != (g.rows, g.cols):
        raise ValueError(
            f"boards must have shape (N, {g.rows}, {g.cols}) for this tablebase, "
            f"got {list(boards.shape)}"
        )
    codes = boards.reshape(len(boards), cells)
    table = _Table(tiers, data)
    n = len(codes)
    value = np.zeros(n, np.int8)
    plies = np.full(n, -1, np.int16)
    best_move = np.full(n, -1, np.int16)
    best_mask = np.zeros((n, cells), bool)
    status_ = np.ones(n, np.uint8)
    move_value = np.zeros((n, cells), np.int8)
    move_plies = np.full((n, cells), -1, np.int16)
    for row, marks in enumerate(codes.tolist()):
        if any(mark not in (0, 1, 2) for mark in marks):
            continue
        x, o = marks_to_masks(marks)
        try:
            status(tiers.geometry, x, o)
        except IllegalPosition:
            continue
        result, result_plies, best_cells, answers = driver.label(table, (x, o), moves)
        status_[row], value[row], plies[row] = 0, result, result_plies
        best_move[row] = best_cells[0] if best_cells else -1
        best_mask[row, best_cells] = True
        for cell, (move_result, move_count) in answers.items():
            move_value[row, cell], move_plies[row, cell] = move_result, move_count
    return (
        value,
        plies,
        best_move if best else None,
        best_mask if best else None,
        status_,
        np.zeros(n, np.uint64),
        move_value if moves else None,
        move_plies if moves else None,
    )


def stats(
    data: Any, rows: Any, cols: Any, k: Any, **options: Unpack[SearchOptions]
) -> tuple[list[list[int]], tuple[int, int], int]:
    """``(counts, longest, canonical)``: positions by value (-1, 0, +1) and plies, (plies,
    table index) of the first longest, positions up to the board's symmetries."""
    Options.read(options, "stats", WORK)
    tiers = Tiers(rows, cols, k)
    g = tiers.geometry
    maps = symmetries(g.rows, g.cols)
    counts = [[0] * (MAX_CELLS + 1) for _ in range(3)]
    longest = (0, -1)
    orbits: set[tuple[int, int]] = set()
    for tier in range(tiers.cells + 1):
        for x, o in tiers.positions(tier):
            index = tiers.index(x, o)
            stored = int(data[index])
            if stored == UNREACHED:
                continue
            left = tiers.cells - tier
            result = stored - ZERO
            if abs(result) > left + 1:
                raise ValueError(f"the tablebase data is damaged: entry {stored} at index {index}")
            result_plies = score.plies(result, left)
            counts[score.value(result) + 1][result_plies] += 1
            if result_plies > longest[0] or (
                result_plies == longest[0] and (longest[1] < 0 or index < longest[1])
            ):
                longest = (result_plies, index)
            images = [
                (
                    sum(1 << m[c] for c in range(tiers.cells) if x >> c & 1),
                    sum(1 << m[c] for c in range(tiers.cells) if o >> c & 1),
                )
                for m in maps
            ]
            orbits.add(min(images))
    return counts, longest, len(orbits)


def position(rows: Any, cols: Any, k: Any, index: int) -> tuple[int, int, int]:
    tiers = Tiers(rows, cols, k)
    if not 0 <= index < tiers.total:
        raise ValueError(f"index {index} is past the table's {tiers.total} entries")
    return tiers.position(index)
