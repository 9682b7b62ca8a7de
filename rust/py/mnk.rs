//! `perfectplay._core.mnk`: moves are (row, col).

use crate::engine::budget::{Budget, monitored};
use crate::engine::error::Result as CoreResult;
use crate::games::mnk::call::{self, BATCH, BOARD, Call, PROOF, RANDOM};
use crate::games::mnk::prover::{Node, Proof};
use crate::games::mnk::{self as game, Geometry};
use crate::py::batch::{labelled, rows_arg, shaped};
use crate::py::convert::{Names, to_item};
use crate::py::detach::{detached, released, search_detached};
use crate::py::options::{Options, int_arg, to_scalar};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// `work` on a call without the GIL, shown by `show` with the game's moves. (A given
/// `tablebase=` is answered above both backends, by `perfectplay.mnk`.)
fn answer<'py, T: Send>(
    py: Python<'py>,
    call: Call,
    work: impl FnOnce(&Call, &mut Budget) -> CoreResult<T> + Send,
    show: impl FnOnce(Names, T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let answer = search_detached(py, call.node_limit, |budget| work(&call, budget))?;
    show(Names::grid(["x", "o"], call.cols()), answer)
}

/// The call of a board and k.
fn of_board(board: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>, options: &Options) -> PyResult<Call> {
    Call::of_board(&to_item(board)?, &to_scalar(k)?, options).map_err(PyErr::from)
}

bindings! {
    twin = "mnk";

    #[pyo3(text_signature = "(board, k, *, node_limit=None, table_mb=None)")]
    fn solve(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        let call = of_board(board, k, &options)?;
        answer(py, call, Call::solve, |names, solved| names.solution(py, solved))
    }

    #[pyo3(text_signature = "(rows, cols, k, *, node_limit=None, table_mb=None)")]
    fn solve_empty(py, rows, cols, k; options = BOARD) -> Bound<'py, PyAny> {
        let (rows, cols, k) = (to_scalar(rows)?, to_scalar(cols)?, to_scalar(k)?);
        let call = Call::of_empty(&rows, &cols, &k, &options)?;
        answer(py, call, Call::solve, |names, solved| names.solution(py, solved))
    }

    #[pyo3(text_signature = "(board, k, *, node_limit=None, table_mb=None)")]
    fn analyze(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        let call = of_board(board, k, &options)?;
        answer(py, call, Call::analyze, |names, answers| names.analysis(py, answers))
    }

    #[pyo3(text_signature = "(board, k, *, node_limit=None, table_mb=None)")]
    fn ranked_moves(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        let call = of_board(board, k, &options)?;
        answer(py, call, Call::ranked_moves, |names, answers| names.ranking(py, answers))
    }

    #[pyo3(text_signature = "(board, k, *, node_limit=None, table_mb=None)")]
    fn best_move(py, board, k; options = BOARD) -> Bound<'py, PyAny> {
        let call = of_board(board, k, &options)?;
        answer(py, call, Call::best_move, |names, best| match best {
            Some(cell) => names.show(py, cell),
            None => Ok(py.None().into_bound(py)),
        })
    }

    #[pyo3(text_signature = "(board, k, *, node_limit=None, table_mb=None)")]
    fn search_value(py, board, k; options = BOARD) -> i8 {
        let call = of_board(board, k, &options)?;
        search_detached(py, call.node_limit, |budget| call.value(budget))
    }

    #[pyo3(text_signature = "(board, k, breaker_first, *, node_limit=None, table_mb=None, progress=False)")]
    fn breaker_proof(py, board, k, breaker_first: bool; options = PROOF) -> Bound<'py, PyAny> {
        let call = of_board(board, k, &options)?;
        let proof = detached(py, options.checked.progress, "proof nodes", |monitor| {
            monitored(call.node_limit, true, monitor, |budget| {
                call.breaker_proof(breaker_first, budget)
            })
        })?;
        match proof {
            None => Ok(py.None().into_bound(py)),
            Some(proof) => proof_to_python(py, proof),
        }
    }

    fn clear_tables(_py) -> () {
        game::search::free_kept_table();
        Ok(())
    }

    fn is_reachable(_py, board, k) -> bool {
        let grid = game::parse_board(&to_item(board)?)?;
        game::is_reachable(&grid, int_arg(k, "k")?).map_err(PyErr::from)
    }

    #[pyo3(text_signature = "(boards, k, *, moves=False, threads=None, node_limit=None, table_mb=None, errors='raise', progress=False)")]
    fn batch_solve(py, boards, k; options = BATCH) -> Bound<'py, PyAny> {
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

    #[pyo3(text_signature = "(rows, cols, k, n, *, seed=None, plies=None, ongoing=False, threads=None)")]
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

/// A proof as `(reply or None, root, nodes)` (see `breaker_proof`).
fn proof_to_python<'py>(py: Python<'py>, proof: Proof) -> PyResult<Bound<'py, PyAny>> {
    let nodes = PyList::empty(py);
    for node in proof.nodes {
        let shown = match node {
            Node::Pairing(pairs) => {
                // u16, not u8: pyo3 shows u8 arrays as bytes.
                let pairs: Vec<[u16; 2]> = pairs
                    .into_iter()
                    .map(|(a, b)| [u16::from(a), u16::from(b)])
                    .collect();
                ("pairs", pairs).into_bound_py_any(py)?
            }
            Node::Potential => ("potential",).into_bound_py_any(py)?,
            Node::Split(entries) => {
                let entries: Vec<[u32; 3]> = entries
                    .into_iter()
                    .map(|(cell, reply, node)| [u32::from(cell), u32::from(reply), node])
                    .collect();
                ("split", entries).into_bound_py_any(py)?
            }
            Node::Mirror(node, symmetry) => ("mirror", node, symmetry).into_bound_py_any(py)?,
            Node::Forced(cell, reply, node) => {
                ("forced", [u32::from(cell), u32::from(reply), node]).into_bound_py_any(py)?
            }
            Node::Won => ("won",).into_bound_py_any(py)?,
        };
        nodes.append(shown)?;
    }
    (proof.reply, proof.root, nodes).into_bound_py_any(py)
}
