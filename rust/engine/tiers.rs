//! The generic tier solver (GamesmanOne's idea): a game whose positions fall into tiers, each
//! depending only on the next one (m,n,k: the positions with n marks depend only on those with
//! n + 1), is strongly solved tier by tier from the last, each tier's ranks split across worker
//! threads. A game supplies the tier sizes and how to solve a range of ranks from the next
//! tier's entries; this file knows nothing of any game.
//!
//! One byte per ranked position: [`UNREACHED`] for a rank no game reaches, otherwise the score
//! (`score.rs`) offset by [`ZERO`]. Scores of boards of up to 63 cells fit.

use crate::engine::error::{Result, malformed};
use crate::engine::memory::zeroed;
use crate::engine::pool;
use crate::engine::score::Score;

/// The entry of a rank no game reaches.
pub const UNREACHED: u8 = 0;
const _: () = assert!(UNREACHED == 0, "a new table is a zeroed allocation");
/// The entry of score 0: entries are `score + ZERO`.
pub const ZERO: Score = 64;
/// Ranks a worker takes at a time; the stop flag is looked at between them.
const CHUNK: usize = 1 << 15;

/// The entry of a score.
#[inline]
pub fn entry(score: Score) -> u8 {
    debug_assert!(score.abs() < ZERO);
    (score + ZERO) as u8
}

/// The score of an entry, `None` for [`UNREACHED`].
#[inline]
pub fn score_of(entry: u8) -> Option<Score> {
    (entry != UNREACHED).then(|| Score::from(entry) - ZERO)
}

/// A game solved tier by tier: tier `t` depends only on tier `t + 1`.
pub trait TierGame: Sync {
    /// How many tiers there are (tiers `0..tiers()`).
    fn tiers(&self) -> usize;
    /// How many ranks tier `tier` has.
    fn tier_size(&self, tier: usize) -> usize;
    /// The entries of ranks `start..start + out.len()` of `tier`, given every entry of the next
    /// tier (empty for the last tier).
    fn solve_range(&self, tier: usize, start: usize, out: &mut [u8], next: &[u8]);
}

/// Where each tier starts in the table (tiers laid end to end, tier 0 first), and the total.
pub fn offsets(game: &impl TierGame) -> (Vec<usize>, usize) {
    let mut offsets = Vec::with_capacity(game.tiers());
    let mut total = 0usize;
    for tier in 0..game.tiers() {
        offsets.push(total);
        total += game.tier_size(tier);
    }
    (offsets, total)
}

/// Checks a piece of a distributed build: ranks `start..start + count` of `tier`, given the
/// next tier's `next` entries.
pub fn check_range(
    game: &impl TierGame,
    tier: usize,
    start: usize,
    count: usize,
    next: usize,
) -> Result<()> {
    if tier >= game.tiers() {
        return malformed!("tier must be below {}, got {tier}", game.tiers());
    }
    let size = game.tier_size(tier);
    if start.checked_add(count).is_none_or(|end| end > size) {
        return malformed!("ranks {start}..{start}+{count} are past tier {tier}'s {size} ranks");
    }
    let wanted = if tier + 1 < game.tiers() {
        game.tier_size(tier + 1)
    } else {
        0
    };
    if next != wanted {
        return malformed!("the next tier has {next} entries, expected {wanted}");
    }
    Ok(())
}

/// Solves ranks `start..start + out.len()` of `tier` on `threads` workers of the pool.
/// `monitor(done)` (ranks finished so far) runs on the calling thread about every 50 ms;
/// returning `true` stops the work with `Stop::Interrupted`.
pub fn solve_tier_range(
    game: &impl TierGame,
    tier: usize,
    start: usize,
    out: &mut [u8],
    next: &[u8],
    threads: usize,
    monitor: &mut impl FnMut(usize) -> bool,
) -> Result<()> {
    let total = out.len();
    let fill = |offset: usize, chunk: &mut [u8]| {
        game.solve_range(tier, start + offset, chunk, next);
        chunk.len()
    };
    pool::fill(out, CHUNK, total, threads, fill, |done, _| monitor(done))
}

/// Strongly solves the whole game: every tier, the last first, on `threads` workers. The
/// table holds the tiers end to end (see [`offsets`]). `monitor(done, total)` (ranks solved,
/// and in all) runs on the calling thread about every 50 ms; returning `true` stops the build
/// with `Stop::Interrupted`.
pub fn build(
    game: &impl TierGame,
    threads: usize,
    mut monitor: impl FnMut(usize, usize) -> bool,
) -> Result<Vec<u8>> {
    let (offsets, total) = offsets(game);
    // A zeroed allocation (UNREACHED is 0) gets pages the kernel zeroes when first written,
    // inside the tier loop, where Ctrl-C is watched; filling 741 MB up front took 3 s here.
    let mut table = zeroed::<u8>(total)?;
    let mut solved = 0usize;
    for tier in (0..game.tiers()).rev() {
        let end = offsets[tier] + game.tier_size(tier);
        let (head, tail) = table.split_at_mut(end);
        let out = &mut head[offsets[tier]..];
        let next = if tier + 1 < game.tiers() {
            &tail[..game.tier_size(tier + 1)]
        } else {
            &tail[..0]
        };
        let before = solved;
        solve_tier_range(game, tier, 0, out, next, threads, &mut |done| {
            monitor(before + done, total)
        })?;
        solved += game.tier_size(tier);
    }
    monitor(total, total);
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::Stop;
    use crate::engine::error::Error;
    use std::time::Duration;

    /// Tier t of a toy game has t + 1 ranks; each entry counts the entries below it.
    struct Toy;

    impl TierGame for Toy {
        fn tiers(&self) -> usize {
            4
        }
        fn tier_size(&self, tier: usize) -> usize {
            tier + 1
        }
        fn solve_range(&self, tier: usize, start: usize, out: &mut [u8], next: &[u8]) {
            for (offset, slot) in out.iter_mut().enumerate() {
                let below = next.iter().filter(|&&e| e != UNREACHED).count();
                *slot = entry((start + offset + below) as Score % 20 - 10 + tier as Score);
            }
        }
    }

    #[test]
    fn tiers_are_solved_last_first_and_laid_end_to_end() {
        let one = build(&Toy, 1, |_, _| false).unwrap();
        let two = build(&Toy, 2, |_, _| false).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.len(), 1 + 2 + 3 + 4);
        assert_eq!(offsets(&Toy).0, vec![0, 1, 3, 6]);
        assert_eq!(score_of(one[0]), Some(2 - 10)); // tier 0 sees the 2 entries of tier 1
        assert_eq!(score_of(UNREACHED), None);
    }

    /// One tier of 64 chunks, each taking 10 ms: longer than a monitor tick.
    struct Slow;

    impl TierGame for Slow {
        fn tiers(&self) -> usize {
            1
        }
        fn tier_size(&self, _: usize) -> usize {
            64 * CHUNK
        }
        fn solve_range(&self, _: usize, _: usize, out: &mut [u8], _: &[u8]) {
            std::thread::sleep(Duration::from_millis(10));
            out.fill(entry(0));
        }
    }

    #[test]
    fn the_monitor_stops_the_build() {
        assert_eq!(
            build(&Slow, 2, |_, _| true),
            Err(Error::Stopped(Stop::Interrupted))
        );
        assert!(build(&Slow, 2, |_, _| false).is_ok());
    }
}
