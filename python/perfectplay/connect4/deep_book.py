"""The 12-ply book of ``bitbully-databases`` (its file format, read by ``load_deep``) and
``DeepBook``, which carries it with the 13-ply book (``with_next``: seven int8 scores an entry)
and the 14-ply book (``with_fourteen``) attached."""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np
import numpy.typing as npt

from perfectplay._kernel import perfect_hash
from perfectplay._kernel.backend import implementation
from perfectplay.connect4.book_io import (
    _REFETCH,
    DEEP_STONES,
    NOT_HELD,
    _check_array,
    _pons,
    _read_whole,
    _refuse_change,
)
from perfectplay.connect4.fourteen_file import FOURTEEN_POSITIONS, Book14, read_14
from perfectplay.connect4.rules import Position, Shape, _top, codes_of
from perfectplay.connect4.shipped import (
    _REINSTALL,
    DEEP_BYTES,
    DEEP_DISTRIBUTION,
    DEEP_SHA256,
    DEEP_VERSION,
)

DEEP_SIZE = (7, 6)  # the board of the 12-ply book
DEEP_SHAPE = Shape(*DEEP_SIZE)


# An entry: a 4-byte big-endian key of the stones, then the distance byte.
_DEEP_ENTRY = np.dtype([("code", ">i4"), ("value", "i1")])


