//! The plain reference search the tests hold the solver to: negamax over every legal move by
//! the rules alone (`Shape` as `Rules`), memoised, no pruning, no bounds, `score.rs`'s scores.

use crate::engine::driver::Rules;
use crate::engine::error::Result;
use crate::engine::score::{self, Score};
use crate::engine::window::cells_of;
use crate::games::connect4::{Position, Shape, parse_position};
use crate::input::Item;
use std::collections::HashMap;

/// A position argument's (score, value, plies) by the plain search, on a board of `size`
/// (width, height; 7x6 where not given).
pub fn plain_of(position: &Item, size: (Option<i128>, Option<i128>)) -> Result<(Score, i8, u32)> {
    let (shape, position) = parse_position(position, size)?;
    let score = plain_score(&shape, &position);
    let plies = score::plies(score, shape.cells - position.moves);
    Ok((score, score::value(score), plies))
}

/// The exact score of any position (over or not), from the side to move.
pub fn plain_score(shape: &Shape, position: &Position) -> Score {
    score_of(shape, position, &mut HashMap::new())
}

fn score_of(shape: &Shape, position: &Position, memo: &mut HashMap<u64, Score>) -> Score {
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
