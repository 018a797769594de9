//! The four games as data: every rule that differs between them is a field of [`Rules`].

use std::fmt;
use std::str::FromStr;

/// One of the games the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    #[default]
    MangalaII,
    MangalaIV,
    AlManqala,
    Anywoli,
}

/// Sowing direction, as seen from above with South at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Index `+1`.
    CounterClockwise,
    /// Index `-1`.
    Clockwise,
}

/// Which pits a player may move from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveChoice {
    /// Any non-empty pit of the mover's row.
    AnyPit,
    /// Only the leftmost (lowest-index) non-empty pit of the mover's row: no choice at all.
    Leftmost,
}

/// Counts that a capture takes, as a bit set (bit `c` set means a pit holding `c` is taken).
/// 128 bits: every count a pit can hold (at most 98) has its bit, so a test needs no range check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureCounts(u128);

impl CaptureCounts {
    pub const fn of(counts: &[u8]) -> Self {
        let mut bits = 0u128;
        let mut i = 0;
        while i < counts.len() {
            bits |= 1 << counts[i];
            i += 1;
        }
        CaptureCounts(bits)
    }

    #[inline]
    pub const fn contains(self, count: u8) -> bool {
        (self.0 >> (count & 127)) & 1 != 0
    }
}

/// How a move's sowing goes on after the last counter of a lap lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Laps {
    /// One lap; then a backward capture chain over pits holding one of `captures`.
    Single { captures: CaptureCounts },
    /// Mangala IV: an empty landing pit ends the move, a capturable count captures (with the
    /// opposite pit), anything else is lifted and sown on.
    RelayWithOpposite { captures: CaptureCounts },
    /// Anywoli: mid-sow fours go to the pit's owner; a last seed making four is taken by the mover,
    /// who moves again; a last seed making one ends the move; otherwise relay.
    RelayFours,
}

/// What a game's own end looks like (besides the history rules, which every game shares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnEnd {
    /// The game ends when the board is empty.
    EmptyBoard,
    /// Anywoli: the game ends when the board holds 0 or exactly 4 seeds.
    LastFour,
}

/// How counters left on the board are shared when the game ends by repetition, no progress or an
/// endless move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// Half to each player.
    SplitEvenly,
    /// The counters on each row go to the row's owner.
    RowOwner,
    /// All to the player who received the most recent four; split evenly if nobody has.
    LastFourReceiver,
}

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Protocol name (`mangala-ii`, …).
    pub name: &'static str,
    /// Human name.
    pub title: &'static str,
    /// `N`: pits per row.
    pub pits_per_row: usize,
    /// Counters in every pit at the start.
    pub start_count: u8,
    pub move_choice: MoveChoice,
    pub direction: Direction,
    pub laps: Laps,
    /// Al-manqala: a player whose opponent's row is empty must leave it non-empty if they can.
    pub feeding: bool,
    /// Captured counters are kept in stores on the board (Anywoli) rather than beside it: how a
    /// board is drawn, nothing more.
    pub stores: bool,
    pub own_end: OwnEnd,
    pub leftover: Leftover,
}

impl Rules {
    /// Pits on the whole board (`2N`).
    #[inline]
    pub const fn pit_count(&self) -> usize {
        2 * self.pits_per_row
    }

    /// Counters in the game (on the board plus captured).
    pub const fn total(&self) -> u32 {
        self.pit_count() as u32 * self.start_count as u32
    }

    /// Whether the position records who received the most recent four and who made the first
    /// last-seed capture (two more fields of its position string): the game's end or its
    /// leftover gives counters to one of them.
    pub const fn tracks_four_holders(&self) -> bool {
        matches!(self.own_end, OwnEnd::LastFour)
            || matches!(self.leftover, Leftover::LastFourReceiver)
    }

