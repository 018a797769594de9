//! Position keys: a 64-bit hash of everything in a position that changes future play, for the
//! transposition table and for finding repetitions.
//!
//! A move changes many pits at once, so keys are not updated move by move (as Zobrist keys
//! are) but computed afresh from the position packed in words, mixed by 64 × 64 → 128-bit
//! multiplications (the "multiply and fold" of wyhash). That is a few instructions instead of a
//! table lookup per pit.

use mancala_rules::{Direction, Position, Side, Spec};

/// Mixing constants. Every byte has its high bit set while at most one packed byte of a word
/// does (a count of 128 or more: no game has 256 counters; the other fields are small), so no
/// word xor-ed with its constant is zero, which would blind a multiplication to its other
/// factor.
const K: [u64; 6] = {
    let mut k = [
        0xA076_1D64_78BD_642F,
        0xE703_7ED1_A0B4_28DB,
        0x8EBC_6AF0_9C88_C6E3,
        0x5899_65CC_7537_4CC3,
        0x1D8E_4E27_C47D_124F,
        0x3C4D_1B2A_9F7E_6D51,
    ];
    let mut i = 0;
    while i < k.len() {
        k[i] |= 0x8080_8080_8080_8080;
        i += 1;
    }
    k
};

/// The high and low halves of the full product, xor-ed.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let product = a as u128 * b as u128;
    (product as u64) ^ (product >> 64) as u64
}

#[inline(always)]
fn holder_code(holder: Option<Side>) -> u64 {
    match holder {
        Some(Side::South) => 1,
        Some(Side::North) => 2,
        None => 3,
    }
}

/// The key of `pos` (its position-string state).
pub fn position_key(pos: &Position) -> u64 {
    mancala_rules::with_spec!(pos.variant(), S => position_key_for::<S>(pos))
}

/// [`position_key`] for a position of the game `S`.
#[inline(always)]
pub fn position_key_for<S: Spec>(pos: &Position) -> u64 {
    key_with::<S>(pos, true)
}

/// The key of what decides `pos`'s future play: [`position_key_for`] without the captured
/// totals where the rules never look at them (all but games that end on a majority of
/// captures), and with the game. Positions that differ only in their captured totals then share
/// a key, and their values differ by their captured margins; two games' positions never do,
/// whatever the table they share (the captured totals no longer tell them apart).
#[inline(always)]
pub fn future_key_for<S: Spec>(pos: &Position) -> u64 {
    // (In a game won outright by its goal the value does not follow the captured margin either.)
    // (Nor where captured counters change hands.)
    let rules = S::rules(pos);
    let majority = rules.ends_on_majority() || rules.eliminates() || rules.stores_change_hands();
    key_with::<S>(pos, majority) ^ fold(pos.variant().index() as u64 ^ K[4], K[2])
}

#[inline(always)]
fn key_with<S: Spec>(pos: &Position, with_captured: bool) -> u64 {
    let pits = pos.all_pits();
    let word = |i: usize| {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(&pits[8 * i..8 * i + 8]);
        u64::from_le_bytes(bytes)
    };
    let mut state = (pos.side_to_move().index() as u64) << 16;
    if with_captured {
        state |= pos.captured(Side::South) as u64 | (pos.captured(Side::North) as u64) << 8;
    }
    let rules = S::rules(pos);
    if rules.tracks_four_holders() {
        state |= holder_code(pos.last_four()) << 24 | holder_code(pos.first_capture()) << 32;
    }
    if rules.tracks_extra_move() {
        state |= (pos.on_extra_move() as u64) << 17;
    }
    if rules.tracks_crossing() {
        // The pit a single counter crossed into, plus one: at most 24, bits 18 to 22.
        state |= pos.crossed_into().map_or(0, |pit| pit as u64 + 1) << 18;
    }
    if rules.tracks_directions() {
        // The way South sows, where the first move chose it: bits 23 and 24.
        let code = match pos.direction_of_side(Side::South) {
            None => 0,
            Some(Direction::CounterClockwise) => 1,
            Some(Direction::Clockwise) => 2,
        };
        state |= code << 23;
    }
    if rules.opening_moves() > 0 {
        // The opening's moves played, at most 16: bits 26 to 30.
        state |= (pos.opening_moves_played() as u64) << 26;
    }
    if rules.territory() {
        // At most 12 pits: bits 40 to 51 (a match for territory blocks no pits).
        state |= (pos.north_owned_pits() as u64) << 40;
    }
    if rules.blocks_pits() {
        // At most 24 pits: bits 40 to 63 (no game both blocks pits and tracks the four holders).
        state |= (pos.blocked_pits() as u64) << 40;
    }
    // Pits past the board are always zero: a board of at most 16 pits needs two words.
    let third = if rules.pit_count() > 16 { word(2) } else { 0 };
    let mut mixed = fold(word(0) ^ K[0], word(1) ^ K[1]) ^ fold(third ^ K[2], state ^ K[3]);
    if rules.has_children() {
        // Each player's children, a bit a pit: South's in the low half, North's in the high.
        let children =
            pos.children_of(Side::South) as u64 | (pos.children_of(Side::North) as u64) << 32;
        mixed ^= fold(children ^ K[5], K[1]);
    }
    fold(mixed ^ K[4], K[5])
}

