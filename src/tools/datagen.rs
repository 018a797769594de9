//! `mancala-engine datagen`: training data from self-play, with a progress bar.

use mancala_engine::engine::options::MAX_THREADS;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use mancala_learn::datagen::{Settings, generate};
use mancala_rules::Variant;

/// Training data from self-play.
///
/// Every position with a choice of move is written with a search's score, the game's final
/// margin and the exact value where the tables reach (the format is documented in
/// crates/learn/src/data.rs). A seed reproduces a set exactly, whatever the threads.
#[derive(Args, Debug)]
#[command(
    after_help = "Ctrl-C, SIGTERM or SIGHUP stops a run: no game is begun, the games in \
play are finished, and the file holds the records of the games played, every line whole (exit \
status 130 for SIGINT, 143 for SIGTERM); a second signal ends it at once."
)]
pub struct Datagen {
    /// The game (any with a choice of move: mangala-ii, al-manqala, anywoli, kalah, oware, or one loaded with --game).
    #[arg(value_parser = |text: &str| super::game_with_choice(text, "has nothing to learn"))]
    variant: Variant,
    /// How many games to play.
    #[arg(value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// The output file ('-' writes stdout).
    file: String,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes per move of the self-play searches.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// Random quiet moves before the engines play.
    #[arg(long = "random-plies", value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=60))]
    random_plies: u32,
    /// Keep only openings a search scores within CP centi-counters of even (drawn again up to
    /// 200 times, then the closest).
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    balanced: Option<u32>,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
    /// Endgame tables, for exact values.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
}

impl Datagen {
    pub fn run(self) -> Result<(), String> {
        let variant = self.variant;
        let games = self.games;
        let settings = Settings {
            variant,
            games,
            seed: self.seed,
            nodes: self.nodes,
            random_plies: self.random_plies,
            balanced: self.balanced.map(|cp| cp as i32),
            threads: self.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            ),
        };
        let tables = self
            .tablebases
            .as_deref()
            .map(super::load_tablebases)
            .transpose()?
            .map(Arc::new);
        let file = &self.file;
        let mut out: Box<dyn Write + Send> = if file == "-" {
            Box::new(std::io::stdout())
        } else {
            Box::new(std::io::BufWriter::new(
                std::fs::File::create(file).map_err(|e| format!("cannot create {file}: {e}"))?,
            ))
        };
        let bar = ProgressBar::new(games).with_style(
            ProgressStyle::with_template(
                "{prefix} [{bar:40}] {pos}/{len} games, {msg} ({elapsed}, about {eta} left)",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(format!("datagen {variant}"));
        let started = Instant::now();
        // Off a terminal the bar is hidden: a plain line at every tenth of the games instead.
        let tenths_said = AtomicU64::new(0);
        super::interrupt::stop_on_signals();
        super::interrupt::say_on_stop("no game is begun, the games in play are being finished");
        let summary = generate(
            &settings,
            tables,
            &mut out,
            super::interrupt::flag(),
            &|summary| {
                bar.set_position(summary.games);
                bar.set_message(format!("{} positions", summary.positions));
                let tenths = summary.games * 10 / games.max(1);
                if bar.is_hidden() && tenths_said.fetch_max(tenths, Ordering::Relaxed) < tenths {
                    eprintln!(
                        "datagen {variant}: {}/{games} games, {} positions, {:.0} s",
                        summary.games,
                        summary.positions,
                        started.elapsed().as_secs_f64()
                    );
                }
            },
        )
        .map_err(|e| format!("cannot write {file}: {e}"))?;
        bar.finish_and_clear();
        if let Some(signal) = super::interrupt::received() {
            let written = if file == "-" {
                "the output".to_string()
            } else {
                file.clone()
            };
            return Err(format!(
                "stopped by {signal} after {} of {games} games: {written} holds their {} \
                 positions, every line whole (the records that `datagen {variant} {}` with the \
                 same options writes)",
                summary.games, summary.positions, summary.games
            ));
        }
        let [south, draws, north] = summary.results;
        eprintln!(
            "datagen {variant}: {} games (South won {south}, drawn {draws}, North won {north}), \
             {} positions, {} with exact values, in {:.1} s, written to {file}",
            summary.games,
            summary.positions,
            summary.exact,
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }
}
