//! `perfectplay._core.mnk`: moves are (row, col).

use crate::games::mnk::{self as game, Query, search};
use crate::input::grid::Grid;
use crate::py::convert::{
    Names, err, int_arg, node_limit_arg, search_detached, table_mb_arg, to_analysis, to_item,
    to_solution,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(solve_empty, module)?)?;
    module.add_function(wrap_pyfunction!(analyze, module)?)?;
    module.add_function(wrap_pyfunction!(best_move, module)?)?;
    module.add_function(wrap_pyfunction!(is_reachable, module)?)?;
    Ok(())
}

fn names(cols: usize) -> Names<impl Fn(u8) -> (usize, usize)> {
    Names {
        players: ["x", "o"],
        to_move: move |cell: u8| (cell as usize / cols, cell as usize % cols),
    }
}

/// A checked query with its node limit and table size, in the order the twin checks them.
struct Call {
    query: Query,
    node_limit: Option<u64>,
    table_bytes: usize,
}

impl Call {
    fn new(
        grid: Grid<u8>,
        k: &Bound<'_, PyAny>,
        node_limit: Option<&Bound<'_, PyAny>>,
        table_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Call> {
        let query = Query::new(&grid, int_arg(k, "k")?).map_err(err)?;
        let node_limit = node_limit_arg(node_limit)?;
        let table_bytes = table_mb_arg(table_mb)?
            .unwrap_or_else(|| search::default_table_bytes(grid.rows * grid.cols));
        Ok(Call {
            query,
            node_limit,
            table_bytes,
        })
    }

    fn of_board(
        board: &Bound<'_, PyAny>,
        k: &Bound<'_, PyAny>,
        node_limit: Option<&Bound<'_, PyAny>>,
        table_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Call> {
        let grid = game::parse_board(&to_item(board)?).map_err(err)?;
        Call::new(grid, k, node_limit, table_mb)
    }

    fn solve<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let solution = search_detached(py, self.node_limit, |budget| {
            self.query.solve(self.table_bytes, budget)
        })?;
        to_solution(py, solution, &names(self.query.cols()))
    }
}

/// Solves an m,n,k position: ``k`` in a row wins; X moves first.
#[pyfunction]
#[pyo3(signature = (board, k, *, node_limit=None, table_mb=None))]
fn solve<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    Call::of_board(board, k, node_limit, table_mb)?.solve(py)
}

/// Solves the empty ``rows`` x ``cols`` board where ``k`` in a row wins.
#[pyfunction]
#[pyo3(signature = (rows, cols, k, *, node_limit=None, table_mb=None))]
fn solve_empty<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    cols: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (rows, cols) = (int_arg(rows, "rows")?, int_arg(cols, "cols")?);
    let grid = game::empty_board(rows, cols).map_err(err)?;
    Call::new(grid, k, node_limit, table_mb)?.solve(py)
}

/// {(row, col): (value for the player making the move, plies from now with it)} for every move.
#[pyfunction]
#[pyo3(signature = (board, k, *, node_limit=None, table_mb=None))]
fn analyze<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let call = Call::of_board(board, k, node_limit, table_mb)?;
    let answers = search_detached(py, call.node_limit, |budget| {
        call.query.analyze(call.table_bytes, budget)
    })?;
    to_analysis(py, answers, &names(call.query.cols()))
}

/// The first best move as (row, col), or None once the game is over.
#[pyfunction]
#[pyo3(signature = (board, k, *, node_limit=None, table_mb=None))]
fn best_move<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<(usize, usize)>> {
    let call = Call::of_board(board, k, node_limit, table_mb)?;
    let best = search_detached(py, call.node_limit, |budget| {
        call.query.best_move(call.table_bytes, budget)
    })?;
    Ok(best.map(names(call.query.cols()).to_move))
}

/// Can the board arise in play? Raises only for malformed input.
#[pyfunction]
fn is_reachable(board: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<bool> {
    let grid = game::parse_board(&to_item(board)?).map_err(err)?;
    game::is_reachable(&grid, int_arg(k, "k")?).map_err(err)
}
