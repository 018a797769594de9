//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the key xor-ed with the data, and the data. A torn write (two
//! threads storing the same slot at once) leaves a pair whose xor matches no key, so it is simply
//! never found. The data word holds, from the low bits: the value (20 bits, signed), the depth
//! (8), the best move (5), the bound (2), the generation (8), and the bounds on the final margin
//! (9 + 9, signed). Entries come in buckets of four (one cache line); a new entry replaces the same
//! position, else the shallowest entry, older generations first.
//!
//! A result that depends on the line that reached its position (a repetition or no-progress end
//! drawing on positions above it, see [`crate::node::score::Scored`]) is stored under its key xor-ed
//! with a salt drawn anew for every search: the search that made it finds it again, and no later
//! search does, so that what one game or one root left behind never stands for the value of a
//! position in another.

use std::alloc::{self, Layout};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::node::score::{Margin, Value};
use mancala_rules::Move;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: Value,
    pub depth: u8,
    pub bound: Bound,
    pub best: Option<Move>,
    /// Bounds on the true final margin (see [`crate::node::score::Scored`]).
    pub lo: Margin,
    pub hi: Margin,
    /// Whether the result is the position's own; `false` for the result of a line of the current
    /// search (found only by that search).
    pub own: bool,
}

const VALUE_BITS: u32 = 20;
const DEPTH_SHIFT: u32 = 20;
const MOVE_SHIFT: u32 = 28;
/// A move's code: `Move::CODE_BITS` bits.
const MOVE_MASK: u64 = (1 << Move::CODE_BITS) - 1;
const BOUND_SHIFT: u32 = MOVE_SHIFT + Move::CODE_BITS;
const GENERATION_SHIFT: u32 = BOUND_SHIFT + 2;
const LO_SHIFT: u32 = GENERATION_SHIFT + 8;
const HI_SHIFT: u32 = LO_SHIFT + MARGIN_BITS;
const _: () = assert!(HI_SHIFT + MARGIN_BITS <= 64, "an entry's data is one word");
/// A margin's bits: every margin from [`crate::node::score::NO_MARGIN`] to 255.
const MARGIN_BITS: u32 = 9;
const MARGIN_MASK: u64 = (1 << MARGIN_BITS) - 1;

/// The signed margin in the `MARGIN_BITS` bits of `data` from `shift`.
#[inline]
fn unpack_margin(data: u64, shift: u32) -> Margin {
    (((data >> shift) << (64 - MARGIN_BITS)) as i64 >> (64 - MARGIN_BITS)) as Margin
}

/// The signed value in the low `VALUE_BITS` bits of `data`.
#[inline]
fn unpack_value(data: u64) -> Value {
    ((data << (64 - VALUE_BITS)) as i64 >> (64 - VALUE_BITS)) as Value
}

const BUCKET: usize = 4;
/// Words (`AtomicU64`) per bucket: two per entry.
const BUCKET_WORDS: usize = 2 * BUCKET;
const BUCKET_BYTES: usize = BUCKET_WORDS * 8;
const CACHE_LINE_WORDS: usize = 64 / 8;

/// The largest table accepted, in MiB.
pub const MAX_HASH_MIB: usize = 16 * 1024;

pub struct TranspositionTable {
    /// The buckets, `BUCKET_WORDS` words each, from `start` on (the first cache-line boundary:
    /// the memory is asked for with the alignment of a word, see [`TranspositionTable::new`]).
    words: Vec<AtomicU64>,
    start: usize,
    buckets: usize,
    generation: AtomicU8,
    /// The current search's salt for the keys of line-dependent results (never 0).
    salt: AtomicU64,
    /// Searches begun, from which each salt is drawn.
    searches: AtomicU64,
}

/// The table could not be given the memory asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    pub mib: usize,
}

/// The salt of the `search`th search: SplitMix64's output function, which gives distinct values
/// for distinct inputs, made odd so that it is never 0.
fn salt_of(search: u64) -> u64 {
    let mut z = search.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) | 1
}

fn encode_move(mv: Option<Move>, n: usize) -> u64 {
    mv.map_or(Move::NO_CODE, |mv| mv.code(n)) as u64
}

