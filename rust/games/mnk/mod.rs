//! m,n,k-games: k marks in a row win on a rows x cols board; X moves first. This file holds the
//! rules (geometry, positions, legality) and the game's entry points; `search` is the fast
//! solver, `exhaustive` the plain reference search it is checked against, and `solved` the
//! table of every (3,3,3) position, which answers tic-tac-toe and the 3x3 member here.
//!
//! Bit layout: cell `(row, col)` of a `rows x cols` board is bit `row * cols + col` of a `u64`
//! (rows * cols <= 64). A position is two such masks. The searches keep them relative to the
//! side to move (`mine`, `theirs`); legality and the Python side see them as X and O.

pub mod call;
pub mod exhaustive;
pub mod prover;
pub mod search;
pub mod solved;
pub mod tablebase;

use crate::engine::batch::Parsed;
use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::{
    self, Answers, AsGiven, Game, Label, MoveAnswer, Player, Rules, Solution,
};
use crate::engine::error::{Error, Result, malformed};
use crate::engine::score::Score;
use crate::engine::table::Table;
use crate::input::grid::Grid;
use crate::input::marks::{EMPTY, O, X};
use crate::input::options::{Scalar, int};
use crate::input::rows::{Rows, parse_rows};
use crate::input::{Item, MAX_CELLS};
use std::sync::Arc;

/// A `rows x cols` board where `k` in a row wins, with every winning window precomputed.
#[derive(Debug, Clone)]
pub struct Geometry {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    /// Every cell of the board.
    pub full: u64,
    /// Every run of `k` cells in a row, column or diagonal.
    pub windows: Vec<u64>,
    /// For each cell, the windows through it.
    pub windows_through: Vec<Vec<u64>>,
}

impl Geometry {
    /// `k` as the caller gave it: out of range, the message shows it as it is.
    pub fn new(rows: usize, cols: usize, k: i128) -> Result<Geometry> {
        if rows == 0 || cols == 0 {
            return malformed!("board is empty");
        }
        match rows.checked_mul(cols) {
            Some(cells) if cells <= MAX_CELLS => {}
            _ => {
                return malformed!(
                    "board has {} cells; at most {MAX_CELLS} are supported",
                    rows as u128 * cols as u128
                );
            }
        }
        let longest = rows.max(cols);
        if k < 1 || k > longest as i128 {
            return malformed!(
                "k must be between 1 and {longest} for a {rows}x{cols} board, got {k}"
            );
        }
        let k = k as usize;
        let bit = |row: usize, col: usize| 1u64 << (row * cols + col);
        let mut windows = Vec::new();
        // Directions as (row step, col step): right, down, down-right, down-left.
        for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            for row in 0..rows as i64 {
                for col in 0..cols as i64 {
                    let (end_row, end_col) = (row + dr * (k as i64 - 1), col + dc * (k as i64 - 1));
                    if end_row < 0
                        || end_row >= rows as i64
                        || end_col < 0
                        || end_col >= cols as i64
                    {
                        continue;
                    }
                    let window = (0..k as i64).fold(0u64, |mask, step| {
                        mask | bit((row + dr * step) as usize, (col + dc * step) as usize)
                    });
                    // k = 1 makes every direction the same single cell.
                    if !windows.contains(&window) {
                        windows.push(window);
                    }
                }
            }
        }
        let cells = rows * cols;
        let windows_through = (0..cells)
            .map(|cell| {
                windows
                    .iter()
                    .copied()
                    .filter(|window| window >> cell & 1 == 1)
                    .collect()
            })
            .collect();
        Ok(Geometry {
            rows,
            cols,
            k,
            full: if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            },
            windows,
            windows_through,
        })
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Does `stones` hold k in a row anywhere?
    pub fn has_line(&self, stones: u64) -> bool {
        self.windows.iter().any(|&w| w & !stones == 0)
    }

    /// Do the lines of `stones` share a cell? A winner's last move completed every line it
    /// has, so a legal winner's lines do.
    pub fn lines_share_a_cell(&self, stones: u64) -> bool {
        let common = self
            .windows
            .iter()
            .filter(|&&w| stones & w == w)
            .fold(u64::MAX, |common, &w| common & w);
        common != 0
    }
}