class DeepBook:
    """The community's 12-ply 7x6 book (``bitbully-databases``, MIT): Pons' score of every
    position of 12 stones where nobody has won and the side to move cannot win at once, a
    mirror image once. ``codes`` are its keys (increasing int32: each column bottom up, a
    first player's stone ``10``, a second player's ``11``, ``0`` closing the column, one more
    ``0`` at the end), ``scores`` Pons' scores beside them, both read-only numpy arrays
    (25 MB in all). ``next_scores``, when given, is a 13-ply book (``perfectplay.connect4.
    book13``): seven int8 scores an entry, its columns' children in the entry's orientation,
    ``NOT_HELD`` where a child ends the game or its side to move can win at once; ``next_path``
    the file it was read from."""

    width, height, stones = 7, 6, DEEP_STONES

    def __init__(
        self,
        codes: npt.NDArray[np.int32],
        scores: npt.NDArray[np.int8],
        path: str,
        next_scores: npt.NDArray[np.int8] | None = None,
        next_path: str | None = None,
        fourteen: Book14 | None = None,
    ):
        # The compiled core reads them in place, by dtype (the twin would read any).
        _check_array(f"{path}: codes", codes, np.int32)
        _check_array(f"{path}: scores", scores, np.int8)
        if next_scores is not None:
            named = next_path or path
            _check_array(f"{named}: next_scores", next_scores, np.int8)
            if len(next_scores) != 7 * len(codes):
                raise ValueError(
                    f"{named}: the 13-ply book holds {len(next_scores):,} scores, not 7 for each "
                    f"of the 12-ply book's {len(codes):,} entries"
                )
            # Both backends answer a held score as it is: each must be one a game of 13
            # stones allows (the side to move cannot win at once there: -14 to 14).
            bad = np.flatnonzero((np.abs(next_scores) > 14) & (next_scores != NOT_HELD))
            if len(bad):
                raise ValueError(
                    f"{named}: the 13-ply score {int(bad[0]):,} is {int(next_scores[bad[0]])}, "
                    f"which no position of 13 stones has"
                )
            next_scores.flags.writeable = False
        if fourteen is not None:
            if next_scores is None:
                raise ValueError("a 14-ply book is read through the 13-ply book: attach both")
            if fourteen.keys != FOURTEEN_POSITIONS:
                # Its positions are told by the rules: a part of the book would answer the
                # positions it leaves out with other positions' scores.
                raise ValueError(
                    f"{fourteen.path}: the 14-ply book holds {fourteen.keys:,} positions, not "
                    f"{FOURTEEN_POSITIONS:,}: only the whole book can be read"
                )
        codes.flags.writeable = scores.flags.writeable = False
        self.codes, self.scores, self.path = codes, scores, path
        self.next_scores, self.next_path = next_scores, next_path
        self.fourteen = fourteen

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse_change(self, name, ("codes", "scores", "next_scores", "fourteen"))
        super().__setattr__(name, value)

    def __len__(self) -> int:
        return len(self.codes)

    def __repr__(self) -> str:
        deeper = ""
        if self.next_scores is not None:
            where = "" if self.next_path is None else f" {self.next_path!r}"
            joined = "," if self.fourteen is not None else ", and"
            deeper = f"{joined} a 13-ply book{where}"
        if self.fourteen is not None:
            deeper += f" and a 14-ply book {self.fourteen.path!r}"
        return (
            f"<DeepBook 7x6 at {self.stones} stones: {len(self):,} positions, {self.path!r}"
            f"{deeper}>"
        )

    def get(self, position: Position) -> int | None:
        """Pons' score of a 7x6 position of 12 stones (as ``Shape.play`` makes them), or of 13
        stones when the 13-ply book's ``next_scores`` are attached, or None when the books
        leave it out."""
        if position[2] == self.stones:
            found = self._find(position)
            return None if found is None else int(self.scores[found[0]])
        if position[2] == self.stones + 1 and self.next_scores is not None:
            return self._next_score(position, self.next_scores)
        if position[2] == self.stones + 2 and self.fourteen is not None:
            return self._fourteen_score(position, self.fourteen)
        return None

    def _find(self, position: Position) -> tuple[int, bool] | None:
        """Where the book holds a position of 12 stones, and whether as its mirror image."""
        for mirrored in (False, True):
            # An int32 key: a Python int would make numpy convert the whole column first.
            code = np.int32(deep_code(position, mirrored))
            at = int(np.searchsorted(self.codes, code))
            if at < len(self.codes) and int(self.codes[at]) == code:
                return at, mirrored
        return None

    def _next_score(self, position: Position, next_scores: npt.NDArray[np.int8]) -> int | None:
        """The 13-ply book's score, read through the first parent (the first player's top
        stone taken off, column by column) the 12-ply book holds with this child held."""
        current, mask, moves = position
        first = current ^ mask  # 13 stones: the first player moved last
        for col in range(7):
            top = _top(DEEP_SHAPE, mask, col)
            if not top & first:
                continue
            found = self._find((first ^ top, mask ^ top, moves - 1))
            if found is None:
                continue
            at, mirrored = found
            score = int(next_scores[7 * at + (6 - col if mirrored else col)])
            if score != NOT_HELD:
                return score
        return None

    def _fourteen_score(self, position: Position, fourteen: Book14) -> int | None:
        """The 14-ply book's score of a position it holds: one whose side to move cannot win
        at once, with a parent (the second player's top stone taken off) the 13-ply book
        holds. Its key's slot holds the score; no key is stored, so the rules decide."""
        current, mask, moves = position
        if DEEP_SHAPE.wins_now(position):
            return None
        second = current ^ mask  # 14 stones: the second player moved last
        for col in range(DEEP_SHAPE.width):
            top = _top(DEEP_SHAPE, mask, col)
            if top & second and self.get((second ^ top, mask ^ top, moves - 1)) is not None:
                score = fourteen.score(DEEP_SHAPE.book_key(position) - DEEP_SHAPE.bottom)
                return None if score == NOT_HELD else score
        return None

    def verify(self, sample: int = 16, *, seed: int = 0, threads: Any = None) -> None:
        """Re-solves ``sample`` entries drawn at random (seeded) with the search alone, and as
        many of the 13-ply and 14-ply books' when they are attached; a ``ValueError`` naming
        the first that disagrees."""
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
            raise ValueError(f"sample must be an int of at least 0, got {sample!r}")
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(self), size=min(sample, len(self)), replace=False)
        boards = [_deep_board(int(self.codes[at])) for at in chosen]
        self._re_solve(boards, self.scores[chosen], self.stones, threads, self.path, chosen)
        if self.next_scores is not None:
            held = np.flatnonzero(self.next_scores != NOT_HELD)
            slots = rng.choice(held, size=min(sample, len(held)), replace=False)
            boards = []
            for slot in slots.tolist():
                board, col = _deep_board(int(self.codes[slot // 7])), slot % 7
                row = max(row for row in range(DEEP_SHAPE.height) if not board[row][col])
                board[row][col] = 1  # 12 stones: the first player moves
                boards.append(board)
            path = self.next_path or self.path
            self._re_solve(boards, self.next_scores[slots], self.stones + 1, threads, path, slots)
        if self.fourteen is not None:
            self._verify_fourteen(self.fourteen, sample, rng, threads)

    def _verify_fourteen(
        self, fourteen: Book14, sample: int, rng: np.random.Generator, threads: Any
    ) -> None:
        """Re-solves ``sample`` positions of the 14-ply book: a held child of each of as many
        13-ply positions drawn at random (the book keeps no keys to draw from)."""
        assert self.next_scores is not None  # a 14-ply book is read through the 13-ply one
        held = np.flatnonzero(self.next_scores != NOT_HELD)
        boards, scores, slots = [], [], []
        for slot in rng.choice(held, size=min(sample, len(held)), replace=False).tolist():
            first, mask = deep_stones(int(self.codes[slot // 7]))
            parent = DEEP_SHAPE.play((first, mask, self.stones), slot % 7)
            for col in rng.permutation(DEEP_SHAPE.moves(parent)).tolist():
                child = DEEP_SHAPE.play(parent, col)
                score = self.get(child)
                if score is not None:
                    boards.append(_rows(codes_of(DEEP_SHAPE, child)))
                    scores.append(score)
                    key = DEEP_SHAPE.book_key(child) - DEEP_SHAPE.bottom
                    slots.append(perfect_hash.slot(fourteen.hash, key))
                    break
        self._re_solve(
            boards,
            np.array(scores, dtype=np.int8),
            self.stones + 2,
            threads,
            fourteen.path,
            np.array(slots, dtype=np.intp),
        )

    @staticmethod
    def _re_solve(
        boards: list[list[list[int]]],
        scores: npt.NDArray[np.int8],
        stones: int,
        threads: Any,
        path: str,
        where: npt.NDArray[np.intp],
    ) -> None:
        """A ``ValueError`` naming the first board whose score by the search alone is not the
        book's (``where`` its index in the book)."""
        solved = implementation("connect4").batch_solve(
            np.array(boards, dtype=np.uint8).reshape(-1, DEEP_SHAPE.height, DEEP_SHAPE.width),
            book=None,
            threads=threads,
        )
        for at, board, expected, value, plies in zip(
            where.tolist(), boards, scores.tolist(), solved.value, solved.plies, strict=True
        ):
            found = _pons(int(value), int(plies), stones, DEEP_SHAPE.width * DEEP_SHAPE.height)
            if found != expected:
                rows = "/".join("".join(".xo"[c] for c in row) for row in board)
                what = {DEEP_STONES: "entry", DEEP_STONES + 1: "13-ply slot"}.get(
                    stones, "14-ply slot"
                )
                raise ValueError(
                    f"{path}: {what} {at:,} ({rows}) scores {found}, the book says {expected}"
                )


def deep_code(position: Position, mirrored: bool = False) -> int:
    """The 12-ply book's key of a 7x6 position (its mirror image's with ``mirrored``)."""
    current, mask, moves = position
    first = current if moves % 2 == 0 else current ^ mask
    code = 0
    for index in range(7):
        col = 6 - index if mirrored else index
        stones, firsts = (mask >> (7 * col)) & 0x3F, (first >> (7 * col)) & 0x3F
        row = 0
        while stones >> row & 1:
            code = code << 2 | (0b10 if firsts >> row & 1 else 0b11)
            row += 1
        code <<= 1
    code <<= 1
    return code - (1 << 32) if code >= 1 << 31 else code


def deep_stones(code: int) -> tuple[int, int]:
    """The first player's stones and the occupied cells (``Shape`` bitboards) of a 12-ply
    key."""
    bits, at, first, mask = code & 0xFFFFFFFF, 31, 0, 0
    for col in range(DEEP_SHAPE.width):
        row = 0
        while bits >> at & 1:
            cell = DEEP_SHAPE.cell(col, row)
            mask |= cell
            if not bits >> (at - 1) & 1:
                first |= cell
            at, row = at - 2, row + 1
        at -= 1
    return first, mask


def _deep_board(code: int) -> list[list[int]]:
    """The 6x7 cell codes (top row first) of a 12-ply key."""
    return _rows(codes_of(DEEP_SHAPE, (*deep_stones(code), DEEP_STONES)))


def _rows(codes: list[int]) -> list[list[int]]:
    """7x6 cell codes (top row first) as rows."""
    width = DEEP_SHAPE.width
    return [codes[row * width : (row + 1) * width] for row in range(DEEP_SHAPE.height)]


def load_deep(path: str | os.PathLike[str]) -> DeepBook:
    """The 12-ply book in ``path``, checked (see the module): a ``ValueError`` naming the file
    and the fix when it is not the one this perfectplay was made for."""
    path = os.fspath(path)
    where = f"the 12-ply opening book {path}"
    data = _read_whole(path, where, DEEP_BYTES, "", _REINSTALL)
    if hashlib.sha256(data).hexdigest() != DEEP_SHA256:
        raise ValueError(f"{where} is not {DEEP_DISTRIBUTION} {DEEP_VERSION}'s: {_REINSTALL}")
    entries = np.frombuffer(data, dtype=_DEEP_ENTRY)
    codes = entries["code"].astype(np.int32)
    values = entries["value"].astype(np.int32)
    if not bool(np.all(codes[1:] > codes[:-1])):
        raise ValueError(f"{where}: the keys are not in increasing order: {_REINSTALL}")
    scores = deep_scores(values)
    bad = np.flatnonzero(scores == _IMPOSSIBLE)
    if len(bad):
        raise ValueError(
            f"{where}: entry {int(bad[0]):,} holds {int(values[bad[0]])}, a distance no game of "
            f"12 stones ends at: {_REINSTALL}"
        )
    return DeepBook(codes, scores.astype(np.int8), path)


_IMPOSSIBLE = 99  # no Pons score of 7x6


def deep_scores(values: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """Pons' scores of the 12-ply book's distance bytes (``_IMPOSSIBLE`` for a byte no game
    allows). ``v > 0``: the first player, to move, wins with stone ``12 + 100 - v``; ``v < 0``:
    it loses to stone ``12 + 100 - |v|``; 0 a draw. A win ends on a stone of the winner's
    parity (the first player's are odd), after the 13th (the side to move cannot win at once)
    and by the 42nd."""
    end = DEEP_STONES + 100 - np.abs(values)
    first_wins = (values > 0) & (end % 2 == 1) & (end >= 15) & (end <= 41)
    second_wins = (values < 0) & (end % 2 == 0) & (end >= 14) & (end <= 42)
    pons = np.where(values > 0, 1, -1) * ((44 - end) // 2)
    return np.where(values == 0, 0, np.where(first_wins | second_wins, pons, _IMPOSSIBLE))


def with_next(
    deep: DeepBook, path: str | os.PathLike[str], *, sha256: str | None = None
) -> DeepBook:
    """``deep`` with the 13-ply book in ``path`` attached (``next_scores``): a ``ValueError``
    naming the file when it is not seven scores for each 12-ply entry (or, given ``sha256``,
    not the file of that SHA-256), each one a 13-stone position can have."""
    path = os.fspath(path)
    where = f"the 13-ply opening book {path}"
    fix = _REFETCH if sha256 is not None else "build it again"
    data = _read_whole(
        path, where, 7 * len(deep), " (seven for each 12-ply entry)", fix, sha256=sha256
    )
    # Read in place: the bytes are already immutable, and both backends only read them.
    slots = np.frombuffer(data, dtype=np.int8)
    return DeepBook(deep.codes, deep.scores, deep.path, next_scores=slots, next_path=path)


def with_fourteen(
    deep: DeepBook, path: str | os.PathLike[str], *, sha256: str | None = None
) -> DeepBook:
    """``deep`` (with its 13-ply book) with the 14-ply book in ``path`` attached
    (``fourteen``): a ``ValueError`` naming the file when it is not a whole 14-ply book (or,
    given ``sha256``, not the file of that SHA-256)."""
    return DeepBook(
        deep.codes,
        deep.scores,
        deep.path,
        next_scores=deep.next_scores,
        next_path=deep.next_path,
        fourteen=read_14(path, sha256=sha256),
    )
