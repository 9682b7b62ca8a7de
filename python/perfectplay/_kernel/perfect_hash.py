"""A perfect hash of a fixed set of 64-bit keys: each key of the set gets a slot of its own, in
about 1.1 slots a key, from one byte a bucket of three keys. A book whose positions the rules
can tell (so that it needs no keys to reject others) stores one score a slot, and a search
finds a position's score by hashing its key: no key is stored.

The scheme, a simple form of Pibiri and Trani's PTHash (2021): a key's hash picks a bucket; a
bucket's pilot (the number of its free slot assignment, tried from 0 up, the largest buckets
first) mixes with the hash to pick the slot. A pilot of 255 or more is kept in an overflow list
(bucket, pilot) and its byte reads 255. ``rust/engine/perfect_hash.rs`` computes the same slots;
both are written down here:

    h      = mix(key)                                   (SplitMix64's finaliser)
    bucket = ((h >> 32) * buckets) >> 32
    slot   = ((mix(h ^ mix((pilot + 1) * GOLDEN)) & 0xFFFFFFFF) * slots) >> 32

with 64-bit wrapping arithmetic. The slot of a key outside the set is some slot: the caller
must know the key belongs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from perfectplay._kernel.batch import mix

__all__ = ["KEYS_A_BUCKET", "LOAD", "OVERFLOW", "PerfectHash", "build", "slot"]

_MASK = (1 << 64) - 1
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
GOLDEN = 0x9E3779B97F4A7C15
#: Keys a bucket holds on average, and keys a slot: fewer slots a key make the pilots larger
#: and the build slower (the last buckets look long for a free slot).
KEYS_A_BUCKET, LOAD = 3, 0.9
#: The pilot byte that sends the reader to the overflow list.
OVERFLOW = 255
_PILOTS = 1 << 16


def _mix_array(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """``mix`` of each element."""
    x = x.astype(np.uint64)  # a copy: mixed in place below
    with np.errstate(over="ignore"):
        x ^= x >> np.uint64(30)
        x *= np.uint64(_M1)
        x ^= x >> np.uint64(27)
        x *= np.uint64(_M2)
    result: npt.NDArray[np.uint64] = x ^ (x >> np.uint64(31))
    return result


@functools.cache
def _seeds() -> list[int]:
    """Each pilot's seed, made when a slot is first asked for (not at every import)."""
    return [mix(((pilot + 1) * GOLDEN) & _MASK) for pilot in range(_PILOTS)]


@dataclass(frozen=True)
class PerfectHash:
    """A built perfect hash: ``pilots`` one byte a bucket, the overflow list's buckets
    (uint32, increasing) and pilots (uint16), and the number of slots."""

    pilots: npt.NDArray[np.uint8]
    overflow_buckets: npt.NDArray[np.uint32]
    overflow_pilots: npt.NDArray[np.uint16]
    slots: int

    def pilot(self, bucket: int) -> int:
        pilot = int(self.pilots[bucket])
        if pilot != OVERFLOW:
            return pilot
        at = int(np.searchsorted(self.overflow_buckets, bucket))
        return int(self.overflow_pilots[at])


def _bucket(hashed: int, buckets: int) -> int:
    return ((hashed >> 32) * buckets) >> 32


def _slot(hashed: int, pilot: int, slots: int) -> int:
    return ((mix(hashed ^ _seeds()[pilot]) & 0xFFFFFFFF) * slots) >> 32


def slot(table: PerfectHash, key: int) -> int:
    """The slot of ``key`` (one of the keys ``table`` was built on)."""
    hashed = mix(key)
    return _slot(hashed, table.pilot(_bucket(hashed, len(table.pilots))), table.slots)


def build(keys: npt.NDArray[np.uint64]) -> tuple[PerfectHash, npt.NDArray[np.int64]]:
    """A perfect hash of ``keys`` (distinct), and each key's slot. The same keys give the same
    hash, in any order. A ``ValueError`` when the keys repeat or are too many (2**32 slots)."""
    keys = np.asarray(keys, dtype=np.uint64)
    if len(np.unique(keys)) != len(keys):
        raise ValueError("a perfect hash is built on distinct keys")
    buckets = max(1, -(-len(keys) // KEYS_A_BUCKET))
    slots = max(1, int(np.ceil(len(keys) / LOAD)))
    if slots >= 1 << 32:
        raise ValueError(f"{len(keys):,} keys are too many for one perfect hash")
    hashed = _mix_array(np.sort(keys))
    bucket_of = ((hashed >> np.uint64(32)) * np.uint64(buckets)) >> np.uint64(32)
    order = np.argsort(bucket_of, kind="stable")
    hashed, bucket_of = hashed[order], bucket_of[order]
    starts = np.flatnonzero(np.r_[True, bucket_of[1:] != bucket_of[:-1]])
    sizes = np.diff(np.r_[starts, len(hashed)])
    ids = bucket_of[starts]
    taken = bytearray(slots)
    pilots = np.zeros(buckets, dtype=np.uint16)
    found = np.zeros(len(hashed), dtype=np.int64)
    hashes, begins, lengths = hashed.tolist(), starts.tolist(), sizes.tolist()
    for index in np.lexsort((ids, -sizes)).tolist():  # the largest buckets first
        begin, length = begins[index], lengths[index]
        mine = hashes[begin : begin + length]
        for pilot in range(_PILOTS):
            chosen = [_slot(hashed_key, pilot, slots) for hashed_key in mine]
            if len(set(chosen)) == length and not any(taken[at] for at in chosen):
                break
        else:
            raise ValueError("no pilot places a bucket: the keys are not a set this hash takes")
        for at in chosen:
            taken[at] = 1
        pilots[int(ids[index])] = pilot
        found[begin : begin + length] = chosen
    big = np.flatnonzero(pilots >= OVERFLOW)
    table = PerfectHash(
        pilots=np.minimum(pilots, OVERFLOW).astype(np.uint8),
        overflow_buckets=big.astype(np.uint32),
        overflow_pilots=pilots[big],
        slots=slots,
    )
    # Each key's slot in the order it was given.
    sorted_keys = np.sort(keys)
    in_sorted = np.empty(len(keys), dtype=np.int64)
    in_sorted[order] = found
    return table, in_sorted[np.searchsorted(sorted_keys, keys)]
