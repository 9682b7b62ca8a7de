//! Move ordering in the main search. The table's best move is searched first on its own (in
//! `node`: when it cuts off, nothing else is ordered); the other moves are ranked here by the
//! useful threats they make, weighed by how soon they bite, or, in a node that only has to
//! stave off a heavy loss, by their number; the centre first among equals.

use super::{Slot, Solver};
use crate::games::connect4::table::Table;
use crate::games::connect4::{Bits, MAX_WIDTH, Position};

/// A node whose alpha is at most minus this only has to stave off a heavy loss: its moves are
/// ordered for the quickest proof.
const STAVE_OFF: i32 = 4;

/// A move as the search takes it: its cell, its rank, its column and its child's slot.
pub(super) type Ranked<B> = (B, u32, u32, Slot<B>);

impl<B: Bits> Solver<'_, '_, B> {
    /// The moves `possible` of `p`, best first, and how many there are; `theirs` are the
    /// opponent's winning cells. The children's slots are found (and their buckets prefetched)
    /// unless the children are `leaves`, searched by the endgame search, which uses no main
    /// table.
    #[inline(always)]
    pub(super) fn ordered_moves(
        &self,
        p: &Position<B>,
        possible: B,
        theirs: B,
        alpha: i32,
        leaves: bool,
    ) -> ([Ranked<B>; MAX_WIDTH], usize) {
        let shape = self.shape;
        let none = Slot {
            mixed: B::ZERO,
            mirrored: false,
            near_end: true,
        };
        // A threat right above one of the opponent's is of no use: the cell below it is
        // never played, as whoever fills it lets the other win.
        let useful = !(theirs << 1);
        // A node that only has to stave off a heavy loss wants the cheapest proof, which
        // threats the opponent must answer give (Pons' Begin-Easy: quick wins); one fighting
        // over a close score wants the strongest move.
        let cheapest = alpha <= -STAVE_OFF;
        let mut ordered = [(B::ZERO, 0u32, 0u32, none); MAX_WIDTH];
        let mut count = 0;
        for slot in 0..self.width {
            let cell = possible & self.columns[slot];
            if cell == B::ZERO {
                continue;
            }
            let child = p.play_cell(cell);
            let child_slot = if leaves {
                none
            } else {
                let child_slot = self.slot(&child);
                self.table(child_slot).prefetch(child_slot.mixed);
                child_slot
            };
            // Useful threats made. Staving off: their number, those the opponent must
            // answer at once breaking ties. Else weighed by how soon they bite (after
            // Steininger): one right above a landing cell, which closes its column to the
            // opponent, most; one the opponent must answer at once next.
            let after = child.mask;
            let threats = self.winning_cells(p.current | cell, after) & useful;
            let landing = (after + shape.bottom) & shape.board;
            let rank = if cheapest {
                4 * threats.count_ones() + (threats & landing).count_ones()
            } else {
                threats.count_ones()
                    + 3 * (threats & (landing << 1)).count_ones()
                    + 2 * (threats & landing).count_ones()
            };
            let mut at = count;
            while at > 0 && ordered[at - 1].1 < rank {
                ordered[at] = ordered[at - 1];
                at -= 1;
            }
            ordered[at] = (cell, rank, self.column_numbers[slot], child_slot);
            count += 1;
        }
        (ordered, count)
    }
}

/// The column searched `slot`-th on a board `width` columns wide: the centre first, then
/// outwards, the left of two central columns first (3, 2, 4, 1, 5, 0, 6 on 7 columns; 2, 3, 1,
/// 4, 0, 5 on 6).
#[inline]
pub(super) fn centre_out(width: usize, slot: usize) -> u32 {
    let (centre, step) = ((width as i32 - 1) / 2, (slot as i32 + 1) / 2);
    // Odd widths step left first, even ones right (their centre is the left of two).
    let left_first = width % 2 == 1;
    let col = if (slot % 2 == 1) == left_first {
        centre - step
    } else {
        centre + step
    };
    col as u32
}
