//! The bounds table: proven bounds per position, kept between searches and shared by threads.

use super::*;

/// Proven bounds per position, kept between searches (and between moves of a game), shared by
/// the threads of one solve.
///
/// Slots of two words in buckets of one cache line each: the key xor-ed with the data, and the
/// data (lo, hi as signed bytes, the best move's code, the effort: the bit length of the nodes
/// its proof took). A slot torn by two threads writing at once no longer matches its key, so a
/// probe never reads one position's bounds for another's. A new position takes its bucket's
/// emptiest or cheapest slot.
pub struct SolverTable {
    /// Words from `start` on, `2 * BUCKET_SLOTS` per bucket.
    words: Vec<AtomicU64>,
    /// The first word of the first whole cache line of `words`.
    start: usize,
    /// Buckets, a power of two.
    buckets: usize,
    /// The last position the solver gave up on, in which game: in the same game, positions with
    /// as many counters are not tried again.
    gave_up: Option<GaveUp>,
}

/// The largest solver table, in MiB (64 GiB).
pub const MAX_SOLVER_TABLE_MIB: usize = 65_536;

/// Slots per bucket: a 64-byte cache line of 16-byte slots.
pub(super) const BUCKET_SLOTS: usize = 4;

/// Where the solver gave up: in which game (the key of the position it was set up from and the
/// moves played from it until then), on how many counters on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GaveUp {
    pub(super) base: u64,
    pub(super) moves: Vec<Move>,
    pub(super) counters: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub(super) lo: i32,
    pub(super) hi: i32,
    pub(super) best: Option<Move>,
}

impl SolverTable {
    /// A table of `mib` MiB (1 to [`MAX_SOLVER_TABLE_MIB`]) when `mib` is a power of two, else
    /// of the largest power of two below it (buckets are found by masking the key). Its memory
    /// comes untouched from the operating system (on huge pages where it can).
    pub fn new(mib: usize) -> SolverTable {
        let buckets = Self::buckets_for(mib);
        let len = (buckets + 1) * 2 * BUCKET_SLOTS;
        let words = mancala_platform::huge_pages::zeroed::<AtomicU64>(len);
        let misalignment = (words.as_ptr() as usize / 8) % (2 * BUCKET_SLOTS);
        SolverTable {
            start: (2 * BUCKET_SLOTS - misalignment) % (2 * BUCKET_SLOTS),
            words,
            buckets,
            gave_up: None,
        }
    }

    /// The buckets of a table of `mib` MiB: the largest power of two that fits (at least 256).
    fn buckets_for(mib: usize) -> usize {
        let fit = (mib.clamp(1, MAX_SOLVER_TABLE_MIB) << 20) / (16 * BUCKET_SLOTS);
        (1usize << fit.ilog2()).max(256)
    }

    /// The table's size in bytes (its buckets; the alignment slack aside).
    pub fn bytes(&self) -> usize {
        self.buckets * 16 * BUCKET_SLOTS
    }

    pub fn clear(&mut self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
        self.gave_up = None;
    }

    /// Remembers that the solver gave up on a position with `counters` on the board, reached by
    /// `moves` from the position of key `base`.
    pub fn give_up(&mut self, base: u64, moves: &[Move], counters: u32) {
        self.gave_up = Some(GaveUp {
            base,
            moves: moves.to_vec(),
            counters,
        });
    }

    /// Whether the solver gave up earlier in this game (set up from the position of key `base`,
    /// with `moves` played since) on a position with at most `counters` on the board. Only the
    /// same game counts, the one that went on from where it gave up: what another game's
    /// position cost says nothing of this one, and no search may depend on it.
    pub fn gave_up_before(&self, base: u64, moves: &[Move], counters: u32) -> bool {
        self.gave_up.as_ref().is_some_and(|g| {
            g.base == base && moves.starts_with(&g.moves) && g.counters <= counters
        })
    }

