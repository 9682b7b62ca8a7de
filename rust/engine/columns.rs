//! The one writer of batch results: the columns of a `perfectplay.BatchSolution`, allocated
//! once (fallibly, zeroed), cut into runs of rows that workers fill in place.
//!
//! A row is either labelled ([`Rows::label`], or the field writers for fast paths) or failed
//! ([`Rows::fail`]: value 0, plies -1, best move -1, no best move, no move answers). Columns not
//! asked for are empty: no best-move columns for a values-only probe, no move answers without
//! `moves`, no node counts for table answers.

use crate::engine::driver::Label;
use crate::engine::memory::{HEADROOM, OutOfMemory, headroom, zeroed};
use crate::engine::window::cells_of;

/// Status codes of a row.
pub const OK: u8 = 0;
pub const BAD: u8 = 1;
pub const LIMIT: u8 = 2;

/// Which columns a batch fills besides value, plies and status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    /// `best_move` and `best_mask`.
    pub best: bool,
    /// `move_value` and `move_plies`.
    pub moves: bool,
    /// `nodes`.
    pub nodes: bool,
}

/// Every column of a batch: one item a row, or `moves_per_row` items a row for the mask and
/// the move answers (cells, or columns for Connect Four).
#[derive(Debug)]
pub struct Columns {
    pub rows: usize,
    pub moves_per_row: usize,
    pub value: Vec<i8>,
    pub plies: Vec<i16>,
    pub best_move: Vec<i16>,
    pub best_mask: Vec<bool>,
    pub status: Vec<u8>,
    pub nodes: Vec<u64>,
    pub move_value: Vec<i8>,
    pub move_plies: Vec<i16>,
}

impl Columns {
    pub fn new(rows: usize, moves_per_row: usize, wanted: Wanted) -> Result<Columns, OutOfMemory> {
        let per_row = |on: bool| {
            if on {
                rows.saturating_mul(moves_per_row)
            } else {
                0
            }
        };
        let columns = Columns {
            rows,
            moves_per_row,
            value: zeroed(rows)?,
            plies: zeroed(rows)?,
            best_move: zeroed(if wanted.best { rows } else { 0 })?,
            best_mask: zeroed(per_row(wanted.best))?,
            status: zeroed(rows)?,
            nodes: zeroed(if wanted.nodes { rows } else { 0 })?,
            move_value: zeroed(per_row(wanted.moves))?,
            move_plies: zeroed(per_row(wanted.moves))?,
        };
        // The rows' work needs a little more: refused now, not aborted at a row. Columns that
        // small take too little to matter, and the look would cost a small batch its time.
        if columns.bytes() >= HEADROOM {
            headroom()?;
        }
        Ok(columns)
    }

    /// The memory the columns take.
    fn bytes(&self) -> usize {
        fn of<T>(column: &[T]) -> usize {
            size_of_val(column)
        }
        of(&self.value)
            + of(&self.plies)
            + of(&self.best_move)
            + of(&self.best_mask)
            + of(&self.status)
            + of(&self.nodes)
            + of(&self.move_value)
            + of(&self.move_plies)
    }

    /// Copies row `from` (labelled or failed) to row `to`: equal rows of a batch are solved
    /// once.
    pub fn copy_row(&mut self, from: usize, to: usize) {
        fn copy<T: Copy>(column: &mut [T], width: usize, from: usize, to: usize) {
            if !column.is_empty() {
                column.copy_within(from * width..(from + 1) * width, to * width);
            }
        }
        let width = self.moves_per_row;
        copy(&mut self.value, 1, from, to);
        copy(&mut self.plies, 1, from, to);
        copy(&mut self.status, 1, from, to);
        copy(&mut self.best_move, 1, from, to);
        copy(&mut self.nodes, 1, from, to);
        copy(&mut self.best_mask, width, from, to);
        copy(&mut self.move_value, width, from, to);
        copy(&mut self.move_plies, width, from, to);
    }

