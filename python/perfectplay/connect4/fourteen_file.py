"""The 14-ply book's file format (``.book14``): the perfect hash of its positions' keys and a
score a slot, written by ``write_14`` and read in place by ``read_14``."""

from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from perfectplay._kernel import perfect_hash
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay.connect4.book_io import _REFETCH, DEEP_STONES, NOT_HELD

#: The 14-ply book's file: magic, format version, stones, keys, buckets, overflow pilots and
#: slots, then the pilots (uint8), the overflow list's buckets (uint32) and pilots (uint16) and
#: a score a slot (int8, ``NOT_HELD`` in a slot no key has), all little-endian.
MAGIC_14 = b"PPC4H14\n"
_HEADER_14 = struct.Struct("<8sIIQQQQ")


@dataclass(frozen=True)
class Book14:
    """A 14-ply book: the perfect hash of its positions' keys and a score a slot. Which
    positions it holds is the rules' to say (``next_keys``): a key outside them gets some
    slot's score."""

    hash: perfect_hash.PerfectHash
    scores: npt.NDArray[np.int8]
    keys: int
    path: str

    def score(self, key: int) -> int:
        """The score of the position of ``key`` (one the book holds)."""
        return int(self.scores[perfect_hash.slot(self.hash, key)])


def write_14(
    path: str | os.PathLike[str], keys: npt.NDArray[np.uint64], scores: npt.NDArray[np.int8]
) -> None:
    """Writes the 14-ply book of ``keys`` (distinct) and their ``scores`` to ``path``, whole
    or not at all. The same keys and scores write the same bytes."""
    table, slot_of = perfect_hash.build(keys)
    by_slot = np.full(table.slots, NOT_HELD, dtype=np.int8)
    by_slot[slot_of] = scores
    header = _HEADER_14.pack(
        MAGIC_14,
        1,
        DEEP_STONES + 2,
        len(keys),
        len(table.pilots),
        len(table.overflow_buckets),
        table.slots,
    )
    parts = (
        table.pilots,
        table.overflow_buckets.astype("<u4"),
        table.overflow_pilots.astype("<u2"),
        by_slot,
    )
    write_whole(path, lambda file: file.write(header + b"".join(p.tobytes() for p in parts)))


def read_14(path: str | os.PathLike[str], *, sha256: str | None = None) -> Book14:
    """The 14-ply book in ``path``, read in place: a ``FileNotFoundError`` or ``ValueError``
    naming the file and the fix when it is missing or not one (its header, its length, an
    overflow list out of order, or a score no position of 14 stones has; given ``sha256``,
    not the file of that SHA-256)."""
    path = os.fspath(path)
    where = f"the 14-ply opening book {path}"
    fix = _REFETCH if sha256 is not None else "build it again"
    try:
        file = open_regular(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{where} is missing: {fix}") from None
    with file:
        data = file.read(_HEADER_14.size)
        if len(data) < _HEADER_14.size or data[:8] != MAGIC_14:
            raise ValueError(f"{where} is not a 14-ply book (its first bytes): {fix}")
        _, version, stones, keys, buckets, overflow, slots = _HEADER_14.unpack_from(data)
        if (version, stones) != (1, DEEP_STONES + 2) or not (
            0 < keys <= slots < 1 << 32 and 0 < buckets <= keys and overflow <= buckets
        ):
            raise ValueError(f"{where} is of another version or board: {fix}")
        size = _HEADER_14.size + buckets + 6 * overflow + slots
        data += file.read(size + 1 - _HEADER_14.size)  # no more than the header says, and one
    if len(data) != size:
        raise ValueError(f"{where} is {len(data):,} bytes, not {size:,}: {fix}")
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{where} is not the one this perfectplay shipped: {fix}")
    at = _HEADER_14.size
    pilots = np.frombuffer(data, np.uint8, buckets, at)
    overflow_buckets = np.frombuffer(data, "<u4", overflow, at + buckets).astype(np.uint32)
    overflow_pilots = np.frombuffer(data, "<u2", overflow, at + buckets + 4 * overflow)
    scores = np.frombuffer(data, np.int8, slots, at + buckets + 6 * overflow)
    # Both readers take a pilot byte of 255 to the overflow list: the list must hold exactly
    # those buckets, in order.
    if not np.array_equal(np.flatnonzero(pilots == perfect_hash.OVERFLOW), overflow_buckets):
        raise ValueError(f"{where}: its overflow list is out of order or not its pilots': {fix}")
    # Held at 14 stones: the side to move cannot win at once, so -14 to 13.
    bad = np.flatnonzero(((scores < -14) | (scores > 13)) & (scores != NOT_HELD))
    if len(bad):
        raise ValueError(
            f"{where}: slot {int(bad[0]):,} holds {int(scores[bad[0]])}, which "
            f"no position of 14 stones has: {fix}"
        )
    overflow_pilots = overflow_pilots.astype(np.uint16)
    table = perfect_hash.PerfectHash(pilots, overflow_buckets, overflow_pilots, slots)
    for array in (overflow_buckets, overflow_pilots):
        array.flags.writeable = False
    return Book14(table, scores, keys, path)


#: The positions of the 14-ply book: every held child of the 13-ply book's positions.
FOURTEEN_POSITIONS = 21_675_617
