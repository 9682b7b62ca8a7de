//! Plain exhaustive backtracking for disappearing footholds, written the way judge solutions
//! write it: a grid of booleans, every move tried, no memo, no pruning, and (win, moves) pairs
//! instead of `score.rs`. It shares nothing with the fast search but the parsed board, so the
//! tests can hold one against the other, and it is the benchmarks' peer.

use crate::engine::budget::{Budget, Stop};
use crate::games::footholds::Board;
use crate::games::mnk::exhaustive::PlainAnswer;

struct Grid<'a, 'b> {
    rows: usize,
    cols: usize,
    /// `standing[row * cols + col]`: the foothold is still there.
    standing: Vec<bool>,
    budget: &'a mut Budget<'b>,
}

const STEPS: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

impl Grid<'_, '_> {
    /// The standing neighbour of `(row, col)` in direction `step`, if any.
    #[inline]
    fn step(&self, (row, col): (usize, usize), (dr, dc): (isize, isize)) -> Option<(usize, usize)> {
        let (r, c) = (row.checked_add_signed(dr)?, col.checked_add_signed(dc)?);
        (r < self.rows && c < self.cols && self.standing[r * self.cols + c]).then_some((r, c))
    }

    /// (the player to move wins, moves played from here) under perfect play.
    fn play(&mut self, me: (usize, usize), you: (usize, usize)) -> Result<(bool, u32), Stop> {
        self.budget.visit()?;
        let here = me.0 * self.cols + me.1;
        if !self.standing[here] {
            return Ok((false, 0));
        }
        let (mut can_win, mut fastest_win, mut slowest_loss) = (false, u32::MAX, 0);
        for step in STEPS {
            let Some(to) = self.step(me, step) else {
                continue;
            };
            self.standing[here] = false;
            let (they_win, moves) = self.play(you, to)?;
            self.standing[here] = true;
            if they_win {
                slowest_loss = slowest_loss.max(moves + 1);
            } else {
                can_win = true;
                fastest_win = fastest_win.min(moves + 1);
            }
        }
        Ok(if can_win {
            (true, fastest_win)
        } else {
            (false, slowest_loss)
        })
    }
}

/// Solves from A at `a` and B at `b` (cells of `board`), A to move: A's value (+1 or -1), the
/// total moves, and every best first move of A as (row, col), ascending.
pub fn backtrack(board: &Board, a: u8, b: u8, budget: &mut Budget) -> Result<PlainAnswer, Stop> {
    let standing = (0..board.cells())
        .map(|cell| board.footholds >> cell & 1 == 1)
        .collect();
    let mut grid = Grid {
        rows: board.rows,
        cols: board.cols,
        standing,
        budget,
    };
    let (a_cell, a, b) = (a as usize, board.row_col(a), board.row_col(b));
    let mut results = Vec::new();
    for step in STEPS {
        let Some(to) = grid.step(a, step) else {
            continue;
        };
        grid.standing[a_cell] = false;
        let (b_wins, moves) = grid.play(b, to)?;
        grid.standing[a_cell] = true;
        results.push((to, !b_wins, moves + 1));
    }
    let a_wins = results.iter().any(|&(_, wins, _)| wins);
    let moves = results
        .iter()
        .filter(|&&(_, wins, _)| wins == a_wins)
        .map(|&(_, _, moves)| moves);
    let moves = if a_wins { moves.min() } else { moves.max() }.unwrap_or(0);
    let mut best_moves: Vec<(usize, usize)> = results
        .iter()
        .filter(|&&(_, wins, total)| wins == a_wins && total == moves)
        .map(|&(to, _, _)| to)
        .collect();
    best_moves.sort_unstable();
    Ok((if a_wins { 1 } else { -1 }, moves, best_moves))
}
