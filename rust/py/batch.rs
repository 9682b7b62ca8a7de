//! What every game's `batch_solve` shares on the Python side: its arguments, the columns of a
//! `perfectplay.BatchSolution`, and running the generic batch loop without the GIL while the
//! calling thread watches for Ctrl-C and draws the progress bar.

use crate::engine::batch::{self, RowResult};
use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::Label;
use crate::engine::error::Error;
use crate::py::convert::{err, int_arg, is_main_thread, to_py_err, type_name, with_row};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};
use std::hash::Hash;

/// What to do with a bad row: raise its error naming the row, or mark it in `status`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnError {
    Raise,
    Mask,
}

pub fn errors_arg(errors: &Bound<'_, PyAny>) -> PyResult<OnError> {
    let Ok(text) = errors.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "errors must be 'raise' or 'mask', not {}",
            type_name(errors)
        )));
    };
    match text.to_str()? {
        "raise" => Ok(OnError::Raise),
        "mask" => Ok(OnError::Mask),
        other => Err(PyValueError::new_err(format!(
            "errors must be 'raise' or 'mask', got {other:?}"
        ))),
    }
}

/// `threads=`: None for the CPUs this process may use, or a positive integer.
pub fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(threads) = threads.filter(|t| !t.is_none()) else {
        return Ok(std::thread::available_parallelism().map_or(1, usize::from));
    };
    match int_arg(threads, "threads")? {
        n @ 1..=4096 => Ok(n as usize),
        n => Err(PyValueError::new_err(format!(
            "threads must be between 1 and 4096, got {n}"
        ))),
    }
}

/// Status codes of a row.
pub const OK: u8 = 0;
pub const BAD: u8 = 1;
pub const LIMIT: u8 = 2;

/// The columns of a `BatchSolution`, filled row by row; a row not filled keeps the sentinels
/// of a failed row.
pub struct Columns {
    cells: usize,
    value: Vec<i8>,
    plies: Vec<i16>,
    best_move: Vec<i16>,
    best_mask: Vec<bool>,
    status: Vec<u8>,
    nodes: Vec<u64>,
    move_value: Option<Vec<i8>>,
    move_plies: Option<Vec<i16>>,
}

impl Columns {
    pub fn new(rows: usize, cells: usize, moves: bool) -> Columns {
        Columns {
            cells,
            value: vec![0; rows],
            plies: vec![-1; rows],
            best_move: vec![-1; rows],
            best_mask: vec![false; rows * cells],
            status: vec![BAD; rows],
            nodes: vec![0; rows],
            move_value: moves.then(|| vec![0; rows * cells]),
            move_plies: moves.then(|| vec![-1; rows * cells]),
        }
    }

    pub fn set(&mut self, row: usize, label: &Label) {
        self.value[row] = label.value;
        self.plies[row] = label.plies as i16;
        self.best_move[row] = if label.best == 0 {
            -1
        } else {
            label.best.trailing_zeros() as i16
        };
        let mask = &mut self.best_mask[row * self.cells..(row + 1) * self.cells];
        for (cell, slot) in mask.iter_mut().enumerate() {
            *slot = label.best >> cell & 1 == 1;
        }
        self.status[row] = OK;
        self.nodes[row] = label.nodes;
        if let (Some(values), Some(plies)) = (&mut self.move_value, &mut self.move_plies) {
            for answer in &label.moves {
                let at = row * self.cells + answer.cell as usize;
                values[at] = answer.value;
                plies[at] = answer.plies as i16;
            }
        }
    }

    pub fn fail(&mut self, row: usize, status: u8) {
        self.status[row] = status;
    }

