//! The plain reference search the tests hold the solver to: negamax over every legal move by
//! the rules alone (`Shape` as `Rules`), memoised, no pruning, no bounds, `score.rs`'s scores.

use crate::engine::driver::Rules;
use crate::engine::score::{self, Score};
use crate::engine::window::cells_of;
use crate::games::connect4::{Bits, Position, Shape};
use std::collections::HashMap;

/// The exact score of any position (over or not), from the side to move.
pub fn plain_score<B: Bits>(shape: &Shape<B>, position: &Position<B>) -> Score {
    score_of(shape, position, &mut HashMap::new())
}

fn score_of<B: Bits>(
    shape: &Shape<B>,
    position: &Position<B>,
    memo: &mut HashMap<B, Score>,
) -> Score {
    let key = position.key(shape);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let moves = shape.moves(position);
    let result = if position.is_won(shape) {
        score::loss(shape.cells_left(position))
    } else if moves == 0 {
        score::DRAW
    } else {
        cells_of(moves)
            .map(|col| -score_of(shape, &shape.play(position, col), memo))
            .max()
            .expect("a move")
    };
    memo.insert(key, result);
    result
}
