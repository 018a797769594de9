//! The moves within a layer turned round: for each position, the positions of the same layer
//! with a move to it. With them a layer's fixpoint is reached by a work list (only the
//! predecessors of a position whose value changed are looked at again) instead of passes over
//! the whole layer, which generate every position's moves forty times and more.
//!
//! Built in two passes over the layer's moves: one counts each position's predecessors (done
//! while the layer's first values are computed), the other writes them into one array, each
//! position's list at an offset fixed by the counts.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use super::prefetch;
use mancala_platform::huge_pages::zeroed;

/// Positions per block of the offsets: a block's lists start at a 64-bit offset, each
/// position's list ends at a 32-bit offset within its block.
const BLOCK: u64 = 1 << 14;

/// More predecessors than any position has (a few): a count beyond it is refused.
const MOST_PREDECESSORS: u32 = 1 << 16;

/// Each position's predecessor count, as the first pass finds them.
pub(super) struct Counts {
    counts: Vec<AtomicU32>,
    /// A count went beyond [`MOST_PREDECESSORS`] (never seen).
    overflow: AtomicBool,
}

impl Counts {
    pub(super) fn new(positions: u64) -> Counts {
        Counts {
            counts: zeroed(positions as usize),
            overflow: AtomicBool::new(false),
        }
    }

    /// The bytes of the counts of `positions` positions, which become the lists' offsets.
    pub(super) fn bytes(positions: u64) -> u64 {
        positions.saturating_mul(4)
    }

    /// Asks for `child`'s count to be brought into the cache: a position's moves lead to
    /// scattered counts, fetched side by side before [`Self::add`] waits for each.
    #[inline]
    pub(super) fn prefetch(&self, child: u64) {
        prefetch(&self.counts[child as usize]);
    }

    /// One more move of the layer leads to `child`. (The moves are not also counted in one
    /// total: both threads adding to one counter for every move cost more than the counts.)
    #[inline]
    pub(super) fn add(&self, child: u64) {
        if self.counts[child as usize].fetch_add(1, Ordering::Relaxed) >= MOST_PREDECESSORS {
            self.overflow.store(true, Ordering::Relaxed);
        }
    }

    /// The moves within the layer, or `None` if a count overflowed.
    pub(super) fn edges(&self) -> Option<u64> {
        (!self.overflow.load(Ordering::Relaxed)).then(|| {
            self.counts
                .iter()
                .map(|count| count.load(Ordering::Relaxed) as u64)
                .sum()
        })
    }

    /// The bytes the lists of `positions` positions and `edges` moves take in all, the counts
    /// (turned into offsets) included.
    pub(super) fn list_bytes(positions: u64, edges: u64) -> u64 {
        Self::bytes(positions) + edges.saturating_mul(4) + positions.div_ceil(BLOCK) * 8
    }

    /// The empty lists, laid out by the counts, to be filled by [`Filling::insert`].
    pub(super) fn into_lists(self) -> Filling {
        let mut counts = self.counts;
        let mut block_start = Vec::with_capacity(counts.len().div_ceil(BLOCK as usize));
        let mut total = 0u64;
        for block in counts.chunks_mut(BLOCK as usize) {
            block_start.push(total);
            // Each count becomes where its list starts within the block.
            let mut within = 0u32;
            for count in block {
                let n = *count.get_mut();
                *count.get_mut() = within;
                within += n;
            }
            total += within as u64;
        }
        Filling(Predecessors {
            block_start,
            ends: counts,
            lists: zeroed(total as usize),
        })
    }
}

/// The lists being filled: each position's offset moves from its list's start to its end.
pub(super) struct Filling(Predecessors);

impl Filling {
    /// Asks for the end of `child`'s list to be brought into the cache (as [`Counts::prefetch`]).
    #[inline]
    pub(super) fn prefetch(&self, child: u64) {
        prefetch(&self.0.ends[child as usize]);
    }

    /// Records that `parent` has a move to `child` (each move counted by [`Counts::add`] once).
    #[inline]
    pub(super) fn insert(&self, child: u64, parent: u64) {
        let lists = &self.0;
        let block = lists.block_start[(child / BLOCK) as usize];
        let within = lists.ends[child as usize].fetch_add(1, Ordering::Relaxed);
        lists.lists[(block + within as u64) as usize].store(parent as u32, Ordering::Relaxed);
    }

    /// The lists, every move inserted.
    pub(super) fn finish(self) -> Predecessors {
        self.0
    }
}

/// The predecessor lists of a layer's positions (indices below 2^32).
pub(super) struct Predecessors {
    block_start: Vec<u64>,
    /// Where each position's list ends within its block (it starts where the one before ends).
    ends: Vec<AtomicU32>,
    lists: Vec<AtomicU32>,
}

impl Predecessors {
    /// The positions with a move to `position`.
    #[inline]
    pub(super) fn of(&self, position: u64) -> impl Iterator<Item = u64> + '_ {
        let block = self.block_start[(position / BLOCK) as usize];
        let start = if position.is_multiple_of(BLOCK) {
            0
        } else {
            self.ends[position as usize - 1].load(Ordering::Relaxed)
        };
        let end = self.ends[position as usize].load(Ordering::Relaxed);
        self.lists[(block + start as u64) as usize..(block + end as u64) as usize]
            .iter()
            .map(|p| p.load(Ordering::Relaxed) as u64)
    }
}
