//! What every game's `batch_solve` shares on the Python side: its arguments, the columns of a
//! `perfectplay.BatchSolution` handed to numpy, and running work on the pool without the GIL
//! while the calling thread watches for Ctrl-C and draws the progress bar.

use crate::engine::batch::{BadRows, LOOK_EVERY};
use crate::engine::columns::Columns;
use crate::engine::error::{Error, Result as CoreResult};
use crate::engine::memory::{headroom, with_room, zeroed};
use crate::engine::pool::Monitor;
use crate::input::Item;
use crate::input::rows::Rows;
use crate::py::arrays::read_array;
use crate::py::convert::owned_item;
use crate::py::detach::detached;
use crate::py::options::Options;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple, PyType};

/// The columns as numpy arrays, in `perfectplay.BatchSolution`'s order, None for a column not
/// filled (the arrays take over the columns' memory).
pub fn arrays<'py>(py: Python<'py>, columns: Columns) -> PyResult<Bound<'py, PyTuple>> {
    let shape = [columns.rows, columns.moves_per_row];
    let best = !columns.best_move.is_empty() || columns.rows == 0;
    let moves = !columns.move_value.is_empty();
    let nodes = if columns.nodes.is_empty() {
        zeroed::<u64>(columns.rows).map_err(Error::from)?
    } else {
        columns.nodes
    };
    let grid = |present: bool, array: Bound<'py, PyAny>| -> PyResult<Option<Bound<'py, PyAny>>> {
        present
            .then(|| array.call_method1("reshape", (shape,)))
            .transpose()
    };
    PyTuple::new(
        py,
        [
            Some(PyArray1::from_vec(py, columns.value).into_any()),
            Some(PyArray1::from_vec(py, columns.plies).into_any()),
            best.then(|| PyArray1::from_vec(py, columns.best_move).into_any()),
            grid(best, PyArray1::from_vec(py, columns.best_mask).into_any())?,
            Some(PyArray1::from_vec(py, columns.status).into_any()),
            Some(PyArray1::from_vec(py, nodes).into_any()),
            grid(moves, PyArray1::from_vec(py, columns.move_value).into_any())?,
            grid(moves, PyArray1::from_vec(py, columns.move_plies).into_any())?,
        ],
    )
}

/// The `perfectplay.BatchSolution` of the columns.
pub fn into_py(py: Python<'_>, columns: Columns) -> PyResult<Bound<'_, PyAny>> {
    static BATCH: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let class = BATCH.import(py, "perfectplay._kernel.types", "BatchSolution")?;
    class.call1(arrays(py, columns)?)
}

/// A batch's `perfectplay.BatchSolution`: its first bad row raises under `errors="raise"`,
/// before any work; `label` labels the rows without the GIL, under a progress bar named
/// `what` when the options ask for one.
pub fn labelled<'py, T: BadRows + Send>(
    py: Python<'py>,
    options: &Options<'_>,
    what: &str,
    parsed: T,
    label: impl FnOnce(T, Monitor) -> CoreResult<Columns> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let parsed = parsed.raise_first_bad(options.errors)?;
    into_py(
        py,
        detached(py, options.progress, what, |monitor| label(parsed, monitor))?,
    )
}

/// A batch argument as plain data, with the array it reads in place (kept alive meanwhile).
pub struct RowsArg<'py> {
    pub rows: Rows,
    _array: Option<Bound<'py, PyUntypedArray>>,
}

impl<'py> RowsArg<'py> {
    /// One argument for every row.
    pub fn shared(obj: &Bound<'py, PyAny>) -> PyResult<RowsArg<'py>> {
        let rows = Rows::Shared(row_item(obj)?);
        Ok(RowsArg { rows, _array: None })
    }

    /// One item a row.
    pub fn items(items: &Bound<'py, PyList>) -> PyResult<RowsArg<'py>> {
        let rows = Rows::Items(items_of(items)?);
        Ok(RowsArg { rows, _array: None })
    }

    /// An array's rows, read in place (see [`read_array`]).
    pub fn array(
        array: &Bound<'py, PyUntypedArray>,
        bools: bool,
        dims: &[usize],
        shape: &str,
        what: &str,
    ) -> PyResult<RowsArg<'py>> {
        let (array, reader, board) = read_array(array, bools, dims, shape, what)?;
        let rows = Rows::Array { reader, board };
        Ok(RowsArg {
            rows,
            _array: Some(array),
        })
    }
}

/// A batch of boards: an integer array of `dims` dimensions (`shape` and `what` name it in
/// messages), read in place, or a sequence of boards.
pub fn rows_arg<'py>(
    boards: &Bound<'py, PyAny>,
    dims: &[usize],
    shape: &str,
    what: &str,
) -> PyResult<RowsArg<'py>> {
    match boards.cast::<PyUntypedArray>() {
        Ok(array) => RowsArg::array(array, false, dims, shape, what),
        Err(_) => RowsArg::items(&sequence_items(boards, what)?),
    }
}

/// A batch argument given once for every row or once a row: an integer or bool array of `one`
/// dimensions is one for every row, of `one + 1` one a row (read in place; `shape` and `what`
/// name it in messages); a sequence is one for every row when `is_one` says so of its items.
pub fn once_or_a_row<'py>(
    obj: &Bound<'py, PyAny>,
    one: usize,
    shape: &str,
    what: &str,
    is_one: impl FnOnce(&Bound<'py, PyList>) -> bool,
) -> PyResult<RowsArg<'py>> {
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        if array.ndim() == one {
            return RowsArg::shared(obj);
        }
        return RowsArg::array(array, true, &[one + 1], shape, what);
    }
    let items = sequence_items(obj, what)?;
    if is_one(&items) {
        RowsArg::shared(obj)
    } else {
        RowsArg::items(&items)
    }
}

/// Each item as plain data, or why it cannot be (that row's error); Ctrl-C and `MemoryError`
/// end the batch.
pub fn items_of(items: &Bound<'_, PyList>) -> PyResult<Vec<CoreResult<Item<'static>>>> {
    let mut out = with_room(items.len()).map_err(Error::from)?;
    for (row, item) in items.iter().enumerate() {
        if row % LOOK_EVERY == 0 {
            item.py().check_signals()?;
            if items.len() >= LOOK_EVERY {
                headroom().map_err(Error::from)?;
            }
        }
        out.push(row_item(&item)?);
    }
    Ok(out)
}

/// An argument as plain data, or the `TypeError` that says why it cannot be read, as a core
/// error; `MemoryError` and Ctrl-C pass through.
pub fn row_item(item: &Bound<'_, PyAny>) -> PyResult<CoreResult<Item<'static>>> {
    match owned_item(item) {
        Ok(item) => Ok(Ok(item)),
        Err(error) if error.is_instance_of::<PyTypeError>(item.py()) => {
            let message = error.value(item.py()).to_string();
            Ok(Err(Error::WrongType(message)))
        }
        Err(error) => Err(error),
    }
}

/// The items of a batch's sequence argument, by the kernel's `sequence_items` (both backends'):
/// a `TypeError` naming `what` for anything else, a `ValueError` past its `len()`.
pub fn sequence_items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyList>> {
    let batch = obj.py().import("perfectplay._kernel.batch")?;
    let items = batch.call_method1("sequence_items", (obj, what))?;
    Ok(items.cast_into::<PyList>()?)
}

/// A numpy array of `rows` with `shape` (the product of `shape` is the length of `rows`).
pub fn shaped<'py, T: numpy::Element>(
    py: Python<'py>,
    rows: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, rows).reshape(shape)?.into_any())
}
