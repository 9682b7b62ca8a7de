//! Batches of boards as rows of cell values, each row read once: a worker copies a row and
//! answers from the copy, so an array changed by another thread meanwhile still gets one
//! consistent answer a row. The Python layer reads numpy arrays in place through this trait
//! (any strides, broadcast arrays included); the cores see only rows.

/// Rows of `width()` cells.
pub trait RowsOf<T>: Sync {
    /// How many rows.
    fn len(&self) -> usize;
    /// Copies row `row` into `out` (`width()` items).
    fn read(&self, row: usize, out: &mut [T]);
}

/// Rows laid end to end in one slice.
#[derive(Debug, Clone, Copy)]
pub struct Packed<'a, T> {
    pub cells: &'a [T],
    pub width: usize,
}

impl<T: Copy + Sync> RowsOf<T> for Packed<'_, T> {
    fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    #[inline]
    fn read(&self, row: usize, out: &mut [T]) {
        out.copy_from_slice(&self.cells[row * self.width..(row + 1) * self.width]);
    }
}
