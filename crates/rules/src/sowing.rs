//! Making a move: sowing, relay laps, captures, and the endless-move rule.

use super::moves::Move;
use super::position::{Ending, MAX_PITS, Position};
use super::side::Side;
use super::spec::Spec;
use super::variant::{
    CaptureCounts, CaptureExtraMove, CaptureSide, ChildApart, ChildMaking, Children, Direction,
    DirectionRule, FirstMove, GrandSlam, Laps, MoveChoice, PassingCaptures, RelayFrom, Rules,
    Unfed,
};

/// The rules the move `mv` from `origin` holding `hand` counters is sown under: the game's, with
/// the move's own direction (the one its player chose, or the one its pit and hand give). In a
/// game of one direction, the chains of a move whose player chose its direction still run
/// against the game's direction, as MancalaGames plays them.
#[inline(always)]
pub(crate) const fn rules_of_move(game_rules: &Rules, mv: Move, origin: usize, hand: u8) -> Rules {
    match mv.chosen_direction() {
        Some(direction) => Rules {
            direction,
            chain_direction: match game_rules.direction_rule {
                DirectionRule::Fixed => Some(game_rules.direction),
                _ => None,
            },
            ..*game_rules
        },
        None => Rules {
            direction: game_rules.direction_of(origin, hand),
            ..*game_rules
        },
    }
}

/// Laps of a relay move made before looking for a cycle.
const LAPS_BEFORE_CYCLE_SEARCH: u32 = 8;

/// What a move did, beyond the new position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Counters captured by the move (by either player: Anywoli's mid-sow fours go to the pit's
    /// owner; Kalah's counters sown into a store count too). Non-zero means the move made
    /// progress.
    pub captured: u8,
    /// The mover moves again (Anywoli's last-seed four, Kalah's last counter in the store).
    pub extra_turn: bool,
    /// The move would never end; it was stopped and the game is over.
    pub endless: bool,
}

/// How much of a move [`Position::play_with`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveParts {
    /// All of it.
    Whole,
    /// All but the last mover's claim of the counters left where the move ends the game.
    WithoutClaim,
    /// The sowing and the captures at its end only.
    EndCaptures,
}

/// How one lap of a relay move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LapEnd {
    /// The move is over.
    Done,
    /// The move is over and the mover moves again.
    ExtraTurn,
    /// Lift the pit at this index and sow on.
    Relay(usize),
}

/// One step of a lap sown a counter at a time: a counter into a pit or the mover's store, or a
/// pit taken in passing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PassingStep {
    Pit(usize),
    /// A counter into this player's store.
    Store(Side),
    Capture {
        pit: usize,
        count: u8,
        to: Side,
    },
    /// One counter moved from a pit to another (a capture's counters sown on from the lap's
    /// last pit).
    Shift {
        from: usize,
        to: usize,
    },
    /// A lap sown at once from `origin` of `before` (the counters' places are worked out by
    /// whoever tells them).
    Lap {
        before: Position,
        origin: usize,
    },
    /// The captures at the end of a move: `sown` is the position before them, `after` the one
    /// they leave.
    Captured {
        sown: Position,
        after: Position,
        landing: usize,
    },
    /// A counter dropped at this closed pit of the opponent's leaves the game
    /// ([`Rules::closes_pits_at`]).
    LeavesGame(usize),
    /// This pit closes (its counters are sown on by the next lap).
    Closes(usize),
}

/// Where the last counter of a one-lap sowing fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LastCounter {
    Pit(usize),
    /// The mover's own store (only where the store is in the ring).
    Store,
}

/// The index `steps` (less than a lap) further in the sowing direction.
#[inline(always)]
fn forward(rules: &Rules, pit: usize, steps: usize) -> usize {
    // (Only the plain ring of the whole board comes here.)
    debug_assert!(!rules.own_row_ring);
    let len = rules.pit_count();
    match rules.direction {
        Direction::CounterClockwise if pit + steps >= len => pit + steps - len,
        Direction::CounterClockwise => pit + steps,
        Direction::Clockwise if steps > pit => pit + len - steps,
        Direction::Clockwise => pit - steps,
    }
}

/// The pit after which `mover`'s store lies in the sowing ring: the mover's last pit on the way
/// out of their row, or, with the store at the row's right end, the pit before that end.
#[inline(always)]
pub(crate) fn store_after(rules: &Rules, mover: Side) -> usize {
    let (n, len) = (rules.pits_per_row, rules.pit_count());
    if rules.own_row_ring {
        // The store closes the mover's own ring: after its row's last pit in the sowing.
        let first = mover.index() * n;
        return match rules.direction {
            Direction::CounterClockwise => first + n - 1,
            Direction::Clockwise => first,
        };
    }
    match (rules.direction, mover) {
        (Direction::CounterClockwise, Side::South) => n - 1,
        (Direction::CounterClockwise, Side::North) => len - 1,
        (Direction::Clockwise, Side::South) if rules.store_at_right => n,
        (Direction::Clockwise, Side::North) if rules.store_at_right => 0,
        (Direction::Clockwise, Side::South) => 0,
        (Direction::Clockwise, Side::North) => n,
    }
}

/// The next index in `direction` on the ring of `pit`'s own row ([`Rules::own_row_ring`]).
#[inline(never)]
fn step_in_row(rules: &Rules, pit: usize, direction: Direction) -> usize {
    let n = rules.pits_per_row;
    let first = if pit < n { 0 } else { n };
    match direction {
        Direction::CounterClockwise if pit + 1 == first + n => first,
        Direction::CounterClockwise => pit + 1,
        Direction::Clockwise if pit == first => first + n - 1,
        Direction::Clockwise => pit - 1,
    }
}

/// The next index in the sowing direction.
#[inline(always)]
pub(crate) fn step(rules: &Rules, pit: usize) -> usize {
    if rules.own_row_ring {
        return step_in_row(rules, pit, rules.direction);
    }
    let len = rules.pit_count();
    match rules.direction {
        Direction::CounterClockwise => {
            if pit + 1 == len {
                0
            } else {
                pit + 1
            }
        }
        Direction::Clockwise => {
            if pit == 0 {
                len - 1
            } else {
                pit - 1
            }
        }
    }
}

/// The previous index in the sowing direction: where capture chains go.
#[inline(always)]
pub(crate) fn step_back(rules: &Rules, pit: usize) -> usize {
    let len = rules.pit_count();
    let direction = match rules.chain_direction {
        Some(direction) => direction,
        None => rules.direction,
    };
    if rules.own_row_ring {
        return step_in_row(rules, pit, direction.opposite());
    }
    match direction {
        Direction::CounterClockwise => {
            if pit == 0 {
                len - 1
            } else {
                pit - 1
            }
        }
        Direction::Clockwise => {
            if pit + 1 == len {
                0
            } else {
                pit + 1
            }
        }
    }
}

