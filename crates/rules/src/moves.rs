//! Moves, their names, and a fixed-capacity move list.

use std::fmt;
use std::str::FromStr;

use super::rules_record::Direction;
use super::side::Side;

pub use super::rules_record::{MAX_MOVES, MAX_ROW};

/// A move as named in the protocol: a pit letter (`A…` South, `a…` North) or `pass`; in a game
/// whose player chooses the direction of some pits, the letter and `>` (counter-clockwise,
/// towards the row's next letter) or `<` (clockwise).
///
/// The letter says whose pit it is, so a `Move` means the same in every game; whether it exists on
/// a given board and is legal there is the position's business ([`super::Position::check_move`]).
/// One byte (the side in bit 5, the offset below it, a chosen direction in bit 6 or 7), so that
/// move lists are cheap to build and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u8);

const NORTH_BIT: u8 = 32;
const OFFSET_BITS: u8 = NORTH_BIT - 1;
const COUNTER_CLOCKWISE_BIT: u8 = 64;
const CLOCKWISE_BIT: u8 = 128;
const PASS_CODE: u8 = u8::MAX;

impl Move {
    /// The move of a player with an empty row.
    pub const PASS: Move = Move(PASS_CODE);

    /// Sowing from the pit `offset` places from `side`'s left (`offset` below `2 × MAX_ROW`).
    #[inline]
    pub const fn sow(side: Side, offset: u8) -> Move {
        debug_assert!(offset < NORTH_BIT);
        Move(offset | (side.index() as u8 * NORTH_BIT))
    }

    /// The same pit sown in `direction`, chosen by the player (a pit whose game lets them).
    #[inline]
    pub const fn toward(self, direction: Direction) -> Move {
        if self.is_pass() {
            return self;
        }
        let base = self.0 & (NORTH_BIT | OFFSET_BITS);
        match direction {
            Direction::CounterClockwise => Move(base | COUNTER_CLOCKWISE_BIT),
            Direction::Clockwise => Move(base | CLOCKWISE_BIT),
        }
    }

    /// The direction the player chose for this move; `None` where the game decides it (and for
    /// `pass`).
    #[inline]
    pub const fn chosen_direction(self) -> Option<Direction> {
        if self.is_pass() {
            None
        } else if self.0 & COUNTER_CLOCKWISE_BIT != 0 {
            Some(Direction::CounterClockwise)
        } else if self.0 & CLOCKWISE_BIT != 0 {
            Some(Direction::Clockwise)
        } else {
            None
        }
    }

    /// The move from the same pit without a chosen direction.
    #[inline]
    pub const fn undirected(self) -> Move {
        if self.is_pass() {
            self
        } else {
            Move(self.0 & (NORTH_BIT | OFFSET_BITS))
        }
    }

    /// The sowing side and the pit's offset from that side's left; `None` for `pass`.
    #[inline]
    pub const fn sown(self) -> Option<(Side, u8)> {
        if self.is_pass() {
            None
        } else if self.0 & NORTH_BIT != 0 {
            Some((Side::North, self.0 & OFFSET_BITS))
        } else {
            Some((Side::South, self.0 & OFFSET_BITS))
        }
    }

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == PASS_CODE
    }

    /// The move that sows from board index `pit` of a board with `n` pits per row.
    #[inline]
    pub fn from_pit(pit: usize, n: usize) -> Move {
        if pit < n {
            Move::sow(Side::South, pit as u8)
        } else {
            Move::sow(Side::North, (pit - n) as u8)
        }
    }

    /// The code of "no move" among [`Move::code`]s.
    pub const NO_CODE: u8 = 0;
    /// The code of `pass`.
    const PASS_TABLE_CODE: u8 = 31;

    /// The move as a small number, for tables that store moves in few bits: 1 + the index of its
    /// pit on a board of `n` pits per row, 31 for `pass`, and 32 (64) more for a chosen
    /// counter-clockwise (clockwise) direction. Seven bits; never [`Move::NO_CODE`].
    #[inline]
    pub fn code(self, n: usize) -> u8 {
        match self.pit(n) {
            Some(pit) => {
                let chosen = match self.chosen_direction() {
                    None => 0,
                    Some(Direction::CounterClockwise) => 32,
                    Some(Direction::Clockwise) => 64,
                };
                pit as u8 + 1 + chosen
            }
            None => Self::PASS_TABLE_CODE,
        }
    }

    /// The largest [`Move::code`]: codes fit in this many bits.
    pub const CODE_BITS: u32 = 7;

    /// The move of a [`Move::code`] on a board of `n` pits per row; `None` for
    /// [`Move::NO_CODE`].
    #[inline]
    pub fn from_code(code: u8, n: usize) -> Option<Move> {
        match code {
            Self::NO_CODE => None,
            Self::PASS_TABLE_CODE => Some(Move::PASS),
            c => {
                let plain = Move::from_pit((c & 31) as usize - 1, n);
                Some(match c >> 5 {
                    1 => plain.toward(Direction::CounterClockwise),
                    2 => plain.toward(Direction::Clockwise),
                    _ => plain,
                })
            }
        }
    }

    /// The board index of the pit sown from, for a board with `n` pits per row.
    #[inline]
    pub fn pit(self, n: usize) -> Option<usize> {
        (!self.is_pass()).then(|| {
            (self.0 & OFFSET_BITS) as usize + ((self.0 & NORTH_BIT) / NORTH_BIT) as usize * n
        })
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sown() {
            Some((side, offset)) => {
                let base = match side {
                    Side::South => b'A',
                    Side::North => b'a',
                };
                write!(f, "{}", (base + offset) as char)?;
                match self.chosen_direction() {
                    Some(Direction::CounterClockwise) => f.write_str(">"),
                    Some(Direction::Clockwise) => f.write_str("<"),
                    None => Ok(()),
                }
            }
            None => f.write_str("pass"),
        }
    }
}

