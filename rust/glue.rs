//! The only file that knows Python: converts arguments into core data, releases the GIL for
//! searches, polls for Ctrl-C, and maps core errors to Python exceptions. Result types and
//! exception classes are the Python package's own (`perfectplay._types`,
//! `perfectplay.errors`), so both backends return and raise the very same classes.

use crate::board_input::{Item, MAX_DEPTH};
use crate::budget::{Budget, Stop};
use crate::error::Error;
use crate::solution::Solution;
use crate::tictactoe::{self, CellCode, Outcome};
use crate::{board_input, footholds, footholds_plain, footholds_search, mnk, mnk_search};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyList, PyMemoryView, PySequence, PyString,
    PyTuple, PyType,
};
use std::borrow::Cow;

pyo3::import_exception!(perfectplay.errors, IllegalPosition);
pyo3::import_exception!(perfectplay.errors, SearchLimitExceeded);

/// The Python exception for a core error. `interrupt` is the exception a poll caught (Ctrl-C).
fn to_py_err(error: Error, interrupt: Option<PyErr>) -> PyErr {
    match error {
        Error::Malformed(message) => PyValueError::new_err(message),
        Error::WrongType(message) => PyTypeError::new_err(message),
        Error::Illegal(message) => IllegalPosition::new_err(message),
        Error::Stopped(Stop::Interrupted) => {
            interrupt.unwrap_or_else(|| PyKeyboardInterrupt::new_err("search interrupted"))
        }
        stopped @ Error::Stopped(Stop::NodeLimit(_)) => {
            SearchLimitExceeded::new_err(stopped.to_string())
        }
    }
}

fn err(error: Error) -> PyErr {
    to_py_err(error, None)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "object".to_owned())
}

fn int_item(int: &Bound<'_, PyAny>) -> Item<'static> {
    int.extract::<i64>().map_or(Item::BigInt, Item::Int)
}

/// Reduces a Python argument to an [`Item`]: str, bool, int, sequences (lists, tuples, any
/// `collections.abc.Sequence`, and array-likes with `tolist` and `shape` such as numpy arrays),
/// objects with `__index__` (numpy integers); anything else by its type name. The pure-Python
/// twin's `board_input.to_item` follows the same order.
fn to_item(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Item<'static>> {
    if let Ok(text) = obj.cast::<PyString>() {
        return Ok(Item::Text(Cow::Owned(text.to_string_lossy().into_owned())));
    }
    if let Ok(flag) = obj.cast::<PyBool>() {
        return Ok(Item::Bool(flag.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(int_item(obj));
    }
    if obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
    {
        return Ok(Item::Other(type_name(obj)));
    }
    // Lists and tuples, the common case, are read by index: no iterator object.
    if let Ok(list) = obj.cast::<PyList>() {
        return sequence_item(list.iter(), list.len(), depth);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return sequence_item(tuple.iter(), tuple.len(), depth);
    }
    let items = if obj.cast::<PySequence>().is_ok() {
        obj.clone()
    } else if obj.hasattr("tolist")? && obj.hasattr("shape")? {
        let plain = obj.call_method0("tolist")?;
        if !plain.is_instance_of::<PyList>() {
            return to_item(&plain, depth);
        }
        plain
    } else if obj.hasattr("__index__")? {
        return Ok(int_item(&obj.call_method0("__index__")?));
    } else {
        return Ok(Item::Other(type_name(obj)));
    };
    if depth >= MAX_DEPTH {
        return Ok(Item::Seq(Vec::new()));
    }
    items
        .try_iter()?
        .map(|item| to_item(&item?, depth + 1))
        .collect::<PyResult<Vec<_>>>()
        .map(Item::Seq)
}

/// The [`Item`] of a list or tuple's `len` items.
fn sequence_item<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    depth: usize,
) -> PyResult<Item<'static>> {
    if depth >= MAX_DEPTH {
        return Ok(Item::Seq(Vec::new()));
    }
    let mut converted = Vec::with_capacity(len);
    for item in items {
        converted.push(to_item(&item, depth + 1)?);
    }
    Ok(Item::Seq(converted))
}

fn solution_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static SOLUTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    SOLUTION.import(py, "perfectplay._types", "Solution")
}