impl Position {
    /// Plays `mv`, which must be legal here (see [`Position::check_move`]); a move that is not
    /// legal leaves a meaningless (but memory-safe) position.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> MoveEffect {
        crate::with_spec!(self.variant, S => self.play_for::<S>(mv))
    }

    /// [`Position::play_unchecked`] for a position of the game `S` (compiled with its rules as
    /// constants; `S` must be this position's game).
    #[inline(always)]
    pub fn play_for<S: Spec>(&mut self, mv: Move) -> MoveEffect {
        self.play_with::<S>(mv, MoveParts::Whole)
    }

    /// The sowing and captures of `mv` only, without the last mover's claim of the counters left
    /// where the move ends the game: what the feeding rule judges a move by (the claim would ask
    /// for the next player's moves, which may ask the feeding rule again, without end).
    #[inline(always)]
    pub(crate) fn sow_and_capture_for<S: Spec>(&mut self, mv: Move) -> MoveEffect {
        self.play_with::<S>(mv, MoveParts::WithoutClaim)
    }

    /// The sowing and the end captures of `mv` only, without the rules that follow them (a
    /// sweep, a capture's extra move) or the last mover's claim: what a move's telling compares
    /// the end captures with (those rules are told apart).
    pub(crate) fn sow_and_end_captures_unchecked(&mut self, mv: Move) -> MoveEffect {
        crate::with_spec!(self.variant, S => self.play_with::<S>(mv, MoveParts::EndCaptures))
    }

    #[inline(always)]
    fn play_with<S: Spec>(&mut self, mv: Move, parts: MoveParts) -> MoveEffect {
        debug_assert_eq!(self.variant, S::variant(self));
        let game_rules = S::rules(self);
        let mv = if game_rules.tracks_directions() {
            self.choose_directions(mv)
        } else {
            mv
        };
        // A game whose pits choose their direction sows each move under its own copy of the
        // rules, with the move's direction in it.
        let chosen;
        let own_direction = game_rules.direction_rule != DirectionRule::Fixed
            || (game_rules.chosen_direction_pits != 0 && mv.chosen_direction().is_some());
        let rules = match mv.pit(game_rules.pits_per_row) {
            Some(origin) if own_direction => {
                chosen = rules_of_move(game_rules, mv, origin, self.pits[origin]);
                &chosen
            }
            _ => game_rules,
        };
        let uncapturing = self.opening_without_captures(game_rules, rules);
        let rules = uncapturing.as_ref().unwrap_or(rules);
        let before = self.captured[0] + self.captured[1];
        let mover = self.side_to_move;
        let captured_before = self.captured;
        let mut effect = MoveEffect::default();
        // A single counter sown over an end of the board into the other row's end pit.
        let crossing = if game_rules.no_crossing_back {
            self.single_crossing(rules, mv)
        } else {
            None
        };
        // Whether the captures that end the move took counters (not those made in passing).
        let mut end_captured = false;
        let first_move_unsown = game_rules.first_move != FirstMove::Sown && self.opening == 0;
        if let Some(origin) = mv.pit(rules.pits_per_row)
            && first_move_unsown
        {
            end_captured = self.one_from_every_other(rules, origin);
        } else if let Some(origin) = mv.pit(rules.pits_per_row) {
            match rules.laps {
                Laps::Single { captures } => {
                    let row_held = self.opponent_row_held(rules);
                    let single = self.pits[origin] == 1;
                    if single && rules.single_counter_takes_facing {
                        let facing = rules.pit_count() - 1 - origin;
                        self.captured[mover.index()] += self.pits[facing];
                        self.pits[facing] = 0;
                    }
                    if rules.singles_take_facing {
                        self.singles_take_facing(rules);
                    }
                    let last = self.sow_one_lap(rules, origin, captures);
                    match last {
                        LastCounter::Pit(_) if single && !rules.single_counter_captures => {}
                        LastCounter::Pit(landing) => {
                            let sown = self.captured[0] + self.captured[1];
                            self.capture_one_lap(rules, landing, origin, captures, row_held);
                            end_captured = self.captured[0] + self.captured[1] > sown;
                            effect.extra_turn = end_captured
                                && row_held
                                && rules.grand_slam == GrandSlam::CapturesAndMovesAgain
                                && self.row_total(mover.opponent()) == 0;
                        }
                        LastCounter::Store => effect.extra_turn = rules.extra_turn_in_store,
                    }
                }
                Laps::Relay { captures } => {
                    let row_held = self.opponent_row_held(rules);
                    // Laps are replayed to find an endless move's cycle: `Fn`, so a cell.
                    let lap_captured = std::cell::Cell::new(false);
                    let lap = |pos: &mut Position, lap_origin| {
                        if rules.capture_extra_move == CaptureExtraMove::No {
                            return pos.relay_lap(rules, lap_origin, captures, row_held);
                        }
                        let mut told = |step| {
                            if let PassingStep::Captured { sown, after, .. } = step
                                && after.captured != sown.captured
                            {
                                lap_captured.set(true);
                            }
                        };
                        pos.relay_lap_told(rules, lap_origin, captures, row_held, &mut told)
                    };
                    let end = match rules.lap_limit {
                        0 => self.relay(origin, &mut effect, lap),
                        limit => self.relay_up_to(origin, limit, &mut effect, lap),
                    };
                    effect.extra_turn = end == LapEnd::ExtraTurn;
                    end_captured = lap_captured.get();
                }
                Laps::RelayWithOpposite { captures } => {
                    let end = self.relay(origin, &mut effect, |pos, lap_origin| {
                        let landing = pos.sow_lap(rules, lap_origin);
                        match pos.pits[landing] {
                            1 => LapEnd::Done,
                            c if captures.contains(c) => {
                                pos.capture_chain(rules, landing, lap_origin, captures, true);
                                LapEnd::Done
                            }
                            _ => LapEnd::Relay(landing),
                        }
                    });
                    effect.extra_turn = end == LapEnd::ExtraTurn;
                }
                Laps::RelayFours => {
                    let end = self.relay(origin, &mut effect, |pos, lap_origin| {
                        pos.sow_lap_with_fours(rules, lap_origin)
                    });
                    effect.extra_turn = end == LapEnd::ExtraTurn;
                }
            }
        }
        if (rules.sweep_at_most > 0 || rules.capture_extra_move != CaptureExtraMove::No)
            && mv.pit(rules.pits_per_row).is_some()
            && parts != MoveParts::EndCaptures
        {
            self.end_of_move_rules(rules, end_captured, &mut effect);
        }
        if !effect.extra_turn {
            self.side_to_move = self.side_to_move.opponent();
        }
        if rules.tracks_extra_move() {
            self.on_extra_move = effect.extra_turn;
        }
        if parts == MoveParts::Whole
            && rules.claims_leftover_at_end()
            && !effect.endless
            && mv.pit(rules.pits_per_row).is_some()
        {
            self.claim_leftover_at_end::<S>(mover);
        }
        // (Last: the pit crossed into must still hold its counter after every rule of the move.)
        if game_rules.no_crossing_back {
            self.crossed_into = match crossing {
                Some(pit) if self.pits[pit] == 1 => pit as u8 + 1,
                _ => 0,
            };
        }
        let opening = game_rules.opening_moves();
        if opening > 0 && self.opening < opening {
            self.opening = if mv.is_pass() && game_rules.no_capture_moves > 0 {
                // A pass counts, but only a sown move ends the moves that capture nothing.
                (self.opening + 1).min(game_rules.no_capture_moves - 1)
            } else {
                self.opening + 1
            };
        }
        effect.captured = self.captured[0] + self.captured[1] - before;
        if rules.stores_change_hands() {
            // A store given to the opponent is a capture of theirs: progress, as any capture.
            effect.captured = (self.captured[0].saturating_sub(captured_before[0]))
                + (self.captured[1].saturating_sub(captured_before[1]));
        }
        effect
    }

    /// Where the move to make is one of the opening's moves that capture nothing
    /// ([`Rules::no_capture_moves`]), `rules` (the move's) without captures, to sow it under.
    #[inline(always)]
    pub(crate) fn opening_without_captures(
        &self,
        game_rules: &Rules,
        rules: &Rules,
    ) -> Option<Rules> {
        (game_rules.no_capture_moves > 0 && self.within_opening(game_rules.no_capture_moves))
            .then(|| rules.without_captures())
    }

    /// The first move of a game (round) that is not sown ([`FirstMove::OneFromEveryOther`]),
    /// from `origin`: its pit keeps its counters; from the pit after it on, every other pit
    /// gives one counter (if it holds one) to the pit after it, the last of them to the pit
    /// facing `origin`, where the move then captures as a last counter there would. Returns
    /// whether that captured counters.
    #[inline(never)]
    fn one_from_every_other(&mut self, rules: &Rules, origin: usize) -> bool {
        let facing = rules.pit_count() - 1 - origin;
        self.shift_one_from_every_other(rules, origin, &mut |_, _| {});
        let captures = match rules.laps {
            Laps::Single { captures } | Laps::Relay { captures } => captures,
            Laps::RelayWithOpposite { .. } | Laps::RelayFours => CaptureCounts::NONE,
        };
        let row_held = self.opponent_row_held(rules);
        let sown = self.captured;
        self.capture_one_lap(rules, facing, origin, captures, row_held);
        self.captured != sown
    }

    /// The counters [`Position::one_from_every_other`] moves, each move told to `tell` (the
    /// pit that gives, the pit that receives).
    pub(crate) fn shift_one_from_every_other(
        &mut self,
        rules: &Rules,
        origin: usize,
        tell: &mut impl FnMut(usize, usize),
    ) {
        let facing = rules.pit_count() - 1 - origin;
        let mut giver = step(rules, origin);
        while giver != origin {
            let after = step(rules, giver);
            let taker = if after == origin { facing } else { after };
            if self.pits[giver] > 0 {
                self.pits[giver] -= 1;
                self.pits[taker] += 1;
                tell(giver, taker);
            }
            if after == origin {
                break;
            }
            giver = step(rules, after);
        }
    }

    /// Where the first move chooses the players' directions: `mv` with its player's direction,
    /// and the directions set by the first move.
    #[inline(never)]
    fn choose_directions(&mut self, mv: Move) -> Move {
        let mv = self.directed(self.rules(), mv);
        if self.south_direction.is_none()
            && let Some(direction) = mv.chosen_direction()
        {
            self.south_direction = Some(match self.side_to_move {
                Side::South => direction,
                Side::North => direction.opposite(),
            });
        }
        mv
    }

    /// Where the game has ended, `mover` (who made the last move) takes the counters left, as
    /// the last mover's leftover gives them ([`Rules::claims_leftover_at_end`]); an end whose
    /// counters go elsewhere (a majority, the feeding rule's taker) is left to its rule.
    #[inline(never)]
    fn claim_leftover_at_end<S: Spec>(&mut self, mover: Side) {
        let by_leftover = match self.own_ending_for::<S>() {
            Some(Ending::Starvation) => S::rules(self).unfed == Unfed::AsLeftover,
            Some(Ending::RowEmpty | Ending::NoLegalMove | Ending::TooFew | Ending::Immobile) => {
                true
            }
            _ => false,
        };
        if by_leftover {
            let len = S::rules(self).pit_count();
            for pit in 0..len {
                self.captured[mover.index()] += self.pits[pit];
                self.pits[pit] = 0;
            }
        }
    }

    /// The rules that follow a move's captures: the sweep of the last counters
    /// ([`Rules::sweep_at_most`]) and a capture's extra move ([`Rules::capture_extra_move`]).
    /// Neither follows a move that gave another move by its last counter in the store, nor an
    /// endless one.
    fn end_of_move_rules(&mut self, rules: &Rules, end_captured: bool, effect: &mut MoveEffect) {
        if effect.extra_turn || effect.endless {
            return;
        }
        let mover = self.side_to_move;
        if rules.sweep_at_most > 0 {
            let len = rules.pit_count();
            let counted: u32 = (0..len)
                .filter(|&pit| {
                    rules.capture_empty_opposite
                        || match rules.capture_side {
                            CaptureSide::Any => true,
                            CaptureSide::Own => self.owner(pit) == mover,
                            CaptureSide::Opponent => self.owner(pit) != mover,
                        }
                })
                .map(|pit| self.pits[pit] as u32)
                .sum();
            if (1..=rules.sweep_at_most as u32).contains(&counted) {
                let taker = if rules.sweep_to_round_starter {
                    self.round_starter
                } else {
                    mover
                };
                for pit in 0..len {
                    self.captured[taker.index()] += self.pits[pit];
                    self.pits[pit] = 0;
                }
            }
        }
        effect.extra_turn = end_captured
            && match rules.capture_extra_move {
                CaptureExtraMove::No => false,
                CaptureExtraMove::Always => true,
                CaptureExtraMove::Once => !self.on_extra_move,
            };
    }

    /// A cheap look at sowing from `pit` without making the move: `None` if the move surely
    /// captures nothing (nor gives another move), else a rough size of what it may capture (for
    /// move ordering).
    ///
    /// Exact for one-lap games (a capture needs the landing pit to qualify); for relay games it
    /// looks at the first lap only and answers `Some` whenever it cannot rule a capture out.
    /// `None` for an empty pit (no move), which lets callers skip testing for one.
    #[inline]
    pub fn capture_hint(&self, pit: usize) -> Option<u8> {
        crate::with_spec!(self.variant, S => self.capture_hint_for::<S>(pit))
    }

    /// [`Position::capture_hint`] for a position of the game `S`.
    #[inline(always)]
    pub fn capture_hint_for<S: Spec>(&self, pit: usize) -> Option<u8> {
        let rules = S::rules(self);
        let len = rules.pit_count();
        let hand = self.pits[pit] as usize;
        if rules.first_move != FirstMove::Sown && self.opening == 0 {
            // A first move that is not sown: made on a copy.
            if hand == 0 {
                return None;
            }
            let mut after = *self;
            after.side_to_move = self.owner(pit);
            let effect = after.play_for::<S>(Move::from_pit(pit, rules.pits_per_row));
            return (effect.captured > 0 || effect.extra_turn).then_some(effect.captured);
        }
        let first_move_chooses = rules.tracks_directions() && self.south_direction.is_none();
        if rules.chosen_direction_pits != 0 && rules.direction_chosen_at(pit) || first_move_chooses
        {
            // Two moves from the pit: the more either way captures, made on copies.
            if hand == 0 {
                return None;
            }
            let plain = Move::from_pit(pit, rules.pits_per_row);
            let mut best = None;
            for direction in [Direction::CounterClockwise, Direction::Clockwise] {
                let mut after = *self;
                // (Where either player moves any pit, the side to move sows it.)
                if rules.move_choice != MoveChoice::EitherRow {
                    after.side_to_move = self.owner(pit);
                }
                let effect = after.play_for::<S>(plain.toward(direction));
                if effect.captured > 0 || effect.extra_turn {
                    best = best.max(Some(effect.captured));
                }
            }
            return best;
        }
        if rules.sweep_at_most > 0
            || rules.claims_leftover_at_end()
            || rules.single_counter_takes_facing && hand == 1
            || rules.singles_take_facing
            || rules.tracks_directions()
            || rules.stores_change_hands()
            || rules.has_children()
            || rules.capture_every_count
        {
            // A move that captures nothing may still leave the few counters a sweep takes, end
            // the game and take what is left for its mover, a single counter take the pit
            // facing it, or an empty landing give the mover's store away; or its direction is
            // its player's: the move is made on a copy.
            if hand == 0 {
                return None;
            }
            let mut after = *self;
            // (Where either player moves any pit, the side to move sows it.)
            if rules.move_choice != MoveChoice::EitherRow {
                after.side_to_move = self.owner(pit);
            }
            let effect = after.play_for::<S>(Move::from_pit(pit, rules.pits_per_row));
            return (effect.captured > 0 || effect.extra_turn).then_some(effect.captured);
        }
        match rules.laps {
            Laps::Single { .. }
                if !rules.plain_ring()
                    || rules.origin_keeps_one
                    || rules.capture_empty_opposite
                    || rules.capture_past_empty
                    || rules.direction_rule != DirectionRule::Fixed
                    || rules.passing_captures != PassingCaptures::Off
                    || rules.store_one_per_lap =>
            {
                self.one_lap_hint(rules, pit)
            }
            Laps::Single { captures } => {
                let landing_count = self.landing_count_for::<S>(pit);
                captures.contains(landing_count).then_some(landing_count)
            }
            Laps::RelayWithOpposite { .. } | Laps::Relay { .. } => Some(0),
            Laps::RelayFours => {
                if hand == 0 {
                    return None;
                }
                if hand >= len || rules.direction != Direction::CounterClockwise {
                    return Some(0);
                }
                // The first lap passes over two contiguous runs of pits at most.
                let end = pit + hand;
                let threes = |run: &[u8]| run.iter().filter(|&&c| c == 3).count() as u8;
                let (passed, landing) = if end < len {
                    (threes(&self.pits[pit + 1..end]), end)
                } else {
                    (
                        threes(&self.pits[pit + 1..len]) + threes(&self.pits[..end - len]),
                        end - len,
                    )
                };
                let fours = 4 * passed;
                match self.pits[landing] + 1 {
                    1 if fours == 0 => None,
                    4 => Some(fours + 4),
                    _ => Some(fours),
                }
            }
        }
    }

    /// The capture hint of a one-lap game with its store in the ring, laps that skip their
    /// origin, or captures from the pit opposite an empty one: the move is made on a copy.
    fn one_lap_hint(&self, rules: &Rules, pit: usize) -> Option<u8> {
        if self.pits[pit] == 0 {
            return None;
        }
        let mover = self.owner(pit);
        let mut after = *self;
        after.side_to_move = mover;
        let chosen = Rules {
            direction: rules.direction_of(pit, self.pits[pit]),
            ..*rules
        };
        let rules = &chosen;
        let row_held = after.opponent_row_held(rules);
        let captures = match rules.laps {
            Laps::Single { captures } | Laps::Relay { captures } => captures,
            _ => CaptureCounts::NONE,
        };
        // Counters captured by either player: captures in passing may go to the pit's owner.
        let taken = |after: &Position| {
            after.captured[0] + after.captured[1] - self.captured[0] - self.captured[1]
        };
        let last = after.sow_one_lap(rules, pit, captures);
        let sown = taken(&after);
        match last {
            LastCounter::Store if rules.extra_turn_in_store => Some(sown + 1),
            LastCounter::Store => (sown > 0).then_some(sown),
            LastCounter::Pit(landing) => {
                let Laps::Single { captures } = rules.laps else {
                    return (sown > 0).then_some(sown);
                };
                after.capture_one_lap(rules, landing, pit, captures, row_held);
                let gained = taken(&after);
                (gained > 0).then_some(gained)
            }
        }
    }

    /// One-lap games on the plain ring: how many counters the last pit of a sowing from `pit`
    /// holds afterwards, which is what decides a capture. Not meaningful for relay games, nor
    /// where the store is in the ring.
    #[inline]
    pub fn landing_count(&self, pit: usize) -> u8 {
        crate::with_spec!(self.variant, S => self.landing_count_for::<S>(pit))
    }

    /// [`Position::landing_count`] for a position of the game `S`.
    #[inline(always)]
    pub fn landing_count_for<S: Spec>(&self, pit: usize) -> u8 {
        // Looked up, without branches (whether a pit is empty or a hand goes round is
        // unpredictable). A hand of whole laps lands in its own (emptied) pit: masked off.
        let landing = S::landings(self).get(pit, self.pits[pit]);
        (self.pits[landing.pit as usize] & landing.keep) + landing.added
    }

    /// Lifts `origin` and sows one lap on the plain ring (the origin is not skipped); returns
    /// the landing pit.
    #[inline(always)]
    pub(crate) fn sow_lap(&mut self, rules: &Rules, origin: usize) -> usize {
        let len = rules.pit_count();
        let hand = self.pits[origin] as u32;
        self.pits[origin] = 0;
        let (rounds, rest) = (hand / len as u32, (hand % len as u32) as usize);
        // All pits at once, without a branch per counter: each gets the whole laps, and the
        // `rest` pits after the origin one more.
        // In bytes (every index is below 2 × 24), so that the loop is a few vector operations.
        let (lap, from, extra, whole) = (len as u8, origin as u8, rest as u8, rounds as u8);
        let pits: &mut [u8; MAX_PITS] = &mut self.pits;
        for (pit, count) in (0u8..).zip(pits[..len].iter_mut()) {
            // Steps from the origin to `pit`, minus one (the origin itself: a lap minus one).
            let behind = match rules.direction {
                Direction::CounterClockwise => pit + lap - from - 1,
                Direction::Clockwise => from + lap - pit - 1,
            };
            let behind = if behind >= lap { behind - lap } else { behind };
            *count += whole + (behind < extra) as u8;
        }
        forward(rules, origin, rest)
    }

    /// Lifts `origin` and sows one lap on a ring that holds the mover's store (after the last
    /// pit of the mover's row) and/or leaves out the origin; returns where the last counter fell.
    fn sow_lap_with_store_or_skip(&mut self, rules: &Rules, origin: usize) -> LastCounter {
        let len = rules.pit_count();
        let mover = self.side_to_move;
        let hand = self.pits[origin] as usize;
        self.pits[origin] = 0;
        // The ring's places, in sowing order from the pit after the origin: pits, and the store
        // as `len` right after the mover's last pit on the way out of the mover's row.
        let store_after = store_after(rules, mover);
        // The pits of the ring: the whole board's, or where each sows round its own row, the row's.
        let pits = if rules.own_row_ring {
            rules.pits_per_row
        } else {
            len
        };
        let ring = pits - rules.skip_origin as usize + rules.sow_own_store as usize;
        let (rounds, rest) = (hand / ring, hand % ring);
        let mut last = LastCounter::Pit(origin);
        let mut place = origin;
        let mut index = 0;
        // Walk the ring once, from the place after the origin to the origin itself.
        loop {
            let at_store = rules.sow_own_store && place == store_after && index < ring;
            if at_store {
                index += 1;
                let added = rounds + (index <= rest) as usize;
                self.captured[mover.index()] += added as u8;
                if index == rest || (rest == 0 && index == ring && rounds > 0) {
                    last = LastCounter::Store;
                }
                if index == ring {
                    break;
                }
            }
            place = step(rules, place);
            if place == origin && rules.skip_origin {
                break;
            }
            index += 1;
            let added = rounds + (index <= rest) as usize;
            self.pits[place] += added as u8;
            if index == rest || (rest == 0 && index == ring && rounds > 0) {
                last = LastCounter::Pit(place);
            }
            if index == ring {
                break;
            }
        }
        last
    }

    /// The captures of a one-lap game after its last counter fell in `landing`, sown from
    /// `origin`: the facing pit of an own empty pit, or the landing pit and a chain behind it.
    ///
    /// `row_held`: the opponent's row held counters before the move (what a grand slam needs;
    /// see [`Position::opponent_row_held`]).
    #[inline(always)]
    fn capture_one_lap(
        &mut self,
        rules: &Rules,
        landing: usize,
        origin: usize,
        captures: CaptureCounts,
        row_held: bool,
    ) {
        let mover = self.side_to_move;
        if let Some(children) = rules.children
            && self.child_end(rules, children, landing)
        {
            return;
        }
        if rules.empty_landing_gives_store
            && self.pits[landing] == 1
            && self.captured[mover.index()] > 0
            && match rules.capture_side {
                CaptureSide::Any => true,
                CaptureSide::Own => self.owner(landing) == mover,
                CaptureSide::Opponent => self.owner(landing) != mover,
            }
        {
            let given = std::mem::take(&mut self.captured[mover.index()]);
            self.captured[mover.opponent().index()] += given;
            return;
        }
        if rules.capture_past_empty {
            return self.capture_past_empty(rules, landing);
        }
        if rules.capture_every_count {
            return self.capture_every_count(rules, landing, captures);
        }
        if rules.capture_empty_opposite {
            let facing = rules.pit_count() - 1 - landing;
            let landing_ok = self.owner(landing) == mover || rules.empty_either_row;
            // No capture takes a child: not the facing pit, nor the last counter in one.
            let children = if rules.has_children() {
                self.children_mask()
            } else {
                0
            };
            if landing_ok
                && self.pits[landing] == 1
                && self.pits[facing] > 0
                && children >> facing & 1 == 0
            {
                let sown = *self;
                let own = if rules.capture_takes_own && children >> landing & 1 == 0 {
                    1
                } else {
                    0
                };
                let taken = own + self.pits[facing];
                self.pits[landing] -= own;
                self.pits[facing] = 0;
                self.captured[mover.index()] += taken;
                if rules.grand_slam != GrandSlam::Captures {
                    self.cross_grand_slam(rules, &sown, row_held);
                }
            } else if rules.takes_own_alone
                && self.owner(landing) == mover
                && self.pits[landing] == 1
                && children >> landing & 1 == 0
            {
                self.pits[landing] = 0;
                self.captured[mover.index()] += 1;
            }
            return;
        }
        if captures.is_empty() {
            return;
        }
        match (rules.capture_side, rules.grand_slam) {
            // The common case, kept exactly as it was: either row, and no grand-slam rule.
            (CaptureSide::Any, GrandSlam::Captures)
                if rules.capture_chain && rules.chain_most == 0 =>
            {
                self.capture_chain(rules, landing, origin, captures, false)
            }
            _ => self.capture_on_side(rules, landing, origin, captures, row_held),
        }
    }

    /// The end of a move in a game with children, before its captures: a last counter into a
    /// child of the opponent takes from it ([`Children::landing_takes`]); one that makes a child
    /// makes it. Returns whether either happened (the move's captures are then not tried).
    #[inline(never)]
    fn child_end(&mut self, rules: &Rules, children: Children, landing: usize) -> bool {
        let mover = self.side_to_move;
        if children.landing_takes > 0 && self.child_owner(landing) == Some(mover.opponent()) {
            let taken = self.pits[landing].min(children.landing_takes);
            self.pits[landing] -= taken;
            self.captured[mover.index()] += taken;
            return true;
        }
        match self.child_made_at(rules, children, landing) {
            Some(pits) => {
                self.children[mover.index()] |= pits;
                true
            }
            None => false,
        }
    }

    /// The pits (a bit each) that become the mover's children where its last counter fell in
    /// `landing`, if it makes any: what stops a relay move, and what [`Position::child_end`]
    /// makes.
    #[inline]
    pub(crate) fn child_made_at(
        &self,
        rules: &Rules,
        children: Children,
        landing: usize,
    ) -> Option<u32> {
        let mover = self.side_to_move;
        let taken = self.children_mask();
        let on_side = match children.side {
            CaptureSide::Any => true,
            CaptureSide::Own => self.owner(landing) == mover,
            CaptureSide::Opponent => self.owner(landing) != mover,
        };
        let n = rules.pits_per_row;
        let kept_apart = match children.apart {
            ChildApart::Anywhere => false,
            ChildApart::SameLetter => taken >> ((landing + n) % (2 * n)) & 1 != 0,
            ChildApart::Facing => taken >> (2 * n - 1 - landing) & 1 != 0,
        };
        if taken >> landing & 1 != 0
            || !on_side
            || children.barred_places >> (landing % n) & 1 != 0
            || kept_apart
        {
            return None;
        }
        let count = self.pits[landing];
        match children.made_by {
            ChildMaking::Count => (count == children.count).then_some(1 << landing),
            ChildMaking::OneEach => (count == children.count && self.children[mover.index()] == 0)
                .then_some(1 << landing),
            ChildMaking::FacingPair => {
                let facing = rules.pit_count() - 1 - landing;
                (count == 1 && taken >> facing & 1 == 0 && self.pits[facing] == children.count)
                    .then_some(1 << landing | 1 << facing)
            }
        }
    }

    /// The capture past an empty pit ([`Rules::capture_past_empty`]) at the end of a move whose
    /// last counter fell in `landing`.
    fn capture_past_empty(&mut self, rules: &Rules, landing: usize) {
        if matches!(rules.laps, Laps::Single { .. }) && self.pits[landing] < 2 {
            return;
        }
        let mover = self.side_to_move;
        let side_ok = |pos: &Position, pit: usize| match rules.capture_side {
            CaptureSide::Any => true,
            CaptureSide::Own => pos.owner(pit) == mover,
            CaptureSide::Opponent => pos.owner(pit) != mover,
        };
        let mut first = None;
        let mut at = landing;
        loop {
            let gap = self.next_open(rules, at);
            let beyond = self.next_open(rules, gap);
            if self.pits[gap] != 0 || self.pits[beyond] == 0 || !side_ok(self, beyond) {
                break;
            }
            self.captured[mover.index()] += self.pits[beyond];
            self.pits[beyond] = 0;
            first.get_or_insert(beyond);
            if !rules.capture_chain {
                break;
            }
            at = beyond;
        }
        if let Some(first) = first
            && rules.past_empty_takes_facing
        {
            let facing = rules.pit_count() - 1 - first;
            if side_ok(self, facing) {
                self.captured[mover.index()] += self.pits[facing];
                self.pits[facing] = 0;
            }
        }
    }

    /// The pit after `pit` in the sowing direction, passing by the pits blocked for the round.
    #[inline(always)]
    pub(crate) fn next_open(&self, rules: &Rules, pit: usize) -> usize {
        let mut next = step(rules, pit);
        while rules.blocks_pits() && self.is_blocked(next) {
            next = step(rules, next);
        }
        next
    }

    /// One lap of a [`Laps::Relay`] move from `lap_origin`: sown, then either relayed from its
    /// landing pit or, where that pit holds one counter or can be captured, ended with the
    /// one-lap captures.
    #[inline(always)]
    pub(crate) fn relay_lap(
        &mut self,
        rules: &Rules,
        lap_origin: usize,
        captures: CaptureCounts,
        row_held: bool,
    ) -> LapEnd {
        self.relay_lap_told(rules, lap_origin, captures, row_held, &mut |_| {})
    }

    /// [`Position::relay_lap`], telling each counter's place and each capture to `tell`.
    #[inline(always)]
    pub(crate) fn relay_lap_told(
        &mut self,
        rules: &Rules,
        lap_origin: usize,
        captures: CaptureCounts,
        row_held: bool,
        tell: &mut impl FnMut(PassingStep),
    ) -> LapEnd {
        match self.sow_one_lap_told(rules, lap_origin, captures, tell) {
            LastCounter::Store if rules.extra_turn_in_store => LapEnd::ExtraTurn,
            LastCounter::Store => LapEnd::Done,
            LastCounter::Pit(landing) => {
                if rules.closes_pits_at > 0 && self.is_blocked(landing) {
                    // The last counter left the game at a closed pit: the move ends.
                    return LapEnd::Done;
                }
                let count = self.pits[landing];
                if rules.relay_needs_opponent_counters
                    && self.row_sum(rules, self.side_to_move.opponent()) == 0
                {
                    // The opponent has no counter: the move ends here.
                    self.capture_one_lap_told(rules, landing, lap_origin, captures, row_held, tell);
                    return LapEnd::Done;
                }
                // A lap that ends in a child, or makes one, ends the move.
                if let Some(children) = rules.children
                    && (self.children_mask() >> landing & 1 != 0
                        || self.child_made_at(rules, children, landing).is_some())
                {
                    self.capture_one_lap_told(rules, landing, lap_origin, captures, row_held, tell);
                    return LapEnd::Done;
                }
                if rules.lap_captures {
                    // Captures at the end of every lap, which decide whether the move goes on
                    // (from the landing pit, unless a capture emptied it: a chain round a small
                    // board, or the last counter taken with the pit facing it).
                    if rules.capture_past_empty && count > 1 {
                        self.capture_one_lap_told(
                            rules, landing, lap_origin, captures, row_held, tell,
                        );
                        return if self.pits[landing] > 0 {
                            LapEnd::Relay(landing)
                        } else {
                            LapEnd::Done
                        };
                    }
                    if rules.capture_empty_opposite && count == 1 && rules.lap_captures_sown_on {
                        return self.lap_capture_sown_on(rules, landing, tell);
                    }
                    if rules.capture_empty_opposite && count == 1 {
                        let before = self.captured;
                        self.capture_one_lap_told(
                            rules, landing, lap_origin, captures, row_held, tell,
                        );
                        return if self.captured != before && self.pits[landing] > 0 {
                            LapEnd::Relay(landing)
                        } else {
                            LapEnd::Done
                        };
                    }
                    // A capture by count: taken (with its chain), and the move goes on from the
                    // pit after the landing pit, unless that is empty.
                    if !rules.capture_past_empty
                        && !rules.capture_empty_opposite
                        && captures.contains(count)
                        && match rules.capture_side {
                            CaptureSide::Any => true,
                            CaptureSide::Own => self.owner(landing) == self.side_to_move,
                            CaptureSide::Opponent => self.owner(landing) != self.side_to_move,
                        }
                    {
                        self.capture_one_lap_told(
                            rules, landing, lap_origin, captures, row_held, tell,
                        );
                        let next = self.next_open(rules, landing);
                        return if self.pits[next] > 0 {
                            LapEnd::Relay(next)
                        } else {
                            LapEnd::Done
                        };
                    }
                }
                let on = |side: CaptureSide| match side {
                    CaptureSide::Any => true,
                    CaptureSide::Own => self.owner(landing) == self.side_to_move,
                    CaptureSide::Opponent => self.owner(landing) != self.side_to_move,
                };
                let captures_here =
                    on(rules.capture_side) && captures.contains(count) && !rules.capture_past_empty;
                let relay_ok = (rules.relay_counts.is_empty()
                    || rules.relay_counts.contains(count))
                    && on(rules.relay_side);
                let next = match rules.relay_from {
                    RelayFrom::Landing => (count > 1).then_some(landing),
                    RelayFrom::NextPit => {
                        let next = self.next_open(rules, landing);
                        (self.pits[next] > 0).then_some(next)
                    }
                };
                match next {
                    Some(next) if relay_ok && !captures_here => {
                        if rules.closes_pits_at > 0
                            && count == rules.closes_pits_at
                            && self.closes(rules, landing)
                        {
                            self.blocked |= 1 << landing;
                            tell(PassingStep::Closes(landing));
                        }
                        LapEnd::Relay(next)
                    }
                    _ => {
                        self.capture_one_lap_told(
                            rules, landing, lap_origin, captures, row_held, tell,
                        );
                        LapEnd::Done
                    }
                }
            }
        }
    }

    /// The capture at the end of a lap whose taken counters are sown on
    /// ([`Rules::lap_captures_sown_on`]): a last counter into an empty pit (one's own, or either
    /// with `empty_either_row`) facing a pit with counters moves them into its own pit, and the
    /// lap goes on from there; else the move ends (with no capture: it would be this one).
    fn lap_capture_sown_on(
        &mut self,
        rules: &Rules,
        landing: usize,
        tell: &mut impl FnMut(PassingStep),
    ) -> LapEnd {
        let facing = rules.pit_count() - 1 - landing;
        let landing_ok = self.owner(landing) == self.side_to_move || rules.empty_either_row;
        let children = if rules.has_children() {
            self.children_mask()
        } else {
            0
        };
        if !landing_ok || self.pits[facing] == 0 || children >> facing & 1 != 0 {
            return LapEnd::Done;
        }
        for _ in 0..self.pits[facing] {
            tell(PassingStep::Shift {
                from: facing,
                to: landing,
            });
        }
        self.pits[landing] += self.pits[facing];
        self.pits[facing] = 0;
        LapEnd::Relay(landing)
    }

    /// [`Rules::capture_every_count`]: where the last counter fell in the opponent's row or in
    /// the mover's right-hand pit, every pit of the opponent's row holding a capture count is
    /// taken.
    fn capture_every_count(&mut self, rules: &Rules, landing: usize, captures: CaptureCounts) {
        let mover = self.side_to_move;
        let n = rules.pits_per_row;
        let right_hand = mover.index() * n + n - 1;
        if self.owner(landing) == mover && landing != right_hand {
            return;
        }
        let first = mover.opponent().index() * n;
        for pit in first..first + n {
            if captures.contains(self.pits[pit]) {
                self.captured[mover.index()] += self.pits[pit];
                self.pits[pit] = 0;
            }
        }
    }

    /// Whether a lap ending in `landing` with [`Rules::closes_pits_at`] counters there closes
    /// it: an opponent's pit, not a right-hand pit the game spares.
    #[inline(always)]
    fn closes(&self, rules: &Rules, landing: usize) -> bool {
        let n = rules.pits_per_row;
        self.owner(landing) != self.side_to_move
            && !(rules.closing_spares_right_pits && (landing == n - 1 || landing == 2 * n - 1))
    }

    /// The counters in `side`'s row (by the rows, whoever owns a pit).
    fn row_sum(&self, rules: &Rules, side: Side) -> u32 {
        let n = rules.pits_per_row;
        let first = side.index() * n;
        self.pits[first..first + n].iter().map(|&c| c as u32).sum()
    }

    /// Sows one lap from `origin` as the game sows it (the plain ring at once; a store or a
    /// skipped origin, or captures made in passing, a counter at a time); returns where the last
    /// counter fell.
    #[inline(always)]
    pub(crate) fn sow_one_lap(
        &mut self,
        rules: &Rules,
        origin: usize,
        captures: CaptureCounts,
    ) -> LastCounter {
        self.sow_one_lap_told(rules, origin, captures, &mut |_| {})
    }

    /// [`Position::sow_one_lap`], telling each counter's place and each capture to `tell`.
    #[inline(always)]
    pub(crate) fn sow_one_lap_told(
        &mut self,
        rules: &Rules,
        origin: usize,
        captures: CaptureCounts,
        tell: &mut impl FnMut(PassingStep),
    ) -> LastCounter {
        if rules.store_one_per_lap {
            let mover = self.side_to_move;
            self.pits[origin] -= 1;
            self.captured[mover.index()] += 1;
            tell(PassingStep::Store(mover));
        }
        // A pit that keeps one counter is sown as if it held one fewer, and given it back
        // before any capture (no rule in passing goes with it).
        // (Relay laps, which would keep one at every lap's origin, do not go with the rule.)
        let kept = rules.origin_keeps_one && self.pits[origin] >= 2;
        if kept {
            self.pits[origin] -= 1;
            tell(PassingStep::Pit(origin));
        }
        let last = if rules.passing_captures != PassingCaptures::Off
            || (rules.blocks_pits() && self.blocked != 0)
        {
            self.sow_lap_passing(rules, origin, captures, tell)
        } else {
            let before = *self;
            let last = if rules.plain_ring() {
                LastCounter::Pit(self.sow_lap(rules, origin))
            } else {
                self.sow_lap_with_store_or_skip(rules, origin)
            };
            tell(PassingStep::Lap { before, origin });
            last
        };
        self.pits[origin] += kept as u8;
        last
    }

    /// The one-lap captures at `landing` (see [`Position::capture_one_lap`]), each pit taken
    /// told to `tell`.
    #[inline(always)]
    pub(crate) fn capture_one_lap_told(
        &mut self,
        rules: &Rules,
        landing: usize,
        origin: usize,
        captures: CaptureCounts,
        row_held: bool,
        tell: &mut impl FnMut(PassingStep),
    ) {
        let sown = *self;
        self.capture_one_lap(rules, landing, origin, captures, row_held);
        tell(PassingStep::Captured {
            sown,
            after: *self,
            landing,
        });
    }

    /// One lap a counter at a time, with the captures made in passing (and told to `tell`: each
    /// counter's place, then any capture it makes), passing by the pits blocked for the round.
    pub(crate) fn sow_lap_passing(
        &mut self,
        rules: &Rules,
        origin: usize,
        captures: CaptureCounts,
        tell: &mut impl FnMut(PassingStep),
    ) -> LastCounter {
        let mover = self.side_to_move;
        let store = store_after(rules, mover);
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let mut last = LastCounter::Pit(origin);
        while hand > 0 {
            // The place after `last`: the store after its pit, then the pits (the origin left
            // out where the game skips it).
            last = match last {
                LastCounter::Pit(pit) if rules.sow_own_store && pit == store => LastCounter::Store,
                LastCounter::Pit(pit) => LastCounter::Pit(step(rules, pit)),
                LastCounter::Store => LastCounter::Pit(step(rules, store)),
            };
            if last == LastCounter::Pit(origin) && rules.skip_origin {
                continue;
            }
            // A pit blocked for the round is passed by, and so is one's own closed pit; a
            // counter for the opponent's closed pit leaves the game (a last one ends the lap
            // there).
            if let LastCounter::Pit(pit) = last
                && rules.blocks_pits()
                && self.is_blocked(pit)
            {
                if rules.closes_pits_at > 0 && self.owner(pit) != mover {
                    hand -= 1;
                    self.total -= 1;
                    tell(PassingStep::LeavesGame(pit));
                }
                continue;
            }
            hand -= 1;
            let pit = match last {
                LastCounter::Store => {
                    self.captured[mover.index()] += 1;
                    tell(PassingStep::Store(mover));
                    continue;
                }
                LastCounter::Pit(pit) => pit,
            };
            self.pits[pit] += 1;
            tell(PassingStep::Pit(pit));
            let owner = self.owner(pit);
            let (row_ok, to) = match rules.passing_captures {
                PassingCaptures::Off => (false, mover),
                PassingCaptures::ToOwner => (hand > 0, owner),
                PassingCaptures::ToOwnerLastToo => (true, owner),
                PassingCaptures::ToMover => (hand > 0, mover),
                PassingCaptures::ToMoverInOwnRow => (hand > 0 && owner == mover, mover),
                PassingCaptures::ToMoverInOpponentRow => (hand > 0 && owner != mover, mover),
            };
            let side_ok = match rules.capture_side {
                CaptureSide::Any => true,
                CaptureSide::Own => owner == mover,
                CaptureSide::Opponent => owner != mover,
            };
            if row_ok && side_ok && captures.contains(self.pits[pit]) {
                let count = self.pits[pit];
                self.captured[to.index()] += count;
                self.pits[pit] = 0;
                tell(PassingStep::Capture { pit, count, to });
            }
        }
        last
    }

    /// Where the move `mv`, sown under `rules`, takes a single counter over an end of the board
    /// into the other row's end pit beside it ([`Rules::no_crossing_back`]): that pit.
    fn single_crossing(&self, rules: &Rules, mv: Move) -> Option<usize> {
        let n = rules.pits_per_row;
        let origin = mv.pit(n)?;
        if self.pits[origin] != 1 {
            return None;
        }
        let partner = match origin {
            0 => 2 * n - 1,
            o if o == n - 1 => n,
            o if o == n => n - 1,
            o if o == 2 * n - 1 => 0,
            _ => return None,
        };
        let into_store = rules.sow_own_store && origin == store_after(rules, self.side_to_move);
        (!into_store && step(rules, origin) == partner && !self.is_blocked(partner))
            .then_some(partner)
    }

    /// The place a move from `pit` sows first: the next pit in the move's direction, or `None`
    /// for the mover's store.
    pub(crate) fn next_pit(&self, pit: usize) -> Option<usize> {
        let game_rules = self.rules();
        let rules = Rules {
            direction: game_rules.direction_of(pit, self.pits[pit]),
            ..*game_rules
        };
        if rules.sow_own_store && pit == store_after(&rules, self.side_to_move) {
            None
        } else {
            Some(step(&rules, pit))
        }
    }

    /// Whether the hand of `pit`, sown one lap, ends in the opponent's row or a store, or in one
    /// of the mover's pits that was empty; a hand of more counters than a row has pits counts as
    /// doing so.
    pub(crate) fn ends_away_or_empty(&self, pit: usize) -> bool {
        let game_rules = self.rules();
        if self.pits[pit] as usize > game_rules.pits_per_row {
            return true;
        }
        let rules = Rules {
            direction: game_rules.direction_of(pit, self.pits[pit]),
            ..*game_rules
        };
        let mut after = *self;
        let captures = match rules.laps {
            Laps::Single { captures } | Laps::Relay { captures } => captures,
            _ => CaptureCounts::NONE,
        };
        match after.sow_one_lap(&rules, pit, captures) {
            LastCounter::Store => true,
            LastCounter::Pit(landing) => {
                self.owner(landing) != self.side_to_move || self.pits[landing] == 0
            }
        }
    }

    /// Before a move is sown (see [`Rules::singles_take_facing`]): every pit of the mover's row
    /// holding a single counter takes the pit facing it into the mover's store.
    fn singles_take_facing(&mut self, rules: &Rules) {
        let n = rules.pits_per_row;
        let mover = self.side_to_move;
        let first = mover.index() * n;
        for pit in first..first + n {
            if self.pits[pit] == 1 {
                let facing = rules.pit_count() - 1 - pit;
                self.captured[mover.index()] += self.pits[facing];
                self.pits[facing] = 0;
            }
        }
    }

    /// Whether the opponent of the side to move has counters in their row, where a grand-slam
    /// rule asks (always `false` elsewhere, at no cost in the built-in games).
    #[inline(always)]
    pub(crate) fn opponent_row_held(&self, rules: &Rules) -> bool {
        rules.grand_slam.needs_row_before() && {
            let n = rules.pits_per_row;
            let first = self.side_to_move.opponent().index() * n;
            self.pits[first..first + n].iter().any(|&c| c != 0)
        }
    }

    /// A capture limited to one side of the board (or a single pit, or under a grand-slam rule).
    fn capture_on_side(
        &mut self,
        rules: &Rules,
        landing: usize,
        origin: usize,
        captures: CaptureCounts,
        row_held: bool,
    ) {
        let mover = self.side_to_move;
        let allowed = |pos: &Position, pit: usize| match rules.capture_side {
            CaptureSide::Any => true,
            CaptureSide::Own => pos.owner(pit) == mover,
            CaptureSide::Opponent => pos.owner(pit) != mover,
        };
        let before = *self;
        let mut taken = 0u8;
        let mut chained = 0u8;
        let mut pit = landing;
        // No capture takes a child (a chain stops at one).
        let children = if rules.has_children() {
            self.children_mask()
        } else {
            0
        };
        while (allowed(self, pit) || rules.chain_either_row && pit != landing)
            && captures.contains(self.pits[pit])
            && children >> pit & 1 == 0
        {
            taken += self.pits[pit];
            self.pits[pit] = 0;
            chained += 1;
            if !rules.capture_chain || chained == rules.chain_most {
                break;
            }
            pit = step_back(rules, pit);
            if (rules.chain_stops_at_origin && pit == origin) || pit == landing {
                break;
            }
        }
        let slam = match rules.grand_slam {
            // (A grand slam that moves again captures as any move does: the move gives another.)
            GrandSlam::Captures | GrandSlam::CapturesAndMovesAgain => false,
            GrandSlam::CapturesNothing => before.row_total(mover.opponent()) > 0,
            _ => row_held,
        };
        if taken > 0 && slam && self.row_total(mover.opponent()) == 0 {
            if rules.grand_slam == GrandSlam::MoversRowToOpponent {
                self.captured[mover.index()] += taken;
                self.give_movers_row(rules);
                return;
            }
            // A grand slam: the move is played, and captures nothing, or all but one pit.
            *self = before;
            if matches!(
                rules.grand_slam,
                GrandSlam::LeavesLeftmost | GrandSlam::LeavesRightmost
            ) {
                self.grand_slam_leaving_one(rules);
            }
            return;
        }
        self.captured[mover.index()] += taken;
    }

    /// The grand-slam rule after a capture of the pit facing an empty landing (`sown`: the
    /// position before it): a capture that took the opponent's last counters captures nothing,
    /// or gives the mover's own row to the opponent, as the rule says.
    fn cross_grand_slam(&mut self, rules: &Rules, sown: &Position, row_held: bool) {
        let opponent = self.side_to_move.opponent();
        let held = match rules.grand_slam {
            GrandSlam::CapturesNothing => sown.row_total(opponent) > 0,
            _ => row_held,
        };
        if !held || self.row_total(opponent) != 0 {
            return;
        }
        match rules.grand_slam {
            GrandSlam::CapturesNothing | GrandSlam::CapturesNothingIfHeld => *self = *sown,
            GrandSlam::MoversRowToOpponent => self.give_movers_row(rules),
            // (Refused with this capture: a single pit taken leaves none to keep.)
            GrandSlam::Captures
            | GrandSlam::LeavesLeftmost
            | GrandSlam::LeavesRightmost
            | GrandSlam::CapturesAndMovesAgain => {}
        }
    }

    /// The counters of the mover's row go to the opponent (a grand slam's price).
    fn give_movers_row(&mut self, rules: &Rules) {
        let mover = self.side_to_move;
        let n = rules.pits_per_row;
        let first = mover.index() * n;
        let mut given = 0;
        for pit in first..first + n {
            given += std::mem::take(&mut self.pits[pit]);
        }
        self.captured[mover.opponent().index()] += given;
    }

    /// A grand slam that leaves one pit: every counter of the opponent's row is taken but those
    /// of the first pit holding any from the mover's left or right; a lone such pit is taken.
    fn grand_slam_leaving_one(&mut self, rules: &Rules) {
        let mover = self.side_to_move;
        let n = rules.pits_per_row;
        let first = mover.opponent().index() * n;
        let row = first..first + n;
        // The opponent's row runs from the mover's right (its lowest index) to the mover's left.
        let mut held = row.clone().filter(|&pit| self.pits[pit] > 0);
        let keeper = match rules.grand_slam {
            GrandSlam::LeavesRightmost => held.next(),
            _ => held.next_back(),
        };
        let keeper = if self.pits[row.clone()].iter().filter(|&&c| c > 0).count() > 1 {
            keeper
        } else {
            None
        };
        for pit in row {
            if Some(pit) != keeper {
                self.captured[mover.index()] += self.pits[pit];
                self.pits[pit] = 0;
            }
        }
    }

    /// Judges the landing pit and then the pits behind it on the live board, taking each that
    /// holds one of `captures` (and, with `opposite`, the pit across from it, whatever it holds).
    /// The chain never reaches the lap's origin nor comes round to the landing pit again.
    #[inline(always)]
    pub(crate) fn capture_chain(
        &mut self,
        rules: &Rules,
        landing: usize,
        origin: usize,
        captures: CaptureCounts,
        opposite: bool,
    ) {
        let last = rules.pit_count() - 1;
        let mut taken = 0u8;
        let mut pit = landing;
        // No capture takes a child (a chain stops at one).
        let children = if rules.has_children() {
            self.children_mask()
        } else {
            0
        };
        while captures.contains(self.pits[pit]) && children >> pit & 1 == 0 {
            taken += self.pits[pit];
            self.pits[pit] = 0;
            if opposite {
                taken += self.pits[last - pit];
                self.pits[last - pit] = 0;
            }
            pit = step_back(rules, pit);
            if (rules.chain_stops_at_origin && pit == origin) || pit == landing {
                break;
            }
        }
        self.captured[self.side_to_move.index()] += taken;
    }

    /// One Anywoli lap: a seed that makes four before the last goes to the pit's owner; the last
    /// seed ends the move on an empty pit, captures on four (with an extra move), or relays.
    #[inline(always)]
    pub(crate) fn sow_lap_with_fours(&mut self, rules: &Rules, origin: usize) -> LapEnd {
        let n = rules.pits_per_row;
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let mut pit = origin;
        while hand > 1 {
            pit = step(rules, pit);
            self.pits[pit] += 1;
            hand -= 1;
            if self.pits[pit] == 4 {
                let owner = if pit < n { Side::South } else { Side::North };
                self.pits[pit] = 0;
                self.captured[owner.index()] += 4;
                self.set_last_four(owner);
            }
        }
        pit = step(rules, pit);
        self.pits[pit] += 1;
        match self.pits[pit] {
            1 => LapEnd::Done,
            4 => {
                let mover = self.side_to_move;
                self.pits[pit] = 0;
                self.captured[mover.index()] += 4;
                self.set_last_four(mover);
                self.note_capture(mover);
                LapEnd::ExtraTurn
            }
            _ => LapEnd::Relay(pit),
        }
    }

    /// Runs relay laps from `origin` until the move ends. If a lap is about to start from the same
    /// pit on the same board as an earlier lap, the move is endless: the position is left as at
    /// the first of those lap starts (earlier captures stand) and `effect.endless` is set.
    ///
    /// Cycles are found with Brent's algorithm, so that no lap history is stored and a move
    /// allocates nothing; only an endless move pays for replaying its laps.
    #[inline(always)]
    fn relay(
        &mut self,
        origin: usize,
        effect: &mut MoveEffect,
        lap: impl Fn(&mut Position, usize) -> LapEnd,
    ) -> LapEnd {
        let start = *self;
        let mut lap_origin = origin;
        // Most moves end within a few laps: cycles are looked for only after those. (Brent's
        // search can start from any lap of the move; the replay below starts from the move's.)
        for _ in 0..LAPS_BEFORE_CYCLE_SEARCH {
            match lap(self, lap_origin) {
                LapEnd::Relay(next) => lap_origin = next,
                end => return end,
            }
        }
        // (A lap start is its pit, the board and the pits closed so far.)
        let mut tortoise = (lap_origin, self.pits, self.blocked);
        let (mut power, mut cycle) = (1u32, 1u32);
        loop {
            match lap(self, lap_origin) {
                LapEnd::Relay(next) => lap_origin = next,
                end => return end,
            }
            if (lap_origin, self.pits, self.blocked) == tortoise {
                break;
            }
            if power == cycle {
                tortoise = (lap_origin, self.pits, self.blocked);
                power *= 2;
                cycle = 0;
            }
            cycle += 1;
        }
        // The lap starts repeat with period `cycle`; replay from the move's start to find the
        // first lap start that recurs.
        let (mut first, mut first_origin) = (start, origin);
        let (mut ahead, mut ahead_origin) = (start, origin);
        for _ in 0..cycle {
            ahead_origin = next_lap_origin(&mut ahead, ahead_origin, &lap);
        }
        while first_origin != ahead_origin
            || first.pits != ahead.pits
            || first.blocked != ahead.blocked
        {
            first_origin = next_lap_origin(&mut first, first_origin, &lap);
            ahead_origin = next_lap_origin(&mut ahead, ahead_origin, &lap);
        }
        *self = first;
        self.keep_last_landing_open(first_origin);
        effect.endless = true;
        LapEnd::Done
    }

    /// An endless move stops with its last landing pit keeping its counters (the lap that
    /// would lift them is not sown): a pit the last lap closed is then not closed, since a
    /// closed pit holds nothing.
    fn keep_last_landing_open(&mut self, landing: usize) {
        self.blocked &= !(1 << landing);
    }
}

