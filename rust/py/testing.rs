//! `perfectplay._core._testing`: the plain reference searches and a table build, for the
//! tests and benchmarks only (not part of the public API or its stub).

use crate::engine::error::Error;
use crate::engine::score;
use crate::games::connect4;
use crate::games::footholds::call::NODE_LIMIT;
use crate::games::footholds::plain;
use crate::games::mnk::{self, Query, exhaustive, solved};
use crate::py::convert::{err, search_detached, to_item};
use crate::py::footholds::Call;
use crate::py::options::int_arg;
use pyo3::prelude::*;

/// (value, plies, best moves as (row, col)) from a plain reference search.
type PlainAnswer = (i8, u32, Vec<(usize, usize)>);

bindings! {
    /// Plain judge-style backtracking (no memo, no pruning): ``(value, plies, best_moves)`` from
    /// A's side.
    fn backtrack_footholds(py, board, aloc, bloc; options = NODE_LIMIT) -> PlainAnswer {
        let call = Call::new(board, aloc, bloc, &options)?;
        let result = search_detached(py, call.node_limit, |budget| {
            plain::backtrack(&call.board, call.a, call.b, budget).map_err(Error::from)
        })?;
        let value = if result.a_wins { 1 } else { -1 };
        Ok((value, result.moves, result.best_moves))
    }

    /// The plain exhaustive m,n,k search (no pruning), as ``(value, plies, best_moves)``.
    fn exhaustive_mnk(_py, board, k) -> PlainAnswer {
        let grid = mnk::parse_board(&to_item(board)?).map_err(err)?;
        let query = Query::new(&grid, int_arg(k, "k")?).map_err(err)?;
        let geometry = &query.engine.geometry;
        let (value, plies, best) = exhaustive::exhaustive_solve(geometry, query.board);
        let cols = query.cols();
        let best = best.into_iter().map(|cell| (cell as usize / cols, cell as usize % cols));
        Ok((value, plies, best.collect()))
    }

    /// Builds a fresh tic-tac-toe table (as the first query does) and returns its number of
    /// legal positions: the benchmark of the table build.
    fn build_tictactoe_table(_py) -> usize {
        let table = solved::build_table();
        Ok((0..solved::CODES).filter(|&code| table.is_reachable(code)).count())
    }

    /// The plain Connect Four search (every move, memoised, no pruning): ``score.rs``'s score of
    /// a position for the side to move, and its value and plies.
    fn plain_connect4(_py, position; options = &["width", "height"]) -> (i32, i8, u32) {
        let size = (options.width, options.height);
        let (shape, position) = connect4::parse_position(&to_item(position)?, size).map_err(err)?;
        let score = connect4::plain::plain_score(&shape, &position);
        let plies = score::plies(score, shape.cells - position.moves);
        Ok((score, score::value(score), plies))
    }
}
