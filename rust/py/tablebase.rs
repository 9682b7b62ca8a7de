//! `perfectplay._core.tablebase`: building and probing m,n,k tablebases. The table's bytes
//! live in a numpy array (in memory, or a memory-mapped file) that the Python `Tablebase`
//! holds; these functions read it in place, without the GIL.

use crate::engine::pool::Monitor;
use crate::engine::tiers;
use crate::games::mnk::tablebase::{MAX_CELLS, Probe, Tiers, WORK, Wanted};
use crate::input::rows::{CodeRows, RowsOf};
use crate::py::arrays::read_array;
use crate::py::batch::arrays;
use crate::py::convert::{Names, to_item};
use crate::py::detach::{detached, released};
use crate::py::options::to_scalar;
use numpy::{PyArray1, PyReadonlyArray1, PyUntypedArray};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// The tiers of the game `rows` x `cols` where `k` in a row wins.
fn tiers(
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
) -> PyResult<Tiers> {
    Tiers::of(&to_scalar(rows)?, &to_scalar(cols)?, &to_scalar(k)?).map_err(PyErr::from)
}

/// What `stats` answers.
type Report = (Vec<[u64; MAX_CELLS + 1]>, (u32, usize), u64);

/// A table's bytes, read in place.
type Data<'py> = PyReadonlyArray1<'py, u8>;

bindings! {
    /// The number of ranked positions of every tier (tier t: the positions with t marks).
    fn sizes(_py, rows, cols, k) -> Vec<usize> {
        Ok(tiers(rows, cols, k)?.sizes().to_vec())
    }

    /// Every entry of the game's table, built tier by tier on ``threads`` workers.
    fn build(py, rows, cols, k; options = WORK) -> Bound<'py, PyArray1<u8>> {
        let (tiers, threads) = (tiers(rows, cols, k)?, options.threads());
        let what = tiers.what("tablebase");
        let build = |monitor: Monitor| tiers::build(&tiers, threads, monitor);
        let table = detached(py, options.progress, &what, build)?;
        Ok(PyArray1::from_vec(py, table))
    }

    /// Ranks ``start .. start + count`` of tier ``tier``, given the next tier's entries: one piece
    /// of a distributed build. The same code as ``build``, so the pieces put together are equal
    /// to it byte for byte.
    fn build_range(
        py, rows, cols, k, tier: usize, start: usize, count: usize, next: Data<'py>;
        options = &["threads"]
    ) -> Bound<'py, PyArray1<u8>> {
        let (tiers, threads, next) = (tiers(rows, cols, k)?, options.threads(), next.as_slice()?);
        let piece = (tier, start, count);
        let build = |monitor: Monitor| tiers.build_range(piece, next, threads, monitor);
        let out = released(py, build)?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// The position solved from the table, as ``mnk.solve`` answers it (``nodes`` 0).
    fn solve(py, data: Data<'py>, rows, cols, k, board) -> Bound<'py, PyAny> {
        let tiers = tiers(rows, cols, k)?;
        let (data, board) = (data.as_slice()?, to_item(board)?);
        let (mut probe, board) = Probe::at(&tiers, data, &board)?;
        Names::grid(["x", "o"], tiers.geometry.cols).solution(py, probe.solve(board)?)
    }

    /// Every legal move's (value for its player, plies from now), from the table.
    fn analyze(py, data: Data<'py>, rows, cols, k, board) -> Bound<'py, PyAny> {
        let tiers = tiers(rows, cols, k)?;
        let (data, board) = (data.as_slice()?, to_item(board)?);
        let (mut probe, board) = Probe::at(&tiers, data, &board)?;
        Names::grid(["x", "o"], tiers.geometry.cols).analysis(py, probe.analyze(board)?)
    }

    /// Every legal move's (move, value for its player, plies from now), best first, from the
    /// table.
    fn ranked_moves(py, data: Data<'py>, rows, cols, k, board) -> Bound<'py, PyAny> {
        let tiers = tiers(rows, cols, k)?;
        let (data, board) = (data.as_slice()?, to_item(board)?);
        let (mut probe, board) = Probe::at(&tiers, data, &board)?;
        Names::grid(["x", "o"], tiers.geometry.cols).ranking(py, probe.ranked_moves(board)?)
    }

    /// Labels boards ``(N, rows, cols)`` of codes (any integer dtype, read in place) from the
    /// table: the arrays of a ``BatchSolution`` (the best moves only with ``best``, the moves'
    /// answers only with ``moves``, None otherwise). Status 1 marks a row with a code other
    /// than 0/1/2 or a board no game reaches.
    fn label_rows(
        py, data: Data<'py>, rows, cols, k, boards: &Bound<'py, PyUntypedArray>;
        options = &["best", "moves", "threads", "progress"]
    ) -> Bound<'py, PyTuple> {
        let (tiers, threads, data) = (tiers(rows, cols, k)?, options.threads(), data.as_slice()?);
        let (_array, reader, board) = read_array(boards, false, &[3], "(N, rows, cols)", "boards")?;
        tiers.check_boards(reader.len(), &board)?;
        let wanted = Wanted { best: options.best, moves: options.moves };
        let rows = CodeRows::Values(&reader);
        let columns = detached(py, options.progress, "probing", |monitor| {
            tiers.label_rows(data, &rows, wanted, threads, monitor)
        })?;
        arrays(py, columns)
    }

    /// Checks a sample of the table's entries against the rules and their children: the root,
    /// every tier's first and last entries and ``samples`` more. A table of another game or a
    /// rewritten one is a ``ValueError``.
    fn check_sample(_py, data: Data<'py>, rows, cols, k, samples: usize) -> () {
        tiers(rows, cols, k)?.check_sample(data.as_slice()?, samples).map_err(PyErr::from)
    }

    /// Checks every entry of the table against the rules and its children (as long as a build).
    fn check_all(py, data: Data<'py>, rows, cols, k; options = WORK) -> () {
        let (tiers, threads, data) = (tiers(rows, cols, k)?, options.threads(), data.as_slice()?);
        let check = |monitor: Monitor| tiers.check_all(data, threads, monitor);
        detached(py, options.progress, "checking", check)
    }

    /// The whole-game report ``(counts, longest, canonical)``: 3 lists of positions by plies (for
    /// value -1, 0, +1), (plies, table index) of the first longest, positions up to symmetry.
    fn stats(py, data: Data<'py>, rows, cols, k; options = WORK) -> Report {
        let (tiers, threads, data) = (tiers(rows, cols, k)?, options.threads(), data.as_slice()?);
        let count = |monitor: Monitor| tiers.stats(data, threads, monitor);
        let stats = detached(py, options.progress, "counting", count)?;
        Ok((stats.counts, stats.longest, stats.canonical))
    }

    /// The position at a table index: (tier, X mask, O mask).
    fn position(_py, rows, cols, k, index: usize) -> (usize, u64, u64) {
        tiers(rows, cols, k)?.position_at(index).map_err(PyErr::from)
    }
}
