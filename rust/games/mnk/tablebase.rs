//! Strong solutions of whole m,n,k games of up to 20 cells: the score of every reachable
//! position, one byte each, built by the generic tier solver (`engine/tiers.rs`) and probed
//! through the generic driver (the table is a [`Search`] whose every score is a lookup).
//!
//! **Ranking.** Tier `t` holds the positions with `t` marks: X has `ceil(t/2)`, O `floor(t/2)`.
//! A position's rank in its tier is `colex(occupied) * C(t, xs) + colex(X among the occupied)`,
//! where `colex` is the rank of a set in the combinatorial number system (the sum of
//! `C(p_i, i + 1)` over its members `p_0 < p_1 < ...`). Masks with the same number of bits in
//! increasing order are in colex order, so a tier is walked without unranking. Ranks no game
//! reaches (both sides have a line, a move after the end) hold `UNREACHED`.
//!
//! **Children.** The child of playing cell `c` is in the next tier; its rank is found in O(1)
//! per child from prefix and suffix sums of the parent's members (inserting `c` shifts the
//! index of every member above it by one).

use crate::engine::budget::Stop;
use crate::engine::driver::{self, AsGiven, Label, MoveAnswer, Player, Search, Solution};
use crate::engine::error::{Result, malformed};
use crate::engine::score::{self, Score};
use crate::engine::table::{advise_huge_pages, prefetch};
use crate::engine::tiers::{self, TierGame, UNREACHED, entry, score_of};
use crate::engine::window::cells_of;
use crate::games::mnk::{Board, Geometry};

/// The most cells a tablebase board has.
pub const MAX_CELLS: usize = 20;
const N: usize = MAX_CELLS + 2;

/// `BINOM[n][k]` = C(n, k) for n, k < 22.
static BINOM: [[usize; N]; N] = {
    let mut table = [[0usize; N]; N];
    let mut n = 0;
    while n < N {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

#[inline]
fn binom(n: usize, k: usize) -> usize {
    BINOM[n][k]
}

/// The colex rank of a set of cells (a mask), bit by bit: the reference the byte tables are
/// checked against.
#[cfg(test)]
fn colex(mut mask: u64) -> usize {
    let mut rank = 0;
    let mut index = 1;
    while mask != 0 {
        rank += binom(mask.trailing_zeros() as usize, index);
        index += 1;
        mask &= mask - 1;
    }
    rank
}

/// Byte tables for ranking a mask of at most 24 cells with a few lookups: `colex[byte][bits
/// below][value]` is what one byte of a mask adds to its colex rank, and `extract[occupied
/// byte][x byte]` is the bits of the X byte at the occupied byte's cells, packed.
struct RankTables {
    colex: Vec<u32>,
    extract: Vec<u8>,
}

impl std::fmt::Debug for RankTables {
    // The tables are 120 kB of numbers: their name says enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RankTables")
    }
}

const BELOW: usize = 17; // bits below the third byte: at most 16

fn rank_tables() -> &'static RankTables {
    static TABLES: std::sync::OnceLock<RankTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut colex_table = vec![0u32; 3 * BELOW * 256];
        for byte in 0..3 {
            for below in 0..BELOW {
                for value in 0..256usize {
                    let mut sum = 0;
                    for (t, bit) in cells_of(value as u64).enumerate() {
                        let (n, k) = (8 * byte + bit as usize, below + t + 1);
                        // Masks of at most 20 cells never reach past the binomial table.
                        if n < N && k < N {
                            sum += binom(n, k);
                        }
                    }
                    colex_table[(byte * BELOW + below) * 256 + value] = sum as u32;
                }
            }
        }
        let mut extract_table = vec![0u8; 256 * 256];
        for onto in 0..256u64 {
            for x in 0..256u64 {
                extract_table[(onto as usize) * 256 + x as usize] = extract(x, onto) as u8;
            }
        }
        RankTables {
            colex: colex_table,
            extract: extract_table,
        }
    })
}

/// `colex(mask)` for a mask of at most 24 cells, by the byte tables.
#[inline(always)]
fn colex_by_bytes(tables: &RankTables, mask: u64) -> usize {
    let (b0, b1, b2) = (mask & 255, mask >> 8 & 255, mask >> 16 & 255);
    let (c1, c2) = (
        b0.count_ones() as usize,
        (mask & 0xffff).count_ones() as usize,
    );
    (tables.colex[b0 as usize]
        + tables.colex[(BELOW + c1) * 256 + b1 as usize]
        + tables.colex[(2 * BELOW + c2) * 256 + b2 as usize]) as usize
}

/// `extract(x, onto)` for masks of at most 24 cells, by the byte tables.
#[inline(always)]
fn extract_by_bytes(tables: &RankTables, x: u64, onto: u64) -> u64 {
    let mut out = 0u64;
    let mut shift = 0;
    for byte in 0..3 {
        let (o, xb) = ((onto >> (8 * byte)) & 255, (x >> (8 * byte)) & 255);
        out |= u64::from(tables.extract[(o as usize) * 256 + xb as usize]) << shift;
        shift += o.count_ones();
    }
    out
}

