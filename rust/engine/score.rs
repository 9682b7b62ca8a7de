//! The one scoring rule every game here is searched with.
//!
//! Rule: a player who can force a win wins in the fewest moves, a player who must lose survives
//! the most moves, a draw is a draw. Every move of every game here uses up exactly one cell (an
//! m,n,k move fills an empty cell, a footholds move removes the foothold it leaves), so the rule
//! can be scored by the cells still left when the game ends:
//!
//! ```text
//! score = +(1 + cells_left_at_end)   the side to move wins
//! score = -(1 + cells_left_at_end)   the side to move loses
//! score = 0                          draw
//! ```
//!
//! A faster win leaves more cells and scores higher; a slower loss leaves fewer and scores higher
//! (nearer zero). The score of a finished game is the same number for both players up to sign, so
//! negamax is plain negation (`score(parent) = max(-score(child))`) and a score depends only on
//! the position, never on the path to it: it is safe to keep in a transposition table.

/// A position's score under the rule above, from the side to move's point of view.
pub type Score = i32;

pub const DRAW: Score = 0;

/// The side to move wins, and `cells_left` cells remain when the game ends.
#[inline]
pub const fn win(cells_left: u32) -> Score {
    1 + cells_left as Score
}

/// The side to move loses, and `cells_left` cells remain when the game ends.
#[inline]
pub const fn loss(cells_left: u32) -> Score {
    -win(cells_left)
}

/// +1 the side to move wins, 0 draw, -1 it loses.
#[inline]
pub const fn value(score: Score) -> i8 {
    score.signum() as i8
}

/// Moves still played from a position with `cells_now` cells left. A drawn m,n,k game fills the
/// board, so a draw plays every remaining cell.
#[inline]
pub const fn plies(score: Score, cells_now: u32) -> u32 {
    if score == DRAW {
        cells_now
    } else {
        cells_now - (score.unsigned_abs() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_and_slower_losses_score_higher() {
        assert!(win(5) > win(3));
        assert!(loss(3) > loss(5));
        assert!(loss(0) < DRAW && DRAW < win(0));
        assert_eq!(plies(win(6), 9), 3);
        assert_eq!(plies(loss(0), 9), 9);
        assert_eq!(plies(DRAW, 4), 4);
        assert_eq!(value(loss(2)), -1);
    }
}
