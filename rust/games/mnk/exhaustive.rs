//! The plain exhaustive m,n,k search: negamax over every move, memoised, no pruning. It is the
//! reference the fast search is tested against, and it fills the solved (3,3,3) table.

use crate::engine::score::{self, DRAW, Score};
#[cfg(feature = "testing")]
use crate::games::mnk::Board;
use crate::games::mnk::Geometry;
use std::collections::HashMap;

/// Remembers exact scores of positions (mine, theirs) for [`exhaustive_score`].
pub trait Memo {
    fn recall(&self, mine: u64, theirs: u64) -> Option<Score>;
    /// `best_moves`: the mask of moves that reach `score` (empty once the game is over).
    fn remember(&mut self, mine: u64, theirs: u64, score: Score, best_moves: u64);
}

impl Memo for HashMap<(u64, u64), Score> {
    fn recall(&self, mine: u64, theirs: u64) -> Option<Score> {
        HashMap::get(self, &(mine, theirs)).copied()
    }
    fn remember(&mut self, mine: u64, theirs: u64, score: Score, _best_moves: u64) {
        self.insert((mine, theirs), score);
    }
}

/// The exact score of a legal position with `mine` to move: plain negamax over every move, no
/// pruning, memoised. It is the reference the fast search is tested against.
pub fn exhaustive_score(
    geometry: &Geometry,
    mine: u64,
    theirs: u64,
    memo: &mut impl Memo,
) -> Score {
    if let Some(known) = memo.recall(mine, theirs) {
        return known;
    }
    let empty = geometry.full & !(mine | theirs);
    let (mut best, mut best_moves) = (Score::MIN, 0u64);
    if geometry.has_line(theirs) {
        best = score::loss(empty.count_ones());
    } else if empty == 0 {
        best = DRAW;
    } else {
        let mut moves = empty;
        while moves != 0 {
            let cell = 1u64 << moves.trailing_zeros();
            moves &= moves - 1;
            let score = -exhaustive_score(geometry, theirs, mine | cell, memo);
            if score > best {
                (best, best_moves) = (score, cell);
            } else if score == best {
                best_moves |= cell;
            }
        }
    }
    memo.remember(mine, theirs, best, best_moves);
    best
}

/// (value, plies, best moves as (row, col), ascending) from a plain reference search.
#[cfg(any(test, feature = "testing"))]
pub type PlainAnswer = (i8, u32, Vec<(usize, usize)>);

/// The exhaustive search's answer for a legal board: (value, plies, best moves ascending).
#[cfg(feature = "testing")]
pub fn exhaustive_solve(geometry: &Geometry, board: Board) -> (i8, u32, Vec<u8>) {
    let (mine, theirs) = board.relative();
    let mut memo = HashMap::new();
    let score = exhaustive_score(geometry, mine, theirs, &mut memo);
    let empty = geometry.full & !(mine | theirs);
    let over = geometry.has_line(theirs);
    let best = (0..geometry.cells() as u8)
        .filter(|&cell| !over && empty >> cell & 1 == 1)
        .filter(|&cell| -exhaustive_score(geometry, theirs, mine | 1 << cell, &mut memo) == score)
        .collect();
    (
        score::value(score),
        score::plies(score, empty.count_ones()),
        best,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_is_a_draw_in_nine() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let score = exhaustive_score(&g, 0, 0, &mut HashMap::new());
        assert_eq!(score, DRAW);
    }
}
