//! The one batch loop of the searching games: rows spread over the worker pool, each solved by
//! the game's own function with a node budget of its own, equal rows solved once, the answers
//! written by the one column writer.

use crate::engine::budget::{Budget, Stop};
use crate::engine::columns::{BAD, Columns, LIMIT, Scattered, Wanted};
use crate::engine::driver::Label;
use crate::engine::error::{Error, Result};
use crate::engine::memory::{OutOfMemory, headroom, with_room, zeroed};
use crate::engine::pool;
use std::collections::HashMap;
use std::hash::Hash;

/// The answer for one row: a label, or why there is none.
pub type RowResult = std::result::Result<Label, Error>;

/// What to do with a bad row of a batch: raise its error naming the row, or mark it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnError {
    Raise,
    Mask,
}

/// How [`label`] runs a batch (the checked options' share of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labelling {
    pub threads: usize,
    /// None: no limit.
    pub node_limit: Option<u64>,
    /// The move answers too.
    pub moves: bool,
    pub errors: OnError,
}

/// Solves every row with `solve` on up to `threads` workers, each with a state from `start`
/// (its tables), and writes the answers into `columns`. `rows[i]` is `None` for a row that
/// failed before solving: it is written as failed. Rows whose solve failed (a node limit:
/// status LIMIT; anything else of the row's own: BAD) come back in row order with their error;
/// Ctrl-C (`monitor` said stop) and memory failures end the batch with an error.
///
/// Rows are solved fewest cells left first: positions near the end of a game are cheap, and
/// what a worker's tables learn from them answers parts of later searches. The answers never
/// depend on the thread count or the row order (node counts aside).
#[allow(clippy::too_many_arguments)]
pub fn run<T, S>(
    rows: &[Option<T>],
    threads: usize,
    node_limit: Option<u64>,
    start: impl Fn() -> Result<S> + Sync,
    solve: impl Fn(&mut S, &T, &mut Budget) -> RowResult + Sync,
    cells_left: impl Fn(&T) -> u32,
    columns: &mut Columns,
    mut monitor: impl FnMut(usize, usize) -> bool,
) -> Result<Vec<(usize, Error)>>
where
    T: Hash + Eq + Sync,
    S: Send,
{
    let out_of_memory = |_| {
        Error::OutOfMemory(OutOfMemory {
            bytes: rows.len().saturating_mul(size_of::<usize>()),
        })
    };
    // Equal rows are solved once: the first of each is the one solved.
    let mut first_of: HashMap<&T, usize> = HashMap::new();
    first_of.try_reserve(rows.len()).map_err(out_of_memory)?;
    let mut unique: Vec<usize> = with_room(rows.len())?;
    let mut same_as: Vec<usize> = zeroed(rows.len())?;
    // Before and after the pool the work is per row: Ctrl-C is looked for every so many rows.
    for (index, row) in rows.iter().enumerate() {
        look(index, 0, rows.len(), &mut monitor)?;
        same_as[index] = match row {
            Some(row) => *first_of.entry(row).or_insert_with(|| {
                unique.push(index);
                index
            }),
            None => usize::MAX,
        };
    }
    drop(first_of);
    let unique = by_cells_left(&unique, |index| {
        rows[index].as_ref().map_or(0, &cells_left) as usize
    })?;
    let total = unique.len();
    // Small pieces keep the workers evenly busy; a piece per row for small batches.
    let per = (total / (pool::cpus() * 32)).clamp(1, 64);
    let pieces: Vec<&[usize]> = unique.chunks(per).collect();
    let scattered = Scattered::new(columns);
    let states = pool::run(
        pieces,
        total,
        threads,
        || Ok((start()?, Vec::new())),
        |(state, failed): &mut (S, Vec<(usize, Error)>), piece, poll| {
            for &index in piece {
                let row = rows[index].as_ref().expect("only rows to solve are queued");
                let mut budget = Budget::new(node_limit, &mut *poll);
                let answer = solve(state, row, &mut budget);
                // SAFETY: every unique row is in one piece only, and each piece goes to one
                // worker: no other view of this row exists.
                let mut out = unsafe { scattered.row(index) };
                match answer {
                    Ok(label) => out.label(index, &label),
                    Err(error) => {
                        let status = match error {
                            Error::Stopped(Stop::NodeLimit(_)) => LIMIT,
                            _ => BAD,
                        };
                        out.fail(index, status);
                        failed.push((index, error));
                    }
                }
            }
            piece.len()
        },
        &mut monitor,
    )?;
    let mut failed: Vec<(usize, Error)> = Vec::new();
    for (_, errors) in states {
        for (index, error) in errors {
            if let Error::Stopped(Stop::Interrupted) | Error::OutOfMemory(_) = error {
                return Err(error);
            }
            failed.push((index, error));
        }
    }
    for (index, &first) in same_as.iter().enumerate() {
        if first == usize::MAX {
            // SAFETY: the workers are done: this is the only view of the row.
            unsafe { scattered.row(index) }.fail(index, BAD);
        }
    }
    let first_failure: HashMap<usize, Error> = failed.into_iter().collect();
    let mut failed_rows = Vec::new();
    for (index, &first) in same_as.iter().enumerate() {
        look(index, total, total, &mut monitor)?;
        if first != usize::MAX && first != index {
            columns.copy_row(first, index);
        }
        if let Some(error) = first_failure.get(&first) {
            failed_rows.push((index, error.clone()));
        }
    }
    Ok(failed_rows)
}