fn decode_move(code: u64, n: usize) -> Option<Move> {
    Move::from_code(code as u8, n)
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one bucket). Memory is asked for without aborting the
    /// process if it cannot be had, and zeroed by the allocator: large tables come straight from
    /// the operating system as untouched zero pages, so a big `Hash` costs neither time nor
    /// resident memory until the search fills it.
    pub fn new(mib: usize) -> Result<TranspositionTable, OutOfMemory> {
        let buckets = ((mib.min(MAX_HASH_MIB) << 20) / BUCKET_BYTES).max(1);
        // Word alignment, not cache-line alignment: only small alignments are served by
        // `calloc`, which hands out untouched zero pages; larger ones are zeroed by hand.
        let len = buckets * BUCKET_WORDS + CACHE_LINE_WORDS - 1;
        let layout = Layout::array::<AtomicU64>(len).map_err(|_| OutOfMemory { mib })?;
        // SAFETY: the layout is not empty.
        let memory = unsafe { alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
        if memory.is_null() {
            return Err(OutOfMemory { mib });
        }
        // SAFETY: `memory` was allocated by the global allocator with the layout of `len`
        // words, and all-zero bytes are a valid `AtomicU64` (holding 0).
        let words = unsafe { Vec::from_raw_parts(memory, len, len) };
        let misalignment = (memory as usize / 8) % CACHE_LINE_WORDS;
        let start = (CACHE_LINE_WORDS - misalignment) % CACHE_LINE_WORDS;
        Ok(TranspositionTable {
            words,
            start,
            buckets,
            generation: AtomicU8::new(0),
            salt: AtomicU64::new(salt_of(0)),
            searches: AtomicU64::new(0),
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks a new search: older entries become the first to be replaced, and the results of
    /// the last search's lines are no longer found.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        let search = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        self.salt.store(salt_of(search), Ordering::Relaxed);
    }

    /// The bucket of `key`: its entries as (key ^ data, data) word pairs.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        self.bucket_at(index)
    }

    #[inline]
    fn bucket_at(&self, index: usize) -> &[AtomicU64] {
        let first = self.start + index * BUCKET_WORDS;
        &self.words[first..first + BUCKET_WORDS]
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after does not
    /// wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.bucket(key).as_ptr();
            // SAFETY: prefetching is a hint; it never faults, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    bucket as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any: the position's own result, or one of the current
    /// search's lines.
    #[inline]
    pub fn probe(&self, key: u64, pits_per_row: usize) -> Option<Entry> {
        let bucket = self.bucket(key);
        let salted = key ^ self.salt.load(Ordering::Relaxed);
        for slot in bucket.chunks_exact(2) {
            let data = slot[1].load(Ordering::Relaxed);
            let stored = slot[0].load(Ordering::Relaxed) ^ data;
            if data != 0 && (stored == key || stored == salted) {
                let bound = match (data >> BOUND_SHIFT) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => continue,
                };
                return Some(Entry {
                    value: unpack_value(data),
                    depth: (data >> DEPTH_SHIFT) as u8,
                    bound,
                    best: decode_move((data >> MOVE_SHIFT) & MOVE_MASK, pits_per_row),
                    lo: unpack_margin(data, LO_SHIFT),
                    hi: unpack_margin(data, HI_SHIFT),
                    own: stored == key,
                });
            }
        }
        None
    }

    /// Stores what a search found for `key`: `entry.best` of `None` keeps the move already
    /// stored for the same position.
    pub fn store(&self, key: u64, pits_per_row: usize, entry: Entry) {
        let Entry {
            value,
            depth,
            bound,
            best,
            lo,
            hi,
            own,
        } = entry;
        debug_assert!(value.unsigned_abs() < 1 << (VALUE_BITS - 1));
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let salted = key ^ self.salt.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut kept_move = None;
        for (i, slot) in bucket.chunks_exact(2).enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let stored = slot[0].load(Ordering::Relaxed) ^ data;
            if stored == key || stored == salted {
                victim = i;
                kept_move = decode_move((data >> MOVE_SHIFT) & MOVE_MASK, pits_per_row);
                break;
            }
            let age = generation.wrapping_sub((data >> GENERATION_SHIFT) as u8) as i32;
            let worth = ((data >> DEPTH_SHIFT) as u8) as i32 - 8 * age;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let best = best.or(kept_move);
        let data = (value as u64 & ((1 << VALUE_BITS) - 1))
            | (depth as u64) << DEPTH_SHIFT
            | encode_move(best, pits_per_row) << MOVE_SHIFT
            | (bound as u64) << BOUND_SHIFT
            | (generation as u64) << GENERATION_SHIFT
            | (lo as u64 & MARGIN_MASK) << LO_SHIFT
            | (hi as u64 & MARGIN_MASK) << HI_SHIFT;
        let slot = &bucket[2 * victim..2 * victim + 2];
        let key = if own { key } else { salted };
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Per mille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.min(250);
        let mut used = 0;
        for index in 0..sample {
            for slot in self.bucket_at(index).chunks_exact(2) {
                let data = slot[1].load(Ordering::Relaxed);
                if data != 0 && (data >> GENERATION_SHIFT) as u8 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: Value, depth: u8, bound: Bound, best: Option<Move>) -> Entry {
        Entry {
            value,
            depth,
            bound,
            best,
            lo: -98,
            hi: 98,
            own: true,
        }
    }

    #[test]
    fn stored_entries_are_found_with_their_data() {
        let table = TranspositionTable::new(1).unwrap();
        let mv = Move::from_pit(9, 6);
        let stored = Entry {
            lo: -3,
            hi: 98,
            ..entry(-1234, 7, Bound::Lower, Some(mv))
        };
        table.store(0xDEAD_BEEF, 6, stored);
        assert_eq!(table.probe(0xDEAD_BEEF, 6), Some(stored));
        assert_eq!(table.probe(0xDEAD_BEEE, 6), None);
        // A later store without a move keeps the known one.
        table.store(0xDEAD_BEEF, 6, entry(55, 9, Bound::Exact, None));
        assert_eq!(table.probe(0xDEAD_BEEF, 6).unwrap().best, Some(mv));
        table.store(0x1234, 6, entry(1, 1, Bound::Upper, Some(Move::PASS)));
        assert_eq!(table.probe(0x1234, 6).unwrap().best, Some(Move::PASS));
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF, 6), None);
    }

    #[test]
    fn a_lines_result_is_found_by_its_own_search_only() {
        let table = TranspositionTable::new(1).unwrap();
        table.new_search();
        let own = entry(100, 5, Bound::Exact, None);
        let line = Entry {
            own: false,
            ..entry(-300, 9, Bound::Lower, Some(Move::from_pit(2, 6)))
        };
        table.store(0xAAAA, 6, own);
        table.store(0xBBBB, 6, line);
        assert_eq!(table.probe(0xAAAA, 6), Some(own));
        assert_eq!(table.probe(0xBBBB, 6), Some(line));
        table.new_search();
        assert_eq!(table.probe(0xAAAA, 6), Some(own));
        assert_eq!(table.probe(0xBBBB, 6), None, "another search's line");
        // A line's result replaces the position's own entry in the same search, and the next
        // search finds neither.
        table.store(0xAAAA, 6, line);
        assert_eq!(table.probe(0xAAAA, 6), Some(line));
        table.new_search();
        assert_eq!(table.probe(0xAAAA, 6), None);
    }

    #[test]
    fn every_value_and_bound_round_trips() {
        use crate::node::score::{INFINITY, NO_MARGIN, proven};
        let table = TranspositionTable::new(1).unwrap();
        let values = [
            -INFINITY,
            proven(-255, 0),
            proven(-98, 0),
            -1,
            0,
            1,
            proven(98, 3),
            proven(255, 127),
            INFINITY,
        ];
        for value in values {
            let margins = [
                (-98, 98),
                (-98, -98),
                (0, 0),
                (98, 98),
                (-5, 7),
                (-255, 255),
                (NO_MARGIN, NO_MARGIN),
                (162, 200),
            ];
            for (lo, hi) in margins {
                let stored = Entry {
                    lo,
                    hi,
                    ..entry(value, 255, Bound::Upper, Some(Move::from_pit(11, 6)))
                };
                table.store(77, 6, stored);
                assert_eq!(table.probe(77, 6), Some(stored));
            }
        }
    }

    #[test]
    fn buckets_start_on_cache_lines_and_fill_the_size() {
        for mib in [0, 1, 3] {
            let table = TranspositionTable::new(mib).unwrap();
            assert_eq!(table.bucket_at(0).as_ptr() as usize % 64, 0);
            assert_eq!(table.bytes(), (mib << 20).max(BUCKET_BYTES));
            let last = table.bucket_at(table.buckets - 1);
            assert_eq!(last.len(), BUCKET_WORDS);
            // Every key lands in the table.
            for key in [0, 1, u64::MAX, 0x8000_0000_0000_0000] {
                table.store(key, 6, entry(3, 1, Bound::Exact, None));
                assert_eq!(table.probe(key, 6).map(|e| e.value), Some(3));
            }
        }
    }
}