/// The rules of play over X and O masks: X moves first, play stops at the first line.
impl Rules for Geometry {
    type Position = Board;

    fn moves(&self, board: &Board) -> u64 {
        if self.has_line(board.x) || self.has_line(board.o) {
            return 0;
        }
        self.full & !(board.x | board.o)
    }

    fn play(&self, board: &Board, cell: u8) -> Board {
        if board.x_to_move() {
            Board {
                x: board.x | 1 << cell,
                o: board.o,
            }
        } else {
            Board {
                x: board.x,
                o: board.o | 1 << cell,
            }
        }
    }

    fn cells_left(&self, board: &Board) -> u32 {
        (self.full & !(board.x | board.o)).count_ones()
    }
}

/// A board as X and O masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub x: u64,
    pub o: u64,
}

/// Where a legal position stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The game goes on; `x_to_move` says whose turn it is.
    Playing { x_to_move: bool },
    /// The player who just moved completed k in a row (`x_won` says who).
    Won { x_won: bool },
    /// The board is full and nobody has k in a row.
    Drawn,
}

impl Board {
    pub fn from_marks(marks: &[u8]) -> Board {
        let mut board = Board { x: 0, o: 0 };
        for (cell, &mark) in marks.iter().enumerate() {
            match mark {
                X => board.x |= 1 << cell,
                O => board.o |= 1 << cell,
                _ => debug_assert_eq!(mark, EMPTY),
            }
        }
        board
    }

    /// X moves when both have as many marks (X moves first).
    pub fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    /// The position relative to the side to move: (mine, theirs).
    pub fn relative(&self) -> (u64, u64) {
        if self.x_to_move() {
            (self.x, self.o)
        } else {
            (self.o, self.x)
        }
    }

    /// Checks that the board can arise from the empty board by alternate moves, play stopping
    /// at the first completed line; `Err(Illegal)` says why not.
    pub fn status(&self, geometry: &Geometry) -> Result<Status> {
        let (xs, os) = (self.x.count_ones(), self.o.count_ones());
        if xs != os && xs != os + 1 {
            return Err(Error::Illegal(format!(
                "X has {xs} marks and O has {os}, but X moves first, so X has as many marks as O \
                 or one more"
            )));
        }
        let k = geometry.k;
        let (x_line, o_line) = (geometry.has_line(self.x), geometry.has_line(self.o));
        let winner = match (x_line, o_line) {
            (true, true) => {
                return Err(Error::Illegal(format!("both X and O have {k} in a row")));
            }
            (true, false) if xs == os => {
                return Err(Error::Illegal(format!(
                    "X has {k} in a row but O moved after the game ended"
                )));
            }
            (false, true) if xs == os + 1 => {
                return Err(Error::Illegal(format!(
                    "O has {k} in a row but X moved after the game ended"
                )));
            }
            (true, false) => Some((true, self.x)),
            (false, true) => Some((false, self.o)),
            (false, false) => None,
        };
        if let Some((x_won, stones)) = winner {
            if !geometry.lines_share_a_cell(stones) {
                let name = if x_won { "X" } else { "O" };
                return Err(Error::Illegal(format!(
                    "{name}'s lines of {k} share no cell, so no single last move made them all \
                     (a move after the game ended)"
                )));
            }
            return Ok(Status::Won { x_won });
        }
        if (self.x | self.o) == geometry.full {
            Ok(Status::Drawn)
        } else {
            Ok(Status::Playing {
                x_to_move: xs == os,
            })
        }
    }
}

/// The size of an empty board given as rows and cols, as the caller gave them.
pub fn empty_board(rows: i128, cols: i128) -> Result<Grid<u8>> {
    for (name, side) in [("rows", rows), ("cols", cols)] {
        if side < 1 {
            return malformed!("{name} must be at least 1, got {side}");
        }
    }
    match rows.checked_mul(cols) {
        Some(cells) if cells <= MAX_CELLS as i128 => Ok(Grid {
            rows: rows as usize,
            cols: cols as usize,
            cells: vec![EMPTY; cells as usize],
        }),
        Some(cells) => malformed!("board has {cells} cells; at most {MAX_CELLS} are supported"),
        None => malformed!("board has more than 2^127 cells; at most {MAX_CELLS} are supported"),
    }
}

