//! Conversions every game's bindings share: arguments to plain data, core errors to Python
//! exceptions, scalar arguments, solutions and analyses back to Python, and running a search
//! without the GIL while polling for Ctrl-C.

use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::{MoveAnswer, Player, Solution};
use crate::engine::error::Error;
use crate::input::{Item, MAX_CELLS};
use pyo3::exceptions::{
    PyException, PyKeyboardInterrupt, PyMemoryError, PyTypeError, PyValueError,
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

/// How many array-likes may unwrap into one another (`tolist()` returning another array-like)
/// before the argument is taken for what it is: bounds the conversion of self-referential
/// objects.
const MAX_UNWRAPS: usize = 4;

pyo3::import_exception!(perfectplay.errors, IllegalPosition);
pyo3::import_exception!(perfectplay.errors, SearchLimitExceeded);

/// The Python exception for a core error (a Ctrl-C caught in a poll is raised as it came).
pub fn err(error: Error) -> PyErr {
    match error {
        Error::Malformed(message) => PyValueError::new_err(message),
        Error::WrongType(message) => PyTypeError::new_err(message),
        Error::Illegal(message) => IllegalPosition::new_err(message),
        Error::Stopped(Stop::Interrupted) => PyKeyboardInterrupt::new_err("search interrupted"),
        stopped @ Error::Stopped(Stop::NodeLimit(_)) => {
            SearchLimitExceeded::new_err(stopped.to_string())
        }
        failure @ Error::OutOfMemory(_) => PyMemoryError::new_err(failure.to_string()),
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

/// Reduces a Python argument to an [`Item`] (the twin's `args.to_item` follows the same
/// rules). An exception raised by the argument's own methods (`tolist`, `__index__`,
/// `__len__`, `__iter__`, ...) becomes a `TypeError` that names it; `MemoryError` and
/// exceptions outside `Exception` (Ctrl-C) pass through as they are.
pub fn to_item(obj: &Bound<'_, PyAny>) -> PyResult<Item<'static>> {
    let py = obj.py();
    item_at(obj, 0, 0).map_err(|error| {
        if !error.is_instance_of::<PyException>(py) || error.is_instance_of::<PyMemoryError>(py) {
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

fn int_item(int: &Bound<'_, PyAny>) -> Item<'static> {
    int.extract::<i64>().map_or(Item::BigInt, Item::Int)
}

/// `depth`: the level of sequences above this object (board, rows, cells); `unwraps`: how
/// many array-likes unwrapped into this one.
fn item_at(obj: &Bound<'_, PyAny>, depth: usize, unwraps: usize) -> PyResult<Item<'static>> {
    if let Ok(text) = obj.cast::<PyString>() {
        return Ok(Item::Text(Cow::Owned(text.to_string_lossy().into_owned())));
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
        return sequence_item(list.iter(), list.len(), depth);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return sequence_item(tuple.iter(), tuple.len(), depth);
    }
    if obj.cast::<PySequence>().is_ok() {
        let len = obj.len()?;
        if len > MAX_CELLS {
            return Ok(Item::Long(len));
        }
        if depth >= MAX_DEPTH {
            return Ok(Item::Seq(Vec::new()));
        }
        // `len()` may lie: read one item past the most any board has, never more.
        let mut items = Vec::new();
        for item in obj.try_iter()? {
            if items.len() == MAX_CELLS {
                return Ok(Item::Long(MAX_CELLS + 1));
            }
            items.push(item_at(&item?, depth + 1, 0)?);
        }
        return Ok(Item::Seq(items));
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

/// The [`Item`] of a list or tuple's `len` items.
fn sequence_item<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    depth: usize,
) -> PyResult<Item<'static>> {
    if len > MAX_CELLS {
        return Ok(Item::Long(len));
    }
    if depth >= MAX_DEPTH {
        return Ok(Item::Seq(Vec::new()));
    }
    let mut converted = Vec::with_capacity(len);
    for item in items {
        converted.push(item_at(&item, depth + 1, 0)?);
    }
    Ok(Item::Seq(converted))
}

fn solution_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static SOLUTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    SOLUTION.import(py, "perfectplay._kernel.types", "Solution")
}

/// How a game shows its players and moves in Python.
pub struct Names<P> {
    /// The winner's name for the first and the second player.
    pub players: [&'static str; 2],
    /// A move (a cell) in its Python form.
    pub to_move: P,
}

/// The names of a game whose moves are cells of a grid `cols` wide, given as (row, col).
pub fn row_col_names(
    players: [&'static str; 2],
    cols: usize,
) -> Names<impl Fn(u8) -> (usize, usize)> {
    Names {
        players,
        to_move: move |cell: u8| (cell as usize / cols, cell as usize % cols),
    }
}

impl<P> Names<P> {
    pub fn player(&self, player: Player) -> &'static str {
        match player {
            Player::First => self.players[0],
            Player::Second => self.players[1],
        }
    }
}

/// Builds a `perfectplay.Solution`.
pub fn to_solution<'py, M, P>(
    py: Python<'py>,
    solution: Solution,
    names: &Names<P>,
) -> PyResult<Bound<'py, PyAny>>
where
    P: Fn(u8) -> M,
    M: IntoPyObject<'py>,
{
    let best_moves = PyTuple::new(py, solution.best_moves.iter().map(|&c| (names.to_move)(c)))?;
    let line = PyTuple::new(py, solution.line.iter().map(|&c| (names.to_move)(c)))?;
    solution_type(py)?.call1((
        solution.value,
        solution.winner.map(|player| names.player(player)),
        solution.plies,
        best_moves,
        line,
        solution.nodes,
    ))
}

/// `{move: (value for the player making it, plies from now with it)}`.
pub fn to_analysis<'py, M, P>(
    py: Python<'py>,
    answers: Vec<MoveAnswer>,
    names: &Names<P>,
) -> PyResult<Bound<'py, PyDict>>
where
    P: Fn(u8) -> M,
    M: IntoPyObject<'py>,
{
    let result = PyDict::new(py);
    for answer in answers {
        result.set_item((names.to_move)(answer.cell), (answer.value, answer.plies))?;
    }
    Ok(result)
}

/// Runs a search without the GIL (`batch::detached`: Ctrl-C on the main thread stops it and
/// is raised; elsewhere it runs to its end or its node limit).
pub fn search_detached<T: Send>(
    py: Python<'_>,
    node_limit: Option<u64>,
    search: impl FnOnce(&mut Budget) -> crate::engine::error::Result<T> + Send,
) -> PyResult<T> {
    crate::py::batch::detached(py, false, "", |monitor| {
        let mut poll = || monitor(0, 0);
        search(&mut Budget::new(node_limit, &mut poll))
    })
}

/// Is this the interpreter's main thread, the one Ctrl-C reaches? `threading` is asked once
/// per thread and process (asking costs microseconds, more than a short search; after a fork
/// the forking thread is the child's main thread, so the answer is kept with the process).
pub fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    thread_local! {
        static KNOWN: std::cell::Cell<Option<(u64, bool)>> = const { std::cell::Cell::new(None) };
    }
    let process = this_process();
    if let Some((known_process, main)) = KNOWN.get()
        && known_process == process
    {
        return Ok(main);
    }
    let threading = py.import("threading")?;
    let current = threading.call_method0("current_thread")?;
    let main = current.is(threading.call_method0("main_thread")?);
    KNOWN.set(Some((process, main)));
    Ok(main)
}

/// Tells this process from the processes forked from it, without a system call on Linux (a
/// `getpid` at every call is a tenth of a short search's time): the forks counted so far by a
/// handler every child runs. Elsewhere, or when the handler could not be registered, the
/// process id (with the top bit set, so it never equals a count).
fn this_process() -> u64 {
    #[cfg(target_os = "linux")]
    {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        static FORKS: AtomicU64 = AtomicU64::new(0);
        static COUNTING: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        extern "C" fn count_fork() {
            FORKS.fetch_add(1, Relaxed);
        }
        // SAFETY: the handler only adds to an atomic, which is safe in a forked child.
        let counting = COUNTING
            .get_or_init(|| unsafe { libc::pthread_atfork(None, None, Some(count_fork)) } == 0);
        if *counting {
            return FORKS.load(Relaxed);
        }
    }
    1 << 63 | u64::from(std::process::id())
}

/// Prefixes an exception's message with the batch row it concerns, keeping its class.
pub fn with_row(py: Python<'_>, error: PyErr, row: usize) -> PyErr {
    let message = format!("row {row}: {}", error.value(py));
    let class = error.get_type(py);
    match class.call1((message,)) {
        Ok(instance) => PyErr::from_value(instance),
        Err(_) => error,
    }
}
