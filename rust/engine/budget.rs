//! Node counting, the caller's node limit, and polling for interruption during long searches.
//!
//! The cores know nothing of Python: the glue passes a `poll` callback that checks for signals
//! (Ctrl-C) and returns `true` to stop. Polling costs a GIL round trip, so it runs only every
//! [`POLL_EVERY`] nodes.

use crate::engine::pool::Monitor;

/// How many nodes pass between two calls of the poll callback (a few milliseconds of search).
pub const POLL_EVERY: u64 = 1 << 15;

/// Why a search stopped before finishing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// More nodes than the caller's `node_limit` were needed.
    NodeLimit(u64),
    /// The poll callback asked to stop (a pending signal such as Ctrl-C).
    Interrupted,
}

/// Counts nodes and stops the search at the node limit or when `poll` says so.
pub struct Budget<'a> {
    nodes: u64,
    limit: u64,
    next_poll: u64,
    poll_every: u64,
    poll: &'a mut dyn FnMut() -> bool,
}

#[cfg(test)]
fn never_stop() -> bool {
    false
}

impl<'a> Budget<'a> {
    /// `limit`: the most nodes the search may visit (`None`: no limit).
    pub fn new(limit: Option<u64>, poll: &'a mut dyn FnMut() -> bool) -> Self {
        let limit = limit.unwrap_or(u64::MAX);
        Budget {
            nodes: 0,
            limit,
            next_poll: POLL_EVERY.min(limit),
            poll_every: POLL_EVERY,
            poll,
        }
    }

    /// The same budget, polling every `nodes` nodes: for a poll that costs next to nothing and
    /// must be seen soon (a thread of a parallel search whose answer another thread has found).
    pub fn polling_every(mut self, nodes: u64) -> Self {
        self.poll_every = nodes.max(1);
        self.next_poll = self.poll_every.min(self.limit);
        self
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The nodes the search may still visit (`None`: no limit).
    pub fn remaining(&self) -> Option<u64> {
        (self.limit != u64::MAX).then(|| self.limit.saturating_sub(self.nodes))
    }

    /// Counts nodes visited elsewhere for this search (by the threads of a parallel one).
    pub fn count(&mut self, nodes: u64) {
        self.nodes = self.nodes.saturating_add(nodes);
    }

    /// The error of a search that ran out of this budget's nodes elsewhere.
    pub fn node_limit(&self) -> Stop {
        Stop::NodeLimit(self.limit)
    }

    /// Calls the poll callback now: `true` means stop.
    pub fn poll_now(&mut self) -> bool {
        (self.poll)()
    }

    /// Counts one node; `Err` once the search must stop.
    #[inline]
    pub fn visit(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.checkpoint()?;
        }
        Ok(())
    }

    #[cold]
    fn checkpoint(&mut self) -> Result<(), Stop> {
        if self.nodes > self.limit {
            return Err(Stop::NodeLimit(self.limit));
        }
        if (self.poll)() {
            return Err(Stop::Interrupted);
        }
        self.next_poll = self.nodes.saturating_add(self.poll_every);
        if self.next_poll > self.limit {
            // Land exactly one node past the limit so the limit itself is exact.
            self.next_poll = self.limit.saturating_add(1);
        }
        Ok(())
    }
}

/// Runs `work` under a budget of `limit` nodes that polls `monitor` (which draws a bar and
/// watches for Ctrl-C): with `shows_nodes`, as the nodes searched so far out of the limit (0:
/// none), a long proof's bar; otherwise as no progress.
pub fn monitored<T>(
    limit: Option<u64>,
    shows_nodes: bool,
    monitor: Monitor<'_>,
    work: impl FnOnce(&mut Budget) -> T,
) -> T {
    let total = limit.map_or(0, |limit| usize::try_from(limit).unwrap_or(usize::MAX));
    let mut polls = 0usize;
    let mut poll = || {
        polls += 1;
        match shows_nodes {
            true => monitor(polls.saturating_mul(POLL_EVERY as usize), total),
            false => monitor(0, 0),
        }
    };
    work(&mut Budget::new(limit, &mut poll))
}

/// Runs `f` with a budget that never polls: for Rust callers and tests.
#[cfg(test)]
pub fn unlimited<T>(f: impl FnOnce(&mut Budget) -> T) -> T {
    let mut poll = never_stop;
    let mut budget = Budget::new(None, &mut poll);
    f(&mut budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_one_node_past_the_limit() {
        let mut poll = never_stop;
        let mut budget = Budget::new(Some(10), &mut poll);
        for _ in 0..10 {
            budget.visit().unwrap();
        }
        assert_eq!(budget.visit(), Err(Stop::NodeLimit(10)));
    }

    #[test]
    fn poll_can_interrupt() {
        let mut calls = 0;
        let mut poll = || {
            calls += 1;
            true
        };
        let mut budget = Budget::new(None, &mut poll);
        let mut result = Ok(());
        for _ in 0..POLL_EVERY {
            result = budget.visit();
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(Stop::Interrupted));
        assert_eq!(calls, 1);
    }

    #[test]
    fn polls_as_often_as_asked() {
        let mut calls = 0;
        let mut poll = || {
            calls += 1;
            false
        };
        let mut budget = Budget::new(None, &mut poll).polling_every(100);
        for _ in 0..1000 {
            budget.visit().unwrap();
        }
        assert_eq!(calls, 10);
    }
}