/// The set of `members` cells, all below `below`, with colex rank `rank`.
fn uncolex(mut rank: usize, members: usize, below: usize) -> u64 {
    let mut mask = 0u64;
    let mut limit = below;
    for index in (1..=members).rev() {
        // The largest cell under the limit with C(cell, index) <= rank; C(index - 1, index)
        // is 0, so the search stops by then.
        let mut cell = limit - 1;
        while binom(cell, index) > rank {
            cell -= 1;
        }
        mask |= 1 << cell;
        rank -= binom(cell, index);
        limit = cell;
    }
    mask
}

/// The next mask with as many bits, in increasing order (Gosper); `mask` is not 0.
#[inline]
fn next_colex(mask: u64) -> u64 {
    let low = mask & mask.wrapping_neg();
    let ripple = mask + low;
    ripple | (((mask ^ ripple) >> 2) / low)
}

/// The bits of `sub` placed, in order, on the set bits of `onto`.
#[inline]
fn deposit(sub: u64, mut onto: u64) -> u64 {
    let mut out = 0;
    let mut index = 0;
    while onto != 0 {
        let low = onto & onto.wrapping_neg();
        if sub >> index & 1 == 1 {
            out |= low;
        }
        index += 1;
        onto &= onto - 1;
    }
    out
}

/// The bits of `x` at the set bits of `onto`, packed in order (the inverse of `deposit`).
#[inline]
fn extract(x: u64, mut onto: u64) -> u64 {
    let mut out = 0;
    let mut index = 0;
    while onto != 0 {
        let low = onto & onto.wrapping_neg();
        if x & low != 0 {
            out |= 1 << index;
        }
        index += 1;
        onto &= onto - 1;
    }
    out
}

/// How many X marks a position of tier `t` has (X moves first).
#[inline]
fn x_marks(tier: usize) -> usize {
    tier.div_ceil(2)
}

/// The tiers of one m,n,k game: sizes, where each starts, and how positions rank.
#[derive(Debug, Clone)]
pub struct Tiers {
    pub geometry: Geometry,
    cells: usize,
    sizes: Vec<usize>,
    offsets: Vec<usize>,
    total: usize,
    // Fetched once here rather than at each rank.
    tables: &'static RankTables,
}

impl Tiers {
    /// The tiers of the `rows x cols` game where `k` in a row wins (at most 20 cells).
    pub fn new(rows: usize, cols: usize, k: i128) -> Result<Tiers> {
        let geometry = Geometry::new(rows, cols, k)?;
        let cells = geometry.cells();
        if cells > MAX_CELLS {
            return malformed!(
                "tablebases hold boards of up to {MAX_CELLS} cells; {rows}x{cols} has {cells}"
            );
        }
        let sizes: Vec<usize> = (0..=cells)
            .map(|t| binom(cells, t) * binom(t, x_marks(t)))
            .collect();
        let mut offsets = Vec::with_capacity(sizes.len());
        let mut total = 0;
        for size in &sizes {
            offsets.push(total);
            total += size;
        }
        Ok(Tiers {
            geometry,
            cells,
            sizes,
            offsets,
            total,
            tables: rank_tables(),
        })
    }

    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The number of ranks of every tier.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Ranks in all (one byte each).
    pub fn total(&self) -> usize {
        self.total
    }

    /// Where a position with X on `x` and O on `o` is in the table. The counts must be those
    /// of play (X has as many marks as O, or one more).
    #[inline(always)]
    pub fn index(&self, x: u64, o: u64) -> usize {
        let tables = self.tables;
        let occupied = x | o;
        let tier = occupied.count_ones() as usize;
        self.offsets[tier]
            + colex_by_bytes(tables, occupied) * binom(tier, x_marks(tier))
            + colex_by_bytes(tables, extract_by_bytes(tables, x, occupied))
    }

    /// The position at a table index: (tier, X mask, O mask).
    pub fn position(&self, index: usize) -> (usize, u64, u64) {
        let tier = self.offsets.partition_point(|&start| start <= index) - 1;
        let rank = index - self.offsets[tier];
        let xs = x_marks(tier);
        let subsets = binom(tier, xs);
        let occupied = uncolex(rank / subsets, tier, self.cells);
        let x = deposit(uncolex(rank % subsets, xs, tier), occupied);
        (tier, x, occupied & !x)
    }

    /// Calls `visit(offset, x, o)` for ranks `start..start + count` of `tier` in order, walking
    /// the masks in increasing order rather than unranking each.
    fn walk(
        &self,
        tier: usize,
        start: usize,
        count: usize,
        mut visit: impl FnMut(usize, u64, u64),
    ) {
        if count == 0 {
            return;
        }
        let xs = x_marks(tier);
        let subsets = binom(tier, xs);
        let mut sub_rank = start % subsets;
        let mut occupied = uncolex(start / subsets, tier, self.cells);
        let mut sub = uncolex(sub_rank, xs, tier);
        for offset in 0..count {
            if offset > 0 {
                sub_rank += 1;
                if sub_rank == subsets {
                    sub_rank = 0;
                    occupied = next_colex(occupied);
                    sub = (1u64 << xs) - 1;
                } else {
                    sub = next_colex(sub);
                }
            }
            let x = deposit(sub, occupied);
            visit(offset, x, occupied & !x);
        }
    }

