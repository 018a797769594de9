//! A move told counter by counter, for people (a GUI animates it): which pit is lifted, where
//! each counter falls, what is captured and by whom. The move itself is made by the same code
//! as always, lap by lap; this only tells it, and a test checks that the telling, replayed,
//! gives exactly the position the move gives.

use std::fmt;

use super::legality::IllegalMove;
use super::moves::Move;
use super::position::Position;
use super::side::Side;
use super::sowing::{LapEnd, LastCounter, PassingStep, step, step_back, store_after};
use super::variant::{CaptureExtraMove, FirstMove, GrandSlam, Laps, PassingCaptures, Rules};

/// Laps told before a relay move is called endless (the move itself finds its cycle exactly).
const MAX_TOLD_LAPS: usize = 400;

/// One step of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SowStep {
    /// The counters of this pit are lifted (the move's first step, and each relay lap's).
    Lift { pit: usize, count: u8 },
    /// One counter falls into this pit.
    Drop { pit: usize },
    /// One counter falls into this player's store.
    DropInStore { side: Side },
    /// The counters of this pit go to this player.
    Capture { pit: usize, count: u8, to: Side },
    /// The counters of this player's store go to the other player (a last counter into an
    /// empty pit that gives the mover's store away).
    StoreGiven { from: Side, count: u8 },
    /// This pit becomes this player's child.
    ChildMade { pit: usize, owner: Side },
    /// One counter goes from the pit `from` to the pit `to` (a first move that is not sown, or
    /// a lap's capture sown on from its last pit).
    Shift { from: usize, to: usize },
    /// One counter dropped at this closed pit of the opponent's leaves the game (a game whose
    /// pits close).
    LeavesGame { pit: usize },
    /// This pit closes (its counters are lifted next and sown on).
    Closes { pit: usize },
    /// The mover moves again.
    ExtraTurn,
    /// The move would never end: it stops, and the game is over (the telling stops too).
    Endless,
}

/// A move told step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTrace {
    pub pits_per_row: usize,
    pub steps: Vec<SowStep>,
}

