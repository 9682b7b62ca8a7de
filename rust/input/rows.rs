//! Batches of boards as rows of cell values, each row read once: a worker copies a row and
//! answers from the copy, so an array changed by another thread meanwhile still gets one
//! consistent answer a row. The Python layer reads numpy arrays in place through this trait
//! (any strides, broadcast arrays included); the cores see only rows.

use crate::engine::batch::{Parsed, look};
use crate::engine::error::{Result, malformed};
use crate::input::Item;
use std::borrow::Cow;

/// Rows of `width()` cells.
pub trait RowsOf<T>: Sync {
    /// How many rows.
    fn len(&self) -> usize;
    /// Copies row `row` into `out` (`width()` items).
    fn read(&self, row: usize, out: &mut [T]);
}

/// The codes 0/1/2 (empty, first player, second) of a row of cell values, or why they are
/// none.
pub fn codes_of_values(cells: &[i64], codes: &mut [u8]) -> Result<()> {
    for (slot, &value) in codes.iter_mut().zip(cells) {
        *slot = match value {
            0..=2 => value as u8,
            _ => return malformed!("cell value {value} is not 0, 1 or 2"),
        };
    }
    Ok(())
}

/// Rows laid end to end in one slice.
#[derive(Debug, Clone, Copy)]
pub struct Packed<'a, T> {
    pub cells: &'a [T],
    pub width: usize,
}

impl<T: Copy + Sync> RowsOf<T> for Packed<'_, T> {
    fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    #[inline]
    fn read(&self, row: usize, out: &mut [T]) {
        out.copy_from_slice(&self.cells[row * self.width..(row + 1) * self.width]);
    }
}

/// The integer types a strided array may hold, by kind and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    Bool,
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
}

impl Element {
    /// The element of numpy's dtype `kind` (`b'b'`, `b'u'` or `b'i'`) and item size.
    pub fn of(kind: u8, size: usize) -> Element {
        match (kind, size) {
            (b'b', _) => Element::Bool,
            (b'u', 1) => Element::U8,
            (b'i', 1) => Element::I8,
            (b'u', 2) => Element::U16,
            (b'i', 2) => Element::I16,
            (b'u', 4) => Element::U32,
            (b'i', 4) => Element::I32,
            (b'u', _) => Element::U64,
            _ => Element::I64,
        }
    }
}

/// The memory of a strided array of integers (numpy's, read in place), row by row: any
/// strides, broadcast and reversed arrays included, misaligned memory too.
pub struct Reader {
    data: *const u8,
    rows: usize,
    row_stride: isize,
    /// (size, stride in bytes) of each axis of a board.
    inner: Vec<(usize, isize)>,
    width: usize,
    element: Element,
    /// Are the rows bytes laid end to end (a row-major `uint8` array), read as they are?
    packed: bool,
}

// SAFETY: the reader only reads memory its creator keeps alive (`Reader::new`); reads of
// memory other threads may write are copies of whatever is there (each row is read once).
unsafe impl Send for Reader {}
// SAFETY: as above.
unsafe impl Sync for Reader {}

impl Reader {
    /// A reader of `rows` rows of `element`s at `data`, rows `row_stride` bytes apart, each row
    /// of the axes `inner` (size, stride in bytes).
    ///
    /// # Safety
    /// The memory every row, axis and stride reaches must stay readable while the reader is
    /// used.
    pub unsafe fn new(
        data: *const u8,
        rows: usize,
        row_stride: isize,
        inner: Vec<(usize, isize)>,
        element: Element,
    ) -> Reader {
        let width = inner.iter().map(|&(size, _)| size).product();
        let mut stride = 1;
        let mut packed =
            element == Element::U8 && width > 0 && (rows <= 1 || row_stride == width as isize);
        for &(size, axis_stride) in inner.iter().rev() {
            packed &= size <= 1 || axis_stride == stride;
            stride *= size as isize;
        }
        Reader {
            data,
            rows,
            row_stride,
            inner,
            width,
            element,
            packed,
        }
    }