/// `batch_solve` as every searching game runs it: [`run`] on `how`'s threads and node
/// limit into columns of `moves_per_row` moves, every row's best moves and node count, the
/// move answers with `moves=True`. A row that failed raises (its error `InRow`) under
/// `errors="raise"`; call [`Parsed::raise_first_bad`] before, so that no row is solved when one
/// is bad.
#[allow(clippy::too_many_arguments)]
pub fn label<T, S>(
    parsed: Parsed<T>,
    moves_per_row: usize,
    how: Labelling,
    start: impl Fn() -> Result<S> + Sync,
    solve: impl Fn(&mut S, &T, &mut Budget) -> RowResult + Sync,
    cells_left: impl Fn(&T) -> u32,
    monitor: impl FnMut(usize, usize) -> bool,
) -> Result<Columns>
where
    T: Hash + Eq + Sync,
    S: Send,
{
    let wanted = Wanted {
        best: true,
        moves: how.moves,
        nodes: true,
    };
    let mut columns = Columns::new(parsed.rows.len(), moves_per_row, wanted)?;
    let failed = run(
        &parsed.rows,
        how.threads,
        how.node_limit,
        start,
        solve,
        cells_left,
        &mut columns,
        monitor,
    )?;
    if how.errors == OnError::Raise
        && let Some((row, error)) = failed.into_iter().next()
    {
        return Err(Error::InRow(row, Box::new(error)));
    }
    Ok(columns)
}

/// Rows handled between two looks for Ctrl-C outside the pool (and while a batch is read).
pub const LOOK_EVERY: usize = 1 << 16;