/// Text that is not a move name in any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMoveName(pub String);

impl fmt::Display for BadMoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move name (expected a pit letter A-X or a-x, with > or < where the \
             player chooses the direction, or pass)",
            self.0
        )
    }
}

impl std::error::Error for BadMoveName {}

impl FromStr for Move {
    type Err = BadMoveName;

    /// Case matters: `A` is South's first pit and `a` is North's. `pass` is a word, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let max = (2 * MAX_ROW) as u8;
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let (pit, chosen) = match s.as_bytes() {
            [pit] => (*pit, None),
            [pit, b'>'] => (*pit, Some(Direction::CounterClockwise)),
            [pit, b'<'] => (*pit, Some(Direction::Clockwise)),
            _ => return Err(BadMoveName(s.to_string())),
        };
        let plain = match pit {
            c @ b'A'..=b'Z' if c - b'A' < max => Move::sow(Side::South, c - b'A'),
            c @ b'a'..=b'z' if c - b'a' < max => Move::sow(Side::North, c - b'a'),
            _ => return Err(BadMoveName(s.to_string())),
        };
        Ok(match chosen {
            Some(direction) => plain.toward(direction),
            None => plain,
        })
    }
}

/// The legal moves of a position, in index order, without heap allocation.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl MoveList {
    pub const fn new() -> Self {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// Appends `mv` if `keep`, without a branch (the slot past the end is written either way).
    #[inline(always)]
    pub fn push_if(&mut self, mv: Move, keep: bool) {
        if (self.len as usize) < MAX_MOVES {
            self.moves[self.len as usize] = mv;
        }
        self.len += keep as u8;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Display for MoveList {
    /// The moves separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, mv) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_round_trip_with_and_without_a_chosen_direction() {
        for name in ["A", "F", "l", "A>", "A<", "x>", "c<", "pass"] {
            let mv: Move = name.parse().unwrap();
            assert_eq!(mv.to_string(), name);
            for n in [3, 6, 12] {
                if mv.sown().is_none_or(|(_, offset)| (offset as usize) < n) {
                    assert_eq!(Move::from_code(mv.code(n), n), Some(mv), "{name} on 2x{n}");
                    assert!(mv.code(n) < 1 << Move::CODE_BITS);
                }
            }
        }
        // The direction changes the move, not its pit.
        let plain: Move = "C".parse().unwrap();
        let left = plain.toward(Direction::Clockwise);
        assert_ne!(left, plain);
        assert_eq!(left.pit(6), plain.pit(6));
        assert_eq!(left.sown(), plain.sown());
        assert_eq!(left.undirected(), plain);
        assert_eq!(left.chosen_direction(), Some(Direction::Clockwise));
        assert_eq!(plain.chosen_direction(), None);
        for bad in ["A<>", ">", "A=", "Y>", "pass<"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
