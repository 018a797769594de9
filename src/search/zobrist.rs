//! Zobrist keys: a 64-bit hash of everything in a position that changes future play.

use crate::rules::{MAX_PITS, Position, Side, Spec};

/// Counts a pit or a store can hold (no game has more than 98 counters).
const COUNTS: usize = 99;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Keys {
    pits: [[u64; COUNTS]; MAX_PITS],
    captured: [[u64; COUNTS]; 2],
    north_to_move: u64,
    /// Anywoli's four-holders: [field][S, N, X].
    holders: [[u64; 3]; 2],
    /// Moves without capture, for values near the no-progress limit.
    quiet: [u64; 128],
}

const KEYS: Keys = {
    let mut state = 0x6D61_6E63_616C_6121;
    let mut keys = Keys {
        pits: [[0; COUNTS]; MAX_PITS],
        captured: [[0; COUNTS]; 2],
        north_to_move: 0,
        holders: [[0; 3]; 2],
        quiet: [0; 128],
    };
    let mut i = 0;
    while i < MAX_PITS {
        let mut c = 1; // an empty pit contributes nothing
        while c < COUNTS {
            keys.pits[i][c] = splitmix(&mut state);
            c += 1;
        }
        i += 1;
    }
    let mut s = 0;
    while s < 2 {
        let mut c = 0;
        while c < COUNTS {
            keys.captured[s][c] = splitmix(&mut state);
            c += 1;
        }
        let mut h = 0;
        while h < 3 {
            keys.holders[s][h] = splitmix(&mut state);
            h += 1;
        }
        s += 1;
    }
    keys.north_to_move = splitmix(&mut state);
    let mut q = 0;
    while q < 128 {
        keys.quiet[q] = splitmix(&mut state);
        q += 1;
    }
    keys
};

/// Quiet runs from here on are part of the key: close to the no-progress limit the count changes
/// what the position is worth, further away it only splits transpositions.
pub const QUIET_KEYED_FROM: u16 = 60;

fn holder_index(holder: Option<Side>) -> usize {
    match holder {
        Some(Side::South) => 0,
        Some(Side::North) => 1,
        None => 2,
    }
}

/// The key of `pos` (its position-string state).
pub fn position_key(pos: &Position) -> u64 {
    crate::with_spec!(pos.variant(), S => position_key_for::<S>(pos))
}

/// [`position_key`] for a position of the game `S`.
#[inline(always)]
pub fn position_key_for<S: Spec>(pos: &Position) -> u64 {
    let mut key = 0;
    for (i, &count) in pos.all_pits()[..S::RULES.pit_count()].iter().enumerate() {
        key ^= KEYS.pits[i][count as usize];
    }
    for side in Side::BOTH {
        key ^= KEYS.captured[side.index()][pos.captured(side) as usize];
    }
    if pos.side_to_move() == Side::North {
        key ^= KEYS.north_to_move;
    }
    if S::RULES.stores {
        key ^= KEYS.holders[0][holder_index(pos.last_four())];
        key ^= KEYS.holders[1][holder_index(pos.first_capture())];
    }
    key
}

/// The transposition-table key: the position key, plus the quiet run near the limit.
#[inline]
pub fn table_key(position_key: u64, quiet: u16) -> u64 {
    if quiet >= QUIET_KEYED_FROM {
        position_key ^ KEYS.quiet[(quiet as usize).min(127)]
    } else {
        position_key
    }
}