    /// The entry of one position of tier `tier` (X on `x`, O on `o`), given the next tier.
    fn solve_position(
        &self,
        tier: usize,
        x: u64,
        o: u64,
        next: &[u8],
        children: &mut ChildRanks,
    ) -> u8 {
        let g = &self.geometry;
        let (mine, theirs) = if tier % 2 == 0 { (x, o) } else { (o, x) };
        if g.has_line(mine) {
            return UNREACHED; // the side to move made a line, yet the other side moved after
        }
        let left = (self.cells - tier) as u32;
        if g.has_line(theirs) {
            // Legal only if one last move made every line: they share a cell.
            let common = g
                .windows
                .iter()
                .filter(|&&w| theirs & w == w)
                .fold(u64::MAX, |common, &w| common & w);
            return if common == 0 {
                UNREACHED
            } else {
                entry(score::loss(left))
            };
        }
        let occupied = x | o;
        if tier == self.cells {
            return entry(score::DRAW);
        }
        let empty = g.full & !occupied;
        for cell in cells_of(empty) {
            let with = mine | 1 << cell;
            if g.windows_through[cell as usize]
                .iter()
                .any(|&w| w & !with == 0)
            {
                return entry(score::win(left - 1)); // the fastest win there is
            }
        }
        children.set(tier, x, o);
        let mut best = Score::MIN;
        for cell in cells_of(empty) {
            if let Some(child) = score_of(next[children.rank(cell)]) {
                best = best.max(-child);
            }
        }
        entry(best)
    }
}

/// The ranks in the next tier of a position's children, a few additions each: prefix and
/// suffix sums of the parent's members, since inserting a cell shifts the index of every
/// member above it by one.
struct ChildRanks {
    occupied: u64,
    x: u64,
    x_moves: bool,
    child_subsets: usize,
    occ_prefix: [usize; N],
    occ_suffix: [usize; N],
    x_prefix: [usize; N],
    x_suffix_add: [usize; N],
    x_suffix_keep: [usize; N],
}

impl ChildRanks {
    /// Room for the sums of any position; [`ChildRanks::set`] fills it for one. One is reused
    /// for many positions: made afresh for each, it was zeroed and copied each time.
    fn new() -> ChildRanks {
        ChildRanks {
            occupied: 0,
            x: 0,
            x_moves: true,
            child_subsets: 0,
            occ_prefix: [0; N],
            occ_suffix: [0; N],
            x_prefix: [0; N],
            x_suffix_add: [0; N],
            x_suffix_keep: [0; N],
        }
    }

    /// Now the children of the position of tier `tier` with X on `x` and O on `o`.
    #[inline(always)]
    fn set(&mut self, tier: usize, x: u64, o: u64) {
        let occupied = x | o;
        let mut members = [0u8; N];
        let mut count = 0;
        self.occ_prefix[0] = 0;
        for (i, cell) in cells_of(occupied).enumerate() {
            members[i] = cell;
            self.occ_prefix[i + 1] = self.occ_prefix[i] + binom(cell.into(), i + 1);
            count = i + 1;
        }
        self.occ_suffix[count] = 0;
        for i in (0..count).rev() {
            self.occ_suffix[i] = self.occ_suffix[i + 1] + binom(members[i].into(), i + 2);
        }
        let mut ordinals = [0u8; N];
        let mut xs = 0;
        self.x_prefix[0] = 0;
        for (i, ordinal) in cells_of(extract(x, occupied)).enumerate() {
            ordinals[i] = ordinal;
            self.x_prefix[i + 1] = self.x_prefix[i] + binom(ordinal.into(), i + 1);
            xs = i + 1;
        }
        (self.x_suffix_add[xs], self.x_suffix_keep[xs]) = (0, 0);
        for i in (0..xs).rev() {
            let above = usize::from(ordinals[i]) + 1;
            self.x_suffix_add[i] = self.x_suffix_add[i + 1] + binom(above, i + 2);
            self.x_suffix_keep[i] = self.x_suffix_keep[i + 1] + binom(above, i + 1);
        }
        let child_tier = tier + 1;
        (self.occupied, self.x) = (occupied, x);
        self.x_moves = tier % 2 == 0;
        self.child_subsets = binom(child_tier, x_marks(child_tier));
    }

    /// The rank in the next tier of the child where the side to move plays the empty `cell`.
    #[inline(always)]
    fn rank(&self, cell: u8) -> usize {
        let below = (1u64 << cell) - 1;
        let j = (self.occupied & below).count_ones() as usize;
        let m = (self.x & below).count_ones() as usize;
        let occ_rank = self.occ_prefix[j] + binom(cell as usize, j + 1) + self.occ_suffix[j];
        let sub_rank = if self.x_moves {
            self.x_prefix[m] + binom(j, m + 1) + self.x_suffix_add[m]
        } else {
            self.x_prefix[m] + self.x_suffix_keep[m]
        };
        occ_rank * self.child_subsets + sub_rank
    }
}

