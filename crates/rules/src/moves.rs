//! Moves, their names, and a fixed-capacity move list.

use std::fmt;
use std::str::FromStr;

use super::side::Side;

pub use super::rules_record::MAX_ROW;

/// A move as named in the protocol: a pit letter (`A…` South, `a…` North) or `pass`.
///
/// The letter says whose pit it is, so a `Move` means the same in every game; whether it exists on
/// a given board and is legal there is the position's business ([`super::Position::check_move`]).
/// One byte (the side in bit 5, the offset below it), so that move lists are cheap to build
/// and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u8);

const NORTH_BIT: u8 = 32;
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

    /// The sowing side and the pit's offset from that side's left; `None` for `pass`.
    #[inline]
    pub const fn sown(self) -> Option<(Side, u8)> {
        if self.is_pass() {
            None
        } else if self.0 & NORTH_BIT != 0 {
            Some((Side::North, self.0 & (NORTH_BIT - 1)))
        } else {
            Some((Side::South, self.0))
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
    /// pit on a board of `n` pits per row, 31 for `pass`. Five bits; never [`Move::NO_CODE`].
    #[inline]
    pub fn code(self, n: usize) -> u8 {
        match self.pit(n) {
            Some(pit) => pit as u8 + 1,
            None => Self::PASS_TABLE_CODE,
        }
    }

    /// The move of a [`Move::code`] on a board of `n` pits per row; `None` for
    /// [`Move::NO_CODE`].
    #[inline]
    pub fn from_code(code: u8, n: usize) -> Option<Move> {
        match code {
            Self::NO_CODE => None,
            Self::PASS_TABLE_CODE => Some(Move::PASS),
            c => Some(Move::from_pit(c as usize - 1, n)),
        }
    }

    /// The board index of the pit sown from, for a board with `n` pits per row.
    #[inline]
    pub fn pit(self, n: usize) -> Option<usize> {
        (!self.is_pass())
            .then(|| (self.0 & (NORTH_BIT - 1)) as usize + (self.0 / NORTH_BIT) as usize * n)
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
                write!(f, "{}", (base + offset) as char)
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
            "'{}' is not a move name (expected a pit letter A-X or a-x, or pass)",
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
        match s.as_bytes() {
            [c @ b'A'..=b'Z'] if c - b'A' < max => Ok(Move::sow(Side::South, c - b'A')),
            [c @ b'a'..=b'z'] if c - b'a' < max => Ok(Move::sow(Side::North, c - b'a')),
            _ => Err(BadMoveName(s.to_string())),
        }
    }
}

/// The legal moves of a position, in index order, without heap allocation.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_ROW],
    len: u8,
}

impl MoveList {
    pub const fn new() -> Self {
        MoveList {
            moves: [Move::PASS; MAX_ROW],
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
        if (self.len as usize) < MAX_ROW {
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
