//! `perfectplay._core.footholds`: moves are (row, col) destinations, answers from A's side.

use crate::games::footholds::call::{BATCH, Game, NODE_LIMIT, RANDOM, label_rows, random_games};
use crate::games::footholds::{self as game, search};
use crate::py::batch::{RowsArg, labelled, once_or_a_row, shaped};
use crate::py::convert::{Names, to_item, type_is_bytes_like};
use crate::py::detach::{released, search_detached};
use crate::py::options::to_scalar;
use pyo3::prelude::*;
use pyo3::types::{PySequence, PyString, PyTuple};

/// The game of a call, read in the order (board, aloc, bloc).
pub fn game(
    board: &Bound<'_, PyAny>,
    aloc: &Bound<'_, PyAny>,
    bloc: &Bound<'_, PyAny>,
) -> PyResult<Game> {
    Game::parse(&to_item(board)?, &to_item(aloc)?, &to_item(bloc)?).map_err(PyErr::from)
}

fn names(game: &Game) -> Names {
    Names::grid(["A", "B"], game.board.cols)
}

bindings! {
    twin = "footholds";

    #[pyo3(text_signature = "(board, aloc, bloc, *, node_limit=None)")]
    fn solve(py, board, aloc, bloc; options = NODE_LIMIT) -> Bound<'py, PyAny> {
        let (game, limit) = (game(board, aloc, bloc)?, options.node_limit);
        let solved = search_detached(py, limit, |budget| game.search(search::solve, budget))?;
        names(&game).solution(py, solved)
    }

    #[pyo3(text_signature = "(board, aloc, bloc, *, node_limit=None)")]
    fn total_moves(py, board, aloc, bloc; options = NODE_LIMIT) -> u32 {
        let (game, limit) = (game(board, aloc, bloc)?, options.node_limit);
        search_detached(py, limit, |budget| game.search(search::total_moves, budget))
    }

    #[pyo3(text_signature = "(board, aloc, bloc, *, node_limit=None)")]
    fn analyze(py, board, aloc, bloc; options = NODE_LIMIT) -> Bound<'py, PyAny> {
        let (game, limit) = (game(board, aloc, bloc)?, options.node_limit);
        let answers = search_detached(py, limit, |budget| game.search(search::analyze, budget))?;
        names(&game).analysis(py, answers)
    }

    #[pyo3(text_signature = "(board, aloc, bloc, *, node_limit=None)")]
    fn ranked_moves(py, board, aloc, bloc; options = NODE_LIMIT) -> Bound<'py, PyAny> {
        let (game, limit) = (game(board, aloc, bloc)?, options.node_limit);
        let answers =
            search_detached(py, limit, |budget| game.search(search::ranked_moves, budget))?;
        names(&game).ranking(py, answers)
    }

    #[pyo3(text_signature = "(boards, alocs, blocs, *, moves=False, threads=None, node_limit=None, errors='raise', progress=False)")]
    fn batch_solve(py, boards, alocs, blocs; options = BATCH) -> Bound<'py, PyAny> {
        let boards = boards_arg(boards)?;
        let (alocs, blocs) = (locations_arg(alocs, "alocs")?, locations_arg(blocs, "blocs")?);
        let rows = (&boards.rows, &alocs.rows, &blocs.rows);
        let batch = released(py, |monitor| game::parse_batch(rows.0, rows.1, rows.2, monitor))?;
        let game::Batch { rows, boards, size } = batch;
        let what = size.map_or(String::new(), |(rows, cols)| format!("footholds {rows}x{cols}"));
        let checked = &options.checked;
        labelled(py, &options, &what, rows, |rows, monitor| {
            label_rows(rows, &boards, size, checked, monitor)
        })
    }

    #[pyo3(text_signature = "(board, aloc, bloc, n, *, seed=None, plies=None, ongoing=False, threads=None)")]
    fn random_positions(py, board, aloc, bloc, n; options = RANDOM) -> Bound<'py, PyTuple> {
        let game = game(board, aloc, bloc)?;
        let (n, checked, board) = (to_scalar(n)?, &options.checked, &game.board);
        let pieces = (game.a, game.b);
        let games = released(py, |monitor| random_games(board, pieces, &n, checked, monitor))?;
        let (count, rows, cols) = (games.count, board.rows, board.cols);
        let boards = shaped(py, games.boards, &[count, rows, cols])?;
        let alocs = shaped(py, games.alocs, &[count, 2])?;
        let blocs = shaped(py, games.blocs, &[count, 2])?;
        PyTuple::new(py, [boards, alocs, blocs])
    }
}

/// Is `item` more than a cell: an array, a str or another sequence (not bytes-like)?
fn is_nested(item: &Bound<'_, PyAny>) -> bool {
    item.cast::<numpy::PyUntypedArray>().is_ok()
        || item.is_instance_of::<PyString>()
        || (item.cast::<PySequence>().is_ok() && !type_is_bytes_like(item))
}

/// Boards: a str, an array of shape (rows, cols) or a sequence whose first item is a row of
/// cells (a sequence of ints or bools) is one board for every row; an array of shape
/// (N, rows, cols) or another sequence, one board a row.
fn boards_arg<'py>(boards: &Bound<'py, PyAny>) -> PyResult<RowsArg<'py>> {
    if boards.is_instance_of::<PyString>() {
        return RowsArg::shared(boards);
    }
    let first_cell = |first: &Bound<'py, PyAny>| first.try_iter().ok()?.next()?.ok();
    let shape = "(rows, cols) or (N, rows, cols)";
    once_or_a_row(boards, 2, shape, "boards", |items| {
        items.get_item(0).is_ok_and(|first| {
            !first.is_instance_of::<PyString>()
                && is_nested(&first)
                && first_cell(&first).is_some_and(|cell| !is_nested(&cell))
        })
    })
}

/// Locations: a pair of ints (an array of shape (2,)) is one location for every row; an array
/// of shape (N, 2), or a sequence of pairs, one per row.
fn locations_arg<'py>(locations: &Bound<'py, PyAny>, name: &str) -> PyResult<RowsArg<'py>> {
    once_or_a_row(locations, 1, "(2,) or (N, 2)", name, |items| {
        !items.iter().any(|item| is_nested(&item))
    })
}
