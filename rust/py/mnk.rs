//! `perfectplay._core.mnk`: moves are (row, col).

use crate::engine::random::play;
use crate::games::mnk::{self as game, Board, Query, TableUse, search};
use crate::input::grid::Grid;
use crate::py::batch::{detached, random_rows, rows_arg, shaped, solve_batch};
use crate::py::convert::{
    Names, err, row_col_names, search_detached, to_analysis, to_item, to_solution,
};
use crate::py::options::{Options, int_arg};
use pyo3::prelude::*;
use pyo3::types::PyDict;

register_functions!(
    solve,
    solve_empty,
    analyze,
    best_move,
    is_reachable,
    batch_solve,
    random_positions
);

fn names(cols: usize) -> Names<impl Fn(u8) -> (usize, usize)> {
    row_col_names(["x", "o"], cols)
}

/// The options of a function of one board.
const BOARD: &[&str] = &["node_limit", "table_mb", "tablebase"];

/// A checked query with its node limit and table size.
struct Call {
    query: Query,
    node_limit: Option<u64>,
    table_bytes: usize,
}

impl Call {
    fn new(grid: Grid<u8>, k: &Bound<'_, PyAny>, options: &Options<'_>) -> PyResult<Call> {
        let query = Query::new(&grid, int_arg(k, "k")?).map_err(err)?;
        let table_bytes = options
            .table_bytes
            .unwrap_or_else(|| search::default_table_bytes(grid.rows * grid.cols));
        Ok(Call {
            query,
            node_limit: options.node_limit,
            table_bytes,
        })
    }

    fn solve<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let solution = search_detached(py, self.node_limit, |budget| {
            self.query.solve(TableUse::Kept(self.table_bytes), budget)
        })?;
        to_solution(py, solution, &names(self.query.cols()))
    }
}

/// A given `tablebase=` (a `perfectplay.mnk.tablebase.Tablebase`, the same Python method on
/// both backends) answers by its method `name`.
fn by_tablebase<'py>(
    options: &Options<'py>,
    name: &str,
    arguments: impl pyo3::call::PyCallArgs<'py>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    options
        .tablebase()
        .map(|table| table.call_method1(name, arguments))
        .transpose()
}

/// The search's call of a board.
fn call_of(
    board: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    options: &Options<'_>,
) -> PyResult<Call> {
    Call::new(
        game::parse_board(&to_item(board)?).map_err(err)?,
        k,
        options,
    )
}

binding! {
    /// Solves an m,n,k position: ``k`` in a row wins; X moves first.
    fn solve(py, board: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>; options = BOARD) -> Bound<'py, PyAny> {
        if let Some(answer) = by_tablebase(&options, "solve", (board, k))? {
            return Ok(answer);
        }
        call_of(board, k, &options)?.solve(py)
    }
}

binding! {
    /// Solves the empty ``rows`` x ``cols`` board where ``k`` in a row wins.
    fn solve_empty(
        py, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>;
        options = BOARD
    ) -> Bound<'py, PyAny> {
        if let Some(answer) = by_tablebase(&options, "solve_empty", (rows, cols, k))? {
            return Ok(answer);
        }
        let grid = game::empty_board(int_arg(rows, "rows")?, int_arg(cols, "cols")?).map_err(err)?;
        Call::new(grid, k, &options)?.solve(py)
    }
}

binding! {
    /// {(row, col): (value for the player making the move, plies from now with it)} for every
    /// move.
    fn analyze(py, board: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>; options = BOARD) -> Bound<'py, PyAny> {
        if let Some(answer) = by_tablebase(&options, "analyze", (board, k))? {
            return Ok(answer);
        }
        let call = call_of(board, k, &options)?;
        let answers = search_detached(py, call.node_limit, |budget| {
            call.query.analyze(TableUse::Kept(call.table_bytes), budget)
        })?;
        Ok(to_analysis(py, answers, &names(call.query.cols()))?.into_any())
    }
}

