//! What the solver's two tables share: slots of two words in buckets of one cache line, a
//! table that starts small and doubles as it fills, up to the size asked for.
//!
//! A slot holds the key xor-ed with the data, and the data (never 0 in a used slot), so the key
//! of every slot can be read back: doubling moves each entry to the bucket the new mask gives
//! it. The memory of the largest size is reserved at once but comes untouched from the
//! operating system, and only the buckets in use are ever touched: a solve of a few thousand
//! positions under `--hash 8192` costs what it searches, not 8 GiB of zeroed pages.
//!
//! Threads share a table; one of them doubles it while the others go on. An entry not yet moved
//! is only missed for a while, and a slot torn by two writers no longer matches its key: like a
//! replaced entry, a lost one costs a search again, never a wrong answer.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Slots per bucket: a 64-byte cache line of 16-byte slots.
pub(super) const BUCKET_SLOTS: usize = 4;
/// Words per bucket.
const BUCKET_WORDS: usize = 2 * BUCKET_SLOTS;
/// Bytes per bucket.
const BUCKET_BYTES: usize = 8 * BUCKET_WORDS;
/// The largest table, in MiB (64 GiB).
pub const MAX_SOLVER_TABLE_MIB: usize = 65_536;
/// The buckets of a new table: one huge page.
const FIRST_BUCKETS: usize = (2 << 20) / BUCKET_BYTES;
/// The table doubles once this share of its buckets (1 / `CROWDED`) has had a new entry
/// displace a kept one since it last doubled: about when a third of its slots are used (at an
/// eighth, about 40%, Kalah with 4 per pit searched 1.3% more nodes than with the whole table;
/// at a 32nd, 0.3%).
const CROWDED: usize = 32;

pub(super) struct GrowingBuckets {
    /// Words from `start` on, [`BUCKET_WORDS`] per bucket, for the largest size.
    words: Vec<AtomicU64>,
    /// The first word of the first whole cache line of `words`.
    start: usize,
    /// Buckets in use, a power of two: keys are masked by it.
    buckets: AtomicUsize,
    /// Buckets at the size asked for, a power of two.
    most: usize,
    /// New entries that displaced a kept one since the table last doubled.
    displaced: AtomicUsize,
    /// Set while a thread doubles the table.
    doubling: AtomicBool,
}

impl GrowingBuckets {
    /// A table of at most `mib` MiB (1 to [`MAX_SOLVER_TABLE_MIB`]) when `mib` is a power of
    /// two, else of the largest power of two below it (buckets are found by masking the key).
    pub(super) fn new(mib: usize) -> GrowingBuckets {
        let most = Self::buckets_for(mib);
        let words = mancala_platform::huge_pages::zeroed::<AtomicU64>((most + 1) * BUCKET_WORDS);
        let misalignment = (words.as_ptr() as usize / 8) % BUCKET_WORDS;
        GrowingBuckets {
            start: (BUCKET_WORDS - misalignment) % BUCKET_WORDS,
            words,
            buckets: AtomicUsize::new(most.min(FIRST_BUCKETS)),
            most,
            displaced: AtomicUsize::new(0),
            doubling: AtomicBool::new(false),
        }
    }

    /// The buckets of a table of `mib` MiB: the largest power of two that fits (at least 256).
    fn buckets_for(mib: usize) -> usize {
        let fit = (mib.clamp(1, MAX_SOLVER_TABLE_MIB) << 20) / BUCKET_BYTES;
        (1usize << fit.ilog2()).max(256)
    }

    /// The size asked for, in bytes (the alignment slack aside).
    pub(super) fn capacity_bytes(&self) -> usize {
        self.most * BUCKET_BYTES
    }

    /// The size in use now, in bytes.
    pub(super) fn bytes_in_use(&self) -> usize {
        self.buckets.load(Ordering::Relaxed) * BUCKET_BYTES
    }

    /// Empties the table and takes it back to its first size.
    pub(super) fn clear(&mut self) {
        let used = *self.buckets.get_mut() * BUCKET_WORDS;
        for word in &mut self.words[self.start..self.start + used] {
            *word.get_mut() = 0;
        }
        *self.buckets.get_mut() = self.most.min(FIRST_BUCKETS);
        *self.displaced.get_mut() = 0;
    }

    /// The words of `key`'s bucket.
    #[inline]
    pub(super) fn bucket(&self, key: u64) -> &[AtomicU64] {
        let mask = self.buckets.load(Ordering::Relaxed) - 1;
        let first = self.start + ((key as usize) & mask) * BUCKET_WORDS;
        &self.words[first..first + BUCKET_WORDS]
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

    /// The slot of `key` in `bucket` and its data, if it is there.
    #[inline]
    pub(super) fn find(bucket: &[AtomicU64], key: u64) -> Option<(usize, u64)> {
        bucket.chunks_exact(2).enumerate().find_map(|(i, slot)| {
            let data = slot[1].load(Ordering::Relaxed);
            (data != 0 && slot[0].load(Ordering::Relaxed) ^ data == key).then_some((i, data))
        })
    }

    /// Writes `data` (not 0) for `key` into slot `slot` of `bucket` (from [`Self::bucket`]).
    /// A new entry that displaces a kept one counts towards doubling the table.
    #[inline]
    pub(super) fn write(&self, bucket: &[AtomicU64], slot: usize, key: u64, data: u64) {
        let kept = bucket[2 * slot + 1].load(Ordering::Relaxed);
        if kept != 0 && kept ^ bucket[2 * slot].load(Ordering::Relaxed) != key {
            self.displaced_one();
        }
        bucket[2 * slot].store(key ^ data, Ordering::Relaxed);
        bucket[2 * slot + 1].store(data, Ordering::Relaxed);
    }

    /// Counts a displaced entry; once the table is crowded, doubles it (unless it is at its
    /// size, or another thread is doubling it).
    #[cold]
    fn displaced_one(&self) {
        let buckets = self.buckets.load(Ordering::Relaxed);
        if buckets >= self.most {
            return;
        }
        if self.displaced.fetch_add(1, Ordering::Relaxed) + 1 < buckets / CROWDED {
            return;
        }
        if self
            .doubling
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            self.double(buckets);
            self.doubling.store(false, Ordering::Release);
        }
    }

