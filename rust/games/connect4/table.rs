//! The Connect Four transposition tables: the main table (one large, one of 4 MiB for positions
//! near the end: `search/mod.rs` says which) and a small one for the last moves.
//!
//! **Main table.** Buckets of four 8-byte entries (32 bytes, half a cache line). A position's
//! key (W * (H + 1) bits) is first mixed by a bijection of the integers of that many bits
//! (multiplications by odd numbers and xor-shifts, each invertible), so the low bits pick the
//! bucket and the rest, stored, make every hit exact: a probe never answers for another
//! position. An entry holds a lower and an upper bound of the score, the best move, and the
//! work its search cost (cheap results give way first).
//!
//! * **Growth.** A search starts on a small part of the table (256 KiB) and doubles it whenever
//!   it has stored as many results as half its entries (counted one in 64, so that the threads
//!   do not all write one counter): a small search stays in the CPU's cache, a large one gets
//!   the whole table. Entries stored under a smaller part are still found when their bucket
//!   does not move, and are only a cache when they do.
//! * **Sharing.** Entries are atomic words and the growth state atomic counters, so that the
//!   threads of one parallel search share the table through shared references. A word is
//!   written whole, so a probe sees an entry or not, never half of one; a race only loses an
//!   entry or a count, never makes an answer wrong. On x86-64 and arm64 these relaxed atomic
//!   loads and stores are the plain ones.
//! * **Clearing** ([`MainTable::clear`]) starts a new generation, part of every stored tag, so
//!   that nothing stored before matches; only when the generations run out is the used part of
//!   the table zeroed. Clearing costs nothing, so "each position from a cleared table" costs
//!   nothing either.
//!
//! **Small table.** Direct-mapped, 16,384 entries (256 KiB), for positions a few moves from the
//! end, which the search visits most and where a probe of the main table costs more than the
//! search it saves.

use crate::engine::memory::{HugeBuffer, OutOfMemory, Zeroable};
use crate::games::connect4::bits::Bits;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Acquire, Ordering::Relaxed};
use std::sync::atomic::{Ordering::Release, fence};

/// Bits of an entry that hold its data: lower + 32 (6), upper + 32 (6), move (4), work (4).
const DATA_BITS: u32 = 20;
/// No move stored.
pub const NO_MOVE: u32 = 15;
/// Entries a bucket.
const WAYS: usize = 4;
/// The smallest part of the main table a search starts on: 2^13 buckets (256 KiB).
const START_BITS: u32 = 13;
/// Bytes of a bucket.
pub const BUCKET_BYTES: usize = size_of::<Bucket>();

/// A main table counts one store in this many (see [`Growth::count`]).
const COUNT_ONE_IN: u64 = 64;

#[repr(C, align(32))]
struct Bucket([AtomicU64; WAYS]);

/// A value alone on its cache line, so that writing it does not evict its neighbours from the
/// other cores' caches.
#[repr(align(64))]
struct OwnLine<T>(T);

// SAFETY: zero entries are empty entries, and atomics need no drop.
unsafe impl Zeroable for Bucket {}

/// The part of a main table a search uses and how it grows (see the module): its bucket bits
/// now and at most, and the results stored since the search started, on a cache line of its
/// own.
struct Growth {
    bits: AtomicU32,
    max_bits: u32,
    stored: OwnLine<AtomicU64>,
}

impl Growth {
    fn new(bits: u32, max_bits: u32) -> Growth {
        Growth {
            bits: AtomicU32::new(bits),
            max_bits,
            stored: OwnLine(AtomicU64::new(0)),
        }
    }

    /// The bucket bits in use now.
    #[inline(always)]
    fn bits(&self) -> u32 {
        self.bits.load(Relaxed)
    }

    /// Counts a store made while `bits` were in use, of a key whose mixed low word is `low`,
    /// into a table of `ways` entries a bucket: the part in use doubles once the count reaches
    /// half its entries. One store in COUNT_ONE_IN is counted, by the key's low bits (uniform):
    /// the threads of a parallel search store at every node, and a count they all wrote each
    /// time would bounce its cache line between their cores at every store. A load and a store
    /// rather than an atomic add: the count is a heuristic, and a count lost to a race costs
    /// nothing.
    #[inline(always)]
    fn count(&self, bits: u32, low: u64, ways: usize) {
        if bits < self.max_bits && low % COUNT_ONE_IN == 0 {
            let stored = self.stored.0.load(Relaxed) + COUNT_ONE_IN;
            self.stored.0.store(stored, Relaxed);
            if stored >= ((ways as u64) << bits) / 2 {
                self.bits.store(bits + 1, Relaxed);
            }
        }
    }

