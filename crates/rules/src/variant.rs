//! The games as data. Every rule that differs between two-row games is a field of [`Rules`],
//! named by what it does; a game is a [`Rules`] record (`crate::definition` reads one from a
//! text file), and a [`Variant`] names one of the games the library knows: the built-in ones and
//! those registered at run time.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::landing::LandingTable;

/// One of the games the library knows: a small handle into the registry of games (the built-in
/// ones first, then those registered with [`Variant::register`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant(u8);

#[allow(non_upper_case_globals)]
impl Variant {
    /// Mangala II (Ottoman, 2×6).
    pub const MangalaII: Variant = Variant(0);
    /// Mangala IV (Gaziantep, 2×7, forced relay sowing).
    pub const MangalaIV: Variant = Variant(1);
    /// Al-manqala (Galilee, 2×7, feeding).
    pub const AlManqala: Variant = Variant(2);
    /// Anywoli (Anuak, 2×12, relay sowing with fours).
    pub const Anywoli: Variant = Variant(3);
    /// Kalah (2×6, stores in the sowing ring).
    pub const Kalah: Variant = Variant(4);
    /// Oware abapa (2×6, captures of 2s and 3s).
    pub const Oware: Variant = Variant(5);
}

impl Default for Variant {
    fn default() -> Self {
        Variant::MangalaII
    }
}

/// Sowing direction, as seen from above with South at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Index `+1`.
    CounterClockwise,
    /// Index `-1`.
    Clockwise,
}

/// Captures made while a hand is sown (en passant): a pit that a counter before the last makes
/// hold one of the capture counts (on the capture side) is taken at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassingCaptures {
    /// None.
    Off,
    /// In any row, by the pit's owner; the last counter's pit captures as usual, for the mover.
    ToOwner,
    /// In any row, by the pit's owner, the last counter's pit too.
    ToOwnerLastToo,
    /// In any row, by the mover.
    ToMover,
    /// In the mover's row only, by the mover.
    ToMoverInOwnRow,
    /// In the opponent's row only, by the mover.
    ToMoverInOpponentRow,
}

/// Where a relay lap goes on from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelayFrom {
    /// The landing pit, lifted.
    Landing,
    /// The pit after the landing pit, lifted, if it holds counters (else the move ends).
    NextPit,
}

/// Which of the mover's pits (holding at least the least move) may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFilter {
    /// Every one.
    Every,
    /// Only a pit whose hand, sown one lap, ends in the opponent's row or a store, or in an own
    /// pit that was empty; a hand of more counters than a row has pits always may.
    EndsAwayOrEmpty,
    /// A single counter only into an empty pit; and no pit whose next place is a store.
    SingleIntoEmpty,
    /// A pit holding this count only when every playable pit holds it.
    CountOnlyIfAll(u8),
    /// [`MoveFilter::CountOnlyIfAll`] of 1, then [`MoveFilter::SingleIntoEmpty`].
    SinglesOnlyIfAllIntoEmpty,
}

/// How a move's direction of sowing is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectionRule {
    /// Always the game's `direction`.
    Fixed,
    /// A hand of an odd count sows counter-clockwise, an even one clockwise.
    HandParity,
    /// The left half of each row (as its owner faces the board) sows clockwise, out over the
    /// row's left end; the right half counter-clockwise (rows of an even length).
    RowHalves,
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
/// 128 bits: every count a pit can hold (at most 127) has its bit, so a test needs no range check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureCounts(u128);

impl CaptureCounts {
    /// No count captures.
    pub const NONE: CaptureCounts = CaptureCounts(0);

    pub const fn of(counts: &[u8]) -> Self {
        let mut bits = 0u128;
        let mut i = 0;
        while i < counts.len() {
            bits |= 1 << (counts[i] & 127);
            i += 1;
        }
        CaptureCounts(bits)
    }

    #[inline]
    pub const fn contains(self, count: u8) -> bool {
        (self.0 >> (count & 127)) & 1 != 0
    }