    /// The cell at `offset` bytes from the array's data.
    #[inline]
    fn cell(&self, offset: isize) -> i64 {
        // SAFETY: `offset` is that of an element of the array (computed from its shape and
        // strides), so the read is within its memory; unaligned reads are allowed.
        unsafe {
            let at = self.data.offset(offset);
            match self.element {
                Element::Bool | Element::U8 => i64::from(at.read()),
                Element::I8 => i64::from(at.cast::<i8>().read()),
                Element::U16 => i64::from(at.cast::<u16>().read_unaligned()),
                Element::I16 => i64::from(at.cast::<i16>().read_unaligned()),
                Element::U32 => i64::from(at.cast::<u32>().read_unaligned()),
                Element::I32 => i64::from(at.cast::<i32>().read_unaligned()),
                Element::U64 => {
                    i64::try_from(at.cast::<u64>().read_unaligned()).unwrap_or(i64::MAX)
                }
                Element::I64 => at.cast::<i64>().read_unaligned(),
            }
        }
    }
}

impl Reader {
    /// Cells a row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// One row as a sequence item (rows of ints, or of bools for a bool array: the item of the
    /// row's `tolist()`), for the readers of sequences of boards.
    pub fn item(&self, row: usize) -> Item<'static> {
        let mut cells = vec![0i64; self.width];
        self.read(row, &mut cells);
        let bools = self.element == Element::Bool;
        let cell = |value: i64| {
            if bools {
                Item::Bool(value != 0)
            } else {
                Item::Int(value)
            }
        };
        let seq = |values: &[i64]| Item::Seq(values.iter().map(|&v| cell(v)).collect());
        match self.inner[..] {
            [(_, _), (cols, _)] => Item::Seq(cells.chunks(cols.max(1)).map(seq).collect()),
            _ => seq(&cells),
        }
    }
}

impl RowsOf<i64> for Reader {
    fn len(&self) -> usize {
        self.rows
    }

    fn read(&self, row: usize, out: &mut [i64]) {
        let base = row as isize * self.row_stride;
        match self.inner[..] {
            [(cells, stride)] => {
                for (cell, slot) in out.iter_mut().enumerate().take(cells) {
                    *slot = self.cell(base + cell as isize * stride);
                }
            }
            [(rows, row_stride), (cols, col_stride)] => {
                for r in 0..rows {
                    for c in 0..cols {
                        out[r * cols + c] =
                            self.cell(base + r as isize * row_stride + c as isize * col_stride);
                    }
                }
            }
            _ => {
                // Any other number of axes: walk them in C order.
                let mut index = vec![0usize; self.inner.len()];
                for slot in out.iter_mut() {
                    let offset: isize = index
                        .iter()
                        .zip(&self.inner)
                        .map(|(&i, &(_, stride))| i as isize * stride)
                        .sum();
                    *slot = self.cell(base + offset);
                    for axis in (0..index.len()).rev() {
                        index[axis] += 1;
                        if index[axis] < self.inner[axis].0 {
                            break;
                        }
                        index[axis] = 0;
                    }
                }
            }
        }
    }
}

/// Rows of codes for the games whose cells are 0/1/2: bytes laid end to end, or an array's
/// values, each as a `u8` (3 for anything out of range: a bad row; a row-major `uint8` array's
/// bytes are read as they are).
pub enum CodeRows<'a> {
    Packed(Packed<'a, u8>),
    Values(&'a Reader),
}

impl RowsOf<u8> for CodeRows<'_> {
    fn len(&self) -> usize {
        match self {
            CodeRows::Packed(packed) => packed.len(),
            CodeRows::Values(reader) => reader.rows,
        }
    }

    #[inline]
    fn read(&self, row: usize, out: &mut [u8]) {
        match self {
            CodeRows::Packed(packed) => packed.read(row, out),
            CodeRows::Values(reader) if reader.packed => {
                // SAFETY: the row's `width` bytes, end to end within the array's memory.
                let bytes = unsafe {
                    let at = reader.data.offset(row as isize * reader.row_stride);
                    std::slice::from_raw_parts(at, reader.width)
                };
                out.copy_from_slice(bytes);
            }
            CodeRows::Values(reader) => {
                let mut wide = [0i64; 64];
                reader.read(row, &mut wide[..reader.width]);
                for (slot, &value) in out.iter_mut().zip(&wide) {
                    *slot = u8::try_from(value).map_or(3, |code| code.min(3));
                }
            }
        }
    }
}

