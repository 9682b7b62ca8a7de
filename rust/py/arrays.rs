//! numpy arrays of boards read in place: any integer (or bool) dtype, any strides (broadcast
//! and reversed arrays included), misaligned memory too. Nothing is copied before the work
//! starts, so a batch of a broadcast array stays interruptible and takes no memory of its own;
//! only an array in the other byte order is copied once into native order. Each row is read
//! once by the worker that answers it (`input::rows`).

use crate::input::rows::RowsOf;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The integer types a batch array may hold, as numpy names them by kind and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
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

/// An array of boards, shape `(N, ...)`, read in place (see the module's notes).
pub struct Boards<'py> {
    /// Keeps the array (or its native copy) alive while its memory is read.
    array: Bound<'py, PyUntypedArray>,
    /// The shape of one board (the shape after the first axis).
    pub board: Vec<usize>,
}

impl<'py> Boards<'py> {
    /// Checks `array`: an integer array (bools too when `bools`) with `dims` dimensions (any of
    /// them, as `shape` says in messages: "(N, rows, cols)"). `what` names the argument.
    pub fn new(
        array: &Bound<'py, PyUntypedArray>,
        bools: bool,
        dims: &[usize],
        shape: &str,
        what: &str,
    ) -> PyResult<Boards<'py>> {
        let dtype = array.dtype();
        let kind = dtype.kind();
        if !(matches!(kind, b'i' | b'u') || (bools && kind == b'b')) {
            let wanted = if bools {
                "an integer or bool"
            } else {
                "an integer"
            };
            let name = dtype.str()?;
            return Err(PyTypeError::new_err(format!(
                "{what} must be {wanted} array, not {name}: convert it with .astype(numpy.uint8)"
            )));
        }
        if !dims.contains(&array.ndim()) {
            return Err(PyValueError::new_err(format!(
                "{what} must have shape {shape}, got {:?}",
                array.shape()
            )));
        }
        let array = if dtype.is_native_byteorder() == Some(false) {
            let native = dtype.call_method1("newbyteorder", ("=",))?;
            array
                .call_method1("astype", (native,))?
                .cast_into::<PyUntypedArray>()?
        } else {
            array.clone()
        };
        let board = array.shape()[1..].to_vec();
        Ok(Boards { array, board })
    }

    pub fn rows(&self) -> usize {
        self.array.shape()[0]
    }

    /// Cells a board.
    pub fn width(&self) -> usize {
        self.board.iter().product()
    }

    /// A reader of the rows as `i64` values (unsigned 64-bit values past `i64::MAX` read as
    /// `i64::MAX`: no cell code either way), to use without the GIL.
    pub fn reader(&self) -> Reader {
        let array = &self.array;
        let dtype = array.dtype();
        let item = match (dtype.kind(), dtype.itemsize()) {
            (b'b', _) => Item::Bool,
            (b'u', 1) => Item::U8,
            (b'i', 1) => Item::I8,
            (b'u', 2) => Item::U16,
            (b'i', 2) => Item::I16,
            (b'u', 4) => Item::U32,
            (b'i', 4) => Item::I32,
            (b'u', _) => Item::U64,
            _ => Item::I64,
        };
        let strides = array.strides();
        let mut inner = Vec::with_capacity(self.board.len());
        for (axis, &size) in self.board.iter().enumerate() {
            inner.push((size, strides[axis + 1]));
        }
        Reader {
            // SAFETY: reading the array object's own data pointer field.
            data: unsafe { (*array.as_array_ptr()).fields.data } as *const u8,
            rows: self.rows(),
            row_stride: strides[0],
            inner,
            width: self.width(),
            item,
        }
    }

    /// The row-major, aligned `uint8` cells of the whole array when it is one (the fast path of
    /// tic-tac-toe and tablebase batches), read in place.
    pub fn packed_u8(&self) -> Option<&[u8]> {
        let array = &self.array;
        let dtype = array.dtype();
        if !(dtype.kind() == b'u' && dtype.itemsize() == 1 && array.is_c_contiguous()) {
            return None;
        }
        let len = self.rows() * self.width();
        if len == 0 {
            return Some(&[]);
        }
        // SAFETY: a C-contiguous uint8 array holds `len` bytes at its data pointer, alive as
        // long as `self.array` (borrowed by the returned slice's lifetime).
        Some(unsafe {
            std::slice::from_raw_parts((*array.as_array_ptr()).fields.data as *const u8, len)
        })
    }
}

/// The memory of a batch array, read row by row without the GIL (see [`Boards::reader`]).
pub struct Reader {
    data: *const u8,
    rows: usize,
    row_stride: isize,
    /// (size, stride in bytes) of each axis of a board.
    inner: Vec<(usize, isize)>,
    width: usize,
    item: Item,
}

// SAFETY: the reader only reads the array's memory, which its `Boards` keeps alive (the
// reader is used within the call that holds the `Boards`); reads of memory other threads may
// write are copies of whatever is there (each row is read once).
unsafe impl Send for Reader {}
// SAFETY: as above.
unsafe impl Sync for Reader {}

impl Reader {
    /// The cell at `offset` bytes from the array's data.
    #[inline]
    fn cell(&self, offset: isize) -> i64 {
        // SAFETY: `offset` is that of an element of the array (computed from its shape and
        // strides), so the read is within its memory; unaligned reads are allowed.
        unsafe {
            let at = self.data.offset(offset);
            match self.item {
                Item::Bool | Item::U8 => i64::from(at.read()),
                Item::I8 => i64::from(at.cast::<i8>().read()),
                Item::U16 => i64::from(at.cast::<u16>().read_unaligned()),
                Item::I16 => i64::from(at.cast::<i16>().read_unaligned()),
                Item::U32 => i64::from(at.cast::<u32>().read_unaligned()),
                Item::I32 => i64::from(at.cast::<i32>().read_unaligned()),
                Item::U64 => i64::try_from(at.cast::<u64>().read_unaligned()).unwrap_or(i64::MAX),
                Item::I64 => at.cast::<i64>().read_unaligned(),
            }
        }
    }
}

impl Reader {
    /// One row as a sequence item (rows of ints), for the readers of sequences of boards.
    pub fn item(&self, row: usize) -> crate::input::Item<'static> {
        use crate::input::Item;
        let mut cells = vec![0i64; self.width];
        self.read(row, &mut cells);
        let ints = |values: &[i64]| Item::Seq(values.iter().map(|&v| Item::Int(v)).collect());
        match self.inner[..] {
            [(_, _), (cols, _)] => Item::Seq(cells.chunks(cols.max(1)).map(ints).collect()),
            _ => ints(&cells),
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

/// Rows of codes for the games whose cells are 0/1/2: each value as a `u8`, 3 for anything
/// out of range (a bad row).
pub struct Codes<'a>(pub &'a Reader);

impl RowsOf<u8> for Codes<'_> {
    fn len(&self) -> usize {
        self.0.rows
    }

    fn read(&self, row: usize, out: &mut [u8]) {
        let mut wide = [0i64; 64];
        self.0.read(row, &mut wide[..self.0.width]);
        for (slot, &value) in out.iter_mut().zip(&wide) {
            *slot = u8::try_from(value).map_or(3, |code| code.min(3));
        }
    }
}