impl TierGame for Tiers {
    fn tiers(&self) -> usize {
        self.cells + 1
    }

    fn tier_size(&self, tier: usize) -> usize {
        self.sizes[tier]
    }

    fn solve_range(&self, tier: usize, start: usize, out: &mut [u8], next: &[u8]) {
        let mut children = ChildRanks::new();
        self.walk(tier, start, out.len(), |offset, x, o| {
            out[offset] = self.solve_position(tier, x, o, next, &mut children);
        });
    }
}

/// The table as a [`Search`]: every score is a lookup. An entry that cannot be the score of
/// its position (a damaged or forged file) is noted and reported after the driver is done.
pub struct Probe<'a> {
    tiers: &'a Tiers,
    data: &'a [u8],
    damaged: Option<String>,
}

impl<'a> Probe<'a> {
    /// A probe of `data`, which must hold every rank of `tiers`.
    pub fn new(tiers: &'a Tiers, data: &'a [u8]) -> Result<Probe<'a>> {
        if data.len() != tiers.total() {
            return malformed!(
                "the tablebase data has {} bytes, but a {}x{} k={} table has {}",
                data.len(),
                tiers.geometry.rows,
                tiers.geometry.cols,
                tiers.geometry.k,
                tiers.total()
            );
        }
        Ok(Probe {
            tiers,
            data,
            damaged: None,
        })
    }

    /// A legal board of this table's shape, or why not.
    pub fn board(&self, rows: usize, cols: usize, marks: &[u8]) -> Result<Board> {
        let g = &self.tiers.geometry;
        if (rows, cols) != (g.rows, g.cols) {
            return malformed!(
                "the board is {rows}x{cols}, but the tablebase is for {}x{} boards (k={})",
                g.rows,
                g.cols,
                g.k
            );
        }
        let board = Board::from_marks(marks);
        board.status(g)?;
        Ok(board)
    }

    fn finish<T>(&mut self, result: std::result::Result<T, Stop>) -> Result<T> {
        let value = result?;
        match self.damaged.take() {
            Some(why) => malformed!("the tablebase data is damaged: {why}"),
            None => Ok(value),
        }
    }

    pub fn solve(&mut self, board: Board) -> Result<Solution> {
        let to_move = if board.x_to_move() {
            Player::First
        } else {
            Player::Second
        };
        let result = driver::solve(self, &board, to_move, &AsGiven);
        self.finish(result)
    }

    pub fn analyze(&mut self, board: Board) -> Result<Vec<MoveAnswer>> {
        let result = driver::analyze(self, &board, &AsGiven);
        self.finish(result)
    }

    pub fn label(&mut self, board: Board, moves: bool) -> Result<Label> {
        let result = driver::label(self, &board, moves, &AsGiven);
        self.finish(result)
    }

    /// The stored score of a legal board; an entry that cannot be its score is noted as
    /// damage (see `finish`) and read as a draw.
    fn lookup(&mut self, board: &Board) -> Score {
        let index = self.tiers.index(board.x, board.o);
        self.entry_at(index, self.cells_left(board))
    }

    /// The score stored at `index` for a position with `left` empty cells, checked as in
    /// `lookup`.
    #[inline]
    fn entry_at(&mut self, index: usize, left: u32) -> Score {
        self.checked(self.data[index], index, left)
    }

    /// The score of `entry`, read at `index` for a position with `left` empty cells: an entry
    /// that cannot be its score is noted as damage and read as a draw.
    #[inline]
    fn checked(&mut self, entry: u8, index: usize, left: u32) -> Score {
        match score_of(entry) {
            Some(score) if score.unsigned_abs() <= left + 1 => score,
            _ => {
                self.damaged
                    .get_or_insert_with(|| format!("entry {entry} at index {index}"));
                score::DRAW
            }
        }
    }

    /// The score of a legal board.
    pub fn score(&mut self, board: Board) -> Result<Score> {
        let result = self.exact_score(&board);
        self.finish(result)
    }
}

impl Search for Probe<'_> {
    type Position = Board;

    fn moves(&self, board: &Board) -> u64 {
        let g = &self.tiers.geometry;
        if g.has_line(board.x) || g.has_line(board.o) {
            return 0;
        }
        g.full & !(board.x | board.o)
    }

    fn play(&self, board: &Board, cell: u8) -> Board {
        if board.x_to_move() {
            Board {
                x: board.x | 1 << cell,
                o: board.o,
            }
        } else {
            Board {
                x: board.x,
                o: board.o | 1 << cell,
            }
        }
    }

    fn cells_left(&self, board: &Board) -> u32 {
        self.tiers.cells as u32 - (board.x | board.o).count_ones()
    }

    fn exact_score(&mut self, board: &Board) -> std::result::Result<Score, Stop> {
        Ok(self.lookup(board))
    }

    fn window_score(
        &mut self,
        board: &Board,
        _: Score,
        _: Score,
    ) -> std::result::Result<Score, Stop> {
        self.exact_score(board)
    }

    fn nodes(&self) -> u64 {
        0
    }
}

