//! Random numbers from a 64-bit seed, and Mangala IV's random deal made with them (RULES.md,
//! "Mangala IV").

use super::position::{MAX_PITS, Position};
use super::side::Side;
use super::variant::Variant;

/// SplitMix64: the crate's random numbers, the same sequence from the same seed on every
/// machine. It is exactly the generator RULES.md, "Mangala IV" gives for the deal, so that every
/// implementation deals the same board; random openings, self-play and the engine's random
/// strategy draw from it too.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Position {
    /// Mangala IV's random deal: two counters in every pit, then the other 70 one at a time into
    /// pit `next % 14`; South to move.
    pub fn mangala_iv_deal(seed: u64) -> Position {
        Position::random_deal(Variant::MangalaIV, seed)
    }

    /// A random deal of `variant`'s counters from `seed`, as Mangala IV's is made: two counters
    /// in every pit (fewer where the game has too few for that), then the others one at a time
    /// into pit `next % 2N`; South to move.
    pub fn random_deal(variant: Variant, seed: u64) -> Position {
        let rules = variant.rules();
        let len = rules.pit_count();
        let base = (rules.total() / len as u32).min(2);
        let mut pits = [0u8; MAX_PITS];
        pits[..len].fill(base as u8);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..rules.total() - base * len as u32 {
            pits[(rng.next_u64() % len as u64) as usize] += 1;
        }
        Position {
            variant,
            pits,
            captured: [0; 2],
            total: rules.total() as u8,
            side_to_move: Side::South,
            marks: [0; 2],
            blocked: 0,
            round_starter: Side::South,
            on_extra_move: false,
            crossed_into: 0,
            north_owned: rules.start_owners(),
            south_direction: None,
            children: [0; 2],
            opening: 0,
        }
    }
}
