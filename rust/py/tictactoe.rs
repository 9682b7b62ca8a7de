//! `perfectplay._core.tictactoe`: cells 0..8 are moves; answers come from the solved table.

use crate::engine::batch::raise_first_bad;
use crate::engine::memory::zeroed;
use crate::engine::pool;
use crate::games::mnk::solved::{self, table};
use crate::games::tictactoe::batch;
use crate::games::tictactoe::{self as game, Outcome};
use crate::input::options::OnError;
use crate::input::rows::{CodeRows, Packed, RowsOf};
use crate::py::arrays::Boards;
use crate::py::batch::{RowsArg, into_py, released, sequence_items};
use crate::py::convert::{Names, to_item};
use numpy::{PyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The table code of a board argument.
fn code(board: &Bound<'_, PyAny>) -> PyResult<usize> {
    game::code_of(&to_item(board)?).map_err(PyErr::from)
}

bindings! {
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

    /// Every board's value, plies, best moves (and with `moves`, each move's answer), from the
    /// table: see `perfectplay.BatchSolution`.
    fn batch_solve(py, boards; options = &["moves", "errors"]) -> Bound<'py, PyAny> {
        let (moves, on_error, threads) = (options.moves, options.errors, pool::cpus());
        let (columns, first_bad) = with_code_rows(py, boards, on_error, |rows| {
            released(py, |monitor| batch::label_rows(rows, moves, threads, monitor))
        })?;
        raise_first_bad(first_bad, on_error)?;
        into_py(py, columns)
    }

    /// ``n`` tic-tac-toe positions by uniformly random play, ``(n, 3, 3)`` uint8 codes.
    fn random_positions(py, n; options = crate::games::mnk::call::RANDOM) -> Bound<'py, PyAny> {
        crate::py::mnk::random_marks(py, solved::geometry(), n, &options)
    }
}

/// A batch array of shape (N, 9) or (N, 3, 3), read in place.
fn board_array<'py>(array: &Bound<'py, PyUntypedArray>) -> PyResult<Boards<'py>> {
    let boards = Boards::new(array, false, &[2, 3], "(N, 9) or (N, 3, 3)", "boards")?;
    if !matches!(boards.board[..], [9] | [3, 3]) {
        let message = format!(
            "boards must have shape (N, 9) or (N, 3, 3), got {:?}",
            array.shape()
        );
        return Err(PyValueError::new_err(message));
    }
    Ok(boards)
}

/// A batch's boards as rows of codes, given to `work`: an array's read in place, a sequence's
/// read board by board (as `batch_solve` reads them on both backends), its first bad board
/// raised unless `on_error` masks it (a bad row is all 3s, which no board has).
fn with_code_rows<'py, T>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    on_error: OnError,
    work: impl FnOnce(&CodeRows<'_>) -> PyResult<T>,
) -> PyResult<T> {
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        return work(&CodeRows::Values(board_array(array)?.reader()));
    }
    let boards = RowsArg::items(&sequence_items(boards, "boards")?)?;
    let (codes, first_bad) = released(py, |_| batch::rows_of_items(&boards.rows))?;
    raise_first_bad(first_bad, on_error)?;
    work(&CodeRows::Packed(Packed {
        cells: &codes,
        width: 9,
    }))
}

/// Looks up every row of a batch in `per_code` (the table's values or first best moves); the
/// first bad row raises.
fn lookup_batch<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    per_code: &[i8],
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let out = with_code_rows(py, boards, OnError::Raise, |rows| {
        released(py, |_| {
            let mut out = zeroed::<i8>(rows.len())?;
            batch::lookup_rows(rows, per_code, &mut out).map(|()| out)
        })
    })?;
    Ok(PyArray1::from_vec(py, out))
}
