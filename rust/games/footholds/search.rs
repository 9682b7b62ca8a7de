//! The fast footholds solver: negamax with alpha-beta over (footholds, me, you).
//!
//! What keeps it fast, in order of effect:
//! * Separation endgame: once the two pieces can no longer reach each other, each walks its own
//!   region, so the game is decided by the longest walk each has (a one-player search with its
//!   own memo, cut short by cheap upper bounds) and the two-player search stops there. Walks are
//!   measured only as far as the window needs.
//! * Move ordering by territory: moves that leave us more cells we reach before the opponent
//!   come first; ties go to the move with fewer ways on.
//! * The exact score by null-window tests alone (MTD(f)), each test a principal-variation
//!   search; bounds on a win's and a loss's length from the next two moves; a transposition
//!   table of bounded size, sized to the board.
//! * Mirrored placements share one root: the root is turned to the first of its images under
//!   the board's symmetries.

use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::{
    self, Answers, Game, Label, MoveAnswer, Orientation, Player, Solution,
};
use crate::engine::error::Error;
use crate::engine::memory::OutOfMemory;
use crate::engine::score::{self, Score};
use crate::engine::table::{self, Bound, Stored, Table};
use crate::engine::window::{Window, cells_of};
use crate::games::footholds::{Board, Position};

/// No move stored.
const NO_MOVE: u8 = u8::MAX;

/// The longest safe walk (see [`Solver::safe_walk`]) a node looks for.
const SAFE_WALK_MOST: Score = 10;

/// Bytes of the table of placements' exact scores: 4,096 entries.
const ANSWERS_BYTES: usize = table::SLOT_BYTES << 12;

/// Bytes of transposition table for a board of `cells` cells: 1.5 MiB from 6x6 up. Measured on
/// 8x8, a table that stays in the CPU's L2 cache beat a 96 MiB one by 2x in time for 5% more
/// nodes; smaller boards get smaller tables, allocated once per thread (see [`Memory`]).
pub fn table_bytes(cells: usize) -> usize {
    let log2_slots = (cells / 2 + 2).clamp(10, 16);
    table::SLOT_BYTES << log2_slots
}

/// What the searches on one thread have learnt, kept for their next search. A position's score
/// depends on nothing but the position and the board's shape (both in the keys), so stored
/// results stay true from call to call, and a loop over many placements on one board reuses
/// them. Memory stays bounded: the tables grow to the size for the largest board seen on the
/// thread, at most [`table_bytes`]`(64)` and a quarter of that, plus [`ANSWERS_BYTES`].
pub struct Memory {
    table: Table,
    /// Longest walks already measured, keyed by (region, start).
    walks: Table,
    /// Exact scores of the placements solved: a search's own entries for its root can be
    /// crowded out of `table` by later searches.
    answers: Table,
    /// The symmetries of the last board solved on, with its shape and footholds: finding them
    /// costs more than a small search.
    symmetries: Option<(usize, usize, u64, Vec<usize>)>,
}

impl Memory {
    fn for_cells(cells: usize) -> Result<Memory, OutOfMemory> {
        let bytes = table_bytes(cells);
        Ok(Memory {
            table: Table::with_bytes(bytes)?,
            walks: Table::with_bytes(bytes / 4)?,
            answers: Table::with_bytes(ANSWERS_BYTES)?,
            symmetries: None,
        })
    }

    /// The symmetry of `board` that takes the placement (a, b) to the first of its images.
    /// Solving that image instead, mirrored placements share one entry in `answers`: a loop
    /// over every placement on a symmetric board searches each class once.
    fn canonical_symmetry(&mut self, board: &Board, a: u8, b: u8) -> usize {
        let this_board = (board.rows, board.cols, board.footholds);
        let symmetries = match &mut self.symmetries {
            Some((rows, cols, footholds, known)) if (*rows, *cols, *footholds) == this_board => {
                known
            }
            kept => {
                let found = board.symmetries().collect();
                &kept
                    .insert((board.rows, board.cols, board.footholds, found))
                    .3
            }
        };
        // The identity comes first, so a placement that is its class's first stays as it is.
        symmetries
            .iter()
            .copied()
            .min_by_key(|&symmetry| (board.grid.map(symmetry, a), board.grid.map(symmetry, b)))
            .unwrap_or_default()
    }
}

