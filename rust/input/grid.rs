//! The one reader of rectangular boards (m,n,k and footholds): a text of rows, or a sequence
//! of rows each a text or a sequence of cells. What a cell may be is the game's
//! [`CellReader`]; the shape rules are here.

use crate::engine::error::{Error, Result, malformed};
use crate::input::{
    Item, board_type_error, cell_type_error, is_separator, row_type_error, text_rows,
};

/// A rectangular board read row by row: `cells[row * cols + col]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid<T> {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<T>,
}

/// What a game accepts as a cell.
pub trait CellReader {
    type Cell;
    /// A character of text that is not a separator.
    fn read_char(&mut self, c: char) -> Result<Self::Cell>;
    /// An int or a bool given as an item of a sequence.
    fn read_number(&mut self, cell: &Item) -> Result<Self::Cell>;

    /// One cell given as an item of a sequence: a one-character str, or what `read_number`
    /// takes.
    fn read_cell(&mut self, cell: &Item) -> Result<Self::Cell> {
        match cell {
            Item::Text(text) => {
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => self.read_char(c),
                    _ => malformed!(
                        "cell must be a single character, got a str of length {}",
                        text.chars().count()
                    ),
                }
            }
            Item::Int(_) | Item::BigInt | Item::Bool(_) => self.read_number(cell),
            other => Err(cell_type_error(other)),
        }
    }

    /// Appends the cells of a text, skipping separators; returns how many it read.
    fn read_text(&mut self, text: &str, cells: &mut Vec<Self::Cell>) -> Result<usize> {
        let before = cells.len();
        for c in text.chars().filter(|&c| !is_separator(c)) {
            cells.push(self.read_char(c)?);
        }
        Ok(cells.len() - before)
    }

    /// Appends one row (a text or a sequence of cells); returns how many cells it held. A row
    /// too long for any board is counted, not read.
    fn read_row(&mut self, row: &Item, cells: &mut Vec<Self::Cell>) -> Result<usize> {
        match row {
            Item::Text(text) => self.read_text(text, cells),
            Item::Seq(items) => {
                for cell in items {
                    let cell = self.read_cell(cell)?;
                    cells.push(cell);
                }
                Ok(items.len())
            }
            Item::Long(len) => Ok(*len),
            other => Err(row_type_error(other)),
        }
    }
}

/// Checks that rows of the given lengths make a non-empty rectangle of at most `most` cells.
pub fn check_rectangle(row_lengths: &[usize], most: usize) -> Result<(usize, usize)> {
    let rows = row_lengths.len();
    let cols = row_lengths.first().copied().unwrap_or(0);
    if let Some(row) = row_lengths.iter().position(|&len| len != cols) {
        return malformed!(
            "board rows have different lengths: row 0 has {cols} cells, row {row} has {}",
            row_lengths[row]
        );
    }
    // Both are at most a sequence's length, so the product fits in u128.
    let cells = rows as u128 * cols as u128;
    if cells == 0 {
        return malformed!("board is empty");
    }
    if cells > most as u128 {
        return malformed!("board has {cells} cells; at most {most} are supported");
    }
    Ok((rows, cols))
}

/// Reads a board of rows of at most `most` cells with the game's cell reader.
pub fn read_grid<R: CellReader>(
    board: &Item,
    reader: &mut R,
    most: usize,
) -> Result<Grid<R::Cell>> {
    let mut cells = Vec::new();
    let mut lengths = Vec::new();
    match board {
        Item::Text(text) => {
            for row in text_rows(text) {
                lengths.push(reader.read_text(row, &mut cells)?);
            }
        }
        Item::Seq(rows) => {
            for row in rows {
                lengths.push(reader.read_row(row, &mut cells)?);
            }
        }
        Item::Long(rows) => {
            return Err(Error::Malformed(format!(
                "board has {rows} rows; at most {most} cells are supported"
            )));
        }
        other => return Err(board_type_error(other)),
    }
    let (rows, cols) = check_rectangle(&lengths, most)?;
    Ok(Grid { rows, cols, cells })
}
