//! The position: a small `Copy` value holding exactly what a position string holds.

use std::fmt;

use super::moves::{Move, MoveList};
use super::side::Side;
use super::spec::Spec;
use super::variant::{
    Direction, Goal, LastFourRule, Leftover, MoveChoice, MoveFilter, OwnEnd, Rules, Unfed, Variant,
};

/// The most pits on any board (2×12, as Anywoli's).
pub const MAX_PITS: usize = 24;

pub use super::rules_record::MAX_COUNTERS;

/// A game position. Unused pits (beyond `2N`) are always zero, so derived equality and hashing
/// compare exactly the state that matters for future play.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) variant: Variant,
    pub(super) pits: [u8; MAX_PITS],
    pub(super) captured: [u8; 2],
    /// Counters in the game (on the board and captured): the game's own, or, in a game that
    /// allows any total, this position's.
    pub(super) total: u8,
    pub(super) side_to_move: Side,
    /// Two marks of the game's own, which no game needs both kinds of (a game file may not ask
    /// for both): where the game tracks the four holders ([`Rules::tracks_four_holders`],
    /// Anywoli), who received the most recent four and who made the first last-seed capture,
    /// each 0 (nobody), 1 (South) or 2 (North); in a match of rounds won
    /// ([`Rules::wins_to_win`]), the rounds South and North have won; 0 elsewhere. (Two bytes
    /// shared keep the position at 52 bytes: copy-make's speed depends on it.)
    pub(super) marks: [u8; 2],
    /// A match of rounds: the pits blocked for this round, a bit each (always 0 elsewhere).
    pub(super) blocked: u32,
    /// A match of rounds: who moved first in this round (South elsewhere).
    pub(super) round_starter: Side,
    /// The side to move is on an extra move (where [`Rules::tracks_extra_move`]: a capture then
    /// gives no other, and the player to move made the last move; always false elsewhere).
    pub(super) on_extra_move: bool,
    /// The pit a single counter has just crossed into over an end of the board, which the next
    /// move may not play (where [`Rules::no_crossing_back`]): its index plus one, 0 for none.
    pub(super) crossed_into: u8,
    /// The pits North owns, a bit each: its row, except in a match for territory
    /// ([`Rules::territory`]), where they change hands from round to round.
    pub(super) north_owned: u32,
    /// Where the first move chooses the players' directions ([`Rules::tracks_directions`]): the
    /// way South sows (North the other), once chosen; `None` before (and in every other game).
    pub(super) south_direction: Option<Direction>,
    /// Where the game has children ([`Rules::children`]): each player's children, a bit a pit
    /// (`[South's, North's]`; always 0 elsewhere).
    pub(super) children: [u32; 2],
    /// Where the game has an opening ([`Rules::opening_moves`]): the moves played in this game
    /// (round), up to the opening's length; always 0 elsewhere.
    pub(super) opening: u8,
}

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// No counters left on the board.
    BoardEmpty,
    /// The opponent's row is empty and no move of the mover refills it: the game's `unfed` rule
    /// gives the counters left to the starved player (Al-manqala) or to the mover (Oware).
    Starvation,
    /// Anywoli: only four seeds are left on the board.
    LastFour,
    /// The same position occurred for the third time.
    Repetition,
    /// A game's limit of moves in a row that captured nothing was reached.
    NoProgress,
    /// A relay move came back to a lap start it had already made: it would never end.
    EndlessMove,
    /// A row is empty (Kalah): each player takes the counters left in their own row.
    RowEmpty,
    /// A player has captured more than half of the counters, or both half (Oware).
    Majority,
    /// Too few counters are left on the board for any capture (see [`Rules::ends_below`]).
    TooFew,
    /// The player to move has counters but no pit the game lets them play, and no pass (see
    /// [`Rules::move_filter`]).
    NoLegalMove,
    /// No pit on the board holds enough counters to be moved (see [`Rules::min_move`]).
    Immobile,
    /// A row is empty in a game whose goal is to clear one's own (see [`Goal::ClearOwnRow`]).
    RowCleared,
    /// A row is empty, or the player to move has no move, in a game whose goal is to deprive
    /// the opponent (see [`Goal::Deprive`]).
    Deprived,
    /// The player to move has no move in a game whose goal is to immobilize the opponent.
    Immobilized,
}

impl Ending {
    /// A short lower-case description, used in replies and diagrams.
    pub const fn describe(self) -> &'static str {
        match self {
            Ending::BoardEmpty => "board empty",
            Ending::Starvation => "starvation",
            Ending::LastFour => "last four",
            Ending::Repetition => "repetition",
            Ending::NoProgress => "no progress",
            Ending::EndlessMove => "endless move",
            Ending::RowEmpty => "row empty",
            Ending::Majority => "majority",
            Ending::TooFew => "too few counters",
            Ending::NoLegalMove => "no legal move",
            Ending::Immobile => "no movable pit",
            Ending::RowCleared => "row cleared",
            Ending::Deprived => "deprived",
            Ending::Immobilized => "immobilized",
        }
    }
}

