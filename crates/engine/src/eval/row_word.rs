//! A row of pits packed into machine words, so that the evaluation counts over a row (counters,
//! non-empty pits, big pits, threes) with a few word operations instead of a loop with a branch
//! per pit ("SIMD within a register"). A lane's high bit is set only where its pit holds 128
//! counters or more (one pit at most: no game has more than 255), which is tested apart, so
//! that the lanes never carry into each other.

use mancala_rules::{MAX_ROW, Position, Side, Spec};

const ONES: u64 = u64::MAX / 255;
const HIGH: u64 = ONES * 0x80;
const LOW7: u64 = ONES * 0x7F;

/// One row, 8 pits per word; lanes past the row's end hold zero.
#[derive(Clone, Copy)]
pub struct RowWord([u64; 2]);

impl RowWord {
    /// `side`'s row of `pos`, a position of the game `S`.
    #[inline(always)]
    pub fn of<S: Spec>(pos: &Position, side: Side) -> RowWord {
        const { assert!(MAX_ROW <= 16) };
        let n = S::rules(pos).pits_per_row;
        let first = side.index() * n;
        let mut bytes = [0u8; 16];
        bytes[..n].copy_from_slice(&pos.all_pits()[first..first + n]);
        let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default());
        let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap_or_default());
        RowWord([lo, if n > 8 { hi } else { 0 }])
    }

    /// Counters in the row.
    #[inline(always)]
    pub fn total(self) -> i32 {
        // The top byte of the product is the sum of all bytes (at most 255: no carry).
        let sum = |w: u64| (w.wrapping_mul(ONES) >> 56) as i32;
        sum(self.0[0]) + sum(self.0[1])
    }

    /// Pits holding at least one counter.
    #[inline(always)]
    pub fn non_empty(self) -> i32 {
        count_high(self.0[0], non_empty_lanes) + count_high(self.0[1], non_empty_lanes)
    }

    /// Pits holding at least `k` counters (`k` from 1 to 128).
    #[inline(always)]
    pub fn at_least(self, k: u8) -> i32 {
        // The low 7 bits plus 128 - k reach the high bit where they are k or more; a lane of
        // 128 or more has it already.
        let lanes = |w: u64| ((w & LOW7) + ONES * (0x80 - k as u64)) | w;
        count_high(self.0[0], lanes) + count_high(self.0[1], lanes)
    }

    /// Pits holding exactly `k` counters (`k` not 0).
    #[inline(always)]
    pub fn exactly(self, k: u8) -> i32 {
        // A lane equal to `k` becomes zero; the zero lanes past the row become `k`, not zero.
        let lanes = |w: u64| !non_empty_lanes(w ^ (ONES * k as u64));
        count_high(self.0[0], lanes) + count_high(self.0[1], lanes)
    }
}

/// The high bit of each lane set where the lane is not zero.
#[inline(always)]
fn non_empty_lanes(w: u64) -> u64 {
    ((w & LOW7) + LOW7) | w
}

/// How many lanes of `f(w)` have their high bit set (a multiplication sums the lanes, without
/// relying on a population-count instruction).
#[inline(always)]
fn count_high(w: u64, f: impl Fn(u64) -> u64) -> i32 {
    let bits = (f(w) & HIGH) >> 7;
    (bits.wrapping_mul(ONES) >> 56) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::spec;

    fn check<S: Spec>(variant: mancala_rules::Variant, text: &str) {
        let pos = Position::from_position_string(variant, text).expect("a valid position");
        let lap = S::rules(&pos).pit_count() as u8;
        for side in Side::BOTH {
            let row = &pos.pits()[pos.row(side)];
            let word = RowWord::of::<S>(&pos, side);
            let count = |f: &dyn Fn(u8) -> bool| row.iter().filter(|&&c| f(c)).count() as i32;
            assert_eq!(
                word.total(),
                row.iter().map(|&c| c as i32).sum::<i32>(),
                "{text}"
            );
            assert_eq!(word.non_empty(), count(&|c| c > 0), "{text}");
            assert_eq!(word.at_least(lap), count(&|c| c >= lap), "{text}");
            assert_eq!(word.exactly(3), count(&|c| c == 3), "{text}");
        }
    }

    #[test]
    fn row_words_count_like_loops() {
        use mancala_rules::Variant;
        check::<spec::MangalaII>(Variant::MangalaII, "0-3-12-13-0-3-1-0-0-0-24-16-0-0-S");
        check::<spec::MangalaII>(Variant::MangalaII, "72-0-0-0-0-0-0-0-0-0-0-0-0-0-S");
        check::<spec::AlManqala>(Variant::AlManqala, "3-0-14-3-60-0-0-0-0-0-0-0-0-0-18-0-N");
        check::<spec::Anywoli>(
            Variant::Anywoli,
            "3-3-0-1-24-3-7-0-0-0-3-3-3-0-0-3-1-2-3-0-27-0-3-3-4-0-S-S-S",
        );
        // Kalah takes any total: a pit of 128 or more has its lane's high bit set.
        check::<spec::Kalah>(Variant::Kalah, "200-1-0-13-14-0-0-0-0-0-0-15-0-0-S");
        check::<spec::Kalah>(Variant::Kalah, "0-0-0-0-0-14-0-0-241-0-0-0-0-0-N");
    }
}