thread_local! {
    static MEMORY: std::cell::RefCell<Option<Memory>> = const { std::cell::RefCell::new(None) };
}

/// Runs `search` with this thread's memory, big enough for a board of `cells` cells.
fn with_memory<T>(
    cells: usize,
    search: impl FnOnce(Memory) -> (Memory, T),
) -> Result<T, OutOfMemory> {
    let kept = MEMORY
        .with(|kept| kept.borrow_mut().take())
        .filter(|memory| memory.table.bytes() >= table_bytes(cells));
    let memory = match kept {
        Some(memory) => memory,
        None => Memory::for_cells(cells)?,
    };
    let (memory, result) = search(memory);
    MEMORY.with(|kept| *kept.borrow_mut() = Some(memory));
    Ok(result)
}

pub struct Solver<'a, 'b> {
    board: &'a Board,
    memory: Memory,
    /// The board's shape, part of every key: the same bits mean other cells on another shape.
    shape: u64,
    /// Cells whose (row + col) is even: a walk alternates colours.
    even: u64,
    budget: &'a mut Budget<'b>,
}

#[inline]
fn bit(cell: u8) -> u64 {
    1 << cell
}

impl<'a, 'b> Solver<'a, 'b> {
    pub fn new(board: &'a Board, memory: Memory, budget: &'a mut Budget<'b>) -> Self {
        let even = (0..board.cells() as u8)
            .filter(|&cell| {
                let (row, col) = board.row_col(cell);
                (row + col) % 2 == 0
            })
            .fold(0, |mask, cell| mask | bit(cell));
        Solver {
            board,
            memory,
            shape: (board.rows as u64) << 16 | (board.cols as u64) << 24,
            even,
            budget,
        }
    }

    /// Gives back the memory for the next search.
    pub fn into_memory(self) -> Memory {
        self.memory
    }