/// The whole-game report of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// `counts[value + 1][plies]`: reachable positions by value for the side to move and plies.
    pub counts: Vec<[u64; MAX_CELLS + 1]>,
    /// The most plies any position has, and the first such position's table index.
    pub longest: (u32, usize),
    /// Reachable positions up to the board's symmetries.
    pub canonical: u64,
}

/// Where symmetry `which` of a `rows x cols` board takes cell (i, j): the identity, the two
/// mirrors and the half turn, then for a square the diagonal mirrors and the quarter turns.
fn image(which: usize, i: usize, j: usize, rows: usize, cols: usize) -> (usize, usize) {
    match which {
        0 => (i, j),
        1 => (i, cols - 1 - j),
        2 => (rows - 1 - i, j),
        3 => (rows - 1 - i, cols - 1 - j),
        4 => (j, i),
        5 => (cols - 1 - j, i),
        6 => (j, rows - 1 - i),
        _ => (cols - 1 - j, rows - 1 - i),
    }
}

/// The cell permutations of the board's symmetries (8 for a square, 4 otherwise).
fn symmetries(g: &Geometry) -> Vec<Vec<u8>> {
    let (rows, cols) = (g.rows, g.cols);
    let count = if rows == cols { 8 } else { 4 };
    (0..count)
        .map(|which| {
            (0..rows * cols)
                .map(|cell| {
                    let (i, j) = image(which, cell / cols, cell % cols, rows, cols);
                    (i * cols + j) as u8
                })
                .collect()
        })
        .collect()
}

fn permute(mask: u64, map: &[u8]) -> u64 {
    cells_of(mask).fold(0, |out, cell| out | 1 << map[cell as usize])
}

impl Tiers {
    /// Counts every reachable position of `data` by value and plies, finds the longest, and
    /// counts positions up to symmetry (Burnside: the average number of positions each
    /// symmetry leaves unchanged). `threads` workers; `monitor` as in `tiers::build`.
    pub fn stats(
        &self,
        data: &[u8],
        threads: usize,
        monitor: impl FnMut(usize, usize) -> bool,
    ) -> Result<Stats> {
        Probe::new(self, data)?;
        let maps = symmetries(&self.geometry);
        // Pieces of at most 2^16 ranks within a tier, in table order.
        let chunk = 1usize << 16;
        let pieces: Vec<(usize, usize, usize)> = (0..=self.cells)
            .flat_map(|tier| {
                (0..self.sizes[tier])
                    .step_by(chunk)
                    .map(move |start| (tier, start, chunk.min(self.sizes[tier] - start)))
            })
            .collect();
        let empty = || {
            let stats = Stats {
                counts: vec![[0; MAX_CELLS + 1]; 3],
                longest: (0, usize::MAX),
                canonical: 0,
            };
            (stats, 0u64)
        };
        let partial = tiers::in_pieces(
            pieces,
            self.total,
            threads,
            empty,
            |(mine, fixed), (tier, start, count), damaged| {
                let base = self.offsets[tier] + start;
                let left = (self.cells - tier) as u32;
                self.walk(tier, start, count, |offset, x, o| {
                    let index = base + offset;
                    let Some(score) = score_of(data[index]) else {
                        return;
                    };
                    if score.unsigned_abs() > left + 1 {
                        damaged.get_or_insert_with(|| {
                            format!("entry {} at index {index}", data[index])
                        });
                        return;
                    }
                    let plies = score::plies(score, left);
                    mine.counts[(score::value(score) + 1) as usize][plies as usize] += 1;
                    // Pieces come in table order, so the first of the longest is kept.
                    if plies > mine.longest.0 || mine.longest.1 == usize::MAX {
                        mine.longest = (plies, index);
                    }
                    *fixed += maps
                        .iter()
                        .filter(|map| permute(x, map) == x && permute(o, map) == o)
                        .count() as u64;
                });
                count
            },
            monitor,
        )?;
        let mut total = Stats {
            counts: vec![[0; MAX_CELLS + 1]; 3],
            longest: (0, usize::MAX),
            canonical: 0,
        };
        let mut fixed = 0u64;
        for (stats, part) in partial {
            for (sum, add) in total.counts.iter_mut().zip(&stats.counts) {
                for (a, b) in sum.iter_mut().zip(add) {
                    *a += b;
                }
            }
            // The longest, and among equals the first index: independent of the threads.
            if stats.longest.1 != usize::MAX
                && (stats.longest.0, std::cmp::Reverse(stats.longest.1))
                    > (total.longest.0, std::cmp::Reverse(total.longest.1))
            {
                total.longest = stats.longest;
            }
            fixed += part;
        }
        total.canonical = fixed / maps.len() as u64;
        Ok(total)
    }
}

