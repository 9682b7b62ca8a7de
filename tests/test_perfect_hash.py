"""The perfect hash the 14-ply book is read through: every key of its set in a slot of its own,
the same hash from the same keys in any order, and the compiled core's slots the twin's,
overflow list included."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from perfectplay._kernel import perfect_hash


def random_keys(count: int, seed: int) -> npt.NDArray[np.uint64]:
    keys = np.unique(np.random.default_rng(seed).integers(0, 2**63, count, dtype=np.uint64))
    doubled: npt.NDArray[np.uint64] = keys * np.uint64(2) + np.uint64(seed % 2)  # the top bit
    return doubled


def test_every_key_gets_a_slot_of_its_own_from_the_same_hash_in_any_order() -> None:
    keys = random_keys(30_000, 1)
    table, slots = perfect_hash.build(keys)
    assert table.slots == int(np.ceil(len(keys) / perfect_hash.LOAD))
    assert len(table.pilots) == -(-len(keys) // perfect_hash.KEYS_A_BUCKET)
    assert len(np.unique(slots)) == len(keys) and slots.min() >= 0 and slots.max() < table.slots
    assert [perfect_hash.slot(table, key) for key in keys.tolist()] == slots.tolist()
    shuffled = np.random.default_rng(2).permutation(keys)
    again, again_slots = perfect_hash.build(shuffled)
    assert np.array_equal(again.pilots, table.pilots)
    assert np.array_equal(again.overflow_pilots, table.overflow_pilots)
    assert again_slots.tolist() == [perfect_hash.slot(table, key) for key in shuffled.tolist()]


def test_repeated_keys_are_refused() -> None:
    with pytest.raises(ValueError, match="distinct keys"):
        perfect_hash.build(np.array([5, 7, 5], dtype=np.uint64))


@pytest.mark.compiled
@pytest.mark.testing_core
def test_the_cores_slots_are_the_twins(plain_core: Any) -> None:
    keys = random_keys(200_000, 3)
    table, slots = perfect_hash.build(keys)
    assert len(table.overflow_buckets) > 0  # the overflow list is read too
    assert np.all(table.pilots[table.overflow_buckets] == perfect_hash.OVERFLOW)
    core = plain_core.perfect_hash_slots(
        table.pilots.tolist(),
        table.overflow_buckets.tolist(),
        table.overflow_pilots.tolist(),
        table.slots,
        keys.tolist(),
    )
    assert core == slots.tolist()
    # Keys outside the set get some slot, alike.
    others = random_keys(5_000, 4)
    twin = [perfect_hash.slot(table, key) for key in others.tolist()]
    assert (
        plain_core.perfect_hash_slots(
            table.pilots.tolist(),
            table.overflow_buckets.tolist(),
            table.overflow_pilots.tolist(),
            table.slots,
            others.tolist(),
        )
        == twin
    )
