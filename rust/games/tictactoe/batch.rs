//! Batch lookups: rows of 9 cell codes (a numpy array read in place) to per-code answers.
//!
//! Every row is read once, into a copy, and everything about it (its code, or what is wrong
//! with it) comes from that copy: an array another thread changes meanwhile gives each row one
//! consistent answer, never a contradiction.

use crate::engine::batch::{FirstBad, OnError, raise_first_bad};
use crate::engine::columns::{BAD, Columns, Wanted};
use crate::engine::driver::{self, AsGiven, Game};
use crate::engine::error::{Error, Result};
use crate::engine::memory::zeroed;
use crate::engine::pool::{self, Monitor};
use crate::games::mnk::solved::{
    self, CELLS, CODES, NOT_LEGAL, POW3, board_of_code, illegal_reason, table,
};
use crate::games::tictactoe::code_of;
use crate::input::rows::{CodeRows, Packed, Rows, RowsOf};
use std::sync::OnceLock;

/// What a batch row copies for its code: built once from the solved table.
pub struct Labels {
    pub value: Box<[i8]>,
    pub plies: Box<[i16]>,
    /// The best moves as bits of cells (empty for a final position).
    pub best: Box<[u16]>,
    /// What a batch row copies, packed in 16 bytes so a row reads one cache line.
    pub row: Box<[RowLabel]>,
    /// For each cell: the value of that move for its player, 0 where it is no legal move.
    pub move_value: Box<[[i8; CELLS]]>,
    /// For each cell: the plies from now with that move, -1 where it is no legal move.
    pub move_plies: Box<[[i16; CELLS]]>,
}

/// One code's batch row: value, plies, first best move and the best-move mask.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub struct RowLabel {
    pub value: i8,
    pub plies: i16,
    pub best_move: i16,
    pub best: [bool; CELLS],
}

/// Every legal code's label, with every move's answer (about 0.6 MiB, built on first use).
pub fn labels() -> &'static Labels {
    static LABELS: OnceLock<Labels> = OnceLock::new();
    LABELS.get_or_init(|| {
        let unset = RowLabel {
            value: 0,
            plies: -1,
            best_move: -1,
            best: [false; CELLS],
        };
        let mut labels = Labels {
            value: vec![NOT_LEGAL; CODES].into_boxed_slice(),
            plies: vec![-1; CODES].into_boxed_slice(),
            best: vec![0; CODES].into_boxed_slice(),
            row: vec![unset; CODES].into_boxed_slice(),
            move_value: vec![[0; CELLS]; CODES].into_boxed_slice(),
            move_plies: vec![[-1; CELLS]; CODES].into_boxed_slice(),
        };
        let mut lookup = table().lookup();
        let mut game = Game {
            rules: solved::geometry(),
            answers: &mut lookup,
        };
        for code in (0..CODES).filter(|&code| table().is_reachable(code)) {
            let label = driver::label(&mut game, &board_of_code(code), true, &AsGiven)
                .expect("a table lookup never stops");
            labels.value[code] = label.value;
            labels.plies[code] = label.plies as i16;
            labels.best[code] = label.best as u16;
            let row = &mut labels.row[code];
            (row.value, row.plies) = (label.value, label.plies as i16);
            for (cell, slot) in row.best.iter_mut().enumerate() {
                *slot = label.best >> cell & 1 == 1;
            }
            if label.best != 0 {
                row.best_move = label.best.trailing_zeros() as i16;
            }
            for answer in label.moves {
                labels.move_value[code][answer.cell as usize] = answer.value;
                labels.move_plies[code][answer.cell as usize] = answer.plies as i16;
            }
        }
        labels
    })
}

/// A cell value of a batch array: its mark (0, 1, 2) or `None` when out of range, and the code
/// of a row of them.
pub trait CellCode: Copy + std::fmt::Display + Send + Sync {
    const ZERO: Self;
    fn mark(self) -> Option<u8>;

    /// The code of a row, `None` if a cell is out of range.
    #[inline]
    fn code(row: &[Self; CELLS]) -> Option<usize> {
        row.iter()
            .zip(POW3)
            .try_fold(0usize, |sum, (&value, weight)| {
                Some(sum + usize::from(value.mark()?) * weight as usize)
            })
    }
}

macro_rules! cell_code {
    ($($t:ty),*) => {$(
        impl CellCode for $t {
            const ZERO: Self = 0;
            #[inline]
            fn mark(self) -> Option<u8> {
                (0..=2).contains(&self).then_some(self as u8)
            }
        }
    )*};
}
cell_code!(i8, u16, i16, u32, i32, u64, i64);

impl CellCode for u8 {
    const ZERO: Self = 0;
    #[inline]
    fn mark(self) -> Option<u8> {
        (self <= 2).then_some(self)
    }

