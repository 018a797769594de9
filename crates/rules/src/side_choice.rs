//! Mangala IV's side choice: with forced play, the outcome of each choice of side is exact.

use super::game::Game;
use super::position::Position;
use super::side::Side;
use super::variant::LastFourRule;

/// The exact outcome of both choices for the player who wins the opening ritual.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideChoice {
    /// Final totals `[South, North]` if the chooser takes South (so North moves first).
    pub choose_south: [u32; 2],
    /// Final totals `[South, North]` if the chooser takes North (so South moves first).
    pub choose_north: [u32; 2],
}

impl SideChoice {
    /// Works out both choices on `board` (its side to move is ignored) by forced play under all
    /// the rules, the history rules counted from `board`.
    ///
    /// Returns `None` for games whose moves are not forced (there the choice is not exact).
    pub fn for_board(board: &Position) -> Option<SideChoice> {
        board.rules().has_forced_moves().then(|| SideChoice {
            choose_south: play_out(board.with_side_to_move(Side::North)),
            choose_north: play_out(board.with_side_to_move(Side::South)),
        })
    }

    /// The chooser's final margin (own total minus the opponent's) for each side.
    pub fn margin(&self, side: Side) -> i64 {
        let totals = match side {
            Side::South => self.choose_south,
            Side::North => self.choose_north,
        };
        totals[side.index()] as i64 - totals[side.opponent().index()] as i64
    }

    /// The side with the larger margin, or `None` if both are equal.
    pub fn best(&self) -> Option<Side> {
        match self.margin(Side::South).cmp(&self.margin(Side::North)) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// Plays the only legal move until the game ends (the no-progress rule bounds the length).
fn play_out(start: Position) -> [u32; 2] {
    let mut game = Game::new(start, LastFourRule::default());
    while let Some(&mv) = game.legal_moves().as_slice().first() {
        if game.play(mv).is_err() {
            break;
        }
    }
    game.score()
}
