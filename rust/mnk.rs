//! m,n,k-games: the board geometry, positions, legality, and the plain exhaustive search that
//! every faster search here is checked against (and that fills the tic-tac-toe table).
//!
//! Bit layout: cell `(row, col)` of a `rows x cols` board is bit `row * cols + col` of a `u64`
//! (rows * cols <= 64). A position is two such masks. The searches keep them relative to the
//! side to move (`mine`, `theirs`); legality and the Python side see them as X and O.

use crate::board_input::{EMPTY, O, X};
use crate::error::{Error, Result, malformed};
use crate::score::{self, DRAW, Score};
use std::collections::HashMap;

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
    pub fn new(rows: usize, cols: usize, k: usize) -> Result<Geometry> {
        if rows == 0 || cols == 0 {
            return malformed!("board is empty");
        }
        if rows * cols > 64 {
            return malformed!("board has {} cells; at most 64 are supported", rows * cols);
        }
        if k == 0 || k > rows.max(cols) {
            return malformed!(
                "k must be between 1 and {} for a {rows}x{cols} board, got {k}",
                rows.max(cols)
            );
        }
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

    /// Does `stones` hold k in a row through `cell`?
    #[inline]
    pub fn has_line_through(&self, stones: u64, cell: usize) -> bool {
        self.windows_through[cell].iter().any(|&w| w & !stones == 0)
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
            // The winner's last move completed every line it has, so they share a cell.
            let common = geometry
                .windows
                .iter()
                .filter(|&&w| stones & w == w)
                .fold(u64::MAX, |common, &w| common & w);
            if common == 0 {
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

/// Remembers exact scores of positions (mine, theirs) for [`exhaustive_score`].
pub trait Memo {
    fn recall(&self, mine: u64, theirs: u64) -> Option<Score>;
    /// `best_moves`: the mask of moves that reach `score` (empty once the game is over).
    fn remember(&mut self, mine: u64, theirs: u64, score: Score, best_moves: u64);
}

impl Memo for HashMap<(u64, u64), Score> {
    fn recall(&self, mine: u64, theirs: u64) -> Option<Score> {
        HashMap::get(self, &(mine, theirs)).copied()
    }
    fn remember(&mut self, mine: u64, theirs: u64, score: Score, _best_moves: u64) {
        self.insert((mine, theirs), score);
    }
}

/// The exact score of a legal position with `mine` to move: plain negamax over every move, no
/// pruning, memoised. It is the reference the fast search is tested against.
pub fn exhaustive_score(
    geometry: &Geometry,
    mine: u64,
    theirs: u64,
    memo: &mut impl Memo,
) -> Score {
    if let Some(known) = memo.recall(mine, theirs) {
        return known;
    }
    let empty = geometry.full & !(mine | theirs);
    let (mut best, mut best_moves) = (Score::MIN, 0u64);
    if geometry.has_line(theirs) {
        best = score::loss(empty.count_ones());
    } else if empty == 0 {
        best = DRAW;
    } else {
        let mut moves = empty;
        while moves != 0 {
            let cell = 1u64 << moves.trailing_zeros();
            moves &= moves - 1;
            let score = -exhaustive_score(geometry, theirs, mine | cell, memo);
            if score > best {
                (best, best_moves) = (score, cell);
            } else if score == best {
                best_moves |= cell;
            }
        }
    }
    memo.remember(mine, theirs, best, best_moves);
    best
}

/// The exhaustive search's answer for a legal board: (value, plies, best moves ascending).
pub fn exhaustive_solve(geometry: &Geometry, board: Board) -> (i8, u32, Vec<u8>) {
    let (mine, theirs) = board.relative();
    let mut memo = HashMap::new();
    let score = exhaustive_score(geometry, mine, theirs, &mut memo);
    let empty = geometry.full & !(mine | theirs);
    let over = geometry.has_line(theirs);
    let best = (0..geometry.cells() as u8)
        .filter(|&cell| !over && empty >> cell & 1 == 1)
        .filter(|&cell| -exhaustive_score(geometry, theirs, mine | 1 << cell, &mut memo) == score)
        .collect();
    (
        score::value(score),
        score::plies(score, empty.count_ones()),
        best,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(geometry: &Geometry, text: &str) -> Board {
        let item = crate::board_input::Item::Text(text.into());
        let grid = crate::board_input::read_mark_grid(&item).unwrap();
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

    #[test]
    fn tic_tac_toe_is_a_draw_in_nine() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let score = exhaustive_score(&g, 0, 0, &mut HashMap::new());
        assert_eq!(score, DRAW);
    }
}
