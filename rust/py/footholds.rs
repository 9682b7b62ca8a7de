//! `perfectplay._core.footholds`: moves are (row, col) destinations, answers from A's side.

use crate::engine::budget::Budget;
use crate::engine::error::Error;
use crate::games::footholds::{self as game, Board, search};
use crate::py::arrays::Boards;
use crate::py::batch::{
    RowsArg, detached, is_array, random_rows, sequence_items, shaped, solve_batch,
};
use crate::py::convert::{
    Names, err, row_col_names, search_detached, to_analysis, to_item, to_solution,
};
use crate::py::options::Options;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

register_functions!(solve, total_moves, analyze, batch_solve, random_positions);

fn names(cols: usize) -> Names<impl Fn(u8) -> (usize, usize)> {
    row_col_names(["A", "B"], cols)
}

/// The board, the two locations and the node limit of a call.
pub struct Call {
    pub board: Board,
    pub a: u8,
    pub b: u8,
    pub node_limit: Option<u64>,
}

impl Call {
    /// The game `(board, aloc, bloc)` under the options' node limit.
    pub fn new((board, aloc, bloc): Game<'_, '_>, options: &Options<'_>) -> PyResult<Call> {
        let node_limit = options.node_limit;
        let board = game::parse_board(&to_item(board)?).map_err(err)?;
        let a = game::parse_location(&to_item(aloc)?, "aloc", &board).map_err(err)?;
        let b = game::parse_location(&to_item(bloc)?, "bloc", &board).map_err(err)?;
        Ok(Call {
            board,
            a,
            b,
            node_limit,
        })
    }

    /// `search` of the call's game under its node limit, without the GIL.
    fn search<T: Send>(
        &self,
        py: Python<'_>,
        search: fn(&Board, u8, u8, &mut Budget) -> Result<T, Error>,
    ) -> PyResult<T> {
        search_detached(py, self.node_limit, |budget| {
            search(&self.board, self.a, self.b, budget)
        })
    }
}

/// The positional arguments of a function of one game.
type Game<'a, 'py> = (
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
);

binding! {
    /// Solves a disappearing-footholds game with A at ``aloc`` and B at ``bloc``, A to move.
    fn solve(
        py, board: &Bound<'py, PyAny>, aloc: &Bound<'py, PyAny>, bloc: &Bound<'py, PyAny>;
        options = NODE_LIMIT
    ) -> Bound<'py, PyAny> {
        let call = Call::new((board, aloc, bloc), &options)?;
        let solution = call.search(py, search::solve)?;
        to_solution(py, solution, &names(call.board.cols))
    }
}

binding! {
    /// The judge's answer: the total number of moves under perfect play.
    fn total_moves(
        py, board: &Bound<'py, PyAny>, aloc: &Bound<'py, PyAny>, bloc: &Bound<'py, PyAny>;
        options = NODE_LIMIT
    ) -> u32 {
        Call::new((board, aloc, bloc), &options)?.search(py, search::total_moves)
    }
}

binding! {
    /// {(row, col): (value for A, plies from now with that move)} for each of A's first moves.
    fn analyze(
        py, board: &Bound<'py, PyAny>, aloc: &Bound<'py, PyAny>, bloc: &Bound<'py, PyAny>;
        options = NODE_LIMIT
    ) -> Bound<'py, PyDict> {
        let call = Call::new((board, aloc, bloc), &options)?;
        let answers = call.search(py, search::analyze)?;
        to_analysis(py, answers, &names(call.board.cols))
    }
}

/// The options of a function of one game.
pub const NODE_LIMIT: &[&str] = &["node_limit"];

fn is_nested(item: &Bound<'_, PyAny>) -> bool {
    is_array(item)
        || item.is_instance_of::<pyo3::types::PyString>()
        || (item.cast::<pyo3::types::PySequence>().is_ok()
            && !crate::py::convert::type_is_bytes_like(item))
}

/// Boards: an array of shape (rows, cols) or a str is one board for every row; an array of
/// shape (N, rows, cols), or a sequence of boards, one per row. A sequence whose first item is
/// a row of cells (a sequence of ints or bools) is one board.
fn boards_arg<'py>(boards: &Bound<'py, PyAny>) -> PyResult<RowsArg<'py>> {
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        if array.ndim() == 2 {
            return RowsArg::shared(boards);
        }
        let array = Boards::new(
            array,
            true,
            &[3],
            "(rows, cols) or (N, rows, cols)",
            "boards",
        )?;
        return Ok(RowsArg::array(array));
    }
    if boards.is_instance_of::<pyo3::types::PyString>() {
        return RowsArg::shared(boards);
    }
    let items = sequence_items(boards, "boards")?;
    let one_board = items.first().is_some_and(|first| {
        !first.is_instance_of::<pyo3::types::PyString>()
            && is_nested(first)
            && first
                .try_iter()
                .ok()
                .and_then(|mut cells| cells.next())
                .and_then(Result::ok)
                .is_some_and(|cell| !is_nested(&cell))
    });
    if one_board {
        RowsArg::shared(boards)
    } else {
        RowsArg::items(&items)
    }
}

