//! The public functions as plain calls: a position and its options checked into a [`Call`],
//! answered by the search with the books given; a batch parsed and labelled; random positions
//! drawn. `rust/py/connect4.rs` binds each to Python.

use crate::engine::batch::{self, BadRows, OnError, Parsed};
use crate::engine::budget::Budget;
use crate::engine::columns::Columns;
use crate::engine::driver::{self, AsGiven, Game, MoveAnswer, Player, Solution};
use crate::engine::error::Result;
use crate::engine::pool::Monitor;
use crate::engine::random::{play, random_rows};
use crate::games::connect4::book::Books;
use crate::games::connect4::search::{self, Solver, Tables};
use crate::games::connect4::{
    Bits, DEFAULT, Position, Shape, codes_of, finished_score, is_wide, parse_batch, parse_position,
    size_of,
};
use crate::input::Item;
use crate::input::options::{Checked, Scalar};
use crate::input::rows::Rows;

/// A checked call of one position, on a board of 64 bits or of 128 (see `bits.rs`).
pub enum Call {
    Narrow(OnBoard<u64>),
    Wide(OnBoard<u128>),
}

/// Runs `$work` on the call's [`OnBoard`], whichever integer its board is.
macro_rules! on_board {
    ($call:expr, $board:ident => $work:expr) => {
        match $call {
            Call::Narrow($board) => $work,
            Call::Wide($board) => $work,
        }
    };
}

impl Call {
    pub fn new(position: &Item, options: &Checked) -> Result<Call> {
        let size = (options.width, options.height);
        let (width, height) = size_of(position, size);
        Ok(if is_wide(width, height) {
            Call::Wide(OnBoard::new(position, options)?)
        } else {
            Call::Narrow(OnBoard::new(position, options)?)
        })
    }

    /// The stones of the position.
    pub fn moves(&self) -> u32 {
        on_board!(self, board => board.position.moves)
    }

    /// (width, height) of the board.
    pub fn size(&self) -> (u32, u32) {
        on_board!(self, board => (board.shape.width, board.shape.height))
    }

    pub fn node_limit(&self) -> Option<u64> {
        on_board!(self, board => board.node_limit)
    }

    pub fn solve(&self, books: Books<'_>, budget: &mut Budget) -> Result<Solution> {
        on_board!(self, board => board.solve(books, budget))
    }

    pub fn analyze(&self, books: Books<'_>, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        on_board!(self, board => board.analyze(books, budget))
    }

    pub fn ranked_moves(&self, books: Books<'_>, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        on_board!(self, board => board.ranked_moves(books, budget))
    }

    pub fn best_move(&self, books: Books<'_>, budget: &mut Budget) -> Result<Option<u8>> {
        on_board!(self, board => board.best_move(books, budget))
    }

    pub fn best_moves(&self, books: Books<'_>, budget: &mut Budget) -> Result<Vec<u8>> {
        on_board!(self, board => board.best_moves(books, budget))
    }

    pub fn value(&self, books: Books<'_>, budget: &mut Budget) -> Result<i8> {
        on_board!(self, board => board.value(books, budget))
    }

    pub fn score(&self, books: Books<'_>, weak: bool, budget: &mut Budget) -> Result<i32> {
        on_board!(self, board => board.score(books, weak, budget))
    }
}

/// A position on its board and how to search it.
pub struct OnBoard<B: Bits> {
    pub shape: Shape<B>,
    pub position: Position<B>,
    pub node_limit: Option<u64>,
    table_bytes: usize,
    threads: usize,
}

impl<B: Bits> OnBoard<B> {
    pub fn new(position: &Item, options: &Checked) -> Result<OnBoard<B>> {
        let (shape, position) = parse_position(position, (options.width, options.height))?;
        let table_bytes =
            (options.table_bytes).unwrap_or_else(|| search::default_table_bytes(&shape));
        Ok(OnBoard {
            shape,
            position,
            node_limit: options.node_limit,
            table_bytes,
            threads: options.threads(),
        })
    }

    /// Runs `work` on the rules and the solver (the tables this thread keeps) under `budget`.
    fn run<T>(
        &self,
        books: Books<'_>,
        budget: &mut Budget,
        work: impl FnOnce(&mut Game<Shape<B>, Solver<B>>, &Position<B>) -> Result<T>,
    ) -> Result<T> {
        search::with_kept_tables(&self.shape, self.table_bytes, |tables| {
            let mut solver = Solver::new(&self.shape, tables, budget, books, self.threads);
            let answers = &mut solver;
            work(
                &mut Game {
                    rules: &self.shape,
                    answers,
                },
                &self.position,
            )
        })
    }

