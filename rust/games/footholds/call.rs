//! The public functions as plain calls, where they are more than one search: a batch labelled
//! and random games drawn. `rust/py/footholds.rs` binds them to Python.

use crate::engine::batch::{self, Parsed};
use crate::engine::budget::Budget;
use crate::engine::columns::Columns;
use crate::engine::error::Result;
use crate::engine::memory::with_room;
use crate::engine::pool::Monitor;
use crate::engine::random::random_rows;
use crate::games::footholds::{Board, Position, parse_board, parse_location, random_walk, search};
use crate::input::Item;
use crate::input::options::{Checked, Scalar};

/// The options of a function of one game, of `batch_solve` and of `random_positions`.
pub const NODE_LIMIT: &[&str] = &["node_limit"];
pub const BATCH: &[&str] = &["moves", "threads", "node_limit", "errors", "progress"];
pub const RANDOM: &[&str] = &["seed", "plies", "ongoing", "threads"];

/// The game of a call: the board, A's and B's cells, A to move.
pub struct Game {
    pub board: Board,
    pub a: u8,
    pub b: u8,
}

impl Game {
    /// The game `(board, aloc, bloc)`, read in that order.
    pub fn parse(board: &Item, aloc: &Item, bloc: &Item) -> Result<Game> {
        let board = parse_board(board)?;
        let a = parse_location(aloc, "aloc", &board)?;
        let b = parse_location(bloc, "bloc", &board)?;
        Ok(Game { board, a, b })
    }

    /// `search` of the game.
    pub fn search<T>(
        &self,
        search: fn(&Board, u8, u8, &mut Budget) -> Result<T>,
        budget: &mut Budget,
    ) -> Result<T> {
        search(&self.board, self.a, self.b, budget)
    }
}

/// Labels a batch's games (see [`batch::label`]): each row an index into `boards` with A's
/// and B's cells, on boards of `size`.
pub fn label_rows(
    parsed: Parsed<(usize, u8, u8)>,
    boards: &[Board],
    size: Option<(usize, usize)>,
    options: &Checked,
    monitor: Monitor,
) -> Result<Columns> {
    let cells = size.map_or(0, |(rows, cols)| rows * cols);
    let moves = options.moves;
    batch::label(
        parsed,
        cells,
        options.labelling(),
        || Ok(()),
        |(), &(index, a, b), budget| search::label(&boards[index], a, b, budget, moves),
        |&(index, _, _)| boards[index].footholds.count_ones(),
        monitor,
    )
}

/// `n` games by random play (see [`random_walk`]) from A at `a` and B at `b` on `board`, A to
/// move in each: the standing cells (`n` rows of `board.cells()` codes 0/1), and A's and B's
/// (row, col) (`n` rows of 2).
pub struct RandomGames {
    pub count: usize,
    pub boards: Vec<u8>,
    pub alocs: Vec<i64>,
    pub blocs: Vec<i64>,
}

pub fn random_games(
    board: &Board,
    (a, b): (u8, u8),
    n: &Scalar,
    options: &Checked,
    monitor: Monitor,
) -> Result<RandomGames> {
    let cells = board.cells();
    let start = Position {
        footholds: board.footholds,
        me: a,
        you: b,
    };
    let most = board.footholds.count_ones();
    // A row: the standing cells, then A's and B's cells.
    let width = cells + 2;
    let write = |random: &mut _, plies, items: &mut [u8]| {
        let end = random_walk(board, &start, plies, random, options.ongoing);
        for (cell, item) in items[..cells].iter_mut().enumerate() {
            *item = (end.footholds >> cell & 1) as u8;
        }
        (items[cells], items[cells + 1]) = (end.me, end.you);
    };
    let (count, rows) = random_rows(
        options.draws(n, most)?,
        options.threads(),
        width,
        write,
        monitor,
    )?;
    let mut games = RandomGames {
        count,
        boards: with_room(count.saturating_mul(cells))?,
        alocs: with_room(count.saturating_mul(2))?,
        blocs: with_room(count.saturating_mul(2))?,
    };
    for items in rows.chunks(width) {
        games.boards.extend_from_slice(&items[..cells]);
        for (into, cell) in [
            (&mut games.alocs, items[cells]),
            (&mut games.blocs, items[cells + 1]),
        ] {
            let (row, col) = board.row_col(cell);
            into.extend([row as i64, col as i64]);
        }
    }
    Ok(games)
}
