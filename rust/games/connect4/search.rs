//! The Connect Four solver: negamax with alpha-beta and null windows over bitboards, scored in
//! Pons' units (see the module's notes in `mod.rs`).
//!
//! What keeps it fast:
//! * **Only moves that do not lose at once** are searched (a single threat of the opponent must
//!   be blocked, two lose, and no stone goes right under an opponent's winning cell), so no
//!   node ever has to look for a win in one: the parent has ruled it out.
//! * **A node of one move** (a forced block, or the only move that does not lose) is played
//!   through, neither ordered nor stored (in either search): its child's entry answers for it.
//! * **Bounds from the rules**: a side that cannot win now wins at best with its second stone
//!   from now; with no move that loses at once the opponent wins at best with its second.
//! * **The exact score by null windows**, the range halved (with Pons' bias away from 0 while
//!   it is wide), the table carrying what each test learnt to the next.
//! * **Move ordering**: the table's best move first, on its own (when it cuts off, nothing else
//!   is ordered); then by the useful threats each move makes (cells where a stone would
//!   complete four, not right above one of the opponent's), weighed by how soon they bite
//!   (right above a landing cell most, playable at once next), or, in a node that only has to
//!   stave off a heavy loss, by their number with the ones to answer at once as a tie-break;
//!   the centre first among equals.
//! * **The table** (`table.rs`): exact keys, bounds on both sides, growing with the search,
//!   children's buckets prefetched while the moves are ordered, and an enhanced transposition
//!   cutoff (a child already known bad enough for the opponent ends the node) wherever the
//!   children are the main search's. Positions [`NEAR_END_MOVES`] or fewer from the end, the
//!   most visited, keep their results in a small table of their own, which stays in cache.
//! * **The last moves** ([`LAST_MOVES`] or fewer left) are searched by a lean negamax: centre
//!   order, no main table, a small direct-mapped table of its own; there a probe of the big
//!   table costs more than the search it saves.
//! * **Mirror images** share their table entries while [`MIRROR_FROM`] moves or more are left.
//! * **Several threads** ([`Solver::new`]'s `threads`) search a position with [`PARALLEL_FROM`]
//!   moves left or more together: each searches all of it over the one main table, and a
//!   position another thread is searching waits for last (ABDADA), so that the threads split
//!   the work rather than repeat it; the first thread to answer stops the others, and a thread
//!   leaves a search another thread's result has made needless (see `Path`). An `analyze`
//!   searches its columns side by side instead, a column a thread
//!   ([`Solver::children_scores`]).
//! * **7x6**, the size everyone plays, has its threat function with constant shifts.

use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::{Answers, Rules};
use crate::engine::error::Error;
use crate::engine::memory::{HugeBuffer, OutOfMemory};
use crate::engine::pool;
use crate::engine::score::{self, Score};
use crate::engine::window::cells_of;
use crate::games::connect4::book::Books;
use crate::games::connect4::table::{Known, NO_MOVE, SmallTable, Table};
use crate::games::connect4::{Bits, MAX_WIDTH, Position, Shape, engine_score, has_four_of_height};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Positions with this many moves left or fewer are searched by the lean endgame search.
const LAST_MOVES: i32 = 14;
/// A node whose alpha is at most minus this only has to stave off a heavy loss: its moves are
/// ordered for the quickest proof (see `negamax`).
const STAVE_OFF: i32 = 4;
/// The small table serves endgame positions with at least this many moves left.
const SMALL_FROM: i32 = 5;
/// Positions with at least this many moves left share the main table's entry with their mirror
/// image. Transpositions to a mirror image are common early in the game; later, the cost of
/// the mirrored key outweighs the few nodes it saves.
const MIRROR_FROM: i32 = 20;
/// Positions with this many moves left or fewer (and more than [`LAST_MOVES`]) keep their
/// results in a table of their own of [`NEAR_END_BYTES`], apart from those of the positions
/// further from the end: the most visited entries stay in the CPU's cache, and the few costly
/// results higher up are not evicted by them. One thread, builds in turn: Pons' Begin-Hard
/// (first 10, 256 MiB) 9.21 and 9.26 s in one table, 8.08 and 8.11 s so; the empty board with a
/// 1 GiB table 44.7 and 44.6 s against 36.1 and 35.4 s (sizes and depths tried: see the
/// benchmarks page). From 20 moves left rather than 22, fewer positions compete for entries
/// that two threads fill about twice as fast: Pons' Begin-Hard (first 30, 1 GiB) 0.965x the
/// time on two threads (paired median of eight), 1.001x on one; the empty board 649.0 M nodes
/// on one thread against 663.1 M.
const NEAR_END_MOVES: i32 = 20;
/// The size of the table of positions near the end (at most the table size asked for).
const NEAR_END_BYTES: usize = 4 << 20;
/// `pons_score` halves a range of scores at most this wide in the middle, a wider one as Pons
/// does (see there). Nodes, one thread, against Pons' bias throughout: the empty board -8.8%,
/// Pons' Begin-Hard (first 30) -2.2%, Middle-Medium (300) -4.4%, Begin-Medium (300) +0.2%,
/// Begin-Easy the same (quick wins: the middle throughout took 9.6 times its nodes). Of a middle
/// below 0, the test one nearer 0: the empty board (score 1) is then tested at 1 and 0, not at
/// 1, -1 and 0, in 572.8 M nodes against 649.0 M on one thread (8x5 -12.6%, 4x9 -9.8%, 6x6
/// -3.1%), while Pons' sets stay within 2% (Begin-Hard -0.2%, Begin-Medium +0.9%, Middle-Medium
/// +1.7%).
const PLAIN_HALVING_WITHIN: i32 = 10;
/// A search on several threads splits positions with at least this many moves left.
const PARALLEL_FROM: i32 = 28;
/// The nodes a search of such a position first tries on its own thread (a tenth of a
/// millisecond): many need no more once the table holds what earlier searches learnt, and
/// starting the threads costs about as much. While it runs, the other cores wait: Pons'
/// Begin-Hard (first 30, two threads, 1 GiB, 25-29 s) spent 0.36-0.46 s alone from 2^15 nodes,
/// 0.03 s from 2^11 (194 parallel searches instead of 165, each started in 0.1 ms).
const ALONE_NODES: u64 = 1 << 11;
/// A thread of a parallel search looks whether another has answered every this many nodes
/// (one load): every 2^15 nodes, as the budget polls, the threads of Pons' Begin-Hard (first
/// 30) returned 0.07 s in all after the first answer; so, 0.03 s.
const ANSWERED_POLL_EVERY: u64 = 1 << 12;
/// The nodes `analyze` spends on a position's columns on its own thread before it searches them
/// side by side (about a millisecond): a quick analysis starts no threads.
const COLUMNS_ALONE_NODES: u64 = 1 << 15;
/// The threads of a parallel search mark the positions with at least this many moves left
/// that they are searching, and keep them on their [`Path`]. Marking costs two atomic writes a
/// node. Two threads, nodes: Pons' Begin-Hard (first 30) 1,455-1,461 M marking from 28,
/// 1,363-1,460 M from 24 (before threads left needless searches, 24 gained nothing); the
/// empty board 589 M from 24, 706 M from 20.
const SEARCH_BUSY_FROM: i32 = 24;
/// A thread of a parallel search looks whether its path has become needless (see [`Path`])
/// every this many nodes: a few table probes each time.
const NEEDLESS_EVERY: u64 = 1 << 12;
/// A thread of a parallel search leaves a sibling's search under a settled position (see
/// [`Siblings`]) only fewer than this many plies from the root. Two threads, nodes, leaving at
/// every ply: Pons' Begin-Hard (first 30) 1,283-1,364 M within 12, 1,324 and 1,363 M at any
/// depth.
const LEAVE_SIBLINGS_WITHIN: i32 = 12;
/// The threads of `analyze`'s columns side by side mark from this many moves left: a thread
/// that joins a column another is searching is steered off its path further down (from 28,
/// the slowest analyses along student games took 6% longer).
const COLUMNS_BUSY_FROM: i32 = 16;

