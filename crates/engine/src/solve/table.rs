//! The bounds table: proven bounds per position, kept between searches and shared by threads.

use super::buckets::{BUCKET_SLOTS, GrowingBuckets};
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
    /// The slots, in a table that grows with the search up to the size asked for.
    slots: GrowingBuckets,
    /// The last position the solver gave up on, in which game: in the same game, positions with
    /// as many counters are not tried again.
    gave_up: Option<GaveUp>,
}

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
    /// A table of at most `mib` MiB (1 to [`MAX_SOLVER_TABLE_MIB`]) when `mib` is a power of
    /// two, else of the largest power of two below it. It starts at one huge page and doubles
    /// as the search fills it: a small solve touches only the memory it uses.
    pub fn new(mib: usize) -> SolverTable {
        SolverTable {
            slots: GrowingBuckets::new(mib),
            gave_up: None,
        }
    }

    /// The table's largest size in bytes (the size asked for; the alignment slack aside).
    pub fn bytes(&self) -> usize {
        self.slots.capacity_bytes()
    }

    /// The table's size in use now, in bytes.
    pub fn bytes_in_use(&self) -> usize {
        self.slots.bytes_in_use()
    }

    /// Empties the table (back to its first size) and forgets where the solver gave up.
    pub fn clear(&mut self) {
        self.slots.clear();
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

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after does not wait.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        self.slots.prefetch(key);
    }

    /// The bounds stored for `key`, a position of a board of `n` pits per row and captured
    /// margin `margin`. The table holds bounds on what the board will still yield (the value
    /// less the captured margin), which positions that share a [`future_key_for`] share.
    #[inline]
    pub(super) fn probe(&self, key: u64, n: usize, margin: i32) -> Option<Bounds> {
        GrowingBuckets::find(self.slots.bucket(key), key).map(|(_, data)| Bounds {
            lo: from_yield((data as u8 as i8) as i32, margin),
            hi: from_yield(((data >> 8) as u8 as i8) as i32, margin),
            best: Move::from_code((data >> 16) as u8, n),
        })
    }

    /// Stores `bounds` for `key` (see [`SolverTable::probe`]), keeping whatever the slot
    /// already proves of the same position; a new position takes the bucket's cheapest slot.
    pub(super) fn store(&self, key: u64, n: usize, margin: i32, bounds: Bounds, effort: u8) {
        let bucket = self.slots.bucket(key);
        let mut lo = to_yield(bounds.lo, margin, BoundKind::Lower);
        let mut hi = to_yield(bounds.hi, margin, BoundKind::Upper);
        let mut best = bounds.best;
        let slot = match GrowingBuckets::find(bucket, key) {
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
        self.slots.write(bucket, slot, key, data);
    }
}

/// Which bound of a value a yield stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum BoundKind {
    Lower,
    Upper,
}

/// The stored yields are signed bytes: ±127 stand for no bound.
const UNBOUNDED_YIELD: i32 = 127;

/// A bound on a value as a bound on what the board yields beyond the captured `margin`, in the
/// byte the table stores; the unbounded ends stay unbounded, and a yield past what a byte holds
/// becomes a weaker bound or none (never a wrong one: a board yields more than 126 only in a
/// game of more than 126 counters).
pub(super) fn to_yield(bound: i32, margin: i32, kind: BoundKind) -> i32 {
    if bound <= LOWEST {
        return -UNBOUNDED_YIELD;
    }
    if bound >= HIGHEST {
        return UNBOUNDED_YIELD;
    }
    let y = bound - margin;
    match kind {
        BoundKind::Lower => y.clamp(-UNBOUNDED_YIELD, UNBOUNDED_YIELD - 1),
        BoundKind::Upper => y.clamp(1 - UNBOUNDED_YIELD, UNBOUNDED_YIELD),
    }
}

/// [`to_yield`] undone.
pub(super) fn from_yield(bound: i32, margin: i32) -> i32 {
    if bound <= -UNBOUNDED_YIELD {
        return LOWEST;
    }
    if bound >= UNBOUNDED_YIELD {
        return HIGHEST;
    }
    (bound + margin).clamp(LOWEST, HIGHEST)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored bound read back is the bound itself where the yield fits the byte, and never a
    /// wrong one where it does not (a game of more than 126 counters): a lower bound may only
    /// fall, an upper bound only rise.
    #[test]
    fn yields_beyond_a_byte_become_weaker_bounds_never_wrong_ones() {
        let through = |bound: i32, margin: i32, kind: BoundKind| {
            let stored = to_yield(bound, margin, kind);
            assert!((-127..=127).contains(&stored), "{bound} {margin}: {stored}");
            from_yield(stored, margin)
        };
        for margin in [-200, -120, -5, 0, 7, 130, 255] {
            for bound in (LOWEST + 1..HIGHEST).step_by(7) {
                let lower = through(bound, margin, BoundKind::Lower);
                let upper = through(bound, margin, BoundKind::Upper);
                assert!(lower <= bound, "lower {bound} at {margin}: {lower}");
                assert!(upper >= bound, "upper {bound} at {margin}: {upper}");
                if (bound - margin).abs() <= 126 {
                    assert_eq!((lower, upper), (bound, bound), "{bound} at {margin}");
                }
            }
            // The unbounded ends stay unbounded.
            assert_eq!(through(LOWEST, margin, BoundKind::Lower), LOWEST);
            assert_eq!(through(HIGHEST, margin, BoundKind::Upper), HIGHEST);
        }
        // A win by 200 from a captured margin of 80 (a yield of 120) is kept exactly; from 70
        // (a yield of 130, past the byte) it becomes 196. A yield of 150: the lower bound 150
        // becomes 126, the upper none.
        assert_eq!(through(200, 80, BoundKind::Lower), 200);
        assert_eq!(through(200, 70, BoundKind::Lower), 196);
        assert_eq!(through(150, 0, BoundKind::Lower), 126);
        assert_eq!(through(150, 0, BoundKind::Upper), HIGHEST);
    }
}
