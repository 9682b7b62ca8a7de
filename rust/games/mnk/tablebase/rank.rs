//! Ranking: where a position is in its tier, the position at a rank, walking a tier in rank
//! order, and the ranks of a position's children.

use super::{MAX_CELLS, Tiers};
use crate::engine::window::cells_of;

pub(super) const N: usize = MAX_CELLS + 2;

/// `BINOM[n][k]` = C(n, k) for n, k < 22.
static BINOM: [[usize; N]; N] = {
    let mut table = [[0usize; N]; N];
    let mut n = 0;
    while n < N {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

#[inline]
pub(super) fn binom(n: usize, k: usize) -> usize {
    BINOM[n][k]
}

/// The colex rank of a set of cells (a mask), bit by bit: the reference the byte tables are
/// checked against.
#[cfg(test)]
pub(super) fn colex(mut mask: u64) -> usize {
    let mut rank = 0;
    let mut index = 1;
    while mask != 0 {
        rank += binom(mask.trailing_zeros() as usize, index);
        index += 1;
        mask &= mask - 1;
    }
    rank
}

/// Byte tables for ranking a mask of at most 24 cells with a few lookups: `colex[byte][bits
/// below][value]` is what one byte of a mask adds to its colex rank, and `extract[occupied
/// byte][x byte]` is the bits of the X byte at the occupied byte's cells, packed.
pub(super) struct RankTables {
    colex: Vec<u32>,
    extract: Vec<u8>,
}

impl std::fmt::Debug for RankTables {
    // The tables are 120 kB of numbers: their name says enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RankTables")
    }
}

const BELOW: usize = 17; // bits below the third byte: at most 16

pub(super) fn rank_tables() -> &'static RankTables {
    static TABLES: std::sync::OnceLock<RankTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut colex_table = vec![0u32; 3 * BELOW * 256];
        for byte in 0..3 {
            for below in 0..BELOW {
                for value in 0..256usize {
                    let mut sum = 0;
                    for (t, bit) in cells_of(value as u64).enumerate() {
                        let (n, k) = (8 * byte + bit as usize, below + t + 1);
                        // Masks of at most 20 cells never reach past the binomial table.
                        if n < N && k < N {
                            sum += binom(n, k);
                        }
                    }
                    colex_table[(byte * BELOW + below) * 256 + value] = sum as u32;
                }
            }
        }
        let mut extract_table = vec![0u8; 256 * 256];
        for onto in 0..256u64 {
            for x in 0..256u64 {
                extract_table[(onto as usize) * 256 + x as usize] = extract(x, onto) as u8;
            }
        }
        RankTables {
            colex: colex_table,
            extract: extract_table,
        }
    })
}

/// `colex(mask)` for a mask of at most 24 cells, by the byte tables.
#[inline(always)]
pub(super) fn colex_by_bytes(tables: &RankTables, mask: u64) -> usize {
    let (b0, b1, b2) = (mask & 255, mask >> 8 & 255, mask >> 16 & 255);
    let (c1, c2) = (
        b0.count_ones() as usize,
        (mask & 0xffff).count_ones() as usize,
    );
    (tables.colex[b0 as usize]
        + tables.colex[(BELOW + c1) * 256 + b1 as usize]
        + tables.colex[(2 * BELOW + c2) * 256 + b2 as usize]) as usize
}

/// `extract(x, onto)` for masks of at most 24 cells, by the byte tables.
#[inline(always)]
pub(super) fn extract_by_bytes(tables: &RankTables, x: u64, onto: u64) -> u64 {
    let mut out = 0u64;
    let mut shift = 0;
    for byte in 0..3 {
        let (o, xb) = ((onto >> (8 * byte)) & 255, (x >> (8 * byte)) & 255);
        out |= u64::from(tables.extract[(o as usize) * 256 + xb as usize]) << shift;
        shift += o.count_ones();
    }
    out
}