    /// A new search: the count starts again.
    fn restart_count(&mut self) {
        *self.stored.0.get_mut() = 0;
    }
}

/// An entry's data bits: what a search found and `work`, how much it cost (0..15).
#[inline(always)]
fn data_of(known: Known, work: u32) -> u64 {
    ((known.lower + 32) as u64) << 14
        | ((known.upper + 32) as u64) << 8
        | u64::from(known.best) << 4
        | u64::from(work.min(15))
}

/// What an entry's data bits say.
#[inline(always)]
fn known_of(entry: u64) -> Known {
    Known {
        lower: ((entry >> 14) & 63) as i32 - 32,
        upper: ((entry >> 8) & 63) as i32 - 32,
        best: ((entry >> 4) & 15) as u32,
    }
}

/// What the main table knows of a position: bounds of its score and its best move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    pub lower: i32,
    pub upper: i32,
    pub best: u32,
}

pub struct MainTable {
    buckets: HugeBuffer<Bucket>,
    key_bits: u32,
    key_mask: u64,
    /// The bucket bits of the first part a search uses.
    start_bits: u32,
    growth: Growth,
    /// Bits of the tag that hold the generation.
    generation_bits: u32,
    generation: u64,
    /// The most bucket bits used since the table was last zeroed.
    dirty_bits: u32,
}

impl MainTable {
    /// A table of `bytes` (a power of two of buckets, at least what exact keys need) for keys
    /// of `key_bits` bits.
    pub fn new(key_bits: u32, bytes: usize) -> Result<MainTable, OutOfMemory> {
        let (start_bits, max_bits) = Self::bits_for(key_bits, bytes);
        let tag_bits = key_bits + 1 - start_bits;
        let buckets = HugeBuffer::zeroed(1usize << max_bits)?;
        let mut table = MainTable {
            buckets,
            key_bits,
            key_mask: if key_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            },
            start_bits,
            growth: Growth::new(start_bits, max_bits),
            generation_bits: (64 - DATA_BITS - tag_bits).min(8),
            generation: 0,
            dirty_bits: start_bits,
        };
        table.clear();
        Ok(table)
    }

    /// (start, whole) bucket bits of a table of `bytes` for keys of `key_bits` bits. Tags are
    /// the key's bits above the start part's index, plus one, so every key bit is stored or
    /// implied by the bucket: start_bits >= key_bits + 1 - (64 - DATA_BITS).
    fn bits_for(key_bits: u32, bytes: usize) -> (u32, u32) {
        let start_bits = START_BITS.max((key_bits + 1).saturating_sub(64 - DATA_BITS));
        let wanted = (bytes / BUCKET_BYTES).max(1);
        let max_bits = (usize::BITS - 1 - wanted.leading_zeros()).max(start_bits);
        (start_bits, max_bits)
    }

    /// The size a table made for `bytes` has.
    pub fn size_for(key_bits: u32, bytes: usize) -> usize {
        BUCKET_BYTES << Self::bits_for(key_bits, bytes).1
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        BUCKET_BYTES << self.growth.max_bits
    }

    /// Forgets every entry (a new generation; see the module's notes).
    pub fn clear(&mut self) {
        self.new_search();
        *self.growth.bits.get_mut() = self.start_bits;
        self.generation += 1;
        if self.generation >> self.generation_bits != 0 {
            self.generation = 0;
            for bucket in &mut self.buckets[..1 << self.dirty_bits] {
                bucket.0.iter_mut().for_each(|entry| *entry.get_mut() = 0);
            }
            self.dirty_bits = self.start_bits;
        }
    }

    /// Starts a new search: the table grows again from its first part. Entries of earlier
    /// searches stay true (a score depends on the position alone) and are still found.
    pub fn new_search(&mut self) {
        self.dirty_bits = self.dirty_bits.max(*self.growth.bits.get_mut());
        self.growth.restart_count();
    }

    /// The key mixed by a bijection of the `key_bits`-bit integers.
    #[inline(always)]
    pub fn mix(&self, key: u64) -> u64 {
        let mask = self.key_mask;
        let mut x = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) & mask;
        x ^= x >> (self.key_bits / 2);
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9) & mask;
        x ^ (x >> (self.key_bits / 3 + 1))
    }

    /// The bucket of a mixed key when the table uses `bits` bucket bits.
    #[inline(always)]
    fn index(mixed: u64, bits: u32) -> usize {
        (mixed as usize) & ((1usize << bits) - 1)
    }

    /// The stored tag of a mixed key: the bits above the start part's index (plus one, so no
    /// tag is zero), and the generation.
    #[inline(always)]
    fn tag(&self, mixed: u64) -> u64 {
        ((mixed >> self.start_bits) + 1) << self.generation_bits | self.generation
    }

    /// Asks the CPU to fetch a bucket that will be probed soon.
    #[inline(always)]
    pub fn prefetch(&self, mixed: u64) {
        crate::engine::table::prefetch(&self.buckets[Self::index(mixed, self.growth.bits())]);
    }

    #[inline(always)]
    pub fn get(&self, mixed: u64) -> Option<Known> {
        let tag = self.tag(mixed);
        let bucket = &self.buckets[Self::index(mixed, self.growth.bits())].0;
        bucket
            .iter()
            .map(|entry| entry.load(Relaxed))
            .find(|&e| e >> DATA_BITS == tag)
            .map(known_of)
    }

    /// Stores what a search found; `work` (0..15) is how much it cost.
    #[inline(always)]
    pub fn put(&self, mixed: u64, known: Known, work: u32) {
        let tag = self.tag(mixed);
        let (generation, mask) = (self.generation, (1u64 << self.generation_bits) - 1);
        let bits = self.growth.bits();
        let bucket = &self.buckets[Self::index(mixed, bits)].0;
        let entry = tag << DATA_BITS | data_of(known, work);
        let mut victim = 0;
        let mut least = u64::MAX;
        for (slot, old) in bucket.iter().enumerate() {
            let old = old.load(Relaxed);
            if old >> DATA_BITS == tag {
                bucket[slot].store(entry, Relaxed);
                return;
            }
            // Entries of other generations are empty; otherwise the cheapest gives way.
            let current = old != 0 && (old >> DATA_BITS) & mask == generation;
            let weight = if current { 1 + (old & 15) } else { 0 };
            if weight < least {
                (least, victim) = (weight, slot);
            }
        }
        bucket[victim].store(entry, Relaxed);
        self.growth.count(bits, mixed, WAYS);
    }
}

