//! `perfectplay._core.tablebase`: building and probing m,n,k tablebases. The table's bytes
//! live in a numpy array (in memory, or a memory-mapped file) that the Python `Tablebase`
//! holds; these functions read it in place, without the GIL.

use crate::engine::memory::zeroed;
use crate::engine::tiers;
use crate::games::mnk::tablebase::{Probe, Tiers, Wanted};
use crate::games::mnk::{self as game};
use crate::py::arrays::Boards;
use crate::py::batch::{arrays, detached};
use crate::py::convert::{Names, err, to_item};
use crate::py::options::int_arg;
use numpy::{PyArray1, PyReadonlyArray1, PyUntypedArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

register_functions!(
    sizes,
    build,
    build_range,
    solve,
    analyze,
    label_rows,
    stats,
    position,
    check_sample,
    check_all
);

fn tiers_of(
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
) -> PyResult<Tiers> {
    let (rows, cols) = (int_arg(rows, "rows")?, int_arg(cols, "cols")?);
    let grid = game::empty_board(rows, cols).map_err(err)?;
    Tiers::new(grid.rows, grid.cols, int_arg(k, "k")?).map_err(err)
}

/// The options of a whole-table job.
const WORK: &[&str] = &["threads", "progress"];

fn names(tiers: &Tiers) -> Names {
    Names::grid(["x", "o"], tiers.geometry.cols)
}

/// The number of ranked positions of every tier (tier t: the positions with t marks).
#[pyfunction]
fn sizes(
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
) -> PyResult<Vec<usize>> {
    Ok(tiers_of(rows, cols, k)?.sizes().to_vec())
}

binding! {
    /// Every entry of the game's table, built tier by tier on ``threads`` workers.
    fn build(
        py, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>;
        options = WORK
    ) -> Bound<'py, PyArray1<u8>> {
        let tiers = tiers_of(rows, cols, k)?;
        let (threads, progress) = (options.threads(), options.progress);
        let what = format!(
            "tablebase {}x{} k={}",
            tiers.geometry.rows, tiers.geometry.cols, tiers.geometry.k
        );
        let table = detached(py, progress, &what, |monitor| {
            tiers::build(&tiers, threads, monitor)
        })?;
        Ok(PyArray1::from_vec(py, table))
    }
}

binding! {
    /// Ranks ``start .. start + count`` of tier ``tier``, given the next tier's entries: one piece
    /// of a distributed build. The same code as ``build``, so the pieces put together are equal
    /// to it byte for byte.
    fn build_range(
        py, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>, tier: usize,
        start: usize, count: usize, next: PyReadonlyArray1<'py, u8>; options = &["threads"]
    ) -> Bound<'py, PyArray1<u8>> {
        let threads = options.threads();
        let tiers = tiers_of(rows, cols, k)?;
        let next = next.as_slice()?;
        tiers::check_range(&tiers, tier, start, count, next.len()).map_err(err)?;
        let mut out = zeroed::<u8>(count).map_err(|e| err(e.into()))?;
        detached(py, false, "", |monitor| {
            tiers::solve_tier_range(&tiers, tier, start, &mut out, next, threads, &mut |done| {
                monitor(done, count)
            })
        })?;
        Ok(PyArray1::from_vec(py, out))
    }
}

/// The probe of a table's data and a legal board of its shape.
fn probe_board<'a>(
    tiers: &'a Tiers,
    data: &'a [u8],
    board: &Bound<'_, PyAny>,
) -> PyResult<(Probe<'a>, game::Board)> {
    let probe = Probe::new(tiers, data).map_err(err)?;
    let grid = game::parse_board(&to_item(board)?).map_err(err)?;
    let board = probe
        .board(grid.rows, grid.cols, &grid.cells)
        .map_err(err)?;
    Ok((probe, board))
}

/// A probe of one board, `(data, rows, cols, k, board)`: `$body` answers from `$probe` at
/// `$board` on `$tiers`.
macro_rules! probe_function {
    ($(#[$doc:meta])* fn $name:ident($py:ident, $tiers:ident, $probe:ident, $board:ident) -> $answer:ty $body:block) => {
        $(#[$doc])*
        #[pyfunction]
        fn $name<'py>(
            $py: Python<'py>,
            data: PyReadonlyArray1<'py, u8>,
            rows: &Bound<'py, PyAny>,
            cols: &Bound<'py, PyAny>,
            k: &Bound<'py, PyAny>,
            board: &Bound<'py, PyAny>,
        ) -> PyResult<$answer> {
            let $tiers = tiers_of(rows, cols, k)?;
            let (mut $probe, $board) = probe_board(&$tiers, data.as_slice()?, board)?;
            $body
        }
    };
}

probe_function! {
    /// The position solved from the table, as ``mnk.solve`` answers it (``nodes`` 0).
    fn solve(py, tiers, probe, board) -> Bound<'py, PyAny> {
        names(&tiers).solution(py, probe.solve(board).map_err(err)?)
    }
}