    /// Whether no count captures.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The counts, smallest first.
    pub fn counts(self) -> Vec<u8> {
        (0..128u8).filter(|&c| self.contains(c)).collect()
    }
}

/// How a move's sowing goes on after the last counter of a lap lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Laps {
    /// One lap; then the captures the capture fields describe, with `captures` the counts that
    /// a capture takes.
    Single { captures: CaptureCounts },
    /// An empty landing pit ends the move, a capturable count captures (with the opposite pit,
    /// and a backward chain), anything else is lifted and sown on (Mangala IV).
    RelayWithOpposite { captures: CaptureCounts },
    /// Relay sowing that ends in a one-lap capture: a lap whose last counter makes a pit hold
    /// more than one counter, and that a capture would not take, is lifted and sown on from
    /// there; the last lap's landing pit then captures as in a one-lap game (counts, side,
    /// chain, grand slam, or the empty-pit capture), with `captures` the counts that capture.
    Relay { captures: CaptureCounts },
    /// Mid-sow fours go to the pit's owner; a last seed making four is taken by the mover, who
    /// moves again; a last seed making one ends the move; otherwise relay (Anywoli).
    RelayFours,
}

/// Where the landing pit (and the pits of a chain) of a one-lap capture must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureSide {
    /// Either row.
    Any,
    /// The mover's own row.
    Own,
    /// The opponent's row.
    Opponent,
}

/// What becomes of a move that would capture every counter of the opponent's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrandSlam {
    /// It captures them, as any move would.
    Captures,
    /// It is played, but captures nothing.
    CapturesNothing,
    /// It is played, but captures nothing, when the opponent's row held counters before the
    /// move (a row the move itself filled is not a grand slam: MancalaGames' rule).
    CapturesNothingIfHeld,
    /// It takes the opponent's row but the first pit holding counters from the mover's left
    /// (as the mover faces the board), when that row held counters before the move and more
    /// than one of its pits holds counters; a single pit is taken.
    LeavesLeftmost,
    /// The same, leaving the first pit holding counters from the mover's right.
    LeavesRightmost,
}

impl GrandSlam {
    /// Whether the rule looks at the opponent's row as it was before the move.
    pub const fn needs_row_before(self) -> bool {
        matches!(
            self,
            GrandSlam::CapturesNothingIfHeld
                | GrandSlam::LeavesLeftmost
                | GrandSlam::LeavesRightmost
        )
    }
}

/// What the players play for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The most counters at the end: the captured ones, and those on the board as the ending
    /// shares them.
    MostCounters,
    /// To empty one's own row first: the player whose row is empty after a move wins (both
    /// empty: the player who made it).
    ClearOwnRow,
    /// To leave the opponent without counters: the player whose row is empty after a move
    /// loses (both empty: the other than the one who made it), and so does a player to move
    /// without a move.
    Deprive,
    /// To leave the opponent without a move: the player to move who has none loses.
    Immobilize,
}

/// Whether a move whose end captured counters gives the mover another move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureExtraMove {
    /// It does not.
    No,
    /// It always does.
    Always,
    /// It does, unless the move was itself an extra move (a capture's or a store's): one extra
    /// move in a row, never a chain of them.
    Once,
}

/// Who takes the counters left when a player must feed the opponent's empty row and cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfed {
    /// The starved player takes every counter left (Al-manqala).
    StarvedPlayerTakesAll,
    /// The player to move takes every counter left, all in their own row (Oware).
    MoverTakesAll,
    /// The counters left go as the game's [`Leftover`] says.
    AsLeftover,
    /// The game does not end: the mover plays any move, and the starved player passes (or the
    /// game ends as `own_end` says).
    AnyMove,
}

