//! The rules of two-row mancala games, as a pure library: no I/O, no dependency, nothing printed.
//!
//! It plays the built-in games (Mangala II, Mangala IV, Al-manqala, Anywoli, Kalah and Oware) and
//! any game file exactly as `RULES.md` (in the repository) describes them: positions and their strings (`6-6-…-0-0-S`), move names (`A…` for
//! South's pits, `a…` for North's, `pass`), sowing, relay laps and captures, the game's history
//! rules (repetition, 100 moves without a capture), final scores, and perft.
//!
//! A [`Position`] is a small `Copy` value that holds what its position string holds; a [`Game`]
//! is a base position with the moves played from it, so that it can judge repetition and the
//! 100-move rule. Move text is parsed first (`"C".parse::<Move>()`) and checked against a
//! position second: a refused move says why, and leaves the game as it was.
//!
//! ```
//! use mancala_rules::{Game, LastFourRule, Move, Position, Variant};
//!
//! // A new game of Mangala II, South to move.
//! let mut game = Game::new(Position::start(Variant::MangalaII), LastFourRule::default());
//! assert_eq!(game.legal_moves().to_string(), "A B C D E F");
//!
//! // Moves are named by their pit; a move the rules refuse changes nothing.
//! game.play("A".parse::<Move>().unwrap()).unwrap();
//! let illegal = game.play("B".parse::<Move>().unwrap()).unwrap_err();
//! assert_eq!(illegal.to_string(), "illegal move 'B': that pit belongs to the side not to move");
//! assert_eq!(game.position().to_string(), "0-7-7-7-7-7-7-6-6-6-6-6-0-0-N");
//!
//! // Play the game out, always sowing from the first legal pit.
//! while let Some(&mv) = game.legal_moves().as_slice().first() {
//!     game.play(mv).unwrap();
//! }
//! let [south, north] = game.score();
//! assert_eq!(south + north, 72);
//! assert!(game.result().is_some() && game.ending().is_some());
//! ```
//!
//! Positions come from strings too, and say what is wrong with a bad one:
//!
//! ```
//! use mancala_rules::{Position, Variant};
//!
//! let pos = Position::from_position_string(Variant::AlManqala, "1-0-0-0-0-0-1-0-0-0-0-0-0-0-50-46-S")
//!     .unwrap();
//! assert_eq!(pos.legal_moves().to_string(), "G"); // North's row is empty: South must feed it
//! let error = Position::from_position_string(Variant::AlManqala, "1-0-S").unwrap_err();
//! assert!(error.to_string().contains("17 fields"));
//! ```
//!
//! The hot functions (`legal_moves_for`, `play_for`, …) are also compiled once per game through
//! [`Spec`] and [`with_spec!`], with the game's rules as constants, for engines that search.

mod deal;
pub mod definition;
mod fen;
mod game;
mod landing;
mod legality;
mod moves;
pub mod openings;
mod perft;
mod position;
mod rounds;
mod rules_record;
mod side;
mod side_choice;
mod sowing;
pub mod spec;
mod trace;
mod variant;

pub use deal::SplitMix64;
pub use fen::PositionStringError;
pub use game::{Game, MoveListError, NO_PROGRESS_LIMIT, REPETITION_LIMIT, UndoError};
pub use legality::{IllegalMove, IllegalReason};
pub use moves::{BadMoveName, MAX_MOVES, MAX_ROW, Move, MoveList};
pub use perft::{Aborted, perft, perft_divide, perft_until};
pub use position::{Ending, GameResult, MAX_COUNTERS, MAX_PITS, Position, margin_of};
pub use rounds::RoundEnd;
pub use side::Side;
pub use side_choice::SideChoice;
pub use sowing::MoveEffect;
pub use spec::Spec;
pub use trace::{MoveTrace, SowStep};
pub use variant::{
    CaptureCounts, CaptureExtraMove, CaptureSide, ChildApart, ChildMaking, Children, Direction,
    DirectionRule, FirstMove, Goal, GrandSlam, Laps, LastFourRule, Leftover, MAX_REGISTERED,
    MoveChoice, MoveFilter, OwnEnd, RegisterError, RoundFill, RoundStarter, Rounds, Rules, Start,
    Unfed, UnknownVariant, Variant,
};