    /// Eight cells at a time: the bytes are read as one `u64` and turned into base 3 by
    /// pairwise multiply-adds (SWAR), several times fewer instructions than nine separate ones.
    #[inline]
    fn code(row: &[u8; CELLS]) -> Option<usize> {
        const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
        const LOW_PAIRS: u64 = 0x0000_ffff_0000_ffff;
        const ONES: u64 = 0x0101_0101_0101_0101;
        let first = u64::from_le_bytes([
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7],
        ]);
        let last = row[8];
        // A byte above 2 has a bit above the lowest two, or both of them set (3).
        if first & !(ONES * 3) != 0 || first & (first >> 1) & ONES != 0 || last > 2 {
            return None;
        }
        let pairs = (first & LOW_BYTES) + 3 * ((first >> 8) & LOW_BYTES);
        let quads = (pairs & LOW_PAIRS) + 9 * ((pairs >> 16) & LOW_PAIRS);
        Some(((quads & 0xffff_ffff) + 81 * (quads >> 32) + 6561 * u64::from(last)) as usize)
    }
}

/// One row of a batch, read once.
#[inline]
fn read_row<T: CellCode, R: RowsOf<T> + ?Sized>(rows: &R, row: usize) -> [T; CELLS] {
    let mut cells = [T::ZERO; CELLS];
    rows.read(row, &mut cells);
    cells
}

/// The code of a legal row, or what is wrong with it.
pub fn legal_code<T: CellCode>(row: &[T; CELLS]) -> std::result::Result<usize, Error> {
    match T::code(row) {
        Some(code) if table().is_reachable(code) => Ok(code),
        Some(code) => Err(illegal_reason(code)),
        None => {
            let bad = row.iter().find(|value| value.mark().is_none());
            let bad = bad.expect("a row without a code has a cell out of range");
            Err(Error::Malformed(format!(
                "cell value {bad} is not 0, 1 or 2"
            )))
        }
    }
}

/// A sequence's boards as rows of 9 codes (each read as [`code_of`] reads it; a bad row's
/// cells all 3, which no board has), and the first bad row with its error.
fn rows_of_items(rows: &Rows) -> Result<(Vec<u8>, FirstBad)> {
    let count = rows.count().unwrap_or(1);
    let mut cells = zeroed::<u8>(count.saturating_mul(CELLS))?;
    let mut first_bad = None;
    for (row, out) in cells.chunks_mut(CELLS).enumerate() {
        let code = rows.item(row).and_then(|item| code_of(&item));
        let legal = code.and_then(|code| {
            if table().is_reachable(code) {
                Ok(code)
            } else {
                Err(illegal_reason(code))
            }
        });
        match legal {
            Ok(code) => {
                for (slot, power) in out.iter_mut().zip(POW3) {
                    *slot = (code / power as usize % 3) as u8;
                }
            }
            Err(error) => {
                out.fill(3);
                first_bad.get_or_insert((row, error));
            }
        }
    }
    Ok((cells, first_bad))
}