    /// The transposition-table key of a position (exact) and the hash that picks its slot.
    #[inline]
    fn table_key(&self, position: Position) -> ([u64; 2], u64) {
        let key = [
            position.footholds,
            u64::from(position.me) | u64::from(position.you) << 8 | self.shape,
        ];
        (
            key,
            table::mix(key[0] ^ key[1].wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        )
    }

    /// The exact score of `position` (from the side to move) when it lies in (alpha, beta);
    /// otherwise a bound on the side the window was missed (fail-soft).
    pub fn negamax(
        &mut self,
        position: Position,
        alpha: Score,
        beta: Score,
    ) -> Result<Score, Stop> {
        self.search(position, alpha, beta, false)
    }

    /// [`Self::negamax`]; `connected`: the pieces are known to reach each other.
    fn search(
        &mut self,
        position: Position,
        mut alpha: Score,
        mut beta: Score,
        connected: bool,
    ) -> Result<Score, Stop> {
        self.budget.visit()?;
        let (key, hash) = self.table_key(position);
        let cells = position.cells_left();
        // Start fetching the table slot now; the checks below hide part of the wait.
        self.memory.table.prefetch(hash);
        let moves = position.moves(self.board);
        if moves == 0 {
            return Ok(score::loss(cells));
        }
        let you_after =
            self.board.neighbours[position.you as usize] & position.footholds & !bit(position.me);
        if position.me == position.you || you_after == 0 {
            // Stepping off the shared cell leaves the opponent nothing to stand on; an opponent
            // whose only way out is our cell is stranded by any move.
            return Ok(score::win(cells - 1));
        }
        if !connected
            && let Err(my_region) =
                self.board
                    .reaches(bit(position.me), bit(position.you), position.footholds)
        {
            return Ok(self.separated(position, my_region, alpha, beta));
        }
        (alpha, beta) = match self.narrow(position, moves, you_after, alpha, beta) {
            Ok(window) => window,
            Err(score) => return Ok(score),
        };
        let mut first = NO_MOVE;
        if let Some(stored) = self.memory.table.probe(hash, key) {
            if let Some(score) = table::apply(stored, &mut alpha, &mut beta) {
                return Ok(score);
            }
            first = stored.best_move;
        }
        // Connected now, the pieces stay connected after our move unless the cell we leave
        // held paths together.
        let stays_connected = self
            .board
            .removal_is_local(position.me, position.footholds & !bit(position.me));
        // The stored best move goes first, alone: when it cuts off, ordering the others (the
        // costly part of a node) is never needed.
        let stored_first = first != NO_MOVE && moves >> first & 1 == 1;
        let mut queue = if stored_first {
            Moves::single(first)
        } else {
            self.order(position, moves)
        };
        let mut rest_pending = stored_first && moves.count_ones() > 1;
        let mut children = Window::new(alpha, beta, NO_MOVE);
        let mut next = 0;
        for index in 0.. {
            if next == queue.len {
                if !rest_pending {
                    break;
                }
                rest_pending = false;
                queue = self.order(position, moves & !bit(first));
                next = 0;
            }
            let to = queue.cells[next];
            next += 1;
            let child = position.play(to);
            let search_child = |alpha, beta| self.search(child, alpha, beta, stays_connected);
            if children.search_child(index, to, search_child)? {
                break;
            }
        }
        let stored = Stored {
            score: children.best,
            bound: children.bound(),
            best_move: children.best_move,
        };
        self.memory.table.store(hash, key, cells, stored);
        Ok(children.best)
    }

    /// Narrows the window by what the next moves guarantee: how soon a win can come, how long
    /// a loss must last. `Err(score)`: the bounds alone settle the window, with that score.
    fn narrow(
        &self,
        position: Position,
        moves: u64,
        you_after: u64,
        mut alpha: Score,
        mut beta: Score,
    ) -> Result<(Score, Score), Score> {
        let cells = position.cells_left();
        // Tighter bounds than "win at once, lose after the reply", from the next two moves:
        // the opponent can always answer our move, so a win takes three moves; five if,
        // whatever our move, it has an answer it can go on from. A loss takes four moves if
        // some move of ours leaves a way on that the opponent's answer cannot take away.
        let others = position.footholds & !(bit(position.me) | bit(position.you));
        let we_last = cells_of(moves)
            .any(|to| to != position.you && self.board.neighbours[to as usize] & others != 0);
        alpha = alpha.max(score::loss(cells - if we_last { 4 } else { 2 }));
        let they_last = cells_of(moves).all(|to| {
            cells_of(you_after & !bit(to))
                .any(|answer| self.board.neighbours[answer as usize] & others & !bit(to) != 0)
        });
        beta = beta.min(score::win(cells - if they_last { 5 } else { 3 }));
        if alpha >= beta {
            return Err(alpha);
        }
        // Longer bounds, when the window asks whether a loss lasts or a win comes soon enough:
        // a walk the other side cannot spoil. Past SAFE_WALK_MOST moves the walk rarely proves
        // anything and costs more than it saves (measured on 7x7 and 8x8).
        if beta <= 0 {
            // We lose no sooner than after our last safe move.
            let needed = (cells as Score + beta + 2) / 2;
            // A walk longer than the footholds allow proves nothing (and its loss would
            // count fewer than no cells left).
            if (3..=SAFE_WALK_MOST).contains(&needed)
                && 2 * needed <= cells as Score
                && self.safe_walk(
                    position.me,
                    position.you,
                    position.footholds,
                    0,
                    needed as u32,
                ) == needed as u32
            {
                return Err(score::loss(cells - 2 * needed as u32));
            }
        }
        if alpha >= 0 {
            // We win no sooner than after the opponent's last safe move.
            let needed = (cells as Score - alpha + 1) / 2;
            if (3..=SAFE_WALK_MOST).contains(&needed)
                && 2 * needed < cells as Score
                && self.safe_walk(
                    position.you,
                    position.me,
                    position.footholds,
                    1,
                    needed as u32,
                ) == needed as u32
            {
                return Err(score::win(cells - 2 * needed as u32 - 1));
            }
        }
        Ok((alpha, beta))
    }

    /// The moves, up to `needed`, of a walk by the piece at `walker` that the piece at `chaser`
    /// cannot spoil, found greedily (fewest ways on first). `late` is 0 when the walker moves
    /// first, 1 when the chaser does. Before the walker's i-th move the chaser has made
    /// i - 1 + late moves, so a cell at distance d from it is safe to step on when d > i - 2 +
    /// late (it cannot have come and gone: the cell would be gone), and safe to go on from when
    /// d > i - 1 + late (it cannot be standing there: leaving, it would take the cell along).
    /// Distances ignore the cells that vanish meanwhile, which only lengthens the chaser's ways.
    fn safe_walk(&self, walker: u8, chaser: u8, footholds: u64, late: u32, needed: u32) -> u32 {
        // The walker's cell goes with its first move; the chaser's cell, with the chaser's.
        let mut rest = footholds & !(bit(walker) | bit(chaser));
        let chaser_graph = footholds & !bit(walker);
        // Cells within `reached` moves of the chaser, grown on demand.
        let (mut within, mut reached) = (bit(chaser), 0u32);
        let mut within_moves = |moves: u32| {
            while reached < moves {
                within = (within | self.board.expand(within)) & chaser_graph;
                reached += 1;
            }
            within
        };
        let (mut at, mut walked) = (walker, 0u32);
        while walked < needed {
            // Before this, the walker's (walked + 1)-th move, the chaser made walked + late.
            let chased = walked + late;
            let gone = if chased == 0 {
                0
            } else {
                within_moves(chased - 1)
            };
            let occupied = within_moves(chased);
            let next = self.board.neighbours[at as usize] & rest;
            let Some(to) = cells_of(next & !occupied)
                .min_by_key(|&to| (self.board.neighbours[to as usize] & rest).count_ones())
            else {
                // One last step is safe onto a cell the chaser may stand on but cannot have left.
                return walked + u32::from(next & !gone != 0);
            };
            rest &= !bit(to);
            at = to;
            walked += 1;
        }
        walked
    }

    /// Moves in search order: by territory.
    fn order(&self, position: Position, moves: u64) -> Moves {
        let mut ordered = Moves::default();
        if moves.count_ones() == 1 {
            // Nothing to order.
            return Moves::single(moves.trailing_zeros() as u8);
        }
        let mut keys = [0i32; 4];
        let after = position.footholds & !bit(position.me);
        for to in cells_of(moves) {
            // The opponent moves next, so it wins ties for contested cells.
            // Ties go to the move with fewer ways on (Warnsdorff): 10% fewer nodes on 8x8.
            let onward = (self.board.neighbours[to as usize] & after).count_ones() as i32;
            let key = -8 * self.territory(after, position.you, to) - onward;
            // Insertion sort, largest key first: at most four moves.
            let mut slot = ordered.len;
            while slot > 0 && keys[slot - 1] < key {
                keys[slot] = keys[slot - 1];
                ordered.cells[slot] = ordered.cells[slot - 1];
                slot -= 1;
            }
            keys[slot] = key;
            ordered.cells[slot] = to;
            ordered.len += 1;
        }
        ordered
    }

    /// Cells `first` (to move) reaches before `second`, minus those `second` reaches first, in
    /// a simultaneous breadth-first expansion over `footholds`.
    fn territory(&self, footholds: u64, first: u8, second: u8) -> i32 {
        let mut free = footholds & !(bit(first) | bit(second));
        let (mut front_first, mut front_second) = (bit(first), bit(second));
        let mut balance = 0i32;
        while front_first | front_second != 0 {
            front_first = self.board.expand(front_first) & free;
            free &= !front_first;
            front_second = self.board.expand(front_second) & free;
            free &= !front_second;
            balance += front_first.count_ones() as i32 - front_second.count_ones() as i32;
        }
        balance
    }

    /// The score once the pieces cannot meet: each walks as long as it can in its own region;
    /// the side to move wins if its walk is longer. Walks are measured only as exactly as the
    /// window (alpha, beta) needs: a score known to fall outside it is returned as that bound.
    fn separated(
        &mut self,
        position: Position,
        my_region: u64,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let your_region = self.board.region(bit(position.you), position.footholds);
        let cells = position.cells_left();
        // The score rises with my walk and falls with yours.
        let score_of = |mine: u32, yours: u32| {
            if mine > yours {
                score::win(cells - (2 * yours + 1))
            } else {
                score::loss(cells - 2 * mine)
            }
        };
        let (mut mine_low, mut mine_high) = self.walk_bounds(my_region, position.me);
        let (mut yours_low, mut yours_high) = self.walk_bounds(your_region, position.you);
        // Measure only what the window needs: your walk, then whether mine is longer (a win's
        // score depends on your walk alone), and mine exactly only when it is not (a loss's
        // score depends on mine alone).
        for step in 0..3 {
            let (lowest, highest) = (
                score_of(mine_low, yours_high),
                score_of(mine_high, yours_low),
            );
            if lowest == highest || highest <= alpha {
                return highest;
            }
            if lowest >= beta {
                return lowest;
            }
            match step {
                0 => {
                    if yours_low < yours_high {
                        let yours = self.longest_walk(your_region, position.you);
                        (yours_low, yours_high) = (yours, yours);
                    }
                }
                1 => {
                    // Here mine_low <= yours < mine_high: the bounds differ on who wins.
                    if self.walk_at_least(my_region, position.me, yours_low + 1) {
                        mine_low = yours_low + 1;
                    } else {
                        mine_high = yours_low;
                    }
                }
                _ => {
                    let mine = self.longest_walk(my_region, position.me);
                    (mine_low, mine_high) = (mine, mine);
                }
            }
        }
        score_of(mine_low, yours_low)
    }

    /// The walk memo's key of a walk from `start` through `rest`, and its hash.
    #[inline]
    fn walk_key(&self, rest: u64, start: u8) -> ([u64; 2], u64) {
        let key = [rest, u64::from(start) | self.shape];
        (
            key,
            table::mix(rest ^ key[1].wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        )
    }

    /// (a walk's length found greedily, an upper bound on the longest walk) from `start`
    /// within `region` (start included).
    fn walk_bounds(&self, region: u64, start: u8) -> (u32, u32) {
        let high = self.walk_bound(region & !bit(start), start);
        // Greedy walk: always to the neighbour with the fewest onward moves (Warnsdorff).
        let (mut rest, mut at, mut low) = (region & !bit(start), start, 0);
        while low < high {
            let next = self.board.neighbours[at as usize] & rest;
            let Some(to) = cells_of(next)
                .min_by_key(|&to| (self.board.neighbours[to as usize] & rest).count_ones())
            else {
                break;
            };
            rest &= !bit(to);
            at = to;
            low += 1;
        }
        (low, high)
    }

    /// An upper bound on the moves of a walk from `start` through the cells of `rest`.
    fn walk_bound(&self, rest: u64, start: u8) -> u32 {
        // Colours alternate along a walk, starting with the colour start does not have.
        let start_is_even = self.even >> start & 1 == 1;
        let (same, other) = if start_is_even {
            (
                (rest & self.even).count_ones(),
                (rest & !self.even).count_ones(),
            )
        } else {
            (
                (rest & !self.even).count_ones(),
                (rest & self.even).count_ones(),
            )
        };
        // A cell with a single neighbour can only end a walk: at most one is on it, as its
        // last cell, and every other cell of the walk is of the colour its turn demands.
        let dead_ends = self.single_neighbour_cells(rest | bit(start)) & rest;
        let (same_ends, other_ends) = if start_is_even {
            ((dead_ends & self.even) != 0, (dead_ends & !self.even) != 0)
        } else {
            ((dead_ends & !self.even) != 0, (dead_ends & self.even) != 0)
        };
        let open_same =
            same - (dead_ends & if start_is_even { self.even } else { !self.even }).count_ones();
        let open_other =
            other - (dead_ends & if start_is_even { !self.even } else { self.even }).count_ones();
        let by_colour = |same: u32, other: u32| 2 * same.min(other) + u32::from(other > same);
        let mut bound = by_colour(open_same, open_other);
        if same_ends {
            bound = bound.max(by_colour(open_same + 1, open_other));
        }
        if other_ends {
            bound = bound.max(by_colour(open_same, open_other + 1));
        }
        bound
    }

    /// The cells of `set` with exactly one orthogonal neighbour in `set`.
    fn single_neighbour_cells(&self, set: u64) -> u64 {
        // Each mask marks the cells having a neighbour in `set` on one side; exactly one of
        // the four holds when the half-adder sums give 1.
        let neighbours = self.board.neighbour_sides(set);
        let (low_a, high_a) = (neighbours[0] ^ neighbours[1], neighbours[0] & neighbours[1]);
        let (low_b, high_b) = (neighbours[2] ^ neighbours[3], neighbours[2] & neighbours[3]);
        (low_a ^ low_b) & !(high_a | high_b) & set
    }

    /// The most moves a lone piece at `start` can make within `region` (start included).
    fn longest_walk(&mut self, region: u64, start: u8) -> u32 {
        let rest = region & !bit(start);
        let next = self.board.neighbours[start as usize] & rest;
        if next == 0 {
            return 0;
        }
        let (key, hash) = self.walk_key(rest, start);
        if let Some(stored) = self.memory.walks.probe(hash, key) {
            return stored.score as u32;
        }
        let bound = self.walk_bound(rest, start);
        if bound == 1 {
            return 1;
        }
        let mut longest = 0;
        for (to, reachable) in walk_steps(self.board, start, rest) {
            longest = longest.max(1 + self.longest_walk(reachable, to));
            if longest >= bound {
                break;
            }
        }
        let stored = Stored {
            score: longest as Score,
            bound: Bound::Exact,
            best_move: NO_MOVE,
        };
        self.memory
            .walks
            .store(hash, key, rest.count_ones(), stored);
        longest
    }

    /// Is there a walk of `target` moves or more from `start` within `region` (start
    /// included)? The search of [`Self::longest_walk`], stopped by the first such walk.
    fn walk_at_least(&mut self, region: u64, start: u8, target: u32) -> bool {
        if target == 0 {
            return true;
        }
        let rest = region & !bit(start);
        let next = self.board.neighbours[start as usize] & rest;
        if next == 0 {
            return false;
        }
        let (key, hash) = self.walk_key(rest, start);
        if let Some(stored) = self.memory.walks.probe(hash, key) {
            return stored.score as u32 >= target;
        }
        if self.walk_bound(rest, start) < target {
            return false;
        }
        for (to, reachable) in walk_steps(self.board, start, rest) {
            if self.walk_at_least(reachable, to, target - 1) {
                return true;
            }
        }
        false
    }

    /// The exact score of `position`, found by null-window searches alone (MTD(f)): first who
    /// wins, then each test moves the nearer bound to the fail-soft score it returns, the table
    /// carrying what one test learnt to the next. On 8x8 this is 12% faster than one search of
    /// the winner's half of the window, which cost over ten times the win/loss search.
    pub fn exact_score(&mut self, position: Position) -> Result<Score, Stop> {
        let (key, hash) = self.table_key(position);
        if let Some(known) = self.memory.answers.probe(hash, key) {
            return Ok(known.score);
        }
        let score = self.mtd(position)?;
        let known = Stored {
            score,
            bound: Bound::Exact,
            best_move: NO_MOVE,
        };
        self.memory
            .answers
            .store(hash, key, position.cells_left(), known);
        Ok(score)
    }

    /// [`Self::exact_score`] by search.
    fn mtd(&mut self, position: Position) -> Result<Score, Stop> {
        let cells = position.cells_left();
        let (mut low, mut high) = (score::loss(cells), score::win(cells));
        // First who wins (no draws: a score of 1 or more is a win).
        let mut beta = 1;
        loop {
            let score = self.negamax(position, beta - 1, beta)?;
            if score < beta {
                high = score;
            } else {
                low = score;
            }
            if low >= high {
                return Ok(low);
            }
            beta = if score == low { score + 1 } else { score };
        }
    }
}

impl Answers<Board> for Solver<'_, '_> {
    fn exact(&mut self, _: &Board, position: &Position) -> Result<Score, Stop> {
        self.exact_score(*position)
    }

    fn window(
        &mut self,
        _: &Board,
        position: &Position,
        alpha: Score,
        beta: Score,
    ) -> Result<Score, Stop> {
        self.negamax(*position, alpha, beta)
    }

    fn nodes(&self) -> u64 {
        self.budget.nodes()
    }
}

/// The first steps of a walk from `start` on through `rest`, each with the cells of `rest` it
/// can still reach: fewest onward steps first (Warnsdorff's rule), so long walks come early.
fn walk_steps(board: &Board, start: u8, rest: u64) -> impl Iterator<Item = (u8, u64)> + '_ {
    let next = board.neighbours[start as usize] & rest;
    // Leaving `start` splits the region only if its neighbours lose touch around it; otherwise
    // every step reaches all the rest, and no flood fill is needed.
    let splits = !board.removal_is_local(start, rest);
    let mut steps = [(u32::MAX, 0u8); 4];
    for (slot, to) in cells_of(next).enumerate() {
        steps[slot] = ((board.neighbours[to as usize] & rest).count_ones(), to);
    }
    steps.sort_unstable();
    steps
        .into_iter()
        .take(next.count_ones() as usize)
        .map(move |(_, to)| {
            let reachable = if splits {
                board.region(bit(to), rest)
            } else {
                rest
            };
            (to, reachable)
        })
}

#[derive(Default)]
struct Moves {
    cells: [u8; 4],
    len: usize,
}

impl Moves {
    fn single(cell: u8) -> Moves {
        Moves {
            cells: [cell, 0, 0, 0],
            len: 1,
        }
    }
}

/// The placement searched is a mirror image of the caller's: moves are turned back.
struct Turned<'a> {
    board: &'a Board,
    symmetry: usize,
}

