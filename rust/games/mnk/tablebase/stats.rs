//! Statistics: the whole game counted by value and plies, the longest position, and the
//! positions up to symmetry.

use super::{MAX_CELLS, Probe, Tiers};
use crate::engine::error::{Result, malformed};
use crate::engine::pool;
use crate::engine::score;
use crate::engine::symmetry::Symmetries;
use crate::engine::tiers::score_of;

/// The whole-game report of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// `counts[value + 1][plies]`: reachable positions by value for the side to move and plies.
    pub counts: Vec<[u64; MAX_CELLS + 1]>,
    /// The most plies any position has, and the first such position's table index.
    pub longest: (u32, usize),
    /// Reachable positions up to the board's symmetries.
    pub canonical: u64,
}

impl Tiers {
    /// Counts every reachable position of `data` by value and plies, finds the longest, and
    /// counts positions up to symmetry (Burnside: the average number of positions each
    /// symmetry leaves unchanged). `threads` workers; `monitor` as in `tiers::build`.
    pub fn stats(
        &self,
        data: &[u8],
        threads: usize,
        monitor: impl FnMut(usize, usize) -> bool,
    ) -> Result<Stats> {
        Probe::new(self, data)?;
        let symmetries = Symmetries::of(self.geometry.rows, self.geometry.cols);
        // Pieces of at most 2^16 ranks within a tier, in table order.
        let chunk = 1usize << 16;
        let pieces: Vec<(usize, usize, usize)> = (0..=self.cells)
            .flat_map(|tier| {
                (0..self.sizes[tier])
                    .step_by(chunk)
                    .map(move |start| (tier, start, chunk.min(self.sizes[tier] - start)))
            })
            .collect();
        let empty = || {
            let stats = Stats {
                counts: vec![[0; MAX_CELLS + 1]; 3],
                longest: (0, usize::MAX),
                canonical: 0,
            };
            Ok((stats, 0u64, None::<String>))
        };
        let partial = pool::run(
            pieces,
            self.total,
            threads,
            empty,
            |(mine, fixed, damaged), (tier, start, count), _| {
                let base = self.offsets[tier] + start;
                let left = (self.cells - tier) as u32;
                self.walk(tier, start, count, |offset, x, o| {
                    let index = base + offset;
                    let Some(score) = score_of(data[index]) else {
                        return;
                    };
                    if score.unsigned_abs() > left + 1 {
                        damaged.get_or_insert_with(|| {
                            format!("entry {} at index {index}", data[index])
                        });
                        return;
                    }
                    let plies = score::plies(score, left);
                    mine.counts[(score::value(score) + 1) as usize][plies as usize] += 1;
                    // Pieces come in table order, so the first of the longest is kept.
                    if plies > mine.longest.0 || mine.longest.1 == usize::MAX {
                        mine.longest = (plies, index);
                    }
                    *fixed += (0..symmetries.count())
                        .filter(|&which| {
                            symmetries.permute(which, x) == x && symmetries.permute(which, o) == o
                        })
                        .count() as u64;
                });
                count
            },
            monitor,
        )?;
        let mut total = Stats {
            counts: vec![[0; MAX_CELLS + 1]; 3],
            longest: (0, usize::MAX),
            canonical: 0,
        };
        let mut fixed = 0u64;
        for (stats, part, damaged) in partial {
            if let Some(why) = damaged {
                return malformed!("the tablebase data is damaged: {why}");
            }
            for (sum, add) in total.counts.iter_mut().zip(&stats.counts) {
                for (a, b) in sum.iter_mut().zip(add) {
                    *a += b;
                }
            }
            // The longest, and among equals the first index: independent of the threads.
            if stats.longest.1 != usize::MAX
                && (stats.longest.0, std::cmp::Reverse(stats.longest.1))
                    > (total.longest.0, std::cmp::Reverse(total.longest.1))
            {
                total.longest = stats.longest;
            }
            fixed += part;
        }
        total.canonical = fixed / symmetries.count() as u64;
        Ok(total)
    }
}