/// The set of `members` cells, all below `below`, with colex rank `rank`.
pub(super) fn uncolex(mut rank: usize, members: usize, below: usize) -> u64 {
    let mut mask = 0u64;
    let mut limit = below;
    for index in (1..=members).rev() {
        // The largest cell under the limit with C(cell, index) <= rank; C(index - 1, index)
        // is 0, so the search stops by then.
        let mut cell = limit - 1;
        while binom(cell, index) > rank {
            cell -= 1;
        }
        mask |= 1 << cell;
        rank -= binom(cell, index);
        limit = cell;
    }
    mask
}

/// The next mask with as many bits, in increasing order (Gosper); `mask` is not 0.
#[inline]
fn next_colex(mask: u64) -> u64 {
    let low = mask & mask.wrapping_neg();
    let ripple = mask + low;
    ripple | (((mask ^ ripple) >> 2) / low)
}

/// The bits of `sub` placed, in order, on the set bits of `onto`.
#[inline]
fn deposit(sub: u64, mut onto: u64) -> u64 {
    let mut out = 0;
    let mut index = 0;
    while onto != 0 {
        let low = onto & onto.wrapping_neg();
        if sub >> index & 1 == 1 {
            out |= low;
        }
        index += 1;
        onto &= onto - 1;
    }
    out
}

/// The bits of `x` at the set bits of `onto`, packed in order (the inverse of `deposit`).
#[inline]
pub(super) fn extract(x: u64, mut onto: u64) -> u64 {
    let mut out = 0;
    let mut index = 0;
    while onto != 0 {
        let low = onto & onto.wrapping_neg();
        if x & low != 0 {
            out |= 1 << index;
        }
        index += 1;
        onto &= onto - 1;
    }
    out
}

/// How many X marks a position of tier `t` has (X moves first).
#[inline]
pub(super) fn x_marks(tier: usize) -> usize {
    tier.div_ceil(2)
}

impl Tiers {
    /// Where a position with X on `x` and O on `o` is in the table. The counts must be those
    /// of play (X has as many marks as O, or one more).
    #[inline(always)]
    pub fn index(&self, x: u64, o: u64) -> usize {
        let tables = self.tables;
        let occupied = x | o;
        let tier = occupied.count_ones() as usize;
        self.offsets[tier]
            + colex_by_bytes(tables, occupied) * binom(tier, x_marks(tier))
            + colex_by_bytes(tables, extract_by_bytes(tables, x, occupied))
    }

    /// The position at a table index: (tier, X mask, O mask).
    /// The position at a table index given from outside: (tier, X mask, O mask), or why there
    /// is none.
    pub fn position_at(&self, index: usize) -> crate::engine::error::Result<(usize, u64, u64)> {
        if index >= self.total() {
            return crate::engine::error::malformed!(
                "index {index} is past the table's {} entries",
                self.total()
            );
        }
        Ok(self.position(index))
    }

    pub fn position(&self, index: usize) -> (usize, u64, u64) {
        let tier = self.offsets.partition_point(|&start| start <= index) - 1;
        let rank = index - self.offsets[tier];
        let xs = x_marks(tier);
        let subsets = binom(tier, xs);
        let occupied = uncolex(rank / subsets, tier, self.cells);
        let x = deposit(uncolex(rank % subsets, xs, tier), occupied);
        (tier, x, occupied & !x)
    }

    /// Calls `visit(offset, x, o)` for ranks `start..start + count` of `tier` in order, walking
    /// the masks in increasing order rather than unranking each.
    pub(super) fn walk(
        &self,
        tier: usize,
        start: usize,
        count: usize,
        mut visit: impl FnMut(usize, u64, u64),
    ) {
        if count == 0 {
            return;
        }
        let xs = x_marks(tier);
        let subsets = binom(tier, xs);
        let mut sub_rank = start % subsets;
        let mut occupied = uncolex(start / subsets, tier, self.cells);
        let mut sub = uncolex(sub_rank, xs, tier);
        for offset in 0..count {
            if offset > 0 {
                sub_rank += 1;
                if sub_rank == subsets {
                    sub_rank = 0;
                    occupied = next_colex(occupied);
                    sub = (1u64 << xs) - 1;
                } else {
                    sub = next_colex(sub);
                }
            }
            let x = deposit(sub, occupied);
            visit(offset, x, occupied & !x);
        }
    }
}

