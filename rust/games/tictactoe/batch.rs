//! Batch lookups: rows of 9 cell codes (a numpy array read in place) to per-code answers.

use crate::engine::driver::{self, AsGiven};
use crate::engine::error::Error;
use crate::engine::table::advise_huge_pages;
use crate::games::mnk::solved::{CELLS, CODES, NOT_LEGAL, POW3, illegal_reason, table};
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

/// One code's batch row: value, plies, first best move, status and the best-move mask.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub struct RowLabel {
    pub value: i8,
    pub status: u8,
    pub plies: i16,
    pub best_move: i16,
    pub best: [bool; CELLS],
}

impl RowLabel {
    /// A bad row's sentinels.
    const BAD: RowLabel = RowLabel {
        value: 0,
        status: 1,
        plies: -1,
        best_move: -1,
        best: [false; CELLS],
    };
}

/// Every legal code's label, with every move's answer (about 0.6 MiB, built on first use).
pub fn labels() -> &'static Labels {
    static LABELS: OnceLock<Labels> = OnceLock::new();
    LABELS.get_or_init(|| {
        let mut labels = Labels {
            value: vec![NOT_LEGAL; CODES].into_boxed_slice(),
            plies: vec![-1; CODES].into_boxed_slice(),
            best: vec![0; CODES].into_boxed_slice(),
            row: vec![RowLabel::BAD; CODES].into_boxed_slice(),
            move_value: vec![[0; CELLS]; CODES].into_boxed_slice(),
            move_plies: vec![[-1; CELLS]; CODES].into_boxed_slice(),
        };
        for code in (0..CODES).filter(|&code| table().is_reachable(code)) {
            let label = driver::label(&mut table().lookup(), &code, true, &AsGiven)
                .expect("a table lookup never stops");
            labels.value[code] = label.value;
            labels.plies[code] = label.plies as i16;
            labels.best[code] = label.best as u16;
            let row = &mut labels.row[code];
            (row.value, row.plies, row.status) = (label.value, label.plies as i16, 0);
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

/// The code of a row that is malformed or not a legal position.
pub const BAD_ROW: u16 = u16::MAX;

/// What is wrong with a bad row of 9 cells.
pub fn row_error<T: CellCode>(chunk: &[T]) -> Error {
    let mut out = [0i8];
    match lookup_rows(chunk, &table().value, &mut out) {
        Err(bad) => bad.error,
        Ok(()) => unreachable!("a bad row"),
    }
}

fn legal_code(code: usize) -> u16 {
    if table().is_reachable(code) {
        code as u16
    } else {
        BAD_ROW
    }
}

/// The columns of a batch answer, each the length of the whole batch: `best_mask` and the
/// move arrays hold 9 entries a row.
pub struct RowColumns {
    pub value: Vec<i8>,
    pub plies: Vec<i16>,
    pub best_move: Vec<i16>,
    pub best_mask: Vec<bool>,
    pub status: Vec<u8>,
    pub moves: Option<(Vec<i8>, Vec<i16>)>,
}

/// A run of rows' share of every column.
struct Share<'a> {
    value: &'a mut [i8],
    plies: &'a mut [i16],
    best_move: &'a mut [i16],
    best_mask: &'a mut [bool],
    status: &'a mut [u8],
    moves: Option<(&'a mut [i8], &'a mut [i16])>,
}

impl<'a> Share<'a> {
    /// The first `rows` rows, and the rest.
    fn split(self, rows: usize) -> (Share<'a>, Share<'a>) {
        let (value, value_rest) = self.value.split_at_mut(rows);
        let (plies, plies_rest) = self.plies.split_at_mut(rows);
        let (best_move, best_move_rest) = self.best_move.split_at_mut(rows);
        let (best_mask, best_mask_rest) = self.best_mask.split_at_mut(rows * CELLS);
        let (status, status_rest) = self.status.split_at_mut(rows);
        let (moves, moves_rest) = match self.moves {
            Some((values, plies)) => {
                let (values, values_rest) = values.split_at_mut(rows * CELLS);
                let (plies, plies_rest) = plies.split_at_mut(rows * CELLS);
                (Some((values, plies)), Some((values_rest, plies_rest)))
            }
            None => (None, None),
        };
        (
            Share {
                value,
                plies,
                best_move,
                best_mask,
                status,
                moves,
            },
            Share {
                value: value_rest,
                plies: plies_rest,
                best_move: best_move_rest,
                best_mask: best_mask_rest,
                status: status_rest,
                moves: moves_rest,
            },
        )
    }

    /// Labels rows of 9 cells, each code found by `code_of` ([`BAD_ROW`] for a bad row).
    fn fill<T>(self, cells: &[T], code_of: &impl Fn(&[T]) -> u16) {
        let labels = labels();
        let Share {
            value,
            plies,
            best_move,
            best_mask,
            status,
            mut moves,
        } = self;
        for (row, chunk) in cells.chunks_exact(CELLS).enumerate() {
            let code = code_of(chunk);
            let at = row * CELLS..(row + 1) * CELLS;
            let label = if code == BAD_ROW {
                &RowLabel::BAD
            } else {
                &labels.row[code as usize]
            };
            value[row] = label.value;
            plies[row] = label.plies;
            best_move[row] = label.best_move;
            status[row] = label.status;
            best_mask[at.clone()].copy_from_slice(&label.best);
            if let Some((values, plies)) = &mut moves {
                if code == BAD_ROW {
                    values[at.clone()].fill(0);
                    plies[at].fill(-1);
                } else {
                    values[at.clone()].copy_from_slice(&labels.move_value[code as usize]);
                    plies[at].copy_from_slice(&labels.move_plies[code as usize]);
                }
            }
        }
    }
}

/// Below this many rows a batch is labelled on the calling thread alone.
const ROWS_PER_THREAD: usize = 1 << 16;

/// Every row's label copied from [`labels`], the rows shared among up to `threads` threads;
/// a bad row gets status 1 and the sentinels of a failed row (value 0, plies -1, no best
/// move). `code_of` finds a row's code ([`BAD_ROW`] for a bad row).
pub fn label_rows<T: Sync>(
    cells: &[T],
    moves: bool,
    threads: usize,
    code_of: impl Fn(&[T]) -> u16 + Sync,
) -> RowColumns {
    let rows = cells.len() / CELLS;
    // Zeroed memory comes from the system untouched: each thread faults in its own share.
    let mut columns = RowColumns {
        value: vec![0; rows],
        plies: vec![0; rows],
        best_move: vec![0; rows],
        best_mask: vec![false; rows * CELLS],
        status: vec![0; rows],
        moves: moves.then(|| (vec![0; rows * CELLS], vec![0; rows * CELLS])),
    };
    advise_huge_pages(&mut columns.value);
    advise_huge_pages(&mut columns.plies);
    advise_huge_pages(&mut columns.best_move);
    advise_huge_pages(&mut columns.best_mask);
    advise_huge_pages(&mut columns.status);
    if let Some((values, plies)) = &mut columns.moves {
        advise_huge_pages(values);
        advise_huge_pages(plies);
    }
    let mut rest = Share {
        value: &mut columns.value,
        plies: &mut columns.plies,
        best_move: &mut columns.best_move,
        best_mask: &mut columns.best_mask,
        status: &mut columns.status,
        moves: columns
            .moves
            .as_mut()
            .map(|(values, plies)| (values.as_mut_slice(), plies.as_mut_slice())),
    };
    let threads = threads.clamp(1, rows.div_ceil(ROWS_PER_THREAD).max(1));
    let per_thread = rows.div_ceil(threads);
    std::thread::scope(|scope| {
        let mut first = 0;
        while first < rows {
            let count = per_thread.min(rows - first);
            let (share, remaining) = rest.split(count);
            rest = remaining;
            let part = &cells[first * CELLS..(first + count) * CELLS];
            let code_of = &code_of;
            if first + count == rows {
                share.fill(part, code_of);
            } else {
                scope.spawn(move || share.fill(part, code_of));
            }
            first += count;
        }
    });
    columns
}

/// The code of a row of cell values, [`BAD_ROW`] for a bad row.
pub fn code_of_row<T: CellCode>(chunk: &[T]) -> u16 {
    let found = chunk
        .iter()
        .zip(POW3)
        .try_fold(0u32, |sum, (&value, weight)| {
            Some(sum + u32::from(value.mark()?) * weight)
        });
    found.map_or(BAD_ROW, |code| legal_code(code as usize))
}

/// [`code_of_row`] for `uint8` cells, eight at a time.
pub fn code_of_row_u8(chunk: &[u8]) -> u16 {
    swar_code(chunk).map_or(BAD_ROW, legal_code)
}

/// The code of 9 `uint8` cells by pairwise multiply-adds, `None` if a cell is above 2.
#[inline]
fn swar_code(chunk: &[u8]) -> Option<usize> {
    const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    const LOW_PAIRS: u64 = 0x0000_ffff_0000_ffff;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let first = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
    let last = chunk[8];
    // A byte above 2 has a bit above the lowest two, or both of them set (3).
    if first & !(ONES * 3) != 0 || first & (first >> 1) & ONES != 0 || last > 2 {
        return None;
    }
    let pairs = (first & LOW_BYTES) + 3 * ((first >> 8) & LOW_BYTES);
    let quads = (pairs & LOW_PAIRS) + 9 * ((pairs >> 16) & LOW_PAIRS);
    Some(((quads & 0xffff_ffff) + 81 * (quads >> 32) + 6561 * u64::from(last)) as usize)
}

/// A cell value of a batch array, as its mark (0, 1, 2) or `None` when out of range.
pub trait CellCode: Copy + std::fmt::Display + Send + Sync {
    fn mark(self) -> Option<u8>;
}

macro_rules! cell_code {
    ($($t:ty),*) => {$(
        impl CellCode for $t {
            #[inline]
            fn mark(self) -> Option<u8> {
                (0..=2).contains(&self).then_some(self as u8)
            }
        }
    )*};
}
cell_code!(u8, i8, u16, i16, u32, i32, u64, i64);

/// The first bad row of a batch and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchError {
    pub row: usize,
    pub error: Error,
}

/// `out[r] = per_code[code of row r]` for a batch of rows of 9 cells, row-major.
/// `per_code` is `Table::value` or `Table::best_move`; stops at the first bad row.
pub fn lookup_rows<T: CellCode>(
    cells: &[T],
    per_code: &[i8],
    out: &mut [i8],
) -> Result<(), BatchError> {
    debug_assert_eq!(cells.len(), out.len() * CELLS);
    for (row, (chunk, slot)) in cells.chunks_exact(CELLS).zip(out.iter_mut()).enumerate() {
        let chunk: &[T; CELLS] = chunk.try_into().expect("chunks of 9");
        // An out-of-range cell counts CODES, which pushes the sum past every code: one
        // comparison checks the whole row.
        let code: u32 = chunk
            .iter()
            .zip(POW3)
            .map(|(&value, weight)| value.mark().map_or(CODES as u32, u32::from) * weight)
            .sum();
        let answer = per_code.get(code as usize).copied().unwrap_or(NOT_LEGAL);
        if answer == NOT_LEGAL {
            return Err(BatchError {
                row,
                error: match chunk.iter().find(|value| value.mark().is_none()) {
                    Some(bad) => Error::Malformed(format!("cell value {bad} is not 0, 1 or 2")),
                    None => illegal_reason(code as usize),
                },
            });
        }
        *slot = answer;
    }
    Ok(())
}

/// [`lookup_rows`] for the common `uint8` input, eight cells at a time: the bytes of a row are
/// read as one `u64` and turned into base 3 by pairwise multiply-adds (SWAR), which is several
/// times fewer instructions than nine separate ones.
pub fn lookup_rows_u8(cells: &[u8], per_code: &[i8], out: &mut [i8]) -> Result<(), BatchError> {
    for (row, (chunk, slot)) in cells.chunks_exact(CELLS).zip(out.iter_mut()).enumerate() {
        let answer = swar_code(chunk).map_or(NOT_LEGAL, |code| per_code[code]);
        if answer == NOT_LEGAL {
            // The general path names the problem.
            return lookup_rows(chunk, per_code, std::slice::from_mut(slot))
                .map_err(|error| BatchError { row, ..error });
        }
        *slot = answer;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_mark_each_bad_row_and_agree_eight_at_a_time() {
        let rows: Vec<u8> = [
            [0u8; 9],
            [1, 1, 1, 0, 0, 0, 0, 0, 0],
            [3; 9],
            [1, 0, 0, 0, 0, 0, 0, 0, 0],
        ]
        .concat();
        let plain: Vec<u16> = rows.chunks(9).map(code_of_row).collect();
        let fast: Vec<u16> = rows.chunks(9).map(code_of_row_u8).collect();
        assert_eq!(plain, fast);
        assert_eq!(plain, vec![0, BAD_ROW, BAD_ROW, 1]);
        assert!(matches!(row_error(&rows[9..18]), Error::Illegal(_)));
        assert!(matches!(row_error(&rows[18..27]), Error::Malformed(_)));
        // Split over threads or not, the same columns.
        let many: Vec<u8> = rows.repeat(50_000);
        let one = label_rows(&many, true, 1, code_of_row_u8);
        let two = label_rows(&many, true, 3, code_of_row_u8);
        assert_eq!(one.status, two.status);
        assert_eq!(one.best_mask, two.best_mask);
        assert_eq!(one.moves, two.moves);
        assert_eq!(&one.status[..4], &[0, 1, 1, 0]);
        assert_eq!(one.best_mask.len(), 200_000 * 9);
        assert_eq!(labels().plies[0], 9);
        assert_eq!(labels().best[0], 0x1ff);
    }

    #[test]
    fn batch_names_the_first_bad_row() {
        let table = table();
        let rows: Vec<u8> = [[0u8; 9], [1, 1, 1, 0, 0, 0, 0, 0, 0], [3; 9]].concat();
        let mut out = vec![0i8; 3];
        let error = lookup_rows(&rows, &table.value, &mut out).unwrap_err();
        assert_eq!(error.row, 1);
        assert!(matches!(error.error, Error::Illegal(_)));
        let error = lookup_rows(&rows[18..], &table.value, &mut out[2..]).unwrap_err();
        assert!(matches!(error.error, Error::Malformed(_)));
        assert_eq!(
            lookup_rows_u8(&rows, &table.value, &mut out),
            Err(lookup_rows(&rows, &table.value, &mut out).unwrap_err())
        );
    }

    #[test]
    fn eight_at_a_time_reads_every_row_like_one_at_a_time() {
        let table = table();
        let rows: Vec<u8> = (0..CODES)
            .flat_map(|code| (0..CELLS).map(move |cell| (code / 3usize.pow(cell as u32) % 3) as u8))
            .collect();
        let (mut fast, mut plain) = (vec![0i8; CODES], vec![0i8; CODES]);
        for start in (0..CODES).step_by(97) {
            let (cells, fast, plain) =
                (&rows[start * 9..], &mut fast[start..], &mut plain[start..]);
            assert_eq!(
                lookup_rows_u8(cells, &table.value, fast),
                lookup_rows(cells, &table.value, plain)
            );
        }
        for bad in [3u8, 4, 7, 128, 255] {
            for cell in 0..CELLS {
                let mut row = [0u8; CELLS];
                row[cell] = bad;
                assert!(
                    lookup_rows_u8(&row, &table.value, &mut [0]).is_err(),
                    "{bad} at {cell}"
                );
            }
        }
    }
}