/// Locations: a pair of ints (an array of shape (2,)) is one location for every row; an array
/// of shape (N, 2), or a sequence of pairs, one per row.
fn locations_arg<'py>(locations: &Bound<'py, PyAny>, name: &str) -> PyResult<RowsArg<'py>> {
    if let Ok(array) = locations.cast::<PyUntypedArray>() {
        if array.ndim() == 1 {
            return RowsArg::shared(locations);
        }
        if array.ndim() == 2 && array.dtype().kind() == b'b' {
            // Bools are no coordinates: each pair read as the sequence it is, and refused.
            let rows: PyResult<Vec<_>> = locations.try_iter()?.collect();
            return RowsArg::items(&rows?);
        }
        let array = Boards::new(array, false, &[2], "(2,) or (N, 2)", name)?;
        return Ok(RowsArg::array(array));
    }
    let items = sequence_items(locations, name)?;
    if items.iter().any(is_nested) {
        RowsArg::items(&items)
    } else {
        RowsArg::shared(locations)
    }
}

binding! {
    /// Solves many games, on every core; see `perfectplay.BatchSolution`. Moves and masks are
    /// flat cells `row * cols + col`, values from A's side.
    fn batch_solve(
        py, boards: &Bound<'py, PyAny>, alocs: &Bound<'py, PyAny>, blocs: &Bound<'py, PyAny>;
        options = &["moves", "threads", "node_limit", "errors", "progress"]
    ) -> Bound<'py, PyAny> {
        let moves = options.moves;
        let (boards, alocs, blocs) = (
            boards_arg(boards)?,
            locations_arg(alocs, "alocs")?,
            locations_arg(blocs, "blocs")?,
        );
        let rows = (&boards.rows, &alocs.rows, &blocs.rows);
        let game::Batch { rows, boards, size } = detached(py, false, "", |monitor| {
            game::parse_batch(rows.0, rows.1, rows.2, monitor)
        })?;
        let cells = size.map_or(0, |(rows, cols)| rows * cols);
        let what = size.map_or(String::new(), |(rows, cols)| format!("footholds {rows}x{cols}"));
        solve_batch(
            py,
            rows,
            cells,
            &options,
            &what,
            || Ok(()),
            |(), &(index, a, b), budget| search::label(&boards[index], a, b, budget, moves),
            |&(index, _, _)| boards[index].footholds.count_ones(),
        )
    }
}

binding! {
    /// ``n`` games by uniformly random play from A at ``aloc`` and B at ``bloc`` on ``board``, A
    /// to move in each, both pieces on footholds (a game that ends stops at the last such
    /// position): ``(boards, alocs, blocs)``, uint8 ``(n, rows, cols)`` standing cells and int64
    /// ``(n, 2)`` pieces, as ``batch_solve`` takes them.
    fn random_positions(
        py, board: &Bound<'py, PyAny>, aloc: &Bound<'py, PyAny>, bloc: &Bound<'py, PyAny>,
        n: &Bound<'py, PyAny>; options = &["seed", "plies", "threads"]
    ) -> Bound<'py, PyTuple> {
        let call = Call::new((board, aloc, bloc), &Options::default())?;
        let board = &call.board;
        let cells = board.cells();
        let start = game::Position {
            footholds: board.footholds,
            me: call.a,
            you: call.b,
        };
        let most = board.footholds.count_ones();
        // A row: the standing cells, then A's and B's cells.
        let width = cells + 2;
        let out = random_rows(py, n, &options, most, width, |random, plies, items| {
            let end = game::random_walk(board, &start, plies, random);
            for (cell, item) in items[..cells].iter_mut().enumerate() {
                *item = (end.footholds >> cell & 1) as u8;
            }
            (items[cells], items[cells + 1]) = (end.me, end.you);
        })?;
        let (count, rows, cols) = (out.count, board.rows, board.cols);
        let mut boards = Vec::with_capacity(count * cells);
        let (mut alocs, mut blocs) = (Vec::with_capacity(2 * count), Vec::with_capacity(2 * count));
        for items in out.rows.chunks(width) {
            boards.extend_from_slice(&items[..cells]);
            for (into, cell) in [(&mut alocs, items[cells]), (&mut blocs, items[cells + 1])] {
                into.extend([(cell as usize / cols) as i64, (cell as usize % cols) as i64]);
            }
        }
        PyTuple::new(
            py,
            [
                shaped(py, boards, &[count, rows, cols])?,
                shaped(py, alocs, &[count, 2])?,
                shaped(py, blocs, &[count, 2])?,
            ],
        )
    }
}
