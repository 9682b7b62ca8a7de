//! Strong solutions of whole m,n,k games of up to 20 cells: the score of every reachable
//! position, one byte each, built by the generic tier solver (`engine/tiers.rs`) and probed
//! through the generic driver (the table is an answer source whose every score is a lookup).
//!
//! One file a job: `rank.rs` (ranks and child ranks), `build.rs` (solving a tier),
//! `probe.rs` (answers and batch labels), `stats.rs` (the whole-game report).
//!
//! **Ranking.** Tier `t` holds the positions with `t` marks: X has `ceil(t/2)`, O `floor(t/2)`.
//! A position's rank in its tier is `colex(occupied) * C(t, xs) + colex(X among the occupied)`,
//! where `colex` is the rank of a set in the combinatorial number system (the sum of
//! `C(p_i, i + 1)` over its members `p_0 < p_1 < ...`). Masks with the same number of bits in
//! increasing order are in colex order, so a tier is walked without unranking. Ranks no game
//! reaches (both sides have a line, a move after the end) hold `UNREACHED`.
//!
//! **Children.** The child of playing cell `c` is in the next tier; its rank is found in O(1)
//! per child from prefix and suffix sums of the parent's members (inserting `c` shifts the
//! index of every member above it by one).

mod build;
mod probe;
mod rank;
mod stats;

pub use probe::{Probe, Wanted};

use crate::engine::error::{Result, malformed};
use crate::engine::memory::zeroed;
use crate::engine::pool::Monitor;
use crate::engine::tiers;
use crate::games::mnk::{Geometry, empty_board_of};
use crate::input::options::{Scalar, int};
use rank::{RankTables, binom, rank_tables, x_marks};

/// The options of a job on the whole table.
pub const WORK: &[&str] = &["threads", "progress"];

/// The most cells a tablebase board has.
pub const MAX_CELLS: usize = 20;

/// The tiers of one m,n,k game: sizes, where each starts, and how positions rank.
#[derive(Debug, Clone)]
pub struct Tiers {
    pub geometry: Geometry,
    cells: usize,
    sizes: Vec<usize>,
    offsets: Vec<usize>,
    total: usize,
    // Fetched once here rather than at each rank.
    tables: &'static RankTables,
}

impl Tiers {
    /// The tiers of the game given as its arguments `rows`, `cols` and `k` are.
    pub fn of(rows: &Scalar, cols: &Scalar, k: &Scalar) -> Result<Tiers> {
        let grid = empty_board_of(rows, cols)?;
        Tiers::new(grid.rows, grid.cols, int(k, "k")?)
    }

    /// What a progress bar of a job on the whole table says.
    pub fn what(&self, job: &str) -> String {
        let g = &self.geometry;
        format!("{job} {}x{} k={}", g.rows, g.cols, g.k)
    }

    /// Ranks `start .. start + count` of `tier` solved, given the next tier's entries: one
    /// piece of a distributed build (the same code as the whole build).
    pub fn build_range(
        &self,
        (tier, start, count): (usize, usize, usize),
        next: &[u8],
        threads: usize,
        monitor: Monitor,
    ) -> Result<Vec<u8>> {
        tiers::check_range(self, tier, start, count, next.len())?;
        let mut out = zeroed::<u8>(count)?;
        let mut done = |done| monitor(done, count);
        tiers::solve_tier_range(self, tier, start, &mut out, next, threads, &mut done)?;
        Ok(out)
    }

    /// Checks that boards of shape `board` (after the rows' axis) are this table's.
    pub fn check_boards(&self, rows: usize, board: &[usize]) -> Result<()> {
        let g = &self.geometry;
        if board != [g.rows, g.cols] {
            let shape = [&[rows][..], board].concat();
            let (rows, cols) = (g.rows, g.cols);
            return malformed!(
                "boards must have shape (N, {rows}, {cols}) for this tablebase, got {shape:?}"
            );
        }
        Ok(())
    }

    /// The tiers of the `rows x cols` game where `k` in a row wins (at most 20 cells).
    pub fn new(rows: usize, cols: usize, k: i128) -> Result<Tiers> {
        let geometry = Geometry::new(rows, cols, k)?;
        let cells = geometry.cells();
        if cells > MAX_CELLS {
            return malformed!(
                "tablebases hold boards of up to {MAX_CELLS} cells; {rows}x{cols} has {cells}"
            );
        }
        let sizes: Vec<usize> = (0..=cells)
            .map(|t| binom(cells, t) * binom(t, x_marks(t)))
            .collect();
        let mut offsets = Vec::with_capacity(sizes.len());
        let mut total = 0;
        for size in &sizes {
            offsets.push(total);
            total += size;
        }
        Ok(Tiers {
            geometry,
            cells,
            sizes,
            offsets,
            total,
            tables: rank_tables(),
        })
    }

