//! `perfectplay._core.tictactoe`: cells 0..8 are moves; answers come from the solved table.

use crate::engine::error::Error;
use crate::engine::memory::{OutOfMemory, zeroed};
use crate::engine::pool;
use crate::games::mnk::solved::{self, NOT_LEGAL, table};
use crate::games::tictactoe::batch;
use crate::games::tictactoe::{self as game, Outcome};
use crate::input::Item;
use crate::input::options::OnError;
use crate::input::rows::Packed;
use crate::py::arrays::Boards;
use crate::py::batch::{detached, into_py, sequence_items};
use crate::py::convert::{Names, err, to_analysis, to_item, to_solution, type_name, with_row};
use numpy::{PyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySequence, PyString, PyTuple};

const NAMES: Names<fn(u8) -> u8> = Names {
    players: ["x", "o"],
    to_move: |cell| cell,
};

register_functions!(
    value,
    outcome,
    solve,
    best_move,
    analyze,
    to_move,
    is_reachable,
    is_valid_final,
    batch_values,
    batch_best_move,
    batch_solve,
    random_positions
);

/// The table code of a board argument; a str takes the one-pass path.
fn code(board: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(text) = board.cast::<PyString>() {
        return match text.to_str() {
            Ok(text) => game::code_of_text(text),
            Err(_) => game::code_of(&Item::Text(text.to_string_lossy())),
        }
        .map_err(err);
    }
    game::code_of(&to_item(board)?).map_err(err)
}

#[pyfunction]
fn value(board: &Bound<'_, PyAny>) -> PyResult<i8> {
    game::value(code(board)?).map_err(err)
}

#[pyfunction]
fn outcome(board: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    Ok(match game::outcome(code(board)?).map_err(err)? {
        Outcome::X => "x",
        Outcome::O => "o",
        Outcome::Draw => "draw",
    })
}

#[pyfunction]
fn solve<'py>(py: Python<'py>, board: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let solution = game::solve(code(board)?).map_err(err)?;
    to_solution(py, solution, &NAMES)
}

#[pyfunction]
fn best_move(board: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    game::best_move(code(board)?).map_err(err)
}

#[pyfunction]
fn analyze<'py>(py: Python<'py>, board: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let answers = game::analyze(code(board)?).map_err(err)?;
    to_analysis(py, answers, &NAMES)
}

#[pyfunction]
fn to_move(board: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
    let player = game::to_move(code(board)?).map_err(err)?;
    Ok(player.map(|player| NAMES.player(player)))
}

#[pyfunction]
fn is_reachable(board: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(game::is_reachable(code(board)?))
}

#[pyfunction]
fn is_valid_final(board: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(game::is_valid_final(code(board)?))
}

#[pyfunction]
fn batch_values<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    lookup_batch(py, boards, &table().value)
}

#[pyfunction]
fn batch_best_move<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    lookup_batch(py, boards, &table().best_move)
}

/// Looks up every row of a batch in `per_code` (the table's values or first best moves).
fn lookup_batch<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    per_code: &[i8],
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        let array = board_array(array)?;
        let mut out = zeroed::<i8>(array.rows()).map_err(|e| err(e.into()))?;
        let found = match array.packed_u8() {
            Some(cells) => py.detach(|| batch::lookup_rows(&packed(cells), per_code, &mut out)),
            None => {
                let reader = array.reader();
                py.detach(|| batch::lookup_rows(&reader, per_code, &mut out))
            }
        };
        found.map_err(|bad| with_row(py, err(bad.error), bad.row))?;
        return Ok(PyArray1::from_vec(py, out));
    }
    let is_sequence = boards.is_instance_of::<PyList>()
        || boards.is_instance_of::<PyTuple>()
        || (boards.cast::<PySequence>().is_ok() && !boards.is_instance_of::<PyString>());
    if !is_sequence || crate::py::convert::type_is_bytes_like(boards) {
        return Err(PyTypeError::new_err(format!(
            "boards must be a numpy integer array or a sequence of boards, not {}",
            type_name(boards)
        )));
    }
    // No capacity from `len()`: a sequence may claim any length.
    let mut out = Vec::new();
    for (row, board) in boards.try_iter()?.enumerate() {
        let code = code(&board?).map_err(|e| with_row(py, e, row))?;
        let answer = per_code[code];
        if answer == NOT_LEGAL {
            return Err(with_row(py, err(solved::illegal_reason(code)), row));
        }
        out.try_reserve(1)
            .map_err(|_| err(Error::OutOfMemory(OutOfMemory { bytes: out.len() })))?;
        out.push(answer);
    }
    Ok(PyArray1::from_vec(py, out))
}

