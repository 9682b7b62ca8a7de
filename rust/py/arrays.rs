//! numpy arrays of boards read in place: any integer (or bool) dtype, any strides (broadcast
//! and reversed arrays included), misaligned memory too. Nothing is copied before the work
//! starts, so a batch of a broadcast array stays interruptible and takes no memory of its own;
//! only an array in the other byte order is copied once into native order. Each row is read
//! once by the worker that answers it (`input::rows`).

use crate::input::rows::{Element, Reader};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

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

    /// A reader of the rows as `i64` values (unsigned 64-bit values past `i64::MAX` read as
    /// `i64::MAX`: no cell code either way), to use without the GIL.
    pub fn reader(&self) -> Reader {
        let array = &self.array;
        let dtype = array.dtype();
        let element = Element::of(dtype.kind(), dtype.itemsize());
        let strides = array.strides();
        let mut inner = Vec::with_capacity(self.board.len());
        for (axis, &size) in self.board.iter().enumerate() {
            inner.push((size, strides[axis + 1]));
        }
        // SAFETY: the array object's own data pointer, shape and strides; `self.array` keeps
        // its memory alive for as long as the call that reads it.
        unsafe {
            let data = (*array.as_array_ptr()).fields.data as *const u8;
            Reader::new(data, self.rows(), strides[0], inner, element)
        }
    }
}
