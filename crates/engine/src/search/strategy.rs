//! Baseline players for matches: the greedy capturer and the random mover.

use std::fmt;
use std::str::FromStr;

use mancala_rules::{Move, Position};

/// How `go` chooses a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The alpha-beta search.
    #[default]
    Search,
    /// The move that captures most now; ties go to the lowest pit.
    Greedy,
    /// A uniformly random legal move (seeded by the `Seed` option).
    Random,
}

impl Strategy {
    pub const ALL: [Strategy; 3] = [Strategy::Search, Strategy::Greedy, Strategy::Random];

    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Search => "search",
            Strategy::Greedy => "greedy",
            Strategy::Random => "random",
        }
    }

    /// The move of a baseline strategy in `pos`, which must have a legal move. `random` is a
    /// fresh random number.
    pub fn choose(self, pos: &Position, random: u64) -> Move {
        let legal = pos.legal_moves();
        let moves = legal.as_slice();
        match self {
            Strategy::Random => moves[(random % moves.len() as u64) as usize],
            Strategy::Search | Strategy::Greedy => {
                let mover = pos.side_to_move();
                let mut best = moves[0];
                let mut most = -1;
                for &mv in moves {
                    let mut after = *pos;
                    after.play_unchecked(mv);
                    let captured = after.captured(mover) as i32 - pos.captured(mover) as i32;
                    if captured > most {
                        most = captured;
                        best = mv;
                    }
                }
                best
            }
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::ALL
            .into_iter()
            .find(|st| st.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown Strategy '{s}' (expected search, greedy or random)"))
    }
}
