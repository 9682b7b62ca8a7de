//! Random play for datasets: legal positions reached by uniformly random moves from a start,
//! reproducible from a seed. Row `i` of a batch has its own stream, `SplitMix64(seed, i)`, so
//! the rows do not depend on how many there are, on the thread count, or on each other, and
//! the pure-Python twin (the same generator, written out) draws the very same positions.

use crate::engine::driver::Rules;
use crate::engine::error::Result;
use crate::engine::memory::zeroed;
use crate::engine::pool;

/// SplitMix64's finaliser: every bit of `x` moves every bit of the result. The transposition
/// tables pick slots with it, and the 14-ply book's file is laid out by it (its perfect hash),
/// so it must not change.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// SplitMix64 (Steele, Lea and Flood), the generator of the rows.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream of row `row` of a batch drawn with `seed`.
    pub fn for_row(seed: u64, row: u64) -> SplitMix64 {
        let mut first = SplitMix64(seed ^ row.wrapping_mul(0xd1b5_4a32_d192_ed03));
        SplitMix64(first.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A number in `0..n` (n > 0; the remainder's bias is below 2^-40 for n < 2^24).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Plays up to `plies` uniformly random legal moves from `start` (fewer when the game ends
/// first): the move is the `below(count)`-th of the legal moves in ascending order. With
/// `ongoing`, the walk stops before a move that would end the game (the move is drawn, not
/// played): the position it gives still has a move to make.
pub fn play<R: Rules>(
    rules: &R,
    start: &R::Position,
    plies: u32,
    random: &mut SplitMix64,
    ongoing: bool,
) -> R::Position {
    let mut position = *start;
    for _ in 0..plies {
        let moves = rules.moves(&position);
        if moves == 0 {
            break;
        }
        let mut pick = random.below(u64::from(moves.count_ones()));
        let mut rest = moves;
        while pick > 0 {
            rest &= rest - 1;
            pick -= 1;
        }
        let next = rules.play(&position, rest.trailing_zeros() as u8);
        if ongoing && rules.moves(&next) == 0 {
            break;
        }
        position = next;
    }
    position
}

/// The number of plies of row `row`: uniform in `low..=high`, drawn first from its stream.
pub fn plies_of(random: &mut SplitMix64, low: u32, high: u32) -> u32 {
    low + random.below(u64::from(high - low) + 1) as u32
}

/// Fills `out`, `width` items a row, by `row(index, its items)` on up to `threads` workers of
/// the pool (`monitor` as in `pool::run`).
pub fn fill_rows<T: Send>(
    out: &mut [T],
    width: usize,
    threads: usize,
    row: impl Fn(usize, &mut [T]) + Sync,
    monitor: impl FnMut(usize, usize) -> bool,
) -> Result<()> {
    const ROWS_A_PIECE: usize = 4096;
    let width = width.max(1);
    let rows = out.len() / width;
    let fill = |offset: usize, piece: &mut [T]| {
        for (index, items) in piece.chunks_mut(width).enumerate() {
            row(offset / width + index, items);
        }
        piece.len() / width
    };
    pool::fill(out, ROWS_A_PIECE * width, rows, threads, fill, monitor)
}

/// What `random_positions` draws: how many rows, the seed and the range of plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    pub count: usize,
    pub seed: u64,
    pub low: u32,
    pub high: u32,
}

/// `random_positions`' rows: `args.count` rows of `width` codes on `threads` workers; `write`
/// gets each row's own generator, the plies drawn for it and the row to fill. Returns the
/// number of rows and the codes.
pub fn random_rows(
    args: Draws,
    threads: usize,
    width: usize,
    write: impl Fn(&mut SplitMix64, u32, &mut [u8]) + Sync,
    monitor: pool::Monitor,
) -> Result<(usize, Vec<u8>)> {
    let mut rows = zeroed(args.count.saturating_mul(width))?;
    let row = |index: usize, items: &mut [u8]| {
        let mut random = SplitMix64::for_row(args.seed, index as u64);
        let plies = plies_of(&mut random, args.low, args.high);
        write(&mut random, plies, items);
    };
    fill_rows(&mut rows, width, threads, row, monitor)?;
    Ok((args.count, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_splitmix64() {
        // The first output of SplitMix64 seeded with 0 (the reference implementation's).
        let mut random = SplitMix64(0);
        assert_eq!(random.next_u64(), 0xe220_a839_7b1d_cdaf);
        let (mut a, mut b) = (SplitMix64::for_row(7, 3), SplitMix64::for_row(7, 3));
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(
            SplitMix64::for_row(7, 3).next_u64(),
            SplitMix64::for_row(7, 4).next_u64()
        );
    }
}
