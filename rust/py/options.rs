//! The one options type: every function takes its options as `**options`, read here once into
//! plain data and checked by `input::options` (the twin: `perfectplay/_kernel/options.py`).

use crate::input::options::{Checked, Scalar, Value};
use crate::py::convert::{is_own_error, type_name};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple, PyType};
use std::borrow::Cow;
use std::ops::Deref;

/// A call's options: the checked scalars, and the object its game reads itself.
#[derive(Default)]
pub struct Options<'py> {
    pub checked: Checked,
    /// `book=` as given (Python's None included); not given: the packaged books.
    pub book: Option<Bound<'py, PyAny>>,
}

impl Deref for Options<'_> {
    type Target = Checked;

    fn deref(&self) -> &Checked {
        &self.checked
    }
}

impl<'py> Options<'py> {
    /// The keyword arguments of `function`, which takes the options `allowed`.
    pub fn read(
        given: Option<&Bound<'py, PyDict>>,
        function: &str,
        allowed: &[&str],
    ) -> PyResult<Options<'py>> {
        let mut scalars = Vec::new();
        let mut book = None;
        for (key, value) in given.into_iter().flat_map(PyDictMethods::iter) {
            let key = key.cast_into::<PyString>()?;
            let key = key.to_string_lossy();
            let Some(&name) = allowed.iter().find(|name| **name == key) else {
                return Err(PyTypeError::new_err(format!(
                    "{function}() got an unexpected keyword argument '{key}'"
                )));
            };
            match name {
                "book" => book = Some(value),
                _ => scalars.push((name, to_scalar(&value)?)),
            }
        }
        let checked = Checked::read(&scalars)?;
        Ok(Options { checked, book })
    }
}

/// An integer argument (`k`, `rows`, `n`, ...).
pub fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    crate::input::options::int(&to_scalar(obj)?, name).map_err(PyErr::from)
}

/// Reduces a scalar argument to plain data. An exception from its own `__index__` or
/// `__float__` makes it no number; `MemoryError` and Ctrl-C pass through.
pub fn to_scalar(obj: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    if obj.is_none() {
        return Ok(Scalar::new(Value::None, "NoneType"));
    }
    if let Ok(flag) = obj.cast::<PyBool>() {
        return Ok(Scalar::new(Value::Bool(flag.is_true()), "bool"));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_string_lossy().into_owned();
        return Ok(Scalar::new(Value::Text(text), "str"));
    }
    if let Ok(items) = obj.cast::<PyTuple>() {
        let items = items.iter().map(|item| to_scalar(&item));
        return Ok(Scalar::new(
            Value::Tuple(items.collect::<PyResult<_>>()?),
            "tuple",
        ));
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(int_scalar(obj, "int".into()));
    }
    let name: Cow<'static, str> = type_name(obj).into();
    if obj.is_instance_of::<PyInt>() {
        // An int subclass is read as Python's `operator.index` reads it.
        return Ok(int_scalar(obj, name));
    }
    if !obj.is_instance_of::<PyFloat>() {
        // numpy's bool is a bool to PyO3 (and to the twin's flags).
        if let Ok(flag) = obj.extract::<bool>() {
            return Ok(Scalar::new(Value::Bool(flag), name));
        }
        if obj.get_type().hasattr("__index__")? {
            return match passing(obj.py(), obj.call_method0("__index__"))? {
                Some(int) if int.is_instance_of::<PyInt>() => Ok(int_scalar(&int, name)),
                _ => Ok(Scalar::new(Value::BadIndex, name)),
            };
        }
        if !obj.is_instance(real_type(obj.py())?)? {
            return Ok(Scalar::new(Value::Other, name));
        }
    }
    let Some(real) = passing(obj.py(), obj.call_method0("__float__"))? else {
        return Ok(Scalar::new(Value::Other, name));
    };
    let mut scalar = Scalar::new(Value::Real(real.extract()?), name);
    scalar.shown = Some(obj.str()?.to_string_lossy().into_owned());
    Ok(scalar)
}

/// `Ok(None)` for an exception an argument's own method raised; others pass through.
fn passing<'py>(
    py: Python<'py>,
    result: PyResult<Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(error) if is_own_error(py, &error) => Ok(None),
        Err(error) => Err(error),
    }
}

fn int_scalar(int: &Bound<'_, PyAny>, name: Cow<'static, str>) -> Scalar {
    // Most ints fit an i64, which PyO3 reads faster than an i128.
    if let Ok(value) = int.extract::<i64>() {
        return Scalar::new(Value::Int(value.into()), name);
    }
    match int.extract::<i128>() {
        Ok(value) => Scalar::new(Value::Int(value), name),
        Err(_) => {
            let negative = int.lt(0).unwrap_or(false);
            let mut scalar = Scalar::new(
                Value::Int(if negative { i128::MIN } else { i128::MAX }),
                name,
            );
            scalar.shown = int.str().ok().map(|text| text.to_string());
            scalar
        }
    }
}

fn real_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static REAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    REAL.import(py, "numbers", "Real")
}