type Searched = Result<i32, Stop>;

/// Where a position's results live: the table (the main one, or the one of positions near the
/// end), the mixed key of the position or of its mirror image, whichever key is smaller (both
/// have one score, and their best moves mirror each other), and whether it was the mirror's.
#[derive(Clone, Copy)]
struct Slot<B> {
    mixed: B,
    mirrored: bool,
    near_end: bool,
}

/// The tables of one board size, kept between searches (entries are exact facts about
/// positions of that size, true for every later search).
pub struct Tables<B: Bits = u64> {
    width: u32,
    height: u32,
    shared: Shared<B>,
    small: SmallTable<B>,
}

/// The tables the threads of one search share: the main one, and the one of the positions
/// [`NEAR_END_MOVES`] or fewer from the end.
struct Shared<B: Bits> {
    main: B::Main,
    near_end: B::Main,
}

impl<B: Bits> Shared<B> {
    fn new_search(&mut self) {
        self.main.new_search();
        self.near_end.new_search();
    }

    fn clear(&mut self) {
        self.main.clear();
        self.near_end.clear();
    }
}

impl<B: Bits> Tables<B> {
    pub fn new(shape: &Shape<B>, bytes: usize) -> Result<Tables<B>, OutOfMemory> {
        let key_bits = shape.width * shape.stride;
        Ok(Tables {
            width: shape.width,
            height: shape.height,
            shared: Shared {
                main: B::Main::new(key_bits, bytes)?,
                near_end: B::Main::new(key_bits, NEAR_END_BYTES.min(bytes))?,
            },
            small: SmallTable::new()?,
        })
    }

    pub fn fits(&self, shape: &Shape<B>, bytes: usize) -> bool {
        (self.width, self.height) == (shape.width, shape.height)
            && self.shared.main.bytes() == B::Main::size_for(shape.width * shape.stride, bytes)
    }

    /// Forgets everything: the next search starts from empty tables.
    pub fn clear(&mut self) {
        self.shared.clear();
        self.small.clear();
    }
}

/// Default table size for a board: 64 MiB from 7x6 up, less for small boards.
pub fn default_table_bytes<B: Bits>(shape: &Shape<B>) -> usize {
    super::table::BUCKET_BYTES << (shape.cells / 2).clamp(13, 21)
}

/// What the threads of one parallel search mark: the positions some thread is searching now,
/// by their mixed keys, so that the others search something else first (ABDADA: a position
/// being searched is left for last, when its result is likely in the table). A lost mark or a
/// stale one costs time, never a wrong answer. A mark takes its slot whatever held it, so a long
/// search's mark is soon lost to those of positions below it; marks that kept their slot took
/// as many nodes (two threads, Pons' Begin-Hard: see the benchmarks page).
struct Busy {
    marks: HugeBuffer<AtomicU64>,
    /// The fewest moves left a marked position has.
    from: i32,
}

impl Busy {
    const BITS: u32 = 14;

