//! Disappearing footholds (KAKAO 2022): the board, its parsing, and the rules.
//!
//! Bit layout: cell `(row, col)` of a `rows x cols` board is bit `row * cols + col` of a `u64`
//! (rows * cols <= 64); the footholds still standing are a mask of such bits. A position is
//! that mask and the two pieces' cells, the side to move first ("me", "you"): the player to
//! move steps to an orthogonal neighbour that still stands (the opponent's cell included) and
//! the cell it left disappears. A player loses when, on its turn, it cannot move or its cell is
//! gone (both stood on one cell and the opponent stepped away). Each move removes exactly one
//! cell, so the scoring rule of `score.rs` counts the cells left at the end.

pub mod call;
#[cfg(any(test, feature = "testing"))]
pub mod plain;
pub mod search;

use crate::engine::batch::{Parsed, look};
use crate::engine::driver::Rules;
use crate::engine::error::{Error, Result, malformed};
use crate::engine::symmetry::Symmetries;
use crate::input::grid::{CellReader, read_grid};
use crate::input::rows::Rows;
use crate::input::{Item, MAX_CELLS, cell_type_error, describe_char};
use std::collections::HashMap;

/// A footholds board: its shape, the footholds, and each cell's orthogonal neighbours.
#[derive(Debug, Clone)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    /// The cells that are footholds (1) rather than holes (0).
    pub footholds: u64,
    /// Orthogonal neighbours of each cell on the board, footholds or not.
    pub neighbours: Vec<u64>,
    /// The (up to) 8 cells around each cell, diagonals included.
    pub rings: Vec<u64>,
    /// Every cell but those of the first column / the last column: masks for shifting sets
    /// sideways without wrapping into the next row.
    not_first_col: u64,
    not_last_col: u64,
    /// The symmetries of the board's rectangle.
    pub grid: Symmetries,
}