    /// Value, winner, plies, every best column and one optimal line, for the side to move.
    pub fn solve(&self, books: Books<'_>, budget: &mut Budget) -> Result<Solution> {
        let to_move = match self.position.moves % 2 {
            0 => Player::First,
            _ => Player::Second,
        };
        self.run(books, budget, |game, root| {
            Ok(driver::solve(game, root, to_move, &AsGiven)?)
        })
    }

    /// Every legal column's (value for the player making it, plies from now with it).
    pub fn analyze(&self, books: Books<'_>, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        let cells = self.shape.cells;
        self.run(books, budget, |game, root| {
            let scores = game.answers.children_scores(root)?;
            let cells_left = cells - root.moves - 1;
            let answer = |(col, score)| MoveAnswer::of(col, score, cells_left);
            Ok(scores.into_iter().map(answer).collect())
        })
    }

    /// Every legal column's answer, best first ([`driver::rank`]: centre-out among equals).
    pub fn ranked_moves(&self, books: Books<'_>, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        let mut answers = self.analyze(books, budget)?;
        driver::rank(&mut answers, |col| {
            driver::Rules::preference(&self.shape, col)
        });
        Ok(answers)
    }

    pub fn best_move(&self, books: Books<'_>, budget: &mut Budget) -> Result<Option<u8>> {
        self.run(books, budget, |game, root| {
            Ok(driver::best_move(game, root, &AsGiven)?)
        })
    }

    pub fn best_moves(&self, books: Books<'_>, budget: &mut Budget) -> Result<Vec<u8>> {
        self.run(books, budget, |game, root| {
            Ok(driver::best_moves(game, root, &AsGiven)?)
        })
    }

    /// +1 the side to move wins, 0 draw, -1 it loses (a weak solve: faster than the score).
    pub fn value(&self, books: Books<'_>, budget: &mut Budget) -> Result<i8> {
        Ok(self.score(books, true, budget)?.signum() as i8)
    }

    /// Pons' score (a game that is over scores as its loss or draw); `weak`: only its sign,
    /// as his solver's `-w` gives it (a win at once keeps its exact score).
    pub fn score(&self, books: Books<'_>, weak: bool, budget: &mut Budget) -> Result<i32> {
        if let Some(score) = finished_score(&self.shape, &self.position) {
            return Ok(score);
        }
        self.run(books, budget, |game, root| {
            Ok(game.answers.pons_score(root, weak)?)
        })
    }
}

/// The options of a function of one position, of `batch_solve` and of `random_positions`.
pub const POSITION: &[&str] = SCORE.split_at(6).0;
/// `score`'s: a position's and `weak`.
pub const SCORE: &[&str] = &[
    "width",
    "height",
    "node_limit",
    "table_mb",
    "book",
    "threads",
    "weak",
];
pub const BATCH: &[&str] = &[
    "width",
    "height",
    "moves",
    "threads",
    "node_limit",
    "table_mb",
    "book",
    "errors",
    "progress",
];
pub const RANDOM: &[&str] = &["width", "height", "seed", "plies", "ongoing", "threads"];

/// The board of the options' `width=` and `height=` (7x6 where not given).
pub fn shape_of<B: Bits>(options: &Checked) -> Result<Shape<B>> {
    Shape::new(
        options.width.unwrap_or(DEFAULT.0),
        options.height.unwrap_or(DEFAULT.1),
    )
}

/// A batch's positions, each read once, on its board of 64 or 128 bits.
pub enum Batch {
    Narrow(Parsed<Position<u64>>, Shape<u64>),
    Wide(Parsed<Position<u128>>, Shape<u128>),
}

impl BadRows for Batch {
    fn raise_first_bad(self, on_error: OnError) -> Result<Batch> {
        Ok(match self {
            Batch::Narrow(parsed, shape) => Batch::Narrow(parsed.raise_first_bad(on_error)?, shape),
            Batch::Wide(parsed, shape) => Batch::Wide(parsed.raise_first_bad(on_error)?, shape),
        })
    }
}