/// Row labels of a batch answered from the table, one entry a row; `best_mask`, `move_value`
/// and `move_plies` have `cells` entries a row. A bad row (a code other than 0/1/2, or a board
/// no game reaches) has status 1, value 0, plies -1, best move -1.
#[derive(Debug, Default)]
pub struct RowLabels {
    pub value: Vec<i8>,
    pub plies: Vec<i16>,
    pub best_move: Vec<i16>,
    pub best_mask: Vec<bool>,
    pub status: Vec<u8>,
    pub move_value: Vec<i8>,
    pub move_plies: Vec<i16>,
}

/// What to find for each row besides its value and plies.
#[derive(Debug, Clone, Copy)]
pub struct Wanted {
    /// Every best move (the children's entries are read).
    pub best: bool,
    /// Every move's value and plies.
    pub moves: bool,
}

/// Rows per piece of a batch; the stop flag is looked at between pieces.
const ROWS_A_PIECE: usize = 1 << 14;

impl Tiers {
    /// Labels rows of cell codes (`codes` holds `cells` codes a row: 0 empty, 1 X, 2 O) from
    /// `data` on `threads` workers. `monitor(rows done, rows)` as in `tiers::build`.
    pub fn label_rows(
        &self,
        data: &[u8],
        codes: &[u8],
        wanted: Wanted,
        threads: usize,
        monitor: impl FnMut(usize, usize) -> bool,
    ) -> Result<RowLabels> {
        Probe::new(self, data)?;
        let cells = self.cells;
        let rows = codes.len() / cells;
        let per_cell = |on: bool| if on { rows * cells } else { 0 };
        // Each piece of rows writes every item of its own slices of the columns. They start
        // zeroed, which costs nothing up front (fresh pages): the workers touch them in
        // parallel.
        let mut all = RowLabels {
            value: vec![0; rows],
            plies: vec![0; rows],
            best_move: vec![0; if wanted.best { rows } else { 0 }],
            best_mask: vec![false; per_cell(wanted.best)],
            status: vec![0; rows],
            move_value: vec![0; per_cell(wanted.moves)],
            move_plies: vec![0; per_cell(wanted.moves)],
        };
        advise_huge_pages(&mut all.value);
        advise_huge_pages(&mut all.plies);
        advise_huge_pages(&mut all.best_move);
        advise_huge_pages(&mut all.best_mask);
        advise_huge_pages(&mut all.status);
        advise_huge_pages(&mut all.move_value);
        advise_huge_pages(&mut all.move_plies);
        let count = rows.div_ceil(ROWS_A_PIECE);
        let per_row = ROWS_A_PIECE * cells;
        let pieces: Vec<Piece<'_>> = zip4(
            all.value.chunks_mut(ROWS_A_PIECE),
            all.plies.chunks_mut(ROWS_A_PIECE),
            slices(&mut all.best_move, ROWS_A_PIECE, count).into_iter(),
            all.status.chunks_mut(ROWS_A_PIECE),
        )
        .zip(slices(&mut all.best_mask, per_row, count))
        .zip(slices(&mut all.move_value, per_row, count))
        .zip(slices(&mut all.move_plies, per_row, count))
        .enumerate()
        .map(
            |(
                index,
                ((((value, plies, best_move, status), best_mask), move_value), move_plies),
            )| {
                Piece {
                    first: index * ROWS_A_PIECE,
                    value,
                    plies,
                    best_move,
                    status,
                    best_mask,
                    move_value,
                    move_plies,
                }
            },
        )
        .collect();
        tiers::in_pieces(
            pieces,
            rows,
            threads,
            || (),
            |(), mut piece, damaged| {
                let last = (piece.first + ROWS_A_PIECE).min(rows);
                let mut probe = Probe {
                    tiers: self,
                    data,
                    damaged: None,
                };
                probe.label_piece(
                    &codes[piece.first * cells..last * cells],
                    wanted,
                    &mut piece,
                );
                *damaged = probe.damaged;
                last - piece.first
            },
            monitor,
        )?;
        Ok(all)
    }
}

/// One piece of a batch: its first row and its slices of every column (empty slices for the
/// columns not wanted).
struct Piece<'a> {
    first: usize,
    value: &'a mut [i8],
    plies: &'a mut [i16],
    best_move: &'a mut [i16],
    status: &'a mut [u8],
    best_mask: &'a mut [bool],
    move_value: &'a mut [i8],
    move_plies: &'a mut [i16],
}

/// Four iterators in step.
fn zip4<A, B, C, D>(
    a: impl Iterator<Item = A>,
    b: impl Iterator<Item = B>,
    c: impl Iterator<Item = C>,
    d: impl Iterator<Item = D>,
) -> impl Iterator<Item = (A, B, C, D)> {
    a.zip(b).zip(c).zip(d).map(|(((a, b), c), d)| (a, b, c, d))
}

/// `count` slices of `per` items of a column, or `count` empty slices when the column is not
/// wanted (empty).
fn slices<T>(column: &mut [T], per: usize, count: usize) -> Vec<&mut [T]> {
    if column.is_empty() {
        (0..count).map(|_| &mut [][..]).collect()
    } else {
        column.chunks_mut(per).collect()
    }
}