/// A main table of boards of the integer `B` (see [`Bits::Main`]): the search sees this alone.
pub trait Table<B>: Sized + Send + Sync {
    /// A table of about `bytes` for keys of `key_bits` bits.
    fn new(key_bits: u32, bytes: usize) -> Result<Self, OutOfMemory>;
    /// The size a table made for `bytes` has.
    fn size_for(key_bits: u32, bytes: usize) -> usize;
    fn bytes(&self) -> usize;
    fn clear(&mut self);
    fn new_search(&mut self);
    /// The key mixed by a bijection of the `key_bits`-bit integers.
    fn mix(&self, key: B) -> B;
    fn prefetch(&self, mixed: B);
    fn get(&self, mixed: B) -> Option<Known>;
    fn put(&self, mixed: B, known: Known, work: u32);
}

impl Table<u64> for MainTable {
    fn new(key_bits: u32, bytes: usize) -> Result<Self, OutOfMemory> {
        MainTable::new(key_bits, bytes)
    }
    fn size_for(key_bits: u32, bytes: usize) -> usize {
        MainTable::size_for(key_bits, bytes)
    }
    fn bytes(&self) -> usize {
        MainTable::bytes(self)
    }
    fn clear(&mut self) {
        MainTable::clear(self);
    }
    fn new_search(&mut self) {
        MainTable::new_search(self);
    }
    #[inline(always)]
    fn mix(&self, key: u64) -> u64 {
        MainTable::mix(self, key)
    }
    #[inline(always)]
    fn prefetch(&self, mixed: u64) {
        MainTable::prefetch(self, mixed);
    }
    #[inline(always)]
    fn get(&self, mixed: u64) -> Option<Known> {
        MainTable::get(self, mixed)
    }
    #[inline(always)]
    fn put(&self, mixed: u64, known: Known, work: u32) {
        MainTable::put(self, mixed, known, work);
    }
}