probe_function! {
    /// Every legal move's (value for its player, plies from now), from the table.
    fn analyze(py, tiers, probe, board) -> Bound<'py, PyAny> {
        names(&tiers).analysis(py, probe.analyze(board).map_err(err)?)
    }
}

binding! {
    /// Labels boards ``(N, rows, cols)`` of codes (any integer dtype, read in place) from the
    /// table: the arrays of a ``BatchSolution`` (value, plies, best_move, best_mask, status,
    /// nodes, move_value, move_plies; the best moves only with ``best``, the moves' answers
    /// only with ``moves``, None otherwise). Status 1 marks a row with a code
    /// other than 0/1/2 or a board no game reaches.
    fn label_rows(
        py, data: PyReadonlyArray1<'py, u8>, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>,
        k: &Bound<'py, PyAny>, boards: &Bound<'py, PyUntypedArray>;
        options = &["best", "moves", "threads", "progress"]
    ) -> Bound<'py, PyTuple> {
        let (best, moves, threads, progress) =
            (options.best, options.moves, options.threads(), options.progress);
        let tiers = tiers_of(rows, cols, k)?;
        let boards = Boards::new(boards, false, &[3], "(N, rows, cols)", "boards")?;
        let (rows, cols) = (tiers.geometry.rows, tiers.geometry.cols);
        if boards.board != [rows, cols] {
            return Err(PyValueError::new_err(format!(
                "boards must have shape (N, {rows}, {cols}) for this tablebase, got {:?}",
                [&[boards.rows()][..], &boards.board].concat()
            )));
        }
        let data = data.as_slice()?;
        let wanted = Wanted { best, moves };
        let rows = boards.code_rows();
        let columns = detached(py, progress, "probing", |monitor| {
            tiers.label_rows(data, &rows, wanted, threads, monitor)
        })?;
        arrays(py, columns)
    }
}

/// Checks a sample of the table's entries against the rules and their children: the root,
/// every tier's first and last entries and ``samples`` more. A table of another game or a
/// rewritten one is a ``ValueError``.
#[pyfunction]
fn check_sample(
    data: PyReadonlyArray1<'_, u8>,
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    samples: usize,
) -> PyResult<()> {
    let tiers = tiers_of(rows, cols, k)?;
    tiers.check_sample(data.as_slice()?, samples).map_err(err)
}

binding! {
    /// Checks every entry of the table against the rules and its children (as long as a build).
    fn check_all(
        py, data: PyReadonlyArray1<'py, u8>, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>,
        k: &Bound<'py, PyAny>; options = WORK
    ) -> () {
        let (threads, progress) = (options.threads(), options.progress);
        let tiers = tiers_of(rows, cols, k)?;
        let data = data.as_slice()?;
        detached(py, progress, "checking", |monitor| {
            tiers.check_all(data, threads, monitor)
        })
    }
}

binding! {
    /// The whole-game report: ``counts`` (3 lists of positions by plies, for value -1, 0, +1),
    /// ``longest`` (plies, table index) and ``canonical`` (positions up to symmetry).
    fn stats(
        py, data: PyReadonlyArray1<'py, u8>, rows: &Bound<'py, PyAny>, cols: &Bound<'py, PyAny>,
        k: &Bound<'py, PyAny>; options = WORK
    ) -> Bound<'py, PyDict> {
        let (threads, progress) = (options.threads(), options.progress);
        let tiers = tiers_of(rows, cols, k)?;
        let data = data.as_slice()?;
        let stats = detached(py, progress, "counting", |monitor| {
            tiers.stats(data, threads, monitor)
        })?;
        let out = PyDict::new(py);
        let counts: Vec<Vec<u64>> = stats.counts.iter().map(|row| row.to_vec()).collect();
        out.set_item("counts", counts)?;
        out.set_item("longest", stats.longest)?;
        out.set_item("canonical", stats.canonical)?;
        Ok(out)
    }
}

/// The position at a table index: (tier, X mask, O mask).
#[pyfunction]
fn position(
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    index: usize,
) -> PyResult<(usize, u64, u64)> {
    tiers_of(rows, cols, k)?.position_at(index).map_err(err)
}
