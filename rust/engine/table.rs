//! A transposition table of bounded size: what the searches learnt about positions they met.
//!
//! Each game keys positions by two words (exact, not a hash: a hit is never another position)
//! and picks the slot by its own hash. Slots come in pairs; a store replaces the old entry unless
//! that one came from a bigger subtree (more cells left to play), so the costly results stay.
//! The slots live in a [`HugeBuffer`]: probes are random reads, and on 2 MiB pages they stop
//! missing the TLB.

use crate::engine::memory::{HugeBuffer, OutOfMemory, Zeroable};
use crate::engine::score::Score;

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy)]
struct Slot {
    key: [u64; 2],
    score: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    best_move: u8,
    /// Cells left in the position: a cheap measure of the subtree the score cost.
    weight: u8,
    /// The search that stored it (see [`Table::new_search`]).
    generation: u8,
}

/// What a probe found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub score: Score,
    pub bound: Bound,
    pub best_move: u8,
}

pub struct Table {
    slots: HugeBuffer<Slot>,
    index_mask: usize,
    generation: u8,
}

/// Bytes one entry takes.
pub const SLOT_BYTES: usize = size_of::<Slot>();

// SAFETY: an all-zero slot is a valid slot: an empty one (bound 0).
unsafe impl Zeroable for Slot {}

/// `len` empty slots, on huge pages where the system gives them; `OutOfMemory` instead of an
/// abort when the allocation fails.
fn empty_slots(len: usize) -> Result<HugeBuffer<Slot>, OutOfMemory> {
    HugeBuffer::zeroed(len)
}

impl Table {
    /// The slots of a table given `bytes`: the largest power of two that fits (at least two).
    fn slots_for(bytes: usize) -> usize {
        let wanted = (bytes / SLOT_BYTES).max(2);
        if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
    }

    /// The size [`Table::with_bytes`] gives for `bytes`.
    pub fn with_bytes_size(bytes: usize) -> usize {
        Self::slots_for(bytes) * SLOT_BYTES
    }

    /// A table of the largest power-of-two number of slots that fits in `bytes` (at least two).
    pub fn with_bytes(bytes: usize) -> Result<Table, OutOfMemory> {
        let len = Self::slots_for(bytes);
        Ok(Table {
            slots: empty_slots(len)?,
            index_mask: len - 1,
            generation: 0,
        })
    }

    /// Marks the start of a new search on a kept table: what earlier searches stored stays
    /// true and is still found, but no longer holds on to the slot it is in, so a table kept
    /// across many searches does not fill up with their biggest subtrees.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        // The even slot of a pair: a position may sit in either slot of its pair.
        (hash >> 32) as usize & self.index_mask & !1
    }

    /// Hints the CPU to fetch a slot before it is probed.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch(&self.slots[self.index(hash)]);
    }

    #[inline]
    pub fn probe(&self, hash: u64, key: [u64; 2]) -> Option<Stored> {
        let index = self.index(hash);
        let pair = &self.slots[index..index + 2];
        let slot = pair
            .iter()
            .find(|slot| slot.bound != 0 && slot.key == key)?;
        Some(Stored {
            score: Score::from(slot.score),
            bound: match slot.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            best_move: slot.best_move,
        })
    }

    /// Stores a result. Of the pair, the first slot keeps the result of the biggest subtree
    /// this search has seen, the second takes whatever comes (a result of an earlier search
    /// steps down to it).
    #[inline]
    pub fn store(&mut self, hash: u64, key: [u64; 2], weight: u32, stored: Stored) {
        let index = self.index(hash);
        let pair = &mut self.slots[index..index + 2];
        let new = Slot {
            key,
            score: stored.score as i8,
            bound: match stored.bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            best_move: stored.best_move,
            weight: weight as u8,
            generation: self.generation,
        };
        if pair[0].bound == 0 || pair[0].key == key {
            pair[0] = new;
        } else if pair[1].key == key
            || (pair[0].generation == self.generation && (weight as u8) < pair[0].weight)
        {
            pair[1] = new;
        } else {
            pair[1] = pair[0];
            pair[0] = new;
        }
    }
}

/// Narrows a window (alpha, beta) with a stored result; `Some(score)` when that settles it.
#[inline]
pub fn apply(stored: Stored, alpha: &mut Score, beta: &mut Score) -> Option<Score> {
    match stored.bound {
        Bound::Exact => return Some(stored.score),
        Bound::Lower => *alpha = (*alpha).max(stored.score),
        Bound::Upper => *beta = (*beta).min(stored.score),
    }
    (*alpha >= *beta).then_some(stored.score)
}

/// How a search result relates to the window it was searched with.
#[inline]
pub fn bound_of(score: Score, alpha: Score, beta: Score) -> Bound {
    if score <= alpha {
        Bound::Upper
    } else if score >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}

/// The 64-bit mix that picks slots (SplitMix64's finaliser).
pub use crate::engine::random::mix;

/// Hints the CPU to start fetching `item`'s cache line, so that a read of it soon after does
/// not wait for memory (a no-op on other CPUs).
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching reads nothing and any address is allowed.
    unsafe {
        std::arch::x86_64::_mm_prefetch(
            (item as *const T).cast::<i8>(),
            std::arch::x86_64::_MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_exact_keys() {
        let mut table = Table::with_bytes(1 << 12).unwrap();
        assert!(table.bytes() <= 1 << 12 && table.bytes() > 1 << 11);
        let stored = Stored {
            score: -7,
            bound: Bound::Lower,
            best_move: 3,
        };
        table.store(mix(42), [42, 1], 10, stored);
        assert_eq!(table.probe(mix(42), [42, 1]), Some(stored));
        assert_eq!(table.probe(mix(42), [42, 2]), None);
        let (mut alpha, mut beta) = (-10, 10);
        assert_eq!(apply(stored, &mut alpha, &mut beta), None);
        assert_eq!((alpha, beta), (-7, 10));
    }

    #[test]
    fn later_searches_take_over_the_slots_of_earlier_ones() {
        let mut table = Table::with_bytes(2 * SLOT_BYTES).unwrap();
        let stored = |score| Stored {
            score,
            bound: Bound::Exact,
            best_move: 0,
        };
        // Both keys share the table's one pair; the heavy result holds the first slot.
        table.store(0, [1, 0], 30, stored(1));
        table.store(0, [2, 0], 5, stored(2));
        table.store(0, [3, 0], 5, stored(3));
        assert_eq!(table.probe(0, [1, 0]), Some(stored(1)));
        assert_eq!(table.probe(0, [2, 0]), None);
        // In a later search the old heavy result still answers, but steps down for a light one.
        table.new_search();
        assert_eq!(table.probe(0, [1, 0]), Some(stored(1)));
        table.store(0, [4, 0], 5, stored(4));
        assert_eq!(table.probe(0, [1, 0]), Some(stored(1)));
        table.store(0, [5, 0], 5, stored(5));
        assert_eq!(table.probe(0, [1, 0]), None);
        assert_eq!(table.probe(0, [4, 0]), Some(stored(4)));
        assert_eq!(table.probe(0, [5, 0]), Some(stored(5)));
    }
}
