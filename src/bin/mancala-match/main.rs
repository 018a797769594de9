//! `mancala-match`: a rules-aware match runner for engines that speak the mancala-engine
//! protocol. `mancala-match --help` explains it.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

mod cli;

use anyhow::{Context, bail};
use cli::{Invocation, parse_args};
use mancala_match::config::MatchConfig;
use mancala_match::journal::Journal;
use mancala_match::report::{progress_line, summary_text};
use mancala_match::runner::{check_engines, check_played, load_openings, run_match};
use mancala_match::summary::{Run, Summary, merge};
use mancala_platform::signals;

fn main() -> ExitCode {
    env_logger::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match parse_args(&args) {
        Ok(Invocation::Run(config)) => run(&config),
        Ok(Invocation::Merge { inputs, json }) => merge_summaries(&inputs, json.as_ref()),
        Ok(Invocation::Print(text)) => {
            print!("{text}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("mancala-match: {e}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mancala-match: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(config: &MatchConfig) -> anyhow::Result<()> {
    let openings = load_openings(config).map_err(anyhow::Error::msg)?;
    let names = check_engines(config).map_err(anyhow::Error::msg)?;
    let (mut journal, played) = match &config.journal {
        Some(path) => {
            let (journal, played) =
                Journal::open(path, &Run::of(config, &names)).map_err(anyhow::Error::msg)?;
            check_played(config, &played)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            (Some(journal), played)
        }
        None => (None, Vec::new()),
    };
    if !played.is_empty() {
        eprintln!(
            "mancala-match: going on from the journal: {} games played before",
            played.len()
        );
    }
    // A run that goes on adds its games to the records of the games played before.
    let mut records = match &config.records {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(!played.is_empty())
                .truncate(played.is_empty())
                .open(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        ),
        None => None,
    };
    signals::stop_on_signals();
    let live = std::io::stdout().is_terminal();
    let mut record_error = None;
    let mut journal_error = None;
    let stop = signals::flag();
    let state = run_match(
        config,
        &names,
        &openings,
        &played,
        stop,
        &mut |record, game, state| {
            if let Some(journal) = journal.as_mut()
                && let Err(e) = journal.append(game)
            {
                journal_error.get_or_insert(e);
            }
            let line = progress_line(record, state);
            let mut out = std::io::stdout().lock();
            let _ = if live {
                write!(out, "\r\x1b[2K{line}")
            } else {
                writeln!(out, "{line}")
            };
            let _ = out.flush();
            if let Some(file) = records.as_mut()
                && let Err(e) = file.write_all(record.to_text().as_bytes())
            {
                record_error.get_or_insert(e);
            }
        },
    );
    if live {
        println!();
    }
    let summary = Summary::of(config, &state);
    print!("{}", summary_text(&summary));
    if let Some(e) = record_error {
        bail!("writing the game records failed: {e}");
    }
    if let Some(e) = journal_error {
        bail!("writing the journal failed: {e}");
    }
    if let Some(path) = &config.json {
        std::fs::write(path, summary.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(signal) = signals::received() {
        let how = if config.journal.is_some() {
            "run the same command to go on from the journal"
        } else {
            "without --journal, a run starts again from nothing"
        };
        eprintln!(
            "mancala-match: stopped by {signal} after {} of {} games (the games in play are \
             dropped); {how}",
            state.games_done, state.games_total
        );
        std::process::exit(signals::exit_status().unwrap_or(1).into());
    }
    Ok(())
}

fn merge_summaries(inputs: &[PathBuf], json: Option<&PathBuf>) -> anyhow::Result<()> {
    let mut summaries = Vec::new();
    for path in inputs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let summary = Summary::from_json(&text)
            .map_err(anyhow::Error::msg)
            .with_context(|| path.display().to_string())?;
        summaries.push((path.clone(), summary));
    }
    let merged = merge(&summaries).map_err(anyhow::Error::msg)?;
    print!("{}", summary_text(&merged));
    if let Some(path) = json {
        std::fs::write(path, merged.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    // Some shards only: the report is written, and the exit status says it is not the run's.
    if let Some((missing, count)) = &merged.shards_missing {
        let missing: Vec<String> = missing.iter().map(u32::to_string).collect();
        anyhow::bail!(
            "a partial merge: shard(s) {} of {count} missing; merge them all for the run's result",
            missing.join(", ")
        );
    }
    Ok(())
}