/// The main table of boards past 64 bits. A 64-bit entry cannot hold what the bucket index
/// leaves of a key of up to 128 bits, so an entry keeps the whole mixed key (two words) and its
/// data (a third): exact at every size, at three words an entry. Two words are not written at
/// once, so each bucket has a sequence number (a seqlock): a writer makes it odd, writes and
/// makes it even again, and a reader that saw it odd or changed answers nothing. A writer that
/// finds the bucket being written gives up its store (a race loses an entry, never makes an
/// answer wrong), as the 64-bit table's races do. It grows as the 64-bit table does, so that a
/// short search touches little of a large table (entries hold whole keys: a bucket that moves
/// with the growth is only a cache lost).
pub struct WideTable {
    buckets: HugeBuffer<WideBucket>,
    key_mask: u128,
    key_bits: u32,
    growth: Growth,
    /// The generation of this search's entries (a clear starts a new one); 0 is never current.
    generation: u64,
}

const WIDE_WAYS: usize = 2;

#[repr(C, align(64))]
struct WideBucket {
    sequence: AtomicU64,
    /// Per entry: the mixed key's low and high words, and the data (generation << 20 | data).
    entries: [[AtomicU64; 3]; WIDE_WAYS],
}

// SAFETY: zero entries are empty entries (generation 0 is never current), and atomics need
// no drop.
unsafe impl Zeroable for WideBucket {}

/// Bits of a wide entry's generation.
const WIDE_GENERATION_BITS: u32 = 40;

impl WideTable {
    #[inline(always)]
    fn bucket(&self, mixed: u128) -> (&WideBucket, u32) {
        let bits = self.growth.bits();
        (
            &self.buckets[(mixed as usize) & ((1usize << bits) - 1)],
            bits,
        )
    }

    fn bits_for(bytes: usize) -> u32 {
        let wanted = (bytes / size_of::<WideBucket>()).max(1 << START_BITS);
        usize::BITS - 1 - wanted.leading_zeros()
    }
}

impl Table<u128> for WideTable {
    fn new(key_bits: u32, bytes: usize) -> Result<Self, OutOfMemory> {
        let max_bits = Self::bits_for(bytes);
        Ok(WideTable {
            buckets: HugeBuffer::zeroed(1usize << max_bits)?,
            key_mask: if key_bits >= 128 {
                u128::MAX
            } else {
                (1u128 << key_bits) - 1
            },
            key_bits,
            growth: Growth::new(START_BITS.min(max_bits), max_bits),
            generation: 1,
        })
    }

    fn size_for(_: u32, bytes: usize) -> usize {
        size_of::<WideBucket>() << Self::bits_for(bytes)
    }

    fn bytes(&self) -> usize {
        size_of::<WideBucket>() << self.growth.max_bits
    }

    fn clear(&mut self) {
        self.new_search();
        *self.growth.bits.get_mut() = START_BITS.min(self.growth.max_bits);
        self.generation += 1;
        if self.generation >> WIDE_GENERATION_BITS != 0 {
            self.generation = 1;
            for bucket in self.buckets.iter_mut() {
                for entry in &mut bucket.entries {
                    entry.iter_mut().for_each(|word| *word.get_mut() = 0);
                }
            }
        }
    }

    fn new_search(&mut self) {
        self.growth.restart_count();
    }