impl Position {
    /// `mv` told step by step (a pass has no steps); the position does not change.
    pub fn trace_move(&self, mv: Move) -> Result<MoveTrace, IllegalMove> {
        self.check_move(mv)?;
        let game_rules = self.rules();
        let mut steps = Vec::new();
        if let Some(origin) = mv.pit(game_rules.pits_per_row) {
            // The move's own direction, where the pit and its hand (or the first move) choose it.
            let directed = self.directed(game_rules, mv);
            let rules =
                &super::sowing::rules_of_move(game_rules, directed, origin, self.pits[origin]);
            // The opening's moves that capture nothing are sown under rules without captures.
            let uncapturing = self.opening_without_captures(game_rules, rules);
            let rules = uncapturing.as_ref().unwrap_or(rules);
            if game_rules.first_move != FirstMove::Sown && self.opening_moves_played() == 0 {
                // A first move that is not sown: single counters move on, then the captures.
                let mut pos = *self;
                pos.shift_one_from_every_other(rules, origin, &mut |from, to| {
                    steps.push(SowStep::Shift { from, to })
                });
                let facing = rules.pit_count() - 1 - origin;
                let mut after = *self;
                after.sow_and_end_captures_unchecked(mv);
                tell_captures(&pos, &after, facing, self.side_to_move, &mut steps);
                // (A sweep, a capture's extra move: told from the move itself.)
                self.tell_end_of_move_rules(mv, &mut steps);
                return Ok(MoveTrace {
                    pits_per_row: game_rules.pits_per_row,
                    steps,
                });
            }
            match rules.laps {
                Laps::Single { captures }
                    if rules.passing_captures != PassingCaptures::Off
                        || rules.store_one_per_lap
                        || self.blocked != 0 =>
                {
                    let row_held = self.opponent_row_held(rules);
                    let mut pos = *self;
                    steps.push(SowStep::Lift {
                        pit: origin,
                        count: pos.pits[origin],
                    });
                    let mut tell = |step| tell_step(rules, step, &mut steps);
                    match pos.sow_one_lap_told(rules, origin, captures, &mut tell) {
                        LastCounter::Pit(landing) => pos.capture_one_lap_told(
                            rules, landing, origin, captures, row_held, &mut tell,
                        ),
                        LastCounter::Store if rules.extra_turn_in_store => {
                            steps.push(SowStep::ExtraTurn)
                        }
                        LastCounter::Store => {}
                    }
                }
                Laps::Single { .. } => self.trace_one_lap(rules, origin, directed, &mut steps),
                Laps::RelayWithOpposite { captures } => {
                    self.tell_relay(origin, &mut steps, |pos, lap_origin, steps| {
                        let lifted = *pos;
                        let landing = pos.sow_lap(rules, lap_origin);
                        tell_lap(&lifted, lap_origin, steps);
                        match pos.pits[landing] {
                            1 => LapEnd::Done,
                            c if captures.contains(c) => {
                                let sown = *pos;
                                pos.capture_chain(rules, landing, lap_origin, captures, true);
                                tell_captures(&sown, pos, landing, pos.side_to_move, steps);
                                LapEnd::Done
                            }
                            _ => LapEnd::Relay(landing),
                        }
                    })
                }
                Laps::Relay { captures } => {
                    let row_held = self.opponent_row_held(rules);
                    self.tell_relay(origin, &mut steps, |pos, lap_origin, steps| {
                        steps.push(SowStep::Lift {
                            pit: lap_origin,
                            count: pos.pits[lap_origin],
                        });
                        pos.relay_lap_told(rules, lap_origin, captures, row_held, &mut |step| {
                            tell_step(rules, step, steps)
                        })
                    })
                }
                Laps::RelayFours => {
                    self.tell_relay(origin, &mut steps, |pos, lap_origin, steps| {
                        let lifted = *pos;
                        let end = pos.sow_lap_with_fours(rules, lap_origin);
                        tell_lap_with_fours(&lifted, lap_origin, steps);
                        end
                    })
                }
            }
            // (A single counter's take of the pit facing it, the takes of single counters before
            // the sowing, and the last mover's leftover, are told there too: as captures at the
            // end.)
            if rules.sweep_at_most > 0
                || rules.capture_extra_move != CaptureExtraMove::No
                || rules.single_counter_takes_facing
                || rules.singles_take_facing
                || rules.claims_leftover_at_end()
            {
                self.tell_end_of_move_rules(mv, &mut steps);
            }
        }
        Ok(MoveTrace {
            pits_per_row: game_rules.pits_per_row,
            steps,
        })
    }

    /// What the rules that follow a move's captures did (a sweep of the last counters, a
    /// capture's extra move), told from the move itself: the pits it emptied beyond what the
    /// steps so far took, and another move if it gave one.
    fn tell_end_of_move_rules(&self, mv: Move, steps: &mut Vec<SowStep>) {
        let told = MoveTrace {
            pits_per_row: self.rules().pits_per_row,
            steps: steps.clone(),
        }
        .replay(self);
        let mut after = *self;
        let effect = after.play_unchecked(mv);
        // The captures come before another move, which is always the last step.
        if steps.last() == Some(&SowStep::ExtraTurn) {
            steps.pop();
        }
        // (A sweep to the round's starter is the only one of these rules that gives counters
        // to another than the mover: the game file allows it with none of the others.)
        let taker = if self.rules().sweep_to_round_starter {
            self.round_starter
        } else {
            self.side_to_move
        };
        for pit in 0..self.rules().pit_count() {
            if told.pits[pit] > after.pits[pit] {
                steps.push(SowStep::Capture {
                    pit,
                    count: told.pits[pit] - after.pits[pit],
                    to: taker,
                });
            }
        }
        // A store given away after those captures (the mover's, with what they just took).
        let mover = self.side_to_move.index();
        let taken = MoveTrace {
            pits_per_row: self.rules().pits_per_row,
            steps: steps.clone(),
        }
        .replay(self);
        if taken.captured[mover] > after.captured[mover] {
            steps.push(SowStep::StoreGiven {
                from: self.side_to_move,
                count: taken.captured[mover] - after.captured[mover],
            });
        }
        if effect.extra_turn {
            steps.push(SowStep::ExtraTurn);
        }
    }

