//! An opening book: Pons' score of every position with at most `depth` stones, built and checked
//! by `perfectplay.openings` (Python), read here as two sorted columns. A position and its
//! mirror image share one entry, under the smaller of their keys.

use crate::games::connect4::{Position, Shape};

/// A book's columns, borrowed: keys in increasing order and their scores.
#[derive(Clone, Copy)]
pub struct Book<'a> {
    pub keys: &'a [u64],
    pub scores: &'a [i8],
    pub depth: u32,
}

impl Book<'_> {
    /// The book's score of `p`, if it holds it.
    #[inline]
    pub fn score(&self, shape: &Shape, p: &Position) -> Option<i32> {
        if p.moves > self.depth {
            return None;
        }
        let key = p.key(shape);
        let key = key.min(mirrored(shape, key));
        let at = self.keys.binary_search(&key).ok()?;
        self.scores.get(at).map(|&score| i32::from(score))
    }
}

/// A key with its columns in reverse order (a key is column by column: see `mod.rs`).
pub fn mirrored(shape: &Shape, key: u64) -> u64 {
    let column = (1u64 << shape.stride) - 1;
    (0..shape.width).fold(0, |out, col| {
        let bits = (key >> (col * shape.stride)) & column;
        out | bits << ((shape.width - 1 - col) * shape.stride)
    })
}