    /// The number of ranks of every tier.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Ranks in all (one byte each).
    pub fn total(&self) -> usize {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::probe::read_codes;
    use super::rank::{colex, colex_by_bytes, extract, extract_by_bytes, uncolex};
    use super::*;
    use crate::engine::error::Error;
    use crate::engine::tiers::build;
    use crate::engine::tiers::{UNREACHED, entry};
    use crate::games::mnk::Board;
    use crate::games::mnk::exhaustive::exhaustive_score;
    use std::collections::HashMap;

    #[test]
    fn ranks_and_positions_are_inverse() {
        let tiers = Tiers::new(3, 4, 3).unwrap();
        for index in (0..tiers.total()).step_by(7) {
            let (tier, x, o) = tiers.position(index);
            assert_eq!((x | o).count_ones() as usize, tier);
            assert_eq!(tiers.index(x, o), index);
        }
        assert_eq!(colex(0b1011), binom(3, 3)); // C(0,1) + C(1,2) + C(3,3) = 0 + 0 + 1
        assert_eq!(uncolex(colex(0b1_0010_0100), 3, 12), 0b1_0010_0100);
        let tables = rank_tables();
        for mask in (0..1u64 << 20).step_by(97) {
            assert_eq!(colex_by_bytes(tables, mask), colex(mask), "{mask:b}");
            let onto = mask ^ 0xa5a5a;
            assert_eq!(extract_by_bytes(tables, mask, onto), extract(mask, onto));
        }
    }

    #[test]
    fn rows_of_codes_read_as_a_cell_loop_reads_them() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for cells in 1..=MAX_CELLS {
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly codes 0..=2, now and then one of 3..=255.
                let marks: Vec<u8> = (0..cells)
                    .map(|cell| {
                        let bits = (seed >> (2 * cell % 60)) as u8;
                        if bits & 0x70 == 0x70 {
                            bits | 3
                        } else {
                            bits % 3
                        }
                    })
                    .collect();
                let expected = marks.iter().all(|&mark| mark <= 2).then(|| {
                    let mask = |code| {
                        (0..cells)
                            .filter(|&cell| marks[cell] == code)
                            .map(|cell| 1u64 << cell)
                            .sum()
                    };
                    (mask(1), mask(2))
                });
                assert_eq!(read_codes(&marks), expected, "{marks:?}");
            }
        }
    }

    #[test]
    fn counts_the_reachable_positions() {
        let reachable = |rows, cols, k| {
            let tiers = Tiers::new(rows, cols, k).unwrap();
            let table = build(&tiers, 2, |_, _| false).unwrap();
            table.iter().filter(|&&e| e != UNREACHED).count()
        };
        assert_eq!(reachable(3, 3, 3), 5478);
        assert_eq!(reachable(4, 3, 3), 111_973);
    }

    #[test]
    fn every_entry_equals_the_exhaustive_search() {
        let tiers = Tiers::new(3, 4, 3).unwrap();
        let table = build(&tiers, 2, |_, _| false).unwrap();
        let mut probe = Probe::new(&tiers, &table).unwrap();
        let mut memo = HashMap::new();
        for (index, &stored) in table.iter().enumerate() {
            let (_, x, o) = tiers.position(index);
            let board = Board { x, o };
            let legal = board.status(&tiers.geometry).is_ok();
            assert_eq!(stored != UNREACHED, legal, "index {index}");
            if legal {
                let (mine, theirs) = board.relative();
                let expected = exhaustive_score(&tiers.geometry, mine, theirs, &mut memo);
                assert_eq!(probe.score(board).unwrap(), expected, "index {index}");
            }
        }
    }

    #[test]
    fn threads_do_not_change_the_table_and_stats_are_symmetric() {
        let tiers = Tiers::new(3, 3, 3).unwrap();
        let one = build(&tiers, 1, |_, _| false).unwrap();
        assert_eq!(one, build(&tiers, 2, |_, _| false).unwrap());
        let stats = tiers.stats(&one, 2, |_, _| false).unwrap();
        let reachable: u64 = stats.counts.iter().flatten().sum();
        assert_eq!(reachable, 5478);
        assert_eq!(stats.canonical, 765); // tic-tac-toe up to symmetry
        assert_eq!(stats.longest.0, 9);
    }

    #[test]
    fn damaged_entries_are_errors() {
        let tiers = Tiers::new(3, 3, 3).unwrap();
        let mut table = build(&tiers, 1, |_, _| false).unwrap();
        table[0] = entry(30);
        let mut probe = Probe::new(&tiers, &table).unwrap();
        assert!(matches!(
            probe.solve(Board { x: 0, o: 0 }),
            Err(Error::Malformed(_))
        ));
        assert!(Probe::new(&tiers, &table[1..]).is_err());
        assert!(tiers.check_sample(&table, 64).is_err());
        assert!(Tiers::new(3, 7, 3).is_err());
    }

    #[test]
    fn tables_are_checked_against_the_rules() {
        let tiers = Tiers::new(3, 3, 3).unwrap();
        let mut table = build(&tiers, 2, |_, _| false).unwrap();
        assert_eq!(tiers.check_sample(&table, 256), Ok(()));
        assert_eq!(tiers.check_all(&table, 2, |_, _| false), Ok(()));
        // A table of another game of the same size is caught by the sample.
        let other = build(&Tiers::new(3, 3, 2).unwrap(), 2, |_, _| false).unwrap();
        assert!(tiers.check_sample(&other, 256).is_err());
        // One changed entry, deep in, by the whole check.
        let index = tiers.total() / 2 + 17;
        table[index] = if table[index] == entry(0) {
            entry(2)
        } else {
            entry(0)
        };
        assert!(tiers.check_all(&table, 2, |_, _| false).is_err());
    }
}
