//! The training data's file format: text, one position per line, so that a set can be read,
//! counted, filtered and split with the usual tools.
//!
//! ```text
//! # mancala-engine datagen mangala-ii games=1000 seed=1 nodes=20000 random-plies=8 tablebases=none
//! <position string> <search> <margin> <result> <exact> <game>
//! 6-6-5-0-7-7-7-7-6-6-6-6-0-1-S 112 8 W - 17
//! ```
//!
//! Every value is from the point of view of the side to move in the position: `search` is the
//! score of a search of the position in centi-counters (a proven result counts as 100 × its
//! margin); `margin` is the game's final margin in counters (the final totals, leftover rules
//! included); `result` is `W`, `D` or `L`; `exact` is the solved value from the tablebases
//! (RULES.md, "Solved values") or `-` where they do not reach; `game` numbers the game, so that
//! a held-out part can be whole games. Lines starting with `#` are comments.

use std::fmt;

use mancala_rules::{Position, Variant};

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub position: Position,
    /// A search's score, centi-counters.
    pub search: i32,
    /// The game's final margin, counters.
    pub margin: i32,
    /// The solved value, counters, where the tables know it.
    pub exact: Option<i32>,
    pub game: u64,
}

impl Record {
    /// `W`, `D` or `L`: the sign of the final margin.
    pub fn result(&self) -> char {
        match self.margin.signum() {
            1 => 'W',
            -1 => 'L',
            _ => 'D',
        }
    }

    /// Reads a record line of `variant`.
    pub fn parse(variant: Variant, line: &str) -> Result<Record, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [position, search, margin, result, exact, game] = words[..] else {
            return Err(format!("expected 6 fields, found {}", words.len()));
        };
        let number = |what: &str, text: &str| {
            text.parse::<i32>()
                .map_err(|_| format!("{what} '{text}' is not a number"))
        };
        let record = Record {
            position: Position::from_position_string(variant, position)
                .map_err(|e| format!("position '{position}': {e}"))?,
            search: number("search", search)?,
            margin: number("margin", margin)?,
            exact: match exact {
                "-" => None,
                text => Some(number("exact", text)?),
            },
            game: game
                .parse()
                .map_err(|_| format!("game '{game}' is not a number"))?,
        };
        if result.len() != 1 || !result.starts_with(record.result()) {
            return Err(format!(
                "result '{result}' does not match the margin {}",
                record.margin
            ));
        }
        Ok(record)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} ",
            self.position,
            self.search,
            self.margin,
            self.result()
        )?;
        match self.exact {
            Some(value) => write!(f, "{value}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {}", self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let record = Record {
            position: Position::start(Variant::MangalaII),
            search: -35,
            margin: 4,
            exact: Some(2),
            game: 9,
        };
        let line = record.to_string();
        assert_eq!(line, "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S -35 4 W 2 9");
        assert_eq!(Record::parse(Variant::MangalaII, &line), Ok(record));
        let open = "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S 0 0 D - 0";
        assert_eq!(
            Record::parse(Variant::MangalaII, open).unwrap().to_string(),
            open
        );
    }

    #[test]
    fn bad_records_say_why() {
        for (line, why) in [
            ("6-6-6-6-6-6-6-6-6-6-6-6-0-0-S 0 4 L - 0", "does not match"),
            ("6-6-6-6-6-6-6-6-6-6-6-6-0-0-S x 4 W - 0", "search 'x'"),
            ("6-6-0-0-S 0 4 W - 0", "position"),
            ("6-6-6-6-6-6-6-6-6-6-6-6-0-0-S 0 4 W -", "6 fields"),
        ] {
            let error = Record::parse(Variant::MangalaII, line).unwrap_err();
            assert!(error.contains(why), "{line}: {error}");
        }
    }
}
