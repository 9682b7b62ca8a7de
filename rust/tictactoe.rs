//! Tic-tac-toe, the (3,3,3) m,n,k-game, answered from a table of every position.
//!
//! A board is identified by its code `sum(mark[i] * 3^i)` over cells `i = 3*row + col`, with
//! marks 0 empty, 1 X, 2 O: the numbering of the batch input, so a numpy row turns into its code
//! with nine multiply-adds. The table holds, for each of the 3^9 codes, the score of the side to
//! move (or `NOT_LEGAL`) and the set of best moves. It is filled once, lazily and thread-safely,
//! by the m,n,k exhaustive search from the empty board, which reaches exactly the legal
//! positions.

use crate::board_input::{EMPTY, Item, MarkReader, O, X, board_type_error};
use crate::error::{Error, Result, malformed};
use crate::mnk::{Board, Geometry, Memo, exhaustive_score};
use crate::score::{self, Score};
use crate::search::cells_of;
use crate::solution::Solution;
use std::sync::OnceLock;

pub const CELLS: usize = 9;
/// 3^9: every assignment of marks to cells.
pub const CODES: usize = 19_683;
/// Marks a code no game reaches, in every per-code array.
pub const NOT_LEGAL: i8 = i8::MIN;

const POW3: [u32; CELLS] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

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

/// Per-character class for the text fast path: 0..=2 a symbol mark, 3..=5 a digit mark plus 3,
/// `SEPARATOR`, or `OTHER` (any other byte, including every byte of a non-ASCII character).
static CHAR_CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    class[b'x' as usize] = X;
    class[b'X' as usize] = X;
    class[b'o' as usize] = O;
    class[b'O' as usize] = O;
    class[b'.' as usize] = EMPTY;
    class[b'-' as usize] = EMPTY;
    class[b'_' as usize] = EMPTY;
    class[b'0' as usize] = 3 + EMPTY;
    class[b'1' as usize] = 3 + X;
    class[b'2' as usize] = 3 + O;
    let separators = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c, b'/', b'|', b','];
    let mut i = 0;
    while i < separators.len() {
        class[separators[i] as usize] = SEPARATOR;
        i += 1;
    }
    class
};
const SEPARATOR: u8 = 6;
const OTHER: u8 = 7;

/// The code of a board given as text. Well-formed text is read in one pass over its bytes;
/// anything else goes to the general reader, which names the problem.
pub fn code_of_text(text: &str) -> Result<usize> {
    let mut code = 0u32;
    let mut cells = 0usize;
    let mut alphabets = 0u8;
    for &byte in text.as_bytes() {
        let class = CHAR_CLASS[byte as usize];
        if class == SEPARATOR {
            continue;
        }
        if class == OTHER || cells == CELLS {
            return code_of(&Item::Text(text.into()));
        }
        alphabets |= 1 << (class / 3);
        code += (class % 3) as u32 * POW3[cells];
        cells += 1;
    }
    if cells != CELLS || alphabets == 3 {
        return code_of(&Item::Text(text.into()));
    }
    Ok(code as usize)
}

/// The code of a board: 9 cells of text, a sequence of 9 cells, or 3 rows of 3.
pub fn code_of(board: &Item) -> Result<usize> {
    let mut reader = MarkReader::default();
    match board {
        Item::Text(text) => {
            let cells = reader.read_text(text)?;
            if cells != CELLS {
                return malformed!("board has {cells} cells, expected 9");
            }
        }
        Item::Seq(items) if items.len() == CELLS => {
            for cell in items {
                reader.read_cell(cell)?;
            }
        }
        Item::Seq(rows) if rows.len() == 3 => {
            for (index, row) in rows.iter().enumerate() {
                let cells = reader.read_row(row)?;
                if cells != 3 {
                    return malformed!("row {index} has {cells} cells, expected 3");
                }
            }
        }
        Item::Seq(items) => {
            return malformed!(
                "board must have 9 cells or 3 rows of 3, got a sequence of {} items",
                items.len()
            );
        }
        other => return Err(board_type_error(other)),
    }
    Ok(code_of_board(Board::from_marks(&reader.marks)))
}

