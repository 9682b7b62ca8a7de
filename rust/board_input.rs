//! How boards arrive: the argument reduced to plain data, separators, rows, and the two mark
//! alphabets. Each game's parser (tic-tac-toe, m,n,k, footholds) is built from these pieces, so
//! the rules below are written once for the Rust backend.
//!
//! * Text: cells are single characters; ASCII whitespace, `/`, `|` and `,` are separators.
//!   Multi-row boards (m,n,k and footholds) break rows at `/` and newlines; blank rows are
//!   dropped.
//! * Marks (tic-tac-toe and m,n,k) come in one of two alphabets, never mixed in one board:
//!   symbols `x X o O` with `.` `-` `_` for empty, or digits `0` empty, `1` X, `2` O. In a
//!   sequence, the ints 0/1/2 belong to the digit alphabet.

use crate::error::{Error, Result, malformed};
use std::borrow::Cow;

/// A board argument reduced to what parsing needs (built by the glue from Python objects).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item<'a> {
    Bool(bool),
    Int(i64),
    /// An int outside the `i64` range.
    BigInt,
    Text(Cow<'a, str>),
    /// A sequence (list, tuple, numpy array, ...). Nested deeper than parsing looks, it arrives
    /// with its items left out: an item of a cell is never inspected.
    Seq(Vec<Item<'a>>),
    /// Anything else, by its type name.
    Other(String),
}

/// The deepest level whose items a parser inspects (board, rows, cells).
pub const MAX_DEPTH: usize = 2;

impl Item<'_> {
    /// The word naming this item's type in error messages.
    pub fn type_word(&self) -> &str {
        match self {
            Item::Bool(_) => "bool",
            Item::Int(_) | Item::BigInt => "int",
            Item::Text(_) => "str",
            Item::Seq(_) => "sequence",
            Item::Other(name) => name,
        }
    }
}

/// Characters skipped between cells.
pub fn is_separator(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '/' | '|' | ','
    )
}

/// The rows of a multi-row text board, blank rows dropped.
pub fn text_rows(text: &str) -> impl Iterator<Item = &str> {
    text.split(['/', '\n', '\r'])
        .filter(|row| !row.chars().all(is_separator))
}

/// A character as error messages show it: `'q'` when printable ASCII, else `U+00E9`.
pub fn describe_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else {
        format!("U+{:04X}", c as u32)
    }
}

pub const EMPTY: u8 = 0;
pub const X: u8 = 1;
pub const O: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alphabet {
    Symbols,
    Digits,
}

fn decode_mark(c: char) -> Option<(u8, Alphabet)> {
    Some(match c {
        'x' | 'X' => (X, Alphabet::Symbols),
        'o' | 'O' => (O, Alphabet::Symbols),
        '.' | '-' | '_' => (EMPTY, Alphabet::Symbols),
        '0' => (EMPTY, Alphabet::Digits),
        '1' => (X, Alphabet::Digits),
        '2' => (O, Alphabet::Digits),
        _ => return None,
    })
}

pub const MIXED_ALPHABETS: &str = "board mixes symbols (x, o, .) with digits (0, 1, 2)";

/// Reads marks (`EMPTY`, `X`, `O`) in board order, holding every board to one alphabet.
#[derive(Default)]
pub struct MarkReader {
    alphabet: Option<Alphabet>,
    pub marks: Vec<u8>,
}

impl MarkReader {
    fn push(&mut self, mark: u8, alphabet: Alphabet) -> Result<()> {
        match self.alphabet {
            Some(seen) if seen != alphabet => return malformed!("{MIXED_ALPHABETS}"),
            _ => self.alphabet = Some(alphabet),
        }
        self.marks.push(mark);
        Ok(())
    }

    fn push_char(&mut self, c: char) -> Result<()> {
        match decode_mark(c) {
            Some((mark, alphabet)) => self.push(mark, alphabet),
            None => malformed!("unknown symbol {} in board", describe_char(c)),
        }
    }

    /// Appends the marks of a text, skipping separators; returns how many it read.
    pub fn read_text(&mut self, text: &str) -> Result<usize> {
        let before = self.marks.len();
        for c in text.chars().filter(|&c| !is_separator(c)) {
            self.push_char(c)?;
        }
        Ok(self.marks.len() - before)
    }

