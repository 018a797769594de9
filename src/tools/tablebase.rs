//! `mancala-engine tablebase`: builds a game's endgame tables, with a progress bar per layer.

use mancala_engine::engine::options::MAX_THREADS;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use mancala_rules::Variant;
use mancala_tablebase::generate::{
    BuildError, Event, LayerPart, build_part, build_within, merge_parts, part_path,
};

/// Build a game's endgame tables, up to MAX counters on the board.
///
/// The tables hold the solved value of every position with at most MAX counters on the board,
/// both sides to move. Layers already in the directory are reused (a larger MAX extends them; a
/// stopped build resumes).
#[derive(Args, Debug)]
#[command(
    after_help = "Example, in seconds: mancala-engine tablebase mangala-ii 12 tables\n\n\
Ctrl-C, SIGTERM or SIGHUP stops a build: the layers finished are kept, the one in hand is \
dropped, and the same command goes on from there (exit status 130 for SIGINT, 143 for \
SIGTERM); a second signal ends it at once."
)]
pub struct Tablebase {
    /// The game (mangala-ii, al-manqala, anywoli, kalah, or one loaded with --game whose tables are possible (protocol.md, "Tablebases and exact values"); mangala-iv has no choice of move and oware's endless play depends on history).
    #[arg(value_parser = |text: &str| super::game_with_choice(text, "has no tables"))]
    variant: Variant,
    /// The most counters on the board.
    #[arg(value_name = "MAX")]
    max: u32,
    /// Where the tables go (created if missing).
    directory: PathBuf,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
    /// MiB a layer's work list (its moves turned round, about 14 bytes a position) may take
    /// (default: 3/4 of the memory available when the layer starts). A layer whose list would
    /// not fit is built by passes over the whole layer: the same values, about ten times slower.
    #[arg(long, value_name = "MIB")]
    memory: Option<u64>,
    /// Build only part J of K of the layer of MAX counters (numbered as a job array numbers
    /// its tasks), every layer below it being in the directory already; `--merge K` then joins
    /// the parts. Only a game that sows into its stores (kalah) splits: a layer's row totals
    /// part it into independent classes.
    #[arg(long, value_name = "J/K", value_parser = super::solve_split::parse_shard, conflicts_with = "merge")]
    part: Option<(usize, usize)>,
    /// Join the K parts of the layer of MAX counters (built by `--part J/K`) into its layer
    /// file, and remove them.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=65536))]
    merge: Option<u32>,
}