impl Batch {
    /// (width, height) of the board.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Batch::Narrow(_, shape) => (shape.width, shape.height),
            Batch::Wide(_, shape) => (shape.width, shape.height),
        }
    }
}

/// A batch's positions, each read once, and its board: the positions' (see [`parse_batch`]),
/// or the options'. The board's integer is `u128` when the array's board or any position's
/// (or the options', for positions given by their moves) needs more than 64 bits, so that
/// each row reads as it would alone.
pub fn parse_rows(rows: &Rows, options: &Checked, monitor: Monitor) -> Result<Batch> {
    let size = (options.width, options.height);
    let wide = match rows {
        Rows::Array { board, .. } => is_wide(board[1] as i128, board[0] as i128),
        _ => {
            is_wide(size.0.unwrap_or(DEFAULT.0), size.1.unwrap_or(DEFAULT.1))
                || (0..rows.count().unwrap_or(1)).any(|row| {
                    rows.item(row).is_ok_and(|item| {
                        let (width, height) = size_of(&item, size);
                        is_wide(width, height)
                    })
                })
        }
    };
    fn parse<B: Bits>(
        rows: &Rows,
        options: &Checked,
        monitor: Monitor,
    ) -> Result<(Parsed<Position<B>>, Shape<B>)> {
        let (parsed, shape) = parse_batch(rows, (options.width, options.height), monitor)?;
        let shape = match shape {
            Some(shape) => shape,
            None => shape_of(options)?,
        };
        Ok((parsed, shape))
    }
    Ok(if wide {
        let (parsed, shape) = parse::<u128>(rows, options, monitor)?;
        Batch::Wide(parsed, shape)
    } else {
        let (parsed, shape) = parse::<u64>(rows, options, monitor)?;
        Batch::Narrow(parsed, shape)
    })
}

/// Labels a batch's positions on its board (see [`batch::label`]), with the books.
pub fn label_rows(
    batch: Batch,
    books: Books<'_>,
    options: &Checked,
    monitor: Monitor,
) -> Result<Columns> {
    match batch {
        Batch::Narrow(parsed, shape) => label_on(parsed, &shape, books, options, monitor),
        Batch::Wide(parsed, shape) => label_on(parsed, &shape, books, options, monitor),
    }
}

fn label_on<B: Bits>(
    parsed: Parsed<Position<B>>,
    shape: &Shape<B>,
    books: Books<'_>,
    options: &Checked,
    monitor: Monitor,
) -> Result<Columns> {
    let table_bytes = (options.table_bytes).unwrap_or_else(|| search::default_table_bytes(shape));
    let (cells, moves) = (shape.cells, options.moves);
    batch::label(
        parsed,
        shape.width as usize,
        options.labelling(),
        || Ok(Tables::new(shape, table_bytes)?),
        |tables, position, budget| {
            let answers = &mut Solver::new(shape, tables, budget, books, 1);
            let game = &mut Game {
                rules: shape,
                answers,
            };
            Ok(driver::label(game, position, moves, &AsGiven)?)
        },
        |position| cells - position.moves,
        monitor,
    )
}

/// `n` positions by uniformly random play from the empty board of the options' size: the
/// board's (width, height), the number of rows and their codes (top row first).
pub fn random_positions(
    n: &Scalar,
    options: &Checked,
    monitor: Monitor,
) -> Result<((u32, u32), usize, Vec<u8>)> {
    let (width, height) = (
        options.width.unwrap_or(DEFAULT.0),
        options.height.unwrap_or(DEFAULT.1),
    );
    if is_wide(width, height) {
        random_on::<u128>(n, options, monitor)
    } else {
        random_on::<u64>(n, options, monitor)
    }
}

fn random_on<B: Bits>(
    n: &Scalar,
    options: &Checked,
    monitor: Monitor,
) -> Result<((u32, u32), usize, Vec<u8>)> {
    let shape = shape_of::<B>(options)?;
    let cells = shape.cells;
    let write = |random: &mut _, plies, codes: &mut [u8]| {
        let position = play(&shape, &Position::EMPTY, plies, random, options.ongoing);
        codes.copy_from_slice(&codes_of(&shape, &position));
    };
    let (count, rows) = random_rows(
        options.draws(n, cells)?,
        options.threads(),
        cells as usize,
        write,
        monitor,
    )?;
    Ok(((shape.width, shape.height), count, rows))
}
