//! The one worker pool: batches, tablebase tiers, statistics and labels all run here.
//!
//! Pieces of work are handed out in order to up to `threads` workers, each with a state of its
//! own (a transposition table, a partial count). The calling thread is one of the workers, so a
//! batch of one row costs what one call costs (nothing is spawned), and it is also the one that
//! watches: between its pieces, and whenever its own work polls, it calls the caller's
//! `monitor` (progress, Ctrl-C) at most every [`MONITOR_EVERY`]; `true` from it stops every
//! worker at its next poll. Threads are spawned fallibly: a worker the system will not start
//! is simply not there, and the work runs on fewer.
//!
//! Why std threads rather than rayon: a pool kept between calls would keep each thread's
//! tables alive after the batch, the calling thread could not be the watcher, and spawning two
//! threads per batch costs tens of microseconds against searches of milliseconds.

use crate::engine::budget::Stop;
use crate::engine::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// How often the calling thread reports progress and looks for Ctrl-C.
pub const MONITOR_EVERY: Duration = Duration::from_millis(50);

/// The CPUs this process may use, read once: the standard library reads the cgroup files in
/// /proc on every call, which cost a one-row batch 90 us of its 100.
pub fn cpus() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Tells this process from the processes forked from it, without a system call on Linux (a
/// `getpid` at every call is a tenth of a short search's time): the forks counted so far by a
/// handler every child runs. Elsewhere, or when the handler could not be registered, the
/// process id (with the top bit set, so it never equals a count).
pub fn this_process() -> u64 {
    #[cfg(target_os = "linux")]
    {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        static FORKS: AtomicU64 = AtomicU64::new(0);
        static COUNTING: OnceLock<bool> = OnceLock::new();
        extern "C" fn count_fork() {
            FORKS.fetch_add(1, Relaxed);
        }
        // SAFETY: the handler only adds to an atomic, which is safe in a forked child.
        let counting = COUNTING
            .get_or_init(|| unsafe { libc::pthread_atfork(None, None, Some(count_fork)) } == 0);
        if *counting {
            return FORKS.load(Relaxed);
        }
    }
    1 << 63 | u64::from(std::process::id())
}

/// What long work calls now and then with `(done, total)`: `true` means stop now.
pub type Monitor<'a> = &'a mut dyn FnMut(usize, usize) -> bool;

/// What a piece of work polls: `true` means stop now.
pub type Poll<'a> = &'a mut dyn FnMut() -> bool;

/// Fills `out` on up to `threads` workers, `chunk` items a piece: `fill(offset, piece)` (the
/// offset of the piece's first item in `out`) fills a piece and returns how many of `total`
/// units of progress it was (`monitor` as in [`run`]).
pub fn fill<T: Send>(
    out: &mut [T],
    chunk: usize,
    total: usize,
    threads: usize,
    fill: impl Fn(usize, &mut [T]) -> usize + Sync,
    monitor: impl FnMut(usize, usize) -> bool,
) -> Result<()> {
    let chunk = chunk.max(1);
    let pieces: Vec<(usize, &mut [T])> = out
        .chunks_mut(chunk)
        .enumerate()
        .map(|(index, piece)| (index * chunk, piece))
        .collect();
    let work = |(): &mut (), (offset, piece): (usize, &mut [T]), _: Poll| fill(offset, piece);
    run(pieces, total, threads, || Ok(()), work, monitor)?;
    Ok(())
}

/// Runs `work(state, piece, poll)` for every piece, in order, on up to `threads` workers (never
/// more than there are pieces or CPUs); each worker's state comes from `start`. `work` returns
/// how many of `total` units of progress the piece was, and calls `poll` during long pieces.
/// `monitor(done, total)` runs on the calling thread as said in the module's notes, and once
/// more at the end. Returns every worker's state (the calling thread's first), or why the work
/// stopped: `Stopped(Interrupted)` after the monitor said stop (at the end too: a monitor that
/// takes a Ctrl-C from the system must see it raised), or the first error of `start`.
pub fn run<P, S>(
    pieces: Vec<P>,
    total: usize,
    threads: usize,
    start: impl Fn() -> Result<S> + Sync,
    work: impl Fn(&mut S, P, Poll) -> usize + Sync,
    monitor: impl FnMut(usize, usize) -> bool,
) -> Result<Vec<S>>
where
    P: Send,
    S: Send,
{
    let workers = threads.min(pieces.len()).min(cpus()).max(1);
    let queue = Mutex::new(pieces.into_iter());
    let next = || queue.lock().unwrap_or_else(PoisonError::into_inner).next();
    let done = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let states: Mutex<Vec<S>> = Mutex::new(Vec::with_capacity(workers));
    let fail = |error: Error| {
        failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(error);
        stop.store(true, Ordering::Relaxed);
    };
    // A spawned worker wakes the calling thread when it is done: a parallel search's answer
    // comes back without waiting out the rest of a sleep.
    let caller = std::thread::current();
    // A spawned worker: pieces until none are left or the work stops.
    let helper = || {
        match start() {
            Ok(mut state) => {
                let mut poll = || stop.load(Ordering::Relaxed);
                while !stop.load(Ordering::Relaxed) {
                    let Some(piece) = next() else { break };
                    let units = work(&mut state, piece, &mut poll);
                    done.fetch_add(units, Ordering::Relaxed);
                }
                states
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(state);
            }
            Err(error) => fail(error),
        }
        finished.fetch_add(1, Ordering::Release);
        caller.unpark();
    };
    let mut watcher = Watcher {
        monitor,
        last: Instant::now(),
        total,
    };
    let mine = std::thread::scope(|scope| {
        let mut spawned = 0;
        for _ in 1..workers {
            // A thread the system will not start is a worker fewer, not an error.
            if std::thread::Builder::new()
                .spawn_scoped(scope, helper)
                .is_err()
            {
                break;
            }
            spawned += 1;
        }
        let mut poll = || watcher.poll(&stop, &done);
        let mine = match start() {
            Ok(mut state) => {
                while !stop.load(Ordering::Relaxed) {
                    let Some(piece) = next() else { break };
                    let units = work(&mut state, piece, &mut poll);
                    done.fetch_add(units, Ordering::Relaxed);
                    poll();
                }
                Some(state)
            }
            Err(error) => {
                fail(error);
                None
            }
        };
        // The others may still be at work: keep watching until they are done.
        while finished.load(Ordering::Acquire) < spawned && !poll() {
            std::thread::park_timeout(Duration::from_millis(1));
        }
        mine
    });
    if let Some(error) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(error);
    }
    if stop.load(Ordering::Relaxed) {
        return Err(Error::Stopped(Stop::Interrupted));
    }
    // The last report; a stop it asks for (a Ctrl-C it has taken) must not be lost.
    if (watcher.monitor)(done.load(Ordering::Relaxed), total) {
        return Err(Error::Stopped(Stop::Interrupted));
    }
    let mut all = Vec::with_capacity(workers);
    all.extend(mine);
    all.extend(states.into_inner().unwrap_or_else(PoisonError::into_inner));
    Ok(all)
}