/// The ending as [`Ending::describe`] says it: "board empty", "last four", …
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The outcome of a finished game, from South's ("p1") point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    SouthWins,
    NorthWins,
    Draw,
}

impl GameResult {
    pub fn from_totals(totals: [u32; 2]) -> GameResult {
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => GameResult::SouthWins,
            std::cmp::Ordering::Less => GameResult::NorthWins,
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }
}

/// "South wins", "North wins" or "draw", as the engine's replies say it.
impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::SouthWins => "South wins",
            GameResult::NorthWins => "North wins",
            GameResult::Draw => "draw",
        })
    }
}

impl Position {
    /// A position of `variant` from its parts: the pits in index order, both captured totals,
    /// the side to move and Anywoli's two holders (ignored in the other games), past the game's
    /// opening where it has one (what the tables hold: see [`Rules::opening_moves`]). `None` unless
    /// there are as many pits as the game has and all the counters add up to its total (in a
    /// game that allows any total: to at most [`MAX_COUNTERS`]).
    pub fn from_parts(
        variant: Variant,
        pits: &[u8],
        captured: [u8; 2],
        side_to_move: Side,
        last_four: Option<Side>,
        first_capture: Option<Side>,
    ) -> Option<Position> {
        let rules = variant.rules();
        let total: u32 =
            pits.iter().map(|&c| c as u32).sum::<u32>() + captured[0] as u32 + captured[1] as u32;
        let fits = if rules.any_total {
            total <= MAX_COUNTERS
        } else {
            total == rules.total()
        };
        if pits.len() != rules.pit_count() || !fits {
            return None;
        }
        let mut all = [0; MAX_PITS];
        all[..pits.len()].copy_from_slice(pits);
        let marks = if rules.tracks_four_holders() {
            [holder_mark(last_four), holder_mark(first_capture)]
        } else {
            [0; 2]
        };
        Some(Position {
            variant,
            pits: all,
            captured,
            total: total as u8,
            side_to_move,
            marks,
            blocked: 0,
            round_starter: Side::South,
            on_extra_move: false,
            crossed_into: 0,
            north_owned: rules.start_owners(),
            south_direction: None,
            children: [0; 2],
            opening: rules.opening_moves(),
        })
    }

    /// The variant's start position, South to move.
    pub fn start(variant: Variant) -> Position {
        let rules = variant.rules();
        let mut pits = [0; MAX_PITS];
        for (pit, count) in pits[..rules.pit_count()].iter_mut().enumerate() {
            *count = rules.start_count(pit);
        }
        let mut start = Position {
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
        };
        if rules.opening_from_rightmost {
            // The first move is made for South (the game's rules make sure it exists).
            let rightmost = Move::sow(Side::South, rules.pits_per_row as u8 - 1);
            start.play_unchecked(rightmost);
        }
        start
    }

    /// Whether `pit` is blocked for this round (a match of rounds; never elsewhere).
    #[inline(always)]
    pub fn is_blocked(&self, pit: usize) -> bool {
        self.blocked >> pit & 1 != 0
    }

    /// The pits blocked for this round, a bit each (pit 0 the lowest).
    #[inline]
    pub fn blocked_pits(&self) -> u32 {
        self.blocked
    }

    /// The pit a single counter has just crossed into over an end of the board, which the side to
    /// move may not play (see [`Rules::no_crossing_back`]; `None` elsewhere).
    #[inline]
    pub fn crossed_into(&self) -> Option<usize> {
        (self.crossed_into != 0).then(|| self.crossed_into as usize - 1)
    }

    /// Whether the side to move is on an extra move (see [`Rules::tracks_extra_move`]; false
    /// elsewhere).
    #[inline]
    pub fn on_extra_move(&self) -> bool {
        self.on_extra_move
    }

    /// The moves played so far in this game (round), up to the length of its opening (see
    /// [`Rules::opening_moves`]; 0 in a game without one).
    #[inline]
    pub fn opening_moves_played(&self) -> u8 {
        self.opening
    }

    /// Whether the game's opening rules still apply to the next move: it is within the first
    /// `moves` of the game (round).
    #[inline(always)]
    pub(crate) fn within_opening(&self, moves: u8) -> bool {
        self.opening < moves
    }

    /// Who moved first in this round (a match of rounds; South elsewhere).
    #[inline]
    pub fn round_starter(&self) -> Side {
        self.round_starter
    }

