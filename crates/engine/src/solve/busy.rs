//! Which positions the threads of one solve are searching right now, so that a thread can put
//! off a child another thread is busy with and search its siblings first (the "simplified
//! ABDADA" of parallel alpha-beta). By the time it comes back to that child, the other
//! thread's proof is often in the shared table, and the two threads have split the work
//! instead of searching the same tree side by side.
//!
//! A hint only: a slot holds one key, a newer mark overwrites an older one, and a key may be
//! missed or (rarely) another's taken for it. Neither changes a value, only the order in which
//! children are searched.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots: far more than the positions two threads' lines hold at once.
const SLOTS: usize = 1 << 16;

pub struct BusyTable {
    slots: Vec<AtomicU64>,
}

impl BusyTable {
    pub fn new() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        // The high bits: the solver table's bucket takes the low ones.
        &self.slots[(key >> 48) as usize & (SLOTS - 1)]
    }

    /// Whether some thread marked `key` and has not yet cleared it (never key 0, an empty
    /// slot's, which the solver gives a move that ends the game).
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn mark(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears `key`'s mark, unless the slot went to another key since.
    #[inline]
    pub fn clear(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_holds_until_it_is_cleared_or_overwritten() {
        let busy = BusyTable::new();
        let (a, b) = (0x1234_0000_0000_0001, 0x1234_0000_0000_0002);
        assert!(
            !busy.is_busy(a) && !busy.is_busy(0),
            "nothing is marked yet"
        );
        busy.mark(a);
        assert!(busy.is_busy(a));
        // `b` shares `a`'s slot: marking it overwrites `a`, and clearing `a` leaves `b` alone.
        busy.mark(b);
        assert!(!busy.is_busy(a) && busy.is_busy(b));
        busy.clear(a);
        assert!(busy.is_busy(b));
        busy.clear(b);
        assert!(!busy.is_busy(b));
    }
}
