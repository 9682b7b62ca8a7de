//! Memory whose size comes from input: always asked for fallibly, so that a request the system
//! cannot meet is an [`OutOfMemory`] error (Python's `MemoryError`), never an abort.
//!
//! * [`zeroed`]: a `Vec` of zeros, from the allocator's zeroed memory (fresh pages from the
//!   system cost nothing until they are written).
//! * [`HugeBuffer`]: a zeroed buffer aligned to 2 MiB, advised onto 2 MiB pages before its first
//!   touch. Transposition tables are read at random: with 4 KiB pages nearly every probe of a
//!   large table also misses the TLB. The advice only takes effect on an aligned range that
//!   was not yet touched, hence this type; a plain `Vec` cannot promise either.

use std::alloc::{Layout, alloc, alloc_zeroed, dealloc};
use std::ptr::NonNull;

/// A buffer could not be allocated: the machine has not that much memory to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory {
    pub bytes: usize,
}

/// Types whose all-zero bytes are a valid value (plain integers and bools).
///
/// # Safety
/// Implement only for types for which zeroed memory is a valid, initialised value.
pub unsafe trait Zeroable: Copy {}

// SAFETY: zero bytes are 0 for every integer type, and `false` for bool.
unsafe impl Zeroable for u8 {}
// SAFETY: as above.
unsafe impl Zeroable for i8 {}
// SAFETY: as above.
unsafe impl Zeroable for u16 {}
// SAFETY: as above.
unsafe impl Zeroable for i16 {}
// SAFETY: as above.
unsafe impl Zeroable for u32 {}
// SAFETY: as above.
unsafe impl Zeroable for u64 {}
// SAFETY: as above.
unsafe impl Zeroable for usize {}
// SAFETY: as above.
unsafe impl Zeroable for i64 {}
// SAFETY: as above.
unsafe impl Zeroable for bool {}

/// `len` zeros, or `OutOfMemory` when the allocation fails (or its size overflows).
pub fn zeroed<T: Zeroable>(len: usize) -> Result<Vec<T>, OutOfMemory> {
    let bytes = len.saturating_mul(size_of::<T>());
    if len == 0 || size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    let layout = Layout::array::<T>(len).map_err(|_| OutOfMemory { bytes })?;
    // SAFETY: the layout has a non-zero size (checked above).
    let pointer = unsafe { alloc_zeroed(layout) }.cast::<T>();
    if pointer.is_null() {
        return Err(OutOfMemory { bytes });
    }
    // SAFETY: the pointer was allocated by the global allocator with the layout of `[T; len]`,
    // which is the layout a `Vec<T>` of capacity `len` uses, and its `len` items are zeroed,
    // a valid `T` (`Zeroable`).
    Ok(unsafe { Vec::from_raw_parts(pointer, len, len) })
}

/// 2 MiB: the size of a huge page on x86-64 and arm64.
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed buffer of `len` items, on 2 MiB pages where the system gives them (see the
/// module's notes).
pub struct HugeBuffer<T: Zeroable> {
    pointer: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the buffer owns its items, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for HugeBuffer<T> {}
// SAFETY: shared references give only shared access to the items.
unsafe impl<T: Zeroable + Sync> Sync for HugeBuffer<T> {}

impl<T: Zeroable> HugeBuffer<T> {
    pub fn zeroed(len: usize) -> Result<HugeBuffer<T>, OutOfMemory> {
        let bytes = len.saturating_mul(size_of::<T>());
        let huge = bytes >= HUGE_PAGE;
        let align = if huge {
            HUGE_PAGE
        } else {
            align_of::<T>().max(64)
        };
        let layout =
            Layout::from_size_align(bytes.max(1), align).map_err(|_| OutOfMemory { bytes })?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe {
            if huge {
                alloc(layout)
            } else {
                alloc_zeroed(layout)
            }
        };
        let pointer = NonNull::new(raw.cast::<T>()).ok_or(OutOfMemory { bytes })?;
        if huge {
            #[cfg(target_os = "linux")]
            // SAFETY: advice on the whole range this buffer owns, aligned to a huge page; it
            // changes no contents, and failure only means small pages.
            unsafe {
                libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE);
            }
            // Written after the advice, so the pages it faults in are huge ones.
            // SAFETY: `raw` is valid for `layout.size()` bytes of writes.
            unsafe { raw.write_bytes(0, layout.size()) };
        }
        Ok(HugeBuffer {
            pointer,
            len,
            layout,
        })
    }
}

impl<T: Zeroable> std::ops::Deref for HugeBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised items (zeroed, then written as `T`s) live at `pointer`.
        unsafe { std::slice::from_raw_parts(self.pointer.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for HugeBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.pointer.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout.
        unsafe { dealloc(self.pointer.as_ptr().cast(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_memory_or_an_error() {
        let column: Vec<i16> = zeroed(1000).unwrap();
        assert_eq!(column.len(), 1000);
        assert!(column.iter().all(|&x| x == 0));
        assert!(zeroed::<u64>(usize::MAX / 4).is_err());
        assert!(zeroed::<u8>(0).unwrap().is_empty());
        let mut buffer = HugeBuffer::<u64>::zeroed(1 << 19).unwrap();
        assert_eq!(buffer.as_ptr() as usize % HUGE_PAGE, 0);
        buffer[5] = 7;
        assert_eq!(buffer.iter().sum::<u64>(), 7);
        assert!(HugeBuffer::<u64>::zeroed(usize::MAX / 8).is_err());
    }
}
