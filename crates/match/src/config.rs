//! What a match is made of: the engines, their limits, the openings, the shard of a run.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use mancala_rules::{LastFourRule, Variant};

use super::stats::Sprt;

/// One engine: a program, its arguments, the options sent to it and, if it has one, its own limit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// `setoption name <0> value <1>`, sent in this order after the handshake.
    pub options: Vec<(String, String)>,
    /// The engine's own time control, overriding the match's.
    pub limit: Option<TimeControl>,
}

/// How long a side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// A clock: `initial` for the game, plus `increment` after each move.
    Clock {
        initial: Duration,
        increment: Duration,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

impl TimeControl {
    /// The tag written into game records: `10+0.1`, `movetime 100ms`, `depth 8`, `nodes 5000`.
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Clock { initial, increment } => {
                format!("{}+{}", initial.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("movetime {}ms", t.as_millis()),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl std::str::FromStr for Tournament {
    type Err = String;

    /// `round-robin` (or `roundrobin`) or `gauntlet`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "round-robin" | "roundrobin" => Ok(Tournament::RoundRobin),
            "gauntlet" => Ok(Tournament::Gauntlet),
            _ => Err(format!(
                "unknown tournament '{s}' (expected round-robin or gauntlet)"
            )),
        }
    }
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningSource {
    /// A file of position strings and/or move prefixes (see [`mancala_rules::openings`]).
    File(PathBuf),
    /// `plies` random legal moves from the start (a Mangala IV deal for Mangala IV).
    Random { plies: u32 },
}

/// Shard `index` (1-based) of `count`: the games of the whole run whose opening pairs fall to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Whether game `number` (1-based) of the whole run is this shard's. The two games of an
    /// opening (one with each side) go to the same shard, so that its pairs stay whole.
    pub fn has_game(&self, number: u64) -> bool {
        ((number - 1) / 2) % self.count as u64 == (self.index - 1) as u64
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub tournament: Tournament,
    pub variant: Variant,
    /// The game file that defines `variant`, if it is not built in: every engine loads it.
    pub game_file: Option<PathBuf>,
    pub last_four_rule: LastFourRule,
    /// Games per pairing; always even (every opening is played twice).
    pub games: u32,
    pub concurrency: usize,
    /// The match's time control, for engines without one of their own.
    pub time_control: TimeControl,
    /// Allowance over the clock or move time before a move counts as too late.
    pub time_margin: Duration,
    /// How long to wait for `bestmove` under depth and node limits, and for `uciok`/`readyok`.
    pub answer_timeout: Duration,
    pub openings: OpeningSource,
    pub seed: u64,
    /// Adjudicate by the leftover rule after this many plies.
    pub max_plies: Option<u32>,
    pub sprt: Option<Sprt>,
    pub shard: Option<Shard>,
    pub records: Option<PathBuf>,
    pub json: Option<PathBuf>,
    /// The journal: one line per finished game, appended as games end; a run stopped by a
    /// signal goes on from it.
    pub journal: Option<PathBuf>,
}

impl MatchConfig {
    /// The pairings `(first, second)`, indices into `engines`.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.tournament {
            Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Tournament::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    /// The limit engine `index` plays under: its own, else the match's.
    pub fn limit_of(&self, index: usize) -> TimeControl {
        self.engines[index].limit.unwrap_or(self.time_control)
    }
}