    /// Every row as one run.
    #[cfg(test)]
    pub fn all(&mut self) -> Rows<'_> {
        if self.rows == 0 {
            return Rows::empty(self.moves_per_row);
        }
        let rows = self.rows;
        self.split(rows).pop().expect("one run of every row")
    }

    /// Runs of `per` rows (the last one shorter), in order.
    pub fn split(&mut self, per: usize) -> Vec<Rows<'_>> {
        let per = per.max(1);
        let count = self.rows.div_ceil(per);
        let width = self.moves_per_row;
        let mut value = self.value.chunks_mut(per);
        let mut plies = self.plies.chunks_mut(per);
        let mut status = self.status.chunks_mut(per);
        let mut best_move = chunks(&mut self.best_move, per, count);
        let mut nodes = chunks(&mut self.nodes, per, count);
        let mut best_mask = chunks(&mut self.best_mask, per * width, count);
        let mut move_value = chunks(&mut self.move_value, per * width, count);
        let mut move_plies = chunks(&mut self.move_plies, per * width, count);
        (0..count)
            .map(|index| Rows {
                first: index * per,
                width,
                value: value.next().unwrap_or_default(),
                plies: plies.next().unwrap_or_default(),
                status: status.next().unwrap_or_default(),
                best_move: best_move.next().unwrap_or_default(),
                nodes: nodes.next().unwrap_or_default(),
                best_mask: best_mask.next().unwrap_or_default(),
                move_value: move_value.next().unwrap_or_default(),
                move_plies: move_plies.next().unwrap_or_default(),
            })
            .collect()
    }
}

/// `count` runs of a column, or `count` empty runs when the column is not wanted.
fn chunks<T>(column: &mut [T], per: usize, count: usize) -> std::vec::IntoIter<&mut [T]> {
    if column.is_empty() {
        (0..count)
            .map(|_| &mut [][..])
            .collect::<Vec<_>>()
            .into_iter()
    } else {
        column.chunks_mut(per).collect::<Vec<_>>().into_iter()
    }
}

/// A run of consecutive rows of every column; rows are numbered as in the whole batch.
#[derive(Debug)]
pub struct Rows<'a> {
    first: usize,
    width: usize,
    value: &'a mut [i8],
    plies: &'a mut [i16],
    status: &'a mut [u8],
    best_move: &'a mut [i16],
    nodes: &'a mut [u64],
    best_mask: &'a mut [bool],
    move_value: &'a mut [i8],
    move_plies: &'a mut [i16],
}