/// A batch argument as plain data, one entry a row.
pub enum Rows {
    /// One argument for every row (a footholds board or location given once).
    Shared(Result<Item<'static>>),
    /// A sequence's items, each reduced to an item or why it could not be.
    Items(Vec<Result<Item<'static>>>),
    /// An array's rows read in place; `board` is the shape of one row.
    Array { reader: Reader, board: Vec<usize> },
}

impl Rows {
    /// How many rows (`None`: one argument for any number).
    pub fn count(&self) -> Option<usize> {
        match self {
            Rows::Shared(_) => None,
            Rows::Items(items) => Some(items.len()),
            Rows::Array { reader, .. } => Some(reader.len()),
        }
    }

    /// Row `row` as an item (a sequence's and a shared one borrowed).
    pub fn item(&self, row: usize) -> Result<Cow<'_, Item<'static>>> {
        match self {
            Rows::Shared(item) => item.as_ref().map(Cow::Borrowed).map_err(Clone::clone),
            Rows::Items(items) => items[row].as_ref().map(Cow::Borrowed).map_err(Clone::clone),
            Rows::Array { reader, .. } => Ok(Cow::Owned(reader.item(row))),
        }
    }
}

/// Parses every row of a batch of boards of one shape `S`. An array's shape comes from its
/// board's dimensions (`shape_of_array`, an error for the whole batch) and its rows from their
/// codes 0/1/2 (`from_codes`); a sequence's items are read one by one (`from_item`, which sets
/// the batch's shape from the first readable item and refuses items of another). `monitor` is
/// asked every [`LOOK_EVERY`](crate::engine::batch::LOOK_EVERY) rows, so a batch of a hundred million rows stops within a second.
pub fn parse_rows<T, S>(
    rows: &Rows,
    shape_of_array: impl FnOnce(&[usize]) -> Result<S>,
    from_codes: impl Fn(&S, &[u8]) -> Result<T>,
    mut from_item: impl FnMut(&Item, &mut Option<S>) -> Result<T>,
    monitor: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<(Parsed<T>, Option<S>)> {
    let count = rows.count().unwrap_or(1);
    let mut parsed = Parsed::with_capacity(count)?;
    let mut shape = match rows {
        Rows::Array { board, .. } => Some(shape_of_array(board)?),
        _ => None,
    };
    let mut cells = Vec::new();
    let mut codes = Vec::new();
    for row in 0..count {
        look(row, row, count, monitor)?;
        parsed.push(match (rows, &shape) {
            (Rows::Array { reader, .. }, Some(shape)) => {
                cells.resize(reader.width(), 0);
                codes.resize(reader.width(), 0);
                reader.read(row, &mut cells);
                codes_of_values(&cells, &mut codes).and_then(|()| from_codes(shape, &codes))
            }
            _ => rows.item(row).and_then(|item| from_item(&item, &mut shape)),
        });
    }
    Ok((parsed, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes of every row of `reader`.
    fn codes(reader: Reader) -> Vec<Vec<u8>> {
        let rows = CodeRows::Values(&reader);
        (0..rows.len())
            .map(|row| {
                let mut out = vec![0u8; 4];
                rows.read(row, &mut out);
                out
            })
            .collect()
    }

    #[test]
    fn row_major_bytes_read_as_the_strided_cells_do() {
        // Three 2x2 boards; the last row's cells are out of range.
        let bytes: Vec<u8> = vec![0, 1, 2, 0, 2, 2, 1, 1, 9, 3, 0, 1];
        // SAFETY: every offset below stays within `bytes`, alive for the reads.
        let packed =
            unsafe { Reader::new(bytes.as_ptr(), 3, 4, vec![(2, 2), (2, 1)], Element::U8) };
        assert!(packed.packed);
        // The same cells read column by column of a transposed view: not packed.
        let transposed: Vec<u8> = (0..3)
            .flat_map(|board| [0, 2, 1, 3].map(|cell| bytes[board * 4 + cell]))
            .collect();
        // SAFETY: as above.
        let strided =
            unsafe { Reader::new(transposed.as_ptr(), 3, 4, vec![(2, 1), (2, 2)], Element::U8) };
        assert!(!strided.packed);
        let (fast, slow) = (codes(packed), codes(strided));
        assert_eq!(fast[..2], slow[..2]);
        assert_eq!(fast[0], [0, 1, 2, 0]);
        // A bad cell stays bad either way (the packed path keeps its byte, both are past 2).
        assert!(fast[2][0] > 2 && slow[2][0] > 2);
        assert_eq!(fast[2][1..], slow[2][1..]);
    }
}