/// Every code's answer, filled once.
pub struct Table {
    /// Score of the side to move (`score.rs`), or `NOT_LEGAL`.
    score: Box<[i8]>,
    /// Mask of the best moves (empty for a final position).
    best: Box<[u16]>,
    /// +1/0/-1 for the side to move, or `NOT_LEGAL`: what batch_values reads.
    pub value: Box<[i8]>,
    /// The first best move, -1 for a final position, or `NOT_LEGAL`: what batch_best_move reads.
    pub best_move: Box<[i8]>,
}

impl Memo for Table {
    fn recall(&self, mine: u64, theirs: u64) -> Option<Score> {
        let score = self.score[relative_code(mine, theirs)];
        (score != NOT_LEGAL).then_some(score as Score)
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

fn geometry() -> Geometry {
    Geometry::new(3, 3, 3).expect("3x3 is a valid m,n,k board")
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
    exhaustive_score(&geometry(), 0, 0, &mut table);
    table
}

/// (cell, child code) for every move of a non-final position (none for a final one).
fn children(geometry: &Geometry, code: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let board = board_of_code(code);
    let (_, theirs) = board.relative();
    let finished = geometry.has_line(theirs) || (board.x | board.o) == geometry.full;
    let mark = if board.x_to_move() { X } else { O } as usize;
    (0..CELLS)
        .filter(move |&cell| !finished && (board.x | board.o) >> cell & 1 == 0)
        .map(move |cell| (cell, code + mark * POW3[cell] as usize))
}

/// The table, built on first use (about a tenth of a millisecond).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Why a code is not a legal position.
pub fn illegal_reason(code: usize) -> Error {
    match board_of_code(code).status(&geometry()) {
        Err(error) => error,
        Ok(_) => unreachable!("every legal position is in the table"),
    }
}

/// Who wins from a position under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    X,
    O,
    Draw,
}

impl Table {
    fn legal_score(&self, code: usize) -> Result<Score> {
        match self.score[code] {
            NOT_LEGAL => Err(illegal_reason(code)),
            score => Ok(score as Score),
        }
    }

    pub fn is_reachable(&self, code: usize) -> bool {
        self.score[code] != NOT_LEGAL
    }

    /// Reachable and final (a line, or a full board).
    pub fn is_valid_final(&self, code: usize) -> bool {
        self.is_reachable(code) && self.best[code] == 0
    }

    pub fn value(&self, code: usize) -> Result<i8> {
        self.legal_score(code).map(score::value)
    }

    /// 'x' or 'o', or `None` for a final position.
    pub fn to_move(&self, code: usize) -> Result<Option<char>> {
        self.legal_score(code)?;
        if self.best[code] == 0 {
            return Ok(None);
        }
        Ok(Some(if board_of_code(code).x_to_move() {
            'x'
        } else {
            'o'
        }))
    }

    pub fn outcome(&self, code: usize) -> Result<Outcome> {
        let value = self.value(code)?;
        let x_to_move = board_of_code(code).x_to_move();
        Ok(match value {
            0 => Outcome::Draw,
            v if (v > 0) == x_to_move => Outcome::X,
            _ => Outcome::O,
        })
    }

    pub fn best_move(&self, code: usize) -> Result<Option<u8>> {
        self.legal_score(code)?;
        Ok(u8::try_from(self.best_move[code]).ok())
    }

    fn plies(&self, code: usize) -> u32 {
        let board = board_of_code(code);
        let empties = CELLS as u32 - (board.x | board.o).count_ones();
        score::plies(self.score[code] as Score, empties)
    }

