//! A game: a base position plus the moves played from it, with the history rules (repetition,
//! no progress) and the endless-move rule that a position alone cannot judge.

use std::fmt;

use super::legality::{IllegalMove, IllegalReason};
use super::moves::{Move, MoveList};
use super::position::{Ending, GameResult, Position};
use super::rounds::RoundEnd;
use super::side::Side;
use super::variant::LastFourRule;

/// Moves in a row without a capture that end the game, in the games that have that rule (see
/// [`super::Rules::no_progress_limit`]; RULES.md's four games).
pub const NO_PROGRESS_LIMIT: u16 = 100;
/// The occurrence of one position that ends the game.
pub const REPETITION_LIMIT: usize = 3;

/// One move of the history and what it led to.
#[derive(Clone, Copy, Debug)]
struct Ply {
    mv: Move,
    after: Position,
    /// Moves in a row, ending with this one, that captured nothing.
    quiet_run: u16,
    ending: Option<Ending>,
    /// The round this move ended, in a match of rounds (`after` is then the next round's start).
    round_end: Option<RoundEnd>,
}

/// A game from a base position (the one given to `position`), with its history.
#[derive(Clone, Debug)]
pub struct Game {
    last_four_rule: LastFourRule,
    base: Position,
    base_ending: Option<Ending>,
    plies: Vec<Ply>,
}

/// A move list could not be played; the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveListError {
    /// Index of the offending move in the list.
    pub index: usize,
    pub error: IllegalMove,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} of the list: {}", self.index + 1, self.error)
    }
}

impl std::error::Error for MoveListError {}

/// More moves asked to be taken back than were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoError {
    pub requested: usize,
    pub played: usize,
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot take back {} moves: only {} played since the position was set",
            self.requested, self.played
        )
    }
}

impl std::error::Error for UndoError {}

impl Game {
    /// A game starting at `base`, with no history before it. In a match of rounds, a `base`
    /// whose round is over (and not the match) is dealt into the next round at once, as if the
    /// side not to move had made the round's last move.
    pub fn new(base: Position, last_four_rule: LastFourRule) -> Game {
        let mut base_ending = base.own_ending();
        let last_mover = base.side_to_move().opponent();
        let base = match deal_next_round(&base, base_ending, last_mover, last_four_rule) {
            Some((next, _)) => {
                base_ending = next.own_ending();
                next
            }
            None => base,
        };
        Game {
            last_four_rule,
            base,
            base_ending,
            plies: Vec::new(),
        }
    }

    /// The round the last move ended, in a match of rounds (the current position is then the
    /// next round's start); `None` after any other move, and before the first.
    pub fn round_end(&self) -> Option<RoundEnd> {
        self.plies.last().and_then(|ply| ply.round_end)
    }

    /// Rounds ended since the base (0 in a game that is not played in rounds).
    pub fn rounds_ended(&self) -> usize {
        self.plies
            .iter()
            .filter(|ply| ply.round_end.is_some())
            .count()
    }

    /// The rounds ended by the moves from the `from`-th on (0: the first since the base): for
    /// each, how it ended and the next round's start.
    pub fn round_ends_from(&self, from: usize) -> impl Iterator<Item = (RoundEnd, &Position)> {
        self.plies
            .iter()
            .skip(from)
            .filter_map(|ply| ply.round_end.map(|end| (end, &ply.after)))
    }

    pub fn base(&self) -> &Position {
        &self.base
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.plies.last().map_or(&self.base, |ply| &ply.after)
    }

    pub fn last_four_rule(&self) -> LastFourRule {
        self.last_four_rule
    }

    /// Changes how Anywoli's final four are awarded; affects only final totals.
    pub fn set_last_four_rule(&mut self, rule: LastFourRule) {
        self.last_four_rule = rule;
    }

