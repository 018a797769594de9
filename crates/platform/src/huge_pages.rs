//! Big tables on huge pages (the solver's table, the tablebases' layers): a table of many
//! megabytes read at random misses the processor's page cache (TLB) on nearly every probe with
//! 4 KiB pages; with 2 MiB pages most probes find their
//! page. Linux gives huge pages to memory that asks for them (transparent huge pages in their
//! `madvise` mode, the common default), which is what Stockfish does for its hash table.

/// Asks the operating system to back `memory` with huge pages where it can (the whole 2 MiB
/// extents inside it). Only a hint: nothing changes but speed, and elsewhere than on Linux
/// nothing happens. Best called before the memory is first touched.
pub fn advise<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::{c_int, c_void};
        unsafe extern "C" {
            fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
        }
        const MADV_HUGEPAGE: c_int = 14;
        const HUGE_PAGE: usize = 2 << 20;
        let start = memory.as_ptr() as usize;
        let end = start + std::mem::size_of_val(memory);
        let (first, last) = (
            start.next_multiple_of(HUGE_PAGE),
            end / HUGE_PAGE * HUGE_PAGE,
        );
        if last > first {
            // SAFETY: the range lies inside memory this process owns; the advice only chooses
            // how the kernel backs it, never what it holds. A refusal (an old kernel, huge
            // pages switched off) leaves the memory as it was.
            let _ = unsafe { madvise(first as *mut c_void, last - first, MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

/// Types whose all-zero bytes are a valid value (zero): what [`zeroed`] may hand out.
///
/// # Safety
/// Implement only for types for which all-zero bytes are a valid value.
pub unsafe trait Zeroable {}
// SAFETY: an atomic integer of zero bytes holds 0.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}
// SAFETY: as above.
unsafe impl Zeroable for std::sync::atomic::AtomicU32 {}
// SAFETY: as above.
unsafe impl Zeroable for std::sync::atomic::AtomicI8 {}
// SAFETY: as above.
unsafe impl Zeroable for u64 {}

/// `len` zeroed values, on huge pages where the system gives them. Zeroed by the allocator, a
/// big vector comes as untouched zero pages, so the advice applies before the first touch
/// (writing the zeros would touch every page first).
pub fn zeroed<T: Zeroable>(len: usize) -> Vec<T> {
    use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
    if len == 0 {
        return Vec::new();
    }
    let layout = Layout::array::<T>(len).expect("a vector within the address space");
    // SAFETY: the layout is not empty (`len` ≥ 1, and the types are not zero-sized).
    let memory = unsafe { alloc_zeroed(layout) }.cast::<T>();
    if memory.is_null() {
        handle_alloc_error(layout);
    }
    // SAFETY: `memory` holds `len` values of `T` allocated by the global allocator with this
    // layout, and all-zero bytes are a valid `T` (`Zeroable`).
    let values = unsafe { Vec::from_raw_parts(memory, len, len) };
    advise(&values);
    values
}