    #[inline(always)]
    fn mix(&self, key: u128) -> u128 {
        let mask = self.key_mask;
        let mut x = key.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) & mask;
        x ^= x >> (self.key_bits / 2);
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9_94d0_49bb_1331_11eb) & mask;
        x ^ (x >> (self.key_bits / 3 + 1))
    }

    #[inline(always)]
    fn prefetch(&self, mixed: u128) {
        crate::engine::table::prefetch(self.bucket(mixed).0);
    }

    #[inline(always)]
    fn get(&self, mixed: u128) -> Option<Known> {
        let (bucket, _) = self.bucket(mixed);
        let before = bucket.sequence.load(Acquire);
        if before % 2 == 1 {
            return None;
        }
        let (low, high) = (mixed as u64, (mixed >> 64) as u64);
        let found = bucket.entries.iter().find_map(|entry| {
            let data = entry[2].load(Relaxed);
            (entry[0].load(Relaxed) == low
                && entry[1].load(Relaxed) == high
                && data >> DATA_BITS == self.generation)
                .then_some(data)
        });
        fence(Acquire);
        if bucket.sequence.load(Relaxed) != before {
            return None;
        }
        found.map(known_of)
    }

    #[inline(always)]
    fn put(&self, mixed: u128, known: Known, work: u32) {
        let (bucket, bits) = self.bucket(mixed);
        let sequence = bucket.sequence.load(Relaxed);
        if sequence % 2 == 1
            || bucket
                .sequence
                .compare_exchange(sequence, sequence + 1, Acquire, Relaxed)
                .is_err()
        {
            return;
        }
        fence(Release);
        let (low, high) = (mixed as u64, (mixed >> 64) as u64);
        let data = self.generation << DATA_BITS | data_of(known, work);
        let weight = |entry: &[AtomicU64; 3]| {
            let old = entry[2].load(Relaxed);
            if old >> DATA_BITS == self.generation {
                1 + (old & 15)
            } else {
                0
            }
        };
        let same = |entry: &&[AtomicU64; 3]| {
            entry[0].load(Relaxed) == low && entry[1].load(Relaxed) == high
        };
        let victim = match bucket.entries.iter().find(same) {
            Some(entry) => entry,
            None => bucket
                .entries
                .iter()
                .min_by_key(|entry| weight(entry))
                .expect("a bucket has entries"),
        };
        victim[0].store(low, Relaxed);
        victim[1].store(high, Relaxed);
        victim[2].store(data, Relaxed);
        bucket.sequence.store(sequence + 2, Release);
        self.growth.count(bits, mixed as u64, WIDE_WAYS);
    }
}

/// Entries of the small table.
const SMALL_BITS: u32 = 14;

/// One small-table entry: a key, its bounds, and the clear count it belongs to.
#[derive(Clone, Copy, Default)]
struct Small<B> {
    key: B,
    lower: i8,
    upper: i8,
    stamp: u8,
}

// SAFETY: an all-zero entry is an empty one (stamp 0 is never current).
unsafe impl<B: Bits> Zeroable for Small<B> {}

pub struct SmallTable<B: Bits = u64> {
    entries: HugeBuffer<Small<B>>,
    stamp: u8,
}

impl<B: Bits> SmallTable<B> {
    pub fn new() -> Result<SmallTable<B>, OutOfMemory> {
        Ok(SmallTable {
            entries: HugeBuffer::zeroed(1 << SMALL_BITS)?,
            stamp: 1,
        })
    }

    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.entries.fill(Small::default());
            self.stamp = 1;
        }
    }

    #[inline(always)]
    fn slot(key: B) -> usize {
        (key.folded().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SMALL_BITS)) as usize
    }

    /// (lower, upper) stored for the position of `key` (an exact key).
    #[inline(always)]
    pub fn get(&self, key: B) -> Option<(i32, i32)> {
        let entry = self.entries[Self::slot(key)];
        (entry.key == key && entry.stamp == self.stamp)
            .then_some((entry.lower.into(), entry.upper.into()))
    }

    #[inline(always)]
    pub fn put(&mut self, key: B, lower: i32, upper: i32) {
        self.entries[Self::slot(key)] = Small {
            key,
            lower: lower as i8,
            upper: upper as i8,
            stamp: self.stamp,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_exact_and_clearing_forgets() {
        let mut table = MainTable::new(49, 1 << 20).unwrap();
        let known = Known {
            lower: -3,
            upper: 5,
            best: 2,
        };
        let key = 0x1_2345_6789_abcd;
        let mixed = table.mix(key);
        table.put(mixed, known, 3);
        assert_eq!(table.get(mixed), Some(known));
        assert_eq!(table.get(table.mix(key + 1)), None);
        table.clear();
        assert_eq!(table.get(mixed), None);
        for _ in 0..1000 {
            table.clear(); // through a wrap of the generations
        }
        // The mix is a bijection of 49-bit keys: distinct keys, distinct mixes.
        let mixes: std::collections::HashSet<u64> =
            (0..100_000u64).map(|k| table.mix(k * 0x1_0001)).collect();
        assert_eq!(mixes.len(), 100_000);
        let mut small = SmallTable::new().unwrap();
        small.put(key, 1, 1);
        assert_eq!(small.get(key), Some((1, 1)));
        small.clear();
        assert_eq!(small.get(key), None);
    }
}
