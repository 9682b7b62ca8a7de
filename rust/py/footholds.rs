//! `perfectplay._core.footholds`: moves are (row, col) destinations, answers from A's side.

use crate::games::footholds::{self as game, Board, search};
use crate::py::convert::{
    Names, err, node_limit_arg, search_detached, to_analysis, to_item, to_solution,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(total_moves, module)?)?;
    module.add_function(wrap_pyfunction!(analyze, module)?)?;
    Ok(())
}

fn names(cols: usize) -> Names<impl Fn(u8) -> (usize, usize)> {
    Names {
        players: ["A", "B"],
        to_move: move |cell: u8| (cell as usize / cols, cell as usize % cols),
    }
}

/// The board, the two locations and the node limit of a call, checked in that order.
pub struct Call {
    pub board: Board,
    pub a: u8,
    pub b: u8,
    pub node_limit: Option<u64>,
}

impl Call {
    pub fn new(
        board: &Bound<'_, PyAny>,
        aloc: &Bound<'_, PyAny>,
        bloc: &Bound<'_, PyAny>,
        node_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Call> {
        let board = game::parse_board(&to_item(board)?).map_err(err)?;
        let a = game::parse_location(&to_item(aloc)?, "aloc", &board).map_err(err)?;
        let b = game::parse_location(&to_item(bloc)?, "bloc", &board).map_err(err)?;
        let node_limit = node_limit_arg(node_limit)?;
        Ok(Call {
            board,
            a,
            b,
            node_limit,
        })
    }
}

/// Solves a disappearing-footholds game with A at ``aloc`` and B at ``bloc``, A to move.
#[pyfunction]
#[pyo3(signature = (board, aloc, bloc, *, node_limit=None))]
fn solve<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    aloc: &Bound<'py, PyAny>,
    bloc: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let call = Call::new(board, aloc, bloc, node_limit)?;
    let solution = search_detached(py, call.node_limit, |budget| {
        search::solve(&call.board, call.a, call.b, budget)
    })?;
    to_solution(py, solution, &names(call.board.cols))
}

/// The judge's answer: the total number of moves under perfect play.
#[pyfunction]
#[pyo3(signature = (board, aloc, bloc, *, node_limit=None))]
fn total_moves<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    aloc: &Bound<'py, PyAny>,
    bloc: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<u32> {
    let call = Call::new(board, aloc, bloc, node_limit)?;
    search_detached(py, call.node_limit, |budget| {
        search::total_moves(&call.board, call.a, call.b, budget)
    })
}

/// {(row, col): (value for A, plies from now with that move)} for each of A's first moves.
#[pyfunction]
#[pyo3(signature = (board, aloc, bloc, *, node_limit=None))]
fn analyze<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    aloc: &Bound<'py, PyAny>,
    bloc: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let call = Call::new(board, aloc, bloc, node_limit)?;
    let answers = search_detached(py, call.node_limit, |budget| {
        search::analyze(&call.board, call.a, call.b, budget)
    })?;
    to_analysis(py, answers, &names(call.board.cols))
}
