//! Every position of the (3,3,3) game solved: tic-tac-toe, and the 3x3 member of the m,n,k
//! family, are answered from this table.
//!
//! A board is identified by its code `sum(mark[i] * 3^i)` over cells `i = 3*row + col`, with
//! marks 0 empty, 1 X, 2 O: the numbering of the batch input, so a numpy row turns into its code
//! with nine multiply-adds. The table holds, for each of the 3^9 codes, the score of the side to
//! move (or `NOT_LEGAL`) and the set of best moves. It is filled once, lazily and thread-safely,
//! by the exhaustive search from the empty board, which reaches exactly the legal positions.

use crate::engine::budget::Stop;
use crate::engine::driver::Answers;
use crate::engine::error::Error;
use crate::engine::score::{self, Score};
use crate::games::mnk::exhaustive::{Memo, exhaustive_score};
use crate::games::mnk::{Board, Geometry};
use crate::input::marks::EMPTY;
use std::sync::OnceLock;

pub const CELLS: usize = 9;
/// 3^9: every assignment of marks to cells.
pub const CODES: usize = 19_683;
/// Marks a code no game reaches, in every per-code array.
pub const NOT_LEGAL: i8 = i8::MIN;

pub const POW3: [u32; CELLS] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// `BASE3[mask]`: the sum of `3^i` over the bits `i` of a 9-bit mask.
static BASE3: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut cell = 0;
        while cell < CELLS {
            if mask >> cell & 1 == 1 {
                table[mask] += POW3[cell] as u16;
            }
            cell += 1;
        }
        mask += 1;
    }
    table
};

pub fn code_of_board(board: Board) -> usize {
    BASE3[board.x as usize] as usize + 2 * BASE3[board.o as usize] as usize
}

pub fn board_of_code(mut code: usize) -> Board {
    let mut marks = [EMPTY; CELLS];
    for mark in &mut marks {
        *mark = (code % 3) as u8;
        code /= 3;
    }
    Board::from_marks(&marks)
}

/// Every code's answer, filled once.
pub struct Table {
    /// Score of the side to move (`score.rs`), or `NOT_LEGAL`.
    score: Box<[i8]>,
    /// Mask of the best moves (empty for a final position).
    best: Box<[u16]>,
    /// +1/0/-1 for the side to move, or `NOT_LEGAL`: what batch values read.
    pub value: Box<[i8]>,
    /// The first best move, -1 for a final position, or `NOT_LEGAL`: what batch best moves read.
    pub best_move: Box<[i8]>,
}

impl Memo for Table {
    fn recall(&self, mine: u64, theirs: u64) -> Option<Score> {
        let score = self.score[relative_code(mine, theirs)];
        (score != NOT_LEGAL).then_some(Score::from(score))
    }
    fn remember(&mut self, mine: u64, theirs: u64, score: Score, best_moves: u64) {
        let code = relative_code(mine, theirs);
        self.score[code] = score as i8;
        self.best[code] = best_moves as u16;
        self.value[code] = score::value(score);
        self.best_move[code] = if best_moves == 0 {
            -1
        } else {
            best_moves.trailing_zeros() as i8
        };
    }
}

/// The code of a position given relative to the side to move (X moves when counts are equal).
fn relative_code(mine: u64, theirs: u64) -> usize {
    let board = if mine.count_ones() == theirs.count_ones() {
        Board { x: mine, o: theirs }
    } else {
        Board { x: theirs, o: mine }
    };
    code_of_board(board)
}

/// The (3,3,3) game's geometry: the rules every tic-tac-toe answer is played by.
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| Geometry::new(3, 3, 3).expect("3x3 is a valid m,n,k board"))
}

/// Fills the table: the exhaustive search from the empty board scores every legal position
/// (it reaches exactly those) and records each one's best moves as it goes.
pub fn build_table() -> Table {
    let mut table = Table {
        score: vec![NOT_LEGAL; CODES].into_boxed_slice(),
        best: vec![0u16; CODES].into_boxed_slice(),
        value: vec![NOT_LEGAL; CODES].into_boxed_slice(),
        best_move: vec![NOT_LEGAL; CODES].into_boxed_slice(),
    };
    exhaustive_score(geometry(), 0, 0, &mut table);
    table
}

/// The table, built on first use (about a tenth of a millisecond).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Why a code is not a legal position.
pub fn illegal_reason(code: usize) -> Error {
    match board_of_code(code).status(geometry()) {
        Err(error) => error,
        Ok(_) => unreachable!("every legal position is in the table"),
    }
}

impl Table {
    /// The score of a legal code, or why the code is not legal.
    pub fn legal_score(&self, code: usize) -> Result<Score, Error> {
        match self.score[code] {
            NOT_LEGAL => Err(illegal_reason(code)),
            score => Ok(Score::from(score)),
        }
    }

    pub fn is_reachable(&self, code: usize) -> bool {
        self.score[code] != NOT_LEGAL
    }

    /// Reachable and final (a line, or a full board).
    pub fn is_final(&self, code: usize) -> bool {
        self.is_reachable(code) && self.best[code] == 0
    }

    /// The table as a search for the generic driver: every score is a lookup.
    pub fn lookup(&'static self) -> Lookup {
        Lookup(self)
    }
}

/// The solved table as an answer source over the m,n,k rules: the driver gets best moves,
/// lines and analyses from it without a node searched.
#[derive(Clone, Copy)]
pub struct Lookup(&'static Table);

impl Answers<Geometry> for Lookup {
    fn exact(&mut self, _: &Geometry, board: &Board) -> Result<Score, Stop> {
        Ok(Score::from(self.0.score[code_of_board(*board)]))
    }

    fn nodes(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_facts() {
        let table = table();
        let legal = (0..CODES).filter(|&c| table.is_reachable(c)).count();
        let finals = (0..CODES).filter(|&c| table.is_final(c)).count();
        assert_eq!((legal, finals), (5478, 958));
    }
}