    /// Columns a game built itself in one pass (tic-tac-toe's table path); nodes are 0.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        cells: usize,
        value: Vec<i8>,
        plies: Vec<i16>,
        best_move: Vec<i16>,
        best_mask: Vec<bool>,
        status: Vec<u8>,
        moves: Option<(Vec<i8>, Vec<i16>)>,
    ) -> Columns {
        let rows = value.len();
        let (move_value, move_plies) = moves.unzip();
        Columns {
            cells,
            value,
            plies,
            best_move,
            best_mask,
            status,
            nodes: vec![0; rows],
            move_value,
            move_plies,
        }
    }

    /// The `perfectplay.BatchSolution` of these columns.
    pub fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        static BATCH: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        let class = BATCH.import(py, "perfectplay._types", "BatchSolution")?;
        let shape = [self.value.len(), self.cells];
        let move_value = self.move_value.map(|v| grid(py, v, shape)).transpose()?;
        let move_plies = self.move_plies.map(|v| grid(py, v, shape)).transpose()?;
        class.call1((
            PyArray1::from_vec(py, self.value),
            PyArray1::from_vec(py, self.plies),
            PyArray1::from_vec(py, self.best_move),
            grid(py, self.best_mask, shape)?,
            PyArray1::from_vec(py, self.status),
            PyArray1::from_vec(py, self.nodes),
            move_value,
            move_plies,
        ))
    }
}

/// A row-major `(rows, cells)` numpy array of a flat vector.
fn grid<T: numpy::Element>(
    py: Python<'_>,
    flat: Vec<T>,
    shape: [usize; 2],
) -> PyResult<Bound<'_, numpy::PyArray2<T>>> {
    PyArray1::from_vec(py, flat).reshape(shape)
}

/// A tqdm progress bar on standard error, or nothing. Held unbound: it is updated from
/// inside the batch loop, which runs without the GIL.
struct Progress {
    bar: Option<Py<PyAny>>,
    shown: usize,
}

impl Progress {
    fn new(py: Python<'_>, show: bool, what: &str) -> PyResult<Progress> {
        let bar = if show {
            let tqdm = py.import("tqdm")?.getattr("tqdm")?;
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("desc", what)?;
            kwargs.set_item("unit", " positions")?;
            kwargs.set_item("file", py.import("sys")?.getattr("stderr")?)?;
            Some(tqdm.call((), Some(&kwargs))?.unbind())
        } else {
            None
        };
        Ok(Progress { bar, shown: 0 })
    }

    fn update(&mut self, py: Python<'_>, done: usize, total: usize) -> PyResult<()> {
        if let Some(bar) = &self.bar {
            let bar = bar.bind(py);
            if self.shown == 0 {
                bar.setattr("total", total)?;
            }
            if done > self.shown {
                bar.call_method1("update", (done - self.shown,))?;
                self.shown = done;
            }
        }
        Ok(())
    }

    fn close(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(bar) = &self.bar {
            bar.bind(py).call_method0("close")?;
        }
        Ok(())
    }
}

/// A batch's rows after parsing: each one ready to solve, or its error.
pub struct Parsed<T> {
    pub rows: Vec<Option<T>>,
    pub errors: Vec<Option<PyErr>>,
}

impl<T> Parsed<T> {
    pub fn with_capacity(rows: usize) -> Parsed<T> {
        Parsed {
            rows: Vec::with_capacity(rows),
            errors: Vec::with_capacity(rows),
        }
    }

    pub fn push(&mut self, row: PyResult<T>) {
        match row {
            Ok(row) => {
                self.rows.push(Some(row));
                self.errors.push(None);
            }
            Err(error) => {
                self.rows.push(None);
                self.errors.push(Some(error));
            }
        }
    }
}

/// Runs `work` without the GIL. `work` gets a monitor `(done, total) -> stop?` to call now and
/// then from the thread that called this: it draws the progress bar and, on the main thread,
/// stops the work at Ctrl-C, whose KeyboardInterrupt is then raised.
pub fn detached<T: Send>(
    py: Python<'_>,
    progress: bool,
    what: &str,
    work: impl FnOnce(&mut dyn FnMut(usize, usize) -> bool) -> T + Send,
) -> PyResult<T> {
    let main_thread = is_main_thread(py)?;
    let mut bar = Progress::new(py, progress, what)?;
    let mut interrupt: Option<PyErr> = None;
    let mut failure: Option<PyErr> = None;
    let result = py.detach(|| {
        work(&mut |done, total| {
            Python::attach(|py| {
                if let Err(error) = bar.update(py, done, total) {
                    failure = Some(error);
                    return true;
                }
                match main_thread.then(|| py.check_signals()) {
                    Some(Err(pending)) => {
                        interrupt = Some(pending);
                        true
                    }
                    _ => false,
                }
            })
        })
    });
    bar.close(py)?;
    match failure.or(interrupt) {
        Some(error) => Err(error),
        None => Ok(result),
    }
}

