//! The only code that knows Python: one file per game binds its functions into a submodule of
//! `perfectplay._core` (`tictactoe`, `mnk`, `footholds`, `connect4`, `tablebase` and the private
//! `_testing`), and `convert`, `options`, `arrays` and `batch` hold what they share; `detach`, which uses
//! none of them, runs work without the GIL. Result types
//! and exception classes are the Python package's own (`perfectplay._kernel.types`,
//! `perfectplay.errors`), so both backends return and raise the very same classes.

/// A submodule's functions: `bindings! { fn a(...) ... fn b(...) ... }` is each function's
/// [`binding!`] and the file's `register`, which adds them all to its submodule. Given
/// `twin = "game";` first, each function's docstring is its twin's (see `build.rs`).
macro_rules! bindings {
    (twin = $twin:literal; $($(#[$attribute:meta])* fn $name:ident $rest:tt -> $answer:ty $body:block)+) => {
        bindings! { $(
            #[doc = include_str!(concat!(env!("OUT_DIR"), "/docs/", $twin, "/", stringify!($name), ".txt"))]
            $(#[$attribute])* fn $name $rest -> $answer $body
        )+ }
    };
    ($($(#[$doc:meta])* fn $name:ident($($parameters:tt)*) -> $answer:ty $body:block)+) => {
        $(binding! { $(#[$doc])* fn $name($($parameters)*) -> $answer $body })+

        pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
            $(module.add_function(wrap_pyfunction!($name, module)?)?;)+
            Ok(())
        }
    };
}

/// A binding: `fn name(py, a, b: Type, ...; options = ALLOWED) -> Answer { body }` is the
/// `#[pyfunction]` of `(a, b, ..., **options)` whose keyword options (among `ALLOWED`) are read
/// and checked into `options` before `body` runs; without `; options = ...` it takes none. A
/// parameter without a type is any object. A `#[pyo3(text_signature = "...")]` among its
/// attributes shows the options in `help()` (the twin's signature; the tests compare them).
macro_rules! binding {
    (
        $(#[$doc:meta])*
        fn $name:ident($py:ident $(, $arg:ident $(: $type:ty)?)*; $options:ident = $allowed:expr)
            -> $answer:ty $body:block
    ) => {
        // After `#[pyfunction]`, which reads them: the docs, and a `#[pyo3(text_signature)]`
        // that shows the options a function takes.
        #[pyfunction]
        $(#[$doc])*
        #[pyo3(signature = ($($arg,)* **options))]
        #[allow(clippy::too_many_arguments)] // the Python signature's, not a Rust API
        fn $name<'py>(
            $py: Python<'py>,
            $($arg: parameter!($($type)?),)*
            options: Option<&Bound<'py, pyo3::types::PyDict>>,
        ) -> PyResult<$answer> {
            let $options = crate::py::options::Options::read(options, stringify!($name), $allowed)?;
            $body
        }
    };
    (
        $(#[$doc:meta])*
        fn $name:ident($py:ident $(, $arg:ident $(: $type:ty)?)*) -> $answer:ty $body:block
    ) => {
        #[pyfunction]
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)] // the Python signature's, not a Rust API
        fn $name<'py>($py: Python<'py>, $($arg: parameter!($($type)?),)*) -> PyResult<$answer> $body
    };
}

/// A `binding!` parameter's type: as written, or any object.
macro_rules! parameter {
    () => { &Bound<'py, PyAny> };
    ($type:ty) => { $type };
}

mod arrays;
mod batch;
mod connect4;
mod convert;
mod detach;
mod footholds;
mod mnk;
mod options;
mod tablebase;
#[cfg(feature = "testing")]
mod testing;
mod tictactoe;

use pyo3::prelude::*;

/// Adds `perfectplay._core.<name>` and registers it in `sys.modules`, so it imports like any
/// submodule; a private one (`_testing`) stays out of `__all__`.
fn add_submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let module = PyModule::new(py, name)?;
    register(&module)?;
    if name.starts_with('_') {
        parent.setattr(name, &module)?;
    } else {
        parent.add_submodule(&module)?;
    }
    py.import("sys")?
        .getattr("modules")?
        .set_item(format!("perfectplay._core.{name}"), &module)?;
    Ok(())
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    add_submodule(module, "tictactoe", tictactoe::register)?;
    add_submodule(module, "mnk", mnk::register)?;
    add_submodule(module, "footholds", footholds::register)?;
    add_submodule(module, "connect4", connect4::register)?;
    add_submodule(module, "tablebase", tablebase::register)?;
    #[cfg(feature = "testing")]
    add_submodule(module, "_testing", testing::register)?;
    Ok(())
}