    pub fn solve(&self, code: usize) -> Result<Solution<u8>> {
        let score = self.legal_score(code)?;
        let winner = match self.outcome(code)? {
            Outcome::X => Some("x"),
            Outcome::O => Some("o"),
            Outcome::Draw => None,
        };
        let best_moves = cells_of(self.best[code].into()).collect();
        let mut line = Vec::new();
        let geometry = geometry();
        let mut here = code;
        while let Some(first) = cells_of(self.best[here].into()).next() {
            line.push(first);
            here = children(&geometry, here)
                .find(|&(cell, _)| cell == first as usize)
                .map(|(_, child)| child)
                .expect("a best move is a legal move");
        }
        Ok(Solution {
            value: score::value(score),
            winner,
            plies: self.plies(code),
            best_moves,
            line,
            nodes: 0,
        })
    }

    /// (move, value for the player making it, plies from now with the move) for every move.
    pub fn analyze(&self, code: usize) -> Result<Vec<(u8, i8, u32)>> {
        self.legal_score(code)?;
        Ok(children(&geometry(), code)
            .map(|(cell, child)| {
                let score = self.score[child] as Score;
                (cell as u8, -score::value(score), 1 + self.plies(child))
            })
            .collect())
    }
}

/// A cell value of a batch array, as its mark (0, 1, 2) or `None` when out of range.
pub trait CellCode: Copy + std::fmt::Display + Send + Sync {
    fn mark(self) -> Option<u8>;
}

macro_rules! cell_code {
    ($($t:ty),*) => {$(
        impl CellCode for $t {
            #[inline]
            fn mark(self) -> Option<u8> {
                (0..=2).contains(&self).then_some(self as u8)
            }
        }
    )*};
}
cell_code!(u8, i8, u16, i16, u32, i32, u64, i64);

/// The first bad row of a batch and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchError {
    pub row: usize,
    pub error: Error,
}

/// The signature of [`lookup_rows`] and [`lookup_rows_u8`].
pub type LookupRows<T> = fn(&[T], &[i8], &mut [i8]) -> std::result::Result<(), BatchError>;

/// `out[r] = per_code[code of row r]` for a batch of rows of 9 cells, row-major.
/// `per_code` is `Table::value` or `Table::best_move`; stops at the first bad row.
pub fn lookup_rows<T: CellCode>(
    cells: &[T],
    per_code: &[i8],
    out: &mut [i8],
) -> std::result::Result<(), BatchError> {
    debug_assert_eq!(cells.len(), out.len() * CELLS);
    for (row, (chunk, slot)) in cells.chunks_exact(CELLS).zip(out.iter_mut()).enumerate() {
        let chunk: &[T; CELLS] = chunk.try_into().expect("chunks of 9");
        // An out-of-range cell counts CODES, which pushes the sum past every code: one
        // comparison checks the whole row.
        let code: u32 = chunk
            .iter()
            .zip(POW3)
            .map(|(&value, weight)| value.mark().map_or(CODES as u32, u32::from) * weight)
            .sum();
        let answer = per_code.get(code as usize).copied().unwrap_or(NOT_LEGAL);
        if answer == NOT_LEGAL {
            return Err(BatchError {
                row,
                error: match chunk.iter().find(|value| value.mark().is_none()) {
                    Some(bad) => Error::Malformed(format!("cell value {bad} is not 0, 1 or 2")),
                    None => illegal_reason(code as usize),
                },
            });
        }
        *slot = answer;
    }
    Ok(())
}

