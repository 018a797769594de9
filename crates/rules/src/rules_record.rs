//! The rules of one game as a record: every rule that differs between two-row games is a field of
//! [`Rules`], named by what it does, with the types of its values. Self-contained (the build
//! script reads the built-in games' files with it, and `crate::definition`'s format, before the
//! library exists).

/// The most pits a row has in any game (Anywoli).
pub const MAX_ROW: usize = 12;

/// The most legal moves a position may have (a game file whose moves could be more is refused:
/// [`Rules::most_moves`]): every pit of the board, two directions for every pit of a row, or of
/// some pits of either row.
pub const MAX_MOVES: usize = 32;

/// The most counters any game may have: every count and total fits in a byte (a pit's count, a
/// capture set's bit, a landing table's hand), and every final margin in the search's 9 bits.
pub const MAX_COUNTERS: u32 = 255;

/// Sowing direction, as seen from above with South at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Index `+1`.
    CounterClockwise,
    /// Index `-1`.
    Clockwise,
}

impl Direction {
    /// The other way round the board.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::CounterClockwise => Direction::Clockwise,
            Direction::Clockwise => Direction::CounterClockwise,
        }
    }
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
    /// The first move of the game (of each round) chooses its direction; its player sows that
    /// way from then on, the other player the other way (the position says which).
    FirstMoveChooses,
}

/// Which pits a player may move from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveChoice {
    /// Any non-empty pit of the mover's row.
    AnyPit,
    /// Only the leftmost (lowest-index) non-empty pit of the mover's row: no choice at all.
    Leftmost,
    /// Any non-empty pit of either row: the rows belong to nobody, and a player without a move
    /// (an empty board) ends the game.
    EitherRow,
}

/// Counts that a capture takes, as a bit set (bit `c` set means a pit holding `c` is taken).
/// 256 bits: every count a pit can hold (a byte) has its bit, so a test needs no range check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureCounts([u128; 2]);

impl CaptureCounts {
    /// No count captures.
    pub const NONE: CaptureCounts = CaptureCounts([0; 2]);

    pub const fn of(counts: &[u8]) -> Self {
        let mut bits = [0u128; 2];
        let mut i = 0;
        while i < counts.len() {
            bits[(counts[i] >> 7) as usize] |= 1 << (counts[i] & 127);
            i += 1;
        }
        CaptureCounts(bits)
    }

    #[inline]
    pub const fn contains(self, count: u8) -> bool {
        (self.0[(count >> 7) as usize] >> (count & 127)) & 1 != 0
    }

    /// Whether no count captures.
    pub const fn is_empty(self) -> bool {
        self.0[0] == 0 && self.0[1] == 0
    }

