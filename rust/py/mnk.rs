//! `perfectplay._core.mnk`: moves are (row, col).

use crate::engine::budget::Budget;
use crate::engine::error::Result as CoreResult;
use crate::games::mnk::call::{self, BATCH, BOARD, Call, RANDOM};
use crate::games::mnk::{self as game, Geometry};
use crate::py::batch::{labelled, released, rows_arg, shaped};
use crate::py::convert::{Names, search_detached, to_item};
use crate::py::options::{Options, int_arg, to_scalar};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The answer to `name` of the game `arguments` (a board and k, or an empty board's rows, cols
/// and k): a given `tablebase=`'s method `name` (a `perfectplay.mnk.tablebase.Tablebase`, the
/// same Python method on both backends), or `work` on the game's call without the GIL, shown
/// by `show`.
fn answer<'py, T: Send>(
    py: Python<'py>,
    name: &str,
    arguments: &[&Bound<'py, PyAny>],
    options: &Options<'py>,
    work: impl FnOnce(&Call, &mut Budget) -> CoreResult<T> + Send,
    show: impl FnOnce(Names, T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(table) = options.tablebase() {
        return table.call_method1(name, pyo3::types::PyTuple::new(py, arguments)?);
    }
    let call = match arguments {
        [board, k] => Call::of_board(&to_item(board)?, &to_scalar(k)?, options),
        [rows, cols, k] => Call::of_empty(
            &to_scalar(rows)?,
            &to_scalar(cols)?,
            &to_scalar(k)?,
            options,
        ),
        _ => unreachable!("a board and k, or rows, cols and k"),
    };
    let call = call?;
    let answer = search_detached(py, call.node_limit, |budget| work(&call, budget))?;
    show(Names::grid(["x", "o"], call.cols()), answer)
}

bindings! {
    /// Solves an m,n,k position: ``k`` in a row wins; X moves first.
    fn solve(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        answer(py, "solve", &[board, k], &options, Call::solve, |names, solved| {
            names.solution(py, solved)
        })
    }

    /// Solves the empty ``rows`` x ``cols`` board where ``k`` in a row wins.
    fn solve_empty(py, rows, cols, k; options = BOARD) -> Bound<'py, PyAny> {
        answer(py, "solve_empty", &[rows, cols, k], &options, Call::solve, |names, solved| {
            names.solution(py, solved)
        })
    }

    /// {(row, col): (value for the player making the move, plies from now with it)} for every
    /// move.
    fn analyze(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        answer(py, "analyze", &[board, k], &options, Call::analyze, |names, answers| {
            names.analysis(py, answers)
        })
    }

    /// The first best move as (row, col), or None once the game is over.
    fn best_move(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        answer(py, "best_move", &[board, k], &options, Call::best_move, |names, best| match best {
            Some(cell) => names.show(py, cell),
            None => Ok(py.None().into_bound(py)),
        })
    }

    /// Can the board arise in play? Raises only for malformed input.
    fn is_reachable(_py, board, k) -> bool {
        let grid = game::parse_board(&to_item(board)?)?;
        game::is_reachable(&grid, int_arg(k, "k")?).map_err(PyErr::from)
    }

    /// Solves many positions of one board shape and one k, on every core; see
    /// `perfectplay.BatchSolution`. A given `tablebase=` answers instead (given the options its
    /// `batch_solve` takes).
    fn batch_solve(py, boards, k; options = BATCH) -> Bound<'py, PyAny> {
        if let Some(table) = options.tablebase() {
            let passed = PyDict::new(py);
            passed.set_item("k", k)?;
            for name in ["moves", "errors", "threads", "progress"] {
                if let Some(value) = options.given(name) {
                    passed.set_item(name, value)?;
                }
            }
            return table.call_method("batch_solve", (boards,), Some(&passed));
        }
        let k = int_arg(k, "k")?;
        let boards = rows_arg(boards, &[3], "(N, rows, cols)", "boards")?;
        let (rows, checked) = (&boards.rows, &options.checked);
        let (parsed, shape) = released(py, |monitor| game::parse_batch(rows, k, monitor))?;
        let what = shape.as_ref().map(|(_, rows, cols)| format!("{rows}x{cols} k={k}"));
        let what = what.unwrap_or_default();
        labelled(py, &options, &what, parsed, |parsed, monitor| {
            call::label_rows(parsed, shape, checked, monitor)
        })
    }

    /// ``n`` positions of the ``rows`` x ``cols`` game by uniformly random play from the empty
    /// board, ``(n, rows, cols)`` uint8 codes; see ``perfectplay.mnk.random_positions``.
    fn random_positions(py, rows, cols, k, n; options = RANDOM) -> Bound<'py, PyAny> {
        let engine = call::engine_of(&to_scalar(rows)?, &to_scalar(cols)?, &to_scalar(k)?);
        random_marks(py, &engine?.geometry, n, &options)
    }
}

/// Random positions of an m,n,k geometry (tic-tac-toe's too) as ``(n, rows, cols)`` codes.
pub fn random_marks<'py>(
    py: Python<'py>,
    geometry: &Geometry,
    n: &Bound<'py, PyAny>,
    options: &Options<'_>,
) -> PyResult<Bound<'py, PyAny>> {
    let (n, checked) = (to_scalar(n)?, &options.checked);
    let (count, rows) = released(py, |monitor| {
        call::random_positions(geometry, &n, checked, monitor)
    })?;
    shaped(py, rows, &[count, geometry.rows, geometry.cols])
}