    /// A relay move from `origin`: `lap` makes and tells one lap, until one ends the move (or
    /// too many laps call it endless: the game's lap limit, where it has one, as in play).
    fn tell_relay(
        &self,
        origin: usize,
        steps: &mut Vec<SowStep>,
        mut lap: impl FnMut(&mut Position, usize, &mut Vec<SowStep>) -> LapEnd,
    ) {
        let mut pos = *self;
        let mut lap_origin = origin;
        let laps = match self.rules().lap_limit {
            0 => MAX_TOLD_LAPS,
            limit => limit as usize,
        };
        for _ in 0..laps {
            match lap(&mut pos, lap_origin, steps) {
                LapEnd::Relay(next) => lap_origin = next,
                LapEnd::ExtraTurn => return steps.push(SowStep::ExtraTurn),
                LapEnd::Done => return,
            }
        }
        // The last landing keeps its counters: a pit its lap closed stays open.
        if let Some(SowStep::Closes { .. }) = steps.last() {
            steps.pop();
        }
        steps.push(SowStep::Endless);
    }

    /// A one-lap move: the lap, then what the move captured (told from the position it gives).
    fn trace_one_lap(&self, rules: &Rules, origin: usize, mv: Move, steps: &mut Vec<SowStep>) {
        let mover = self.side_to_move;
        let hand = self.pits[origin];
        steps.push(SowStep::Lift {
            pit: origin,
            count: hand,
        });
        let mut sown = *self;
        sown.pits[origin] = 0;
        let mut place = Place::Pit(origin);
        let mut last = place;
        let mut left = hand;
        if rules.origin_keeps_one && hand >= 2 {
            // Its first counter back into the pit.
            sown.pits[origin] = 1;
            steps.push(SowStep::Drop { pit: origin });
            left -= 1;
        }
        for _ in 0..left {
            place = next_place(self, rules, origin, place);
            match place {
                Place::Pit(pit) => {
                    sown.pits[pit] += 1;
                    steps.push(SowStep::Drop { pit });
                }
                Place::Store => {
                    sown.captured[mover.index()] += 1;
                    steps.push(SowStep::DropInStore { side: mover });
                }
            }
            last = place;
        }
        // The end captures alone: what follows them (a sweep, the last mover's claim) is told
        // by the rules after the captures.
        let mut after = *self;
        let effect = after.sow_and_end_captures_unchecked(mv);
        if let Place::Pit(landing) = last {
            tell_captures(&sown, &after, landing, mover, steps);
        }
        if effect.extra_turn {
            steps.push(SowStep::ExtraTurn);
        }
    }
}

/// A place of the sowing ring.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Pit(usize),
    /// The mover's store (in the ring of games that sow into it).
    Store,
}

/// The place after `place` in a one-lap sowing from `origin` (the mover's store after their
/// last pit where the game sows into it; the origin left out where the game skips it).
fn next_place(pos: &Position, rules: &Rules, origin: usize, place: Place) -> Place {
    let from = match place {
        Place::Store => store_after(rules, pos.side_to_move),
        Place::Pit(pit) if rules.sow_own_store && pit == store_after(rules, pos.side_to_move) => {
            return Place::Store;
        }
        Place::Pit(pit) => pit,
    };
    let next = step(rules, from);
    if next == origin && rules.skip_origin {
        next_place(pos, rules, origin, Place::Pit(next))
    } else {
        Place::Pit(next)
    }
}