/// Runs a parsed batch: bad rows raise or are masked, the rest are solved by `solve` on
/// `threads` workers without the GIL; Ctrl-C (on the main thread) stops every worker.
#[allow(clippy::too_many_arguments)]
pub fn solve_batch<'py, T, F>(
    py: Python<'py>,
    parsed: Parsed<T>,
    cells: usize,
    moves: bool,
    threads: usize,
    node_limit: Option<u64>,
    on_error: OnError,
    progress: bool,
    what: &str,
    solve: F,
    cells_left: impl Fn(&T) -> u32 + Send,
) -> PyResult<Bound<'py, PyAny>>
where
    T: Hash + Eq + Sync + Send,
    F: Fn(&T, &mut Budget) -> RowResult + Sync + Send,
{
    let Parsed { rows, errors } = parsed;
    if on_error == OnError::Raise
        && let Some((row, error)) = errors
            .into_iter()
            .enumerate()
            .find_map(|(row, error)| error.map(|error| (row, error)))
    {
        return Err(with_row(py, error, row));
    }
    let results = detached(py, progress, what, |monitor| {
        batch::run(&rows, threads, node_limit, solve, cells_left, monitor)
    })?;
    let mut columns = Columns::new(rows.len(), cells, moves);
    for (row, result) in results.into_iter().enumerate() {
        match result {
            None => columns.fail(row, BAD),
            Some(Ok(label)) => columns.set(row, &label),
            Some(Err(Error::Stopped(Stop::NodeLimit(limit)))) => {
                if on_error == OnError::Raise {
                    return Err(with_row(
                        py,
                        err(Error::Stopped(Stop::NodeLimit(limit))),
                        row,
                    ));
                }
                columns.fail(row, LIMIT);
            }
            Some(Err(error @ (Error::Stopped(Stop::Interrupted) | Error::OutOfMemory(_)))) => {
                return Err(to_py_err(error, None));
            }
            Some(Err(error)) => {
                if on_error == OnError::Raise {
                    return Err(with_row(py, err(error), row));
                }
                columns.fail(row, BAD);
            }
        }
    }
    columns.into_py(py)
}

/// The cells of a numpy array of integer codes (bools too when `bools`), as `i64` in C order,
/// with its shape: an array of any byte order, alignment or layout is read.
pub fn array_cells(
    array: &Bound<'_, PyAny>,
    bools: bool,
    what: &str,
) -> PyResult<(Vec<usize>, Vec<i64>)> {
    let py = array.py();
    let dtype = array.getattr("dtype")?;
    let kind: char = dtype.getattr("kind")?.extract()?;
    if !(matches!(kind, 'i' | 'u') || (bools && kind == 'b')) {
        let wanted = if bools {
            "an integer or bool"
        } else {
            "an integer"
        };
        return Err(PyTypeError::new_err(format!(
            "{what} must be {wanted} array, not {dtype}"
        )));
    }
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    let numpy = py.import("numpy")?;
    // uint64 above i64::MAX would wrap: clip first, it is no cell code either way.
    let array = if dtype.getattr("kind")?.extract::<char>()? == 'u'
        && dtype.getattr("itemsize")?.extract::<usize>()? == 8
    {
        numpy.getattr("minimum")?.call1((array, i64::MAX as u64))?
    } else {
        array.clone()
    };
    let cells = numpy
        .getattr("ascontiguousarray")?
        .call1((array, numpy.getattr("int64")?))?
        .call_method0("ravel")?
        .cast_into::<PyArray1<i64>>()?
        .to_vec()?;
    Ok((shape, cells))
}

/// Is `obj` a numpy array?
pub fn is_array(obj: &Bound<'_, PyAny>) -> bool {
    obj.cast::<numpy::PyUntypedArray>().is_ok()
}

/// The items of a sequence argument of a batch (a list, a tuple or any sequence but str and
/// bytes-likes), or a `TypeError` naming `what`.
pub fn sequence_items<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let is_sequence = obj.cast::<pyo3::types::PySequence>().is_ok()
        && !obj.is_instance_of::<PyString>()
        && !crate::py::convert::type_is_bytes_like(obj);
    if !is_sequence {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy array or a sequence, not {}",
            type_name(obj)
        )));
    }
    obj.try_iter()?.collect()
}
