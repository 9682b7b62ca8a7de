//! 7x6, the size everyone plays: its threat function and its mirror image with constant
//! shifts, which the compiler turns into a few instructions.

/// The empty cells of 7x6 that complete four for `stones` (`mask` the stones of both).
#[inline(always)]
pub(super) fn seven_by_six_winning_cells(stones: u64, mask: u64) -> u64 {
    const H: u32 = 6;
    const BOARD: u64 = 0xfdfb_f7ef_dfbf;
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    macro_rules! direction {
        ($shift:expr) => {{
            let pair = (stones << $shift) & (stones << (2 * $shift));
            cells |= pair & (stones << (3 * $shift));
            cells |= pair & (stones >> $shift);
            let pair = (stones >> $shift) & (stones >> (2 * $shift));
            cells |= pair & (stones << $shift);
            cells |= pair & (stones >> (3 * $shift));
        }};
    }
    direction!(H + 1);
    direction!(H);
    direction!(H + 2);
    cells & (BOARD ^ mask)
}

/// The key of the mirror image of a 7x6 position's key: its seven columns of seven bits in
/// reverse order.
#[inline(always)]
pub(super) fn seven_by_six_mirrored(key: u64) -> u64 {
    const COLUMN: u64 = 0x7f;
    (key & COLUMN) << 42
        | (key & COLUMN << 7) << 28
        | (key & COLUMN << 14) << 14
        | (key & COLUMN << 21)
        | (key >> 14) & COLUMN << 14
        | (key >> 28) & COLUMN << 7
        | (key >> 42) & COLUMN
}
