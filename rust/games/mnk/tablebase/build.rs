//! Building: the entry of a position from its children's, and a tier of them; the same code
//! checks a loaded table against the rules.

use super::Tiers;
use super::rank::ChildRanks;
use crate::engine::error::{Result, malformed};
use crate::engine::pool;
use crate::engine::score::{self, Score};
use crate::engine::table;
use crate::engine::tiers::{TierGame, UNREACHED, entry, score_of};
use crate::engine::window::cells_of;

impl Tiers {
    /// The entry of one position of tier `tier` (X on `x`, O on `o`), given the next tier.
    pub(super) fn solve_position(
        &self,
        tier: usize,
        x: u64,
        o: u64,
        next: &[u8],
        children: &mut ChildRanks,
    ) -> u8 {
        let g = &self.geometry;
        let (mine, theirs) = if tier % 2 == 0 { (x, o) } else { (o, x) };
        if g.has_line(mine) {
            return UNREACHED; // the side to move made a line, yet the other side moved after
        }
        let left = (self.cells - tier) as u32;
        if g.has_line(theirs) {
            // Legal only if one last move made every line.
            return if g.lines_share_a_cell(theirs) {
                entry(score::loss(left))
            } else {
                UNREACHED
            };
        }
        let occupied = x | o;
        if tier == self.cells {
            return entry(score::DRAW);
        }
        let empty = g.full & !occupied;
        for cell in cells_of(empty) {
            let with = mine | 1 << cell;
            if g.windows_through[cell as usize]
                .iter()
                .any(|&w| w & !with == 0)
            {
                return entry(score::win(left - 1)); // the fastest win there is
            }
        }
        children.set(tier, x, o);
        let mut best = Score::MIN;
        for cell in cells_of(empty) {
            if let Some(child) = score_of(next[children.rank(cell)]) {
                best = best.max(-child);
            }
        }
        if best == Score::MIN {
            // Only a damaged table leaves a playable position no reached child.
            return UNREACHED;
        }
        entry(best)
    }
}

impl TierGame for Tiers {
    fn tiers(&self) -> usize {
        self.cells + 1
    }

    fn tier_size(&self, tier: usize) -> usize {
        self.sizes[tier]
    }

    fn solve_range(&self, tier: usize, start: usize, out: &mut [u8], next: &[u8]) {
        let mut children = ChildRanks::new();
        self.walk(tier, start, out.len(), |offset, x, o| {
            out[offset] = self.solve_position(tier, x, o, next, &mut children);
        });
    }
}

/// Entries recomputed from their children are checked this many ranks at a time.
const CHECK_PIECE: usize = 1 << 15;

impl Tiers {
    /// The table index of the first entry of `data` among `indices` that is not what the rules
    /// and its children's entries make it, or `None`.
    fn first_wrong(&self, data: &[u8], indices: impl Iterator<Item = usize>) -> Option<usize> {
        let mut children = ChildRanks::new();
        for index in indices {
            let (tier, x, o) = self.position(index);
            let next = if tier < self.cells {
                &data[self.offsets[tier + 1]..self.offsets[tier + 1] + self.sizes[tier + 1]]
            } else {
                &data[..0]
            };
            if self.solve_position(tier, x, o, next, &mut children) != data[index] {
                return Some(index);
            }
        }
        None
    }

    /// Checks a sample of `data` against the rules: the root, every tier's first and last
    /// ranks and `samples` ranks drawn evenly at random (a fixed sequence, so a check is
    /// repeatable), each recomputed from its children's entries. Catches a table of another
    /// game (another k, rows and cols swapped) and wholesale rewrites (negated, flattened,
    /// a flipped root) at once; one changed entry is found by [`Tiers::check_all`].
    pub fn check_sample(&self, data: &[u8], samples: usize) -> Result<()> {
        self.data_fits(data)?;
        let mut seed = 0x243f_6a88_85a3_08d3_u64;
        let random = (0..samples).map(|_| {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            (table::mix(seed) % self.total as u64) as usize
        });
        let edges = (0..=self.cells).flat_map(|tier| {
            [
                self.offsets[tier],
                self.offsets[tier] + self.sizes[tier] - 1,
            ]
        });
        match self.first_wrong(data, std::iter::once(0).chain(edges).chain(random)) {
            Some(index) => wrong_entry(data, index),
            None => Ok(()),
        }
    }

    /// Checks every entry of `data` against the rules and its children, on `threads` workers
    /// (as long as a build; `monitor` as in `tiers::build`).
    pub fn check_all(
        &self,
        data: &[u8],
        threads: usize,
        monitor: impl FnMut(usize, usize) -> bool,
    ) -> Result<()> {
        self.data_fits(data)?;
        let pieces: Vec<(usize, usize)> = (0..self.total)
            .step_by(CHECK_PIECE)
            .map(|start| (start, CHECK_PIECE.min(self.total - start)))
            .collect();
        let found = pool::run(
            pieces,
            self.total,
            threads,
            || Ok(None::<usize>),
            |wrong, (start, count), _| {
                if wrong.is_none() {
                    *wrong = self.first_wrong(data, start..start + count);
                }
                count
            },
            monitor,
        )?;
        match found.into_iter().flatten().min() {
            Some(index) => wrong_entry(data, index),
            None => Ok(()),
        }
    }

    /// `data` holds every rank of these tiers.
    pub fn data_fits(&self, data: &[u8]) -> Result<()> {
        if data.len() != self.total {
            return malformed!(
                "the tablebase data has {} bytes, but a {}x{} k={} table has {}",
                data.len(),
                self.geometry.rows,
                self.geometry.cols,
                self.geometry.k,
                self.total
            );
        }
        Ok(())
    }
}

fn wrong_entry(data: &[u8], index: usize) -> Result<()> {
    malformed!(
        "the tablebase data is damaged or not this game's: entry {} at index {index} is not \
         what the rules and its children make it",
        data[index]
    )
}
