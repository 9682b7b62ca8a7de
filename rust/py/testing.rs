//! `perfectplay._core._testing`: the plain reference searches and a table build, for the
//! tests and benchmarks only (not part of the public API or its stub).

use crate::engine::error::Error;
use crate::games::footholds::plain;
use crate::games::mnk::{self, Query, exhaustive, solved};
use crate::py::convert::{err, search_detached, to_item};
use crate::py::footholds::{Call, NODE_LIMIT};
use crate::py::options::int_arg;
use pyo3::prelude::*;

register_functions! {
    backtrack_footholds, exhaustive_mnk, build_tictactoe_table, plain_connect4
}

/// (value, plies, best moves as (row, col)) from a plain reference search.
type PlainAnswer = (i8, u32, Vec<(usize, usize)>);

binding! {
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
}

/// The plain exhaustive m,n,k search (no pruning), as ``(value, plies, best_moves)``.
#[pyfunction]
fn exhaustive_mnk(board: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<PlainAnswer> {
    let grid = mnk::parse_board(&to_item(board)?).map_err(err)?;
    let query = Query::new(&grid, int_arg(k, "k")?).map_err(err)?;
    let (value, plies, best) = exhaustive::exhaustive_solve(&query.engine.geometry, query.board);
    let cols = query.cols();
    let best = best
        .into_iter()
        .map(|cell| (cell as usize / cols, cell as usize % cols))
        .collect();
    Ok((value, plies, best))
}

/// Builds a fresh tic-tac-toe table (as the first query does) and returns its number of legal
/// positions: the benchmark of the table build.
#[pyfunction]
fn build_tictactoe_table() -> usize {
    let table = solved::build_table();
    (0..solved::CODES)
        .filter(|&code| table.is_reachable(code))
        .count()
}

/// The plain Connect Four search (every move, memoised, no pruning): ``score.rs``'s score of a
/// position for the side to move, and its value and plies.
#[pyfunction]
#[pyo3(signature = (position, *, width=None, height=None))]
fn plain_connect4(
    position: &Bound<'_, PyAny>,
    width: Option<i64>,
    height: Option<i64>,
) -> PyResult<(i32, i8, u32)> {
    use crate::games::connect4::{self as connect4, plain};
    let size = (width.map(i128::from), height.map(i128::from));
    let (shape, position) = connect4::parse_position(&to_item(position)?, size).map_err(err)?;
    let score = plain::plain_score(&shape, &position);
    let plies = crate::engine::score::plies(score, shape.cells - position.moves);
    Ok((score, crate::engine::score::value(score), plies))
}
