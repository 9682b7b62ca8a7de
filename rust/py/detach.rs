//! The one leaf of the bindings: running work without the GIL while the calling thread draws
//! the progress bar and, on the main thread, watches for Ctrl-C. Every binding file uses it;
//! it uses none of them.

use crate::engine::budget::{Budget, monitored};
use crate::engine::error::Result as CoreResult;
use crate::engine::pool::Monitor;
use pyo3::prelude::*;

/// Runs `work` without the GIL. `work` gets a monitor `(done, total) -> stop?` to call now and
/// then from the thread that called this: it draws the progress bar (`progress`: a
/// `perfectplay._kernel.batch.Progress` named `what`) and, on the main thread, stops the work
/// at Ctrl-C, whose KeyboardInterrupt is then raised.
pub fn detached<T: Send>(
    py: Python<'_>,
    progress: bool,
    what: &str,
    work: impl FnOnce(Monitor) -> CoreResult<T> + Send,
) -> PyResult<T> {
    let main_thread = is_main_thread(py)?;
    let bar = progress
        .then(|| {
            py.import("perfectplay._kernel.batch")?
                .call_method1("Progress", (what,))
        })
        .transpose()?
        .map(Bound::unbind);
    // The error that stopped the work: the bar's, or the pending Ctrl-C.
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        work(&mut |done, total| {
            // Signals reach only the main thread: elsewhere, with no bar to draw, the GIL is
            // not taken at all.
            if bar.is_none() && !main_thread {
                return false;
            }
            Python::attach(|py| {
                // Once stopped, the bar is drawn no more (a failed one would fail again).
                if raised.is_none() {
                    raised = match bar.as_ref().map(|bar| bar.call1(py, (done, total))) {
                        Some(Err(error)) => Some(error),
                        _ => main_thread.then(|| py.check_signals().err()).flatten(),
                    };
                }
                raised.is_some()
            })
        })
    });
    if let Some(bar) = bar {
        bar.call_method0(py, "close")?;
    }
    match raised {
        Some(error) => Err(error),
        None => result.map_err(PyErr::from),
    }
}

/// `work` without the GIL and without a progress bar (see [`detached`]).
pub fn released<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Monitor) -> CoreResult<T> + Send,
) -> PyResult<T> {
    detached(py, false, "", work)
}

/// Runs a search without the GIL ([`detached`]: Ctrl-C on the main thread stops it and
/// is raised; elsewhere it runs to its end or its node limit).
pub fn search_detached<T: Send>(
    py: Python<'_>,
    node_limit: Option<u64>,
    search: impl FnOnce(&mut Budget) -> crate::engine::error::Result<T> + Send,
) -> PyResult<T> {
    released(py, |monitor| monitored(node_limit, false, monitor, search))
}

/// Is this the interpreter's main thread, the one Ctrl-C reaches? `threading` is asked once
/// per thread and process (asking costs microseconds, more than a short search; after a fork
/// the forking thread is the child's main thread, so the answer is kept with the process).
pub fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    thread_local! {
        static KNOWN: std::cell::Cell<Option<(u64, bool)>> = const { std::cell::Cell::new(None) };
    }
    let process = crate::engine::pool::this_process();
    if let Some((known_process, main)) = KNOWN.get()
        && known_process == process
    {
        return Ok(main);
    }
    let threading = py.import("threading")?;
    let current = threading.call_method0("current_thread")?;
    let main = current.is(threading.call_method0("main_thread")?);
    KNOWN.set(Some((process, main)));
    Ok(main)
}