    /// The counts, smallest first.
    pub fn counts(self) -> Vec<u8> {
        (0..=u8::MAX).filter(|&c| self.contains(c)).collect()
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
    /// It captures them, and then the counters of the mover's own row go to the opponent, when
    /// the opponent's row held counters before the move (MancalaGames' "opponent gets the
    /// remainder").
    MoversRowToOpponent,
    /// It captures them, when the opponent's row held counters before the move, and the mover
    /// moves again (where the feeding rule then asks for a move that gives the opponent
    /// counters: MancalaGames' "legal, share").
    CapturesAndMovesAgain,
}

impl GrandSlam {
    /// Whether the rule looks at the opponent's row as it was before the move.
    pub const fn needs_row_before(self) -> bool {
        matches!(
            self,
            GrandSlam::CapturesNothingIfHeld
                | GrandSlam::LeavesLeftmost
                | GrandSlam::LeavesRightmost
                | GrandSlam::MoversRowToOpponent
                | GrandSlam::CapturesAndMovesAgain
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
    /// The game ends when either row is empty (there is no pass): the player to move has no
    /// counters, or a move left its mover's own row empty; the counters left go as the game's
    /// [`Leftover`] says. MancalaGames' end on clearing one's own row (`end_cond` 1).
    EitherRowEmpty,
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
    /// All to the player who made the last move. Where a move may give another move, the move
    /// that ends the game gives them to its mover at once (the board is then empty); at an end
    /// the position alone shows (a position string, the history rules), the last mover is taken
    /// to be the player not to move.
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
    /// A match played for territory where not 0: the pits each player owns (plays, feeds, and
    /// takes the counters of) follow the counters they held at the last round's end, and the
    /// player who can fill this many pits wins the match (see [`Position::next_round`]).
    ///
    /// [`Position::next_round`]: crate::Position::next_round
    pub territory_pits_to_win: u8,
    /// In a match for territory, the pit the round's winner can only partly fill goes to the
    /// loser (else to the winner where more than half of it is filled), and a win needs every
    /// one of the pits to win filled.
    pub partial_pit_to_loser: bool,
    /// Only the round's loser fills their row again, from their store and row; the winner plays
    /// on with the row and store the round left them. A drawn round ends the match, and so does
    /// a round whose winner has no move on the board it left (MancalaGames' rule).
    pub only_loser_refills: bool,
    /// A match of rounds won where not 0: every round is dealt as the first (the game's start),
    /// a round's winner (the player holding more counters at its end, or the one its goal makes
    /// the winner) scores a round, and the first player to score this many wins the match. The
    /// rounds each player has won are part of the position; the fill, blocks and pits to go on
    /// of the other matches have no part in it.
    pub wins_to_win: u8,
}

/// Where a new round's counters go first in each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundFill {
    /// From the player's left (as they face the board).
    FromLeft,
    /// From the player's right.
    FromRight,
    /// From the board's left end as South sees it: South's row from its left, North's from its
    /// right (MancalaGames' order where only the loser fills).
    FromBoardLeft,
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

/// Children: pits a move makes a player's own for the rest of the game (or round). Nobody moves
/// from a child, nothing captures it (but [`Children::landing_takes`]), and sowing fills it as any
/// pit; its counters are its owner's at the end, and count for its owner's majority.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Children {
    /// The count that makes a child (with [`ChildMaking::FacingPair`], the facing pit's count).
    pub count: u8,
    pub made_by: ChildMaking,
    /// Whose pit (by its owner) the last counter must fall into to make a child.
    pub side: CaptureSide,
    /// A last counter into a child of the opponent takes this many counters from it (all it
    /// holds where it holds fewer), a capture; 0: no such rule.
    pub landing_takes: u8,
    /// The places of each row (bit `p` for its owner's pit `p`, from 0 at its left) where no
    /// child is made.
    pub barred_places: u16,
    /// Which pit of the other row may not already be a child where one is made.
    pub apart: ChildApart,
}

/// A pit of the other row that keeps a child from being made (MancalaGames' Toguz games: two
/// children never face each other, or never share a letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildApart {
    /// No such rule.
    Anywhere,
    /// The other row's pit of the same letter (`C` and `c`) must not be a child.
    SameLetter,
    /// The pit facing it must not be a child.
    Facing,
}

/// How a move makes a child, at its end, before any capture (a move that makes one captures
/// nothing); a relay move stops where it would make one, and where its lap ends in a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildMaking {
    /// The last counter makes a pit that is not a child hold [`Children::count`].
    Count,
    /// The same, by a player who has no child yet: one child each at most.
    OneEach,
    /// The last counter falls into an empty pit (not a child) whose facing pit (not a child)
    /// holds [`Children::count`]: both become the mover's.
    FacingPair,
}

