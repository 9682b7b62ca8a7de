//! The symmetries of a rectangular board, written once for every game on a grid: the identity,
//! the two mirrors and the half turn, and on a square board also the two diagonal mirrors and
//! the quarter turns. Cells are numbered `row * cols + col`.

/// Where `which` takes cell (row, col) of a `rows x cols` board.
fn image(which: usize, row: usize, col: usize, rows: usize, cols: usize) -> (usize, usize) {
    let (last_row, last_col) = (rows - 1, cols - 1);
    match which {
        0 => (row, col),
        1 => (row, last_col - col),
        2 => (last_row - row, col),
        3 => (last_row - row, last_col - col),
        // Square boards only: rows == cols, so row and col range alike.
        4 => (col, row),
        5 => (last_col - col, row),
        6 => (col, last_row - row),
        _ => (last_col - col, last_row - row),
    }
}

/// The cell permutations of a board's symmetries, identity first, with their inverses.
#[derive(Debug, Clone)]
pub struct Symmetries {
    /// `maps[s][cell]`: where symmetry `s` takes `cell`.
    maps: Vec<[u8; 64]>,
    inverses: Vec<[u8; 64]>,
}

impl Symmetries {
    /// 8 symmetries of a square board, 4 of any other rectangle.
    pub fn of(rows: usize, cols: usize) -> Symmetries {
        let count = if rows == cols { 8 } else { 4 };
        let cells = rows * cols;
        let mut maps = Vec::with_capacity(count);
        let mut inverses = Vec::with_capacity(count);
        for which in 0..count {
            let (mut map, mut inverse) = ([0u8; 64], [0u8; 64]);
            for (cell, slot) in map.iter_mut().enumerate().take(cells) {
                let (row, col) = image(which, cell / cols, cell % cols, rows, cols);
                let target = row * cols + col;
                *slot = target as u8;
                inverse[target] = cell as u8;
            }
            maps.push(map);
            inverses.push(inverse);
        }
        Symmetries { maps, inverses }
    }

    pub fn count(&self) -> usize {
        self.maps.len()
    }

    /// Where symmetry `which` takes `cell`.
    #[inline]
    pub fn map(&self, which: usize, cell: u8) -> u8 {
        self.maps[which][cell as usize]
    }

    /// The cell symmetry `which` takes to `cell`.
    #[inline]
    pub fn unmap(&self, which: usize, cell: u8) -> u8 {
        self.inverses[which][cell as usize]
    }

    /// The image of a set of cells.
    pub fn permute(&self, which: usize, mut cells: u64) -> u64 {
        let map = &self.maps[which];
        let mut image = 0;
        while cells != 0 {
            image |= 1 << map[cells.trailing_zeros() as usize];
            cells &= cells - 1;
        }
        image
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_and_inverses_agree() {
        for (rows, cols) in [(3, 3), (2, 5), (4, 4), (1, 1), (8, 8)] {
            let symmetries = Symmetries::of(rows, cols);
            assert_eq!(symmetries.count(), if rows == cols { 8 } else { 4 });
            let cells = (rows * cols) as u8;
            for which in 0..symmetries.count() {
                let mut seen = 0u64;
                for cell in 0..cells {
                    assert_eq!(symmetries.unmap(which, symmetries.map(which, cell)), cell);
                    seen |= 1 << symmetries.map(which, cell);
                }
                assert_eq!(seen.count_ones(), u32::from(cells));
            }
        }
        let square = Symmetries::of(3, 3);
        assert_eq!(square.map(1, 0), 2); // the left-right mirror
        assert_eq!(square.permute(4, 0b000_000_010), 0b000_001_000); // the diagonal
    }
}
