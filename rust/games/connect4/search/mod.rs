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
//! * **Move ordering** (`order.rs`): the table's best move first, on its own (when it cuts off,
//!   nothing else is ordered); then by the useful threats each move makes (cells where a stone
//!   would complete four, not right above one of the opponent's), weighed by how soon they
//!   bite (right above a landing cell most, playable at once next), or, in a node that only
//!   has to stave off a heavy loss, by their number with the ones to answer at once as a
//!   tie-break; the centre first among equals.
//! * **The table** (`table.rs`): exact keys, bounds on both sides, growing with the search,
//!   children's buckets prefetched while the moves are ordered, and an enhanced transposition
//!   cutoff (a child already known bad enough for the opponent ends the node) wherever the
//!   children are the main search's. Positions [`NEAR_END_MOVES`] or fewer from the end, the
//!   most visited, keep their results in a small table of their own, which stays in cache.
//! * **The last moves** ([`LAST_MOVES`] or fewer left) are searched by a lean negamax: centre
//!   order, no main table, a small direct-mapped table of its own; there a probe of the big
//!   table costs more than the search it saves.
//! * **Mirror images** share their table entries while [`MIRROR_FROM`] moves or more are left.
//! * **Several threads** ([`Solver::new`]'s `threads`, `parallel.rs`) search a long position
//!   together over the one main table (ABDADA); an `analyze` searches its columns side by side.
//! * **7x6**, the size everyone plays, has its threat function with constant shifts
//!   (`seven_by_six.rs`).
//!
//! Every board runs the same code over its integer (`Bits`: `u64` up to 64 bits, `u128` past
//! them). How each setting below was chosen is on the benchmarks page.

mod order;
mod parallel;
mod seven_by_six;
#[cfg(test)]
mod tests;

use self::order::centre_out;
use self::parallel::{Busy, Path, Siblings};
use self::seven_by_six::{seven_by_six_mirrored, seven_by_six_winning_cells};

use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::Answers;
use crate::engine::error::Error;
use crate::engine::memory::OutOfMemory;
use crate::engine::score::{self, Score};
use crate::games::connect4::book::Books;
use crate::games::connect4::table::{Known, NO_MOVE, SmallTable, Table};
use crate::games::connect4::{Bits, MAX_WIDTH, Position, Shape, engine_score, has_four_of_height};

/// Positions with this many moves left or fewer are searched by the lean endgame search.
const LAST_MOVES: i32 = 14;
/// The small table serves endgame positions with at least this many moves left.
const SMALL_FROM: i32 = 5;
/// Positions with at least this many moves left share the main table's entry with their mirror
/// image. Transpositions to a mirror image are common early in the game; later, the cost of
/// the mirrored key outweighs the few nodes it saves.
const MIRROR_FROM: i32 = 20;
/// Positions with this many moves left or fewer (and more than [`LAST_MOVES`]) keep their
/// results in a table of their own of [`NEAR_END_BYTES`], apart from those of the positions
/// further from the end: the most visited entries stay in the CPU's cache, and the few costly
/// results higher up are not evicted by them.
const NEAR_END_MOVES: i32 = 20;
/// The size of the table of positions near the end (at most the table size asked for).
const NEAR_END_BYTES: usize = 4 << 20;
/// `pons_score` halves a range of scores at most this wide in the middle, a wider one as Pons
/// does (see there).
const PLAIN_HALVING_WITHIN: i32 = 10;

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

pub struct Solver<'a, 'b, B: Bits = u64> {
    shape: &'a Shape<B>,
    shared: &'a Shared<B>,
    small: &'a mut SmallTable<B>,
    budget: &'a mut Budget<'b>,
    books: Books<'a>,
    /// Threads a search of a long position runs on (see `parallel.rs`).
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
        // them (see the benchmarks page).
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
            let (ordered, count) = self.ordered_moves(p, possible & !tried, theirs, alpha, leaves);
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