/// The empty board of the `rows` and `cols` arguments.
pub fn empty_board_of(rows: &Scalar, cols: &Scalar) -> Result<Grid<u8>> {
    empty_board(int(rows, "rows")?, int(cols, "cols")?)
}

/// Reads an m,n,k board argument.
pub fn parse_board(board: &Item) -> Result<Grid<u8>> {
    crate::input::marks::read_mark_grid(board)
}

/// The engine of a batch's geometry, with its rows and cols.
pub type BatchShape = (Arc<search::Engine>, usize, usize);

/// The legal boards of a batch, each read once, and its shape (the array's, or the first
/// readable board's; `None` when no board could be read): an array `(N, rows, cols)` of
/// codes, or a sequence of boards in any form [`parse_board`] takes.
pub fn parse_batch(
    rows: &Rows,
    k: i128,
    monitor: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<(Parsed<Board>, Option<BatchShape>)> {
    let legal =
        |engine: &search::Engine, board: Board| board.status(&engine.geometry).map(|_| board);
    parse_rows(
        rows,
        |board| match board[0] * board[1] {
            0 => malformed!("board is empty"),
            _ => Ok((search::engine(board[0], board[1], k)?, board[0], board[1])),
        },
        |(engine, _, _), codes| legal(engine, Board::from_marks(codes)),
        |item, shape| {
            let grid = parse_board(item)?;
            let (engine, rows, cols) = match shape {
                Some(shape) => shape,
                None => shape.insert((
                    search::engine(grid.rows, grid.cols, k)?,
                    grid.rows,
                    grid.cols,
                )),
            };
            if (grid.rows, grid.cols) != (*rows, *cols) {
                return malformed!(
                    "board is {}x{}, not {rows}x{cols} as the batch",
                    grid.rows,
                    grid.cols
                );
            }
            legal(engine, Board::from_marks(&grid.cells))
        },
        monitor,
    )
}

/// A legal m,n,k position read from a board and its k, with the engine of its geometry.
pub struct Query {
    pub engine: Arc<search::Engine>,
    pub board: Board,
}

/// Where a search's transposition table comes from.
pub enum TableUse<'t> {
    /// This thread's kept table of that many bytes (single calls), the size asked for or not.
    Kept { bytes: usize, asked: bool },
    /// A batch worker's own table.
    Own(&'t mut Table),
}

/// The answer sources of an m,n,k position: the (3,3,3) game from its solved table, any other
/// from the search. (Tablebases are asked by the Python layer.)
enum Source<'a, 'b> {
    Solved(solved::Lookup),
    Search(search::Solver<'a, 'b>),
}

impl Answers<Geometry> for Source<'_, '_> {
    fn exact(&mut self, rules: &Geometry, board: &Board) -> StopResult<Score> {
        match self {
            Source::Solved(table) => table.exact(rules, board),
            Source::Search(solver) => solver.exact(rules, board),
        }
    }

    fn window(
        &mut self,
        rules: &Geometry,
        board: &Board,
        alpha: Score,
        beta: Score,
    ) -> StopResult<Score> {
        match self {
            Source::Solved(table) => table.window(rules, board, alpha, beta),
            Source::Search(solver) => solver.window(rules, board, alpha, beta),
        }
    }

    fn nodes(&self) -> u64 {
        match self {
            Source::Solved(_) => 0,
            Source::Search(solver) => solver.nodes(),
        }
    }
}

type StopResult<T> = std::result::Result<T, Stop>;

impl Query {
    /// Checks k against the board and the board against the rules of play.
    pub fn new(grid: &Grid<u8>, k: i128) -> Result<Query> {
        let engine = search::engine(grid.rows, grid.cols, k)?;
        let board = Board::from_marks(&grid.cells);
        board.status(&engine.geometry)?;
        Ok(Query { engine, board })
    }

    pub fn cols(&self) -> usize {
        self.engine.geometry.cols
    }

    fn to_move(&self) -> Player {
        if self.board.x_to_move() {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Runs `work` on the position's rules and answer source.
    fn answer<T>(
        &self,
        table: TableUse,
        budget: &mut Budget,
        work: impl FnOnce(&mut Game<Geometry, Source>) -> StopResult<T>,
    ) -> Result<T> {
        let geometry = &self.engine.geometry;
        if (geometry.rows, geometry.cols, geometry.k) == (3, 3, 3) {
            let mut source = Source::Solved(solved::table().lookup());
            return Ok(work(&mut Game {
                rules: geometry,
                answers: &mut source,
            })?);
        }
        let with = |table: &mut Table| {
            let mut source = Source::Search(search::Solver::new(&self.engine, table, budget));
            Ok(work(&mut Game {
                rules: geometry,
                answers: &mut source,
            })?)
        };
        match table {
            TableUse::Kept { bytes, asked } => {
                search::with_kept_table(&self.engine, bytes, asked, with)
            }
            TableUse::Own(table) => with(table),
        }
    }

    pub fn solve(&self, table: TableUse, budget: &mut Budget) -> Result<Solution> {
        let to_move = self.to_move();
        self.answer(table, budget, |game| {
            driver::solve(game, &self.board, to_move, &AsGiven)
        })
    }

    pub fn analyze(&self, table: TableUse, budget: &mut Budget) -> Result<Vec<MoveAnswer>> {
        self.answer(table, budget, |game| {
            driver::analyze(game, &self.board, &AsGiven)
        })
    }

    /// The position's batch label (with every move's answer when `moves`).
    pub fn label(&self, table: TableUse, budget: &mut Budget, moves: bool) -> Result<Label> {
        self.answer(table, budget, |game| {
            driver::label(game, &self.board, moves, &AsGiven)
        })
    }

    /// The value for the side to move (1, 0, -1) by a weak search ([`driver::value`]).
    pub fn value(&self, table: TableUse, budget: &mut Budget) -> Result<i8> {
        self.answer(table, budget, |game| driver::value(game, &self.board))
    }

    /// The first best move, or `None` once the game is over.
    pub fn best_move(&self, table: TableUse, budget: &mut Budget) -> Result<Option<u8>> {
        self.answer(table, budget, |game| {
            driver::best_move(game, &self.board, &AsGiven)
        })
    }
}

/// Can the board arise in play? Only malformed input (or a bad k) is an error.
pub fn is_reachable(grid: &Grid<u8>, k: i128) -> Result<bool> {
    let engine = search::engine(grid.rows, grid.cols, k)?;
    Ok(Board::from_marks(&grid.cells)
        .status(&engine.geometry)
        .is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(geometry: &Geometry, text: &str) -> Board {
        let grid = parse_board(&Item::Text(text.into())).unwrap();
        assert_eq!((grid.rows, grid.cols), (geometry.rows, geometry.cols));
        Board::from_marks(&grid.cells)
    }

    #[test]
    fn counts_windows() {
        assert_eq!(Geometry::new(3, 3, 3).unwrap().windows.len(), 8);
        assert_eq!(Geometry::new(4, 4, 3).unwrap().windows.len(), 24);
        assert_eq!(Geometry::new(2, 2, 1).unwrap().windows.len(), 4);
        assert!(Geometry::new(3, 3, 4).is_err());
        assert!(Geometry::new(9, 8, 3).is_err());
    }

    #[test]
    fn legality_reasons() {
        fn illegal(g: &Geometry, text: &str) -> String {
            match board(g, text).status(g) {
                Err(Error::Illegal(reason)) => reason,
                other => panic!("{text}: {other:?}"),
            }
        }
        let g = Geometry::new(3, 3, 3).unwrap();
        assert!(illegal(&g, "xxx/.../...").contains("marks"));
        assert!(illegal(&g, "xxx/ooo/x.o").contains("both"));
        assert!(illegal(&g, "xxx/oo./o..").contains("after the game ended"));
        assert_eq!(
            board(&g, "xxx/oo./...").status(&g),
            Ok(Status::Won { x_won: true })
        );
        // One last move at the centre makes two lines at once.
        assert_eq!(
            board(&g, "xox/oxo/xox").status(&g),
            Ok(Status::Won { x_won: true })
        );
        assert_eq!(board(&g, "xox/xoo/oxx").status(&g), Ok(Status::Drawn));
        let g = Geometry::new(4, 4, 3).unwrap();
        assert!(illegal(&g, "xxx./ooo./x.../....").contains("both"));
        assert!(illegal(&g, "xxx./o.o./xxx./oo.o").contains("share no cell"));
    }
}