    /// Doubles a table of `buckets` buckets: each entry whose key has the new mask bit moves to
    /// the bucket as far above its own.
    fn double(&self, buckets: usize) {
        if self.buckets.load(Ordering::Relaxed) != buckets {
            return; // doubled by another thread meanwhile
        }
        self.buckets.store(2 * buckets, Ordering::Relaxed);
        self.displaced.store(0, Ordering::Relaxed);
        for low in 0..buckets {
            let first = self.start + low * BUCKET_WORDS;
            let from = &self.words[first..first + BUCKET_WORDS];
            let high = first + buckets * BUCKET_WORDS;
            let to = &self.words[high..high + BUCKET_WORDS];
            for slot in from.chunks_exact(2) {
                let data = slot[1].load(Ordering::Relaxed);
                if data == 0 {
                    continue;
                }
                let key = slot[0].load(Ordering::Relaxed) ^ data;
                if (key as usize) & buckets == 0 {
                    continue;
                }
                if let Some(free) = to
                    .chunks_exact(2)
                    .find(|s| s[1].load(Ordering::Relaxed) == 0)
                {
                    free[0].store(key ^ data, Ordering::Relaxed);
                    free[1].store(data, Ordering::Relaxed);
                }
                slot[1].store(0, Ordering::Relaxed);
                slot[0].store(0, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--hash 2048` is a table of 2 GiB at most, not 1 (a power of two used to be halved).
    #[test]
    fn a_table_is_the_size_asked_for_or_the_power_of_two_below() {
        for (mib, expected) in [(1, 1), (16, 16), (2048, 2048), (3000, 2048), (4095, 2048)] {
            assert_eq!(
                GrowingBuckets::buckets_for(mib) * BUCKET_BYTES,
                expected << 20,
                "{mib} MiB"
            );
        }
        assert_eq!(GrowingBuckets::new(2).capacity_bytes(), 2 << 20);
    }

    /// Writes `n` entries of distinct keys, each into its bucket's first free slot or else its
    /// first slot, and returns the keys.
    fn fill(table: &GrowingBuckets, n: u64) -> Vec<u64> {
        let keys: Vec<u64> = (1..=n)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            let bucket = table.bucket(key);
            let slot = bucket
                .chunks_exact(2)
                .position(|s| s[1].load(Ordering::Relaxed) == 0)
                .unwrap_or(0);
            table.write(bucket, slot, key, key >> 40 | 1);
        }
        keys
    }

    #[test]
    fn a_table_starts_at_one_huge_page_and_doubles_as_it_fills_up_to_its_size() {
        let table = GrowingBuckets::new(64);
        assert_eq!(table.bytes_in_use(), 2 << 20);
        assert_eq!(table.capacity_bytes(), 64 << 20);
        // A few entries: no doubling.
        fill(&table, 10_000);
        assert_eq!(table.bytes_in_use(), 2 << 20);
        // Far more entries than slots: it doubles up to its size, and no further.
        fill(&table, 20_000_000);
        assert_eq!(table.bytes_in_use(), 64 << 20);
        // A small table is its size at once.
        assert_eq!(GrowingBuckets::new(1).bytes_in_use(), 1 << 20);
    }

    #[test]
    fn doubling_keeps_the_entries_it_moves() {
        let table = GrowingBuckets::new(8);
        // Fill the first size to about a third: no doubling yet.
        let keys = fill(&table, (FIRST_BUCKETS * BUCKET_SLOTS / 3) as u64);
        assert_eq!(table.bytes_in_use(), 2 << 20);
        let found_before = keys
            .iter()
            .filter(|&&k| GrowingBuckets::find(table.bucket(k), k).is_some())
            .count();
        table.double(FIRST_BUCKETS);
        assert_eq!(table.bytes_in_use(), 4 << 20);
        let found_after = keys
            .iter()
            .filter(|&&k| {
                GrowingBuckets::find(table.bucket(k), k).map(|(_, d)| d) == Some(k >> 40 | 1)
            })
            .count();
        assert_eq!(found_after, found_before);
        assert!(found_before > keys.len() * 9 / 10, "{found_before}");
    }

    #[test]
    fn clearing_empties_the_table_and_takes_it_back_to_its_first_size() {
        let mut table = GrowingBuckets::new(16);
        let keys = fill(&table, 2_000_000);
        assert_eq!(table.bytes_in_use(), 16 << 20);
        table.clear();
        assert_eq!(table.bytes_in_use(), 2 << 20);
        assert!(
            keys.iter()
                .all(|&k| GrowingBuckets::find(table.bucket(k), k).is_none())
        );
        // Every word it used is zero again, beyond the first size too.
        assert!(table.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
    }
}
