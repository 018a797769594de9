//! Where a sowing ends, looked up instead of computed: for every pit and hand, the pit the last
//! counter lands in and what the sowing itself adds there. The capture test of one-lap games
//! (the hottest code of the search: move ordering, quiescence and the evaluation's threat term
//! all ask it for every pit) is then a load, a mask and an add.

use super::position::MAX_PITS;
use super::variant::{Direction, Rules};

/// Every hand a byte can hold is in the table (no game has more than 255 counters).
pub const MAX_HAND: usize = 256;

/// The end of one sowing. Four bytes, so that a lookup is one load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(4))]
pub struct Landing {
    /// The pit the last counter lands in.
    pub pit: u8,
    /// All ones, or zero when the hand is whole laps and lands in its own (emptied) pit.
    pub keep: u8,
    /// Counters the sowing puts into the landing pit.
    pub added: u8,
}

/// The pit `steps` on from `pit` in `direction`, on a ring of `len` pits.
const fn step(direction: Direction, pit: usize, steps: usize, len: usize) -> usize {
    match direction {
        Direction::CounterClockwise => (pit + steps) % len,
        Direction::Clockwise => (pit + len - steps % len) % len,
    }
}

/// The landings of every pit and hand of one game.
pub struct LandingTable([Landing; MAX_PITS * MAX_HAND]);

impl LandingTable {
    /// The landings of `rules`' ring of pits. A game whose laps skip their origin has a ring one
    /// pit shorter for every lap after the first; a game with its store in the ring is looked up
    /// as if it had none (its captures are judged by their own test, not from this table).
    pub const fn new(rules: &Rules) -> LandingTable {
        let len = rules.pit_count();
        // Where each player sows round its own row, a pit's ring is its row.
        let n = rules.pits_per_row;
        let ring_len = if rules.own_row_ring { n } else { len };
        let mut table = [Landing {
            pit: 0,
            keep: 0,
            added: 0,
        }; MAX_PITS * MAX_HAND];
        let mut pit = 0;
        while pit < len {
            let first = if rules.own_row_ring && pit >= n { n } else { 0 };
            let local = pit - first;
            let mut hand = 0;
            while hand < MAX_HAND {
                table[pit * MAX_HAND + hand] = if rules.skip_origin && hand > 0 {
                    // The ring without the origin: the last counter lands 1 to 2N - 1 steps on.
                    let ring = ring_len - 1;
                    let steps = (hand - 1) % ring + 1;
                    Landing {
                        pit: (first + step(rules.direction, local, steps, ring_len)) as u8,
                        keep: u8::MAX,
                        added: ((hand - steps) / ring + 1) as u8,
                    }
                } else {
                    let (rounds, rest) = (hand / ring_len, hand % ring_len);
                    Landing {
                        pit: (first + step(rules.direction, local, rest, ring_len)) as u8,
                        keep: if rest == 0 { 0 } else { u8::MAX },
                        added: (rounds + (rest != 0) as usize) as u8,
                    }
                };
                hand += 1;
            }
            pit += 1;
        }
        LandingTable(table)
    }

    /// Where a hand of `hand` counters lifted from `pit` ends.
    #[inline(always)]
    pub fn get(&self, pit: usize, hand: u8) -> Landing {
        self.0[pit * MAX_HAND + hand as usize]
    }
}
