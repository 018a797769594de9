//! The evaluation's weights of one game as data: a text file that `mancala-engine tune --save`
//! writes and the engine loads (option `WeightsFile`, or `--weights` on the command line), so
//! that a game without weights compiled in (a game loaded from a file, or Kalah and Oware) is
//! fitted and played without editing the source.
//!
//! The file is `key = value` lines, as a game file is: a header naming the game, the model, the
//! data and the command that made it, the terms' weights, and for a pit model one line per pit
//! and table of its value per count (0 to 15 and more), the mover's row and the other's:
//!
//! ```text
//! # mancala-engine weights
//! game = "kalah"
//! model = "pits"
//! data = "mancala-engine datagen kalah games=4000 seed=1 nodes=10000 random-plies=8"
//! command = "mancala-engine tune kalah.txt --pits --save kalah.weights"
//! material = 100
//! row = 0
//! mobility = 0
//! threat-pct = 0
//! big-pit = 0
//! threes = 0
//! leftover-pct = 0
//! mine-A = [0, 12, 30, …]     # 16 values: the mover's pit A (its first in sowing order)
//! theirs-A = [0, -10, …]
//! ```
//!
//! with `mine-late-…` and `theirs-late-…` as well for the tapered model.

use super::fields::{Value, read_fields, value_error};
use super::terms::{COUNT_BUCKETS, PitValues, Weights};
use mancala_rules::definition::strip_comment;
use mancala_rules::{MAX_ROW, Move, Side, Variant};

/// A weights file read: the game it is for, its settings, and its header.
#[derive(Clone, Debug)]
pub struct WeightsFile {
    pub variant: Variant,
    pub model: String,
    pub data: String,
    pub command: String,
    pub weights: Weights,
    pub pits: PitValues,
}

/// The pit models' names, as the file writes them.
pub const MODELS: [&str; 3] = ["terms", "pits", "tapered-pits"];

impl WeightsFile {
    /// Reads a weights file; its game must be known (built in, or loaded before).
    pub fn parse(text: &str) -> Result<WeightsFile, String> {
        // Told apart before any value is read: a game file's values are not a weights file's.
        let game_file = text.lines().any(|line| {
            strip_comment(line)
                .split_once('=')
                .is_some_and(|(key, _)| key.trim() == "pits-per-row")
        });
        if game_file {
            return Err(
                "a game file, not a weights file: a game file is loaded with GameFile or --game"
                    .to_string(),
            );
        }
        let mut fields = read_fields(text)?;
        let mut word = |key: &str| match fields.remove(key) {
            Some(Value::Word(w)) => Ok(w),
            Some(_) => Err(value_error(key, "is not a word in double quotes")),
            None => Err(value_error(key, "missing")),
        };
        let game = word("game")?;
        let variant: Variant = game
            .parse()
            .map_err(|e| value_error("game", format!("{e}")))?;
        let model = word("model")?;
        if !MODELS.contains(&model.as_str()) {
            return Err(value_error(
                "model",
                format!("\"{model}\" is not one of {}", MODELS.join(", ")),
            ));
        }
        let data = word("data")?;
        let command = word("command")?;
        let mut number = |key: &str| match fields.remove(key) {
            Some(Value::Number(n)) if n.unsigned_abs() <= 1_000_000 => Ok(n as i32),
            Some(_) => Err(value_error(
                key,
                "is not a whole number (at most a million)",
            )),
            None => Err(value_error(key, "missing")),
        };
        let weights = Weights {
            material: number("material")?,
            row: number("row")?,
            mobility: number("mobility")?,
            threat_pct: number("threat-pct")?,
            big_pit: number("big-pit")?,
            threes: number("threes")?,
            leftover_pct: number("leftover-pct")?,
        };
        let mut pits = PitValues::NONE;
        if model != "terms" {
            pits.used = true;
            pits.tapered = model == "tapered-pits";
            let n = variant.rules().pits_per_row;
            let mut tables: Vec<(&str, &mut [[i32; COUNT_BUCKETS]; MAX_ROW])> =
                vec![("mine", &mut pits.mine), ("theirs", &mut pits.theirs)];
            if pits.tapered {
                tables.push(("mine-late", &mut pits.mine_late));
                tables.push(("theirs-late", &mut pits.theirs_late));
            }
            for (name, table) in tables {
                for (pit, row) in table.iter_mut().enumerate().take(n) {
                    let key = format!("{name}-{}", Move::sow(Side::South, pit as u8));
                    match fields.remove(&key) {
                        Some(Value::List(values)) if values.len() == COUNT_BUCKETS => {
                            for (cell, value) in row.iter_mut().zip(values) {
                                *cell = i32::try_from(value)
                                    .map_err(|_| value_error(&key, "a value is too large"))?;
                            }
                        }
                        Some(_) => {
                            return Err(value_error(
                                &key,
                                format!("is not a list of {COUNT_BUCKETS} values"),
                            ));
                        }
                        None => return Err(value_error(&key, "missing")),
                    }
                }
            }
        }
        if let Some(key) = fields.keys().next() {
            return Err(value_error(key, "unknown field"));
        }
        Ok(WeightsFile {
            variant,
            model,
            data,
            command,
            weights,
            pits,
        })
    }

