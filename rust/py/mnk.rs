//! `perfectplay._core.mnk`: moves are (row, col).

use crate::engine::error::Error;
use crate::engine::random::play;
use crate::games::mnk::{self as game, Board, Query, TableUse, search};
use crate::input::grid::Grid;
use crate::py::arrays::Boards;
use crate::py::batch::{
    OnError, Parsed, RandomArgs, errors_arg, read_rows, sequence_items, shaped, solve_batch,
    threads_arg,
};
use crate::py::convert::{
    Names, err, int_arg, node_limit_arg, row_col_names, search_detached, table_mb_arg, to_analysis,
    to_item, to_solution,
};
use numpy::PyUntypedArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

register_functions!(
    solve,
    solve_empty,
    analyze,
    best_move,
    is_reachable,
    batch_solve,
    random_positions
);

/// `tablebase=`: a `perfectplay.mnk.tablebase.Tablebase` answers instead of the search (the same
/// Python method on both backends, so both check and answer alike).
fn given<'a, 'py>(tablebase: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    tablebase.filter(|table| !table.is_none())
}

fn names(cols: usize) -> Names<impl Fn(u8) -> (usize, usize)> {
    row_col_names(["x", "o"], cols)
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
            self.query.solve(TableUse::Kept(self.table_bytes), budget)
        })?;
        to_solution(py, solution, &names(self.query.cols()))
    }
}

/// A function of one board, `(board, k, *, node_limit=None, table_mb=None, tablebase=None)`:
/// a given tablebase answers by its method of the same name, else the arguments are checked
/// into `$call` and `$body` answers from the search.
macro_rules! board_function {
    ($(#[$doc:meta])* fn $name:ident($py:ident, $call:ident) -> $answer:ty $body:block) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (board, k, *, node_limit=None, table_mb=None, tablebase=None))]
        // `Ok(..?)`: extraction fails with a cast error for a `Bound` answer, a `PyErr` else.
        #[allow(clippy::needless_question_mark)]
        fn $name<'py>(
            $py: Python<'py>,
            board: &Bound<'py, PyAny>,
            k: &Bound<'py, PyAny>,
            node_limit: Option<&Bound<'py, PyAny>>,
            table_mb: Option<&Bound<'py, PyAny>>,
            tablebase: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<$answer> {
            if let Some(table) = given(tablebase) {
                return Ok(table.call_method1(stringify!($name), (board, k))?.extract()?);
            }
            let $call = Call::of_board(board, k, node_limit, table_mb)?;
            $body
        }
    };
}

board_function! {
    /// Solves an m,n,k position: ``k`` in a row wins; X moves first.
    fn solve(py, call) -> Bound<'py, PyAny> {
        call.solve(py)
    }
}

/// Solves the empty ``rows`` x ``cols`` board where ``k`` in a row wins.
#[pyfunction]
#[pyo3(signature = (rows, cols, k, *, node_limit=None, table_mb=None, tablebase=None))]
fn solve_empty<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    cols: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
    tablebase: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(table) = given(tablebase) {
        return table.call_method1("solve_empty", (rows, cols, k));
    }
    let (rows, cols) = (int_arg(rows, "rows")?, int_arg(cols, "cols")?);
    let grid = game::empty_board(rows, cols).map_err(err)?;
    Call::new(grid, k, node_limit, table_mb)?.solve(py)
}

board_function! {
    /// {(row, col): (value for the player making the move, plies from now with it)} for every
    /// move.
    fn analyze(py, call) -> Bound<'py, PyAny> {
        let answers = search_detached(py, call.node_limit, |budget| {
            call.query.analyze(TableUse::Kept(call.table_bytes), budget)
        })?;
        Ok(to_analysis(py, answers, &names(call.query.cols()))?.into_any())
    }
}