/// The ranks in the next tier of a position's children, a few additions each: prefix and
/// suffix sums of the parent's members, since inserting a cell shifts the index of every
/// member above it by one.
pub(super) struct ChildRanks {
    occupied: u64,
    x: u64,
    x_moves: bool,
    child_subsets: usize,
    occ_prefix: [usize; N],
    occ_suffix: [usize; N],
    x_prefix: [usize; N],
    x_suffix_add: [usize; N],
    x_suffix_keep: [usize; N],
}

impl ChildRanks {
    /// Room for the sums of any position; [`ChildRanks::set`] fills it for one. One is reused
    /// for many positions: made afresh for each, it was zeroed and copied each time.
    pub(super) fn new() -> ChildRanks {
        ChildRanks {
            occupied: 0,
            x: 0,
            x_moves: true,
            child_subsets: 0,
            occ_prefix: [0; N],
            occ_suffix: [0; N],
            x_prefix: [0; N],
            x_suffix_add: [0; N],
            x_suffix_keep: [0; N],
        }
    }

    /// Now the children of the position of tier `tier` with X on `x` and O on `o`.
    #[inline(always)]
    pub(super) fn set(&mut self, tier: usize, x: u64, o: u64) {
        let occupied = x | o;
        let mut members = [0u8; N];
        let mut count = 0;
        self.occ_prefix[0] = 0;
        for (i, cell) in cells_of(occupied).enumerate() {
            members[i] = cell;
            self.occ_prefix[i + 1] = self.occ_prefix[i] + binom(cell.into(), i + 1);
            count = i + 1;
        }
        self.occ_suffix[count] = 0;
        for i in (0..count).rev() {
            self.occ_suffix[i] = self.occ_suffix[i + 1] + binom(members[i].into(), i + 2);
        }
        let mut ordinals = [0u8; N];
        let mut xs = 0;
        self.x_prefix[0] = 0;
        for (i, ordinal) in cells_of(extract(x, occupied)).enumerate() {
            ordinals[i] = ordinal;
            self.x_prefix[i + 1] = self.x_prefix[i] + binom(ordinal.into(), i + 1);
            xs = i + 1;
        }
        (self.x_suffix_add[xs], self.x_suffix_keep[xs]) = (0, 0);
        for i in (0..xs).rev() {
            let above = usize::from(ordinals[i]) + 1;
            self.x_suffix_add[i] = self.x_suffix_add[i + 1] + binom(above, i + 2);
            self.x_suffix_keep[i] = self.x_suffix_keep[i + 1] + binom(above, i + 1);
        }
        let child_tier = tier + 1;
        (self.occupied, self.x) = (occupied, x);
        self.x_moves = tier % 2 == 0;
        self.child_subsets = binom(child_tier, x_marks(child_tier));
    }

    /// The rank in the next tier of the child where the side to move plays the empty `cell`.
    #[inline(always)]
    pub(super) fn rank(&self, cell: u8) -> usize {
        let below = (1u64 << cell) - 1;
        let j = (self.occupied & below).count_ones() as usize;
        let m = (self.x & below).count_ones() as usize;
        let occ_rank = self.occ_prefix[j] + binom(cell as usize, j + 1) + self.occ_suffix[j];
        let sub_rank = if self.x_moves {
            self.x_prefix[m] + binom(j, m + 1) + self.x_suffix_add[m]
        } else {
            self.x_prefix[m] + self.x_suffix_keep[m]
        };
        occ_rank * self.child_subsets + sub_rank
    }
}