impl Position {
    /// A relay move of at most `limit` laps: one that would sow more is endless (the game is
    /// over, `effect.endless` is set), and its last landing pit keeps its counters.
    fn relay_up_to(
        &mut self,
        origin: usize,
        limit: u16,
        effect: &mut MoveEffect,
        lap: impl Fn(&mut Position, usize) -> LapEnd,
    ) -> LapEnd {
        let mut lap_origin = origin;
        for _ in 0..limit {
            match lap(self, lap_origin) {
                LapEnd::Relay(next) => lap_origin = next,
                end => return end,
            }
        }
        self.keep_last_landing_open(lap_origin);
        effect.endless = true;
        LapEnd::Done
    }
}

/// One lap of a move already known to cycle, so it always relays.
fn next_lap_origin(
    pos: &mut Position,
    origin: usize,
    lap: &impl Fn(&mut Position, usize) -> LapEnd,
) -> usize {
    match lap(pos, origin) {
        LapEnd::Relay(next) => next,
        // A cycling move never ends; keep the replay total anyway.
        LapEnd::Done | LapEnd::ExtraTurn => origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    /// A synthetic relay whose lap starts run through `tail` distinct states and then a cycle of
    /// `cycle` states; each lap in the tail captures one counter. The move must stop at the first
    /// state of the cycle, keeping exactly the tail's captures.
    fn run_synthetic(tail: u8, cycle: u8) -> (Position, MoveEffect) {
        let mut pos = Position::start(Variant::MangalaII);
        pos.pits[0] = 0;
        let lap = move |p: &mut Position, origin: usize| {
            let state = p.pits[0];
            if state < tail {
                p.captured[0] += 1;
            }
            p.pits[0] = if state + 1 < tail + cycle {
                state + 1
            } else {
                tail
            };
            LapEnd::Relay(origin)
        };
        let mut effect = MoveEffect::default();
        let end = pos.relay(3, &mut effect, lap);
        assert_eq!(end, LapEnd::Done);
        (pos, effect)
    }

    #[test]
    fn endless_move_stops_at_the_first_repeated_lap_start() {
        for tail in 0..20 {
            for cycle in 1..40 {
                let (pos, effect) = run_synthetic(tail, cycle);
                assert!(effect.endless, "tail {tail} cycle {cycle}");
                assert_eq!(pos.pits[0], tail, "tail {tail} cycle {cycle}");
                assert_eq!(pos.captured[0], tail, "captures before the cycle stand");
            }
        }
    }
}