/// How the first move of a game (of each round) is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMove {
    /// It is sown as any move.
    Sown,
    /// It is not sown: its pit keeps its counters, and from the pit after it on, every other pit
    /// gives one counter to the pit after it, round the board, the last such counter going
    /// to the pit facing the origin; the move then captures as a last counter there would
    /// (MancalaGames' prescribed opening "plus one, minus one").
    OneFromEveryOther,
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
    /// The game begins with South's move from the rightmost pit of its row, made for them (its
    /// captures too): the start position is the position after it.
    pub opening_from_rightmost: bool,
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
    /// The places in each row (bit `i`: the `i`th pit from the row owner's left) whose direction
    /// of sowing the mover chooses: each gives two moves, one each way (`A>`, `A<`). 0: none.
    pub chosen_direction_pits: u16,
    /// Not a rule of a game file (always `None` in a game's rules): set on the copy of the rules
    /// a move is sown under when its player chose its direction in a game of one direction
    /// (`direction_rule` fixed), where capture chains still run against the game's direction
    /// (MancalaGames' rule). `None`: chains run against `direction`.
    pub chain_direction: Option<Direction>,
    /// A single counter moved over an end of the board (from a row's end pit into the other
    /// row's end pit beside it) may not be moved straight back: the next move may not play that
    /// pit while it holds that one counter (MancalaGames' rule for split sowing).
    pub no_crossing_back: bool,
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
    /// With `lap_captures` and `capture_empty_opposite`: the counters a lap's capture takes are
    /// not the mover's but go into the lap's last pit, which is lifted and sown on.
    pub lap_captures_sown_on: bool,
    /// [`Laps::Relay`]: a lap goes on only while the opponent's row holds counters; else the move
    /// ends with the one-lap captures at its last pit.
    pub relay_needs_opponent_counters: bool,
    /// One-lap captures: where the landing pit, and the pits of a chain, must be.
    pub capture_side: CaptureSide,
    /// One-lap captures: the pits before the landing pit (against the sowing) are judged too,
    /// while they qualify.
    pub capture_chain: bool,
    /// With `capture_chain`: a chain takes at most this many pits (the landing pit among them);
    /// 0: no limit.
    pub chain_most: u8,
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
    /// With `capture_chain` and a `capture_side` of one row: only the landing pit must be on
    /// that side; the chain's pits before it may be in either row.
    pub chain_either_row: bool,
    /// One-lap moves: a move of a single counter captures nothing at its end (false; true: as
    /// any move).
    pub single_counter_captures: bool,
    /// One-lap moves: a move of a single counter first takes the counters of the pit facing
    /// the pit it is lifted from, then is sown (and captures) as any move.
    pub single_counter_takes_facing: bool,
    /// The end of a move captures past an empty pit: where the pit after the last one is empty,
    /// the pit after that is taken (on `capture_side`; with `capture_chain`, again from there
    /// onwards, in the sowing direction). A one-lap move needs its last pit to have held
    /// counters before; `capture_counts` then only serve captures in passing.
    pub capture_past_empty: bool,
    /// With `capture_past_empty`: a move that captured so also takes the pit facing the first
    /// pit it took, if that holds counters (and is on `capture_side`).
    pub past_empty_takes_facing: bool,
    /// The end of a move whose last counter fell into an empty pit (on `capture_side`) gives
    /// the mover's store to the opponent, where it holds counters (a "passive capture"); the
    /// move's other end captures are tried only when it does not.
    pub empty_landing_gives_store: bool,
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
    /// With `sweep_at_most`: the counters swept go to the player who started the round (a match
    /// of rounds), not to the mover.
    pub sweep_to_round_starter: bool,
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
    /// Children (pits a move makes a player's own); `None`: no such rule.
    pub children: Option<Children>,
    /// Each player sows round their own row only (and their own store, where the game sows
    /// into it, after the row's last pit): the two rows are two rings, and only captures reach
    /// across (MancalaGames' NorthSouthCycle).
    pub own_row_ring: bool,
    /// The first this many moves of a game (of each round) capture nothing: no capture at a
    /// move's end or in passing, no sweep, and a relay lap goes on where a capture would have
    /// ended it. A pass counts as a move, but only a sown move ends this opening.
    pub no_capture_moves: u8,
    /// How the first move of a game (of each round) is made.
    pub first_move: FirstMove,
    /// The first this many moves of a game (of each round) sow in `direction`, even from the
    /// pits whose direction the mover chooses (one move a pit, named without a direction).
    pub fixed_direction_moves: u8,
    /// A relay lap that ends in an opponent's pit, leaving this many counters there, closes the
    /// pit: the lap goes on with its counters, and it stays closed for the rest of the game.
    /// Its owner's sowing passes it by; each counter the other player's sowing would drop in it
    /// leaves the game (a last one ends the move). 0: no such rule. (Within an opening that
    /// captures nothing, [`Rules::without_captures`] sets it to `u8::MAX`: no pit closes, and
    /// closed pits are still passed by.)
    pub closes_pits_at: u8,
    /// With `closes_pits_at`: the right-hand pit of each row (as its owner sees it) never
    /// closes.
    pub closing_spares_right_pits: bool,
    /// A move whose last counter falls in the opponent's row, or in the mover's right-hand pit
    /// (as the mover sees it), takes every pit of the opponent's row holding a capture count
    /// (`laps` single's counts), instead of the last counter's pit alone; elsewhere it takes
    /// nothing.
    pub capture_every_count: bool,
    /// A move keeps one counter in its pit (its first counter is sown back into it) and sows the
    /// rest from the next pit; a pit of a single counter sows it into the next pit.
    pub origin_keeps_one: bool,
    /// Before a move is sown, every pit of the mover's row that holds a single counter (the
    /// moved pit too) takes the pit facing it into the mover's store.
    pub singles_take_facing: bool,
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

    /// The moves of a game's (of each round's) opening, which its opening rules count
    /// ([`Rules::no_capture_moves`], [`Rules::first_move`], [`Rules::fixed_direction_moves`]);
    /// 0: the game has none. A position then says how many have been played, up to this many
    /// (one more field of its position string).
    #[inline(always)]
    pub const fn opening_moves(&self) -> u8 {
        let first = !matches!(self.first_move, FirstMove::Sown) as u8;
        let mut most = self.no_capture_moves;
        if first > most {
            most = first;
        }
        if self.fixed_direction_moves > most {
            most = self.fixed_direction_moves;
        }
        most
    }

    /// These rules without any capture (at a move's end or in passing): what the opening's
    /// moves that capture nothing are sown under ([`Rules::no_capture_moves`], which a game with
    /// children or captures on every lap does not have).
    pub const fn without_captures(&self) -> Rules {
        let laps = match self.laps {
            Laps::Single { .. } => Laps::Single {
                captures: CaptureCounts::NONE,
            },
            Laps::Relay { .. } => Laps::Relay {
                captures: CaptureCounts::NONE,
            },
            other => other,
        };
        Rules {
            laps,
            capture_empty_opposite: false,
            takes_own_alone: false,
            capture_past_empty: false,
            past_empty_takes_facing: false,
            empty_landing_gives_store: false,
            single_counter_takes_facing: false,
            singles_take_facing: false,
            passing_captures: PassingCaptures::Off,
            sweep_at_most: 0,
            children: None,
            capture_every_count: false,
            // No pit closes (no pit holds this many), but closed pits are still passed by.
            closes_pits_at: if self.closes_pits_at > 0 { u8::MAX } else { 0 },
            ..*self
        }
    }

    /// Whether a position records the pit a single counter has just crossed into (one more field
    /// of its position string): [`Rules::no_crossing_back`].
    pub const fn tracks_crossing(&self) -> bool {
        self.no_crossing_back
    }

    /// Whether a position says which way each player sows (the first move chose it: see
    /// [`DirectionRule::FirstMoveChooses`]).
    #[inline(always)]
    pub const fn tracks_directions(&self) -> bool {
        matches!(self.direction_rule, DirectionRule::FirstMoveChooses)
    }

    /// Whether the move that ends the game takes the counters left for its mover at once: the
    /// last mover's leftover where a move may give another move (the position would not say
    /// who moved last).
    #[inline(always)]
    pub const fn claims_leftover_at_end(&self) -> bool {
        matches!(self.leftover, Leftover::LastMover) && self.has_extra_moves()
    }

    /// Whether a move may give its mover another move (a last counter in the store, a capture, a
    /// grand slam).
    pub const fn has_extra_moves(&self) -> bool {
        self.extra_turn_in_store
            || !matches!(self.capture_extra_move, CaptureExtraMove::No)
            || matches!(self.grand_slam, GrandSlam::CapturesAndMovesAgain)
            || matches!(self.laps, Laps::RelayFours)
    }

    /// Whether the goal is not the most counters but to clear, deprive or immobilize: the game
    /// is won or lost outright, and the margin is the whole total.
    #[inline(always)]
    pub const fn eliminates(&self) -> bool {
        !matches!(self.goal, Goal::MostCounters)
    }

    /// Whether a player's captured counters may go back to the other player (a last counter
    /// into an empty pit gives the mover's store away): the captured totals then decide future
    /// play, and a final margin may lie anywhere within the total.
    #[inline(always)]
    pub const fn stores_change_hands(&self) -> bool {
        self.empty_landing_gives_store
    }

    /// Whether the game has children ([`Rules::children`]): positions then say which pits are
    /// whose, and the game has no tables.
    #[inline(always)]
    pub const fn has_children(&self) -> bool {
        self.children.is_some()
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

    /// The most moves a position of the game may have: a pit of each pit that may be played (one
    /// row's, or the board's where moves are from either row or pits are owned), and one more
    /// for each whose direction is chosen (every pit before the first move, where it chooses).
    pub const fn most_moves(&self) -> usize {
        let n = self.pits_per_row;
        if matches!(self.move_choice, MoveChoice::Leftmost) {
            return 1;
        }
        let rows = if matches!(self.move_choice, MoveChoice::EitherRow) || self.territory() {
            2
        } else {
            1
        };
        let chosen = if self.tracks_directions() {
            n
        } else {
            self.chosen_direction_pits.count_ones() as usize
        };
        rows * (n + chosen)
    }

    /// Whether the mover chooses the direction of sowing from board index `pit`.
    #[inline(always)]
    pub const fn direction_chosen_at(&self, pit: usize) -> bool {
        self.chosen_direction_pits >> (pit % self.pits_per_row) & 1 != 0
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
            // The position knows (a move is given its player's direction before it is sown).
            DirectionRule::FirstMoveChooses => self.direction,
        }
    }

    /// Whether a one-lap sowing follows the plain ring of pits (no store in it, no pit skipped,
    /// no pit a round may block): the common case, sown without a branch per pit.
    pub const fn plain_ring(&self) -> bool {
        !self.sow_own_store && !self.skip_origin && self.rounds.is_none() && !self.own_row_ring
    }

    /// Whether pits may be blocked: a match of rounds whose rounds block pits, or a game whose
    /// pits close ([`Rules::closes_pits_at`]). A position then says which; sowing passes them
    /// by.
    #[inline(always)]
    pub const fn blocks_pits(&self) -> bool {
        matches!(self.rounds, Some(Rounds { blocks: true, .. })) || self.closes_pits_at > 0
    }

    /// Whether the counters in the game may change: a position may hold any total, or counters
    /// leave the game at closed pits ([`Rules::closes_pits_at`]).
    #[inline(always)]
    pub const fn total_varies(&self) -> bool {
        self.any_total || self.closes_pits_at > 0
    }

    /// The counters a player needs to play another round of `rounds`: its pits to go on at the
    /// start's count (a game in rounds starts with the same count in every pit). In a match for
    /// territory, what the other leaves when short of a win by more than half a pit.
    #[inline]
    pub const fn round_need(&self, rounds: Rounds) -> u32 {
        let per_pit = self.start_count(0) as u32;
        if rounds.territory_pits_to_win > 0 {
            let over = if rounds.partial_pit_to_loser {
                1
            } else {
                per_pit / 2
            };
            self.total() - self.territory_win(rounds) + over
        } else {
            rounds.pits_to_go_on as u32 * per_pit
        }
    }

    /// Who owns the pits at the start, North's a bit each: North's row (in a match for
    /// territory they change hands from round to round; elsewhere they never do).
    #[inline]
    pub const fn start_owners(&self) -> u32 {
        ((1u32 << self.pits_per_row) - 1) << self.pits_per_row
    }

    /// The round wins that win a match of rounds won (see [`Rounds::wins_to_win`]), 0 in every
    /// other game: the rounds each player has won are then part of the position.
    #[inline(always)]
    pub const fn wins_to_win(&self) -> u8 {
        match self.rounds {
            Some(rounds) => rounds.wins_to_win,
            None => 0,
        }
    }

    /// Whether the game is a match for territory (see [`Rounds::territory_pits_to_win`]): who
    /// owns a pit is then part of the position.
    #[inline(always)]
    pub const fn territory(&self) -> bool {
        matches!(
            self.rounds,
            Some(Rounds {
                territory_pits_to_win: 1..,
                ..
            })
        )
    }

    /// In a match for territory, the counters a player must have more than to win the match (as
    /// MancalaGames counts it: enough to fill one pit fewer than it needs and the last more than
    /// half; where a partly filled pit goes to the loser, enough to fill them all).
    #[inline]
    pub const fn territory_win(&self, rounds: Rounds) -> u32 {
        let per_pit = self.start_count(0) as u32;
        let pits = rounds.territory_pits_to_win as u32;
        if rounds.partial_pit_to_loser {
            pits * per_pit
        } else {
            (pits - 1) * per_pit + per_pit / 2 + 1
        }
    }
}