impl Probe<'_> {
    /// Labels consecutive rows of codes (see `Tiers::label_rows`), a block of rows at a time.
    /// Each step reads the whole block before the next one starts: the table reads of many
    /// rows (and of their children) are independent, so their cache misses overlap instead of
    /// waiting one after another.
    fn label_piece(&mut self, codes: &[u8], wanted: Wanted, out: &mut Piece<'_>) {
        const ROWS_A_BLOCK: usize = 1024;
        let cells = self.tiers.cells;
        let mut indices: Vec<Option<(Board, usize)>> = Vec::with_capacity(ROWS_A_BLOCK);
        let mut entries: Vec<u8> = Vec::with_capacity(ROWS_A_BLOCK);
        let mut scored: Vec<Option<(Board, Score)>> = Vec::with_capacity(ROWS_A_BLOCK);
        let mut child_indices: Vec<usize> = Vec::with_capacity(ROWS_A_BLOCK * cells);
        let mut child_entries: Vec<u8> = Vec::with_capacity(ROWS_A_BLOCK * cells);
        let mut children = ChildRanks::new();
        for (block, block_codes) in codes.chunks(ROWS_A_BLOCK * cells).enumerate() {
            indices.clear();
            indices.extend(block_codes.chunks_exact(cells).map(|marks| {
                let (x, o) = read_codes(marks)?;
                let (xs, os) = (x.count_ones(), o.count_ones());
                (xs == os || xs == os + 1).then(|| {
                    let index = self.tiers.index(x, o);
                    prefetch(&self.data[index]);
                    (Board { x, o }, index)
                })
            }));
            entries.clear();
            entries.extend(
                indices
                    .iter()
                    .map(|at| at.map_or(UNREACHED, |(_, index)| self.data[index])),
            );
            scored.clear();
            for (at, &entry) in indices.iter().zip(&entries) {
                // None: a bad row, or a board no game reaches.
                scored.push(at.and_then(|(board, index)| {
                    let score = score_of(entry)?;
                    if score.unsigned_abs() > self.cells_left(&board) + 1 {
                        self.damaged
                            .get_or_insert_with(|| format!("entry {entry} at index {index}"));
                        return None;
                    }
                    Some((board, score))
                }));
            }
            child_indices.clear();
            if wanted.best || wanted.moves {
                for &(board, _) in scored.iter().flatten() {
                    let moves = self.moves(&board);
                    if moves != 0 {
                        let tier = (board.x | board.o).count_ones() as usize;
                        children.set(tier, board.x, board.o);
                        let next = self.tiers.offsets[tier + 1];
                        child_indices.extend(cells_of(moves).map(|cell| {
                            let index = next + children.rank(cell);
                            prefetch(&self.data[index]);
                            index
                        }));
                    }
                }
            }
            child_entries.clear();
            child_entries.extend(child_indices.iter().map(|&index| self.data[index]));
            let mut children_read = child_indices.iter().zip(&child_entries);
            for (row_in_block, known) in scored.iter().enumerate() {
                let row = block * ROWS_A_BLOCK + row_in_block;
                let cells_of_row = row * cells..(row + 1) * cells;
                // Items of the zeroed columns that are not 0 are written here: the sentinels
                // of a failed row, -1 plies for the cells that are no move.
                if wanted.moves {
                    out.move_plies[cells_of_row].fill(-1);
                }
                if wanted.best {
                    out.best_move[row] = -1;
                }
                let Some((board, score)) = *known else {
                    out.status[row] = 1;
                    out.plies[row] = -1;
                    continue;
                };
                let left = self.cells_left(&board);
                out.value[row] = score::value(score);
                out.plies[row] = score::plies(score, left) as i16;
                if !(wanted.best || wanted.moves) {
                    continue;
                }
                // The children were ranked in this order, a move at a time.
                for (cell, (&index, &entry)) in cells_of(self.moves(&board)).zip(&mut children_read)
                {
                    let child_score = self.checked(entry, index, left - 1);
                    let at = row * cells + cell as usize;
                    if -child_score == score && wanted.best {
                        if out.best_move[row] < 0 {
                            out.best_move[row] = i16::from(cell);
                        }
                        out.best_mask[at] = true;
                    }
                    if wanted.moves {
                        out.move_value[at] = -score::value(child_score);
                        out.move_plies[at] = 1 + score::plies(child_score, left - 1) as i16;
                    }
                }
            }
        }
    }
}

/// The X and O masks of one row of codes (0 empty, 1 X, 2 O), or none when a code is out of
/// 0..=2. Eight codes at a time: a code's bit 0 says X, its bit 1 says O, and one multiply
/// gathers the eight low bits of a word's bytes into its top byte, in order.
#[inline]
fn read_codes(marks: &[u8]) -> Option<(u64, u64)> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let (mut x, mut o, mut high) = (0u64, 0u64, 0u64);
    for (at, chunk) in marks.chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        high |= word & !(LOW | LOW << 1);
        x |= ((word & LOW).wrapping_mul(GATHER) >> 56) << (8 * at);
        o |= ((word >> 1 & LOW).wrapping_mul(GATHER) >> 56) << (8 * at);
    }
    (high == 0 && x & o == 0).then_some((x, o))
}