/// What a game's own end looks like (besides the history rules, which every game shares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnEnd {
    /// The game ends when the board is empty.
    EmptyBoard,
    /// The game ends when the board holds 0 or exactly 4 counters (Anywoli).
    LastFour,
    /// The game ends when either row is empty, and each player takes the counters left in their
    /// own row (Kalah).
    RowEmpty,
    /// The game ends when a player has captured more than half of the counters, or both exactly
    /// half (Oware); the counters left on the board count for nobody.
    Majority,
    /// The game ends when the player to move has no counters in their row (there is no pass),
    /// and the counters left go as the game's [`Leftover`] says: what MancalaGames does for a
    /// game without its `mustpass`.
    MoverRowEmpty,
}

/// How counters left on the board are shared when the game ends by repetition, no progress or an
/// endless move, or by too few counters left or a mover without counters where the game has
/// those ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// Half to each player.
    SplitEvenly,
    /// The counters on each row go to the row's owner.
    RowOwner,
    /// All to the player who received the most recent four; split evenly if nobody has.
    LastFourReceiver,
    /// To nobody: they are not scored.
    Nobody,
    /// Half to each player; an odd counter to the player who has captured fewer (North when
    /// both have as many), as MancalaGames divides them.
    SplitOddToTrailing,
    /// All to the player who made the last move (the opponent of the side to move: a game with
    /// this leftover has no extra turns).
    LastMover,
}

/// A match of rounds: when a round ends, each player fills their own row again from the counters
/// they hold, the start's count a pit, and plays on, until a player cannot fill enough pits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounds {
    /// Which end of a row is filled first.
    pub fill: RoundFill,
    /// Who moves first in the next round.
    pub starter: RoundStarter,
    /// Pits a player cannot fill are blocked for the round: nobody sows into them or plays them
    /// (else they are only empty).
    pub blocks: bool,
    /// The match ends when a round leaves a player fewer counters than this many pits take at
    /// the start's count; a round also ends the match as soon as a player has captured more than
    /// the counters less that many (the other could not go on).
    pub pits_to_go_on: u8,
}

/// Where a new round's counters go first in each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundFill {
    /// From the player's left (as they face the board).
    FromLeft,
    /// From the player's right.
    FromRight,
    /// From both ends of the board inwards, alternately: first the pit at the board's left end
    /// as South sees it (South's leftmost, North's rightmost), then the other end's, then the
    /// second from the left end, and so on to the middle.
    OutsideIn,
}

/// Who moves first in a new round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundStarter {
    /// The player who did not start the round that ended.
    Alternate,
    /// The player with fewer counters at the round's end (after a drawn round: the player not
    /// to move at its end).
    Loser,
    /// The player with more counters at the round's end (after a drawn round: the player to
    /// move at its end).
    Winner,
    /// The player who made the round's last move.
    LastMover,
}

