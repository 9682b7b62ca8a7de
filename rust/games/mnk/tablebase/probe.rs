//! Probing: the table as an answer source for the driver, and batch labels read straight
//! from it, a block of rows at a time.

use super::Tiers;
use super::rank::ChildRanks;
use crate::engine::budget::Stop;
use crate::engine::columns::{self, BAD, Columns, Rows};
use crate::engine::driver::{self, Answers, AsGiven, Game, MoveAnswer, Player, Rules, Solution};
use crate::engine::error::{Result, malformed};
use crate::engine::pool;
use crate::engine::score::{self, Score};
use crate::engine::table::prefetch;
use crate::engine::tiers::{UNREACHED, score_of};
use crate::engine::window::cells_of;
use crate::games::mnk::{Board, Geometry};
use crate::input::Item;
use crate::input::rows::RowsOf;
use std::ops::Range;

/// The table as an answer source over the m,n,k rules: every score is a lookup. An entry that cannot be the score of
/// its position (a damaged or forged file) is noted and reported after the driver is done.
pub struct Probe<'a> {
    tiers: &'a Tiers,
    data: &'a [u8],
    damaged: Option<String>,
}

impl<'a> Probe<'a> {
    /// A probe of `data`, which must hold every rank of `tiers`.
    pub fn new(tiers: &'a Tiers, data: &'a [u8]) -> Result<Probe<'a>> {
        tiers.data_fits(data)?;
        Ok(Probe {
            tiers,
            data,
            damaged: None,
        })
    }

    /// A probe of `data` at a board argument, legal and of the table's shape.
    pub fn at(tiers: &'a Tiers, data: &'a [u8], board: &Item) -> Result<(Probe<'a>, Board)> {
        let probe = Probe::new(tiers, data)?;
        let grid = crate::games::mnk::parse_board(board)?;
        let board = probe.board(grid.rows, grid.cols, &grid.cells)?;
        Ok((probe, board))
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

    /// `work` on the table's answers, a damaged entry met on the way an error.
    fn answered<T>(
        &mut self,
        work: impl FnOnce(&mut Game<'_, Geometry, Self>) -> std::result::Result<T, Stop>,
    ) -> Result<T> {
        let rules = &self.tiers.geometry;
        let result = work(&mut Game {
            rules,
            answers: &mut *self,
        });
        self.finish(result)
    }

    pub fn solve(&mut self, board: Board) -> Result<Solution> {
        let to_move = if board.x_to_move() {
            Player::First
        } else {
            Player::Second
        };
        self.answered(|game| driver::solve(game, &board, to_move, &AsGiven))
    }

    pub fn analyze(&mut self, board: Board) -> Result<Vec<MoveAnswer>> {
        self.answered(|game| driver::analyze(game, &board, &AsGiven))
    }

    /// Every legal move's answer, best first ([`driver::rank`]).
    pub fn ranked_moves(&mut self, board: Board) -> Result<Vec<MoveAnswer>> {
        let mut answers = self.analyze(board)?;
        driver::rank(&mut answers, |_| 0);
        Ok(answers)
    }

    /// The stored score of a legal board; an entry that cannot be its score is noted as
    /// damage (see `finish`) and read as a draw.
    fn lookup(&mut self, board: &Board) -> Score {
        let index = self.tiers.index(board.x, board.o);
        self.entry_at(index, self.tiers.geometry.cells_left(board))
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
    #[cfg(test)]
    pub fn score(&mut self, board: Board) -> Result<Score> {
        let result = self.exact(&self.tiers.geometry, &board);
        self.finish(result)
    }
}

impl Answers<Geometry> for Probe<'_> {
    fn exact(&mut self, _: &Geometry, board: &Board) -> std::result::Result<Score, Stop> {
        Ok(self.lookup(board))
    }

    fn nodes(&self) -> u64 {
        0
    }
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
    /// Labels rows of cell codes (0 empty, 1 X, 2 O; anything else is a bad row) from `data`
    /// on `threads` workers, into new columns. A bad row (a code out of range, or a board no
    /// game reaches) is failed. `monitor(rows done, rows)` as in `tiers::build`.
    pub fn label_rows(
        &self,
        data: &[u8],
        rows: &impl RowsOf<u8>,
        wanted: Wanted,
        threads: usize,
        monitor: impl FnMut(usize, usize) -> bool,
    ) -> Result<Columns> {
        Probe::new(self, data)?;
        let count = rows.len();
        let columns_wanted = columns::Wanted {
            best: wanted.best,
            moves: wanted.moves,
            nodes: false,
        };
        let mut columns = Columns::new(count, self.cells, columns_wanted)?;
        let damaged = pool::run(
            columns.split(ROWS_A_PIECE),
            count,
            threads,
            || Ok(None::<String>),
            |damaged, mut out, _| {
                let mut probe = Probe {
                    tiers: self,
                    data,
                    damaged: None,
                };
                let range = out.range();
                probe.label_piece(rows, range.clone(), wanted, &mut out);
                if damaged.is_none() {
                    *damaged = probe.damaged;
                }
                range.len()
            },
            monitor,
        )?;
        if let Some(why) = damaged.into_iter().flatten().next() {
            return malformed!("the tablebase data is damaged: {why}");
        }
        Ok(columns)
    }
}

impl Probe<'_> {
    /// Labels consecutive rows of codes (see `Tiers::label_rows`), a block of rows at a time.
    /// Each step reads the whole block before the next one starts: the table reads of many
    /// rows (and of their children) are independent, so their cache misses overlap instead of
    /// waiting one after another.
    fn label_piece(
        &mut self,
        rows: &impl RowsOf<u8>,
        range: Range<usize>,
        wanted: Wanted,
        out: &mut Rows<'_>,
    ) {
        const ROWS_A_BLOCK: usize = 1024;
        let cells = self.tiers.cells;
        let rules = &self.tiers.geometry;
        let mut codes = vec![0u8; ROWS_A_BLOCK * cells];
        let mut indices: Vec<Option<(Board, usize)>> = Vec::with_capacity(ROWS_A_BLOCK);
        let mut entries: Vec<u8> = Vec::with_capacity(ROWS_A_BLOCK);
        let mut scored: Vec<Option<(Board, Score)>> = Vec::with_capacity(ROWS_A_BLOCK);
        let mut child_indices: Vec<usize> = Vec::with_capacity(ROWS_A_BLOCK * cells);
        let mut child_entries: Vec<u8> = Vec::with_capacity(ROWS_A_BLOCK * cells);
        let mut children = ChildRanks::new();
        for first in range.clone().step_by(ROWS_A_BLOCK) {
            let last = (first + ROWS_A_BLOCK).min(range.end);
            // Each row is read once, into this block's copy.
            let block_codes = &mut codes[..(last - first) * cells];
            for (row, marks) in (first..last).zip(block_codes.chunks_exact_mut(cells)) {
                rows.read(row, marks);
            }
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
                    if score.unsigned_abs() > rules.cells_left(&board) + 1 {
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
                    let moves = rules.moves(&board);
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
            for (row, known) in (first..).zip(&scored) {
                let Some((board, score)) = *known else {
                    out.fail(row, BAD);
                    continue;
                };
                let left = rules.cells_left(&board);
                out.solved(row, score::value(score), score::plies(score, left), 0);
                if !(wanted.best || wanted.moves) {
                    continue;
                }
                // The children were ranked in this order, a move at a time.
                for (cell, (&index, &entry)) in
                    cells_of(rules.moves(&board)).zip(&mut children_read)
                {
                    let child_score = self.checked(entry, index, left - 1);
                    if -child_score == score {
                        out.best(row, cell.into());
                    }
                    out.answer(
                        row,
                        cell.into(),
                        -score::value(child_score),
                        1 + score::plies(child_score, left - 1),
                    );
                }
            }
        }
    }
}

/// The X and O masks of one row of codes (0 empty, 1 X, 2 O), or none when a code is out of
/// 0..=2. Eight codes at a time: a code's bit 0 says X, its bit 1 says O, and one multiply
/// gathers the eight low bits of a word's bytes into its top byte, in order.
#[inline]
pub fn read_codes(marks: &[u8]) -> Option<(u64, u64)> {
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