/// Quiet runs from here on are part of the key: close to the no-progress limit the count changes
/// what the position is worth, further away it only splits transpositions.
pub const QUIET_KEYED_FROM: u16 = 60;

/// The transposition-table key: the position key, plus the quiet run near the limit.
#[inline]
pub fn table_key(position_key: u64, quiet: u16) -> u64 {
    if quiet >= QUIET_KEYED_FROM {
        fold(position_key ^ K[2], K[3] ^ quiet as u64)
    } else {
        position_key
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use mancala_rules::{SplitMix64, Variant};

    /// Distinct positions reached by random play get distinct keys, and equal ones equal keys.
    #[test]
    fn keys_tell_positions_apart() {
        for variant in Variant::ALL {
            let mut seen: HashMap<u64, Position> = HashMap::new();
            let mut rng = SplitMix64::new(7);
            for game in 0..300 {
                // Mangala IV's play is forced: vary its deals instead.
                let mut pos = if variant == Variant::MangalaIV {
                    Position::mangala_iv_deal(game)
                } else {
                    Position::start(variant)
                };
                for _ in 0..60 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let pick = (rng.next_u64() % legal.len() as u64) as usize;
                    pos.play_unchecked(legal.as_slice()[pick]);
                    let key = position_key(&pos);
                    if let Some(earlier) = seen.insert(key, pos) {
                        assert_eq!(earlier, pos, "{variant}: two positions share a key");
                    }
                }
            }
            assert!(
                seen.len() > 1000,
                "{variant}: only {} positions",
                seen.len()
            );
        }
    }

    /// Captured totals split another way share the future key; another game never does, nor
    /// another side to move.
    #[test]
    fn future_keys_leave_out_captures_but_not_the_game() {
        let key = |variant: Variant, text: &str| {
            let pos = Position::from_position_string(variant, text).expect("a valid position");
            mancala_rules::with_spec!(variant, S => future_key_for::<S>(&pos))
        };
        let board = "1-0-2-0-1-0-0-1-0-2-0-1";
        let kalah = key(Variant::Kalah, &format!("{board}-20-20-S"));
        assert_eq!(kalah, key(Variant::Kalah, &format!("{board}-30-10-S")));
        assert_ne!(kalah, key(Variant::Kalah, &format!("{board}-20-20-N")));
        assert_ne!(kalah, key(Variant::Oware, &format!("{board}-20-20-S")));
        // Oware ends on a majority of captures: its captures stay in the key.
        assert_ne!(
            key(Variant::Oware, &format!("{board}-20-20-S")),
            key(Variant::Oware, &format!("{board}-30-10-S"))
        );
    }

    #[test]
    fn every_field_of_the_state_changes_the_key() {
        let pos = Position::from_position_string(
            Variant::Anywoli,
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-4-4-S-S-N",
        )
        .expect("a valid position");
        let key = position_key(&pos);
        for text in [
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-4-4-N-S-N",
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-4-4-S-N-N",
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-4-4-S-S-S",
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-4-4-S-X-N",
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-4-0-4-4-S-S-N",
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-8-0-S-S-N",
        ] {
            let other =
                Position::from_position_string(Variant::Anywoli, text).expect("a valid position");
            assert_ne!(position_key(&other), key, "{text}");
        }
        assert_ne!(table_key(key, QUIET_KEYED_FROM), key);
        assert_ne!(
            table_key(key, QUIET_KEYED_FROM),
            table_key(key, QUIET_KEYED_FROM + 1)
        );
        assert_eq!(table_key(key, QUIET_KEYED_FROM - 1), key);
    }
}
