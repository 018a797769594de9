//! `mancala-match`: a rules-aware match runner for engines that speak the mancala-engine
//! protocol. `mancala-match --help` explains it.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use mancala_engine::arena::config::{HELP, Invocation, parse_args};
use mancala_engine::arena::report::{progress_line, summary_json, summary_text};
use mancala_engine::arena::runner::{check_engines, load_openings, run_match};

fn main() -> ExitCode {
    env_logger::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(Invocation::Run(config)) => config,
        Ok(Invocation::Help) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Invocation::Version) => {
            println!("mancala-match {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("mancala-match: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mancala-match: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(config: &mancala_engine::arena::config::MatchConfig) -> anyhow::Result<()> {
    let openings = load_openings(config).map_err(anyhow::Error::msg)?;
    let names = check_engines(config).map_err(anyhow::Error::msg)?;
    let mut records = match &config.records {
        Some(path) => Some(
            File::create(path)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let live = std::io::stdout().is_terminal();
    let mut record_error = None;
    let state = run_match(config, &names, &openings, &mut |record, state| {
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
    });
    if live {
        println!();
    }
    print!("{}", summary_text(config, &state));
    if let Some(e) = record_error {
        anyhow::bail!("writing the game records failed: {e}");
    }
    if let Some(path) = &config.json {
        std::fs::write(path, summary_json(config, &state))
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