/// Tells one step of a lap sown by the rules' own code (a counter, a capture in passing, a lap
/// sown at once, the captures that end the move).
fn tell_step(rules: &Rules, step: PassingStep, steps: &mut Vec<SowStep>) {
    match step {
        PassingStep::Pit(pit) => steps.push(SowStep::Drop { pit }),
        PassingStep::Store(side) => steps.push(SowStep::DropInStore { side }),
        PassingStep::Capture { pit, count, to } => steps.push(SowStep::Capture { pit, count, to }),
        PassingStep::Shift { from, to } => steps.push(SowStep::Shift { from, to }),
        PassingStep::LeavesGame(pit) => steps.push(SowStep::LeavesGame { pit }),
        PassingStep::Closes(pit) => steps.push(SowStep::Closes { pit }),
        PassingStep::Lap { before, origin } => {
            let mover = before.side_to_move;
            let mut place = Place::Pit(origin);
            for _ in 0..before.pits[origin] {
                place = next_place(&before, rules, origin, place);
                steps.push(match place {
                    Place::Pit(pit) => SowStep::Drop { pit },
                    Place::Store => SowStep::DropInStore { side: mover },
                });
            }
        }
        PassingStep::Captured {
            sown,
            after,
            landing,
        } => {
            // Told apart from the lap's steps: a pit taken in passing may be taken again here.
            let mut taken = Vec::new();
            tell_captures(&sown, &after, landing, sown.side_to_move, &mut taken);
            steps.extend(taken);
        }
    }
}

/// A relay lap on the plain ring from `origin` of `lifted`.
fn tell_lap(lifted: &Position, origin: usize, steps: &mut Vec<SowStep>) {
    let rules = lifted.rules();
    let hand = lifted.pits[origin];
    steps.push(SowStep::Lift {
        pit: origin,
        count: hand,
    });
    let mut pit = origin;
    for _ in 0..hand {
        pit = step(rules, pit);
        steps.push(SowStep::Drop { pit });
    }
}

/// An Anywoli lap from `origin` of `lifted`: a pit that a counter before the last makes four goes
/// to its owner at once; a last counter that makes four goes to the mover.
fn tell_lap_with_fours(lifted: &Position, origin: usize, steps: &mut Vec<SowStep>) {
    let rules = lifted.rules();
    let n = rules.pits_per_row;
    let mut pits = lifted.pits;
    let hand = pits[origin];
    pits[origin] = 0;
    steps.push(SowStep::Lift {
        pit: origin,
        count: hand,
    });
    let mut pit = origin;
    for left in (0..hand).rev() {
        pit = step(rules, pit);
        pits[pit] += 1;
        steps.push(SowStep::Drop { pit });
        if pits[pit] == 4 {
            let to = if left == 0 {
                lifted.side_to_move
            } else if pit < n {
                Side::South
            } else {
                Side::North
            };
            pits[pit] = 0;
            steps.push(SowStep::Capture { pit, count: 4, to });
        }
    }
}

/// The pits that held counters in `sown` and fewer in `after` were captured by `mover`: told
/// from the landing pit backwards (the order of a capture chain), each with the pit across that
/// went with it.
fn tell_captures(
    sown: &Position,
    after: &Position,
    landing: usize,
    mover: Side,
    steps: &mut Vec<SowStep>,
) {
    let rules = sown.rules();
    let len = rules.pit_count();
    let told_before = steps.len();
    let mut pit = landing;
    for _ in 0..len {
        for judged in [pit, len - 1 - pit] {
            let taken = sown.pits[judged] - after.pits[judged].min(sown.pits[judged]);
            let told = steps
                .iter()
                .any(|s| matches!(s, SowStep::Capture { pit: p, .. } if *p == judged));
            if taken > 0 && !told {
                steps.push(SowStep::Capture {
                    pit: judged,
                    count: taken,
                    to: mover,
                });
            }
        }
        pit = step_back(rules, pit);
    }
    // A grand slam whose price is the mover's row: that row's counters went to the opponent (but
    // the last counter, where the capture took it with the pit facing it).
    let opponent = mover.opponent();
    if rules.grand_slam == GrandSlam::MoversRowToOpponent
        && after.captured[opponent.index()] > sown.captured[opponent.index()]
    {
        for step in &mut steps[told_before..] {
            if let SowStep::Capture { pit, to, .. } = step
                && sown.owner(*pit) == mover
                && !(*pit == landing && rules.capture_takes_own)
            {
                *to = opponent;
            }
        }
    }
    // A store given away (pits then keep their counters).
    let given = sown.captured[mover.index()].saturating_sub(after.captured[mover.index()]);
    if given > 0 {
        steps.push(SowStep::StoreGiven {
            from: mover,
            count: given,
        });
    }
    // Children made (the landing pit first, then the pit facing it).
    let made = after.children_of(mover) & !sown.children_of(mover);
    for pit in [landing, len - 1 - landing] {
        if made >> pit & 1 != 0 {
            steps.push(SowStep::ChildMade { pit, owner: mover });
        }
    }
}

