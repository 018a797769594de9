//! Checking a move named by a client against a position, with a reason when it is illegal.

use std::fmt;

use super::moves::Move;
use super::position::Position;
use super::variant::MoveChoice;

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is over: no move is legal.
    GameOver,
    /// The letter is past the end of the row in this game.
    NoSuchPit,
    /// The pit belongs to the player who is not to move.
    OpponentsPit,
    /// The pit is empty.
    EmptyPit,
    /// The pit is blocked for this round (a match of rounds).
    BlockedPit,
    /// The pit is closed (a game whose pits close, [`crate::Rules::closes_pits_at`]).
    ClosedPit,
    /// The pit holds fewer counters than the game's least move (`min-move`).
    TooFewToMove,
    /// The game's move filter (`move-filter`) does not let this pit be played now.
    Filtered,
    /// Mangala IV: only the leftmost non-empty pit may be played.
    NotLeftmost,
    /// Al-manqala: the opponent's row is empty and this move would leave it empty.
    DoesNotFeed,
    /// `pass` while the mover has a move.
    CannotPass,
    /// The mover chooses this pit's direction of sowing, and the move does not say it.
    DirectionNeeded,
    /// The move chooses a direction where the game does not let the mover choose it.
    NoDirectionChoice,
}

/// A move that is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub mv: Move,
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::GameOver => "the game is over",
            IllegalReason::NoSuchPit => "there is no such pit in this game",
            IllegalReason::OpponentsPit => "that pit belongs to the side not to move",
            IllegalReason::EmptyPit => "that pit is empty",
            IllegalReason::BlockedPit => "that pit is blocked for this round",
            IllegalReason::ClosedPit => "that pit is closed",
            IllegalReason::TooFewToMove => "that pit holds fewer counters than a move needs",
            IllegalReason::Filtered => "the game's move filter does not let that pit be played now",
            IllegalReason::NotLeftmost => "only the leftmost non-empty pit may be played",
            IllegalReason::DoesNotFeed => {
                "the opponent's row is empty and this move does not feed it"
            }
            IllegalReason::CannotPass => "a player may pass only when their row is empty",
            IllegalReason::DirectionNeeded => {
                "the mover chooses that pit's direction: add > (counter-clockwise) or < (clockwise)"
            }
            IllegalReason::NoDirectionChoice => {
                "the game does not let the mover choose that pit's direction now (no > or <)"
            }
        };
        write!(f, "illegal move '{}': {why}", self.mv)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Checks that `mv` is legal here, saying why not when it is not.
    pub fn check_move(&self, mv: Move) -> Result<Move, IllegalMove> {
        let legal = self.legal_moves();
        if legal.contains(mv) {
            return Ok(mv);
        }
        let illegal = |reason| Err(IllegalMove { mv, reason });
        if legal.is_empty() {
            return illegal(IllegalReason::GameOver);
        }
        let rules = self.rules();
        let Some((side, offset)) = mv.sown() else {
            return illegal(IllegalReason::CannotPass);
        };
        if offset as usize >= rules.pits_per_row {
            return illegal(IllegalReason::NoSuchPit);
        }
        let pit = mv.pit(rules.pits_per_row).unwrap_or_default();
        let theirs = if rules.territory() {
            self.owner(pit) != self.side_to_move
        } else {
            side != self.side_to_move && rules.move_choice != MoveChoice::EitherRow
        };
        if theirs {
            return illegal(IllegalReason::OpponentsPit);
        }
        if self.pits[pit] == 0 {
            return illegal(if self.is_blocked(pit) && rules.closes_pits_at > 0 {
                IllegalReason::ClosedPit
            } else if self.is_blocked(pit) {
                IllegalReason::BlockedPit
            } else {
                IllegalReason::EmptyPit
            });
        }
        if self.pits[pit] < rules.min_move {
            return illegal(IllegalReason::TooFewToMove);
        }
        let chosen_here = if rules.tracks_directions() {
            self.direction_of_side(self.side_to_move).is_none()
        } else {
            // (Not in the opening's moves that sow in the game's direction.)
            rules.direction_chosen_at(pit) && !self.within_opening(rules.fixed_direction_moves)
        };
        if mv.chosen_direction().is_some() != chosen_here {
            return illegal(if chosen_here {
                IllegalReason::DirectionNeeded
            } else {
                IllegalReason::NoDirectionChoice
            });
        }
        if rules.move_choice == MoveChoice::Leftmost {
            return illegal(IllegalReason::NotLeftmost);
        }
        let starved = rules.must_feed && self.row_total(self.side_to_move.opponent()) == 0;
        if !starved {
            return illegal(IllegalReason::Filtered);
        }
        illegal(IllegalReason::DoesNotFeed)
    }

    /// Plays `mv` if it is legal; otherwise leaves the position as it was.
    pub fn play(&mut self, mv: Move) -> Result<super::MoveEffect, IllegalMove> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }
}