/// The counters of the start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The same count in every pit.
    Uniform(u8),
    /// A count per pit, in index order (South's row from its left, then North's).
    Pattern(&'static [u8]),
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
    pub start: Start,
    /// The start is dealt at random (`position random <seed>`): at least two counters a pit
    /// where there are enough, the rest one at a time into random pits; `start` is the equal
    /// deal of the same counters.
    pub random_start: bool,
    /// Position strings may hold any number of counters, not only the start's (Kalah is played
    /// with 3 to 6 a pit).
    pub any_total: bool,
    pub move_choice: MoveChoice,
    /// The fewest counters a pit must hold to be moved (1: any non-empty pit).
    pub min_move: u8,
    /// Which of those pits may be played.
    pub move_filter: MoveFilter,
    pub direction: Direction,
    /// Whether every move sows in `direction`, or the pit and its hand choose.
    pub direction_rule: DirectionRule,
    /// Sowing puts a counter into the mover's own store on the way from the last pit of the
    /// mover's row to the first of the opponent's (and never into the opponent's).
    pub sow_own_store: bool,
    /// Each player's store is at the right end of their row (as they face the board) whatever
    /// the direction, so that a clockwise hand reaches it after the opponent's row; else it is
    /// where the mover's sowing leaves their row.
    pub store_at_right: bool,
    /// A lap that comes round to the pit it started from skips it.
    pub skip_origin: bool,
    pub laps: Laps,
    /// [`Laps::Relay`]: a move that would sow more laps than this is endless (0: only a move
    /// that comes round to a lap start it made before is).
    pub lap_limit: u16,
    /// [`Laps::Relay`]: where a lap goes on from.
    pub relay_from: RelayFrom,
    /// Captures made while a hand is sown.
    pub passing_captures: PassingCaptures,
    /// Every lap first puts one counter of its hand into the mover's store (a capture), then
    /// sows the rest.
    pub store_one_per_lap: bool,
    /// [`Laps::Relay`]: the counts a landing pit must hold for its lap to relay (empty: any count
    /// of 2 or more).
    pub relay_counts: CaptureCounts,
    /// [`Laps::Relay`]: whose row a landing pit must be in for its lap to relay.
    pub relay_side: CaptureSide,
    /// [`Laps::Relay`]: the end captures are tried at the end of every lap, and decide whether
    /// the move goes on: with `capture_past_empty`, a lap whose landing pit held counters
    /// captures past the empty pit after it (if it can) and goes on from its landing pit; with
    /// `capture_empty_opposite`, a lap ending in an empty pit takes the pit facing it and goes
    /// on from its landing pit only if that took counters.
    pub lap_captures: bool,
    /// One-lap captures: where the landing pit, and the pits of a chain, must be.
    pub capture_side: CaptureSide,
    /// One-lap captures: the pits before the landing pit (against the sowing) are judged too,
    /// while they qualify.
    pub capture_chain: bool,
    /// A capture chain ends at the pit its lap started from (else only a pit that does not
    /// qualify, or coming round to the landing pit, ends it).
    pub chain_stops_at_origin: bool,
    /// One-lap captures: a last counter into one of the mover's own pits that was empty, facing
    /// a pit that is not, takes itself and the facing pit's counters.
    pub capture_empty_opposite: bool,
    /// With `capture_empty_opposite`: the last counter is taken with the facing pit (else it
    /// stays where it fell).
    pub capture_takes_own: bool,
    /// With `capture_takes_own`: the last counter is taken even when the facing pit is empty.
    pub takes_own_alone: bool,
    /// With `capture_empty_opposite`: the last counter may fall into an empty pit of either row
    /// (the pit facing it is taken even when it is one's own); else only of one's own.
    pub empty_either_row: bool,
    /// The end of a move captures past an empty pit: where the pit after the last one is empty,
    /// the pit after that is taken (on `capture_side`; with `capture_chain`, again from there
    /// onwards, in the sowing direction). A one-lap move needs its last pit to have held
    /// counters before; `capture_counts` then only serve captures in passing.
    pub capture_past_empty: bool,
    /// With `capture_past_empty`: a move that captured so also takes the pit facing the first
    /// pit it took, if that holds counters (and is on `capture_side`).
    pub past_empty_takes_facing: bool,
    pub grand_slam: GrandSlam,
    /// A last counter into the mover's own store gives the mover another move.
    pub extra_turn_in_store: bool,
    /// A move whose end captured counters (not a capture in passing) gives another move.
    pub capture_extra_move: CaptureExtraMove,
    /// After a move's captures, when the counters on the board on `capture_side` (the whole
    /// board with `capture_empty_opposite`) are from 1 to this many, the mover takes every
    /// counter on the board. 0: no such rule. Not after a move that gave another move by its
    /// last counter in the store, nor after an endless one.
    pub sweep_at_most: u8,
    /// A player whose opponent's row is empty must leave it non-empty if they can.
    pub must_feed: bool,
    /// Who takes the rest when a player must feed and cannot.
    pub unfed: Unfed,
    pub own_end: OwnEnd,
    pub leftover: Leftover,
    /// Besides `own_end`, the game ends as soon as a player has captured more than half of the
    /// counters, or both exactly half; the counters left count for nobody.
    pub majority_ends: bool,
    /// The game ends once fewer than this many counters (but some) are left on the board: too
    /// few for any capture. The counters left go as `leftover` says. 0: no such rule.
    pub ends_below: u8,
    /// Moves in a row without a capture that end the game; `None`: no such rule.
    pub no_progress_limit: Option<u16>,
    /// Captured counters are kept in stores on the board rather than beside it: how a board is
    /// drawn, nothing more.
    pub stores: bool,
    /// A match of rounds; `None`: one game.
    pub rounds: Option<Rounds>,
    /// What the players play for. In a game whose goal is not the most counters, the winner's
    /// final total is every counter (the loser's none, half each in a draw): the result, the
    /// score and the solved value (plus or minus the total) follow the goal.
    pub goal: Goal,
}

