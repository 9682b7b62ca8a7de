//! The one batch loop: rows spread over worker threads, each solved by the game's own
//! function with a node budget of its own; equal rows solved once; a stop flag the workers
//! poll (Ctrl-C), and a monitor on the calling thread that reports progress and may stop it.

use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::Label;
use crate::engine::error::Error;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How often the calling thread looks at the workers (progress, Ctrl-C).
const MONITOR_EVERY: Duration = Duration::from_millis(50);

/// The answer for one row: a label, or why there is none.
pub type RowResult = Result<Label, Error>;

/// Solves every row with `solve` on `threads` workers. `rows[i]` is `None` for a row that
/// failed before solving (it is skipped). `monitor(done, total)` (distinct rows solved so far,
/// and to solve) runs on the calling thread about every 50 ms until the work is done;
/// returning `true` stops the batch: rows not solved by then answer `Stop::Interrupted`.
/// Results come back in row order, whatever the thread count.
///
/// Rows are solved in the order of `cells_left` (fewest first): positions near the end of a
/// game are cheap, and what a worker's kept tables learn from them answers parts of the
/// searches of earlier positions that come later.
pub fn run<T, F>(
    rows: &[Option<T>],
    threads: usize,
    node_limit: Option<u64>,
    solve: F,
    cells_left: impl Fn(&T) -> u32,
    mut monitor: impl FnMut(usize, usize) -> bool,
) -> Vec<Option<RowResult>>
where
    T: Hash + Eq + Sync,
    F: Fn(&T, &mut Budget) -> RowResult + Sync,
{
    // Equal rows are solved once: the first of each is the one solved.
    let mut first_of: HashMap<&T, usize> = HashMap::new();
    let mut unique = Vec::new();
    let mut same_as = vec![usize::MAX; rows.len()];
    for (index, row) in rows.iter().enumerate() {
        if let Some(row) = row {
            let first = *first_of.entry(row).or_insert_with(|| {
                unique.push(index);
                index
            });
            same_as[index] = first;
        }
    }
    unique.sort_by_key(|&index| rows[index].as_ref().map_or(0, &cells_left));
    let results: Vec<Mutex<Option<RowResult>>> =
        (0..rows.len()).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = threads.clamp(1, unique.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let slot = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = unique.get(slot) else {
                        break;
                    };
                    let row = rows[index].as_ref().expect("a row to solve");
                    let result = if stop.load(Ordering::Relaxed) {
                        Err(Error::Stopped(Stop::Interrupted))
                    } else {
                        let mut poll = || stop.load(Ordering::Relaxed);
                        let mut budget = Budget::new(node_limit, &mut poll);
                        solve(row, &mut budget)
                    };
                    *results[index]
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner) = Some(result);
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        while done.load(Ordering::Relaxed) < unique.len() {
            std::thread::sleep(MONITOR_EVERY);
            if monitor(done.load(Ordering::Relaxed), unique.len()) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    monitor(unique.len(), unique.len());
    let mut solved: Vec<Option<RowResult>> = results
        .into_iter()
        .map(|cell| cell.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect();
    for index in 0..rows.len() {
        let first = same_as[index];
        if first != usize::MAX && first != index {
            solved[index] = solved[first].clone();
        }
    }
    solved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::Stop;

    fn label(value: i8) -> Label {
        Label {
            value,
            plies: 0,
            best: 0,
            moves: Vec::new(),
            nodes: 0,
        }
    }

    #[test]
    fn answers_come_back_in_row_order_and_equal_rows_are_solved_once() {
        let rows: Vec<Option<i32>> = vec![Some(3), None, Some(-2), Some(3), Some(5)];
        let calls = AtomicUsize::new(0);
        for threads in [1, 2, 4] {
            calls.store(0, Ordering::Relaxed);
            let results = run(
                &rows,
                threads,
                None,
                |&row, _| {
                    calls.fetch_add(1, Ordering::Relaxed);
                    Ok(label(row.signum() as i8))
                },
                |_| 0,
                |_, _| false,
            );
            let values: Vec<Option<i8>> = results
                .iter()
                .map(|r| r.as_ref().map(|r| r.as_ref().unwrap().value))
                .collect();
            assert_eq!(values, vec![Some(1), None, Some(-1), Some(1), Some(1)]);
            assert_eq!(calls.load(Ordering::Relaxed), 3);
        }
    }

    #[test]
    fn the_monitor_can_stop_every_worker() {
        let rows: Vec<Option<u32>> = (0..64).map(Some).collect();
        let results = run(
            &rows,
            2,
            None,
            |_, budget| {
                // Spins until stopped: only the stop flag ends it.
                loop {
                    budget.visit()?;
                }
            },
            |_| 0,
            |_, _| true,
        );
        assert!(
            results
                .iter()
                .all(|r| matches!(r, Some(Err(Error::Stopped(Stop::Interrupted)))))
        );
    }
}
