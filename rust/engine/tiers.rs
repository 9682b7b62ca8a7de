//! The generic tier solver (GamesmanOne's idea): a game whose positions fall into tiers, each
//! depending only on the next one (m,n,k: the positions with n marks depend only on those with
//! n + 1), is strongly solved tier by tier from the last, each tier's ranks split across worker
//! threads. A game supplies the tier sizes and how to solve a range of ranks from the next
//! tier's entries; this file knows nothing of any game.
//!
//! One byte per ranked position: [`UNREACHED`] for a rank no game reaches, otherwise the score
//! (`score.rs`) offset by [`ZERO`]. Scores of boards of up to 63 cells fit.

use crate::engine::budget::Stop;
use crate::engine::error::{Error, Result, malformed};
use crate::engine::score::Score;
use crate::engine::table::OutOfMemory;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The entry of a rank no game reaches.
pub const UNREACHED: u8 = 0;
const _: () = assert!(UNREACHED == 0, "a new table is a zeroed allocation");
/// The entry of score 0: entries are `score + ZERO`.
pub const ZERO: Score = 64;
/// Ranks a worker takes at a time; the stop flag is looked at between them.
const CHUNK: usize = 1 << 15;
/// How often the calling thread reports progress and looks for Ctrl-C.
const MONITOR_EVERY: Duration = Duration::from_millis(50);
/// How often it looks whether the workers are done (small jobs end long before a report).
const LOOK_EVERY: Duration = Duration::from_millis(1);

/// Waits on the calling thread until `finished()` or `stop` is set, calling `monitor()`
/// about every 50 ms; `monitor()` returning `true` sets `stop`.
pub fn watch(finished: impl Fn() -> bool, stop: &AtomicBool, mut monitor: impl FnMut() -> bool) {
    let mut last = std::time::Instant::now();
    while !finished() && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(LOOK_EVERY);
        if last.elapsed() >= MONITOR_EVERY {
            last = std::time::Instant::now();
            if monitor() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Runs `work` on every piece, in order, on up to `threads` workers, each with its own state
/// from `start`. `work` returns how many of `total` units of progress the piece was, and may
/// note in its last argument why the data it read is damaged. `monitor(done, total)` as in
/// [`build`]. Returns every worker's state, or why the work stopped (Ctrl-C, damaged data).
pub fn in_pieces<P: Send, W: Send>(
    pieces: Vec<P>,
    total: usize,
    threads: usize,
    start: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, P, &mut Option<String>) -> usize + Sync,
    mut monitor: impl FnMut(usize, usize) -> bool,
) -> Result<Vec<W>> {
    let workers = threads.clamp(1, pieces.len().max(1));
    let queue = Mutex::new(pieces.into_iter());
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let damaged = Mutex::new(None::<String>);
    let states = Mutex::new(Vec::with_capacity(workers));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut state = start();
                while !stop.load(Ordering::Relaxed) {
                    let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                    let Some(piece) = next else {
                        break;
                    };
                    let mut why = None;
                    let units = work(&mut state, piece, &mut why);
                    if let Some(why) = why {
                        damaged
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .get_or_insert(why);
                    }
                    done.fetch_add(units, Ordering::Relaxed);
                }
                states
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(state);
            });
        }
        watch(
            || done.load(Ordering::Relaxed) >= total,
            &stop,
            || monitor(done.load(Ordering::Relaxed), total),
        );
    });
    if stop.load(Ordering::Relaxed) {
        return Err(Error::Stopped(Stop::Interrupted));
    }
    if let Some(why) = damaged.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return malformed!("the tablebase data is damaged: {why}");
    }
    Ok(states.into_inner().unwrap_or_else(PoisonError::into_inner))
}

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

/// Solves ranks `start..start + out.len()` of `tier` on `threads` workers. `monitor(done)`
/// (ranks finished so far) runs on the calling thread about every 50 ms; returning `true`
/// stops the work with `Stop::Interrupted`.
pub fn solve_tier_range(
    game: &impl TierGame,
    tier: usize,
    start: usize,
    out: &mut [u8],
    next: &[u8],
    threads: usize,
    monitor: &mut impl FnMut(usize) -> bool,
) -> std::result::Result<(), Stop> {
    let chunks: Vec<(usize, &mut [u8])> = out
        .chunks_mut(CHUNK)
        .enumerate()
        .map(|(index, chunk)| (start + index * CHUNK, chunk))
        .collect();
    let count = chunks.len();
    let queue = Mutex::new(chunks.into_iter());
    let done = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = threads.clamp(1, count.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let next_chunk = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                    let Some((first, chunk)) = next_chunk else {
                        break;
                    };
                    game.solve_range(tier, first, chunk, next);
                    done.fetch_add(chunk.len(), Ordering::Relaxed);
                    finished.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        watch(
            || finished.load(Ordering::Relaxed) >= count,
            &stop,
            || monitor(done.load(Ordering::Relaxed)),
        );
    });
    if finished.load(Ordering::Relaxed) < count {
        return Err(Stop::Interrupted);
    }
    Ok(())
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
    // Memory the system cannot give is an error, not an abort: ask for it fallibly first.
    Vec::<u8>::new()
        .try_reserve_exact(total)
        .map_err(|_| Error::OutOfMemory(OutOfMemory { bytes: total }))?;
    // A zeroed allocation (UNREACHED is 0) gets pages the kernel zeroes when first written,
    // inside the tier loop, where Ctrl-C is watched; filling 741 MB up front took 3 s here.
    let mut table = vec![UNREACHED; total];
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
