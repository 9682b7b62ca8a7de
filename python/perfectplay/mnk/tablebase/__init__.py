"""Tablebases: whole m,n,k games of up to 20 cells strongly solved, one byte a position.

>>> from perfectplay import tablebase
>>> tb = tablebase.build(3, 3, 3)
>>> tb.stats()["reachable"], tb.stats()["canonical"]
(5478, 765)
>>> tb.solve("xx./oo./...").best_moves
((0, 2),)

``build`` solves every position tier by tier (the positions with ``n`` marks depend only on
those with ``n + 1``), on every core, or on a Dask cluster with ``client=``. A table answers
``solve``, ``analyze``, ``best_move`` and ``batch_solve`` exactly as ``perfectplay.mnk`` does
(``nodes`` 0), and ``mnk.solve(board, k, tablebase=tb)`` asks it. ``save`` writes a versioned
file with checksums; ``load`` reads its header. Before the first answer the entries are read
into memory (a file changed afterwards changes nothing) and checked: the checksums, and a
sample of entries against the rules, so a damaged, foreign or rewritten file is a
``ValueError`` before any answer. ``verify(deep=True)`` checks every entry.
"""

from __future__ import annotations

import contextlib
import os
import struct
import tempfile
import threading
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import numpy as np
import numpy.typing as npt

from perfectplay._kernel import args, score
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay._kernel.options import errors_arg, flag
from perfectplay._kernel.types import BatchSolution, Solution
from perfectplay.errors import IllegalPosition
from perfectplay.mnk import Position
from perfectplay.mnk.tablebase.twin import ZERO

__all__ = ["FORMAT_VERSION", "Tablebase", "build", "load"]

MAGIC = b"PPTB\r\n\x1a\n"  # line-end and EOF bytes catch text-mode damage, as PNG's do
FORMAT_VERSION = 1
# magic, version, rows, cols, k, reserved, total entries
_FIXED = struct.Struct("<8sIBBBBQ")
_ALIGN = 64
_SHARD = 1 << 22  # ranks a piece of a distributed build
_PIECE = 1 << 21  # bytes read and checksummed at once, so Ctrl-C is seen between pieces
_SAMPLES = 1024  # random entries checked against the rules before a table answers


def _core() -> Any:
    return implementation("mnk.tablebase")


def _header(rows: int, cols: int, k: int, sizes: list[int], crcs: list[int]) -> bytes:
    cells = rows * cols
    body = _FIXED.pack(MAGIC, FORMAT_VERSION, rows, cols, k, 0, sum(sizes))
    body += struct.pack(f"<{cells + 1}Q", *sizes) + struct.pack(f"<{cells + 1}I", *crcs)
    body += struct.pack("<I", zlib.crc32(body))
    return body + b"\0" * (-len(body) % _ALIGN)


class _Stored(NamedTuple):
    """Where a loaded table's entries are, and what the file held when it was loaded."""

    path: str
    header: bytes  # every byte before the entries, padding included
    crcs: list[int]


