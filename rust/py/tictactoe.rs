//! `perfectplay._core.tictactoe`: cells 0..8 are moves; answers come from the solved table.

use crate::games::mnk::solved::{self, NOT_LEGAL, table};
use crate::games::tictactoe::batch::{self, BatchError, CellCode};
use crate::games::tictactoe::{self as game, Outcome};
use crate::input::Item;
use crate::py::batch::{Columns, OnError, errors_arg, sequence_items};
use crate::py::convert::{Names, err, to_analysis, to_item, to_solution, type_name, with_row};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySequence, PyString, PyTuple};

/// The signature of the batch lookups (`lookup_rows`, `lookup_rows_u8`).
type LookupRows<T> = fn(&[T], &[i8], &mut [i8]) -> Result<(), BatchError>;

const NAMES: Names<fn(u8) -> u8> = Names {
    players: ["x", "o"],
    to_move: |cell| cell,
};

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(value, module)?)?;
    module.add_function(wrap_pyfunction!(outcome, module)?)?;
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(best_move, module)?)?;
    module.add_function(wrap_pyfunction!(analyze, module)?)?;
    module.add_function(wrap_pyfunction!(to_move, module)?)?;
    module.add_function(wrap_pyfunction!(is_reachable, module)?)?;
    module.add_function(wrap_pyfunction!(is_valid_final, module)?)?;
    module.add_function(wrap_pyfunction!(batch_values, module)?)?;
    module.add_function(wrap_pyfunction!(batch_best_move, module)?)?;
    module.add_function(wrap_pyfunction!(batch_solve, module)?)?;
    Ok(())
}

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
        return lookup_array(py, array, per_code);
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
        out.push(answer);
    }
    Ok(PyArray1::from_vec(py, out))
}

/// Rows of a numpy integer array of shape (N, 9) or (N, 3, 3), read in place without the GIL.
/// Arrays of another byte order, misaligned or not C-contiguous are copied once into native C
/// order first.
fn lookup_array<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyUntypedArray>,
    per_code: &[i8],
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let array = &native_rows(py, array)?;
    let rows = array.shape()[0];
    macro_rules! try_dtype {
        ($($t:ty),*) => {$(
            if let Ok(typed) = array.cast::<PyArrayDyn<$t>>() {
                return lookup_typed(py, typed, rows, per_code, batch::lookup_rows);
            }
        )*};
    }
    if let Ok(typed) = array.cast::<PyArrayDyn<u8>>() {
        return lookup_typed(py, typed, rows, per_code, batch::lookup_rows_u8);
    }
    try_dtype!(i8, u16, i16, u32, i32, u64, i64);
    Err(PyTypeError::new_err(format!(
        "boards must be an integer array, not {}",
        array.dtype()
    )))
}

fn lookup_typed<'py, T: CellCode + numpy::Element>(
    py: Python<'py>,
    array: &Bound<'py, PyArrayDyn<T>>,
    rows: usize,
    per_code: &[i8],
    lookup: LookupRows<T>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let readonly = array.readonly();
    let cells = readonly
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut out = vec![0i8; rows];
    py.detach(|| lookup(cells, per_code, &mut out))
        .map_err(|bad| with_row(py, err(bad.error), bad.row))?;
    Ok(PyArray1::from_vec(py, out))
}

/// Every board's value, plies, best moves (and with `moves`, each move's answer), from the
/// table: see `perfectplay.BatchSolution`.
#[pyfunction]
#[pyo3(signature = (boards, *, moves=false, errors=None))]
fn batch_solve<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    moves: bool,
    errors: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let on_error = errors.map_or(Ok(OnError::Raise), errors_arg)?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let columns = if let Ok(array) = boards.cast::<PyUntypedArray>() {
        array_rows(py, &native_rows(py, array)?, moves, threads, on_error)?
    } else {
        let mut codes = Vec::new();
        for (row, board) in sequence_items(boards, "boards")?.iter().enumerate() {
            let found = match code(board) {
                Ok(code) if table().is_reachable(code) => code as u16,
                Ok(code) if on_error == OnError::Raise => {
                    return Err(with_row(py, err(solved::illegal_reason(code)), row));
                }
                Err(error) if on_error == OnError::Raise => return Err(with_row(py, error, row)),
                _ => batch::BAD_ROW,
            };
            // A row of codes the labeller reads back as this code.
            codes.extend(cells_of_code(found));
        }
        py.detach(|| batch::label_rows(&codes, moves, 1, batch::code_of_row_u8))
    };
    Columns::from_parts(
        9,
        columns.value,
        columns.plies,
        columns.best_move,
        columns.best_mask,
        columns.status,
        columns.moves,
    )
    .into_py(py)
}

/// The 9 cell codes of a board code (`BAD_ROW`: cells no board has).
fn cells_of_code(code: u16) -> [u8; 9] {
    if code == batch::BAD_ROW {
        return [3; 9];
    }
    let mut cells = [0u8; 9];
    let mut rest = code;
    for cell in &mut cells {
        *cell = (rest % 3) as u8;
        rest /= 3;
    }
    cells
}

/// A batch array checked for shape and dtype and made native, aligned and C-contiguous.
fn native_rows<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let shape = array.shape().to_vec();
    if !matches!(shape.as_slice(), [_, 9] | [_, 3, 3]) {
        return Err(PyValueError::new_err(format!(
            "boards must have shape (N, 9) or (N, 3, 3), got {shape:?}"
        )));
    }
    let dtype = array.dtype();
    let kind: char = dtype.getattr("kind")?.extract()?;
    if !matches!(kind, 'i' | 'u') {
        return Err(PyTypeError::new_err(format!(
            "boards must be an integer array, not {dtype}"
        )));
    }
    let native_dtype = dtype.call_method1("newbyteorder", ("=",))?;
    py.import("numpy")?
        .getattr("require")?
        .call1((array, native_dtype, ("C_CONTIGUOUS", "ALIGNED")))?
        .cast_into::<PyUntypedArray>()
        .map_err(PyErr::from)
}

/// Every row of a native integer array labelled without the GIL; when bad rows raise, the
/// first one's error naming its row.
fn array_rows(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    moves: bool,
    threads: usize,
    on_error: OnError,
) -> PyResult<batch::RowColumns> {
    macro_rules! typed {
        ($code_of:path; $($t:ty),*) => {$(
            if let Ok(typed) = array.cast::<PyArrayDyn<$t>>() {
                let readonly = typed.readonly();
                let cells = readonly.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
                let columns = py.detach(|| batch::label_rows(cells, moves, threads, $code_of));
                if on_error == OnError::Raise
                    && let Some(row) = columns.status.iter().position(|&status| status != 0)
                {
                    let error = batch::row_error(&cells[row * 9..(row + 1) * 9]);
                    return Err(with_row(py, err(error), row));
                }
                return Ok(columns);
            }
        )*};
    }
    typed!(batch::code_of_row_u8; u8);
    typed!(batch::code_of_row; i8, u16, i16, u32, i32, u64, i64);
    Err(PyTypeError::new_err(format!(
        "boards must be an integer array, not {}",
        array.dtype()
    )))
}
