//! The integer a board is a set of bits of: `u64` while `width * (height + 1) <= 64` (7x6 and
//! every board the search was first written for), `u128` up to 128 bits (8x8, 7x9, 10x6, 11x5,
//! 5x13, ...). The rules, the search and the tables are written once over [`Bits`]; a call
//! picks the integer from its board's size (see `call.rs`), so one build plays every size.

use crate::games::connect4::search::Tables;
use crate::games::connect4::table::{MainTable, Table, WideTable};
use crate::games::connect4::{Position, Shape};
use std::cell::RefCell;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr, Sub};
use std::thread::LocalKey;

/// What the rules and the search need of a board's integer.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitOrAssign
    + BitAndAssign
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    /// The main table of boards of this integer: one word an entry on 64 bits, the whole key
    /// stored on 128 (see `table.rs`).
    type Main: Table<Self>;

    fn count_ones(self) -> u32;
    fn leading_zeros(self) -> u32;
    /// The low 64 bits.
    fn low_u64(self) -> u64;
    /// `bits` as this integer (the 7x6 functions' results).
    fn from_u64(bits: u64) -> Self;
    /// The bits folded into 64 (xor of the halves on 128).
    fn folded(self) -> u64;

    /// The same board on 64 bits, where it is one (the deep books are of 7x6).
    fn narrow_shape(shape: &Shape<Self>) -> Option<&Shape<u64>>;
    fn narrow_position(position: &Position<Self>) -> Option<&Position<u64>>;

    /// This thread's kept tables for boards of this integer.
    fn kept() -> &'static LocalKey<RefCell<Option<Tables<Self>>>>;
}

thread_local! {
    static KEPT_NARROW: RefCell<Option<Tables<u64>>> = const { RefCell::new(None) };
    static KEPT_WIDE: RefCell<Option<Tables<u128>>> = const { RefCell::new(None) };
}

macro_rules! primitive_bits {
    () => {
        const ZERO: Self = 0;
        const ONE: Self = 1;
        const BITS: u32 = Self::BITS;

        #[inline(always)]
        fn count_ones(self) -> u32 {
            self.count_ones()
        }

        #[inline(always)]
        fn leading_zeros(self) -> u32 {
            self.leading_zeros()
        }

        #[inline(always)]
        fn low_u64(self) -> u64 {
            self as u64
        }

        #[inline(always)]
        fn from_u64(bits: u64) -> Self {
            Self::from(bits)
        }
    };
}

impl Bits for u64 {
    type Main = MainTable;
    primitive_bits!();

    #[inline(always)]
    fn folded(self) -> u64 {
        self
    }

    #[inline(always)]
    fn narrow_shape(shape: &Shape<u64>) -> Option<&Shape<u64>> {
        Some(shape)
    }

    #[inline(always)]
    fn narrow_position(position: &Position<u64>) -> Option<&Position<u64>> {
        Some(position)
    }

    fn kept() -> &'static LocalKey<RefCell<Option<Tables<u64>>>> {
        &KEPT_NARROW
    }
}

impl Bits for u128 {
    type Main = WideTable;
    primitive_bits!();

    #[inline(always)]
    fn folded(self) -> u64 {
        self as u64 ^ (self >> 64) as u64
    }

    #[inline(always)]
    fn narrow_shape(_: &Shape<u128>) -> Option<&Shape<u64>> {
        None
    }

    #[inline(always)]
    fn narrow_position(_: &Position<u128>) -> Option<&Position<u64>> {
        None
    }

    fn kept() -> &'static LocalKey<RefCell<Option<Tables<u128>>>> {
        &KEPT_WIDE
    }
}
