//! `mancala-engine train`: trains a game's network on top of its linear evaluation and reports
//! the error before and after.

use std::path::PathBuf;

use clap::Args;
use mancala_learn::train::{Settings, train, train_samples};
use mancala_learn::tune::{HOLD_OUT_EVERY, Target, read_files};

/// Train a game's network (a hidden layer over the pit tables) on training data.
///
/// The network learns what the game's linear evaluation (terms and pit tables) misses: the
/// target is L x the final margin + (1 - L) x the search's score, or the exact value where known,
/// as `tune`'s. Every tenth game is held out; the epoch with the lowest held-out error is kept.
#[derive(Args, Debug)]
#[command(
    after_help = "Ctrl-C, SIGTERM or SIGHUP stops training after the epoch under way: \
the best network of the epochs run is reported and written (--save) as at the end, its header's \
command saying after which epoch it stopped (exit status 130 for SIGINT, 143 for SIGTERM); a \
second signal ends it at once."
)]
pub struct Train {
    /// datagen files, all of one game.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The share L of the final margin in the target (0.5 unless given).
    #[arg(long, value_name = "L", default_value = "0.5")]
    lambda: String,
    /// Hidden units (a multiple of 8, from 8 to 64).
    #[arg(long, default_value_t = 32)]
    hidden: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam's step size at the first epoch (it falls linearly to a tenth at the last).
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the network file here (the engine loads it with option NetworkFile or --network;
    /// crates/engine/games/<game>.net is the one compiled in).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

impl Train {
    pub fn run(self) -> Result<(), String> {
        let command = std::iter::once("mancala-engine".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" ");
        let (game, lambda) = super::tune::lambda(&self.lambda)?;
        if game.is_some() {
            return Err(
                "--lambda takes a number from 0 to 1 here (the data is of one game)".into(),
            );
        }
        if self.batch == 0 || self.epochs == 0 {
            return Err("--batch and --epochs must be at least 1".into());
        }
        let mut games = read_files(&self.files)?;
        if games.len() != 1 {
            let names: Vec<String> = games.iter().map(|g| g.variant.to_string()).collect();
            return Err(format!(
                "the files hold {} games ({}): a network is of one game",
                games.len(),
                names.join(", ")
            ));
        }
        let game = games.remove(0);
        let variant = game.variant;
        let samples = train_samples(&game.records, Target { lambda });
        let settings = Settings {
            hidden: self.hidden,
            epochs: self.epochs,
            batch: self.batch,
            learning_rate: self.rate,
            seed: self.seed,
        };
        let data = game.description();
        super::interrupt::stop_on_signals();
        let stop = super::interrupt::flag();
        super::interrupt::say_on_stop("the epoch under way is being finished");
        let trained = train(
            variant,
            &samples,
            settings,
            &data,
            &command,
            stop,
            |epoch| {
                eprintln!(
                    "epoch {:>3}: RMSE in counters, training {:.3}, held out {:.3}",
                    epoch.number, epoch.train, epoch.held_out
                );
            },
        )
        .map_err(|e| format!("{variant}: {e}"))?;
        println!(
            "{variant}: {} positions to train on, {} held out (every {HOLD_OUT_EVERY}th game); \
             {} hidden units, epoch {} kept",
            trained.train, trained.held_out, self.hidden, trained.best_epoch
        );
        println!(
            "  RMSE in counters (linear evaluation -> with the network): training {:.3} -> {:.3}, \
             held out {:.3} -> {:.3}",
            trained.rmse_train.0,
            trained.rmse_train.1,
            trained.rmse_held_out.0,
            trained.rmse_held_out.1
        );
        if let Some(path) = &self.save {
            std::fs::write(path, trained.network.write())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("{variant} network written to {}", path.display());
        }
        if let Some(signal) = super::interrupt::received() {
            return Err(format!(
                "stopped by {signal} after epoch {} of {}: the network kept is the best of \
                 those{}",
                trained.epochs,
                self.epochs,
                if self.save.is_some() {
                    ", written as asked"
                } else {
                    " (not written: no --save)"
                }
            ));
        }
        Ok(())
    }
}
