//! numpy arrays of boards read in place: any integer (or bool) dtype, any strides (broadcast
//! and reversed arrays included), misaligned memory too. Nothing is copied before the work
//! starts, so a batch of a broadcast array stays interruptible and takes no memory of its own;
//! only an array in the other byte order is copied once into native order. Each row is read
//! once by the worker that answers it (`input::rows`).

use crate::input::rows::{Element, Reader};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// An integer (or, with `bools`, bool) array of boards with one of `dims` dimensions, `(N, ...)`:
/// the array (or its native copy, to keep alive while the reader is used), the reader of its
/// rows as `i64` (unsigned values past `i64::MAX` as `i64::MAX`: no cell code either way) and
/// one board's shape. `shape` ("(N, rows, cols)") and `what` name it in messages.
pub fn read_array<'py>(
    array: &Bound<'py, PyUntypedArray>,
    bools: bool,
    dims: &[usize],
    shape: &str,
    what: &str,
) -> PyResult<(Bound<'py, PyUntypedArray>, Reader, Vec<usize>)> {
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
    let (shape, strides) = (array.shape(), array.strides());
    let board = shape[1..].to_vec();
    let inner = board.iter().zip(&strides[1..]);
    let inner = inner.map(|(&size, &stride)| (size, stride)).collect();
    let dtype = array.dtype();
    let element = Element::of(dtype.kind(), dtype.itemsize());
    // SAFETY: the array object's own data pointer, shape and strides; the caller keeps the
    // array alive for as long as the call that reads it.
    let reader = unsafe {
        let data = (*array.as_array_ptr()).fields.data as *const u8;
        Reader::new(data, shape[0], strides[0], inner, element)
    };
    Ok((array, reader, board))
}