/// The calling thread's side of the monitor: calls it at most every [`MONITOR_EVERY`].
struct Watcher<M> {
    monitor: M,
    last: Instant,
    total: usize,
}

impl<M: FnMut(usize, usize) -> bool> Watcher<M> {
    fn poll(&mut self, stop: &AtomicBool, done: &AtomicUsize) -> bool {
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.last.elapsed() >= MONITOR_EVERY {
            self.last = Instant::now();
            if (self.monitor)(done.load(Ordering::Relaxed), self.total) {
                stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_once_and_every_state_back() {
        for threads in [1, 2, 8] {
            let states = run(
                (1..=100u64).collect(),
                100,
                threads,
                || Ok(0u64),
                |sum, piece, _| {
                    *sum += piece;
                    1
                },
                |_, _| false,
            )
            .unwrap();
            assert_eq!(states.iter().sum::<u64>(), 5050);
            assert!(!states.is_empty() && states.len() <= threads.min(cpus()));
        }
    }

    #[test]
    fn the_monitor_stops_long_work_on_every_worker() {
        let started = Instant::now();
        let result = run(
            vec![(); 4],
            4,
            2,
            || Ok(()),
            |(), (), poll| {
                // Spins until told to stop.
                while !poll() {
                    std::hint::spin_loop();
                }
                1
            },
            |_, _| true,
        );
        assert_eq!(result.err(), Some(Error::Stopped(Stop::Interrupted)));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_stop_asked_for_by_the_last_report_is_not_lost() {
        // Work too short for the regular polls: only the report at the end sees the stop.
        let mut reports = 0;
        let result = run(
            vec![1, 2],
            2,
            2,
            || Ok(()),
            |_, _, _| 1,
            |_, _| {
                reports += 1;
                true
            },
        );
        assert_eq!(result.err(), Some(Error::Stopped(Stop::Interrupted)));
        assert!(reports >= 1);
    }

    #[test]
    fn a_failed_start_is_the_error() {
        let result = run(
            vec![1, 2, 3],
            3,
            2,
            || Err::<(), _>(Error::Malformed("no state".into())),
            |_, _, _| 1,
            |_, _| false,
        );
        assert_eq!(result.err(), Some(Error::Malformed("no state".into())));
    }
}