    /// Appends one cell given as an item of a sequence.
    pub fn read_cell(&mut self, cell: &Item) -> Result<()> {
        match cell {
            Item::Int(code @ 0..=2) => self.push(*code as u8, Alphabet::Digits),
            Item::Int(code) => malformed!("cell value {code} is not 0, 1 or 2"),
            Item::BigInt => malformed!("cell value is out of range: cells are 0, 1 or 2"),
            Item::Text(text) => {
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => self.push_char(c),
                    _ => malformed!(
                        "cell must be a single character, got a str of length {}",
                        text.chars().count()
                    ),
                }
            }
            other => Err(cell_type_error(other)),
        }
    }

    /// Appends one row (a text or a sequence of cells); returns how many cells it held.
    pub fn read_row(&mut self, row: &Item) -> Result<usize> {
        match row {
            Item::Text(text) => self.read_text(text),
            Item::Seq(cells) => {
                for cell in cells {
                    self.read_cell(cell)?;
                }
                Ok(cells.len())
            }
            other => Err(row_type_error(other)),
        }
    }
}

pub fn cell_type_error(cell: &Item) -> Error {
    Error::WrongType(format!(
        "cell must be an int or a one-character str, not {}",
        cell.type_word()
    ))
}

pub fn row_type_error(row: &Item) -> Error {
    Error::WrongType(format!(
        "row must be a str or a sequence of cells, not {}",
        row.type_word()
    ))
}

pub fn board_type_error(board: &Item) -> Error {
    Error::WrongType(format!(
        "board must be a str or a sequence, not {}",
        board.type_word()
    ))
}

/// A rectangular board read row by row: `cells[row * cols + col]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid<T> {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<T>,
}

/// Most cells a board may have: one bit each in a `u64`.
pub const MAX_CELLS: usize = 64;

/// Checks that rows of the given lengths make a non-empty rectangle of at most 64 cells.
pub fn check_rectangle(row_lengths: &[usize]) -> Result<(usize, usize)> {
    let rows = row_lengths.len();
    let cols = row_lengths.first().copied().unwrap_or(0);
    if let Some(row) = row_lengths.iter().position(|&len| len != cols) {
        return malformed!(
            "board rows have different lengths: row 0 has {cols} cells, row {row} has {}",
            row_lengths[row]
        );
    }
    if rows * cols == 0 {
        return malformed!("board is empty");
    }
    if rows * cols > MAX_CELLS {
        return malformed!(
            "board has {} cells; at most {MAX_CELLS} are supported",
            rows * cols
        );
    }
    Ok((rows, cols))
}

/// Reads a multi-row board of marks (m,n,k): a text of rows or a sequence of rows.
pub fn read_mark_grid(board: &Item) -> Result<Grid<u8>> {
    let mut reader = MarkReader::default();
    let mut lengths = Vec::new();
    match board {
        Item::Text(text) => {
            for row in text_rows(text) {
                lengths.push(reader.read_text(row)?);
            }
        }
        Item::Seq(rows) => {
            for row in rows {
                lengths.push(reader.read_row(row)?);
            }
        }
        other => return Err(board_type_error(other)),
    }
    let (rows, cols) = check_rectangle(&lengths)?;
    Ok(Grid {
        rows,
        cols,
        cells: reader.marks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Item<'_> {
        Item::Text(Cow::Borrowed(s))
    }

    #[test]
    fn reads_symbols_and_digits_but_not_both() {
        let mut reader = MarkReader::default();
        assert_eq!(reader.read_text("xO. /-_ |,"), Ok(5));
        assert_eq!(reader.marks, vec![X, O, EMPTY, EMPTY, EMPTY]);
        assert!(MarkReader::default().read_text("x1").is_err());
        assert!(matches!(
            MarkReader::default().read_text("xq"),
            Err(Error::Malformed(m)) if m.contains("'q'")
        ));
    }

    #[test]
    fn grids_must_be_rectangles_of_at_most_64_cells() {
        let grid = read_mark_grid(&text("x../.o./...\n")).unwrap();
        assert_eq!((grid.rows, grid.cols), (3, 3));
        assert!(read_mark_grid(&text("x../.o")).is_err());
        assert!(read_mark_grid(&text("")).is_err());
        assert!(read_mark_grid(&text(&".".repeat(65))).is_err());
        assert!(matches!(
            read_mark_grid(&Item::Seq(vec![Item::Int(1)])),
            Err(Error::WrongType(_))
        ));
    }
}
