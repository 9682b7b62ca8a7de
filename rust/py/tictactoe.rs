//! `perfectplay._core.tictactoe`: cells 0..8 are moves; answers come from the solved table.

use crate::engine::pool::Monitor;
use crate::games::mnk::solved::{self, table};
use crate::games::tictactoe::batch;
use crate::games::tictactoe::{self as game, Outcome};
use crate::py::batch::{RowsArg, into_py, rows_arg};
use crate::py::convert::{Names, to_item};
use crate::py::detach::released;
use numpy::PyArray1;
use pyo3::prelude::*;

/// The table code of a board argument.
fn code(board: &Bound<'_, PyAny>) -> PyResult<usize> {
    game::code_of(&to_item(board)?).map_err(PyErr::from)
}

bindings! {
    twin = "tictactoe";

    fn value(_py, board) -> i8 {
        game::value(code(board)?).map_err(PyErr::from)
    }

    fn outcome(_py, board) -> &'static str {
        Ok(match game::outcome(code(board)?)? {
            Outcome::X => "x",
            Outcome::O => "o",
            Outcome::Draw => "draw",
        })
    }

    fn solve(py, board) -> Bound<'py, PyAny> {
        Names::X_O.solution(py, game::solve(code(board)?)?)
    }

    fn best_move(_py, board) -> Option<u8> {
        game::best_move(code(board)?).map_err(PyErr::from)
    }

    fn analyze(py, board) -> Bound<'py, PyAny> {
        Names::X_O.analysis(py, game::analyze(code(board)?)?)
    }

    fn ranked_moves(py, board) -> Bound<'py, PyAny> {
        Names::X_O.ranking(py, game::ranked_moves(code(board)?)?)
    }

    fn to_move(_py, board) -> Option<&'static str> {
        let player = game::to_move(code(board)?)?;
        Ok(player.map(|player| Names::X_O.player(player)))
    }

    fn is_reachable(_py, board) -> bool {
        Ok(game::is_reachable(code(board)?))
    }

    fn is_valid_final(_py, board) -> bool {
        Ok(game::is_valid_final(code(board)?))
    }

    fn batch_values(py, boards) -> Bound<'py, PyArray1<i8>> {
        lookup_batch(py, boards, &table().value)
    }

    fn batch_best_move(py, boards) -> Bound<'py, PyArray1<i8>> {
        lookup_batch(py, boards, &table().best_move)
    }

    #[pyo3(text_signature = "(boards, *, moves=False, errors='raise')")]
    fn batch_solve(py, boards; options = &["moves", "errors"]) -> Bound<'py, PyAny> {
        let (boards, moves, on_error) = (boards_arg(boards)?, options.moves, options.errors);
        let solve = |monitor: Monitor| batch::solve_rows(&boards.rows, moves, on_error, monitor);
        into_py(py, released(py, solve)?)
    }

    #[pyo3(text_signature = "(n, *, seed=None, plies=None, ongoing=False, threads=None)")]
    fn random_positions(py, n; options = crate::games::mnk::call::RANDOM) -> Bound<'py, PyAny> {
        crate::py::mnk::random_marks(py, solved::geometry(), n, &options)
    }
}

/// A batch's boards: an array of shape (N, 9) or (N, 3, 3), read in place, or a sequence.
fn boards_arg<'py>(boards: &Bound<'py, PyAny>) -> PyResult<RowsArg<'py>> {
    rows_arg(boards, &[2, 3], "(N, 9) or (N, 3, 3)", "boards")
}

/// Looks up every board of a batch in `per_code` (the table's values or first best moves);
/// the first bad board raises.
fn lookup_batch<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    per_code: &[i8],
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let boards = boards_arg(boards)?;
    let out = released(py, |_| batch::lookup(&boards.rows, per_code))?;
    Ok(PyArray1::from_vec(py, out))
}