impl<'a> Rows<'a> {
    #[cfg(test)]
    fn empty(width: usize) -> Rows<'a> {
        Rows {
            first: 0,
            width,
            value: &mut [],
            plies: &mut [],
            status: &mut [],
            best_move: &mut [],
            nodes: &mut [],
            best_mask: &mut [],
            move_value: &mut [],
            move_plies: &mut [],
        }
    }

    /// The first row of the run, and how many rows it has.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.value.len()
    }

    /// Value, plies and node count of a solved row, status OK; the best moves and the move
    /// answers are set apart ([`Rows::best`], [`Rows::answer`]). Every move's answer starts as
    /// "no legal move" (plies -1).
    #[inline]
    pub fn solved(&mut self, row: usize, value: i8, plies: u32, nodes: u64) {
        let at = row - self.first;
        self.value[at] = value;
        self.plies[at] = plies as i16;
        self.status[at] = OK;
        if !self.nodes.is_empty() {
            self.nodes[at] = nodes;
        }
        if !self.best_move.is_empty() {
            self.best_move[at] = -1;
        }
        if !self.move_plies.is_empty() {
            self.move_plies[at * self.width..(at + 1) * self.width].fill(-1);
        }
    }

    /// Marks `mv` a best move of a solved row (the first one marked, in ascending order, is
    /// `best_move`).
    #[inline]
    pub fn best(&mut self, row: usize, mv: usize) {
        let at = row - self.first;
        if self.best_move.is_empty() {
            return;
        }
        if self.best_move[at] < 0 || mv < self.best_move[at] as usize {
            self.best_move[at] = mv as i16;
        }
        self.best_mask[at * self.width + mv] = true;
    }

    /// The answer of the legal move `mv` of a solved row.
    #[inline]
    pub fn answer(&mut self, row: usize, mv: usize, value: i8, plies: u32) {
        if self.move_value.is_empty() {
            return;
        }
        let at = (row - self.first) * self.width + mv;
        self.move_value[at] = value;
        self.move_plies[at] = plies as i16;
    }

    /// A whole label from the driver: its best moves, and the one of them the game prefers as
    /// `best_move`.
    pub fn label(&mut self, row: usize, label: &Label) {
        self.solved(row, label.value, label.plies, label.nodes);
        if !self.best_move.is_empty() {
            let at = row - self.first;
            self.best_move[at] = label.best_move.map_or(-1, i16::from);
            for mv in cells_of(label.best) {
                self.best_mask[at * self.width + usize::from(mv)] = true;
            }
        }
        for answer in &label.moves {
            self.answer(row, answer.cell as usize, answer.value, answer.plies);
        }
    }

    /// A row without an answer: `status` (BAD or LIMIT) and the sentinels.
    #[inline]
    pub fn fail(&mut self, row: usize, status: u8) {
        let at = row - self.first;
        self.value[at] = 0;
        self.plies[at] = -1;
        self.status[at] = status;
        if !self.nodes.is_empty() {
            self.nodes[at] = 0;
        }
        let cells = at * self.width..(at + 1) * self.width;
        if !self.best_move.is_empty() {
            self.best_move[at] = -1;
            self.best_mask[cells.clone()].fill(false);
        }
        if !self.move_value.is_empty() {
            self.move_value[cells.clone()].fill(0);
            self.move_plies[cells].fill(-1);
        }
    }

    /// A labelled row copied from fixed arrays (tic-tac-toe's table): the best-move mask and the
    /// move answers as they are, `best_move` as given.
    #[inline]
    pub fn copy(
        &mut self,
        row: usize,
        scalars: (i8, i16, i16),
        mask: &[bool],
        moves: (&[i8], &[i16]),
    ) {
        let at = row - self.first;
        let cells = at * self.width..(at + 1) * self.width;
        (self.value[at], self.plies[at], self.status[at]) = (scalars.0, scalars.1, OK);
        if !self.best_move.is_empty() {
            self.best_move[at] = scalars.2;
            self.best_mask[cells.clone()].copy_from_slice(mask);
        }
        if !self.move_value.is_empty() {
            self.move_value[cells.clone()].copy_from_slice(moves.0);
            self.move_plies[cells].copy_from_slice(moves.1);
        }
    }
}

/// The columns, for workers that write rows scattered over the whole batch at once (the
/// batch of the searching games solves rows in an order of its own). Every row must be
/// written by one worker only: see [`Scattered::row`].
pub struct Scattered<'a> {
    width: usize,
    rows: usize,
    value: *mut i8,
    plies: *mut i16,
    status: *mut u8,
    best_move: Option<*mut i16>,
    nodes: Option<*mut u64>,
    best_mask: Option<*mut bool>,
    moves: Option<(*mut i8, *mut i16)>,
    _columns: std::marker::PhantomData<&'a mut Columns>,
}

// SAFETY: it hands out views of disjoint rows only (the contract of `row`), like `chunks_mut`
// handing disjoint chunks to threads.
unsafe impl Send for Scattered<'_> {}
// SAFETY: as above.
unsafe impl Sync for Scattered<'_> {}

