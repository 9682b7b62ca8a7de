//! Conversions every game's bindings share: arguments to plain data, core errors to Python
//! exceptions, solutions and analyses back to Python, and running a search without the GIL
//! while polling for Ctrl-C.

use crate::engine::budget::Stop;
use crate::engine::driver::{MoveAnswer, Player, Solution};
use crate::engine::error::Error;
use crate::engine::memory::{copied, with_room};
use crate::input::{Item, MAX_ITEMS};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{
    PyException, PyFileNotFoundError, PyKeyboardInterrupt, PyMemoryError, PyOSError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyList, PyMemoryView, PySequence, PyString,
    PyTuple, PyType,
};
use std::borrow::Cow;

/// The deepest level whose items a parser inspects (board, rows, cells).
const MAX_DEPTH: usize = 2;

/// How many array-likes may unwrap into one another (`tolist()` giving another) before the
/// argument is taken as it is: bounds the conversion of self-referential objects.
const MAX_UNWRAPS: usize = 4;

pyo3::import_exception!(perfectplay.errors, IllegalPosition);
pyo3::import_exception!(perfectplay.errors, SearchLimitExceeded);

/// The Python exception for a core error, so that `?` raises it (a Ctrl-C caught in a poll is
/// raised as it came; a batch row's error is its own class, the row named).
impl From<Error> for PyErr {
    fn from(error: Error) -> PyErr {
        let message = error.to_string();
        let mut cause = &error;
        while let Error::InRow(_, inner) = cause {
            cause = inner;
        }
        match cause {
            Error::Malformed(_) | Error::InRow(..) => PyValueError::new_err(message),
            Error::Missing(_) => PyFileNotFoundError::new_err(message),
            Error::Unreadable(_) => PyOSError::new_err(message),
            Error::WrongType(_) => PyTypeError::new_err(message),
            Error::Illegal(_) => IllegalPosition::new_err(message),
            Error::Stopped(Stop::Interrupted) => PyKeyboardInterrupt::new_err(message),
            Error::Stopped(Stop::NodeLimit(_)) => SearchLimitExceeded::new_err(message),
            Error::OutOfMemory(_) | Error::MemoryLimit(_) => PyMemoryError::new_err(message),
        }
    }
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "object".to_owned())
}

pub fn type_is_bytes_like(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
}

/// Reduces a Python argument to an [`Item`] by the rules of the twin's `args.to_item`, a str in
/// place (no copy of a move string). An exception from the argument's own methods (`tolist`,
/// `__index__`, `__len__`, `__iter__`, ...) becomes a `TypeError` naming it; others (Ctrl-C,
/// `MemoryError`) pass through ([`is_own_error`]).
#[inline]
pub fn to_item<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Item<'a>> {
    if let Ok(text) = obj.cast::<PyString>()
        && let Ok(text) = text.to_str()
    {
        return Ok(Item::Text(Cow::Borrowed(text)));
    }
    owned_item(obj)
}