board_function! {
    /// The first best move as (row, col), or None once the game is over.
    fn best_move(py, call) -> Option<(usize, usize)> {
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

/// Solves many positions of one board shape and one k, on every core; see
/// `perfectplay.BatchSolution`.
#[pyfunction]
#[pyo3(signature = (boards, k, *, moves=false, threads=None, node_limit=None, table_mb=None, errors=None, progress=false, tablebase=None))]
#[allow(clippy::too_many_arguments)]
fn batch_solve<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    moves: bool,
    threads: Option<&Bound<'py, PyAny>>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
    errors: Option<&Bound<'py, PyAny>>,
    progress: bool,
    tablebase: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(table) = given(tablebase) {
        let options = PyDict::new(py);
        options.set_item("k", k)?;
        options.set_item("moves", moves)?;
        options.set_item("errors", errors)?;
        options.set_item("threads", threads)?;
        options.set_item("progress", progress)?;
        return table.call_method("batch_solve", (boards,), Some(&options));
    }
    let k = int_arg(k, "k")?;
    let node_limit = node_limit_arg(node_limit)?;
    let table_mb = table_mb_arg(table_mb)?;
    let threads = threads_arg(threads)?;
    let on_error = errors.map_or(Ok(OnError::Raise), errors_arg)?;
    let (parsed, shape) = read_boards(py, boards, k)?;
    let Some((engine, rows, cols)) = shape else {
        // No board could be read: every row is bad.
        return solve_batch(
            py,
            parsed,
            0,
            moves,
            threads,
            node_limit,
            on_error,
            progress,
            "",
            || Ok(()),
            |(), _: &Board, _| unreachable!("no row to solve"),
            |_| 0,
        );
    };
    let table_bytes = table_mb.unwrap_or_else(|| search::default_batch_table_bytes(rows * cols));
    let what = format!("{rows}x{cols} k={k}");
    solve_batch(
        py,
        parsed,
        rows * cols,
        moves,
        threads,
        node_limit,
        on_error,
        progress,
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

/// The engine of a batch's geometry, with its rows and cols.
type Shape = (Arc<search::Engine>, usize, usize);

/// The legal boards of a batch, each read once, and its shape (the array's, or the first
/// readable board's; `None` when no board could be read). An array `(N, rows, cols)` of any
/// integer dtype is read in place; a sequence holds boards in any form `solve` takes.
fn read_boards(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    k: i128,
) -> PyResult<(Parsed<Board>, Option<Shape>)> {
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        let array = Boards::new(array, false, &[3], "(N, rows, cols)", "boards")?;
        let (rows, cols) = (array.board[0], array.board[1]);
        if rows * cols == 0 {
            return Err(PyValueError::new_err("board is empty"));
        }
        let engine = search::engine(rows, cols, k).map_err(err)?;
        let geometry = &engine.geometry;
        let parsed = read_rows(py, &array.reader(), rows * cols, |cells| {
            let board = board_of_codes(cells)?;
            board.status(geometry)?;
            Ok(board)
        })?;
        return Ok((parsed, Some((engine, rows, cols))));
    }
    let items = sequence_items(boards, "boards")?;
    let mut parsed = Parsed::with_capacity(items.len())?;
    let mut shape: Option<Shape> = None;
    for board in &items {
        let grid = game::parse_board(&to_item(board)?).map_err(err);
        let row = grid.and_then(|grid| {
            let (engine, rows, cols) = match &shape {
                Some(shape) => shape,
                None => shape.insert((
                    search::engine(grid.rows, grid.cols, k).map_err(err)?,
                    grid.rows,
                    grid.cols,
                )),
            };
            if (grid.rows, grid.cols) != (*rows, *cols) {
                return Err(PyValueError::new_err(format!(
                    "board is {}x{}, not {rows}x{cols} as the batch",
                    grid.rows, grid.cols
                )));
            }
            let board = Board::from_marks(&grid.cells);
            board.status(&engine.geometry).map_err(err)?;
            Ok(board)
        });
        parsed.push(row);
    }
    Ok((parsed, shape))
}

/// The board of a row of cell codes, or why it is none.
fn board_of_codes(cells: &[i64]) -> crate::engine::error::Result<Board> {
    let mut board = Board { x: 0, o: 0 };
    for (cell, &code) in cells.iter().enumerate() {
        match code {
            0 => {}
            1 => board.x |= 1 << cell,
            2 => board.o |= 1 << cell,
            _ => {
                return Err(Error::Malformed(format!(
                    "cell value {code} is not 0, 1 or 2"
                )));
            }
        }
    }
    Ok(board)
}

/// ``n`` positions of the ``rows`` x ``cols`` game by uniformly random play from the empty
/// board, ``(n, rows, cols)`` uint8 codes; see ``perfectplay.mnk.random_positions``.
#[pyfunction]
#[pyo3(signature = (rows, cols, k, n, *, seed=None, plies=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn random_positions<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    cols: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    plies: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (rows, cols) = (int_arg(rows, "rows")?, int_arg(cols, "cols")?);
    let grid = game::empty_board(rows, cols).map_err(err)?;
    let engine = search::engine(grid.rows, grid.cols, int_arg(k, "k")?).map_err(err)?;
    random_marks(py, &engine.geometry, n, seed, plies, threads)
}

/// Random positions of an m,n,k geometry (tic-tac-toe's too) as ``(n, rows, cols)`` codes.
pub fn random_marks<'py>(
    py: Python<'py>,
    geometry: &game::Geometry,
    n: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    plies: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let cells = geometry.cells();
    let args = RandomArgs::new(n, seed, plies, cells as u32)?;
    let threads = threads_arg(threads)?;
    let out = args.fill(py, cells, threads, |random, plies, codes| {
        let board = play(geometry, &Board { x: 0, o: 0 }, plies, random);
        for (cell, code) in codes.iter_mut().enumerate() {
            *code = (board.x >> cell & 1) as u8 + 2 * (board.o >> cell & 1) as u8;
        }
    })?;
    shaped(py, out, &[args.count, geometry.rows, geometry.cols])
}