impl<'a> Scattered<'a> {
    pub fn new(columns: &'a mut Columns) -> Scattered<'a> {
        let some = |on: bool| on.then_some(());
        Scattered {
            width: columns.moves_per_row,
            rows: columns.rows,
            value: columns.value.as_mut_ptr(),
            plies: columns.plies.as_mut_ptr(),
            status: columns.status.as_mut_ptr(),
            best_move: some(!columns.best_move.is_empty()).map(|()| columns.best_move.as_mut_ptr()),
            nodes: some(!columns.nodes.is_empty()).map(|()| columns.nodes.as_mut_ptr()),
            best_mask: some(!columns.best_mask.is_empty()).map(|()| columns.best_mask.as_mut_ptr()),
            moves: some(!columns.move_value.is_empty()).map(|()| {
                (
                    columns.move_value.as_mut_ptr(),
                    columns.move_plies.as_mut_ptr(),
                )
            }),
            _columns: std::marker::PhantomData,
        }
    }

    /// Row `row` of every column, as a run of one row.
    ///
    /// # Safety
    /// No other view of the same row may exist at the same time: each row is handed to one
    /// worker only.
    pub unsafe fn row(&self, row: usize) -> Rows<'_> {
        assert!(row < self.rows, "row {row} of {}", self.rows);
        let width = self.width;
        // SAFETY: `row` is in bounds (checked), each pointer covers the whole column it came
        // from (one item a row, or `width` items a row), the columns outlive `'a`, and the
        // caller promises that no other view of this row exists.
        unsafe {
            let one = |pointer: *mut i8| std::slice::from_raw_parts_mut(pointer.add(row), 1);
            Rows {
                first: row,
                width,
                value: one(self.value),
                plies: std::slice::from_raw_parts_mut(self.plies.add(row), 1),
                status: std::slice::from_raw_parts_mut(self.status.add(row), 1),
                best_move: self.best_move.map_or(&mut [][..], |p| {
                    std::slice::from_raw_parts_mut(p.add(row), 1)
                }),
                nodes: self.nodes.map_or(&mut [][..], |p| {
                    std::slice::from_raw_parts_mut(p.add(row), 1)
                }),
                best_mask: self.best_mask.map_or(&mut [][..], |p| {
                    std::slice::from_raw_parts_mut(p.add(row * width), width)
                }),
                move_value: self.moves.map_or(&mut [][..], |(p, _)| {
                    std::slice::from_raw_parts_mut(p.add(row * width), width)
                }),
                move_plies: self.moves.map_or(&mut [][..], |(_, p)| {
                    std::slice::from_raw_parts_mut(p.add(row * width), width)
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::driver::MoveAnswer;

    #[test]
    fn runs_write_their_own_rows() {
        let wanted = Wanted {
            best: true,
            moves: true,
            nodes: true,
        };
        let mut columns = Columns::new(5, 3, wanted).unwrap();
        for mut rows in columns.split(2) {
            for row in rows.range() {
                if row == 3 {
                    rows.fail(row, BAD);
                    continue;
                }
                let label = Label {
                    value: 1,
                    plies: row as u32,
                    best: 0b110,
                    best_move: Some(2),
                    moves: vec![MoveAnswer {
                        cell: 1,
                        value: 1,
                        plies: 2,
                    }],
                    nodes: 9,
                };
                rows.label(row, &label);
            }
        }
        assert_eq!(columns.plies, vec![0, 1, 2, -1, 4]);
        assert_eq!(columns.best_move, vec![2, 2, 2, -1, 2]);
        assert_eq!(columns.status, vec![OK, OK, OK, BAD, OK]);
        assert_eq!(&columns.move_plies[..3], &[-1, 2, -1]);
        assert_eq!(&columns.best_mask[9..12], &[false; 3]);
        let mut values_only = Columns::new(
            4,
            9,
            Wanted {
                best: false,
                moves: false,
                nodes: false,
            },
        )
        .unwrap();
        values_only.all().solved(2, -1, 3, 0);
        assert!(values_only.best_mask.is_empty() && values_only.nodes.is_empty());
        assert_eq!(values_only.value[2], -1);
    }
}
