//! What happened in one game, and its text record.

use std::fmt::Write as _;
use std::time::Duration;

use mancala_rules::{Ending, GameResult, Move, Position, Side, Variant};

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game.
    Rules(Ending),
    /// Adjudicated by the leftover rule at the ply cap.
    PlyCap,
    /// `side` answered a move that is not legal here, or no move at all.
    IllegalMove { side: Side, detail: String },
    /// `side` answered after its clock (or move time) and the margin ran out.
    TimeForfeit { side: Side },
    /// `side`'s process exited or closed its pipes.
    Crash { side: Side, detail: String },
    /// `side` missed a deadline and did not answer `stop` either.
    Hang { side: Side, detail: String },
}

impl Termination {
    /// A short name, the same for both sides: the key of the summary's termination counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Rules(ending) => ending.describe(),
            Termination::PlyCap => "ply cap",
            Termination::IllegalMove { .. } => "illegal move",
            Termination::TimeForfeit { .. } => "time forfeit",
            Termination::Crash { .. } => "crash",
            Termination::Hang { .. } => "hang",
        }
    }

    /// The side at fault, for the endings that are a fault.
    pub fn offender(&self) -> Option<Side> {
        match self {
            Termination::Rules(_) | Termination::PlyCap => None,
            Termination::IllegalMove { side, .. }
            | Termination::TimeForfeit { side }
            | Termination::Crash { side, .. }
            | Termination::Hang { side, .. } => Some(*side),
        }
    }

    /// One line for people: the kind, who, and the detail.
    pub fn describe(&self) -> String {
        match self {
            Termination::Rules(_) | Termination::PlyCap => self.kind().to_string(),
            Termination::TimeForfeit { side } => format!("time forfeit by {side}"),
            Termination::IllegalMove { side, detail }
            | Termination::Crash { side, detail }
            | Termination::Hang { side, detail } => {
                format!("{} by {side}: {detail}", self.kind())
            }
        }
    }
}

/// One move of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    pub side: Side,
    pub mv: Move,
    /// Part of the opening, not chosen by an engine.
    pub book: bool,
    pub think: Duration,
    /// The last `depth` and `score` the engine reported before this move.
    pub depth: Option<u32>,
    pub score: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based, in the order the games were scheduled.
    pub number: u64,
    pub variant: Variant,
    pub base: Position,
    /// Engine indices and names, South first.
    pub engines: [usize; 2],
    pub names: [String; 2],
    /// The limits South and North played under.
    pub time_controls: [String; 2],
    pub plies: Vec<PlyRecord>,
    pub final_position: Position,
    pub result: GameResult,
    /// Final totals `[South, North]` when the game ended on the board.
    pub totals: Option<[u32; 2]>,
    pub termination: Termination,
}

impl GameRecord {
    /// The points engine `engine` made in this game (1, ½, 0).
    pub fn points_of(&self, engine: usize) -> f64 {
        let side = if self.engines[0] == engine {
            Side::South
        } else {
            Side::North
        };
        match (self.result, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::SouthWins, Side::South) | (GameResult::NorthWins, Side::North) => 1.0,
            _ => 0.0,
        }
    }

    /// `1-0` (South won), `0-1` or `1/2-1/2`.
    pub fn result_tag(&self) -> &'static str {
        match self.result {
            GameResult::SouthWins => "1-0",
            GameResult::NorthWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The record: PGN-like tags, then the moves, each with the side that played it (`S:C`,
    /// `N:d`), so that Anywoli's extra turns show as two moves of one side in a row.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        let mut tag = |name: &str, value: &str| {
            let _ = writeln!(text, "[{name} \"{}\"]", value.replace('"', "'"));
        };
        tag("Event", "mancala-match");
        tag("Game", &self.number.to_string());
        tag("Variant", self.variant.name());
        tag("Start", &self.base.to_string());
        tag("South", &self.names[0]);
        tag("North", &self.names[1]);
        if self.time_controls[0] == self.time_controls[1] {
            tag("TimeControl", &self.time_controls[0]);
        } else {
            tag("SouthTimeControl", &self.time_controls[0]);
            tag("NorthTimeControl", &self.time_controls[1]);
        }
        tag("Result", self.result_tag());
        tag("Termination", &self.termination.describe());
        if let Some([south, north]) = self.totals {
            tag("FinalScore", &format!("{south}-{north}"));
        }
        tag("Plies", &self.plies.len().to_string());
        tag("Final", &self.final_position.to_string());
        text.push('\n');
        let mut line = String::new();
        for (i, ply) in self.plies.iter().enumerate() {
            let mut token = format!("{}. {}:{}", i + 1, ply.side.letter(), ply.mv);
            if ply.book {
                token.push_str(" {book}");
            } else {
                let mut comment = Vec::new();
                if let Some(score) = &ply.score {
                    comment.push(score.clone());
                }
                if let Some(depth) = ply.depth {
                    comment.push(format!("d{depth}"));
                }
                comment.push(format!("{}ms", ply.think.as_millis()));
                let _ = write!(token, " {{{}}}", comment.join(" "));
            }
            if !line.is_empty() && line.len() + token.len() + 1 > 96 {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(self.result_tag());
        text.push_str(&line);
        text.push_str("\n\n");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_show_who_played_each_move() {
        let base = Position::start(Variant::Anywoli);
        let ply = |side, name: &str, book| PlyRecord {
            side,
            mv: name.parse().unwrap(),
            book,
            think: Duration::from_millis(12),
            depth: Some(7),
            score: Some("cp 150".into()),
        };
        let record = GameRecord {
            number: 3,
            variant: Variant::Anywoli,
            base,
            engines: [1, 0],
            names: ["B".into(), "A".into()],
            time_controls: ["movetime 100ms".into(), "movetime 100ms".into()],
            plies: vec![
                ply(Side::South, "C", true),
                ply(Side::North, "d", false),
                ply(Side::North, "e", false),
            ],
            final_position: base,
            result: GameResult::NorthWins,
            totals: None,
            termination: Termination::TimeForfeit { side: Side::South },
        };
        let text = record.to_text();
        assert!(text.contains("[Variant \"anywoli\"]"), "{text}");
        assert!(
            text.contains("[Termination \"time forfeit by South\"]"),
            "{text}"
        );
        assert!(
            text.contains("1. S:C {book} 2. N:d {cp 150 d7 12ms} 3. N:e {cp 150 d7 12ms} 0-1"),
            "{text}"
        );
        assert_eq!(record.points_of(0), 1.0);
        assert_eq!(record.points_of(1), 0.0);
    }
}