impl Rules {
    /// Pits on the whole board (`2N`).
    #[inline]
    pub const fn pit_count(&self) -> usize {
        2 * self.pits_per_row
    }

    /// Counters of the start position in `pit`.
    pub const fn start_count(&self, pit: usize) -> u8 {
        match self.start {
            Start::Uniform(count) => count,
            Start::Pattern(counts) => counts[pit],
        }
    }

    /// Counters in the start position: the game's counters, unless it allows any total.
    pub const fn total(&self) -> u32 {
        match self.start {
            Start::Uniform(count) => self.pit_count() as u32 * count as u32,
            Start::Pattern(counts) => {
                let mut total = 0;
                let mut i = 0;
                while i < counts.len() {
                    total += counts[i] as u32;
                    i += 1;
                }
                total
            }
        }
    }

    /// Whether the position records who received the most recent four and who made the first
    /// last-seed capture (two more fields of its position string): the game's end or its
    /// leftover gives counters to one of them.
    pub const fn tracks_four_holders(&self) -> bool {
        matches!(self.own_end, OwnEnd::LastFour)
            || matches!(self.leftover, Leftover::LastFourReceiver)
    }

    /// Whether the position records that the side to move is on an extra move (one more field of
    /// its position string): where a capture then gives no other ([`CaptureExtraMove::Once`]),
    /// and where a goal won outright must know who moved last (a game with extra moves).
    pub const fn tracks_extra_move(&self) -> bool {
        matches!(self.capture_extra_move, CaptureExtraMove::Once)
            || (self.eliminates() && self.has_extra_moves())
    }

    /// Whether a move may give its mover another move (a last counter in the store, a capture).
    pub const fn has_extra_moves(&self) -> bool {
        self.extra_turn_in_store
            || !matches!(self.capture_extra_move, CaptureExtraMove::No)
            || matches!(self.laps, Laps::RelayFours)
    }

    /// Whether the goal is not the most counters but to clear, deprive or immobilize: the game
    /// is won or lost outright, and the margin is the whole total.
    #[inline(always)]
    pub const fn eliminates(&self) -> bool {
        !matches!(self.goal, Goal::MostCounters)
    }

    /// Whether the game ends once a player has captured more than half of the counters (its
    /// own end, or besides it): the captured totals then decide future play.
    pub const fn ends_on_majority(&self) -> bool {
        matches!(self.own_end, OwnEnd::Majority) || self.majority_ends
    }

    /// Whether the players never have a choice of move (the leftmost pit is forced): the game is
    /// decided by the deal and who moves first, and searching it means playing it out.
    pub const fn has_forced_moves(&self) -> bool {
        matches!(self.move_choice, MoveChoice::Leftmost)
    }

    /// The counters of `pits` (a whole board, either side's view) weighted by how many steps of
    /// the sowing each is from its row's owner's store: the store counts as one step past the
    /// row's last pit. `None` unless the game sows into the mover's store.
    ///
    /// Why: in such a game a move that drops no counter into a store and captures nothing only
    /// carries the mover's counters forward within their own row (a hand that left the row
    /// would pass the store), so it lowers this sum; a pass keeps it, and the next move, from
    /// a row that is not empty, lowers it. Positions with the same counters on the board then
    /// cannot cycle, and the tables solve a layer in one pass in this order.
    pub fn distance_to_stores(&self, pits: &[u8]) -> Option<u32> {
        // A relay lap may lift the opponent's counters and carry them back.
        if !self.sow_own_store
            || !matches!(self.laps, Laps::Single { .. })
            || self.direction_rule != DirectionRule::Fixed
            || (self.store_at_right && self.direction == Direction::Clockwise)
        {
            return None;
        }
        let n = self.pits_per_row;
        Some(
            pits.iter()
                .enumerate()
                .map(|(pit, &count)| {
                    let within = pit % n;
                    let steps = match self.direction {
                        Direction::CounterClockwise => n - within,
                        Direction::Clockwise => within + 1,
                    };
                    count as u32 * steps as u32
                })
                .sum(),
        )
    }