    fn new(from: i32) -> Result<Busy, OutOfMemory> {
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
    fn mark<B: Bits>(&self, slot: Slot<B>) {
        let (mark, value) = self.mark_of(slot.mixed);
        mark.store(value, Relaxed);
    }

    #[inline(always)]
    fn unmark<B: Bits>(&self, slot: Slot<B>) {
        let (mark, value) = self.mark_of(slot.mixed);
        let _ = mark.compare_exchange(value, 0, Relaxed, Relaxed);
    }

    #[inline(always)]
    fn is_marked<B: Bits>(&self, slot: Slot<B>) -> bool {
        let (mark, value) = self.mark_of(slot.mixed);
        mark.load(Relaxed) == value
    }
}

/// The positions a thread of a parallel search is inside (from [`SEARCH_BUSY_FROM`] moves
/// left), with their windows, so that it can leave a search another thread's result has made
/// needless: a position the table now settles for its window, either because every move of it
/// failed (the other thread searched them all) or because its best move cut off and this
/// thread is inside that same move, or, where [`Siblings`] says so, any other move.
struct Path<B> {
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
enum Siblings {
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
    /// are left. Two threads, nodes: the empty board (tested at 1, -1 and 0) 580-1,167 M
    /// staying (two ways: unless the second thread's siblings in the test at 1 are what the
    /// test at 0 needs, it costs more than one thread's 663 M), 729-742 M leaving everywhere,
    /// mostly 569-607 M so (not always: 725-1,108 M in three runs of nine of a later day);
    /// Pons' Begin-Hard (first 30) 1,388-1,445 M, 1,317-1,377 M and 1,372-1,434 M (leaving
    /// where the score, told in advance, keeps the cutoff: 1,346 M).
    fn for_test(test: i32, min: i32, max: i32) -> Siblings {
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
struct Frame<B> {
    position: Position<B>,
    slot: Slot<B>,
    alpha: i32,
    beta: i32,
}

impl<B> Path<B> {
    fn new(siblings: Siblings) -> Path<B> {
        Path {
            frames: Vec::with_capacity(64),
            next_look: 0,
            leave_to: None,
            siblings,
        }
    }
}

pub struct Solver<'a, 'b, B: Bits = u64> {
    shape: &'a Shape<B>,
    shared: &'a Shared<B>,
    small: &'a mut SmallTable<B>,
    budget: &'a mut Budget<'b>,
    books: Books<'a>,
    /// Threads a search of a position with [`PARALLEL_FROM`] moves left or more runs on.
    threads: usize,
    /// The marks shared by the threads of the parallel search this solver is one thread of.
    busy: Option<&'a Busy>,
    /// This thread's path in a parallel search (not in `analyze`'s columns side by side).
    path: Option<&'a mut Path<B>>,
    /// Columns, centre first, and their cells.
    columns: [B; MAX_WIDTH],
    column_numbers: [u32; MAX_WIDTH],
    width: usize,
    cells: i32,
    seven_by_six: bool,
}

impl<'a, 'b, B: Bits> Solver<'a, 'b, B> {
    /// A solver that searches on `threads` threads the positions worth it.
    pub fn new(
        shape: &'a Shape<B>,
        tables: &'a mut Tables<B>,
        budget: &'a mut Budget<'b>,
        books: Books<'a>,
        threads: usize,
    ) -> Self {
        tables.shared.new_search();
        let mut solver = Self::one_thread(shape, &tables.shared, &mut tables.small, budget, books);
        solver.threads = threads.max(1);
        solver
    }

    /// A solver on this thread alone, with tables it is given.
    fn one_thread(
        shape: &'a Shape<B>,
        shared: &'a Shared<B>,
        small: &'a mut SmallTable<B>,
        budget: &'a mut Budget<'b>,
        books: Books<'a>,
    ) -> Self {
        let width = shape.width as usize;
        // On the stack: a short search's solver is made at every call.
        let (mut columns, mut column_numbers) = ([B::ZERO; MAX_WIDTH], [0u32; MAX_WIDTH]);
        for (slot, col) in (0..width).map(|slot| centre_out(width, slot)).enumerate() {
            columns[slot] = shape.column(col);
            column_numbers[slot] = col;
        }
        Solver {
            shape,
            shared,
            small,
            budget,
            books,
            threads: 1,
            busy: None,
            path: None,
            columns,
            column_numbers,
            width,
            cells: shape.cells as i32,
            seven_by_six: B::BITS == 64 && (shape.width, shape.height) == (7, 6),
        }
    }

    /// The slot of `p`.
    #[inline(always)]
    fn slot(&self, p: &Position<B>) -> Slot<B> {
        let key = p.key(self.shape);
        let left = self.cells - p.moves as i32;
        let near_end = left <= NEAR_END_MOVES;
        if left < MIRROR_FROM {
            return Slot {
                mixed: self.shared.main.mix(key),
                mirrored: false,
                near_end,
            };
        }
        let mirror = if self.seven_by_six {
            B::from_u64(seven_by_six_mirrored(key.low_u64()))
        } else {
            self.shape.mirrored_key(key)
        };
        let mirrored = mirror < key;
        Slot {
            mixed: self.shared.main.mix(if mirrored { mirror } else { key }),
            mirrored,
            near_end,
        }
    }

    /// The table that keeps the results of `slot`'s position.
    #[inline(always)]
    fn table(&self, slot: Slot<B>) -> &'a B::Main {
        if slot.near_end {
            &self.shared.near_end
        } else {
            &self.shared.main
        }
    }

    /// A column as stored in `slot` (mirrored or not), or back.
    #[inline(always)]
    fn column_in(&self, slot: Slot<B>, column: u32) -> u32 {
        if slot.mirrored && column != NO_MOVE {
            self.width as u32 - 1 - column
        } else {
            column
        }
    }

    /// Empty cells that complete four for `stones`.
    #[inline(always)]
    fn winning_cells(&self, stones: B, mask: B) -> B {
        if self.seven_by_six {
            B::from_u64(seven_by_six_winning_cells(stones.low_u64(), mask.low_u64()))
        } else {
            self.shape.winning_cells(stones, mask)
        }
    }

    /// Whether `stones` hold four in a row.
    #[inline(always)]
    fn has_four(&self, stones: B) -> bool {
        if self.seven_by_six {
            has_four_of_height(stones, 6)
        } else {
            self.shape.has_four(stones)
        }
    }

    /// The moves (landing cells) that do not lose at once, given the opponent's winning cells;
    /// the side to move cannot win at once.
    #[inline(always)]
    fn non_losing(&self, p: &Position<B>, theirs: B) -> B {
        let mut possible = p.landing(self.shape);
        let forced = possible & theirs;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO; // two threats: only one can be blocked
            }
            possible = forced;
        }
        possible & !(theirs >> 1)
    }