    /// Whether the players never have a choice of move (the leftmost pit is forced): the game is
    /// decided by the deal and who moves first, and searching it means playing it out.
    pub const fn has_forced_moves(&self) -> bool {
        matches!(self.move_choice, MoveChoice::Leftmost)
    }
}

pub(super) const MANGALA_II: Rules = Rules {
    name: "mangala-ii",
    title: "Mangala II (Ottoman)",
    pits_per_row: 6,
    start_count: 6,
    move_choice: MoveChoice::AnyPit,
    direction: Direction::CounterClockwise,
    laps: Laps::Single {
        captures: CaptureCounts::of(&[2, 4, 6]),
    },
    feeding: false,
    stores: false,
    own_end: OwnEnd::EmptyBoard,
    leftover: Leftover::SplitEvenly,
};

pub(super) const MANGALA_IV: Rules = Rules {
    name: "mangala-iv",
    title: "Mangala IV (Gaziantep)",
    pits_per_row: 7,
    start_count: 7,
    move_choice: MoveChoice::Leftmost,
    direction: Direction::Clockwise,
    laps: Laps::RelayWithOpposite {
        captures: CaptureCounts::of(&[2, 4]),
    },
    feeding: false,
    stores: false,
    own_end: OwnEnd::EmptyBoard,
    leftover: Leftover::RowOwner,
};

pub(super) const AL_MANQALA: Rules = Rules {
    name: "al-manqala",
    title: "Al-manqala (Galilee)",
    pits_per_row: 7,
    start_count: 7,
    move_choice: MoveChoice::AnyPit,
    direction: Direction::CounterClockwise,
    laps: Laps::Single {
        captures: CaptureCounts::of(&[2, 4]),
    },
    feeding: true,
    stores: false,
    own_end: OwnEnd::EmptyBoard,
    leftover: Leftover::SplitEvenly,
};

pub(super) const ANYWOLI: Rules = Rules {
    name: "anywoli",
    title: "Anywoli (Anuak)",
    pits_per_row: 12,
    start_count: 4,
    move_choice: MoveChoice::AnyPit,
    direction: Direction::CounterClockwise,
    laps: Laps::RelayFours,
    feeding: false,
    stores: true,
    own_end: OwnEnd::LastFour,
    leftover: Leftover::LastFourReceiver,
};

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::MangalaII,
        Variant::MangalaIV,
        Variant::AlManqala,
        Variant::Anywoli,
    ];

    #[inline]
    pub const fn rules(self) -> &'static Rules {
        match self {
            Variant::MangalaII => &MANGALA_II,
            Variant::MangalaIV => &MANGALA_IV,
            Variant::AlManqala => &AL_MANQALA,
            Variant::Anywoli => &ANYWOLI,
        }
    }

    pub const fn name(self) -> &'static str {
        self.rules().name
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given is not one of the four games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected one of mangala-ii, mangala-iv, al-manqala, anywoli)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Names are matched case-insensitively, as option values are in UCI.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Who gets Anywoli's final four when the board holds only four seeds at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LastFourRule {
    /// The player who received the most recent four (RULES.md, "Anywoli", the default).
    #[default]
    MostRecentFour,
    /// The player who made the first last-seed capture of the game.
    FirstCapture,
}

impl LastFourRule {
    pub const fn name(self) -> &'static str {
        match self {
            LastFourRule::MostRecentFour => "most-recent-four",
            LastFourRule::FirstCapture => "first-capture",
        }
    }
}

impl FromStr for LastFourRule {
    type Err = String;

    /// Accepts the option's two values, plus `false`/`true` for clients that treat it as a switch.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "most-recent-four" | "most-recent" | "recent" | "false" => {
                Ok(LastFourRule::MostRecentFour)
            }
            "first-capture" | "first" | "true" => Ok(LastFourRule::FirstCapture),
            _ => Err(format!(
                "unknown AnywoliLastFour value '{s}' (expected most-recent-four or first-capture)"
            )),
        }
    }
}
