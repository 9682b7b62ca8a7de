//! Batch lookups: rows of 9 cell codes (a numpy array read in place) to per-code answers.

use crate::engine::driver::{self, AsGiven};
use crate::engine::error::Error;
use crate::games::mnk::solved::{CELLS, CODES, NOT_LEGAL, POW3, illegal_reason, table};
use std::sync::OnceLock;

/// What a batch row copies for its code: built once from the solved table.
pub struct Labels {
    pub value: Box<[i8]>,
    pub plies: Box<[i16]>,
    /// The best moves as bits of cells (empty for a final position).
    pub best: Box<[u16]>,
    /// For each cell: the value of that move for its player, 0 where it is no legal move.
    pub move_value: Box<[[i8; CELLS]]>,
    /// For each cell: the plies from now with that move, -1 where it is no legal move.
    pub move_plies: Box<[[i16; CELLS]]>,
}

/// Every legal code's label, with every move's answer (about 0.6 MiB, built on first use).
pub fn labels() -> &'static Labels {
    static LABELS: OnceLock<Labels> = OnceLock::new();
    LABELS.get_or_init(|| {
        let mut labels = Labels {
            value: vec![NOT_LEGAL; CODES].into_boxed_slice(),
            plies: vec![-1; CODES].into_boxed_slice(),
            best: vec![0; CODES].into_boxed_slice(),
            move_value: vec![[0; CELLS]; CODES].into_boxed_slice(),
            move_plies: vec![[-1; CELLS]; CODES].into_boxed_slice(),
        };
        for code in (0..CODES).filter(|&code| table().is_reachable(code)) {
            let label = driver::label(&mut table().lookup(), &code, true, &AsGiven)
                .expect("a table lookup never stops");
            labels.value[code] = label.value;
            labels.plies[code] = label.plies as i16;
            labels.best[code] = label.best as u16;
            for answer in label.moves {
                labels.move_value[code][answer.cell as usize] = answer.value;
                labels.move_plies[code][answer.cell as usize] = answer.plies as i16;
            }
        }
        labels
    })
}

/// A row's code, or what is wrong with the row.
pub type CodeOf = Result<u16, Error>;

/// The code of every row of 9 cells (row-major), each checked on its own: a bad row does not
/// stop the others.
pub fn codes_of_rows<T: CellCode>(cells: &[T], codes: &mut [CodeOf]) {
    for (chunk, code) in cells.chunks_exact(CELLS).zip(codes.iter_mut()) {
        let mut marks = [0u8; CELLS];
        *code = match chunk.iter().zip(&mut marks).try_for_each(|(&value, mark)| {
            *mark = value.mark().ok_or(value)?;
            Ok::<(), T>(())
        }) {
            Err(bad) => Err(Error::Malformed(format!(
                "cell value {bad} is not 0, 1 or 2"
            ))),
            Ok(()) => {
                let code: u32 = marks.iter().zip(POW3).map(|(&m, w)| u32::from(m) * w).sum();
                legal_code(code as usize)
            }
        };
    }
}

/// [`codes_of_rows`] for `uint8` rows, eight cells at a time (see [`lookup_rows_u8`]).
pub fn codes_of_rows_u8(cells: &[u8], codes: &mut [CodeOf]) {
    for (chunk, code) in cells.chunks_exact(CELLS).zip(codes.iter_mut()) {
        *code = match swar_code(chunk) {
            Some(found) => legal_code(found),
            None => {
                codes_of_rows(chunk, std::slice::from_mut(code));
                continue;
            }
        };
    }
}

/// The columns of a batch answer, row-major (`best_mask` and the move arrays 9 per row).
pub struct Columns<'a> {
    pub value: &'a mut [i8],
    pub plies: &'a mut [i16],
    pub best_move: &'a mut [i16],
    pub best_mask: &'a mut [bool],
    pub status: &'a mut [u8],
    pub moves: Option<(&'a mut [i8], &'a mut [i16])>,
}

/// Copies each good row's label from [`labels`]; a bad row keeps what the columns hold
/// (the caller's sentinels) and gets status 1.
pub fn fill_rows(codes: &[CodeOf], columns: Columns) {
    let labels = labels();
    let Columns {
        value,
        plies,
        best_move,
        best_mask,
        status,
        mut moves,
    } = columns;
    for (row, code) in codes.iter().enumerate() {
        let Ok(code) = code else {
            status[row] = 1;
            continue;
        };
        let code = *code as usize;
        let best = labels.best[code];
        value[row] = labels.value[code];
        plies[row] = labels.plies[code];
        best_move[row] = if best == 0 {
            -1
        } else {
            best.trailing_zeros() as i16
        };
        for (cell, slot) in best_mask[row * CELLS..(row + 1) * CELLS].iter_mut().enumerate() {
            *slot = best >> cell & 1 == 1;
        }
        status[row] = 0;
        if let Some((move_value, move_plies)) = &mut moves {
            move_value[row * CELLS..(row + 1) * CELLS].copy_from_slice(&labels.move_value[code]);
            move_plies[row * CELLS..(row + 1) * CELLS].copy_from_slice(&labels.move_plies[code]);
        }
    }
}

fn legal_code(code: usize) -> CodeOf {
    if table().is_reachable(code) {
        Ok(code as u16)
    } else {
        Err(illegal_reason(code))
    }
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
        let mut plain = vec![Ok(0); 4];
        let mut fast = vec![Ok(0); 4];
        codes_of_rows(&rows, &mut plain);
        codes_of_rows_u8(&rows, &mut fast);
        assert_eq!(plain, fast);
        assert_eq!(plain[0], Ok(0));
        assert!(matches!(plain[1], Err(Error::Illegal(_))));
        assert!(matches!(plain[2], Err(Error::Malformed(_))));
        assert_eq!(plain[3], Ok(1));
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