    /// The moves played since the base, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.plies.iter().map(|ply| ply.mv)
    }

    /// Positions since the base, the base first and the current one last.
    pub fn positions(&self) -> impl Iterator<Item = &Position> + '_ {
        std::iter::once(&self.base).chain(self.plies.iter().map(|ply| &ply.after))
    }

    /// The positions since the last capture (the only ones a later position can repeat), the
    /// current one last; from the base if nothing has been captured since.
    pub fn since_capture(&self) -> impl Iterator<Item = &Position> + '_ {
        self.positions()
            .skip(self.plies.len() - self.quiet_run() as usize)
    }

    /// Why the game is over, or `None` while it goes on.
    pub fn ending(&self) -> Option<Ending> {
        self.plies.last().map_or(self.base_ending, |ply| ply.ending)
    }

    pub fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// Moves in a row, up to now, that captured nothing.
    pub fn quiet_run(&self) -> u16 {
        self.plies.last().map_or(0, |ply| ply.quiet_run)
    }

    /// The legal moves now: none once the game is over, by any rule.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays one move, or refuses it and changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove {
                mv,
                reason: IllegalReason::GameOver,
            });
        }
        let mut after = *self.position();
        let mover = after.side_to_move();
        after.check_move(mv)?;
        let effect = after.play_unchecked(mv);
        let mut quiet_run = if effect.captured > 0 {
            0
        } else {
            self.quiet_run() + 1
        };
        let mut ending = after
            .own_ending()
            .or(effect.endless.then_some(Ending::EndlessMove))
            .or_else(|| {
                (self.occurrences(&after, quiet_run) >= REPETITION_LIMIT)
                    .then_some(Ending::Repetition)
            })
            .or(after
                .rules()
                .no_progress_limit
                .is_some_and(|limit| quiet_run >= limit)
                .then_some(Ending::NoProgress));
        // A round that ends (and not the match) deals the next one: the match goes on from
        // there. (Should that round end at once too, the match ends with it.)
        let mut round_end = None;
        if let Some((next, end)) = deal_next_round(&after, ending, mover, self.last_four_rule) {
            // A round that starts as an earlier one did for the third time ends the match (a
            // repetition): rounds could otherwise follow each other for ever.
            let earlier = self
                .plies
                .iter()
                .filter(|ply| ply.round_end.is_some() && ply.after == next)
                .count()
                + usize::from(self.base == next);
            after = next;
            ending = next
                .own_ending()
                .or((earlier + 1 >= REPETITION_LIMIT).then_some(Ending::Repetition));
            quiet_run = 0;
            round_end = Some(end);
        }
        self.plies.push(Ply {
            mv,
            after,
            quiet_run,
            ending,
            round_end,
        });
        Ok(())
    }

    /// How often `after` occurs in the game if it is reached now after `quiet_run` quiet moves,
    /// counting itself. Only positions since the last capture can be equal to it: after a quiet
    /// move those are the current run's; after a capture, none.
    fn occurrences(&self, after: &Position, quiet_run: u16) -> usize {
        let earlier = if quiet_run == 0 {
            0
        } else {
            self.since_capture().filter(|&p| p == after).count()
        };
        1 + earlier
    }

    /// Plays `moves` in order; if any is illegal, the game is left exactly as it was.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), MoveListError> {
        let played = self.plies.len();
        for (index, &mv) in moves.iter().enumerate() {
            if let Err(error) = self.play(mv) {
                self.plies.truncate(played);
                return Err(MoveListError { index, error });
            }
        }
        Ok(())
    }

    /// Takes back the last `count` moves, or refuses and changes nothing.
    pub fn undo(&mut self, count: usize) -> Result<(), UndoError> {
        let played = self.plies.len();
        if count > played {
            return Err(UndoError {
                requested: count,
                played,
            });
        }
        self.plies.truncate(played - count);
        Ok(())
    }

    /// Final totals `[South, North]` once the game is over.
    pub fn final_totals(&self) -> Option<[u32; 2]> {
        self.ending()
            .map(|ending| self.position().final_totals(ending, self.last_four_rule))
    }

    /// Captured totals so far, or the final totals once the game is over.
    pub fn score(&self) -> [u32; 2] {
        self.final_totals().unwrap_or_else(|| {
            let p = self.position();
            [p.captured[0] as u32, p.captured[1] as u32]
        })
    }

    /// The result, once the game is over. A match of rounds won that a history rule ends goes
    /// to the player with more rounds won, the round it ended counted as any other.
    pub fn result(&self) -> Option<GameResult> {
        let totals = self.final_totals()?;
        let round_result = GameResult::from_totals(totals);
        let position = self.position();
        if position.rules().wins_to_win() == 0 || !self.ending()?.by_history() {
            return Some(round_result);
        }
        let mut wins = position.round_wins().map(u32::from);
        match round_result {
            GameResult::SouthWins => wins[0] += 1,
            GameResult::NorthWins => wins[1] += 1,
            GameResult::Draw => {}
        }
        Some(GameResult::from_totals(wins))
    }
}

/// The next round's start where `ending` ends only a round of a match of rounds (not by a
/// history rule, and both players can go on), with how the round ended.
fn deal_next_round(
    ended: &Position,
    ending: Option<Ending>,
    last_mover: Side,
    last_four_rule: LastFourRule,
) -> Option<(Position, RoundEnd)> {
    ended.rules().rounds?;
    let ending = ending.filter(|ending| !ending.by_history())?;
    let totals = ended.final_totals(ending, last_four_rule);
    let next = ended.next_round(totals, last_mover)?;
    Some((next, RoundEnd { ending, totals }))
}
