//! Memory whose size comes from input: always asked for fallibly, so that a request the system
//! cannot meet is an [`OutOfMemory`] error (Python's `MemoryError`), never an abort.
//!
//! * [`zeroed`]: a `Vec` of zeros, from the allocator's zeroed memory (fresh pages from the
//!   system cost nothing until they are written).
//! * [`HugeBuffer`]: a zeroed buffer; from 2 MiB up, fresh pages mapped from the system, aligned
//!   to 2 MiB and advised onto 2 MiB pages before their first touch. Transposition tables are
//!   read at random: with 4 KiB pages nearly every probe of a large table also misses the TLB.
//!   The advice only takes effect on an aligned range that was not yet touched, hence this
//!   type; a plain `Vec` cannot promise either. Pages are zero until written, so a table costs
//!   memory only as far as it is used.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

/// A buffer could not be allocated: the machine has not that much memory to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory {
    pub bytes: usize,
}

/// Types whose all-zero bytes are a valid value (plain integers, bools, atomic integers), and
/// which need no drop.
///
/// # Safety
/// Implement only for types for which zeroed memory is a valid, initialised value and whose
/// drop does nothing (buffers of them are freed without dropping their items).
pub unsafe trait Zeroable {}

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
// SAFETY: an atomic integer has its integer's representation, and no drop.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}

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

/// `bytes` read as the signed bytes they hold (scores a file keeps as `i8`), without a copy.
pub fn as_signed(bytes: &[u8]) -> &[i8] {
    // SAFETY: `u8` and `i8` have the same size and alignment and every bit pattern is a valid
    // `i8`; the slice borrows the same memory for the same lifetime.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), bytes.len()) }
}

/// An empty `Vec` with room for `len` items, or `OutOfMemory` when the allocation fails: for
/// columns filled by pushing.
pub fn with_room<T>(len: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut room = Vec::new();
    room.try_reserve_exact(len).map_err(|_| OutOfMemory {
        bytes: len.saturating_mul(size_of::<T>()),
    })?;
    Ok(room)
}

/// A copy of `text`, or `OutOfMemory`: an argument's text is as long as its caller makes it,
/// and a batch copies one a row.
pub fn copied(text: &str) -> Result<String, OutOfMemory> {
    let mut copy = String::new();
    copy.try_reserve_exact(text.len())
        .map_err(|_| OutOfMemory { bytes: text.len() })?;
    copy.push_str(text);
    Ok(copy)
}

/// How much memory must still be free for work to go on: the small allocations of a batch's
/// rows (a row's copy, its answer, an error's message) are infallible in Rust, so a batch
/// checks this room every so many rows ([`headroom`]) and stops with `OutOfMemory` while
/// there is still room to say so, never at the edge where a small allocation aborts.
pub const HEADROOM: usize = 64 << 20;

/// `Ok` when [`HEADROOM`] bytes can still be had (asked for, and given back at once), else
/// `OutOfMemory`.
pub fn headroom() -> Result<(), OutOfMemory> {
    let failure = OutOfMemory { bytes: HEADROOM };
    let layout = Layout::from_size_align(HEADROOM, 4096).map_err(|_| failure)?;
    // SAFETY: the layout has a non-zero size. `black_box` keeps the request: an allocation
    // nothing uses may otherwise be optimised away.
    let pointer = std::hint::black_box(unsafe { std::alloc::alloc(layout) });
    if pointer.is_null() {
        return Err(failure);
    }
    // SAFETY: allocated just above with this layout, and never used.
    unsafe { dealloc(pointer, layout) };
    Ok(())
}

/// The machine's physical memory in bytes, where the system says (`None` elsewhere).
pub fn physical_memory() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads a system constant; it has no preconditions.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page > 0 {
            return (pages as usize).checked_mul(page as usize);
        }
    }
    None
}

/// 2 MiB: the size of a huge page on x86-64 and arm64.
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed buffer of `len` items, on 2 MiB pages where the system gives them (see the
/// module's notes).
pub struct HugeBuffer<T: Zeroable> {
    pointer: NonNull<T>,
    len: usize,
    memory: Memory,
}

/// Where a buffer's memory came from, to give it back the same way.
enum Memory {
    Heap(Layout),
    #[cfg(target_os = "linux")]
    Mapped(usize),
}

// SAFETY: the buffer owns its items, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for HugeBuffer<T> {}
// SAFETY: shared references give only shared access to the items.
unsafe impl<T: Zeroable + Sync> Sync for HugeBuffer<T> {}

impl<T: Zeroable> HugeBuffer<T> {
    pub fn zeroed(len: usize) -> Result<HugeBuffer<T>, OutOfMemory> {
        let bytes = len.saturating_mul(size_of::<T>());
        let failure = OutOfMemory { bytes };
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            return Self::mapped(len, bytes).ok_or(failure);
        }
        let layout =
            Layout::from_size_align(bytes.max(1), align_of::<T>().max(64)).map_err(|_| failure)?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc_zeroed(layout) };
        let pointer = NonNull::new(raw.cast::<T>()).ok_or(failure)?;
        Ok(HugeBuffer {
            pointer,
            len,
            memory: Memory::Heap(layout),
        })
    }

    /// Fresh pages from the system (zero until written, so a large table costs nothing until
    /// it is used), aligned to a huge page and advised onto huge ones.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize) -> Option<HugeBuffer<T>> {
        let size = bytes.div_ceil(HUGE_PAGE).checked_mul(HUGE_PAGE)?;
        let reserved = size.checked_add(HUGE_PAGE)?;
        // SAFETY: a new private anonymous mapping; nothing else refers to it.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                reserved,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let start = raw as usize;
        let aligned = start.next_multiple_of(HUGE_PAGE);
        // SAFETY: the head before the aligned start and the tail after `size` bytes are parts
        // of the mapping just made, unmapped so that exactly the aligned range stays; the
        // advice changes no contents (failure only means small pages).
        unsafe {
            if aligned > start {
                libc::munmap(raw, aligned - start);
            }
            let tail = start + reserved - (aligned + size);
            if tail > 0 {
                libc::munmap((aligned + size) as *mut libc::c_void, tail);
            }
            libc::madvise(aligned as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
        }
        Some(HugeBuffer {
            pointer: NonNull::new(aligned as *mut T)?,
            len,
            memory: Memory::Mapped(size),
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
        match self.memory {
            // SAFETY: allocated in `zeroed` with this very layout.
            Memory::Heap(layout) => unsafe { dealloc(self.pointer.as_ptr().cast(), layout) },
            #[cfg(target_os = "linux")]
            // SAFETY: mapped in `mapped` with this very size, and no longer used.
            Memory::Mapped(size) => unsafe {
                libc::munmap(self.pointer.as_ptr().cast(), size);
            },
        }
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

    #[test]
    fn room_copies_and_headroom_are_fallible() {
        let room: Vec<u32> = with_room(10).unwrap();
        assert!(room.is_empty() && room.capacity() >= 10);
        assert!(with_room::<u64>(usize::MAX / 4).is_err());
        assert_eq!(copied("4453").unwrap(), "4453");
        assert!(headroom().is_ok());
    }
}