impl Tablebase {
    pub fn run(self) -> Result<(), String> {
        let Tablebase {
            variant,
            max,
            directory: dir,
            threads,
            memory,
            part,
            merge,
        } = self;
        if !mancala_tablebase::has_tables(variant) {
            return Err(mancala_tablebase::generate::BuildError::NoTables(variant).to_string());
        }
        let total = variant.rules().total();
        if max > total {
            return Err(format!(
                "{variant} has {total} counters: MAX is at most {total}"
            ));
        }
        if let Some(count) = merge {
            let path = merge_parts(variant, max, count, &dir).map_err(|e| e.to_string())?;
            println!(
                "{variant}: {count} parts of layer {max} merged into {}",
                path.display()
            );
            return Ok(());
        }
        // The game's settings may set its largest layer (crates/engine/games/<game>.toml).
        let limit = mancala_engine::eval::settings(variant).table_max_counters;
        super::interrupt::stop_on_signals();
        let threads = super::threads_or_every_core(threads);
        let plural = if threads == 1 { "" } else { "s" };
        match part {
            Some((number, count)) => eprintln!(
                "building part {number} of {count} of {variant}'s layer {max} in {} ({threads} \
                 thread{plural})",
                dir.display()
            ),
            None => eprintln!(
                "building {variant} tables up to {max} counters in {} ({threads} thread{plural})",
                dir.display()
            ),
        }
        let bars = MultiProgress::new();
        let style =
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {percent:>3}% {msg} (eta {eta})")
                .expect("a valid template")
                .progress_chars("=> ");
        let current: Mutex<Option<ProgressBar>> = Mutex::new(None);
        // Layer lines go above the bars on a terminal, and plainly to stderr otherwise.
        let say = |line: String| {
            if bars.is_hidden() {
                eprintln!("{line}");
            } else {
                bars.println(line).ok();
            }
        };
        let stop = super::interrupt::flag();
        // The layer in hand, for the line a stopped build prints.
        let building = AtomicU32::new(u32::MAX);
        let progress = |event: Event| {
            let mut current = current.lock().unwrap_or_else(|p| p.into_inner());
            match event {
                Event::Reused {
                    counters,
                    positions,
                } => say(format!(
                    "layer {counters:>2}: {positions} positions, already built"
                )),
                Event::Rebuilding { counters } => say(format!(
                    "layer {counters:>2}: the file there is refused (see the warning); building \
                     it again"
                )),
                Event::Started {
                    counters,
                    positions,
                    expected_work,
                } => {
                    // One unit per look at a position: the bar grows if the layer takes more
                    // than the one before, for as many positions.
                    building.store(counters, Ordering::Relaxed);
                    let bar = bars.add(ProgressBar::new(expected_work.max(1)));
                    bar.set_style(style.clone());
                    bar.set_prefix(format!("layer {counters}"));
                    bar.set_message(format!("{positions} positions"));
                    *current = Some(bar);
                }
                Event::Progress { done, .. } => {
                    if let Some(bar) = current.as_ref() {
                        if done > bar.length().unwrap_or(0) {
                            bar.set_length(done * 11 / 10);
                        }
                        bar.set_position(done);
                    }
                }
                Event::Pass { pass, changed, .. } => {
                    log::debug!("pass {pass}: {changed} changed");
                    if let Some(bar) = current.as_ref() {
                        bar.set_message(format!("pass {pass}: {changed} changed"));
                    }
                }
                Event::Finished {
                    counters,
                    positions,
                    passes,
                    work,
                    seconds,
                } => {
                    if let Some(bar) = current.take() {
                        bar.finish_and_clear();
                    }
                    say(format!(
                        "layer {counters:>2}: {positions} positions in {passes} {}, {:.1} \
                         looks a position, {seconds:.1} s",
                        if passes == 1 { "pass" } else { "passes" },
                        work as f64 / positions.max(1) as f64
                    ));
                }
            }
        };
        if let Some((number, count)) = part {
            let part = LayerPart {
                number: number as u32,
                count: count as u32,
            };
            let report = build_part(variant, max, limit, part, &dir, threads, stop, &progress)
                .map_err(|e| match e {
                    BuildError::Stopped => stopped(
                        &current,
                        format!(
                            "part {number} of {count} of layer {max} not written; the same \
                             command builds it again"
                        ),
                    ),
                    e => e.to_string(),
                })?;
            println!(
                "{variant}: part {number} of {count} of layer {max} in {}, {:.1} MiB, {:.1} s, \
                 peak memory {} MiB",
                part_path(&dir, variant, max, part).display(),
                report.bytes as f64 / (1 << 20) as f64,
                report.seconds,
                mancala_platform::memory::peak_mib().map_or("unknown".into(), |m| m.to_string())
            );
            return Ok(());
        }
        let memory = memory.map(|mib| mib.saturating_mul(1 << 20));
        let report = build_within(variant, max, limit, &dir, threads, memory, stop, &progress)
            .map_err(|e| match e {
                BuildError::Stopped => {
                    let layer = building.load(Ordering::Relaxed);
                    let kept = match layer {
                        0 | u32::MAX => "no layer is finished".to_string(),
                        1 => "layer 0 is kept".to_string(),
                        _ => format!("layers 0 to {} are kept", layer - 1),
                    };
                    let dropped = if layer == u32::MAX {
                        String::new()
                    } else {
                        format!("layer {layer} dropped, ")
                    };
                    stopped(
                        &current,
                        format!(
                            "{dropped}{kept} in {}; the same command goes on from there",
                            dir.display()
                        ),
                    )
                }
                e => e.to_string(),
            })?;
        println!(
            "{variant} tables up to {max} counters in {}: {} layers built, {} reused, {:.1} MiB \
             on disk, {:.1} s, table memory at most {:.1} MiB, peak memory {} MiB",
            dir.display(),
            report.built.len(),
            report.reused.len(),
            report.bytes as f64 / (1 << 20) as f64,
            report.seconds,
            report.peak_table_bytes as f64 / (1 << 20) as f64,
            mancala_platform::memory::peak_mib().map_or("unknown".into(), |m| m.to_string())
        );
        Ok(())
    }
}

/// The message of a build stopped by a signal (the generator returns `Stopped` for nothing
/// else), once the bar of the layer in hand is cleared from the terminal.
fn stopped(bar: &Mutex<Option<ProgressBar>>, what: String) -> String {
    if let Some(bar) = bar.lock().unwrap_or_else(|p| p.into_inner()).take() {
        bar.abandon();
    }
    let by = super::interrupt::received().unwrap_or("a signal");
    format!("stopped by {by}: {what}")
}