    /// The file's text: what [`WeightsFile::parse`] reads back.
    pub fn write(&self) -> String {
        let w = &self.weights;
        let mut text = format!(
            "# mancala-engine weights: the evaluation of one game, made by `mancala-engine tune \
             --save` (README, \"Learning the evaluation\").\ngame = \"{}\"\nmodel = \"{}\"\n\
             data = \"{}\"\ncommand = \"{}\"\nmaterial = {}\nrow = {}\nmobility = {}\n\
             threat-pct = {}\nbig-pit = {}\nthrees = {}\nleftover-pct = {}\n",
            self.variant,
            self.model,
            self.data.replace('"', "'"),
            self.command.replace('"', "'"),
            w.material,
            w.row,
            w.mobility,
            w.threat_pct,
            w.big_pit,
            w.threes,
            w.leftover_pct
        );
        if self.pits.used {
            let mut tables = vec![("mine", &self.pits.mine), ("theirs", &self.pits.theirs)];
            if self.pits.tapered {
                tables.push(("mine-late", &self.pits.mine_late));
                tables.push(("theirs-late", &self.pits.theirs_late));
            }
            let n = self.variant.rules().pits_per_row;
            for (name, table) in tables {
                for (pit, row) in table.iter().enumerate().take(n) {
                    let cells: Vec<String> = row.iter().map(ToString::to_string).collect();
                    text += &format!(
                        "{name}-{} = [{}]\n",
                        Move::sow(Side::South, pit as u8),
                        cells.join(", ")
                    );
                }
            }
        }
        text
    }
}

/// The file of a game's current weights (compiled, loaded or default): what the tests write
/// and read back.
#[cfg(test)]
fn current(variant: Variant) -> WeightsFile {
    let tuning = super::tuning::tuning(variant);
    let model = if !tuning.pits.used {
        "terms"
    } else if tuning.pits.tapered {
        "tapered-pits"
    } else {
        "pits"
    };
    WeightsFile {
        variant,
        model: model.to_string(),
        data: String::new(),
        command: String::new(),
        weights: tuning.weights,
        pits: *tuning.pits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back_the_same() {
        for variant in Variant::ALL
            .into_iter()
            .filter(|v| !v.rules().has_forced_moves())
        {
            let file = current(variant);
            let back = WeightsFile::parse(&file.write()).unwrap();
            assert_eq!(back.variant, variant);
            assert_eq!(back.weights, file.weights, "{variant}");
            assert_eq!(back.pits, file.pits, "{variant}");
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let good = current(Variant::MangalaII).write();
        for (from, to, why) in [
            (
                "game = \"mangala-ii\"",
                "game = \"chess\"",
                "game: unknown variant",
            ),
            (
                "model = \"tapered-pits\"",
                "model = \"net\"",
                "model: \"net\" is not",
            ),
            ("row = 0", "row = x", "row: 'x' is not"),
            ("material = 100\n", "", "material: missing"),
            ("row = 0", "row = 0\ncolour = 1", "colour: unknown field"),
        ] {
            let text = good.replacen(from, to, 1);
            let error = WeightsFile::parse(&text).unwrap_err();
            assert!(error.starts_with(why), "{to}: {error}");
        }
    }
}
