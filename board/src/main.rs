//! `mancala-board`: a board in the browser that plays `mancala-engine` through its protocol.
//!
//! It serves one page on 127.0.0.1 and, for each board the page opens, starts an engine process
//! and passes lines between the two: the page's commands (checked: only those a board needs, one
//! line at a time) to the engine's stdin, and everything the engine prints to the page as it
//! comes (a WebSocket). It knows no rules: the engine is the referee, exactly as for any
//! GUI. `mancala-board --help` lists the options.

mod boards;
mod commands;
mod gate;
mod server;

use std::path::PathBuf;

use clap::Parser;
use std::process::ExitCode;

/// What the command line asked for.
#[derive(Parser)]
#[command(
    name = "mancala-board",
    version,
    about = "A board in the browser that plays mancala-engine through its protocol",
    after_help = "Open the address it prints in a browser. Only pages it serves itself may use it: \
                  requests with another Host or Origin are refused."
)]
pub struct Settings {
    /// The port on 127.0.0.1 to serve the page on (0: any free port)
    #[arg(long, default_value_t = 8600)]
    pub port: u16,
    /// The engine to start for each board [default: mancala-engine beside this program]
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// How many boards (engine processes) may be open at once
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub max_engines: u16,
    /// A game file (the engine's RULES.md, "Games as data") whose game the boards offer beside
    /// the built-in ones; each engine is started with --game FILE. May be repeated.
    #[arg(long = "game", value_name = "FILE")]
    pub games: Vec<PathBuf>,
}

impl Settings {
    /// The engine each board starts: its program, with a `--game` for every game file.
    pub fn engine_command(&self) -> boards::EngineCommand {
        boards::EngineCommand {
            program: self.engine_path(),
            args: self
                .games
                .iter()
                .flat_map(|file| ["--game".to_string(), file.display().to_string()])
                .collect(),
        }
    }

    /// The engine to start: the one named, or the one beside this program.
    pub fn engine_path(&self) -> PathBuf {
        self.engine.clone().unwrap_or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|exe| exe.parent().map(|dir| dir.join("mancala-engine")))
                .unwrap_or_else(|| PathBuf::from("mancala-engine"))
        })
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let mut settings = Settings::parse();
    // The board checks the page's `variant` lines by the rules library: the files' games are
    // registered here too, and the engines are given absolute paths.
    for file in &mut settings.games {
        let loaded = std::fs::read_to_string(&*file)
            .map_err(|e| e.to_string())
            .and_then(|text| mancala_rules::definition::register(&text).map_err(|e| e.to_string()))
            .and_then(|_| std::fs::canonicalize(&*file).map_err(|e| e.to_string()));
        match loaded {
            Ok(absolute) => *file = absolute,
            Err(e) => {
                eprintln!("mancala-board: --game {}: {e}", file.display());
                return ExitCode::from(2);
            }
        }
    }
    let engine = settings.engine_path();
    if !engine.is_file() {
        eprintln!(
            "mancala-board: no engine at {} (build it with 'cargo build --release', or give \
             --engine PATH)",
            engine.display()
        );
        return ExitCode::from(2);
    }
    match server::serve(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mancala-board: {e:#}");
            ExitCode::FAILURE
        }
    }
}