    /// Whether counters leave the board only in even numbers while the game goes on (every count
    /// a capture takes is even, and no counter goes into a store or is taken with the pit facing
    /// it), so that the board's count keeps its parity from move to move.
    pub fn board_parity_kept(&self) -> bool {
        let even_takes = match self.laps {
            Laps::Single { captures } | Laps::Relay { captures } => {
                captures.counts().iter().all(|c| c.is_multiple_of(2))
            }
            Laps::RelayFours => true,
            Laps::RelayWithOpposite { .. } => false,
        };
        even_takes && !self.sow_own_store && !self.capture_empty_opposite
    }

    /// The direction a move from `origin` holding `hand` counters sows in.
    #[inline(always)]
    pub const fn direction_of(&self, origin: usize, hand: u8) -> Direction {
        match self.direction_rule {
            DirectionRule::Fixed => self.direction,
            DirectionRule::HandParity if hand % 2 == 1 => Direction::CounterClockwise,
            DirectionRule::HandParity => Direction::Clockwise,
            DirectionRule::RowHalves if origin % self.pits_per_row < self.pits_per_row / 2 => {
                Direction::Clockwise
            }
            DirectionRule::RowHalves => Direction::CounterClockwise,
        }
    }

    /// Whether a one-lap sowing follows the plain ring of pits (no store in it, no pit skipped,
    /// no pit a round may block): the common case, sown without a branch per pit.
    pub const fn plain_ring(&self) -> bool {
        !self.sow_own_store && !self.skip_origin && self.rounds.is_none()
    }

    /// Whether the game is a match of rounds whose rounds may block pits (a position then says
    /// which; sowing passes them by).
    #[inline(always)]
    pub const fn blocks_pits(&self) -> bool {
        matches!(self.rounds, Some(Rounds { blocks: true, .. }))
    }

    /// The counters a player needs to play another round of `rounds`: its pits to go on at the
    /// start's count (a game in rounds starts with the same count in every pit).
    #[inline]
    pub const fn round_need(&self, rounds: Rounds) -> u32 {
        rounds.pits_to_go_on as u32 * self.start_count(0) as u32
    }
}

/// What a game file leaves out: the rules every built-in game starts from (the same defaults
/// as RULES.md's table of fields; a test checks each built-in file against its record).
const COMMON: Rules = Rules {
    name: "",
    title: "",
    pits_per_row: 6,
    start: Start::Uniform(4),
    random_start: false,
    any_total: false,
    move_choice: MoveChoice::AnyPit,
    min_move: 1,
    move_filter: MoveFilter::Every,
    direction: Direction::CounterClockwise,
    direction_rule: DirectionRule::Fixed,
    sow_own_store: false,
    store_at_right: false,
    skip_origin: false,
    lap_limit: 0,
    relay_from: RelayFrom::Landing,
    passing_captures: PassingCaptures::Off,
    store_one_per_lap: false,
    relay_counts: CaptureCounts::NONE,
    relay_side: CaptureSide::Any,
    lap_captures: false,
    capture_side: CaptureSide::Any,
    capture_chain: false,
    chain_stops_at_origin: true,
    capture_empty_opposite: false,
    capture_takes_own: true,
    takes_own_alone: false,
    empty_either_row: false,
    capture_past_empty: false,
    past_empty_takes_facing: false,
    grand_slam: GrandSlam::Captures,
    extra_turn_in_store: false,
    capture_extra_move: CaptureExtraMove::No,
    sweep_at_most: 0,
    must_feed: false,
    unfed: Unfed::StarvedPlayerTakesAll,
    own_end: OwnEnd::EmptyBoard,
    leftover: Leftover::SplitEvenly,
    majority_ends: false,
    ends_below: 0,
    no_progress_limit: Some(100),
    stores: false,
    rounds: None,
    goal: Goal::MostCounters,
    laps: Laps::Single {
        captures: CaptureCounts::NONE,
    },
};