binding! {
    /// The first best move as (row, col), or None once the game is over.
    fn best_move(
        py, board: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>; options = BOARD
    ) -> Option<(usize, usize)> {
        if let Some(answer) = by_tablebase(&options, "best_move", (board, k))? {
            return answer.extract();
        }
        let call = call_of(board, k, &options)?;
        let best = search_detached(py, call.node_limit, |budget| {
            call.query.best_move(TableUse::Kept(call.table_bytes), budget)
        })?;
        Ok(best.map(names(call.query.cols()).to_move))
    }
}

/// Can the board arise in play? Raises only for malformed input.
#[pyfunction]
fn is_reachable(board: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<bool> {
    let grid = game::parse_board(&to_item(board)?).map_err(err)?;
    game::is_reachable(&grid, int_arg(k, "k")?).map_err(err)
}

binding! {
    /// Solves many positions of one board shape and one k, on every core; see
    /// `perfectplay.BatchSolution`. A given `tablebase=` answers instead (given the options its
    /// `batch_solve` takes).
    fn batch_solve(py, boards: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>; options = BATCH) -> Bound<'py, PyAny> {
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
        let rows = &boards.rows;
        let (parsed, shape) = detached(py, false, "", |monitor| game::parse_batch(rows, k, monitor))?;
        let moves = options.moves;
        let Some((engine, rows, cols)) = shape else {
            // No board could be read: every row is bad.
            return solve_batch(
                py,
                parsed,
                0,
                &options,
                "",
                || Ok(()),
                |(), _: &Board, _| unreachable!("no row to solve"),
                |_| 0,
            );
        };
        let table_bytes = options
            .table_bytes
            .unwrap_or_else(|| search::default_batch_table_bytes(rows * cols));
        let what = format!("{rows}x{cols} k={k}");
        solve_batch(
            py,
            parsed,
            rows * cols,
            &options,
            &what,
            || search::batch_table(&engine, table_bytes),
            |table, board, budget| {
                let query = Query {
                    engine: engine.clone(),
                    board: *board,
                };
                query.label(TableUse::Own(table), budget, moves)
            },
            |board| (rows * cols) as u32 - (board.x | board.o).count_ones(),
        )
    }
}

/// `batch_solve`'s options.
const BATCH: &[&str] = &[
    "moves",
    "threads",
    "node_limit",
    "table_mb",
    "errors",
    "progress",
    "tablebase",
];

binding! {
    /// ``n`` positions of the ``rows`` x ``cols`` game by uniformly random play from the empty
    /// board, ``(n, rows, cols)`` uint8 codes; see ``perfectplay.mnk.random_positions``.
    fn random_positions(
        py, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>,
        n: &Bound<'py, PyAny>; options = RANDOM
    ) -> Bound<'py, PyAny> {
        let grid = game::empty_board(int_arg(rows, "rows")?, int_arg(cols, "cols")?).map_err(err)?;
        let engine = search::engine(grid.rows, grid.cols, int_arg(k, "k")?).map_err(err)?;
        random_marks(py, &engine.geometry, n, &options)
    }
}

/// `random_positions`' options (tic-tac-toe's too).
pub const RANDOM: &[&str] = &["seed", "plies", "threads"];

/// Random positions of an m,n,k geometry (tic-tac-toe's too) as ``(n, rows, cols)`` codes.
pub fn random_marks<'py>(
    py: Python<'py>,
    geometry: &game::Geometry,
    n: &Bound<'py, PyAny>,
    options: &Options<'_>,
) -> PyResult<Bound<'py, PyAny>> {
    let cells = geometry.cells();
    let out = random_rows(
        py,
        n,
        options,
        cells as u32,
        cells,
        |random, plies, codes| {
            let board = play(geometry, &Board { x: 0, o: 0 }, plies, random);
            for (cell, code) in codes.iter_mut().enumerate() {
                *code = (board.x >> cell & 1) as u8 + 2 * (board.o >> cell & 1) as u8;
            }
        },
    )?;
    shaped(py, out.rows, &[out.count, geometry.rows, geometry.cols])
}