/// At every [`LOOK_EVERY`]-th `row`: stopped when `monitor(done, total)` says so (Ctrl-C),
/// `OutOfMemory` when the memory's [`headroom`] is gone (a row's small allocations cannot
/// fail cleanly; the batch stops before they would). A batch of fewer rows than that takes
/// too little memory to look at it (the look costs a one-row batch half its time).
pub fn look(
    row: usize,
    done: usize,
    total: usize,
    monitor: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<()> {
    if row % LOOK_EVERY != 0 {
        return Ok(());
    }
    if monitor(done, total) {
        return Err(Error::Stopped(Stop::Interrupted));
    }
    if row > 0 || total >= LOOK_EVERY {
        headroom()?;
    }
    Ok(())
}

/// A batch's rows after parsing: each ready to solve (`None` for a bad row), and the first bad
/// row with its error (a masked batch needs none, a raising one the first).
pub struct Parsed<T> {
    pub rows: Vec<Option<T>>,
    pub first_bad: FirstBad,
}

/// The first bad row of a batch and its error, if any.
pub type FirstBad = Option<(usize, Error)>;

impl<T> Parsed<T> {
    /// Room for `rows` rows, or an out-of-memory error.
    pub fn with_capacity(rows: usize) -> Result<Parsed<T>> {
        Ok(Parsed {
            rows: with_room(rows)?,
            first_bad: None,
        })
    }

    /// The batch as it is, or its first bad row's error (`InRow`) under `errors="raise"`.
    pub fn raise_first_bad(mut self, on_error: OnError) -> Result<Parsed<T>> {
        raise_first_bad(self.first_bad.take(), on_error)?;
        Ok(self)
    }

    pub fn push(&mut self, row: Result<T>) {
        match row {
            Ok(row) => self.rows.push(Some(row)),
            Err(error) => {
                if self.first_bad.is_none() {
                    self.first_bad = Some((self.rows.len(), error));
                }
                self.rows.push(None);
            }
        }
    }
}

/// A batch that may hold bad rows: [`Parsed`], or a game's batch of several kinds of them.
pub trait BadRows: Sized {
    /// The batch as it is, or its first bad row's error (`InRow`) under `errors="raise"`.
    fn raise_first_bad(self, on_error: OnError) -> Result<Self>;
}

impl<T> BadRows for Parsed<T> {
    fn raise_first_bad(self, on_error: OnError) -> Result<Parsed<T>> {
        Parsed::raise_first_bad(self, on_error)
    }
}

/// The first bad row's error (`InRow`) under `errors="raise"`, if there is one.
pub fn raise_first_bad(first_bad: FirstBad, on_error: OnError) -> Result<()> {
    match first_bad {
        Some((row, error)) if on_error == OnError::Raise => Err(Error::InRow(row, Box::new(error))),
        _ => Ok(()),
    }
}

/// `indices` ordered by `key` (cells left: a few dozen values), stably, in linear time.
fn by_cells_left(indices: &[usize], key: impl Fn(usize) -> usize) -> Result<Vec<usize>> {
    let mut starts = vec![0usize; 1];
    for &index in indices {
        let key = key(index);
        if key + 1 >= starts.len() {
            starts.resize(key + 2, 0);
        }
        starts[key + 1] += 1;
    }
    for key in 1..starts.len() {
        starts[key] += starts[key - 1];
    }
    let mut sorted: Vec<usize> = zeroed(indices.len())?;
    for &index in indices {
        let slot = &mut starts[key(index)];
        sorted[*slot] = index;
        *slot += 1;
    }
    Ok(sorted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::columns::{OK, Wanted};
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn label(value: i8) -> Label {
        Label {
            value,
            plies: 0,
            best: 0,
            best_move: None,
            moves: Vec::new(),
            nodes: 0,
        }
    }

    const WANTED: Wanted = Wanted {
        best: true,
        moves: false,
        nodes: true,
    };

    #[test]
    fn answers_come_back_in_row_order_and_equal_rows_are_solved_once() {
        let rows: Vec<Option<i32>> = vec![Some(3), None, Some(-2), Some(3), Some(5), Some(0)];
        let calls = AtomicUsize::new(0);
        for threads in [1, 2, 4] {
            calls.store(0, Ordering::Relaxed);
            let mut columns = Columns::new(rows.len(), 1, WANTED).unwrap();
            let failed = run(
                &rows,
                threads,
                None,
                || Ok(()),
                |(), &row, _| {
                    calls.fetch_add(1, Ordering::Relaxed);
                    if row == 0 {
                        return Err(Error::Stopped(Stop::NodeLimit(7)));
                    }
                    Ok(label(row.signum() as i8))
                },
                |_| 0,
                &mut columns,
                |_, _| false,
            )
            .unwrap();
            assert_eq!(columns.value, vec![1, 0, -1, 1, 1, 0]);
            assert_eq!(columns.status, vec![OK, BAD, OK, OK, OK, LIMIT]);
            assert_eq!(failed, vec![(5, Error::Stopped(Stop::NodeLimit(7)))]);
            assert_eq!(calls.load(Ordering::Relaxed), 4);
        }
    }

    #[test]
    fn the_monitor_can_stop_every_worker() {
        let rows: Vec<Option<u32>> = (0..64).map(Some).collect();
        let mut columns = Columns::new(rows.len(), 1, WANTED).unwrap();
        let result = run(
            &rows,
            2,
            None,
            || Ok(()),
            |(), _, budget| {
                // Spins until stopped: only the stop flag ends it.
                loop {
                    budget.visit()?;
                }
            },
            |_| 0,
            &mut columns,
            |_, _| true,
        );
        assert_eq!(result, Err(Error::Stopped(Stop::Interrupted)));
    }
}