impl Orientation for Turned<'_> {
    fn to_caller(&self, cell: u8) -> u8 {
        self.board.grid.unmap(self.symmetry, cell)
    }
}

/// Runs `work` on a solver with this thread's memory, from A at cell `a` and B at cell `b`,
/// A to move, turned by the symmetry [`Memory::canonical_symmetry`] picks.
fn from_start<T>(
    board: &Board,
    a: u8,
    b: u8,
    budget: &mut Budget,
    work: impl FnOnce(&mut Game<Board, Solver>, Position, &Turned) -> Result<T, Stop>,
) -> Result<T, Error> {
    let result = with_memory(board.cells(), |mut memory| {
        let symmetry = memory.canonical_symmetry(board, a, b);
        memory.table.new_search();
        let root = Position {
            footholds: board.footholds,
            me: board.grid.map(symmetry, a),
            you: board.grid.map(symmetry, b),
        };
        let mut solver = Solver::new(board, memory, budget);
        let mut game = Game {
            rules: board,
            answers: &mut solver,
        };
        let result = work(&mut game, root, &Turned { board, symmetry });
        (solver.into_memory(), result)
    })?;
    Ok(result?)
}

/// Solves a game with A at cell `a` and B at cell `b`, A to move; moves are cells.
pub fn solve(board: &Board, a: u8, b: u8, budget: &mut Budget) -> Result<Solution, Error> {
    from_start(board, a, b, budget, |solver, root, turned| {
        driver::solve(solver, &root, Player::First, turned)
    })
}