/// A batch's boards as rows of codes, given to `work`: an array's, of shape (N, 9) or
/// (N, 3, 3), read in place; a sequence's read board by board (as [`code_of`] reads one), its
/// first bad board raised unless `on_error` masks it (a bad row is all 3s, which no board has).
fn with_code_rows<T>(
    rows: &Rows,
    on_error: OnError,
    work: impl FnOnce(&CodeRows<'_>) -> Result<T>,
) -> Result<T> {
    if let Rows::Array { reader, board } = rows {
        if !matches!(board[..], [9] | [3, 3]) {
            let shape: Vec<usize> = std::iter::once(reader.len()).chain(board.clone()).collect();
            return Err(Error::Malformed(format!(
                "boards must have shape (N, 9) or (N, 3, 3), got {shape:?}"
            )));
        }
        return work(&CodeRows::Values(reader));
    }
    let (codes, first_bad) = rows_of_items(rows)?;
    raise_first_bad(first_bad, on_error)?;
    let cells = &codes;
    work(&CodeRows::Packed(Packed {
        cells,
        width: CELLS,
    }))
}

/// Every board's label, with every move's answer when `moves`, on every core (see
/// [`label_rows`]); the first bad board raises unless `on_error` masks it.
pub fn solve_rows(
    rows: &Rows,
    moves: bool,
    on_error: OnError,
    monitor: Monitor<'_>,
) -> Result<Columns> {
    let labelled = |rows: &CodeRows<'_>| label_rows(rows, moves, pool::cpus(), monitor);
    let (columns, first_bad) = with_code_rows(rows, on_error, labelled)?;
    raise_first_bad(first_bad, on_error)?;
    Ok(columns)
}

/// Every board's entry of `per_code` (see [`lookup_rows`]); the first bad board raises.
pub fn lookup(rows: &Rows, per_code: &[i8]) -> Result<Vec<i8>> {
    with_code_rows(rows, OnError::Raise, |rows| {
        let mut out = zeroed::<i8>(rows.len())?;
        lookup_rows(rows, per_code, &mut out).map(|()| out)
    })
}

/// Rows a worker takes at a time.
const ROWS_A_PIECE: usize = 1 << 16;

/// Every row's label copied from [`labels`] into new columns, on up to `threads` workers of
/// the pool; a bad row is failed (status 1, the sentinels). Returns the columns and the first
/// bad row with its error. `monitor` as in `pool::run`.
pub fn label_rows<T: CellCode, R: RowsOf<T> + ?Sized>(
    rows: &R,
    moves: bool,
    threads: usize,
    monitor: impl FnMut(usize, usize) -> bool,
) -> Result<(Columns, FirstBad)> {
    let count = rows.len();
    let wanted = Wanted {
        best: true,
        moves,
        nodes: false,
    };
    let mut columns = Columns::new(count, CELLS, wanted)?;
    let labels = labels();
    let states = pool::run(
        columns.split(ROWS_A_PIECE),
        count,
        threads,
        || Ok(None::<(usize, Error)>),
        |first_bad, mut out, _| {
            let range = out.range();
            for row in range.clone() {
                let cells = read_row(rows, row);
                match legal_code(&cells) {
                    Ok(code) => {
                        let label = &labels.row[code];
                        out.copy(
                            row,
                            (label.value, label.plies, label.best_move),
                            &label.best,
                            (&labels.move_value[code], &labels.move_plies[code]),
                        );
                    }
                    Err(error) => {
                        out.fail(row, BAD);
                        if first_bad.is_none() {
                            *first_bad = Some((row, error));
                        }
                    }
                }
            }
            range.len()
        },
        monitor,
    )?;
    let first_bad = states.into_iter().flatten().min_by_key(|(row, _)| *row);
    Ok((columns, first_bad))
}

/// `out[r] = per_code[code of row r]` (`per_code` is `Table::value` or `Table::best_move`);
/// stops at the first bad row, its error `InRow`.
pub fn lookup_rows<T: CellCode, R: RowsOf<T> + ?Sized>(
    rows: &R,
    per_code: &[i8],
    out: &mut [i8],
) -> Result<()> {
    for (row, slot) in out.iter_mut().enumerate().take(rows.len()) {
        let cells = read_row(rows, row);
        let answer = T::code(&cells).map_or(NOT_LEGAL, |code| per_code[code]);
        if answer == NOT_LEGAL {
            let error = legal_code(&cells).expect_err("a row without an answer is bad");
            return Err(Error::InRow(row, Box::new(error)));
        }
        *slot = answer;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::columns::OK;
    use crate::input::rows::Packed;

    fn packed<T>(cells: &[T]) -> Packed<'_, T> {
        Packed {
            cells,
            width: CELLS,
        }
    }

    #[test]
    fn codes_mark_each_bad_row_and_agree_eight_at_a_time() {
        let rows: Vec<u8> = [
            [0u8; 9],
            [1, 1, 1, 0, 0, 0, 0, 0, 0],
            [3; 9],
            [1, 0, 0, 0, 0, 0, 0, 0, 0],
        ]
        .concat();
        let wide: Vec<i64> = rows.iter().map(|&v| i64::from(v)).collect();
        let (narrow, wide) = (packed(&rows), packed(&wide));
        for row in 0..4 {
            assert_eq!(
                legal_code(&read_row(&narrow, row)),
                legal_code(&read_row(&wide, row))
            );
        }
        assert!(matches!(
            legal_code(&read_row(&narrow, 1)),
            Err(Error::Illegal(_))
        ));
        assert!(matches!(
            legal_code(&read_row(&narrow, 2)),
            Err(Error::Malformed(_))
        ));
        // Split over threads or not, the same columns.
        let many: Vec<u8> = rows.repeat(50_000);
        let (one, bad_one) = label_rows(&packed(&many), true, 1, |_, _| false).unwrap();
        let (two, bad_two) = label_rows(&packed(&many), true, 3, |_, _| false).unwrap();
        assert_eq!(one.status, two.status);
        assert_eq!(one.best_mask, two.best_mask);
        assert_eq!(one.move_plies, two.move_plies);
        assert_eq!(bad_one.map(|b| b.0), Some(1));
        assert_eq!(bad_two.map(|b| b.0), Some(1));
        assert_eq!(&one.status[..4], &[OK, BAD, BAD, OK]);
        assert_eq!(one.best_mask.len(), 200_000 * 9);
        assert_eq!(labels().plies[0], 9);
        assert_eq!(labels().best[0], 0x1ff);
    }

    #[test]
    fn eight_at_a_time_reads_every_row_like_one_at_a_time() {
        for code in 0..CODES {
            let row: [u8; CELLS] =
                std::array::from_fn(|cell| (code / 3usize.pow(cell as u32) % 3) as u8);
            let wide: [i64; CELLS] = row.map(i64::from);
            assert_eq!(u8::code(&row), Some(code));
            assert_eq!(i64::code(&wide), Some(code));
        }
        for bad in [3u8, 4, 7, 128, 255] {
            for cell in 0..CELLS {
                let mut row = [0u8; CELLS];
                row[cell] = bad;
                assert_eq!(u8::code(&row), None, "{bad} at {cell}");
            }
        }
        let mut out = [0i8; 2];
        let rows: Vec<u8> = [[0u8; 9], [1, 1, 1, 0, 0, 0, 0, 0, 0]].concat();
        let bad = lookup_rows(&packed(&rows), &table().value, &mut out).unwrap_err();
        assert!(matches!(bad, Error::InRow(1, _)), "{bad}");
    }
}