/// Builds a `perfectplay.Solution`; `to_move` turns a core move into its Python form.
fn to_solution<'py, M, P>(
    py: Python<'py>,
    solution: Solution<M>,
    to_move: impl Fn(&M) -> P,
) -> PyResult<Bound<'py, PyAny>>
where
    P: IntoPyObject<'py>,
{
    let best_moves = PyTuple::new(py, solution.best_moves.iter().map(&to_move))?;
    let line = PyTuple::new(py, solution.line.iter().map(&to_move))?;
    solution_type(py)?.call1((
        solution.value,
        solution.winner,
        solution.plies,
        best_moves,
        line,
        solution.nodes,
    ))
}

// ---------------------------------------------------------------- tic-tac-toe

/// The table code of a board argument; a str takes the one-pass path.
fn tictactoe_code(board: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(text) = board.cast::<PyString>() {
        return match text.to_str() {
            Ok(text) => tictactoe::code_of_text(text),
            Err(_) => tictactoe::code_of(&Item::Text(text.to_string_lossy())),
        }
        .map_err(err);
    }
    tictactoe::code_of(&to_item(board, 0)?).map_err(err)
}

#[pyfunction]
pub fn tictactoe_value(board: &Bound<'_, PyAny>) -> PyResult<i8> {
    tictactoe::table()
        .value(tictactoe_code(board)?)
        .map_err(err)
}

#[pyfunction]
pub fn tictactoe_outcome(board: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    Ok(
        match tictactoe::table()
            .outcome(tictactoe_code(board)?)
            .map_err(err)?
        {
            Outcome::X => "x",
            Outcome::O => "o",
            Outcome::Draw => "draw",
        },
    )
}

#[pyfunction]
pub fn tictactoe_solve<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let solution = tictactoe::table()
        .solve(tictactoe_code(board)?)
        .map_err(err)?;
    to_solution(py, solution, |&cell| cell)
}

#[pyfunction]
pub fn tictactoe_best_move(board: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    tictactoe::table()
        .best_move(tictactoe_code(board)?)
        .map_err(err)
}

#[pyfunction]
pub fn tictactoe_analyze<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let moves = tictactoe::table()
        .analyze(tictactoe_code(board)?)
        .map_err(err)?;
    let result = PyDict::new(py);
    for (cell, value, plies) in moves {
        result.set_item(cell, (value, plies))?;
    }
    Ok(result)
}

#[pyfunction]
pub fn tictactoe_to_move(board: &Bound<'_, PyAny>) -> PyResult<Option<char>> {
    tictactoe::table()
        .to_move(tictactoe_code(board)?)
        .map_err(err)
}

#[pyfunction]
pub fn tictactoe_is_reachable(board: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tictactoe::table().is_reachable(tictactoe_code(board)?))
}

#[pyfunction]
pub fn tictactoe_is_valid_final(board: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tictactoe::table().is_valid_final(tictactoe_code(board)?))
}

/// Looks up every row of a batch in `per_code` (`Table::value` or `Table::best_move`).
fn tictactoe_batch<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    per_code: fn(&tictactoe::Table) -> &[i8],
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let table = tictactoe::table();
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        return batch_array(py, array, per_code(table));
    }
    let is_sequence = boards.is_instance_of::<PyList>()
        || boards.is_instance_of::<PyTuple>()
        || (boards.cast::<PySequence>().is_ok() && !boards.is_instance_of::<PyString>());
    let is_bytes = boards.is_instance_of::<PyBytes>()
        || boards.is_instance_of::<PyByteArray>()
        || boards.is_instance_of::<PyMemoryView>();
    if !is_sequence || is_bytes {
        return Err(PyTypeError::new_err(format!(
            "boards must be a numpy integer array or a sequence of boards, not {}",
            type_name(boards)
        )));
    }
    let mut out = Vec::with_capacity(boards.len().unwrap_or(0));
    for (row, board) in boards.try_iter()?.enumerate() {
        let code = tictactoe_code(&board?).map_err(|e| with_row(py, e, row))?;
        let answer = per_code(table)[code];
        if answer == tictactoe::NOT_LEGAL {
            return Err(with_row(py, err(tictactoe::illegal_reason(code)), row));
        }
        out.push(answer);
    }
    Ok(PyArray1::from_vec(py, out))
}

/// Prefixes an exception's message with the batch row it concerns, keeping its class.
fn with_row(py: Python<'_>, error: PyErr, row: usize) -> PyErr {
    let message = format!("row {row}: {}", error.value(py));
    let class = error.get_type(py);
    match class.call1((message,)) {
        Ok(instance) => PyErr::from_value(instance),
        Err(_) => error,
    }
}