/// The judge's answer alone: the total moves under perfect play.
pub fn total_moves(board: &Board, a: u8, b: u8, budget: &mut Budget) -> Result<u32, Error> {
    from_start(board, a, b, budget, |solver, root, _| {
        driver::plies(solver, &root)
    })
}

/// The batch label of a game from A at `a` and B at `b` (with every first move's answer when
/// `moves`).
pub fn label(
    board: &Board,
    a: u8,
    b: u8,
    budget: &mut Budget,
    moves: bool,
) -> Result<Label, Error> {
    from_start(board, a, b, budget, |solver, root, turned| {
        driver::label(solver, &root, moves, turned)
    })
}

/// Each of A's first moves with its value for A and the plies it leads to.
pub fn analyze(board: &Board, a: u8, b: u8, budget: &mut Budget) -> Result<Vec<MoveAnswer>, Error> {
    from_start(board, a, b, budget, |solver, root, turned| {
        driver::analyze(solver, &root, turned)
    })
}

/// Each of A's first moves with its answer, best first ([`driver::rank`]).
pub fn ranked_moves(
    board: &Board,
    a: u8,
    b: u8,
    budget: &mut Budget,
) -> Result<Vec<MoveAnswer>, Error> {
    let mut answers = analyze(board, a, b, budget)?;
    driver::rank(&mut answers, |_| 0);
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::unlimited;
    use crate::games::footholds::parse_board;
    use crate::games::footholds::plain::backtrack;
    use crate::input::Item;

    fn board(text: &str) -> Board {
        parse_board(&Item::Text(text.into())).unwrap()
    }

    #[test]
    fn judge_examples() {
        let cases = [
            ("111/111/111", (1, 0), (1, 2), 5),
            ("111/101/111", (1, 0), (1, 2), 4),
            ("11111", (0, 0), (0, 4), 4),
            ("1", (0, 0), (0, 0), 0),
        ];
        for (text, a, b, moves) in cases {
            let board = board(text);
            let (a, b) = (board.cell(a.0, a.1), board.cell(b.0, b.1));
            let solution = unlimited(|budget| solve(&board, a, b, budget)).unwrap();
            assert_eq!(solution.plies, moves, "{text}");
            assert_eq!(solution.line.len() as u32, moves, "{text}");
        }
    }

    #[test]
    fn safe_walks_on_a_strip() {
        // 1111111, walker at the left end, chaser at the right. Walker first: W 1, C 5, W 2,
        // C 4, W 3; the chaser then steps onto 3 and takes 4 away: three moves. Chaser first:
        // C 5, W 1, C 4, W 2, C 3, W 3 onto the chaser, which leaves: three moves again.
        let strip = board("1111111");
        let walk = |late| {
            unlimited(|budget| {
                let solver = Solver::new(&strip, Memory::for_cells(7).unwrap(), budget);
                solver.safe_walk(0, 6, strip.footholds, late, 6)
            })
        };
        assert_eq!((walk(0), walk(1)), (3, 3));
        // Without a chaser in reach, the walk goes as far as asked.
        let split = board("1110111");
        let far = unlimited(|budget| {
            let solver = Solver::new(&split, Memory::for_cells(7).unwrap(), budget);
            solver.safe_walk(0, 6, split.footholds, 0, 2)
        });
        assert_eq!(far, 2);
    }

    #[test]
    fn agrees_with_backtracking_on_every_placement_of_small_boards() {
        for text in [
            "1111/1111/1111",
            "111/101/111/111",
            "1101/1111/0111",
            "11111/11011",
        ] {
            let board = board(text);
            for a in cells_of(board.footholds) {
                for b in cells_of(board.footholds) {
                    let fast = unlimited(|budget| solve(&board, a, b, budget)).unwrap();
                    let (value, plies, best_moves) =
                        unlimited(|budget| backtrack(&board, a, b, budget)).unwrap();
                    assert_eq!(fast.plies, plies, "{text} {a} {b}");
                    assert_eq!(fast.value, value, "{text} {a} {b}");
                    let best: Vec<_> = fast.best_moves.iter().map(|&c| board.row_col(c)).collect();
                    assert_eq!(best, best_moves, "{text} {a} {b}");
                }
            }
        }
    }
}
