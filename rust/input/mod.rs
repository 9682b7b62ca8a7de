//! How boards arrive: the argument reduced to plain data ([`Item`]), separators and rows of
//! text, the limits every game shares, and the readers built from them (`marks`, `grid`).
//!
//! * Text: cells are single characters; ASCII whitespace, `/`, `|` and `,` are separators.
//!   Multi-row boards (m,n,k and footholds) break rows at `/` and newlines; blank rows are
//!   dropped.
//! * A sequence of more than [`MAX_ITEMS`] items is never a board, a row or a location: it
//!   arrives as [`Item::Long`] with its length alone, so a huge argument is rejected by its
//!   length before anything in it is converted.

pub mod grid;
pub mod marks;
pub mod options;
pub mod rows;

use crate::engine::error::Error;
use std::borrow::Cow;

/// Most cells a board read as rows has unless its game says otherwise: one bit each in a `u64`.
pub const MAX_CELLS: usize = 64;

/// Most items a sequence's items are read of: Connect Four's largest boards (one bit a cell
/// in a `u128`) and their move lists.
pub const MAX_ITEMS: usize = 128;

/// A board argument reduced to what parsing needs (built by the Python layer).
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
    /// A sequence of more than [`MAX_ITEMS`] items, by its length: its items are not read.
    Long(usize),
    /// Anything else, by its type name.
    Other(String),
}

impl Item<'_> {
    /// The word naming this item's type in error messages.
    pub fn type_word(&self) -> &str {
        match self {
            Item::Bool(_) => "bool",
            Item::Int(_) | Item::BigInt => "int",
            Item::Text(_) => "str",
            Item::Seq(_) | Item::Long(_) => "sequence",
            Item::Other(name) => name,
        }
    }

    /// The number of items of a sequence (`None` for anything else).
    pub fn sequence_len(&self) -> Option<usize> {
        match self {
            Item::Seq(items) => Some(items.len()),
            Item::Long(len) => Some(*len),
            _ => None,
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

/// The characters of a text a message quotes whole; a longer text is cut there.
pub const QUOTED_CHARS: usize = 40;

/// A move string as error messages quote it, as Python's `repr` shows one (digits, spaces,
/// commas and tabs: only the tab is escaped): whole up to [`QUOTED_CHARS`] characters, else its
/// start and its length, so a message stays short however long the input (the twin's
/// `args.quoted`).
pub fn quoted(text: &str) -> String {
    let count = text.chars().count();
    let head: String = text.chars().take(QUOTED_CHARS).collect();
    let head = head.replace('\t', "\\t");
    if count <= QUOTED_CHARS {
        format!("'{head}'")
    } else {
        format!("'{head}'... ({count} characters)")
    }
}

/// A character as error messages show it: `'q'` when printable ASCII, else `U+00E9`.
pub fn describe_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else {
        format!("U+{:04X}", c as u32)
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