    /// Claimeven (Allis), with the columns of an odd number of empty cells paired: while their
    /// count is even, the opponent answers a stone in an even column on top of it, and a stone
    /// in an odd column in another odd column, so that the side to move ends with at most the
    /// landing cells of the odd columns and, above them and in the even columns, the empty
    /// cells with an even number of cells from them to the top (themselves included). If
    /// those and its stones hold no four, it cannot win (at best 0); if the opponent's other
    /// cells then hold four, it loses (at best -1, the last stone). Otherwise nothing is known
    /// (`i32::MAX`).
    #[inline(always)]
    fn claimeven_most(&self, p: &Position<B>) -> i32 {
        let shape = self.shape;
        let odd = (p.mask + shape.bottom) & !shape.top_parity;
        if odd.count_ones() % 2 != 0 {
            return i32::MAX;
        }
        let empty = shape.board & !p.mask;
        let ours = empty & (shape.top_parity | odd);
        if self.has_four(p.current | ours) {
            return i32::MAX;
        }
        if self.has_four(p.opponent() | (empty & !ours)) {
            -1
        } else {
            0
        }
    }

    /// What every node does first: the moves that do not lose at once (with the opponent's
    /// winning cells, which the move order reads too), the window narrowed by the bounds of the
    /// rules; `Err(score)` when the rules settle the node (no such move, a full board, a closed
    /// window).
    #[inline(always)]
    fn settle(&self, p: &Position<B>, alpha: &mut i32, beta: &mut i32) -> Result<(B, B), i32> {
        let moves = p.moves as i32;
        let theirs = self.winning_cells(p.opponent(), p.mask);
        let possible = self.non_losing(p, theirs);
        if possible == B::ZERO {
            return Err(-(self.cells - moves) / 2);
        }
        if moves >= self.cells - 2 {
            return Err(0);
        }
        // The opponent cannot win with its next stone: at best with its second.
        let least = -(self.cells - 2 - moves) / 2;
        if *alpha < least {
            *alpha = least;
            if *alpha >= *beta {
                return Err(*alpha);
            }
        }
        // We cannot win with this stone: at best with our next.
        let mut most = (self.cells - 1 - moves) / 2;
        if *beta >= 0 {
            most = most.min(self.claimeven_most(p));
        }
        if *beta > most {
            *beta = most;
            if *alpha >= *beta {
                return Err(*beta);
            }
        }
        Ok((possible, theirs))
    }