impl MoveTrace {
    /// The position `before` with the steps replayed (what a GUI shows at the end of the
    /// telling): the pits and the captured totals; the side to move is left as it was. Meant
    /// for the trace of a move of `before`; steps that do not fit it (a pit beyond the board,
    /// more taken than a pit holds) are skipped or stop at zero, never a panic.
    pub fn replay(&self, before: &Position) -> Position {
        let mut pos = *before;
        let pits = before.rules().pit_count();
        for step in &self.steps {
            match *step {
                SowStep::Lift { pit, .. } if pit < pits => pos.pits[pit] = 0,
                SowStep::Drop { pit } if pit < pits => {
                    pos.pits[pit] = pos.pits[pit].saturating_add(1)
                }
                SowStep::DropInStore { side } => {
                    let store = &mut pos.captured[side.index()];
                    *store = store.saturating_add(1);
                }
                SowStep::Capture { pit, count, to } if pit < pits => {
                    let taken = count.min(pos.pits[pit]);
                    pos.pits[pit] -= taken;
                    let store = &mut pos.captured[to.index()];
                    *store = store.saturating_add(taken);
                }
                SowStep::StoreGiven { from, count } => {
                    let given = count.min(pos.captured[from.index()]);
                    pos.captured[from.index()] -= given;
                    let store = &mut pos.captured[from.opponent().index()];
                    *store = store.saturating_add(given);
                }
                SowStep::Shift { from, to } if from < pits && to < pits && pos.pits[from] > 0 => {
                    pos.pits[from] -= 1;
                    pos.pits[to] = pos.pits[to].saturating_add(1);
                }
                SowStep::ChildMade { pit, owner }
                    if pit < pits && before.rules().has_children() =>
                {
                    pos.children[owner.index()] |= 1 << pit;
                }
                SowStep::LeavesGame { .. } => pos.total = pos.total.saturating_sub(1),
                SowStep::Closes { pit } if pit < pits && before.rules().blocks_pits() => {
                    pos.blocked |= 1 << pit;
                }
                _ => {}
            }
        }
        pos
    }
}

/// The protocol's form (protocol.md, `query sowing`): `A:5` lifts five from `A`, `B` drops one
/// in `B`, `*S` one in South's store, `xB:4>S` takes four from `B` to South, `x*S:7>N` gives
/// South's store of seven to North, `+B>S` makes `B` South's child, `B>C` moves one counter
/// from `B` to `C` (a first move that is not sown), `-B` a counter that leaves the game at
/// the closed pit `B`, `#B` closes `B`, `again` is another move,
/// `endless` an endless move.
impl fmt::Display for MoveTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.pits_per_row;
        let name = |pit: usize| -> char {
            if pit < n {
                (b'A' + pit as u8) as char
            } else {
                (b'a' + (pit - n) as u8) as char
            }
        };
        let side = |s: Side| if s == Side::South { 'S' } else { 'N' };
        let mut words = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            words.push(match *step {
                SowStep::Lift { pit, count } => format!("{}:{count}", name(pit)),
                SowStep::Drop { pit } => name(pit).to_string(),
                SowStep::DropInStore { side: s } => format!("*{}", side(s)),
                SowStep::Capture { pit, count, to } => {
                    format!("x{}:{count}>{}", name(pit), side(to))
                }
                SowStep::StoreGiven { from, count } => {
                    format!("x*{}:{count}>{}", side(from), side(from.opponent()))
                }
                SowStep::ChildMade { pit, owner } => format!("+{}>{}", name(pit), side(owner)),
                SowStep::Shift { from, to } => format!("{}>{}", name(from), name(to)),
                SowStep::LeavesGame { pit } => format!("-{}", name(pit)),
                SowStep::Closes { pit } => format!("#{}", name(pit)),
                SowStep::ExtraTurn => "again".to_string(),
                SowStep::Endless => "endless".to_string(),
            });
        }
        if words.is_empty() {
            f.write_str("pass")
        } else {
            f.write_str(&words.join(" "))
        }
    }
}
