//! Several threads on one search. A position with [`PARALLEL_FROM`] moves left or more is
//! searched by every thread over the one main table, a position another thread is searching
//! left for last (ABDADA, see [`Busy`]), so that the threads split the work rather than repeat
//! it; the first thread to answer stops the others, and a thread leaves a search another
//! thread's result has made needless (see [`Path`]). An `analyze` searches its columns side by
//! side instead, a column a thread ([`Solver::children_scores`]).

use super::{Searched, Slot, Solver, exact_of};
use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::Rules;
use crate::engine::error::Error;
use crate::engine::memory::{HugeBuffer, OutOfMemory};
use crate::engine::pool;
use crate::engine::score::Score;
use crate::engine::window::cells_of;
use crate::games::connect4::table::{NO_MOVE, SmallTable, Table};
use crate::games::connect4::{Bits, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// A search on several threads splits positions with at least this many moves left.
const PARALLEL_FROM: i32 = 28;
/// The nodes a search of such a position first tries on its own thread (a tenth of a
/// millisecond): many need no more once the table holds what earlier searches learnt, and
/// starting the threads costs about as much.
const ALONE_NODES: u64 = 1 << 11;
/// A thread of a parallel search looks whether another has answered every this many nodes
/// (one load).
const ANSWERED_POLL_EVERY: u64 = 1 << 12;
/// The nodes `analyze` spends on a position's columns on its own thread before it searches them
/// side by side (about a millisecond): a quick analysis starts no threads.
const COLUMNS_ALONE_NODES: u64 = 1 << 15;
/// The threads of a parallel search mark the positions with at least this many moves left
/// that they are searching, and keep them on their [`Path`]. Marking costs two atomic writes a
/// node.
const SEARCH_BUSY_FROM: i32 = 24;
/// A thread of a parallel search looks whether its path has become needless (see [`Path`])
/// every this many nodes: a few table probes each time.
const NEEDLESS_EVERY: u64 = 1 << 12;
/// A thread of a parallel search leaves a sibling's search under a settled position (see
/// [`Siblings`]) only fewer than this many plies from the root.
const LEAVE_SIBLINGS_WITHIN: i32 = 12;
/// The threads of `analyze`'s columns side by side mark from this many moves left: a thread
/// that joins a column another is searching is steered off its path further down.
const COLUMNS_BUSY_FROM: i32 = 16;

/// What the threads of one parallel search mark: the positions some thread is searching now,
/// by their mixed keys, so that the others search something else first (ABDADA: a position
/// being searched is left for last, when its result is likely in the table). A lost mark or a
/// stale one costs time, never a wrong answer. A mark takes its slot whatever held it, so a long
/// search's mark is soon lost to those of positions below it; marks that kept their slot took
/// as many nodes (two threads, Pons' Begin-Hard: see the benchmarks page).
pub(super) struct Busy {
    marks: HugeBuffer<AtomicU64>,
    /// The fewest moves left a marked position has.
    pub(super) from: i32,
}

impl Busy {
    const BITS: u32 = 14;

    pub(super) fn new(from: i32) -> Result<Busy, OutOfMemory> {
        Ok(Busy {
            marks: HugeBuffer::zeroed(1 << Self::BITS)?,
            from,
        })
    }

    #[inline(always)]
    fn mark_of<B: Bits>(&self, mixed: B) -> (&AtomicU64, u64) {
        let mixed = mixed.folded();
        let index = (mixed >> 2) as usize & ((1 << Self::BITS) - 1);
        (&self.marks[index], mixed | 1 << 63)
    }

    #[inline(always)]
    pub(super) fn mark<B: Bits>(&self, slot: Slot<B>) {
        let (mark, value) = self.mark_of(slot.mixed);
        mark.store(value, Relaxed);
    }

    #[inline(always)]
    pub(super) fn unmark<B: Bits>(&self, slot: Slot<B>) {
        let (mark, value) = self.mark_of(slot.mixed);
        let _ = mark.compare_exchange(value, 0, Relaxed, Relaxed);
    }

    #[inline(always)]
    pub(super) fn is_marked<B: Bits>(&self, slot: Slot<B>) -> bool {
        let (mark, value) = self.mark_of(slot.mixed);
        mark.load(Relaxed) == value
    }
}

/// The positions a thread of a parallel search is inside (from [`SEARCH_BUSY_FROM`] moves
/// left), with their windows, so that it can leave a search another thread's result has made
/// needless: a position the table now settles for its window, either because every move of it
/// failed (the other thread searched them all) or because its best move cut off and this
/// thread is inside that same move, or, where [`Siblings`] says so, any other move.
pub(super) struct Path<B> {
    frames: Vec<Frame<B>>,
    next_look: u64,
    /// The frame the search unwinds to (with `Stop::Interrupted`), which answers from the
    /// table.
    leave_to: Option<usize>,
    siblings: Siblings,
}

/// Where a thread leaves its search of a move when another move has cut off above it. That
/// search is needless for the test at hand, but what it stores may be what a later null-window
/// test needs: later tests move the window the way this one fails, and a cutoff holds in them
/// only at the plies whose side they give a lower window. If the root fails high, those are the
/// opponent's (odd) plies; if it fails low, the root's own (even) ones.
#[derive(Clone, Copy)]
pub(super) enum Siblings {
    /// Stay (the search's window is not one of a series of tests).
    Kept,
    LeftAtEvenPlies,
    LeftAtOddPlies,
    /// Left at every ply: no later test needs them (or, at a test of 0, none is guessed to).
    Left,
}

impl Siblings {
    /// For a test at `test` (window `test`, `test + 1`) of a score known to lie in [min, max],
    /// halved as `pons_score` does. Where both outcomes need a later test, the score is guessed
    /// nearer 0 than the test (halving goes from 0 to the far end first), and at 0 the siblings
    /// are left (see the benchmarks page).
    pub(super) fn for_test(test: i32, min: i32, max: i32) -> Siblings {
        let after_high = test + 1 < max;
        let after_low = min < test;
        match (after_high, after_low) {
            (false, false) => Siblings::Left,
            (true, false) => Siblings::LeftAtOddPlies,
            (false, true) => Siblings::LeftAtEvenPlies,
            _ if test > 0 => Siblings::LeftAtEvenPlies,
            _ if test < 0 => Siblings::LeftAtOddPlies,
            _ => Siblings::Left,
        }
    }

    /// Whether a sibling's search is left at `ply` plies from the root.
    fn left_at(self, ply: i32) -> bool {
        ply < LEAVE_SIBLINGS_WITHIN
            && match self {
                Siblings::Kept => false,
                Siblings::LeftAtEvenPlies => ply % 2 == 0,
                Siblings::LeftAtOddPlies => ply % 2 == 1,
                Siblings::Left => true,
            }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Frame<B> {
    position: Position<B>,
    slot: Slot<B>,
    alpha: i32,
    beta: i32,
}

impl<B> Path<B> {
    pub(super) fn new(siblings: Siblings) -> Path<B> {
        Path {
            frames: Vec::with_capacity(64),
            next_look: 0,
            leave_to: None,
            siblings,
        }
    }
}

impl<B: Bits> Solver<'_, '_, B> {
    /// The score of `p` (whose table slot is `slot`), fail-soft in (alpha, beta); in a parallel
    /// search, on this thread's path.
    pub(super) fn negamax(
        &mut self,
        p: &Position<B>,
        slot: Slot<B>,
        alpha: i32,
        beta: i32,
    ) -> Searched {
        if self.path.is_none() || self.cells - (p.moves as i32) < SEARCH_BUSY_FROM {
            return self.node(p, slot, alpha, beta);
        }
        self.leave_if_needless(slot)?;
        let frame = Frame {
            position: *p,
            slot,
            alpha,
            beta,
        };
        let frames = &mut self.path.as_mut().expect("on a path").frames;
        let level = frames.len();
        frames.push(frame);
        let answer = self.node(p, slot, alpha, beta);
        let path = self.path.as_mut().expect("on a path");
        path.frames.truncate(level);
        if answer.is_ok() {
            return answer;
        }
        // Marks are not left behind by a search that stops.
        if let Some(busy) = self.busy {
            busy.unmark(slot);
        }
        if path.leave_to != Some(level) {
            return answer;
        }
        path.leave_to = None;
        match self.table(slot).get(slot.mixed) {
            Some(known) if known.lower >= beta => Ok(known.lower),
            Some(known) if known.upper <= alpha => Ok(known.upper),
            // The entry has given way meanwhile: searched again.
            _ => self.negamax(p, slot, alpha, beta),
        }
    }

    /// Every [`NEEDLESS_EVERY`] nodes: `Err` (and the frame to leave to) when the table settles
    /// a position on this thread's path as [`Path`] says, `slot` being the next step below the
    /// last frame.
    pub(super) fn leave_if_needless(&mut self, slot: Slot<B>) -> Result<(), Stop> {
        let nodes = self.budget.nodes();
        let path = self.path.as_deref().expect("on a path");
        if nodes < path.next_look {
            return Ok(());
        }
        let mut leave = None;
        let root_moves = path.frames.first().map_or(0, |root| root.position.moves);
        for (level, frame) in path.frames.iter().enumerate() {
            let Some(known) = self.table(frame.slot).get(frame.slot.mixed) else {
                continue;
            };
            let next = path.frames.get(level + 1).map_or(slot, |below| below.slot);
            let ply = (frame.position.moves - root_moves) as i32;
            if known.upper <= frame.alpha
                || known.lower >= frame.beta
                    && (path.siblings.left_at(ply) || self.is_best_move(frame, known.best, next))
            {
                leave = Some(level);
                break;
            }
        }
        let path = self.path.as_mut().expect("on a path");
        path.next_look = nodes + NEEDLESS_EVERY;
        path.leave_to = leave;
        match leave {
            Some(_) => Err(Stop::Interrupted),
            None => Ok(()),
        }
    }

    /// Whether `next` is the position the move `best` (as stored in the frame's slot) makes.
    pub(super) fn is_best_move(&self, frame: &Frame<B>, best: u32, next: Slot<B>) -> bool {
        let column = self.column_in(frame.slot, best);
        if column == NO_MOVE {
            return false;
        }
        // The column was legal where it was stored: the same position.
        let child = self.shape.play(&frame.position, column as u8);
        self.slot(&child).mixed == next.mixed
    }

    /// The score of a position where the side to move cannot win at once, fail-soft in
    /// (alpha, beta).
    pub(super) fn search(
        &mut self,
        p: &Position<B>,
        alpha: i32,
        beta: i32,
        siblings: Siblings,
    ) -> Searched {
        let slot = self.slot(p);
        // Threads pay where the search is long: not above a book it stops at.
        if self.threads > 1 && self.cells - p.moves as i32 >= PARALLEL_FROM && !self.books.below(p)
        {
            // What a book or the table already settles needs no threads (starting them costs
            // about a millisecond).
            if let Some(score) = self.books.score(self.shape, p) {
                return Ok(score);
            }
            if let Some(known) = self.table(slot).get(slot.mixed) {
                if known.lower >= beta || known.lower == known.upper {
                    return Ok(known.lower);
                }
                if known.upper <= alpha {
                    return Ok(known.upper);
                }
            }
            if let Some(answer) = self.alone(p, slot, alpha, beta) {
                return answer;
            }
            return self.parallel(p, slot, alpha, beta, siblings);
        }
        self.child(p, slot, alpha, beta)
    }

    /// The search of `p` on this thread alone, within [`ALONE_NODES`] nodes; None when it
    /// needs more (what it learnt stays in the table for the threads).
    pub(super) fn alone(
        &mut self,
        p: &Position<B>,
        slot: Slot<B>,
        alpha: i32,
        beta: i32,
    ) -> Option<Searched> {
        let remaining = self.budget.remaining();
        let limit = remaining.map_or(ALONE_NODES, |left| left.min(ALONE_NODES));
        let (shape, shared, books) = (self.shape, self.shared, self.books);
        let budget = &mut *self.budget;
        let mut poll = || budget.poll_now();
        let mut local = Budget::new(Some(limit), &mut poll);
        let answer = Solver::one_thread(shape, shared, &mut *self.small, &mut local, books)
            .child(p, slot, alpha, beta);
        let nodes = local.nodes();
        self.budget.count(nodes);
        match answer {
            Err(Stop::NodeLimit(_)) if remaining.is_none_or(|left| left > ALONE_NODES) => None,
            Err(Stop::NodeLimit(_)) => Some(Err(self.budget.node_limit())),
            answer => Some(answer),
        }
    }

    /// [`Solver::search`] on `self.threads` threads of the one worker pool: each searches the
    /// whole position over the shared main table (a small table of its own), leaving for last
    /// the positions another is searching (see `Busy`); the first answer is the answer, and
    /// stops the others. Every thread may visit what is left of the node limit. Without the
    /// memory for it, the search runs on this thread alone.
    pub(super) fn parallel(
        &mut self,
        p: &Position<B>,
        slot: Slot<B>,
        alpha: i32,
        beta: i32,
        siblings: Siblings,
    ) -> Searched {
        struct Worker<B: Bits> {
            small: SmallTable<B>,
            path: Path<B>,
            answer: Option<Searched>,
            nodes: u64,
        }
        let Ok(busy) = Busy::new(SEARCH_BUSY_FROM) else {
            return self.child(p, slot, alpha, beta);
        };
        let (shape, shared, books) = (self.shape, self.shared, self.books);
        let limit = self.budget.remaining();
        let answered = AtomicBool::new(false);
        let budget = &mut *self.budget;
        let workers = pool::run(
            vec![(); self.threads],
            self.threads,
            self.threads,
            || {
                Ok(Worker {
                    small: SmallTable::new()?,
                    path: Path::new(siblings),
                    answer: None,
                    nodes: 0,
                })
            },
            |worker, _, poll| {
                let mut poll = || answered.load(Relaxed) || poll();
                let mut budget = Budget::new(limit, &mut poll).polling_every(ANSWERED_POLL_EVERY);
                let mut solver =
                    Solver::one_thread(shape, shared, &mut worker.small, &mut budget, books);
                solver.busy = Some(&busy);
                solver.path = Some(&mut worker.path);
                let answer = solver.child(p, slot, alpha, beta);
                if answer.is_ok() {
                    answered.store(true, Relaxed);
                }
                worker.nodes += budget.nodes();
                worker.answer.get_or_insert(answer);
                1
            },
            |_, _| budget.poll_now(),
        );
        let workers = match workers {
            Ok(workers) => workers,
            Err(Error::Stopped(stop)) => return Err(stop),
            Err(_) => return self.child(p, slot, alpha, beta),
        };
        self.budget
            .count(workers.iter().map(|worker| worker.nodes).sum());
        let answers = || workers.iter().filter_map(|worker| worker.answer);
        if let Some(score) = answers().find_map(Result::ok) {
            return Ok(score);
        }
        if answers().any(|answer| matches!(answer, Err(Stop::NodeLimit(_)))) {
            return Err(self.budget.node_limit());
        }
        Err(Stop::Interrupted)
    }

    /// Every legal column of `p` with the exact score (`score.rs`'s) of the position it makes,
    /// for `analyze`. With several threads the columns are searched side by side, a column a
    /// thread over the shared main table, once this thread has spent [`COLUMNS_ALONE_NODES`] on
    /// them alone (a quick analysis starts no threads): a column's exact score is a series of
    /// null-window searches, which gain little from two threads short of the longest searches,
    /// and a position has several columns. A thread with no column left joins one still
    /// searched.
    pub fn children_scores(&mut self, p: &Position<B>) -> Result<Vec<(u8, Score)>, Stop> {
        let shape = self.shape;
        let child = |col: u8| shape.play(p, col);
        // The rules' moves: none once the game is over.
        let columns = cells_of(shape.moves(p));
        // Under a node limit the columns are searched in order, so that the limit is one count.
        if self.threads == 1 || self.budget.remaining().is_some() {
            return columns
                .map(|col| Ok((col, exact_of(self, &child(col))?)))
                .collect();
        }
        // Alone first, within COLUMNS_ALONE_NODES for all columns; what it learnt stays in the
        // table.
        let (shared, books) = (self.shared, self.books);
        let mut scores = Vec::new();
        let mut left = Vec::new();
        let budget = &mut *self.budget;
        let mut poll = || budget.poll_now();
        let mut local = Budget::new(Some(COLUMNS_ALONE_NODES), &mut poll);
        let mut alone = Solver::one_thread(shape, shared, &mut *self.small, &mut local, books);
        for col in columns {
            match left.is_empty().then(|| exact_of(&mut alone, &child(col))) {
                Some(Ok(score)) => scores.push((col, score)),
                Some(Err(Stop::Interrupted)) => return Err(Stop::Interrupted),
                _ => left.push(col),
            }
        }
        let nodes = local.nodes();
        self.budget.count(nodes);
        if left.is_empty() {
            return Ok(scores);
        }
        // A worker with no column left helps the first column still searched (both over the
        // table, positions the other is searching left for last, as in `parallel`); the
        // first score found is the column's.
        enum Piece {
            Column(usize),
            Help,
        }
        struct Worker<B: Bits> {
            small: SmallTable<B>,
            scores: Vec<(u8, Score)>,
            nodes: u64,
        }
        let Ok(busy) = Busy::new(COLUMNS_BUSY_FROM) else {
            return self.rest_alone(p, &left, scores);
        };
        let done: Vec<AtomicBool> = left.iter().map(|_| AtomicBool::new(false)).collect();
        let stopped = AtomicBool::new(false);
        let mut pieces: Vec<Piece> = (0..left.len()).map(Piece::Column).collect();
        pieces.extend((1..self.threads).map(|_| Piece::Help));
        let budget = &mut *self.budget;
        let workers = pool::run(
            pieces,
            left.len(),
            self.threads,
            || {
                Ok(Worker {
                    small: SmallTable::new()?,
                    scores: Vec::new(),
                    nodes: 0,
                })
            },
            |worker, piece, poll| {
                let mut search = |index: usize| {
                    let mut poll = || stopped.load(Relaxed) || done[index].load(Relaxed) || poll();
                    let mut budget = Budget::new(None, &mut poll);
                    let mut solver =
                        Solver::one_thread(shape, shared, &mut worker.small, &mut budget, books);
                    solver.busy = Some(&busy);
                    let score = exact_of(&mut solver, &child(left[index]));
                    worker.nodes += budget.nodes();
                    match score {
                        Ok(score) => {
                            done[index].store(true, Relaxed);
                            worker.scores.push((left[index], score));
                        }
                        // Stopped because the other thread answered first: no failure.
                        Err(_) if done[index].load(Relaxed) => {}
                        Err(_) => stopped.store(true, Relaxed),
                    }
                };
                match piece {
                    Piece::Column(index) => {
                        search(index);
                        1
                    }
                    // The helpers come after every column in the pool's order: every column
                    // not done is being searched.
                    Piece::Help => {
                        while !stopped.load(Relaxed)
                            && let Some(index) = (0..left.len()).find(|&i| !done[i].load(Relaxed))
                        {
                            search(index);
                        }
                        0
                    }
                }
            },
            |_, _| budget.poll_now(),
        );
        let workers = match workers {
            Ok(workers) => workers,
            Err(Error::Stopped(stop)) => return Err(stop),
            Err(_) => return self.rest_alone(p, &left, scores),
        };
        self.budget
            .count(workers.iter().map(|worker| worker.nodes).sum());
        for (col, score) in workers.into_iter().flat_map(|worker| worker.scores) {
            if !scores.iter().any(|&(found, _)| found == col) {
                scores.push((col, score));
            }
        }
        // A column without a score was stopped (by Ctrl-C) on every thread searching it.
        if done.iter().any(|done| !done.load(Relaxed)) {
            return Err(Stop::Interrupted);
        }
        scores.sort_unstable_by_key(|&(col, _)| col);
        Ok(scores)
    }

    /// [`Solver::children_scores`] of the columns `left` on this thread, added to `scores`
    /// (without the memory for the threads' tables), in column order.
    pub(super) fn rest_alone(
        &mut self,
        p: &Position<B>,
        left: &[u8],
        mut scores: Vec<(u8, Score)>,
    ) -> Result<Vec<(u8, Score)>, Stop> {
        for &col in left {
            scores.push((col, exact_of(self, &self.shape.play(p, col))?));
        }
        scores.sort_unstable_by_key(|&(col, _)| col);
        Ok(scores)
    }
}