/// [`to_item`], with every str copied (an item to keep past the argument's borrow).
pub fn owned_item(obj: &Bound<'_, PyAny>) -> PyResult<Item<'static>> {
    let py = obj.py();
    item_at(obj, 0, 0).map_err(|error| {
        if !is_own_error(py, &error) {
            return error;
        }
        let reason = error.value(py).to_string();
        let class = error
            .get_type(py)
            .name()
            .map_or_else(|_| "Exception".to_owned(), |name| name.to_string());
        let wrapped =
            PyTypeError::new_err(format!("the argument could not be read: {class}: {reason}"));
        wrapped.set_cause(py, Some(error));
        wrapped
    })
}

/// Was `error` raised by an argument's own method (an `Exception`, not `MemoryError`)? Such an
/// error is the argument's fault; others (Ctrl-C, `MemoryError`) pass through as they are.
pub fn is_own_error(py: Python<'_>, error: &PyErr) -> bool {
    error.is_instance_of::<PyException>(py) && !error.is_instance_of::<PyMemoryError>(py)
}

fn int_item(int: &Bound<'_, PyAny>) -> Item<'static> {
    int.extract::<i64>().map_or(Item::BigInt, Item::Int)
}

/// `depth`: the level of sequences above this object (board, rows, cells); `unwraps`: how
/// many array-likes unwrapped into this one.
fn item_at(obj: &Bound<'_, PyAny>, depth: usize, unwraps: usize) -> PyResult<Item<'static>> {
    if let Ok(text) = obj.cast::<PyString>() {
        let copy = copied(&text.to_string_lossy()).map_err(Error::from)?;
        return Ok(Item::Text(Cow::Owned(copy)));
    }
    if let Ok(flag) = obj.cast::<PyBool>() {
        return Ok(Item::Bool(flag.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(int_item(obj));
    }
    if type_is_bytes_like(obj) {
        return Ok(Item::Other(type_name(obj)));
    }
    // Lists and tuples, the common case, are read by index: no iterator object.
    if let Ok(list) = obj.cast::<PyList>() {
        return sequence_item(list.len(), depth, || Ok(list.iter().map(Ok)));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return sequence_item(tuple.len(), depth, || Ok(tuple.iter().map(Ok)));
    }
    if obj.cast::<PySequence>().is_ok() {
        return sequence_item(obj.len()?, depth, || obj.try_iter());
    }
    if obj.hasattr("tolist")? && obj.hasattr("shape")? {
        if unwraps >= MAX_UNWRAPS {
            return Ok(Item::Other(type_name(obj)));
        }
        return item_at(&obj.call_method0("tolist")?, depth, unwraps + 1);
    }
    if obj.hasattr("__index__")? {
        let index = obj.call_method0("__index__")?;
        if !index.is_instance_of::<PyInt>() {
            // Python's own rule (operator.index), as the twin applies it.
            return Err(PyTypeError::new_err(format!(
                "__index__ returned non-int (type {})",
                type_name(&index)
            )));
        }
        return Ok(int_item(&index));
    }
    Ok(Item::Other(type_name(obj)))
}

/// The [`Item`] of a sequence of `len` items, read from `items()` unless it is too long or too
/// deep to inspect.
fn sequence_item<'py, I: Iterator<Item = PyResult<Bound<'py, PyAny>>>>(
    len: usize,
    depth: usize,
    items: impl FnOnce() -> PyResult<I>,
) -> PyResult<Item<'static>> {
    if len > MAX_ITEMS {
        return Ok(Item::Long(len));
    }
    if depth >= MAX_DEPTH {
        return Ok(Item::Seq(Vec::new()));
    }
    // `len()` may lie: read one item past the most any board has, never more.
    let mut converted = with_room(len).map_err(Error::from)?;
    for item in items()? {
        if converted.len() == MAX_ITEMS {
            return Ok(Item::Long(MAX_ITEMS + 1));
        }
        converted.push(item_at(&item?, depth + 1, 0)?);
    }
    Ok(Item::Seq(converted))
}

fn solution_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static SOLUTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    SOLUTION.import(py, "perfectplay._kernel.types", "Solution")
}

/// How a game shows its players and its moves in Python.
#[derive(Clone, Copy)]
pub struct Names {
    /// The winner's name for the first and the second player.
    pub players: [&'static str; 2],
    /// Moves as (row, col) of a grid this many columns wide; None: the cell (or column) itself.
    pub grid: Option<usize>,
}

impl Names {
    /// x and o, whose moves are cells (or columns) as they are.
    pub const X_O: Names = Names {
        players: ["x", "o"],
        grid: None,
    };

    /// The names of a game whose moves are cells of a grid `cols` wide, given as (row, col).
    pub fn grid(players: [&'static str; 2], cols: usize) -> Names {
        let grid = Some(cols);
        Names { players, grid }
    }

    pub fn player(&self, player: Player) -> &'static str {
        self.players[player as usize]
    }

    /// A move in its Python form.
    pub fn show<'py>(&self, py: Python<'py>, cell: u8) -> PyResult<Bound<'py, PyAny>> {
        match self.grid {
            Some(cols) => (cell as usize / cols, cell as usize % cols).into_bound_py_any(py),
            None => cell.into_bound_py_any(py),
        }
    }

    /// Moves in their Python form.
    pub fn tuple<'py>(&self, py: Python<'py>, cells: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
        let shown: PyResult<Vec<_>> = cells.iter().map(|&cell| self.show(py, cell)).collect();
        PyTuple::new(py, shown?)
    }

    /// A `perfectplay.Solution`.
    pub fn solution<'py>(
        &self,
        py: Python<'py>,
        solution: Solution,
    ) -> PyResult<Bound<'py, PyAny>> {
        solution_type(py)?.call1((
            solution.value,
            solution.winner.map(|player| self.player(player)),
            solution.plies,
            self.tuple(py, &solution.best_moves)?,
            self.tuple(py, &solution.line)?,
            solution.nodes,
        ))
    }

    /// `[(move, value for the player making it, plies from now with it), ...]`, in the
    /// answers' order.
    pub fn ranking<'py>(
        &self,
        py: Python<'py>,
        answers: Vec<MoveAnswer>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = PyList::empty(py);
        for answer in answers {
            result.append((self.show(py, answer.cell)?, answer.value, answer.plies))?;
        }
        Ok(result.into_any())
    }

    /// `{move: (value for the player making it, plies from now with it)}`.
    pub fn analysis<'py>(
        &self,
        py: Python<'py>,
        answers: Vec<MoveAnswer>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = PyDict::new(py);
        for answer in answers {
            result.set_item(self.show(py, answer.cell)?, (answer.value, answer.plies))?;
        }
        Ok(result.into_any())
    }
}
