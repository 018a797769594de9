//! The rules of the four games: a pure library (no I/O), following `RULES.md`.

mod deal;
mod fen;
mod game;
mod landing;
mod legality;
mod moves;
mod perft;
mod position;
mod side;
mod side_choice;
mod sowing;
pub mod spec;
mod variant;

pub use deal::SplitMix64;
pub use fen::PositionStringError;
pub use game::{Game, MoveListError, NO_PROGRESS_LIMIT, REPETITION_LIMIT, UndoError};
pub use legality::{IllegalMove, IllegalReason};
pub use moves::{BadMoveName, MAX_ROW, Move, MoveList};
pub use perft::{Aborted, perft, perft_divide, perft_until};
pub use position::{Ending, GameResult, MAX_PITS, Position};
pub use side::Side;
pub use side_choice::SideChoice;
pub use sowing::MoveEffect;
pub use spec::Spec;
pub use variant::{
    CaptureCounts, Direction, Laps, LastFourRule, Leftover, MoveChoice, OwnEnd, Rules,
    UnknownVariant, Variant,
};