impl Board {
    pub fn new(rows: usize, cols: usize, footholds: u64) -> Board {
        let cells = rows * cols;
        let all_cells = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        let first_col = (0..rows).fold(0u64, |mask, row| mask | 1 << (row * cols));
        let last_col = first_col << (cols - 1);
        let board = Board {
            rows,
            cols,
            footholds: footholds & all_cells,
            neighbours: Vec::new(),
            rings: Vec::new(),
            not_first_col: all_cells & !first_col,
            not_last_col: all_cells & !last_col,
            grid: Symmetries::of(rows, cols),
        };
        let neighbours = (0..cells)
            .map(|cell| board.expand(1 << cell) & all_cells)
            .collect();
        let rings = (0..cells)
            .map(|cell| {
                let [_, _, above, below] = board.neighbour_sides(1 << cell);
                let column = 1 << cell | above | below;
                let [left, right, _, _] = board.neighbour_sides(column);
                (column | left | right) & all_cells & !(1 << cell)
            })
            .collect();
        Board {
            neighbours,
            rings,
            ..board
        }
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// For each side (left, right, above, below), the cells whose neighbour on that side is in
    /// `set`, and possibly bits past the last cell, which callers mask off: these run at every
    /// step of every flood fill, so they do no more than they must.
    #[inline]
    pub fn neighbour_sides(&self, set: u64) -> [u64; 4] {
        // Two shifts make a shift by `cols` that is defined for cols == 64 (a 1x64 board).
        let up = self.cols as u32 - 1;
        [
            (set & self.not_last_col) << 1,
            (set & self.not_first_col) >> 1,
            (set << up) << 1,
            (set >> up) >> 1,
        ]
    }

    /// The cells orthogonally next to any cell of `set`, footholds or not, and possibly bits past
    /// the last cell (see [`Self::neighbour_sides`]).
    #[inline]
    pub fn expand(&self, set: u64) -> u64 {
        let [left, right, above, below] = self.neighbour_sides(set);
        left | right | above | below
    }

    /// The cells of `within` connected to `start` through cells of `within` (start included
    /// when it is in `within`).
    #[inline]
    pub fn region(&self, start: u64, within: u64) -> u64 {
        let mut region = start & within;
        loop {
            let grown = (region | self.expand(region)) & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// Can a piece at `from` reach `to` through cells of `within`? Grows from `from` only until
    /// it touches `to`, so near pieces cost little. `Err(region)`: no, and the region it fills.
    #[inline]
    pub fn reaches(&self, from: u64, to: u64, within: u64) -> std::result::Result<(), u64> {
        let mut region = from & within;
        loop {
            let grown = (region | self.expand(region)) & within;
            if grown & to != 0 {
                return Ok(());
            }
            if grown == region {
                return Err(region);
            }
            region = grown;
        }
    }

    /// Does removing `cell` from `footholds` keep its standing neighbours connected through
    /// the cells around it? Then no path between other cells needed it.
    #[inline]
    pub fn removal_is_local(&self, cell: u8, footholds: u64) -> bool {
        let around = self.rings[cell as usize] & footholds;
        let neighbours = self.neighbours[cell as usize] & footholds;
        if neighbours.count_ones() <= 1 {
            return true;
        }
        let first = neighbours & neighbours.wrapping_neg();
        neighbours & !self.region(first, around) == 0
    }

    /// The symmetries of the board's rectangle that map the footholds onto themselves, the
    /// identity first: a game and its mirror image have the same answer, moves mirrored.
    pub fn symmetries(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.grid.count())
            .filter(|&which| self.grid.permute(which, self.footholds) == self.footholds)
    }

    pub fn cell(&self, row: usize, col: usize) -> u8 {
        (row * self.cols + col) as u8
    }

    pub fn row_col(&self, cell: u8) -> (usize, usize) {
        (cell as usize / self.cols, cell as usize % self.cols)
    }
}

/// Footholds cells: 0 a hole, 1 a foothold (bools and `"0"`/`"1"` allowed).
struct FootholdReader;

impl CellReader for FootholdReader {
    type Cell = bool;

    fn read_char(&mut self, c: char) -> Result<bool> {
        match c {
            '1' => Ok(true),
            '0' => Ok(false),
            _ => malformed!(
                "unknown symbol {} in board (cells are 0 for a hole, 1 for a foothold)",
                describe_char(c)
            ),
        }
    }

    fn read_number(&mut self, cell: &Item) -> Result<bool> {
        match cell {
            Item::Bool(flag) => Ok(*flag),
            Item::Int(0) => Ok(false),
            Item::Int(1) => Ok(true),
            Item::Int(value) => malformed!("cell value {value} is not 0 or 1"),
            Item::BigInt => malformed!("cell value is out of range: cells are 0 or 1"),
            other => Err(cell_type_error(other)),
        }
    }
}

/// Reads a board: rows of 0/1 (bools allowed) or a text of rows such as `"111/101/111"`.
pub fn parse_board(board: &Item) -> Result<Board> {
    let grid = read_grid(board, &mut FootholdReader, MAX_CELLS)?;
    let footholds = grid
        .cells
        .iter()
        .enumerate()
        .fold(0u64, |mask, (cell, &foothold)| {
            mask | u64::from(foothold) << cell
        });
    Ok(Board::new(grid.rows, grid.cols, footholds))
}

/// Reads a player's location, a (row, col) pair that must be a foothold of the board.
pub fn parse_location(location: &Item, name: &str, board: &Board) -> Result<u8> {
    let Some(len) = location.sequence_len() else {
        return Err(Error::WrongType(format!(
            "{name} must be a (row, col) pair, not {}",
            location.type_word()
        )));
    };
    let Item::Seq(pair) = location else {
        return malformed!("{name} must be a (row, col) pair, got a sequence of {len} items");
    };
    let [row, col] = pair.as_slice() else {
        return malformed!("{name} must be a (row, col) pair, got a sequence of {len} items");
    };
    let coordinate = |item: &Item| match item {
        Item::Int(value) => Ok(*value),
        Item::BigInt => Ok(i64::MAX),
        other => Err(Error::WrongType(format!(
            "{name} must hold ints, not {}",
            other.type_word()
        ))),
    };
    let (row, col) = (coordinate(row)?, coordinate(col)?);
    let on_board = (0..board.rows as i64).contains(&row) && (0..board.cols as i64).contains(&col);
    if !on_board {
        return malformed!(
            "{name} ({row}, {col}) is off the {}x{} board",
            board.rows,
            board.cols
        );
    }
    let cell = board.cell(row as usize, col as usize);
    if board.footholds >> cell & 1 == 0 {
        return malformed!(
            "{name} ({row}, {col}) is on a hole: pieces stand on footholds, cells of 1"
        );
    }
    Ok(cell)
}

/// A batch of games read once: each row's board (an index into `boards`: equal boards are
/// read and kept once) with A's and B's cells, and the batch's board size.
pub struct Batch {
    pub rows: Parsed<(usize, u8, u8)>,
    pub boards: Vec<Board>,
    pub size: Option<(usize, usize)>,
}

/// Reads a batch of games from its boards, A's and B's locations: each one argument for every
/// row, or one per row (as many rows each). `monitor` as in `input::rows::parse_rows`.
pub fn parse_batch(
    boards: &Rows,
    alocs: &Rows,
    blocs: &Rows,
    monitor: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Batch> {
    let counts: Vec<usize> = [boards.count(), alocs.count(), blocs.count()]
        .into_iter()
        .flatten()
        .collect();
    if counts.iter().any(|&count| count != counts[0]) {
        return malformed!("boards, alocs and blocs have different numbers of rows: {counts:?}");
    }
    let count = counts.first().copied().unwrap_or(1);
    let (mut rows, mut kept, mut size) = (Parsed::with_capacity(count)?, Vec::new(), None);
    let mut index_of: HashMap<u64, usize> = HashMap::new();
    let shared = match boards {
        Rows::Shared(item) => Some(item.clone().and_then(|item| parse_board(&item))),
        _ => None,
    };
    for row in 0..count {
        look(row, row, count, monitor)?;
        let board = match &shared {
            Some(board) => board.clone(),
            None => boards.item(row).and_then(|item| parse_board(&item)),
        };
        rows.push(board.and_then(|board| {
            let (rows, cols) = *size.get_or_insert((board.rows, board.cols));
            if (board.rows, board.cols) != (rows, cols) {
                return malformed!(
                    "board is {}x{}, not {rows}x{cols} as the batch",
                    board.rows,
                    board.cols
                );
            }
            let a = parse_location(&*alocs.item(row)?, "aloc", &board)?;
            let b = parse_location(&*blocs.item(row)?, "bloc", &board)?;
            let index = *index_of.entry(board.footholds).or_insert_with(|| {
                kept.push(board);
                kept.len() - 1
            });
            Ok((index, a, b))
        }));
    }
    Ok(Batch {
        rows,
        boards: kept,
        size,
    })
}

/// A position: the footholds left and the two pieces, the side to move first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub footholds: u64,
    pub me: u8,
    pub you: u8,
}

impl Position {
    /// The cells the side to move may step to (none if its own cell is gone).
    #[inline]
    pub fn moves(&self, board: &Board) -> u64 {
        if self.footholds >> self.me & 1 == 0 {
            return 0;
        }
        board.neighbours[self.me as usize] & self.footholds
    }

    /// The position after the side to move steps to `to`; the opponent moves next.
    #[inline]
    pub fn play(&self, to: u8) -> Position {
        Position {
            footholds: self.footholds & !(1 << self.me),
            me: self.you,
            you: to,
        }
    }

    pub fn cells_left(&self) -> u32 {
        self.footholds.count_ones()
    }
}

/// A game played at random for up to `plies` plies from `start`, two at a time, ending at the
/// last position a batch takes: A to move, both pieces on footholds (a game that ends stops
/// the walk where it stood; with `ongoing`, so does a pair of moves after which A has none).
pub fn random_walk(
    board: &Board,
    start: &Position,
    plies: u32,
    random: &mut crate::engine::random::SplitMix64,
    ongoing: bool,
) -> Position {
    let mut end = *start;
    for _ in 0..plies / 2 {
        let next = crate::engine::random::play(board, &end, 2, random, false);
        let moved = end.footholds.count_ones() - next.footholds.count_ones();
        let standing = |cell: u8| next.footholds >> cell & 1 == 1;
        if moved < 2 || !standing(next.me) || !standing(next.you) {
            break;
        }
        if ongoing && next.moves(board) == 0 {
            break;
        }
        end = next;
    }
    end
}

/// The rules of play on a board: moves are the destination cells.
impl Rules for Board {
    type Position = Position;

    fn moves(&self, position: &Position) -> u64 {
        position.moves(self)
    }

    fn play(&self, position: &Position, to: u8) -> Position {
        position.play(to)
    }

    fn cells_left(&self, position: &Position) -> u32 {
        position.cells_left()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_without_wrapping_rows() {
        let board = Board::new(3, 3, 0b111_111_111);
        assert_eq!(board.neighbours[0], 0b000_001_010);
        assert_eq!(board.neighbours[2], 0b000_100_010);
        assert_eq!(board.neighbours[4], 0b010_101_010);
        assert_eq!(board.neighbours[8], 0b010_100_000);
        let wide = Board::new(1, 64, u64::MAX);
        assert_eq!(wide.neighbours[63], 1 << 62);
        let tall = Board::new(8, 8, u64::MAX);
        assert_eq!(tall.neighbours[63], 1 << 62 | 1 << 55);
        assert_eq!(board.region(1, 0b111_101_111), 0b111_101_111);
        assert_eq!(board.rings[4], 0b111_101_111);
        assert_eq!(board.rings[0], 0b000_011_010);
        assert!(board.removal_is_local(4, 0b111_101_111));
        assert!(!board.removal_is_local(4, 0b000_111_000));
        assert!(board.removal_is_local(3, 0b000_111_000));
        assert_eq!(board.region(1, 0b111_000_111), 0b000_000_111);
    }

    #[test]
    fn finds_the_symmetries_that_keep_the_footholds() {
        let full = Board::new(3, 3, 0b111_111_111);
        assert_eq!(full.symmetries().count(), 8);
        // 110/111/111: only the reflection in the anti-diagonal keeps the hole at (0, 2).
        let notched = Board::new(3, 3, 0b111_111_011);
        let kept: Vec<_> = notched.symmetries().collect();
        assert_eq!(kept.len(), 2);
        let grid = &notched.grid;
        assert_eq!((grid.map(kept[1], 2), grid.map(kept[1], 0)), (2, 8));
        // A 2x3 board cannot be transposed: the two flips and their product remain.
        assert_eq!(Board::new(2, 3, 0b111_111).symmetries().count(), 4);
        assert_eq!(Board::new(2, 3, 0b111_110).symmetries().count(), 1);
    }

    #[test]
    fn parses_boards_and_locations() {
        let board = parse_board(&Item::Text("111/101/111".into())).unwrap();
        assert_eq!(
            (board.rows, board.cols, board.footholds),
            (3, 3, 0b111_101_111)
        );
        let location = Item::Seq(vec![Item::Int(1), Item::Int(1)]);
        assert!(
            matches!(parse_location(&location, "aloc", &board), Err(Error::Malformed(m)) if m.contains("hole"))
        );
        let location = Item::Seq(vec![Item::Int(3), Item::Int(0)]);
        assert!(
            matches!(parse_location(&location, "aloc", &board), Err(Error::Malformed(m)) if m.contains("off"))
        );
        assert!(parse_board(&Item::Text("11/1".into())).is_err());
        assert!(parse_board(&Item::Text("12".into())).is_err());
    }
}