    /// The score of a position near the end, fail-soft in (alpha, beta).
    fn endgame(&mut self, p: &Position<B>, mut alpha: i32, mut beta: i32) -> Searched {
        self.budget.visit()?;
        let possible = match self.settle(p, &mut alpha, &mut beta) {
            Ok((possible, _)) => possible,
            Err(score) => return Ok(score),
        };
        // One move: played through, as in the main search.
        if possible & (possible - B::ONE) == B::ZERO {
            return Ok(-self.endgame(&p.play_cell(possible), -beta, -alpha)?);
        }
        let moves = p.moves as i32;
        let small = self.cells - moves >= SMALL_FROM;
        let key = p.key(self.shape);
        let (mut lower, mut upper) = (-31, 31);
        if small && let Some(known) = self.small.get(key) {
            (lower, upper) = known;
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            if alpha >= beta {
                return Ok(alpha);
            }
        }
        let first_alpha = alpha;
        let mut best = i32::MIN;
        for slot in 0..self.width {
            let cell = possible & self.columns[slot];
            if cell == B::ZERO {
                continue;
            }
            let score = -self.endgame(&p.play_cell(cell), -beta, -alpha)?;
            if score > best {
                best = score;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        if small {
            (lower, upper) = narrowed(lower, upper, best, first_alpha, beta);
            self.small.put(key, lower, upper);
        }
        Ok(best)
    }

    /// Searches a child: near the end by the lean search, else by the main one.
    #[inline(always)]
    fn child(&mut self, child: &Position<B>, slot: Slot<B>, alpha: i32, beta: i32) -> Searched {
        if let Some(score) = self.books.score(self.shape, child) {
            return Ok(score);
        }
        if self.cells - child.moves as i32 <= LAST_MOVES {
            self.endgame(child, alpha, beta)
        } else {
            self.negamax(child, slot, alpha, beta)
        }
    }

    /// The score of `p` (whose table slot is `slot`), fail-soft in (alpha, beta); in a parallel
    /// search, on this thread's path.
    fn negamax(&mut self, p: &Position<B>, slot: Slot<B>, alpha: i32, beta: i32) -> Searched {
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
    fn leave_if_needless(&mut self, slot: Slot<B>) -> Result<(), Stop> {
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
    fn is_best_move(&self, frame: &Frame<B>, best: u32, next: Slot<B>) -> bool {
        let column = self.column_in(frame.slot, best);
        if column == NO_MOVE {
            return false;
        }
        // The column was legal where it was stored: the same position.
        let child = self.shape.play(&frame.position, column as u8);
        self.slot(&child).mixed == next.mixed
    }

    /// [`Solver::negamax`] at one position.
    fn node(&mut self, p: &Position<B>, slot: Slot<B>, mut alpha: i32, mut beta: i32) -> Searched {
        self.budget.visit()?;
        let (possible, theirs) = match self.settle(p, &mut alpha, &mut beta) {
            Ok(settled) => settled,
            Err(score) => return Ok(score),
        };
        // One move (a forced block, or the only one that does not lose): its child's entry
        // answers for it, so it is neither ordered nor stored.
        if possible & (possible - B::ONE) == B::ZERO {
            let child = p.play_cell(possible);
            return Ok(-self.child(&child, self.slot(&child), -beta, -alpha)?);
        }
        let moves = p.moves as i32;
        let (mut lower, mut upper, mut first) = (-31, 31, NO_MOVE);
        // The table has only refuted this position so far (no lower bound): likely every move
        // is searched again (see the table's move below).
        let mut only_refuted = false;
        if let Some(known) = self.table(slot).get(slot.mixed) {
            only_refuted = known.lower <= -31;
            (lower, upper) = (known.lower, known.upper);
            first = self.column_in(slot, known.best);
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            if alpha >= beta {
                return Ok(alpha);
            }
        }
        if let Some(bound) = self.books.parents_bound(self.shape, p) {
            lower = lower.max(bound);
            alpha = alpha.max(bound);
            if alpha >= beta {
                return Ok(alpha);
            }
        }
        let first_alpha = alpha;
        let visited = self.budget.nodes();
        // In a parallel search: this position is being searched (see `Busy`).
        let busy = self.busy.filter(|busy| self.cells - moves >= busy.from);
        if let Some(busy) = busy {
            busy.mark(slot);
        }
        // Children another thread is searching wait for a second pass (see `Busy`).
        let defer = self.busy.filter(|busy| self.cells - moves > busy.from);
        let (mut best, mut best_move) = (i32::MIN, NO_MOVE);
        let mut tried = B::ZERO;
        let shape = self.shape;
        // The table's best move first, alone: when it cuts off, nothing else is ordered. In a
        // parallel search every thread searches it (ABDADA's eldest son, the likely cutoff),
        // unless the position has only been refuted so far and another thread is on that move:
        // then it waits with the others, as every move is likely searched, and following the
        // other thread would take both down one path of table moves to where no marks part
        // them (the empty board, two threads: 785 M nodes -> 600 M; one thread 663 M).
        let cell = if first == NO_MOVE {
            B::ZERO
        } else {
            possible & shape.column(first)
        };
        if cell != B::ZERO {
            let child = p.play_cell(cell);
            let child_slot = self.slot(&child);
            if !(only_refuted && defer.is_some_and(|defer| defer.is_marked(child_slot))) {
                tried = cell;
                let score = -self.child(&child, child_slot, -beta, -alpha)?;
                (best, best_move) = (score, first);
                alpha = alpha.max(score);
            }
        }
        if best < beta {
            let leaves = self.cells - moves - 1 <= LAST_MOVES;
            let none = Slot {
                mixed: B::ZERO,
                mirrored: false,
                near_end: true,
            };
            // A threat right above one of the opponent's is of no use: the cell below it is
            // never played, as whoever fills it lets the other win.
            let useful = !(theirs << 1);
            // A node that only has to stave off a heavy loss wants the cheapest proof, which
            // threats the opponent must answer give (Pons' Begin-Easy: quick wins); one fighting
            // over a close score wants the strongest move.
            let cheapest = alpha <= -STAVE_OFF;
            let mut ordered = [(B::ZERO, 0u32, 0u32, none); MAX_WIDTH];
            let mut count = 0;
            for slot in 0..self.width {
                let cell = possible & !tried & self.columns[slot];
                if cell == B::ZERO {
                    continue;
                }
                let child = p.play_cell(cell);
                let child_slot = if leaves {
                    none
                } else {
                    let child_slot = self.slot(&child);
                    self.table(child_slot).prefetch(child_slot.mixed);
                    child_slot
                };
                // Useful threats made. Staving off: their number, those the opponent must
                // answer at once breaking ties. Else weighed by how soon they bite (after
                // Steininger): one right above a landing cell, which closes its column to the
                // opponent, most; one the opponent must answer at once next.
                let after = child.mask;
                let threats = self.winning_cells(p.current | cell, after) & useful;
                let landing = (after + shape.bottom) & shape.board;
                let rank = if cheapest {
                    4 * threats.count_ones() + (threats & landing).count_ones()
                } else {
                    threats.count_ones()
                        + 3 * (threats & (landing << 1)).count_ones()
                        + 2 * (threats & landing).count_ones()
                };
                let mut at = count;
                while at > 0 && ordered[at - 1].1 < rank {
                    ordered[at] = ordered[at - 1];
                    at -= 1;
                }
                ordered[at] = (cell, rank, self.column_numbers[slot], child_slot);
                count += 1;
            }
            if !leaves {
                for &(_, _, _, child_slot) in &ordered[..count] {
                    if let Some(known) = self.table(child_slot).get(child_slot.mixed)
                        && -known.upper >= beta
                    {
                        if let Some(busy) = busy {
                            busy.unmark(slot);
                        }
                        return Ok(-known.upper);
                    }
                }
            }
            let (mut waiting, mut deferred, mut next, mut second) = ([0; MAX_WIDTH], 0, 0, 0);
            loop {
                let index = if next < count {
                    next += 1;
                    next - 1
                } else if second < deferred {
                    second += 1;
                    waiting[second - 1]
                } else {
                    break;
                };
                let (cell, _, column, child_slot) = ordered[index];
                if second == 0
                    && let Some(defer) = defer
                    && defer.is_marked(child_slot)
                {
                    waiting[deferred] = index;
                    deferred += 1;
                    continue;
                }
                let score = -self.child(&p.play_cell(cell), child_slot, -beta, -alpha)?;
                if score > best {
                    (best, best_move) = (score, column);
                    if score >= beta {
                        break;
                    }
                    alpha = alpha.max(score);
                }
            }
        }
        (lower, upper) = narrowed(lower, upper, best, first_alpha, beta);
        let work = 64 - (self.budget.nodes() - visited).leading_zeros();
        let known = Known {
            lower,
            upper,
            best: self.column_in(slot, best_move),
        };
        self.table(slot).put(slot.mixed, known, work / 2);
        if let Some(busy) = busy {
            busy.unmark(slot);
        }
        Ok(best)
    }

    /// The score of a position where the side to move cannot win at once, fail-soft in
    /// (alpha, beta).
    fn search(&mut self, p: &Position<B>, alpha: i32, beta: i32, siblings: Siblings) -> Searched {
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
    fn alone(&mut self, p: &Position<B>, slot: Slot<B>, alpha: i32, beta: i32) -> Option<Searched> {
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
    fn parallel(
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
    fn rest_alone(
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

    /// Pons' score of a position of a game still going on: exact, or with `weak` only its sign
    /// (as his solver's `-w`: a win at once keeps its exact score).
    pub fn pons_score(&mut self, p: &Position<B>, weak: bool) -> Searched {
        let moves = p.moves as i32;
        if p.wins_somewhere(self.shape) {
            return Ok((self.cells + 1 - moves) / 2);
        }
        let (mut min, mut max) = (-(self.cells - moves) / 2, (self.cells + 1 - moves) / 2);
        if weak {
            (min, max) = (-1, 1);
        }
        // A position the table has settled (an earlier call's) needs no bound from the book
        // (up to seven lookups) and no search.
        let slot = self.slot(p);
        if let Some(known) = self.table(slot).get(slot.mixed)
            && known.lower == known.upper
        {
            return Ok(if weak {
                known.lower.signum()
            } else {
                known.lower
            });
        }
        // One stone past the 12-ply book, a bound that is often the score: tested first.
        let mut bound = self.books.parents_bound(self.shape, p);
        if let Some(bound) = bound {
            min = min.max(bound);
        }
        while min < max {
            // Halving. While the range is wide, Pons' bias: with 0 in it, the test goes halfway
            // from 0 to the farther end, where a quick win or loss is cheap to prove. Once it is
            // narrow, the score is close and every test costs: the middle takes the fewest, and
            // below 0 the test one nearer 0 (see `PLAIN_HALVING_WITHIN`).
            let mut test = min + (max - min) / 2;
            if max - min > PLAIN_HALVING_WITHIN {
                if test <= 0 && min / 2 < test {
                    test = min / 2;
                } else if test >= 0 && max / 2 > test {
                    test = max / 2;
                }
            } else if test < 0 && test + 1 < max {
                test += 1;
            }
            if bound.take().is_some() {
                test = min;
            }
            let siblings = Siblings::for_test(test, min, max);
            let found = self.search(p, test, test + 1, siblings)?;
            if found <= test {
                max = found;
            } else {
                min = found;
            }
        }
        // A weak search may prove more than the sign (fail-soft bounds); the sign is the answer,
        // the same whatever the search happened to prove.
        Ok(if weak { min.signum() } else { min })
    }

    /// Pons' score, fail-soft in (alpha, beta), of a game still going on.
    fn pons_window(&mut self, p: &Position<B>, alpha: i32, beta: i32) -> Searched {
        if p.wins_somewhere(self.shape) {
            return Ok((self.cells + 1 - p.moves as i32) / 2);
        }
        self.search(p, alpha, beta, Siblings::Kept)
    }
}

/// The column searched `slot`-th on a board `width` columns wide: the centre first, then
/// outwards, the left of two central columns first (3, 2, 4, 1, 5, 0, 6 on 7 columns; 2, 3, 1,
/// 4, 0, 5 on 6).
#[inline]
fn centre_out(width: usize, slot: usize) -> u32 {
    let (centre, step) = ((width as i32 - 1) / 2, (slot as i32 + 1) / 2);
    // Odd widths step left first, even ones right (their centre is the left of two).
    let left_first = width % 2 == 1;
    let col = if (slot % 2 == 1) == left_first {
        centre - step
    } else {
        centre + step
    };
    col as u32
}

/// The bounds a search's result adds to known ones (fail-soft, searched with the window
/// (first_alpha, beta)).
#[inline(always)]
fn narrowed(lower: i32, upper: i32, best: i32, first_alpha: i32, beta: i32) -> (i32, i32) {
    if best <= first_alpha {
        (lower, upper.min(best))
    } else if best >= beta {
        (lower.max(best), upper)
    } else {
        (best, best)
    }
}

impl<B: Bits> Position<B> {
    /// Can the side to move complete four with its next stone?
    #[inline]
    pub fn wins_somewhere(&self, shape: &Shape<B>) -> bool {
        shape.winning_cells(self.current, self.mask) & self.landing(shape) != B::ZERO
    }
}

/// The threat function of 7x6 with constant shifts.
#[inline(always)]
fn seven_by_six_winning_cells(stones: u64, mask: u64) -> u64 {
    const H: u32 = 6;
    const BOARD: u64 = 0xfdfb_f7ef_dfbf;
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    macro_rules! direction {
        ($shift:expr) => {{
            let pair = (stones << $shift) & (stones << (2 * $shift));
            cells |= pair & (stones << (3 * $shift));
            cells |= pair & (stones >> $shift);
            let pair = (stones >> $shift) & (stones >> (2 * $shift));
            cells |= pair & (stones << $shift);
            cells |= pair & (stones >> (3 * $shift));
        }};
    }
    direction!(H + 1);
    direction!(H);
    direction!(H + 2);
    cells & (BOARD ^ mask)
}

/// The key of the mirror image of a 7x6 position's key: its seven columns of seven bits in
/// reverse order.
#[inline(always)]
fn seven_by_six_mirrored(key: u64) -> u64 {
    const COLUMN: u64 = 0x7f;
    (key & COLUMN) << 42
        | (key & COLUMN << 7) << 28
        | (key & COLUMN << 14) << 14
        | (key & COLUMN << 21)
        | (key >> 14) & COLUMN << 14
        | (key >> 28) & COLUMN << 7
        | (key >> 42) & COLUMN
}

/// `score.rs`'s score of any position: over (the last mover made four, or the board is full)
/// or not.
fn exact_of<B: Bits>(solver: &mut Solver<B>, p: &Position<B>) -> Result<Score, Stop> {
    let shape = solver.shape;
    if p.is_won(shape) {
        return Ok(score::loss(shape.cells - p.moves));
    }
    if p.moves == shape.cells {
        return Ok(score::DRAW);
    }
    Ok(engine_score(
        solver.pons_score(p, false)?,
        p.moves,
        shape.cells,
    ))
}

/// The score as the driver asks for it.
impl<B: Bits> Answers<Shape<B>> for Solver<'_, '_, B> {
    fn exact(&mut self, _: &Shape<B>, p: &Position<B>) -> Result<Score, Stop> {
        exact_of(self, p)
    }

    fn window(
        &mut self,
        _: &Shape<B>,
        p: &Position<B>,
        alpha: Score,
        beta: Score,
    ) -> Result<Score, Stop> {
        let shape = self.shape;
        if p.is_won(shape) || p.moves == shape.cells {
            return exact_of(self, p);
        }
        // Pons' scores map onto score.rs's monotonically: the window (alpha, beta) is the one
        // between the Pons scores whose own scores are the last at or below alpha and the
        // first at or above beta.
        let (moves, cells) = (p.moves, shape.cells);
        let top = cells as i32 / 2 + 2;
        let low = (-top..=top)
            .rev()
            .find(|&pons| engine_score(pons, moves, cells) <= alpha)
            .unwrap_or(-top);
        let high = (-top..=top)
            .find(|&pons| engine_score(pons, moves, cells) >= beta)
            .unwrap_or(top);
        let found = self.pons_window(p, low, high)?;
        Ok(engine_score(found, moves, cells))
    }

    fn nodes(&self) -> u64 {
        self.budget.nodes()
    }
}

/// Runs `work` with this thread's tables for `shape` of `bytes` (kept for the thread's next
/// search on the same size: entries stay true), made when there are none that fit.
pub fn with_kept_tables<B: Bits, T>(
    shape: &Shape<B>,
    bytes: usize,
    work: impl FnOnce(&mut Tables<B>) -> Result<T, Error>,
) -> Result<T, Error> {
    let kept = B::kept()
        .with(|kept| kept.borrow_mut().take())
        .filter(|tables| tables.fits(shape, bytes));
    let mut tables = match kept {
        Some(tables) => tables,
        None => Tables::new(shape, bytes)?,
    };
    let result = work(&mut tables);
    B::kept().with(|kept| *kept.borrow_mut() = Some(tables));
    result
}

/// Forgets what this thread's searches learnt (its kept tables start empty).
pub fn clear_kept_tables() {
    fn clear<B: Bits>() {
        B::kept().with(|kept| {
            if let Some(tables) = kept.borrow_mut().as_mut() {
                tables.clear();
            }
        });
    }
    clear::<u64>();
    clear::<u128>();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::unlimited;
    use crate::games::connect4::plain::plain_score;
    use crate::games::connect4::{columns_of_text, play_columns, pons_score as pons_of};

    #[test]
    fn columns_go_from_the_centre_out_on_every_width() {
        for width in 1..=MAX_WIDTH {
            // Nearest the centre first, the left of two equally near first.
            let mut order: Vec<u32> = (0..width as u32).collect();
            order.sort_by_key(|&col| ((2 * col as i32 - (width as i32 - 1)).abs(), col));
            let found: Vec<u32> = (0..width).map(|slot| centre_out(width, slot)).collect();
            assert_eq!(found, order, "width {width}");
        }
    }

    fn pons(shape: &Shape, text: &str) -> i32 {
        let position = play_columns(shape, &columns_of_text(text).unwrap(), false, 1).unwrap();
        let mut tables = Tables::new(shape, 1 << 20).unwrap();
        unlimited(|budget| {
            Solver::new(shape, &mut tables, budget, Books::default(), 1)
                .pons_score(&position, false)
        })
        .unwrap()
    }

    #[test]
    fn pons_examples() {
        let shape = Shape::<u64>::new(7, 6).unwrap();
        // From Pons' test protocol (end of game positions).
        assert_eq!(pons(&shape, "2252576253462244111563365343671351441"), -1);
        assert_eq!(pons(&shape, "7422341735647741166133573473242566"), 1);
        assert_eq!(pons(&shape, "23163416124767223154467471272416755633"), 0);
    }

    #[test]
    fn mirrored_keys_are_the_mirror_images_keys() {
        let shape = Shape::<u64>::new(7, 6).unwrap();
        let mirror = |text: &str| -> String {
            text.bytes()
                .map(|c| char::from(b'8' - (c - b'0')))
                .collect()
        };
        for text in [
            "",
            "4",
            "1",
            "12",
            "4453",
            "7422341735647741166133573473242566",
        ] {
            let position = play_columns(&shape, &columns_of_text(text).unwrap(), false, 1).unwrap();
            let image =
                play_columns(&shape, &columns_of_text(&mirror(text)).unwrap(), false, 1).unwrap();
            let key = position.key(&shape);
            assert_eq!(shape.mirrored_key(key), image.key(&shape), "{text}");
            assert_eq!(seven_by_six_mirrored(key), image.key(&shape), "{text}");
        }
        // A position searched after its mirror image answers from the image's entries: the
        // same score, for a fraction of the nodes.
        for text in ["376542237277673334", "253453567416354"] {
            let mut tables = Tables::new(&shape, 1 << 20).unwrap();
            let mut searched = Vec::new();
            for text in [text.to_string(), mirror(text)] {
                let position = play_columns(&shape, &columns_of_text(&text).unwrap(), false, 1);
                let position = position.unwrap();
                searched.push(unlimited(|budget| {
                    let mut solver = Solver::new(&shape, &mut tables, budget, Books::default(), 1);
                    let score = solver.pons_score(&position, false);
                    (score, budget.nodes())
                }));
            }
            let [(first, first_nodes), (image, image_nodes)] = searched[..] else {
                unreachable!()
            };
            assert_eq!((first, image), (Ok(pons(&shape, text)), first), "{text}");
            assert!(
                image_nodes * 10 < first_nodes,
                "{text}: {image_nodes} {first_nodes}"
            );
        }
    }

    /// A random game of `fewest` to `fewest + span - 1` stones (fewer when a four would end
    /// it), drawn from `seed`, which it moves on.
    fn random_game<B: Bits>(
        shape: &Shape<B>,
        seed: &mut u64,
        fewest: u64,
        span: u64,
    ) -> Position<B> {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let mut position = Position::EMPTY;
        for step in 0..fewest + *seed % span {
            let columns: Vec<u32> = (0..shape.width)
                .filter(|&c| position.can_play(shape, c))
                .collect();
            let col = columns[((*seed >> (step % 50)) as usize) % columns.len()];
            let next = position.play_cell(position.landing(shape) & shape.column(col));
            if next.is_won(shape) {
                break;
            }
            position = next;
        }
        position
    }

    #[test]
    fn claimeven_bounds_hold_against_the_plain_search() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut bounded, mut with_odd_columns) = (0, 0);
        for (width, height, fewest) in [
            (4, 4, 4),
            (5, 4, 6),
            (4, 5, 6),
            (3, 5, 3),
            (6, 4, 10),
            (7, 6, 30),
        ] {
            let shape = Shape::<u64>::new(width, height).unwrap();
            for _ in 0..400 {
                let span = u64::from(shape.cells) - fewest;
                let position = random_game(&shape, &mut seed, fewest, span);
                if position.moves == shape.cells {
                    continue;
                }
                let mut tables = Tables::new(&shape, 1 << 16).unwrap();
                let most = unlimited(|budget| {
                    Solver::new(&shape, &mut tables, budget, Books::default(), 1)
                        .claimeven_most(&position)
                });
                if most == i32::MAX {
                    continue;
                }
                bounded += 1;
                if (position.mask + shape.bottom) & !shape.top_parity != 0 {
                    with_odd_columns += 1;
                }
                let score = pons_of(plain_score(&shape, &position));
                assert!(
                    score <= most,
                    "{width}x{height} {position:?}: {score} > {most}"
                );
            }
        }
        // The bound must have been put to the test, odd columns paired included.
        assert!(
            bounded > 300 && with_odd_columns > 100,
            "{bounded} {with_odd_columns}"
        );
    }

    /// A game of up to `stones` random moves that complete no four (it stops where every move
    /// would): positions deep into large boards, which random play seldom reaches.
    fn quiet_game<B: Bits>(shape: &Shape<B>, seed: &mut u64, stones: u64) -> Position<B> {
        let mut position = Position::EMPTY;
        while u64::from(position.moves) < stones {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            let quiet: Vec<Position<B>> = (0..shape.width)
                .filter(|&c| position.can_play(shape, c))
                .map(|c| position.play_cell(position.landing(shape) & shape.column(c)))
                .filter(|next| !next.is_won(shape))
                .collect();
            if quiet.is_empty() {
                break;
            }
            position = quiet[(*seed % quiet.len() as u64) as usize];
        }
        position
    }

    /// The solver's exact score of `position` on `threads` threads, from fresh tables.
    fn solved<B: Bits>(shape: &Shape<B>, position: &Position<B>, threads: usize) -> Score {
        let mut tables = Tables::new(shape, 1 << 22).unwrap();
        unlimited(|budget| {
            exact_of(
                &mut Solver::new(shape, &mut tables, budget, Books::default(), threads),
                position,
            )
        })
        .unwrap()
    }

    /// Random positions of `width` x `height` with at least `fewest` stones and at most
    /// `most_left` cells left, each scored by the solver and by the plain search.
    fn agrees_on<B: Bits>(width: i128, height: i128, fewest: u64, most_left: u64, count: usize) {
        let shape = Shape::<B>::new(width, height).unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1du64 ^ (width * 16 + height) as u64;
        let mut checked = 0;
        while checked < count {
            let span = u64::from(shape.cells) - fewest;
            let stones = fewest + seed % span;
            let position = quiet_game(&shape, &mut seed, stones);
            if u64::from(shape.cells - position.moves) > most_left {
                continue;
            }
            checked += 1;
            let plain = plain_score(&shape, &position);
            assert_eq!(
                solved(&shape, &position, 1),
                plain,
                "{width}x{height} {position:?}"
            );
        }
    }

    #[test]
    fn agrees_with_the_plain_search_on_boards_past_64_bits() {
        // 13x4 and 8x8 just past 64 bits, 16x7 at the edge (128 bits), with 14 cells or
        // fewer left (the plain search's reach); and 128-bit boards of small sizes.
        agrees_on::<u128>(13, 4, 38, 12, 40);
        agrees_on::<u128>(8, 8, 52, 12, 40);
        agrees_on::<u128>(16, 7, 102, 10, 20);
        for (width, height) in [(4, 4), (5, 4), (4, 5)] {
            agrees_on::<u128>(width, height, 6, 99, 60);
        }
    }

    #[test]
    fn both_integers_score_alike_on_several_threads() {
        // The parallel search (from 28 cells left) over the 128-bit table's seqlocked buckets
        // against the 64-bit one, on a board both integers hold.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let narrow = Shape::<u64>::new(8, 4).unwrap();
        let wide = Shape::<u128>::new(8, 4).unwrap();
        for _ in 0..12 {
            let position: Position<u64> = random_game(&narrow, &mut seed, 2, 3);
            let widened = Position {
                current: u128::from(position.current),
                mask: u128::from(position.mask),
                moves: position.moves,
            };
            assert_eq!(
                solved(&wide, &widened, 2),
                solved(&narrow, &position, 1),
                "{position:?}"
            );
        }
    }

    #[test]
    fn agrees_with_the_plain_search_on_small_boards() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for (width, height) in [(4, 4), (5, 4), (4, 5), (3, 5), (6, 3)] {
            let shape = Shape::<u64>::new(width, height).unwrap();
            for _ in 0..150 {
                // At least 6 stones: the plain search of a nearly empty 5x4 takes seconds.
                let span = u64::from(shape.cells) - 5;
                let position = random_game(&shape, &mut seed, 6, span);
                let mut tables = Tables::new(&shape, 1 << 16).unwrap();
                let fast = unlimited(|budget| {
                    exact_of(
                        &mut Solver::new(&shape, &mut tables, budget, Books::default(), 1),
                        &position,
                    )
                })
                .unwrap();
                assert_eq!(
                    fast,
                    plain_score(&shape, &position),
                    "{width}x{height} {position:?}"
                );
                assert_eq!(pons_of(fast), pons_of(plain_score(&shape, &position)));
            }
        }
    }
}