class Tablebase:
    """The value and plies of every reachable position of one m,n,k game (see the module).

    ``Tablebase(rows, cols, k, data)`` wraps entries made elsewhere (``build`` and ``load``
    make them here); such a table is checked like a loaded one before its first answer."""

    def __init__(
        self, rows: int, cols: int, k: int, data: npt.NDArray[np.uint8], *, path: str | None = None
    ) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.sizes: list[int] = list(_core().sizes(rows, cols, k))
        self.total = sum(self.sizes)
        if len(data) != self.total:
            raise ValueError(
                f"a {rows}x{cols} k={k} table has {self.total} entries, not {len(data)}"
            )
        self._data = data
        self.path = path
        self._stored: _Stored | None = None
        self._checked = False  # read, checksummed and sampled: ready to answer
        self._lock = threading.Lock()
        self._stats: dict[str, Any] | None = None

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def data(self) -> npt.NDArray[np.uint8]:
        """The entries, one byte a position in table order (read-only). A loaded table reads
        its file here, at first use, and checks it (see ``verify``)."""
        self._check()
        return self._data

    def __repr__(self) -> str:
        where = f", {self.path!r}" if self.path else ""
        return f"<Tablebase {self.rows}x{self.cols} k={self.k}: {self.total:,} entries{where}>"

    def _tier_bytes(self, data: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.uint8]]:
        out, start = [], 0
        for size in self.sizes:
            out.append(data[start : start + size])
            start += size
        return out

    def _check(self) -> None:
        """Makes the table ready to answer, once (threads that ask meanwhile wait for it): a
        loaded table's entries read from its file into memory and checked against the
        header's checksums; then a sample of entries checked against the rules."""
        if self._checked:
            return
        with self._lock:
            if self._checked:
                return
            data = self._read(self._stored) if self._stored is not None else self._data
            with self._naming_the_file():
                _core().check_sample(data, self.rows, self.cols, self.k, _SAMPLES)
            data = data.view()
            data.flags.writeable = False  # answers must not change under the checks
            self._data, self._checked = data, True

    @contextlib.contextmanager
    def _naming_the_file(self) -> Iterator[None]:
        """A check's ``ValueError`` with the table's file named first, if it has one."""
        try:
            yield
        except ValueError as error:
            where = f"{self.path}: " if self.path else ""
            raise ValueError(f"{where}{error}") from None

    def _read(self, stored: _Stored) -> npt.NDArray[np.uint8]:
        """The entries of a loaded table, copied into memory: a file truncated or rewritten
        afterwards cannot change an answer or crash the process (as a mapping would)."""
        path = stored.path
        with open_regular(path) as file:
            if file.read(len(stored.header)) != stored.header:
                raise ValueError(f"{path} changed since it was loaded (its header differs)")
            size = os.fstat(file.fileno()).st_size
            if size != len(stored.header) + self.total:
                raise ValueError(
                    f"{path} changed since it was loaded: it has {size} bytes, not "
                    f"{len(stored.header) + self.total}"
                )
            data = np.empty(self.total, dtype=np.uint8)
            # Tier by tier, each piece checksummed as it arrives (while it is in the cache).
            for tier, (chunk, crc) in enumerate(
                zip(self._tier_bytes(data), stored.crcs, strict=True)
            ):
                view, done, running = chunk.data, 0, 0
                while done < len(chunk):  # in pieces, so Ctrl-C is seen
                    count = file.readinto(view[done : done + _PIECE])
                    if not count:
                        raise ValueError(f"{path} changed since it was loaded (it got shorter)")
                    running = zlib.crc32(view[done : done + count], running)
                    done += count
                if running != crc:
                    raise ValueError(
                        f"the tablebase file {path} is damaged: tier {tier}'s checksum does "
                        "not match"
                    )
        return data

    def verify(
        self, deep: bool = False, *, threads: int | None = None, progress: bool = False
    ) -> None:
        """Checks the table; any problem is a ``ValueError`` naming it. Always (and once,
        before a loaded table's first answer): every tier's checksum against the file's
        header, and a sample of entries (the root, each tier's first and last, 1,024 more)
        against the rules and their children, which catches a table of another game and
        wholesale rewrites. ``deep=True`` checks every entry against its children (as long
        as a build, on ``threads`` workers), so that any changed entry is found."""
        deep = flag(deep, "deep")
        self._check()
        if deep:
            with self._naming_the_file():
                _core().check_all(
                    self._data, self.rows, self.cols, self.k, threads=threads, progress=progress
                )

    def _ready(self, k: Any = None) -> None:
        if k is not None and args.int_arg(k, "k") != self.k:
            raise ValueError(f"the tablebase is for k={self.k}, not k={args.int_arg(k, 'k')}")
        self._check()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the table (header, checksums, data) to ``path``, replacing it whole: the
        data go to an unpredictable temporary file created exclusively beside it, are fsynced,
        and only then renamed over ``path``; any failure removes the temporary file. A target
        that exists and is not a regular file (a directory, a FIFO, a device) is refused, and
        so is a loaded table whose data no longer match their checksums (a save must not give
        damaged data fresh checksums)."""
        self._check()
        crcs = [zlib.crc32(chunk.data) for chunk in self._tier_bytes(self._data)]
        header = _header(self.rows, self.cols, self.k, self.sizes, crcs)

        def write(file: BinaryIO) -> None:
            file.write(header)
            file.write(np.ascontiguousarray(self.data).data)

        write_whole(path, write)

    # Probing: the answers of perfectplay.mnk, from the table.
    def solve(self, board: Any, k: Any = None) -> Solution[tuple[int, int]]:
        self._ready(k)
        result: Solution[tuple[int, int]] = _core().solve(
            self.data, self.rows, self.cols, self.k, board
        )
        return result

    def analyze(self, board: Any, k: Any = None) -> dict[tuple[int, int], tuple[int, int]]:
        self._ready(k)
        result: dict[tuple[int, int], tuple[int, int]] = _core().analyze(
            self.data, self.rows, self.cols, self.k, board
        )
        return result

    def ranked_moves(self, board: Any, k: Any = None) -> list[tuple[tuple[int, int], int, int]]:
        """Every legal move's (move, value for its player, plies from now), best first, as
        ``mnk.ranked_moves`` gives them."""
        self._ready(k)
        result: list[tuple[tuple[int, int], int, int]] = _core().ranked_moves(
            self.data, self.rows, self.cols, self.k, board
        )
        return result

    def solve_empty(self, rows: Any, cols: Any, k: Any = None) -> Solution[tuple[int, int]]:
        """The empty board solved; ``rows`` and ``cols`` must be the table's."""
        rows, cols = args.int_arg(rows, "rows"), args.int_arg(cols, "cols")
        if (rows, cols) != (self.rows, self.cols):
            raise ValueError(
                f"the board is {rows}x{cols}, but the tablebase is for {self.rows}x{self.cols} "
                f"boards (k={self.k})"
            )
        return self.solve("/".join(["." * cols] * rows), k)

    def best_move(self, board: Any, k: Any = None) -> tuple[int, int] | None:
        return self.solve(board, k).best_move

    def value(self, board: Any) -> int:
        return self.solve(board).value

    def plies(self, board: Any) -> int:
        return self.solve(board).plies

    def _codes(
        self, boards: Any, errors: str
    ) -> tuple[npt.NDArray[np.uint8], dict[int, Exception]]:
        """The batch as an (N, rows, cols) integer array, and the rows found bad while reading
        a sequence. An array is used as it is, strided or broadcast (the core reads it in
        place, marking codes out of 0..2 bad): a copy here would not stop at Ctrl-C."""
        bad: dict[int, Exception] = {}
        if isinstance(boards, np.ndarray):
            if boards.dtype.kind not in "iu":
                raise TypeError(
                    f"boards must be an integer array, not {boards.dtype}: "
                    "convert it with .astype(numpy.uint8)"
                )
            if boards.ndim != 3 or boards.shape[1:] != (self.rows, self.cols):
                raise ValueError(
                    f"boards must have shape (N, {self.rows}, {self.cols}) for this tablebase, "
                    f"got {boards.shape}"
                )
            return boards, bad
        if not isinstance(boards, Sequence) or isinstance(boards, (str, bytes)):
            raise TypeError(
                f"boards must be a numpy array or a sequence, not {type(boards).__name__}"
            )
        codes = np.zeros((len(boards), self.cells), dtype=np.uint8)
        for row, board in enumerate(boards):
            try:
                rows, cols, marks = read_mark_grid(args.to_item(board))
                if (rows, cols) != (self.rows, self.cols):
                    raise ValueError(
                        f"the board is {rows}x{cols}, but the tablebase is for "
                        f"{self.rows}x{self.cols} boards (k={self.k})"
                    )
                codes[row] = marks
            except (ValueError, TypeError) as error:
                bad[row] = error
                if errors == "raise":
                    break
        return codes.reshape(len(codes), self.rows, self.cols), bad

    def batch_solve(
        self,
        boards: Any,
        k: Any = None,
        *,
        moves: bool = False,
        errors: str | None = None,
        threads: int | None = None,
        progress: bool = False,
    ) -> BatchSolution:
        """``mnk.batch_solve`` answered from the table (``nodes`` 0): boards ``(N, rows,
        cols)`` of codes 0/1/2 or a sequence of boards."""
        moves, errors = flag(moves, "moves"), errors_arg(errors)
        self._ready(k)
        columns = self._label(
            boards, errors, best=True, moves=moves, threads=threads, progress=progress
        )
        return BatchSolution(*columns)

    def probe(
        self, boards: Any, *, errors: str | None = None, threads: int | None = None
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
        """(value, plies) of every board, one table read each: the fast path when best moves
        are not needed. Bad rows raise, or with ``errors="mask"`` read value 0, plies -1."""
        errors = errors_arg(errors)
        self._ready()
        value, plies, *_ = self._label(boards, errors, best=False, moves=False, threads=threads)
        return value, plies

    def _label(self, boards: Any, errors: str, **options: Any) -> list[Any]:
        """The label columns of a batch: bad rows raise (``errors="raise"``, the first one,
        naming its row) or hold the sentinels of a failed row."""
        codes, bad = self._codes(boards, errors)
        columns = list(
            _core().label_rows(self.data, self.rows, self.cols, self.k, codes, **options)
        )
        value, plies, best_move, best_mask, status, _nodes, move_value, move_plies = columns
        status[list(bad)] = BatchSolution.BAD
        if not status.any():
            return columns  # every row labelled (the common case, checked fast)
        failed = np.flatnonzero(status != BatchSolution.OK)
        if errors == "raise":
            row = int(failed[0])
            error = bad.get(row) or self._row_error(boards, codes, row)
            raise type(error)(f"row {row}: {error}") from None
        value[failed], plies[failed] = 0, -1
        if best_mask is not None:
            best_move[failed], best_mask[failed] = -1, False
        if move_value is not None:
            move_value[failed], move_plies[failed] = 0, -1
        return columns

    def _row_error(self, boards: Any, codes: npt.NDArray[np.uint8], row: int) -> Exception:
        """Why a row failed in the core: a code out of 0..2, or a board no game reaches."""
        flat = codes[row].reshape(-1).tolist()
        value = next((v for v in flat if not 0 <= v <= 2), None)
        if value is not None:
            return ValueError(f"cell value {value} is not 0, 1 or 2")
        return self._why_illegal(np.array(flat, dtype=np.uint8))

    def _why_illegal(self, codes: npt.NDArray[np.uint8]) -> Exception:
        board = codes.reshape(self.rows, self.cols)
        try:
            self.solve(board)
        except (ValueError, TypeError) as error:
            return error
        return IllegalPosition("no game reaches this board")

    def stats(self, *, threads: int | None = None, progress: bool = False) -> dict[str, Any]:
        """The whole game: ``reachable`` positions, ``by_value`` ({1, 0, -1: count} for the
        side to move), ``by_value_plies`` ({(value, plies): count}), ``longest`` ({"plies",
        "board"}: the most plies of any position, and the first such board in table order),
        ``canonical`` (positions up to the board's symmetries)."""
        if self._stats is None:
            self._ready()
            counts, (plies, index), canonical = _core().stats(
                self.data, self.rows, self.cols, self.k, threads=threads, progress=progress
            )
            by_value_plies = {
                (value, plies): count
                for value, row in zip((-1, 0, 1), counts, strict=True)
                for plies, count in enumerate(row)
                if count
            }
            board = self._board_at(index)
            self._stats = {
                "reachable": sum(by_value_plies.values()),
                "by_value": {
                    value: sum(n for (v, _), n in by_value_plies.items() if v == value)
                    for value in (1, 0, -1)
                },
                "by_value_plies": by_value_plies,
                "longest": {"plies": plies, "board": board},
                "canonical": canonical,
            }
        return dict(self._stats)

    def _board_at(self, index: int) -> str:
        """The board at a table index, as rows of ``x o .`` joined by ``/``."""
        _, x, o = _core().position(self.rows, self.cols, self.k, index)
        return Position.from_masks(self.rows, self.cols, self.k, x, o).text()

    def examples(self, value: int, plies: int, most: int = 5) -> list[str]:
        """Up to ``most`` boards (in table order, fewest marks first) whose side to move has
        ``value`` (1, 0, -1) with ``plies`` moves left under perfect play: the positions
        behind a count of ``stats()["by_value_plies"]``."""
        value, plies = args.int_arg(value, "value"), args.int_arg(plies, "plies")
        most = args.int_arg(most, "most")
        if value not in (1, 0, -1):
            raise ValueError(f"value must be 1, 0 or -1, not {value}")
        self._ready()
        sizes = list(_core().sizes(self.rows, self.cols, self.k))
        found: list[int] = []
        start = 0
        for tier, size in enumerate(sizes):
            left = self.cells - tier
            # The one stored byte of (value, plies) in this tier, if any.
            stored = [
                result + ZERO
                for result in range(-(left + 1), left + 2)
                if score.value(result) == value and score.plies(result, left) == plies
            ]
            if stored and len(found) < most:
                hits = np.flatnonzero(self.data[start : start + size] == stored[0])
                found.extend(int(start + hit) for hit in hits[: most - len(found)])
            start += size
        return [self._board_at(index) for index in found]


def _build_shard(
    rows: int,
    cols: int,
    k: int,
    tier: int,
    start: int,
    count: int,
    next_path: str | None,
    out_path: str,
) -> str:
    """One piece of a distributed build, run on a worker: reads the next tier's file, writes
    the piece's entries to ``out_path``."""
    if next_path is None or os.path.getsize(next_path) == 0:
        following = np.zeros(0, dtype=np.uint8)
    else:
        following = np.memmap(next_path, dtype=np.uint8, mode="r")
    piece = _core().build_range(rows, cols, k, tier, start, count, np.asarray(following))
    np.asarray(piece, dtype=np.uint8).tofile(out_path)
    return out_path


def _build_on_cluster(
    rows: int, cols: int, k: int, client: Any, directory: str | None, progress: bool
) -> Tablebase:
    """Tier by tier on a Dask cluster: each tier's pieces go to the workers, who write them as
    shard files in ``directory`` (which every worker must reach); the tier is then the shards
    put end to end, read by the next tier's pieces."""
    from tqdm import tqdm

    sizes = list(_core().sizes(rows, cols, k))
    root = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="perfectplay-tb-"))
    root.mkdir(parents=True, exist_ok=True)
    bar = tqdm(
        total=sum(sizes),
        unit=" positions",
        desc=f"tablebase {rows}x{cols} k={k}",
        disable=not progress,
    )
    following: str | None = None
    for tier in reversed(range(len(sizes))):
        shards = root / f"tier{tier:02d}"
        shards.mkdir(exist_ok=True)
        futures = [
            client.submit(
                _build_shard,
                rows,
                cols,
                k,
                tier,
                start,
                min(_SHARD, sizes[tier] - start),
                following,
                str(shards / f"{start:012d}.bin"),
                pure=False,
            )
            for start in range(0, sizes[tier], _SHARD)
        ]
        paths = client.gather(futures)
        tier_path = root / f"tier{tier:02d}.bin"
        with open(tier_path, "wb") as out:
            for path in paths:
                out.write(Path(path).read_bytes())
        following = str(tier_path)
        bar.update(sizes[tier])
    bar.close()
    data = np.concatenate(
        [np.fromfile(root / f"tier{tier:02d}.bin", dtype=np.uint8) for tier in range(len(sizes))]
    )
    return Tablebase(rows, cols, k, data)