/// Builds the whole table of `tiers` on `threads` workers (see `tiers::build`).
pub fn build(
    tiers: &Tiers,
    threads: usize,
    monitor: impl FnMut(usize, usize) -> bool,
) -> Result<Vec<u8>> {
    tiers::build(tiers, threads, monitor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::error::Error;
    use crate::games::mnk::exhaustive::exhaustive_score;
    use std::collections::HashMap;

    #[test]
    fn ranks_and_positions_are_inverse() {
        let tiers = Tiers::new(3, 4, 3).unwrap();
        for index in (0..tiers.total()).step_by(7) {
            let (tier, x, o) = tiers.position(index);
            assert_eq!((x | o).count_ones() as usize, tier);
            assert_eq!(tiers.index(x, o), index);
        }
        assert_eq!(colex(0b1011), binom(3, 3)); // C(0,1) + C(1,2) + C(3,3) = 0 + 0 + 1
        assert_eq!(uncolex(colex(0b1_0010_0100), 3, 12), 0b1_0010_0100);
        let tables = rank_tables();
        for mask in (0..1u64 << 20).step_by(97) {
            assert_eq!(colex_by_bytes(tables, mask), colex(mask), "{mask:b}");
            let onto = mask ^ 0xa5a5a;
            assert_eq!(extract_by_bytes(tables, mask, onto), extract(mask, onto));
        }
    }

    #[test]
    fn rows_of_codes_read_as_a_cell_loop_reads_them() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for cells in 1..=MAX_CELLS {
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly codes 0..=2, now and then one of 3..=255.
                let marks: Vec<u8> = (0..cells)
                    .map(|cell| {
                        let bits = (seed >> (2 * cell % 60)) as u8;
                        if bits & 0x70 == 0x70 {
                            bits | 3
                        } else {
                            bits % 3
                        }
                    })
                    .collect();
                let expected = marks.iter().all(|&mark| mark <= 2).then(|| {
                    let mask = |code| {
                        (0..cells)
                            .filter(|&cell| marks[cell] == code)
                            .map(|cell| 1u64 << cell)
                            .sum()
                    };
                    (mask(1), mask(2))
                });
                assert_eq!(read_codes(&marks), expected, "{marks:?}");
            }
        }
    }

    #[test]
    fn counts_the_reachable_positions() {
        let reachable = |rows, cols, k| {
            let tiers = Tiers::new(rows, cols, k).unwrap();
            let table = build(&tiers, 2, |_, _| false).unwrap();
            table.iter().filter(|&&e| e != UNREACHED).count()
        };
        assert_eq!(reachable(3, 3, 3), 5478);
        assert_eq!(reachable(4, 3, 3), 111_973);
    }

    #[test]
    fn every_entry_equals_the_exhaustive_search() {
        let tiers = Tiers::new(3, 4, 3).unwrap();
        let table = build(&tiers, 2, |_, _| false).unwrap();
        let mut probe = Probe::new(&tiers, &table).unwrap();
        let mut memo = HashMap::new();
        for (index, &stored) in table.iter().enumerate() {
            let (_, x, o) = tiers.position(index);
            let board = Board { x, o };
            let legal = board.status(&tiers.geometry).is_ok();
            assert_eq!(stored != UNREACHED, legal, "index {index}");
            if legal {
                let (mine, theirs) = board.relative();
                let expected = exhaustive_score(&tiers.geometry, mine, theirs, &mut memo);
                assert_eq!(probe.score(board).unwrap(), expected, "index {index}");
            }
        }
    }

    #[test]
    fn threads_do_not_change_the_table_and_stats_are_symmetric() {
        let tiers = Tiers::new(3, 3, 3).unwrap();
        let one = build(&tiers, 1, |_, _| false).unwrap();
        assert_eq!(one, build(&tiers, 2, |_, _| false).unwrap());
        let stats = tiers.stats(&one, 2, |_, _| false).unwrap();
        let reachable: u64 = stats.counts.iter().flatten().sum();
        assert_eq!(reachable, 5478);
        assert_eq!(stats.canonical, 765); // tic-tac-toe up to symmetry
        assert_eq!(stats.longest.0, 9);
    }

    #[test]
    fn damaged_entries_are_errors() {
        let tiers = Tiers::new(3, 3, 3).unwrap();
        let mut table = build(&tiers, 1, |_, _| false).unwrap();
        table[0] = entry(30);
        let mut probe = Probe::new(&tiers, &table).unwrap();
        assert!(matches!(
            probe.solve(Board { x: 0, o: 0 }),
            Err(Error::Malformed(_))
        ));
        assert!(Probe::new(&tiers, &table[1..]).is_err());
        assert!(Tiers::new(3, 7, 3).is_err());
    }
}
