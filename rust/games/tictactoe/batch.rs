//! Batch lookups: rows of 9 cell codes (a numpy array read in place) to per-code answers.

use crate::engine::error::Error;
use crate::games::mnk::solved::{CELLS, CODES, NOT_LEGAL, POW3, illegal_reason};

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
    const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    const LOW_PAIRS: u64 = 0x0000_ffff_0000_ffff;
    const ONES: u64 = 0x0101_0101_0101_0101;
    for (row, (chunk, slot)) in cells.chunks_exact(CELLS).zip(out.iter_mut()).enumerate() {
        let first = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
        let last = chunk[8];
        // A byte above 2 has a bit above the lowest two, or both of them set (3).
        let out_of_range = first & !(ONES * 3) != 0 || first & (first >> 1) & ONES != 0 || last > 2;
        let pairs = (first & LOW_BYTES) + 3 * ((first >> 8) & LOW_BYTES);
        let quads = (pairs & LOW_PAIRS) + 9 * ((pairs >> 16) & LOW_PAIRS);
        let code = (quads & 0xffff_ffff) + 81 * (quads >> 32) + 6561 * u64::from(last);
        let answer = if out_of_range {
            NOT_LEGAL
        } else {
            per_code[code as usize]
        };
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
    use crate::games::mnk::solved::table;

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