pub(crate) const MANGALA_II: Rules = Rules {
    name: "mangala-ii",
    title: "Mangala II (Ottoman)",
    pits_per_row: 6,
    start: Start::Uniform(6),
    laps: Laps::Single {
        captures: CaptureCounts::of(&[2, 4, 6]),
    },
    capture_chain: true,
    ..COMMON
};

pub(crate) const MANGALA_IV: Rules = Rules {
    name: "mangala-iv",
    title: "Mangala IV (Gaziantep)",
    pits_per_row: 7,
    start: Start::Uniform(7),
    move_choice: MoveChoice::Leftmost,
    direction: Direction::Clockwise,
    laps: Laps::RelayWithOpposite {
        captures: CaptureCounts::of(&[2, 4]),
    },
    capture_chain: true,
    leftover: Leftover::RowOwner,
    ..COMMON
};

pub(crate) const AL_MANQALA: Rules = Rules {
    name: "al-manqala",
    title: "Al-manqala (Galilee)",
    pits_per_row: 7,
    start: Start::Uniform(7),
    laps: Laps::Single {
        captures: CaptureCounts::of(&[2, 4]),
    },
    capture_chain: true,
    must_feed: true,
    ..COMMON
};

pub(crate) const ANYWOLI: Rules = Rules {
    name: "anywoli",
    title: "Anywoli (Anuak)",
    pits_per_row: 12,
    start: Start::Uniform(4),
    laps: Laps::RelayFours,
    own_end: OwnEnd::LastFour,
    leftover: Leftover::LastFourReceiver,
    stores: true,
    ..COMMON
};

pub(crate) const KALAH: Rules = Rules {
    name: "kalah",
    title: "Kalah",
    pits_per_row: 6,
    start: Start::Uniform(4),
    any_total: true,
    sow_own_store: true,
    laps: Laps::Single {
        captures: CaptureCounts::NONE,
    },
    capture_side: CaptureSide::Own,
    capture_empty_opposite: true,
    extra_turn_in_store: true,
    own_end: OwnEnd::RowEmpty,
    leftover: Leftover::RowOwner,
    no_progress_limit: None,
    stores: true,
    ..COMMON
};

pub(crate) const OWARE: Rules = Rules {
    name: "oware",
    title: "Oware (abapa)",
    pits_per_row: 6,
    start: Start::Uniform(4),
    skip_origin: true,
    laps: Laps::Single {
        captures: CaptureCounts::of(&[2, 3]),
    },
    capture_side: CaptureSide::Opponent,
    capture_chain: true,
    grand_slam: GrandSlam::CapturesNothing,
    must_feed: true,
    unfed: Unfed::MoverTakesAll,
    own_end: OwnEnd::Majority,
    leftover: Leftover::RowOwner,
    no_progress_limit: None,
    ..COMMON
};

/// The built-in games, in the order of their [`Variant`]s.
pub(crate) const BUILT_IN: [&Rules; 6] = [
    &MANGALA_II,
    &MANGALA_IV,
    &AL_MANQALA,
    &ANYWOLI,
    &KALAH,
    &OWARE,
];

/// Games registered at run time: at most this many in one process.
pub const MAX_REGISTERED: usize = 256 - BUILT_IN.len();

/// A registered game: its rules and where its sowings end, both made once and kept for the
/// process's life (a position of the game may outlive any use of its name).
struct Registered {
    rules: &'static Rules,
    landings: &'static LandingTable,
}

