//! The marks of tic-tac-toe and m,n,k boards, in one of two alphabets, never mixed in one
//! board: symbols `x X o O` with `.` `-` `_` for empty, or digits `0` empty, `1` X, `2` O. In a
//! sequence, the ints 0/1/2 belong to the digit alphabet.

use crate::engine::error::{Result, malformed};
use crate::input::grid::{CellReader, Grid, read_grid};
use crate::input::{Item, MAX_CELLS, cell_type_error, describe_char};

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

/// Reads marks (`EMPTY`, `X`, `O`), holding every board to one alphabet.
#[derive(Default)]
pub struct MarkReader {
    alphabet: Option<Alphabet>,
}

impl MarkReader {
    fn check(&mut self, mark: u8, alphabet: Alphabet) -> Result<u8> {
        match self.alphabet {
            Some(seen) if seen != alphabet => malformed!("{MIXED_ALPHABETS}"),
            _ => {
                self.alphabet = Some(alphabet);
                Ok(mark)
            }
        }
    }
}

impl CellReader for MarkReader {
    type Cell = u8;

    fn read_char(&mut self, c: char) -> Result<u8> {
        match decode_mark(c) {
            Some((mark, alphabet)) => self.check(mark, alphabet),
            None => malformed!("unknown symbol {} in board", describe_char(c)),
        }
    }

    fn read_number(&mut self, cell: &Item) -> Result<u8> {
        match cell {
            Item::Int(code @ 0..=2) => self.check(*code as u8, Alphabet::Digits),
            Item::Int(code) => malformed!("cell value {code} is not 0, 1 or 2"),
            Item::BigInt => malformed!("cell value is out of range: cells are 0, 1 or 2"),
            other => Err(cell_type_error(other)),
        }
    }
}

/// Reads a multi-row board of marks (m,n,k): a text of rows or a sequence of rows, of at most
/// [`MAX_CELLS`] cells.
pub fn read_mark_grid(board: &Item) -> Result<Grid<u8>> {
    read_mark_grid_of(board, MAX_CELLS)
}

/// [`read_mark_grid`] of at most `most` cells.
pub fn read_mark_grid_of(board: &Item, most: usize) -> Result<Grid<u8>> {
    read_grid(board, &mut MarkReader::default(), most)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::error::Error;

    fn text(s: &str) -> Item<'_> {
        Item::Text(s.into())
    }

    #[test]
    fn reads_symbols_and_digits_but_not_both() {
        let mut marks = Vec::new();
        assert_eq!(
            MarkReader::default().read_text("xO. /-_ |,", &mut marks),
            Ok(5)
        );
        assert_eq!(marks, vec![X, O, EMPTY, EMPTY, EMPTY]);
        assert!(MarkReader::default().read_text("x1", &mut marks).is_err());
        assert!(matches!(
            MarkReader::default().read_text("xq", &mut marks),
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
        assert!(read_mark_grid(&Item::Seq(vec![Item::Long(1 << 40); 2])).is_err());
        assert!(matches!(
            read_mark_grid(&Item::Seq(vec![Item::Int(1)])),
            Err(Error::WrongType(_))
        ));
    }
}
