//! The bookkeeping every negamax here shares: principal-variation search of a node's children
//! against its window, and what the node learnt for the transposition table.

use crate::engine::budget::Stop;
use crate::engine::score::Score;
use crate::engine::table::{self, Bound};

/// The cells of a bitboard, lowest first.
#[inline]
pub fn cells_of(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as u8;
            set &= set - 1;
            cell
        })
    })
}

/// A node's window and the best of its children so far.
pub struct Window {
    alpha: Score,
    beta: Score,
    /// Alpha when the children's search began: what the stored bound is judged against.
    first_alpha: Score,
    pub best: Score,
    pub best_move: u8,
}

impl Window {
    /// `best_move` stays `no_move` until a child is searched.
    pub fn new(alpha: Score, beta: Score, no_move: u8) -> Window {
        Window {
            alpha,
            beta,
            first_alpha: alpha,
            best: Score::MIN,
            best_move: no_move,
        }
    }

    /// Searches child number `index` (reached by `mv`) with `search(alpha, beta)`, which
    /// returns the child's score from the child's side: the first child with the whole window,
    /// the others with a null window first and again in full only if they beat alpha. `true`
    /// when the node is cut off.
    pub fn search_child(
        &mut self,
        index: usize,
        mv: u8,
        mut search: impl FnMut(Score, Score) -> Result<Score, Stop>,
    ) -> Result<bool, Stop> {
        let (alpha, beta) = (self.alpha, self.beta);
        let score = if index == 0 {
            -search(-beta, -alpha)?
        } else {
            let probe = -search(-alpha - 1, -alpha)?;
            if probe > alpha && probe < beta {
                -search(-beta, -probe)?
            } else {
                probe
            }
        };
        if score > self.best {
            self.best = score;
            self.best_move = mv;
            if score > self.alpha {
                self.alpha = score;
            }
        }
        Ok(self.alpha >= self.beta)
    }

    /// What the best score says about the true one, given the window it was searched with.
    pub fn bound(&self) -> Bound {
        table::bound_of(self.best, self.first_alpha, self.beta)
    }
}
