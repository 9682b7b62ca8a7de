//! The public functions as plain calls: a board, its k and the options checked into a
//! [`Call`] the search answers; a batch labelled; random positions drawn (tic-tac-toe's
//! too). `rust/py/mnk.rs` binds each to Python.

use crate::engine::batch::{self, Parsed};
use crate::engine::budget::Budget;
use crate::engine::columns::Columns;
use crate::engine::driver::{self, MoveAnswer, Solution};
use crate::engine::error::Result;
use crate::engine::memory::physical_memory;
use crate::engine::pool::Monitor;
use crate::engine::random::{play, random_rows};
use crate::games::mnk::{
    BatchShape, Board, Geometry, Query, Status, TableUse, empty_board_of, parse_board, prover,
    search,
};
use crate::input::Item;
use crate::input::grid::Grid;
use crate::input::options::{Checked, Scalar, int};
use std::sync::Arc;

/// The options of a function of one board, of `batch_solve` and of `random_positions`
/// (tic-tac-toe's too). `tablebase=` is answered above both backends, by `perfectplay.mnk`.
pub const BOARD: &[&str] = &["node_limit", "table_mb"];
pub const PROOF: &[&str] = &["node_limit", "table_mb", "progress"];
pub const BATCH: &[&str] = &[
    "moves",
    "threads",
    "node_limit",
    "table_mb",
    "errors",
    "progress",
];
pub const RANDOM: &[&str] = &["seed", "plies", "ongoing", "threads"];

/// A checked call of one board: the legal position, its k and how to search it.
pub struct Call {
    pub query: Query,
    pub node_limit: Option<u64>,
    table_bytes: usize,
    /// `table_mb` as given: for a proof, the memory its nodes and tables may hold.
    given_bytes: Option<usize>,
}

impl Call {
    /// `grid` where `k` in a row wins, under the options.
    pub fn new(grid: Grid<u8>, k: &Scalar, options: &Checked) -> Result<Call> {
        let query = Query::new(&grid, int(k, "k")?)?;
        let cells = grid.rows * grid.cols;
        let table_bytes =
            (options.table_bytes).unwrap_or_else(|| search::default_table_bytes(cells));
        Ok(Call {
            query,
            node_limit: options.node_limit,
            table_bytes,
            given_bytes: options.table_bytes,
        })
    }

    /// The call of a board argument.
    pub fn of_board(board: &Item, k: &Scalar, options: &Checked) -> Result<Call> {
        Call::new(parse_board(board)?, k, options)
    }

    /// The call of the empty `rows` x `cols` board.
    pub fn of_empty(rows: &Scalar, cols: &Scalar, k: &Scalar, options: &Checked) -> Result<Call> {
        Call::new(empty_board_of(rows, cols)?, k, options)
    }

    pub fn cols(&self) -> usize {
        self.query.cols()
    }

    /// This thread's kept table of the call's size (kept past the call when asked for).
    fn kept_table(&self) -> TableUse<'static> {
        let (bytes, asked) = (self.table_bytes, self.given_bytes.is_some());
        TableUse::Kept { bytes, asked }
    }

    pub fn solve(&self, budget: &mut Budget) -> Result<Solution> {
        self.query.solve(self.kept_table(), budget)
    }

    pub fn analyze(&self, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        self.query.analyze(self.kept_table(), budget)
    }

    /// Every legal move's answer, best first ([`driver::rank`]: the lower cell among equals).
    pub fn ranked_moves(&self, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        let mut answers = self.analyze(budget)?;
        driver::rank(&mut answers, |_| 0);
        Ok(answers)
    }

    /// The value for the side to move by a weak search: no move ranked.
    pub fn value(&self, budget: &mut Budget) -> Result<i8> {
        self.query.value(self.kept_table(), budget)
    }

    pub fn best_move(&self, budget: &mut Budget) -> Result<Option<u8>> {
        self.query.best_move(self.kept_table(), budget)
    }

    /// A proof that Breaker stops Maker ([`prover::prove`]): Maker is the side to
    /// move, or with `breaker_first` the other side. `None`: no proof found (or the
    /// game is over).
    pub fn breaker_proof(
        &self,
        breaker_first: bool,
        budget: &mut Budget,
    ) -> Result<Option<prover::Proof>> {
        let geometry = &self.query.engine.geometry;
        if !matches!(self.query.board.status(geometry)?, Status::Playing { .. }) {
            return Ok(None);
        }
        let (mine, theirs) = self.query.board.relative();
        let (maker, breaker) = if breaker_first {
            (theirs, mine)
        } else {
            (mine, theirs)
        };
        // Not given: half the machine's memory, so a long proof stops before the system runs out.
        let half_the_machine = || physical_memory().map_or(usize::MAX, |bytes| bytes / 2);
        let memory = self.given_bytes.unwrap_or_else(half_the_machine);
        prover::prove(geometry, maker, breaker, breaker_first, memory, budget)
    }
}

/// Labels a batch's boards (see [`batch::label`]); with no shape (no board could be read)
/// every row is bad.
pub fn label_rows(
    parsed: Parsed<Board>,
    shape: Option<BatchShape>,
    options: &Checked,
    monitor: Monitor,
) -> Result<Columns> {
    let Some((engine, rows, cols)) = shape else {
        let solve = |(): &mut (), _: &Board, _: &mut Budget| unreachable!("no row to solve");
        return batch::label(
            parsed,
            0,
            options.labelling(),
            || Ok(()),
            solve,
            |_| 0,
            monitor,
        );
    };
    let cells = rows * cols;
    let table_bytes =
        (options.table_bytes).unwrap_or_else(|| search::default_batch_table_bytes(cells));
    let moves = options.moves;
    batch::label(
        parsed,
        cells,
        options.labelling(),
        || search::batch_table(&engine, table_bytes),
        |table, &board, budget| {
            let query = Query {
                engine: engine.clone(),
                board,
            };
            query.label(TableUse::Own(table), budget, moves)
        },
        |board| cells as u32 - (board.x | board.o).count_ones(),
        monitor,
    )
}

/// The engine (and geometry) of the empty `rows` x `cols` board where `k` in a row wins.
pub fn engine_of(rows: &Scalar, cols: &Scalar, k: &Scalar) -> Result<Arc<search::Engine>> {
    let grid = empty_board_of(rows, cols)?;
    search::engine(grid.rows, grid.cols, int(k, "k")?)
}

/// `n` positions of a geometry by uniformly random play from the empty board: the number of
/// rows and their codes, row by row.
pub fn random_positions(
    geometry: &Geometry,
    n: &Scalar,
    options: &Checked,
    monitor: Monitor,
) -> Result<(usize, Vec<u8>)> {
    let cells = geometry.cells();
    let write = |random: &mut _, plies, codes: &mut [u8]| {
        let board = play(
            geometry,
            &Board { x: 0, o: 0 },
            plies,
            random,
            options.ongoing,
        );
        for (cell, code) in codes.iter_mut().enumerate() {
            *code = (board.x >> cell & 1) as u8 + 2 * (board.o >> cell & 1) as u8;
        }
    };
    random_rows(
        options.draws(n, cells as u32)?,
        options.threads(),
        cells,
        write,
        monitor,
    )
}
