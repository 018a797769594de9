//! `mancala-engine import-mancalagames`: the command line over the `mancala-mancalagames`
//! crate, which translates MancalaGames' game files into game files of this engine.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use mancala_mancalagames::{Outcome, import, refuse};

/// Translate MancalaGames' game files into game files of this engine.
///
/// Reads each FILE (MancalaGames' format: a JSON object of `game_class`, `game_constants` and
/// `game_info`, then text), writes `<name>.toml` into --out for each game whose parameters the
/// engine has, plays --games random games of each to their end, and prints one line per file
/// (written, the same as a built-in game, or refused with the parameter that refuses it) and a
/// summary.
#[derive(Args, Debug)]
pub struct ImportMancalaGames {
    /// MancalaGames' game files (GameProps/*.txt).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The directory the game files go to (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Random games played to their end with each game written.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    games: u32,
}

impl ImportMancalaGames {
    pub fn run(self) -> Result<(), String> {
        std::fs::create_dir_all(&self.out)
            .map_err(|e| format!("cannot create {}: {e}", self.out.display()))?;
        let mut written = 0;
        let mut same = 0;
        let mut refused = 0;
        let mut refusals: BTreeMap<String, u32> = BTreeMap::new();
        let mut played = 0u64;
        for file in &self.files {
            let label = file.display();
            let outcome = std::fs::read_to_string(file)
                .map_err(|e| refuse("file", format!("cannot be read: {e}")))
                .and_then(|text| import(&text, &self.out, self.games, &mut played));
            match outcome {
                Ok(Outcome::Written(path)) => {
                    written += 1;
                    println!("written  {label} -> {}", path.display());
                }
                Ok(Outcome::Renamed(path, variant, differing)) => {
                    written += 1;
                    println!(
                        "written  {label} -> {} (not '{}', whose rules differ in {differing})",
                        path.display(),
                        variant.name()
                    );
                }
                Ok(Outcome::SameAs(variant)) => {
                    same += 1;
                    println!(
                        "built in {label}: the rules of '{}', not written",
                        variant.name()
                    );
                }
                Err(refusal) => {
                    refused += 1;
                    for parameter in refusal.parameter.split(", ") {
                        *refusals.entry(parameter.to_string()).or_default() += 1;
                    }
                    println!("refused  {label}: {refusal}");
                }
            }
        }
        let mut by_parameter: Vec<(String, u32)> = refusals.into_iter().collect();
        by_parameter.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let reasons = by_parameter
            .iter()
            .map(|(parameter, count)| format!("{parameter} {count}"))
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "{} files: {written} written ({played} random games played to their end), \
             {same} the same as a game already there, {refused} refused{}",
            self.files.len(),
            if reasons.is_empty() {
                String::new()
            } else {
                format!(" (files a parameter refuses, by parameter: {reasons})")
            }
        );
        Ok(())
    }
}