    /// The rounds each player has won, `[South, North]` (a match of rounds won, see
    /// [`Rules::wins_to_win`]; 0 elsewhere).
    #[inline]
    pub fn round_wins(&self) -> [u8; 2] {
        if self.rules().wins_to_win() > 0 {
            self.marks
        } else {
            [0; 2]
        }
    }

    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    #[inline]
    pub fn rules(&self) -> &'static Rules {
        self.variant.rules()
    }

    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The board's pits, `0..2N`.
    #[inline]
    pub fn pits(&self) -> &[u8] {
        &self.pits[..self.rules().pit_count()]
    }

    /// Every pit slot, those past the board's `2N` included (always empty): a fixed length for
    /// code compiled per game.
    #[inline(always)]
    pub fn all_pits(&self) -> &[u8; MAX_PITS] {
        &self.pits
    }

    /// Counters captured so far by `side` (in its store, for Anywoli).
    #[inline]
    pub fn captured(&self, side: Side) -> u8 {
        self.captured[side.index()]
    }

    /// The side to move's captured total minus the opponent's.
    #[inline]
    pub fn captured_margin(&self) -> i32 {
        let me = self.side_to_move;
        self.captured(me) as i32 - self.captured(me.opponent()) as i32
    }

    /// The counters the side to move owns minus the opponent's: captured, and in a game with
    /// children, those in its children (its own at the end).
    pub fn owned_margin(&self) -> i32 {
        let margin = self.captured_margin();
        if !self.rules().has_children() {
            return margin;
        }
        let me = self.side_to_move;
        margin + self.in_children(me) as i32 - self.in_children(me.opponent()) as i32
    }

    /// Anywoli: who received the most recent four, if anybody has.
    pub fn last_four(&self) -> Option<Side> {
        mark_holder(self.marks[0])
    }

    /// Anywoli: who made the first last-seed capture, if anybody has.
    pub fn first_capture(&self) -> Option<Side> {
        mark_holder(self.marks[1])
    }

    /// Anywoli: `side` received the most recent four.
    #[inline(always)]
    pub(super) fn set_last_four(&mut self, side: Side) {
        self.marks[0] = holder_mark(Some(side));
    }

    /// Anywoli: `side` made a last-seed capture (the first one is kept).
    #[inline(always)]
    pub(super) fn note_capture(&mut self, side: Side) {
        if self.marks[1] == 0 {
            self.marks[1] = holder_mark(Some(side));
        }
    }

    /// Counters in the game: on the board and captured.
    #[inline]
    pub fn total(&self) -> u32 {
        self.total as u32
    }

    /// What a game won outright gives its winner: every counter of the game, those that have
    /// left it at closed pits too ([`Rules::closes_pits_at`]; in a game of any total, which
    /// does not say how many it had, those still in it).
    #[inline]
    pub fn goal_total(&self) -> u32 {
        if self.rules().closes_pits_at > 0 && !self.rules().any_total {
            self.rules().total()
        } else {
            self.total as u32
        }
    }

    /// Counters still on the board.
    #[inline]
    pub fn on_board(&self) -> u32 {
        self.total as u32 - self.captured[0] as u32 - self.captured[1] as u32
    }

    /// [`Position::on_board`] for a position of the game `S`.
    #[inline(always)]
    pub fn on_board_for<S: Spec>(&self) -> u32 {
        let rules = S::rules(self);
        // A game's own total is a constant where it is fixed.
        let total = if rules.total_varies() {
            self.total as u32
        } else {
            rules.total()
        };
        total - self.captured[0] as u32 - self.captured[1] as u32
    }

    /// The board indices of `side`'s row.
    #[inline]
    pub fn row(&self, side: Side) -> std::ops::Range<usize> {
        let n = self.rules().pits_per_row;
        side.index() * n..side.index() * n + n
    }

    /// Counters in `side`'s row (the pits it owns, in a match for territory), its children's
    /// and the opponent's left out: the counters it may still move.
    #[inline]
    pub fn row_total(&self, side: Side) -> u32 {
        if self.rules().territory() || self.rules().has_children() {
            return self.owned_total(side);
        }
        self.pits[self.row(side)].iter().map(|&c| c as u32).sum()
    }

    /// The counters in the pits `side` owns (its row, but in a match for territory), children
    /// left out.
    fn owned_total(&self, side: Side) -> u32 {
        let mine = match side {
            Side::South => !self.north_owned,
            Side::North => self.north_owned,
        } & !self.children_mask();
        let len = self.rules().pit_count();
        (0..len)
            .filter(|&pit| mine >> pit & 1 != 0)
            .map(|pit| self.pits[pit] as u32)
            .sum()
    }

    /// The way `side` sows, where the first move chose it (see [`Rules::tracks_directions`];
    /// `None` before the first move and in every other game).
    #[inline]
    pub fn direction_of_side(&self, side: Side) -> Option<Direction> {
        self.south_direction.map(|south| match side {
            Side::South => south,
            Side::North => south.opposite(),
        })
    }

    /// `mv` with the direction its player sows in, where the first move chose the players'
    /// directions and `mv` names none (else `mv` itself).
    #[inline(always)]
    pub(crate) fn directed(&self, rules: &Rules, mv: Move) -> Move {
        match self.direction_of_side(self.side_to_move) {
            Some(direction) if rules.tracks_directions() && mv.chosen_direction().is_none() => {
                mv.toward(direction)
            }
            _ => mv,
        }
    }

    /// Every child's pit, a bit each (where the game has children; 0 elsewhere).
    #[inline(always)]
    pub fn children_mask(&self) -> u32 {
        self.children[0] | self.children[1]
    }

    /// `side`'s children, a bit each (pit 0 the lowest).
    #[inline]
    pub fn children_of(&self, side: Side) -> u32 {
        self.children[side.index()]
    }

    /// Whose child `pit` is, if it is one.
    #[inline]
    pub fn child_owner(&self, pit: usize) -> Option<Side> {
        if self.children[0] >> pit & 1 != 0 {
            Some(Side::South)
        } else if self.children[1] >> pit & 1 != 0 {
            Some(Side::North)
        } else {
            None
        }
    }

    /// The counters in `side`'s children: its own, as its captures are.
    #[inline]
    pub fn in_children(&self, side: Side) -> u32 {
        let mine = self.children[side.index()];
        if mine == 0 {
            return 0;
        }
        (0..self.rules().pit_count())
            .filter(|&pit| mine >> pit & 1 != 0)
            .map(|pit| self.pits[pit] as u32)
            .sum()
    }

    /// The counters on the board outside the children: those still in play for everybody.
    #[inline]
    pub fn free_on_board(&self) -> u32 {
        self.on_board() - self.in_children(Side::South) - self.in_children(Side::North)
    }

    /// The pits North owns this round, a bit each (its row, but in a match for territory).
    #[inline]
    pub fn north_owned_pits(&self) -> u32 {
        self.north_owned
    }

    /// [`Position::row_total`] for a position of the game `S`.
    #[inline(always)]
    fn row_total_for<S: Spec>(&self, side: Side) -> u32 {
        if S::rules(self).territory() || S::rules(self).has_children() {
            return self.owned_total(side);
        }
        let n = S::rules(self).pits_per_row;
        let first = side.index() * n;
        self.pits[first..first + n].iter().map(|&c| c as u32).sum()
    }

    /// The owner of board index `pit`: the player whose row it is in, or in a match for
    /// territory, who owns it this round.
    #[inline]
    pub fn owner(&self, pit: usize) -> Side {
        if self.north_owned >> pit & 1 != 0 {
            Side::North
        } else {
            Side::South
        }
    }

    /// The legal moves in index order. Empty exactly when the position itself ends the game
    /// (see [`Position::own_ending`]); the history rules are the [`super::Game`]'s business.
    pub fn legal_moves(&self) -> MoveList {
        crate::with_spec!(self.variant, S => self.legal_moves_for::<S>())
    }

    /// [`Position::legal_moves`] for a position of the game `S` (compiled with its rules as
    /// constants; `S` must be this position's game).
    #[inline(always)]
    pub fn legal_moves_for<S: Spec>(&self) -> MoveList {
        debug_assert_eq!(self.variant, S::variant(self));
        let rules = S::rules(self);
        let mut moves = MoveList::new();
        if self.own_end_by_count::<S>() {
            return moves;
        }
        let mover = self.side_to_move;
        let n = rules.pits_per_row;
        let row = &self.pits[mover.index() * n..mover.index() * n + n];
        let least = rules.min_move;
        if rules.move_choice == MoveChoice::Leftmost {
            if let Some(offset) = row.iter().position(|&c| c >= least) {
                moves.push(Move::sow(mover, offset as u8));
            }
        } else if rules.tracks_directions() && self.south_direction.is_none() {
            // The first move chooses its direction: two moves a pit, counter-clockwise first.
            for (offset, &count) in row.iter().enumerate() {
                let plain = Move::sow(mover, offset as u8);
                moves.push_if(plain.toward(Direction::CounterClockwise), count >= least);
                moves.push_if(plain.toward(Direction::Clockwise), count >= least);
            }
        } else if rules.chosen_direction_pits != 0
            && !self.within_opening(rules.fixed_direction_moves)
        {
            // A pit whose direction the mover chooses gives two moves, counter-clockwise first
            // (the pits of one's row, or of either row).
            let pits = if rules.move_choice == MoveChoice::EitherRow {
                0..2 * n
            } else {
                mover.index() * n..mover.index() * n + n
            };
            for pit in pits {
                let count = self.pits[pit];
                let plain = Move::from_pit(pit, n);
                if rules.direction_chosen_at(pit) {
                    moves.push_if(plain.toward(Direction::CounterClockwise), count >= least);
                    moves.push_if(plain.toward(Direction::Clockwise), count >= least);
                } else {
                    moves.push_if(plain, count >= least);
                }
            }
        } else if rules.move_choice == MoveChoice::EitherRow {
            for (pit, &count) in self.pits[..2 * n].iter().enumerate() {
                moves.push_if(Move::from_pit(pit, n), count >= least);
            }
        } else if rules.territory() {
            // The pits the mover owns, named by their letters (in either row).
            for (pit, &count) in self.pits[..2 * n].iter().enumerate() {
                let owned = (self.north_owned >> pit & 1 != 0) == (mover == Side::North);
                moves.push_if(Move::from_pit(pit, n), owned && count >= least);
            }
        } else {
            // Written without a branch per pit: whether a pit is empty is unpredictable.
            for (offset, &count) in row.iter().enumerate() {
                moves.push_if(Move::sow(mover, offset as u8), count >= least);
            }
        }
        if rules.has_children() && self.children_mask() != 0 {
            // Nobody moves from a child.
            let children = self.children_mask();
            let mut kept = MoveList::new();
            for &mv in &moves {
                kept.push_if(mv, mv.pit(n).is_some_and(|pit| children >> pit & 1 == 0));
            }
            moves = kept;
        }
        if rules.move_filter != MoveFilter::Every {
            moves = self.filtered_moves::<S>(moves);
        }
        if rules.no_crossing_back && self.crossed_into != 0 {
            let crossed = Move::from_pit(self.crossed_into as usize - 1, n);
            let mut kept = MoveList::new();
            for &mv in &moves {
                kept.push_if(mv, mv.undirected() != crossed);
            }
            moves = kept;
        }
        if moves.is_empty() {
            // Without a pass, a player with counters but no playable pit ends the game; a goal to
            // deprive or immobilize is reached so.
            if !matches!(
                rules.own_end,
                OwnEnd::MoverRowEmpty | OwnEnd::EitherRowEmpty
            ) && !matches!(rules.goal, Goal::Deprive | Goal::Immobilize)
            {
                moves.push(Move::PASS);
            }
            return moves;
        }
        if self.must_feed_for::<S>() {
            let feeding = self.feeding_moves::<S>(&moves);
            // Where no move can feed and the game goes on, every move is allowed.
            if !feeding.is_empty() || rules.unfed != Unfed::AnyMove {
                moves = feeding;
            }
        }
        moves
    }

    /// Whether the position by itself ends the game (no legal move): the same as
    /// `legal_moves().is_empty()` without generating the moves in the usual case.
    pub fn is_game_over(&self) -> bool {
        crate::with_spec!(self.variant, S => self.is_game_over_for::<S>())
    }

    /// [`Position::is_game_over`] for a position of the game `S`.
    #[inline(always)]
    pub fn is_game_over_for<S: Spec>(&self) -> bool {
        self.own_end_by_count::<S>()
            || ((self.must_feed_for::<S>()
                || S::rules(self).move_filter != MoveFilter::Every
                || self.crossed_into != 0)
                && self.legal_moves_for::<S>().is_empty())
    }

    /// Whether the side to move must feed an empty opposing row (Al-manqala, Oware), which
    /// limits its moves to those that do.
    #[inline(always)]
    pub fn must_feed_for<S: Spec>(&self) -> bool {
        S::rules(self).must_feed && self.row_total_for::<S>(self.side_to_move.opponent()) == 0
    }

    /// Why a position with counters and no legal move ends the game: the mover cannot feed the
    /// starved opponent, or the game lets them play none of their pits.
    fn no_move_ending(&self) -> Ending {
        let starved = self.rules().must_feed
            && self.rules().unfed != Unfed::AnyMove
            && self.row_total(self.side_to_move.opponent()) == 0;
        if starved {
            Ending::Starvation
        } else {
            match self.rules().goal {
                Goal::Deprive => Ending::Deprived,
                Goal::Immobilize => Ending::Immobilized,
                Goal::MostCounters | Goal::ClearOwnRow => Ending::NoLegalMove,
            }
        }
    }

    /// Of the sowing moves `candidates`, those the game's [`MoveFilter`] lets the mover play.
    fn filtered_moves<S: Spec>(&self, candidates: MoveList) -> MoveList {
        let rules = S::rules(self);
        let n = rules.pits_per_row;
        let pit_of = |mv: Move| mv.pit(n).unwrap_or_default();
        // A single counter only into an empty pit, and never a pit whose next place is a store.
        let single_into_empty = |moves: MoveList| {
            let mut kept = MoveList::new();
            for mv in &moves {
                let pit = pit_of(*mv);
                let playable = match self.next_pit(pit) {
                    None => false,
                    Some(next) => self.pits[pit] != 1 || self.pits[next] == 0,
                };
                kept.push_if(*mv, playable);
            }
            kept
        };
        let only_if_all = |moves: MoveList, count: u8| {
            if moves.iter().all(|mv| self.pits[pit_of(*mv)] == count) {
                return moves;
            }
            let mut kept = MoveList::new();
            for mv in &moves {
                kept.push_if(*mv, self.pits[pit_of(*mv)] != count);
            }
            kept
        };
        match rules.move_filter {
            MoveFilter::Every => candidates,
            MoveFilter::EndsAwayOrEmpty => {
                let mut kept = MoveList::new();
                for mv in &candidates {
                    kept.push_if(*mv, self.ends_away_or_empty(pit_of(*mv)));
                }
                kept
            }
            MoveFilter::SingleIntoEmpty => single_into_empty(candidates),
            MoveFilter::CountOnlyIfAll(count) => only_if_all(candidates, count),
            MoveFilter::SinglesOnlyIfAllIntoEmpty => single_into_empty(only_if_all(candidates, 1)),
        }
    }

    /// Of the sowing moves `candidates`, the moves that leave the starved opponent something,
    /// judged after captures (not after a claim of the counters left at the game's end).
    fn feeding_moves<S: Spec>(&self, candidates: &MoveList) -> MoveList {
        let starved = self.side_to_move.opponent();
        let mut feeding = MoveList::new();
        for &mv in candidates {
            let mut after = *self;
            after.sow_and_capture_for::<S>(mv);
            if after.row_total_for::<S>(starved) != 0 {
                feeding.push(mv);
            }
        }
        feeding
    }

    /// The ends a position shows by its counts: an empty board, or the game's own end (the last
    /// four, an empty row, a majority captured).
    #[inline(always)]
    fn own_end_by_count<S: Spec>(&self) -> bool {
        self.own_end_by_count_with::<S>().is_some()
    }

    #[inline(always)]
    fn own_end_by_count_with<S: Spec>(&self) -> Option<Ending> {
        let rules = S::rules(self);
        if rules.eliminates() {
            return self.goal_end_by_count::<S>(rules);
        }
        let on_board = self.on_board_for::<S>();
        // Children's counters are their owners': the board is empty when only they are left.
        let children = if rules.has_children() {
            self.children_mask()
        } else {
            0
        };
        if on_board == 0 || children != 0 && self.free_on_board() == 0 {
            return Some(Ending::BoardEmpty);
        }
        if rules.majority_ends && self.has_majority(rules, on_board) {
            return Some(Ending::Majority);
        }
        // (Counters sown into a child may still change the outcome: not with children.)
        if on_board < rules.ends_below as u32 && children == 0 {
            return Some(Ending::TooFew);
        }
        if rules.min_move > 1
            && !self
                .pits()
                .iter()
                .enumerate()
                .any(|(pit, &c)| c >= rules.min_move && children >> pit & 1 == 0)
        {
            return Some(Ending::Immobile);
        }
        match rules.own_end {
            OwnEnd::EmptyBoard => None,
            OwnEnd::LastFour => (on_board == 4).then_some(Ending::LastFour),
            OwnEnd::RowEmpty => (self.row_total_for::<S>(Side::South) == 0
                || self.row_total_for::<S>(Side::North) == 0)
                .then_some(Ending::RowEmpty),
            // Either row: the opponent's empty, or the mover's (below) without a move.
            OwnEnd::EitherRowEmpty
                if self.row_total_for::<S>(self.side_to_move.opponent()) == 0 =>
            {
                Some(Ending::RowEmpty)
            }
            OwnEnd::MoverRowEmpty | OwnEnd::EitherRowEmpty if rules.min_move > 1 => {
                let n = rules.pits_per_row;
                let first = self.side_to_move.index() * n;
                (!(first..first + n)
                    .any(|pit| self.pits[pit] >= rules.min_move && children >> pit & 1 == 0))
                .then_some(Ending::RowEmpty)
            }
            OwnEnd::MoverRowEmpty | OwnEnd::EitherRowEmpty => {
                (self.row_total_for::<S>(self.side_to_move) == 0).then_some(Ending::RowEmpty)
            }
            OwnEnd::Majority => self
                .has_majority(rules, on_board)
                .then_some(Ending::Majority),
        }
    }

    /// The end an elimination goal sees in the rows: an empty row (to clear or deprive), the
    /// player to move without counters (to immobilize). A player with counters and no move is
    /// found by the moves (see [`Position::no_move_ending`]).
    #[inline(always)]
    fn goal_end_by_count<S: Spec>(&self, rules: &Rules) -> Option<Ending> {
        let emptied = |side| self.row_total_for::<S>(side) == 0;
        match rules.goal {
            Goal::MostCounters => None,
            Goal::ClearOwnRow => {
                (emptied(Side::South) || emptied(Side::North)).then_some(Ending::RowCleared)
            }
            Goal::Deprive => {
                (emptied(Side::South) || emptied(Side::North)).then_some(Ending::Deprived)
            }
            Goal::Immobilize => emptied(self.side_to_move).then_some(Ending::Immobilized),
        }
    }

    /// Who made the move that led here: the side to move where it is on an extra move, else
    /// the other. Exact where the game has no extra moves or the position tracks them
    /// ([`Rules::tracks_extra_move`]).
    pub fn last_mover(&self) -> Side {
        if self.on_extra_move {
            self.side_to_move
        } else {
            self.side_to_move.opponent()
        }
    }

    /// Who wins a game of an elimination goal ended by `ending` here (`None`: a draw). An end
    /// the goal does not name (the history rules, a player without a move where the goal is to
    /// clear) is conceded: to the player with fewer counters in their row where the goal is to
    /// clear, more elsewhere.
    fn goal_winner(&self, ending: Ending) -> Option<Side> {
        let [south, north] = [Side::South, Side::North].map(|side| self.row_total(side));
        let by_empty_row = |empty_wins: bool| match (south == 0, north == 0) {
            (true, true) => Some(self.last_mover()),
            (true, false) => Some(if empty_wins { Side::South } else { Side::North }),
            (false, true) => Some(if empty_wins { Side::North } else { Side::South }),
            (false, false) => None,
        };
        match ending {
            Ending::RowCleared => by_empty_row(true),
            Ending::Deprived => by_empty_row(false).or(Some(self.side_to_move.opponent())),
            Ending::Immobilized => Some(self.side_to_move.opponent()),
            _ => {
                let fewer_wins = self.rules().goal == Goal::ClearOwnRow;
                match south.cmp(&north) {
                    std::cmp::Ordering::Equal => None,
                    std::cmp::Ordering::Less => {
                        Some(if fewer_wins { Side::South } else { Side::North })
                    }
                    std::cmp::Ordering::Greater => {
                        Some(if fewer_wins { Side::North } else { Side::South })
                    }
                }
            }
        }
    }

    /// The least and the most final margin the side to move can still end with: the captured
    /// margin less and plus the counters on the board, or, where the goal eliminates or a store
    /// may be given away, minus and plus the whole total.
    #[inline]
    pub fn final_margin_range(&self) -> (i32, i32) {
        if self.rules().eliminates() || self.rules().stores_change_hands() {
            let total = self.goal_total() as i32;
            return (-total, total);
        }
        let (captured, reach) = (self.captured_margin(), self.on_board() as i32);
        (captured - reach, captured + reach)
    }

    /// Whether a player has captured more than half of the counters, or both exactly half; in a
    /// match of rounds, more than the counters less those the other needs to go on (so that the
    /// other could not), or both exactly that.
    #[inline(always)]
    fn has_majority(&self, rules: &Rules, on_board: u32) -> bool {
        let total = on_board + self.captured[0] as u32 + self.captured[1] as u32;
        // A player's children count as its captures.
        let held = if rules.has_children() {
            [
                self.captured[0] as u32 + self.in_children(Side::South),
                self.captured[1] as u32 + self.in_children(Side::North),
            ]
        } else {
            self.captured.map(u32::from)
        };
        // (A match of rounds won plays each round for the most counters: half decides.)
        if let Some(rounds) = rules.rounds.filter(|r| r.wins_to_win == 0) {
            let most = if rounds.territory_pits_to_win > 0 {
                rules.territory_win(rounds)
            } else {
                total.saturating_sub(rules.round_need(rounds))
            };
            let [south, north] = held;
            return south > most || north > most || (south == most && north == most);
        }
        let [south, north] = held.map(|c| 2 * c);
        south > total || north > total || (south == total && north == total)
    }

    /// Whether the position by itself ends the game, and how (history rules aside).
    pub fn own_ending(&self) -> Option<Ending> {
        crate::with_spec!(self.variant, S => self.own_ending_for::<S>())
    }

    /// [`Position::own_ending`] for a position of the game `S`.
    #[inline]
    pub fn own_ending_for<S: Spec>(&self) -> Option<Ending> {
        self.own_end_by_count_with::<S>().or_else(|| {
            self.legal_moves_for::<S>()
                .is_empty()
                .then(|| self.no_move_ending())
        })
    }

    /// [`Position::own_ending_for`] and, when the game goes on, the legal moves it found on the
    /// way (a search needs both, and the moves cost as much as the ending).
    #[inline]
    pub fn ending_or_moves_for<S: Spec>(&self) -> Result<MoveList, Ending> {
        if let Some(ending) = self.own_end_by_count_with::<S>() {
            return Err(ending);
        }
        let legal = self.legal_moves_for::<S>();
        if legal.is_empty() {
            Err(self.no_move_ending())
        } else {
            Ok(legal)
        }
    }

    /// Final totals `[South, North]` when the game has ended by `ending` in this position.
    ///
    /// Splitting evenly gives each player half; an odd counter (only possible in a position
    /// string typed by hand) goes to nobody, which keeps the result that of the captured totals.
    pub fn final_totals(&self, ending: Ending, last_four_rule: LastFourRule) -> [u32; 2] {
        if self.rules().eliminates() {
            let total = self.goal_total();
            return match self.goal_winner(ending) {
                Some(Side::South) => [total, 0],
                Some(Side::North) => [0, total],
                None => [total / 2, total / 2],
            };
        }
        // A player's children are its own, as its captures; the counters left outside them go as
        // the ending says.
        let mut totals = [
            self.captured[0] as u32 + self.in_children(Side::South),
            self.captured[1] as u32 + self.in_children(Side::North),
        ];
        let on_board = self.free_on_board();
        let split_evenly = |totals: &mut [u32; 2]| {
            totals[0] += on_board / 2;
            totals[1] += on_board / 2;
        };
        let give_all = |totals: &mut [u32; 2], to: Option<Side>| match to {
            Some(side) => totals[side.index()] += on_board,
            None => split_evenly(totals),
        };
        let rows = |totals: &mut [u32; 2]| {
            for side in Side::BOTH {
                totals[side.index()] += self.row_total(side);
            }
        };
        match ending {
            Ending::BoardEmpty | Ending::Majority => {}
            Ending::RowEmpty if self.rules().own_end == OwnEnd::RowEmpty => rows(&mut totals),
            Ending::Starvation if self.rules().unfed != Unfed::AsLeftover => {
                let taker = match self.rules().unfed {
                    Unfed::MoverTakesAll => self.side_to_move,
                    _ => self.side_to_move.opponent(),
                };
                give_all(&mut totals, Some(taker));
            }
            Ending::LastFour => {
                let receiver = match last_four_rule {
                    LastFourRule::MostRecentFour => self.last_four(),
                    LastFourRule::FirstCapture => self.first_capture(),
                };
                give_all(&mut totals, receiver);
            }
            Ending::RowEmpty
            | Ending::Starvation
            | Ending::RowCleared
            | Ending::Deprived
            | Ending::Immobilized
            | Ending::NoLegalMove
            | Ending::TooFew
            | Ending::Immobile
            | Ending::Repetition
            | Ending::NoProgress
            | Ending::EndlessMove => match self.rules().leftover {
                Leftover::SplitEvenly => split_evenly(&mut totals),
                Leftover::RowOwner => rows(&mut totals),
                Leftover::LastFourReceiver => give_all(&mut totals, self.last_four()),
                Leftover::Nobody => {}
                Leftover::SplitOddToTrailing => {
                    let trailing = if totals[1] > totals[0] {
                        Side::South
                    } else {
                        Side::North
                    };
                    split_evenly(&mut totals);
                    totals[trailing.index()] += on_board % 2;
                }
                Leftover::LastMover => give_all(&mut totals, Some(self.side_to_move.opponent())),
            },
        }
        totals
    }

    /// The final margin of the side to move (own final total minus the opponent's) when the game
    /// has ended by `ending` in this position.
    pub fn final_margin(&self, ending: Ending, last_four_rule: LastFourRule) -> i32 {
        margin_of(self.final_totals(ending, last_four_rule), self.side_to_move)
    }

    /// The parity (0 or 1) of every final margin the game can still end with from here, where
    /// the rules make it certain: when every counter ends with one of the players, the two
    /// totals add up to [`Position::total`], and a margin has that sum's parity. Counters that
    /// go to nobody (a majority end, an odd count split evenly, a leftover to nobody) make it
    /// `None`. A
    /// solver asks "is the value at least 3?" only once, not again as "at least 2?".
    pub fn margin_parity(&self) -> Option<u32> {
        let rules = self.rules();
        if rules.ends_on_majority() || rules.leftover == Leftover::Nobody || rules.eliminates() {
            return None;
        }
        // Even splits happen at a repetition (or a four with no receiver yet); they lose
        // nothing while the board's count is even and stays so.
        let may_split = matches!(
            rules.leftover,
            Leftover::SplitEvenly | Leftover::LastFourReceiver
        ) || rules.own_end == OwnEnd::LastFour;
        let splits_even = self.on_board().is_multiple_of(2) && rules.board_parity_kept();
        (!may_split || splits_even).then_some(self.total() % 2)
    }

    /// The same board with another side to move (used by Mangala IV's side query).
    pub fn with_side_to_move(mut self, side: Side) -> Position {
        self.side_to_move = side;
        self
    }
}

/// `side`'s margin in `totals` (`[South, North]`): its total minus the other's.
pub fn margin_of(totals: [u32; 2], side: Side) -> i32 {
    totals[side.index()] as i32 - totals[side.opponent().index()] as i32
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant, self)
    }
}

/// A four holder as one of [`Position`]'s marks: 0 nobody, 1 South, 2 North.
#[inline(always)]
pub(super) const fn holder_mark(holder: Option<Side>) -> u8 {
    match holder {
        None => 0,
        Some(Side::South) => 1,
        Some(Side::North) => 2,
    }
}

/// The four holder one of [`Position`]'s marks names.
#[inline(always)]
const fn mark_holder(mark: u8) -> Option<Side> {
    match mark {
        1 => Some(Side::South),
        2 => Some(Side::North),
        _ => None,
    }
}