/// Rows of a numpy integer array of shape (N, 9) or (N, 3, 3), read in place without the GIL.
fn batch_array<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyUntypedArray>,
    per_code: &[i8],
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let shape = array.shape().to_vec();
    let rows = match shape.as_slice() {
        [rows, 9] | [rows, 3, 3] => *rows,
        _ => {
            return Err(PyValueError::new_err(format!(
                "boards must have shape (N, 9) or (N, 3, 3), got {shape:?}"
            )));
        }
    };
    macro_rules! try_dtype {
        ($($t:ty),*) => {$(
            if let Ok(typed) = array.cast::<PyArrayDyn<$t>>() {
                return lookup_typed(py, typed, rows, per_code, tictactoe::lookup_rows);
            }
        )*};
    }
    if let Ok(typed) = array.cast::<PyArrayDyn<u8>>() {
        return lookup_typed(py, typed, rows, per_code, tictactoe::lookup_rows_u8);
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
    lookup: tictactoe::LookupRows<T>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    // A non-contiguous view is copied once into C order.
    let contiguous;
    let array = if array.is_c_contiguous() {
        array
    } else {
        contiguous = numpy::get_array_module(py)?
            .getattr("ascontiguousarray")?
            .call1((array,))?
            .cast_into::<PyArrayDyn<T>>()?;
        &contiguous
    };
    let readonly = array.readonly();
    let cells = readonly
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut out = vec![0i8; rows];
    py.detach(|| lookup(cells, per_code, &mut out))
        .map_err(|bad| with_row(py, err(bad.error), bad.row))?;
    Ok(PyArray1::from_vec(py, out))
}

/// For benchmarks: builds a fresh tic-tac-toe table (as the first query does) and returns its
/// number of legal positions.
#[pyfunction]
pub fn build_tictactoe_table() -> usize {
    let table = tictactoe::build_table();
    (0..tictactoe::CODES)
        .filter(|&code| table.is_reachable(code))
        .count()
}

#[pyfunction]
pub fn tictactoe_batch_values<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    tictactoe_batch(py, boards, |table| &table.value)
}

#[pyfunction]
pub fn tictactoe_batch_best_move<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    tictactoe_batch(py, boards, |table| &table.best_move)
}

// ---------------------------------------------------------------- footholds

/// The board and the two locations of a footholds call, checked in that order.
fn footholds_args(
    board: &Bound<'_, PyAny>,
    aloc: &Bound<'_, PyAny>,
    bloc: &Bound<'_, PyAny>,
) -> PyResult<(footholds::Board, u8, u8)> {
    let board = footholds::parse_board(&to_item(board, 0)?).map_err(err)?;
    let a = footholds::parse_location(&to_item(aloc, 0)?, "aloc", &board).map_err(err)?;
    let b = footholds::parse_location(&to_item(bloc, 0)?, "bloc", &board).map_err(err)?;
    Ok((board, a, b))
}

/// Solves a disappearing-footholds game with A at ``aloc`` and B at ``bloc``, A to move.
#[pyfunction]
#[pyo3(signature = (board, aloc, bloc, *, node_limit=None))]
pub fn footholds_solve<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    aloc: &Bound<'py, PyAny>,
    bloc: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (board, a, b) = footholds_args(board, aloc, bloc)?;
    let limit = parse_node_limit(node_limit)?;
    let solution = search_detached(py, limit, |budget| {
        footholds_search::solve(&board, a, b, budget).map_err(Error::from)
    })?;
    to_solution(py, solution, |&cell| board.row_col(cell))
}

/// The judge's answer: the total number of moves under perfect play.
#[pyfunction]
#[pyo3(signature = (board, aloc, bloc, *, node_limit=None))]
pub fn footholds_total_moves<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    aloc: &Bound<'py, PyAny>,
    bloc: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<u32> {
    let (board, a, b) = footholds_args(board, aloc, bloc)?;
    let limit = parse_node_limit(node_limit)?;
    search_detached(py, limit, |budget| {
        footholds_search::total_moves(&board, a, b, budget).map_err(Error::from)
    })
}

/// (value, plies, best moves as (row, col)) from a plain reference search.
type PlainAnswer = (i8, u32, Vec<(usize, usize)>);