/// [`lookup_rows`] for the common `uint8` input, eight cells at a time: the bytes of a row are
/// read as one `u64` and turned into base 3 by pairwise multiply-adds (SWAR), which is several
/// times fewer instructions than nine separate ones.
pub fn lookup_rows_u8(
    cells: &[u8],
    per_code: &[i8],
    out: &mut [i8],
) -> std::result::Result<(), BatchError> {
    const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    const LOW_PAIRS: u64 = 0x0000_ffff_0000_ffff;
    const ONES: u64 = 0x0101_0101_0101_0101;
    for (row, (chunk, slot)) in cells.chunks_exact(CELLS).zip(out.iter_mut()).enumerate() {
        let first = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
        let last = chunk[8];
        // A byte above 2 has a bit above the lowest two, or both of them set (3).
        let out_of_range = first & !(ONES * 3) != 0 || first & (first >> 1) & ONES != 0 || last > 2;
        let pairs = (first & LOW_BYTES) + 3 * ((first >> 8) & LOW_BYTES);
        let quads = (pairs & LOW_PAIRS) + 9 * ((pairs >> 16) & LOW_PAIRS);
        let code = (quads & 0xffff_ffff) + 81 * (quads >> 32) + 6561 * last as u64;
        let answer = if out_of_range {
            NOT_LEGAL
        } else {
            per_code[code as usize]
        };
        if answer == NOT_LEGAL {
            // The general path names the problem.
            return lookup_rows(chunk, per_code, std::slice::from_mut(slot))
                .map_err(|error| BatchError { row, ..error });
        }
        *slot = answer;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_facts() {
        let table = table();
        let legal: Vec<usize> = (0..CODES).filter(|&c| table.is_reachable(c)).collect();
        assert_eq!(legal.len(), 5478);
        let finals: Vec<usize> = legal
            .iter()
            .copied()
            .filter(|&c| table.is_valid_final(c))
            .collect();
        assert_eq!(finals.len(), 958);
        let count = |outcome| {
            finals
                .iter()
                .filter(|&&c| table.outcome(c) == Ok(outcome))
                .count()
        };
        assert_eq!(
            (count(Outcome::X), count(Outcome::O), count(Outcome::Draw)),
            (626, 316, 16)
        );
        let empty = table.solve(0).unwrap();
        assert_eq!(
            (empty.value, empty.plies, empty.best_moves.len()),
            (0, 9, 9)
        );
        assert_eq!(empty.line.len(), 9);
    }

    #[test]
    fn fast_text_path_agrees_with_the_reader() {
        for text in [
            "xxo/oo./x..",
            "120 000 000",
            "x........",
            "xxo oo. x..",
            "x1.......",
            "xq",
            "",
        ] {
            let slow = code_of(&Item::Text(text.into()));
            assert_eq!(code_of_text(text), slow, "{text}");
        }
    }

    #[test]
    fn batch_names_the_first_bad_row() {
        let table = table();
        let rows: Vec<u8> = [[0u8; 9], [1, 1, 1, 0, 0, 0, 0, 0, 0], [3; 9]].concat();
        let mut out = vec![0i8; 3];
        let error = lookup_rows(&rows, &table.value, &mut out).unwrap_err();
        assert_eq!(error.row, 1);
        assert!(matches!(error.error, Error::Illegal(_)));
        let error = lookup_rows(&rows[18..], &table.value, &mut out[2..]).unwrap_err();
        assert!(matches!(error.error, Error::Malformed(_)));
        assert_eq!(
            lookup_rows_u8(&rows, &table.value, &mut out),
            Err(lookup_rows(&rows, &table.value, &mut out).unwrap_err())
        );
    }

    #[test]
    fn eight_at_a_time_reads_every_row_like_one_at_a_time() {
        let table = table();
        let rows: Vec<u8> = (0..CODES)
            .flat_map(|code| (0..CELLS).map(move |cell| (code / 3usize.pow(cell as u32) % 3) as u8))
            .collect();
        let (mut fast, mut plain) = (vec![0i8; CODES], vec![0i8; CODES]);
        for start in (0..CODES).step_by(97) {
            let (cells, fast, plain) =
                (&rows[start * 9..], &mut fast[start..], &mut plain[start..]);
            assert_eq!(
                lookup_rows_u8(cells, &table.value, fast),
                lookup_rows(cells, &table.value, plain)
            );
        }
        for bad in [3u8, 4, 7, 128, 255] {
            for cell in 0..CELLS {
                let mut row = [0u8; CELLS];
                row[cell] = bad;
                assert!(
                    lookup_rows_u8(&row, &table.value, &mut [0]).is_err(),
                    "{bad} at {cell}"
                );
            }
        }
    }
}