    /// The words of `key`'s bucket.
    #[inline]
    pub(super) fn bucket(&self, key: u64) -> &[AtomicU64] {
        let first = self.start + ((key as usize) & (self.buckets - 1)) * 2 * BUCKET_SLOTS;
        &self.words[first..first + 2 * BUCKET_SLOTS]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after does not wait.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let word = self.bucket(key).as_ptr();
            // SAFETY: prefetching is a hint; it never faults, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(word as *const i8, std::arch::x86_64::_MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The data of `key`'s slot in `bucket`, and the slot, if it is there.
    #[inline]
    pub(super) fn find(bucket: &[AtomicU64], key: u64) -> Option<(usize, u64)> {
        bucket.chunks_exact(2).enumerate().find_map(|(i, slot)| {
            let data = slot[1].load(Ordering::Relaxed);
            (data != 0 && slot[0].load(Ordering::Relaxed) ^ data == key).then_some((i, data))
        })
    }

    /// The bounds stored for `key`, a position of a board of `n` pits per row and captured
    /// margin `margin`. The table holds bounds on what the board will still yield (the value
    /// less the captured margin), which positions that share a [`future_key_for`] share.
    #[inline]
    pub(super) fn probe(&self, key: u64, n: usize, margin: i32) -> Option<Bounds> {
        Self::find(self.bucket(key), key).map(|(_, data)| Bounds {
            lo: from_yield((data as u8 as i8) as i32, margin),
            hi: from_yield(((data >> 8) as u8 as i8) as i32, margin),
            best: Move::from_code((data >> 16) as u8, n),
        })
    }

    /// Stores `bounds` for `key` (see [`SolverTable::probe`]), keeping whatever the slot
    /// already proves of the same position; a new position takes the bucket's cheapest slot.
    pub(super) fn store(&self, key: u64, n: usize, margin: i32, bounds: Bounds, effort: u8) {
        let bucket = self.bucket(key);
        let mut lo = to_yield(bounds.lo, margin);
        let mut hi = to_yield(bounds.hi, margin);
        let mut best = bounds.best;
        let slot = match Self::find(bucket, key) {
            Some((same, data)) => {
                lo = lo.max((data as u8 as i8) as i32);
                hi = hi.min(((data >> 8) as u8 as i8) as i32);
                best = best.or(Move::from_code((data >> 16) as u8, n));
                same
            }
            None => (0..BUCKET_SLOTS)
                .min_by_key(|&i| (bucket[2 * i + 1].load(Ordering::Relaxed) >> 24) as u8)
                .unwrap_or(0),
        };
        let data = (lo as i8 as u8 as u64)
            | (hi as i8 as u8 as u64) << 8
            | (best.map_or(Move::NO_CODE, |mv| mv.code(n)) as u64) << 16
            | (effort.max(1) as u64) << 24;
        bucket[2 * slot].store(key ^ data, Ordering::Relaxed);
        bucket[2 * slot + 1].store(data, Ordering::Relaxed);
    }
}

/// A bound on a value as a bound on what the board yields beyond the captured `margin`; the
/// unbounded ends stay unbounded, and a bound past them becomes no bound (never a wrong one).
pub(super) fn to_yield(bound: i32, margin: i32) -> i32 {
    if bound <= LOWEST || bound >= HIGHEST {
        return bound.clamp(LOWEST, HIGHEST);
    }
    (bound - margin).clamp(LOWEST, HIGHEST)
}

/// [`to_yield`] undone.
pub(super) fn from_yield(bound: i32, margin: i32) -> i32 {
    if bound <= LOWEST || bound >= HIGHEST {
        return bound;
    }
    (bound + margin).clamp(LOWEST, HIGHEST)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--hash 2048` is a table of 2 GiB, not 1 (a power of two used to be halved).
    #[test]
    fn a_table_is_the_size_asked_for_or_the_power_of_two_below() {
        for (mib, expected) in [(1, 1), (16, 16), (2048, 2048), (3000, 2048), (4095, 2048)] {
            assert_eq!(
                SolverTable::buckets_for(mib) * 16 * BUCKET_SLOTS,
                expected << 20,
                "{mib} MiB"
            );
        }
        assert_eq!(SolverTable::new(2).bytes(), 2 << 20);
    }
}