/// For tests and benchmarks: plain judge-style backtracking (no memo, no pruning), returning
/// ``(value, plies, best_moves)`` from A's side.
#[pyfunction]
#[pyo3(signature = (board, aloc, bloc, *, node_limit=None))]
pub fn backtrack_footholds<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    aloc: &Bound<'py, PyAny>,
    bloc: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<PlainAnswer> {
    let (board, a, b) = footholds_args(board, aloc, bloc)?;
    let limit = parse_node_limit(node_limit)?;
    let result = search_detached(py, limit, |budget| {
        footholds_plain::backtrack(&board, a, b, budget).map_err(Error::from)
    })?;
    let value = if result.a_wins { 1 } else { -1 };
    Ok((value, result.moves, result.best_moves))
}

// ---------------------------------------------------------------- m,n,k

/// Checks a `k` argument: an int (not a bool).
fn parse_k(k: &Bound<'_, PyAny>) -> PyResult<usize> {
    if k.is_instance_of::<PyBool>() || !k.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "k must be an int, not {}",
            type_name(k)
        )));
    }
    // Out of range, Geometry::new names the bounds.
    Ok(k.extract::<i64>()
        .map_or(0, |k| usize::try_from(k).unwrap_or(0)))
}

/// Checks a `table_mb=` argument: None (sized to the board) or a positive number of MiB.
fn parse_table_bytes(table_mb: Option<&Bound<'_, PyAny>>, cells: usize) -> PyResult<usize> {
    let Some(table_mb) = table_mb.filter(|t| !t.is_none()) else {
        return Ok(mnk_search::default_table_bytes(cells));
    };
    if table_mb.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(
            "table_mb must be a number of MiB, not bool",
        ));
    }
    let megabytes: f64 = table_mb.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "table_mb must be a number of MiB, not {}",
            type_name(table_mb)
        ))
    })?;
    if !(megabytes > 0.0 && megabytes <= 65536.0) {
        return Err(PyValueError::new_err(format!(
            "table_mb must be more than 0 and at most 65536, got {table_mb}"
        )));
    }
    Ok((megabytes * (1 << 20) as f64) as usize)
}

/// The checked query of an m,n,k call: board, k, node limit and table size.
fn mnk_args(
    board: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    node_limit: Option<&Bound<'_, PyAny>>,
    table_mb: Option<&Bound<'_, PyAny>>,
) -> PyResult<(mnk_search::Query, Option<u64>, usize)> {
    let grid = board_input::read_mark_grid(&to_item(board, 0)?).map_err(err)?;
    let query = mnk_search::Query::new(&grid, parse_k(k)?).map_err(err)?;
    let limit = parse_node_limit(node_limit)?;
    let bytes = parse_table_bytes(table_mb, grid.rows * grid.cols)?;
    Ok((query, limit, bytes))
}

fn row_col(query: &mnk_search::Query, cell: u8) -> (usize, usize) {
    let cols = query.engine.geometry.cols;
    (cell as usize / cols, cell as usize % cols)
}

/// Solves a checked m,n,k query without the GIL; moves come back as (row, col).
fn solve_query<'py>(
    py: Python<'py>,
    query: &mnk_search::Query,
    limit: Option<u64>,
    bytes: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let solution = search_detached(py, limit, |budget| {
        query.solve(bytes, budget).map_err(Error::from)
    })?;
    to_solution(py, solution, |&cell| row_col(query, cell))
}

/// Solves an m,n,k position: ``k`` in a row wins; X moves first.
#[pyfunction]
#[pyo3(signature = (board, k, *, node_limit=None, table_mb=None))]
pub fn mnk_solve<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (query, limit, bytes) = mnk_args(board, k, node_limit, table_mb)?;
    solve_query(py, &query, limit, bytes)
}

/// Solves the empty ``rows`` x ``cols`` board where ``k`` in a row wins.
#[pyfunction]
#[pyo3(signature = (rows, cols, k, *, node_limit=None, table_mb=None))]
pub fn mnk_solve_empty<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    cols: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut sides = [0usize; 2];
    for (side, (name, value)) in sides.iter_mut().zip([("rows", rows), ("cols", cols)]) {
        if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "{name} must be an int, not {}",
                type_name(value)
            )));
        }
        *side = match value.extract::<i64>() {
            Ok(n) if n >= 1 => n as usize,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "{name} must be at least 1, got {value}"
                )));
            }
        };
    }
    let [rows, cols] = sides;
    if rows * cols > board_input::MAX_CELLS {
        return Err(err(Error::Malformed(format!(
            "board has {} cells; at most 64 are supported",
            rows * cols
        ))));
    }
    let grid = board_input::Grid {
        rows,
        cols,
        cells: vec![board_input::EMPTY; rows * cols],
    };
    let query = mnk_search::Query::new(&grid, parse_k(k)?).map_err(err)?;
    let limit = parse_node_limit(node_limit)?;
    let bytes = parse_table_bytes(table_mb, rows * cols)?;
    solve_query(py, &query, limit, bytes)
}

