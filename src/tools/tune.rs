//! `mancala-engine tune`: fits the evaluation's weights to training data and reports the error
//! before and after.

use std::path::PathBuf;

use clap::Args;
use mancala_learn::tune::{HOLD_OUT_EVERY, Model, Target, fit, read_files, samples, weights_file};
use mancala_rules::Variant;

/// Fit the evaluation's weights to training data.
///
/// A least-squares fit per game, of all its files, every tenth game held out; the error before
/// and after is reported. The target is L x the final margin + (1 - L) x the search's score, or
/// the exact value where known.
#[derive(Args, Debug)]
pub struct Tune {
    /// datagen files (several files of one game make one fit).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The share L of the final margin in the target (0.5 unless given): a number for every
    /// game, or VARIANT=L for one game's files (may be repeated).
    #[arg(long, value_name = "L | VARIANT=L")]
    lambda: Vec<String>,
    /// Fit a value per count per pit of both rows instead of the hand-made terms.
    #[arg(long, conflicts_with = "tapered")]
    pits: bool,
    /// Fit two pit tables (full and empty board), blended by the counters on the board.
    #[arg(long)]
    tapered: bool,
    /// Write each fitted game's weights as `<game>.weights` into DIR: the built-in games' are
    /// `crates/engine/games/<game>.weights`, which a build compiles in (games without data keep
    /// their files).
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
    /// Write each fitted game's weights as a weights file the engine loads at run time
    /// (option WeightsFile, or --weights): a file for one game, or a directory that gets
    /// `<game>.weights` for each.
    #[arg(long, value_name = "FILE | DIR")]
    save: Option<PathBuf>,
}

/// `L` or `VARIANT=L`, L from 0 to 1.
pub(super) fn lambda(text: &str) -> Result<(Option<Variant>, f64), String> {
    let (game, share) = match text.split_once('=') {
        Some((game, share)) => (Some(super::variant(game)?), share),
        None => (None, text),
    };
    let share = share
        .parse::<f64>()
        .ok()
        .filter(|l| (0.0..=1.0).contains(l))
        .ok_or(format!(
            "--lambda takes a number from 0 to 1 (or VARIANT=number), not '{text}'"
        ))?;
    Ok((game, share))
}

impl Tune {
    pub fn run(self) -> Result<(), String> {
        // The weights file records the command that made it.
        let command = std::iter::once("mancala-engine".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" ");
        let mut target = Target { lambda: 0.5 };
        // `--lambda VARIANT=L`: that game's own share, over the one for all.
        let mut own_lambda: Vec<(Variant, f64)> = Vec::new();
        for text in &self.lambda {
            match lambda(text)? {
                (Some(game), share) => own_lambda.push((game, share)),
                (None, share) => target.lambda = share,
            }
        }
        let model = if self.tapered {
            Model::TaperedPits
        } else if self.pits {
            Model::Pits
        } else {
            Model::Terms
        };
        let mut fits = Vec::new();
        for game in read_files(&self.files)? {
            let variant = game.variant;
            let target = own_lambda
                .iter()
                .rev()
                .find(|(g, _)| *g == variant)
                .map_or(target, |&(_, lambda)| Target { lambda });
            let samples = samples(variant, model, &game.records, target);
            let fit = fit(variant, model, &samples).map_err(|e| format!("{variant}: {e}"))?;
            println!(
                "{variant}: {} positions to fit, {} held out (every {HOLD_OUT_EVERY}th game)",
                fit.train, fit.held_out,
            );
            println!("  before {:?}", fit.before);
            println!("  after  {:?}", fit.after);
            if fit.pits.used {
                println!(
                    "  and a value for each count (0 to 15 and more) in each pit of both rows"
                );
            }
            println!(
                "  RMSE in counters: training {:.3} -> {:.3}, held out {:.3} -> {:.3}",
                fit.rmse_train.0, fit.rmse_train.1, fit.rmse_held_out.0, fit.rmse_held_out.1
            );
            fits.push((fit, game.headers.join("` and `")));
        }
        if let Some(path) = &self.save {
            save(path, &fits, &command)?;
        }
        if let Some(dir) = &self.write {
            if !dir.is_dir() {
                return Err(format!(
                    "--write {}: not a directory (the built-in games' weights are in \
                     crates/engine/games)",
                    dir.display()
                ));
            }
            save(dir, &fits, &command)?;
        }
        Ok(())
    }
}

/// Writes each fit as a weights file: into `path` itself for one game, or `path/<game>.weights`
/// when `path` is a directory.
fn save(
    path: &std::path::Path,
    fits: &[(mancala_learn::tune::Fit, String)],
    command: &str,
) -> Result<(), String> {
    if fits.len() > 1 && !path.is_dir() {
        return Err(format!(
            "--save {}: the data holds {} games; give a directory for one file each",
            path.display(),
            fits.len()
        ));
    }
    for (fit, headers) in fits {
        let file = weights_file(fit, headers, command);
        let target = if path.is_dir() {
            path.join(format!("{}.weights", fit.variant))
        } else {
            path.to_path_buf()
        };
        std::fs::write(&target, file.write())
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        println!("{} weights written to {}", fit.variant, target.display());
    }
    Ok(())
}