static REGISTERED: [OnceLock<Registered>; MAX_REGISTERED] =
    [const { OnceLock::new() }; MAX_REGISTERED];
static REGISTERED_COUNT: AtomicUsize = AtomicUsize::new(0);

/// Why a game could not be registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterError {
    /// A built-in game has that name.
    BuiltInName(String),
    /// The process has registered as many games as it can.
    Full,
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::BuiltInName(name) => {
                write!(
                    f,
                    "'{name}' is a built-in game: give the new game a name of its own"
                )
            }
            RegisterError::Full => write!(
                f,
                "{MAX_REGISTERED} games are registered already, as many as one process holds"
            ),
        }
    }
}

impl std::error::Error for RegisterError {}

impl Variant {
    /// The built-in games.
    pub const ALL: [Variant; 6] = [
        Variant::MangalaII,
        Variant::MangalaIV,
        Variant::AlManqala,
        Variant::Anywoli,
        Variant::Kalah,
        Variant::Oware,
    ];

    /// Every game known now: the built-in ones, then the registered ones in the order they came
    /// (a game registered again under the same name replaces the earlier one in this list).
    pub fn all() -> Vec<Variant> {
        let mut games: Vec<Variant> = Variant::ALL.to_vec();
        let count = REGISTERED_COUNT.load(Ordering::Acquire);
        for (index, slot) in REGISTERED.iter().enumerate().take(count) {
            if slot.get().is_none() {
                continue;
            }
            let game = Variant((BUILT_IN.len() + index) as u8);
            match games.iter().position(|g| g.name() == game.name()) {
                Some(at) => games[at] = game,
                None => games.push(game),
            }
        }
        games
    }

    /// Adds a game (checked by [`crate::definition`], or made by the caller, who answers for
    /// its consistency) under its name; a registered game of the same name is replaced for
    /// lookups by name, while positions of the earlier one keep their rules. Registering the
    /// same rules again returns the game registered before (a GUI may load a file every game).
    pub fn register(rules: Rules) -> Result<Variant, RegisterError> {
        if Variant::ALL
            .iter()
            .any(|v| v.name().eq_ignore_ascii_case(rules.name))
        {
            return Err(RegisterError::BuiltInName(rules.name.to_string()));
        }
        if let Some(same) = Variant::all()
            .into_iter()
            .find(|v| !v.is_built_in() && *v.rules() == rules)
        {
            return Ok(same);
        }
        let index = REGISTERED_COUNT.fetch_add(1, Ordering::AcqRel);
        if index >= MAX_REGISTERED {
            REGISTERED_COUNT.fetch_sub(1, Ordering::AcqRel);
            return Err(RegisterError::Full);
        }
        let rules: &'static Rules = Box::leak(Box::new(rules));
        let landings: &'static LandingTable = Box::leak(Box::new(LandingTable::new(rules)));
        let _ = REGISTERED[index].set(Registered { rules, landings });
        Ok(Variant((BUILT_IN.len() + index) as u8))
    }

    /// The game's number in the registry (built-in games first), below 256: for tables kept per
    /// game.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the game is one of the built-in ones (compiled with its rules as constants).
    #[inline]
    pub const fn is_built_in(self) -> bool {
        (self.0 as usize) < BUILT_IN.len()
    }

    #[inline]
    pub fn rules(self) -> &'static Rules {
        match BUILT_IN.get(self.0 as usize) {
            Some(rules) => rules,
            None => self.registered().rules,
        }
    }

    /// Where the sowings of a registered game end (built-in games have theirs compiled in).
    pub(crate) fn registered_landings(self) -> &'static LandingTable {
        self.registered().landings
    }

    fn registered(self) -> &'static Registered {
        REGISTERED[self.0 as usize - BUILT_IN.len()]
            .get()
            .expect("a Variant is only made for a registered game")
    }

    pub fn name(self) -> &'static str {
        self.rules().name
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({})", self.name())
    }
}

/// The name given is not one of the games known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (expected one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Names are matched case-insensitively, as option values are in UCI.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::all()
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