/// {(row, col): (value for the player making the move, plies from now with it)} for every move.
#[pyfunction]
#[pyo3(signature = (board, k, *, node_limit=None, table_mb=None))]
pub fn mnk_analyze<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (query, limit, bytes) = mnk_args(board, k, node_limit, table_mb)?;
    let moves = search_detached(py, limit, |budget| {
        query.analyze(bytes, budget).map_err(Error::from)
    })?;
    let result = PyDict::new(py);
    for (cell, value, plies) in moves {
        result.set_item(row_col(&query, cell), (value, plies))?;
    }
    Ok(result)
}

/// The first best move as (row, col), or None once the game is over.
#[pyfunction]
#[pyo3(signature = (board, k, *, node_limit=None, table_mb=None))]
pub fn mnk_best_move<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<(usize, usize)>> {
    let (query, limit, bytes) = mnk_args(board, k, node_limit, table_mb)?;
    let best = search_detached(py, limit, |budget| {
        query.best_move(bytes, budget).map_err(Error::from)
    })?;
    Ok(best.map(|cell| row_col(&query, cell)))
}

/// Can the board arise in play? Raises only for malformed input.
#[pyfunction]
pub fn mnk_is_reachable(board: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<bool> {
    let grid = board_input::read_mark_grid(&to_item(board, 0)?).map_err(err)?;
    let engine = mnk_search::engine(grid.rows, grid.cols, parse_k(k)?).map_err(err)?;
    Ok(mnk::Board::from_marks(&grid.cells)
        .status(&engine.geometry)
        .is_ok())
}

/// For tests: the plain exhaustive search (no pruning), as ``(value, plies, best_moves)``.
#[pyfunction]
pub fn exhaustive_mnk(board: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<PlainAnswer> {
    let grid = board_input::read_mark_grid(&to_item(board, 0)?).map_err(err)?;
    let query = mnk_search::Query::new(&grid, parse_k(k)?).map_err(err)?;
    let (value, plies, best) = mnk::exhaustive_solve(&query.engine.geometry, query.board);
    let best = best.into_iter().map(|cell| row_col(&query, cell)).collect();
    Ok((value, plies, best))
}

/// Runs a search without the GIL, polling for signals when on the main thread; a pending
/// exception (KeyboardInterrupt) stops the search and is raised.
fn search_detached<T: Send>(
    py: Python<'_>,
    node_limit: Option<u64>,
    search: impl FnOnce(&mut Budget) -> crate::error::Result<T> + Send,
) -> PyResult<T> {
    let main_thread = is_main_thread(py)?;
    let mut interrupt: Option<PyErr> = None;
    let result = py.detach(|| {
        let mut poll = || {
            main_thread
                && Python::attach(|py| match py.check_signals() {
                    Ok(()) => false,
                    Err(pending) => {
                        interrupt = Some(pending);
                        true
                    }
                })
        };
        let mut budget = Budget::new(node_limit, &mut poll);
        search(&mut budget)
    });
    result.map_err(|error| to_py_err(error, interrupt))
}

/// Signals are only delivered to the main thread, so only there is polling worth its cost.
fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    let current = threading.call_method0("current_thread")?;
    let main = threading.call_method0("main_thread")?;
    Ok(current.is(&main))
}

/// Checks a `node_limit=` argument: None or a positive int.
fn parse_node_limit(limit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(limit) = limit.filter(|l| !l.is_none()) else {
        return Ok(None);
    };
    if limit.is_instance_of::<PyBool>() || !limit.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "node_limit must be an int or None, not {}",
            type_name(limit)
        )));
    }
    if limit.lt(1)? {
        return Err(PyValueError::new_err(format!(
            "node_limit must be positive, got {limit}"
        )));
    }
    // Beyond u64 there is no limit left to enforce.
    Ok(Some(limit.extract::<u64>().unwrap_or(u64::MAX)))
}