def build(
    rows: int,
    cols: int,
    k: int,
    *,
    threads: int | None = None,
    progress: bool = False,
    client: Any = None,
    directory: str | os.PathLike[str] | None = None,
) -> Tablebase:
    """Strongly solves the ``rows x cols`` game where ``k`` in a row wins (at most 20 cells):
    tier by tier on ``threads`` workers (default: every CPU), or with ``client`` (a
    ``dask.distributed.Client``) on its workers, keeping each tier's shards in ``directory``
    (default: a new temporary directory; it must be reachable by every worker). Ctrl-C stops
    a local build within a second; ``progress=True`` draws a tqdm bar."""
    rows, cols, k = args.int_arg(rows, "rows"), args.int_arg(cols, "cols"), args.int_arg(k, "k")
    if client is not None:
        _core().sizes(rows, cols, k)  # checks the board first
        return _build_on_cluster(
            rows, cols, k, client, None if directory is None else str(directory), progress
        )
    data = _core().build(rows, cols, k, threads=threads, progress=progress)
    table = Tablebase(rows, cols, k, data)
    data.flags.writeable = False
    table._checked = True  # made by the rules here: nothing to check
    return table


def load(path: str | os.PathLike[str]) -> Tablebase:
    """Opens a saved table: only its header is read here. Before its first answer the table
    reads its entries into memory (a private copy: the file may change or vanish afterwards)
    and checks them (see ``Tablebase.verify``). A file that is not a tablebase of this format,
    truncated, damaged, or changed since it was loaded is a ``ValueError`` naming the problem."""
    path = str(path)
    with open_regular(path) as file:
        size = os.fstat(file.fileno()).st_size
        fixed = file.read(_FIXED.size)
        if len(fixed) < len(MAGIC) or not fixed.startswith(MAGIC):
            # Judged by what was read: /proc files say size 0 yet hold text.
            what = "an empty file" if not fixed else "not a perfectplay tablebase"
            raise ValueError(f"{path}: {what} (no tablebase header)")
        if len(fixed) < _FIXED.size:
            raise ValueError(f"{path}: the file is truncated inside its header")
        _, version, rows, cols, k, _, total = _FIXED.unpack(fixed)
        if version != FORMAT_VERSION:
            raise ValueError(
                f"{path}: tablebase format version {version} is not supported (this perfectplay "
                f"reads version {FORMAT_VERSION})"
            )
        cells = rows * cols
        if not 1 <= cells <= 20:
            raise ValueError(f"{path}: the header is damaged (a {rows}x{cols} board)")
        rest = file.read((cells + 1) * 12 + 4)
        if len(rest) < (cells + 1) * 12 + 4:
            raise ValueError(f"{path}: the file is truncated inside its header")
        header_body = fixed + rest[:-4]
        offset = len(header_body) + 4
        offset += -offset % _ALIGN
        padding = file.read(offset - len(header_body) - 4)
    (stored_crc,) = struct.unpack("<I", rest[-4:])
    if zlib.crc32(header_body) != stored_crc:
        raise ValueError(f"{path}: the tablebase header is damaged (its checksum does not match)")
    sizes = list(struct.unpack(f"<{cells + 1}Q", rest[: (cells + 1) * 8]))
    crcs = list(struct.unpack(f"<{cells + 1}I", rest[(cells + 1) * 8 : -4]))
    try:
        expected = list(_core().sizes(rows, cols, k))
    except ValueError as error:
        raise ValueError(f"{path}: the header names no valid game ({error})") from None
    if sizes != expected or total != sum(expected):
        raise ValueError(f"{path}: the header's tier sizes do not fit a {rows}x{cols} k={k} game")
    if size != offset + total:
        raise ValueError(
            f"{path}: the file has {size} bytes, but its header promises {offset + total} "
            "(truncated or extended)"
        )
    # The entries are read at the first answer; until then a placeholder of no memory.
    table = Tablebase(rows, cols, k, np.broadcast_to(np.uint8(0), (total,)), path=path)
    table._stored = _Stored(path, header_body + rest[-4:] + padding, crcs)
    return table