/// A batch array of shape (N, 9) or (N, 3, 3), read in place.
fn board_array<'py>(array: &Bound<'py, PyUntypedArray>) -> PyResult<Boards<'py>> {
    let boards = Boards::new(array, false, &[2, 3], "(N, 9) or (N, 3, 3)", "boards")?;
    if !matches!(boards.board[..], [9] | [3, 3]) {
        return Err(PyValueError::new_err(format!(
            "boards must have shape (N, 9) or (N, 3, 3), got {:?}",
            array.shape()
        )));
    }
    Ok(boards)
}

fn packed(cells: &[u8]) -> Packed<'_, u8> {
    Packed { cells, width: 9 }
}

binding! {
    /// Every board's value, plies, best moves (and with `moves`, each move's answer), from the
    /// table: see `perfectplay.BatchSolution`.
    fn batch_solve(py, boards: &Bound<'py, PyAny>; options = &["moves", "errors"]) -> Bound<'py, PyAny> {
        let (moves, on_error) = (options.moves, options.errors);
        let threads = pool::cpus();
        let (columns, first_bad) = if let Ok(array) = boards.cast::<PyUntypedArray>() {
            let array = board_array(array)?;
            match array.packed_u8() {
                Some(cells) => detached(py, false, "", |monitor| {
                    batch::label_rows(&packed(cells), moves, threads, monitor)
                })?,
                None => {
                    let reader = array.reader();
                    detached(py, false, "", |monitor| {
                        batch::label_rows(&reader, moves, threads, monitor)
                    })?
                }
            }
            .map_err(err)?
        } else {
            let items = sequence_items(boards, "boards")?;
            let mut codes = zeroed::<u8>(items.len().saturating_mul(9)).map_err(|e| err(e.into()))?;
            for (row, board) in items.iter().enumerate() {
                let found = match code(board) {
                    Ok(code) if table().is_reachable(code) => Some(code),
                    Ok(code) if on_error == OnError::Raise => {
                        return Err(with_row(py, err(solved::illegal_reason(code)), row));
                    }
                    Err(error) if on_error == OnError::Raise => return Err(with_row(py, error, row)),
                    _ => None,
                };
                // A row of codes the labeller reads back as this code (cells no board has: 3).
                codes[row * 9..(row + 1) * 9].copy_from_slice(&found.map_or([3; 9], cells_of_code));
            }
            py.detach(|| batch::label_rows(&packed(&codes), moves, 1, |_, _| false))
                .map_err(err)?
        };
        if on_error == OnError::Raise
            && let Some((row, error)) = first_bad
        {
            return Err(with_row(py, err(error), row));
        }
        into_py(py, columns)
    }
}

/// The 9 cell codes of a board code.
fn cells_of_code(mut code: usize) -> [u8; 9] {
    let mut cells = [0u8; 9];
    for cell in &mut cells {
        *cell = (code % 3) as u8;
        code /= 3;
    }
    cells
}

binding! {
    /// ``n`` tic-tac-toe positions by uniformly random play, ``(n, 3, 3)`` uint8 codes.
    fn random_positions(py, n: &Bound<'py, PyAny>; options = crate::py::mnk::RANDOM) -> Bound<'py, PyAny> {
        crate::py::mnk::random_marks(py, solved::geometry(), n, &options)
    }
}
