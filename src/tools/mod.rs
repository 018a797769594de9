//! The command line of `mancala-engine`: with no argument the protocol daemon, otherwise one of
//! the tools that run once and exit, one file each (clap, derived): `bench`, `tablebase`,
//! `solve`, `solve-split`, `solve-job`, `solve-merge`, `datagen`, `openings`, `tune`, `train`, `import-mancalagames`.

mod bench;
mod datagen;
mod mancalagames;
mod openings;
mod solve;
mod solve_split;
mod tablebase;
mod train;
mod tune;

use mancala_platform::signals as interrupt;

use std::ffi::OsString;
use std::io::{self, BufReader, IsTerminal};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mancala_engine::daemon::reply::{ENGINE_NAME, ENGINE_VERSION};
use mancala_rules::Variant;

/// A rules engine and protocol daemon for two-row mancala games.
///
/// Without arguments it runs the protocol on stdin/stdout (protocol.md; 'quit' or the end of
/// input ends it); with a tool's name, it runs that tool and exits.
#[derive(Parser, Debug)]
#[command(
    name = "mancala-engine",
    version = ENGINE_VERSION,
    after_help = "The rules are in RULES.md, the protocol in protocol.md; 'mancala-engine TOOL \
                  --help' explains a tool."
)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    /// Load the game a game file defines (see RULES.md, "Games as data"), before the daemon or
    /// the tool starts: its name is then a game like the built-in ones. May be repeated.
    #[arg(long = "game", value_name = "FILE", global = true)]
    game_files: Vec<std::path::PathBuf>,
    /// Load the evaluation's weights of a game without weights compiled in, from a file that
    /// `tune --save` wrote. May be repeated.
    #[arg(long = "weights", value_name = "FILE", global = true)]
    weights_files: Vec<std::path::PathBuf>,
    /// Load a game's network (a hidden layer over the pit tables), from a file that `train
    /// --save` wrote, replacing the one compiled in. May be repeated.
    #[arg(long = "network", value_name = "FILE", global = true)]
    network_files: Vec<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    Bench(bench::Bench),
    Tablebase(tablebase::Tablebase),
    Solve(solve::Solve),
    #[command(name = "solve-split")]
    SolveSplit(solve_split::SolveSplit),
    #[command(name = "solve-job")]
    SolveJob(solve_split::SolveJob),
    #[command(name = "solve-merge")]
    SolveMerge(solve_split::SolveMerge),
    Datagen(datagen::Datagen),
    Openings(openings::Openings),
    Tune(tune::Tune),
    Train(train::Train),
    #[command(name = "import-mancalagames")]
    ImportMancalaGames(mancalagames::ImportMancalaGames),
}

/// Runs the command line `args` (the program's name first).
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
    // The games of `--game` are registered first, so that the arguments can name them.
    for path in game_files(&args) {
        if let Err(message) = mancala_engine::engine::load_game(&path) {
            eprintln!("{ENGINE_NAME}: {message}");
            return ExitCode::from(2);
        }
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error, &args),
    };
    for path in &cli.weights_files {
        if let Err(message) = mancala_engine::eval::load_weights(path) {
            eprintln!("{ENGINE_NAME}: {message}");
            return ExitCode::from(2);
        }
    }
    for path in &cli.network_files {
        if let Err(message) = mancala_engine::eval::load_network(path) {
            eprintln!("{ENGINE_NAME}: {message}");
            return ExitCode::from(2);
        }
    }
    if cli.tool.is_some() {
        interrupt::quiet_on_closed_pipe();
    }
    let result = match cli.tool {
        None => {
            // A person at a terminal is told what this is and how to go on; a program reading
            // the replies gets protocol lines only (stderr, and only for a terminal).
            if io::stdin().is_terminal() {
                eprintln!(
                    "{ENGINE_NAME} {ENGINE_VERSION}: type 'help' for the commands, 'quit' to leave"
                );
            }
            // `--game FILE` acts as `setoption name GameFile value FILE` does: the daemon
            // starts on the (last) game loaded.
            let mut engine = mancala_engine::engine::Engine::new();
            for path in &cli.game_files {
                if let Err(error) = engine.load_game_file(&path.to_string_lossy()) {
                    eprintln!("{ENGINE_NAME}: {error}");
                    return ExitCode::from(2);
                }
            }
            mancala_engine::daemon::run_with(engine, BufReader::new(io::stdin()), io::stdout());
            Ok(())
        }
        Some(Tool::Bench(tool)) => tool.run(),
        Some(Tool::Tablebase(tool)) => tool.run(),
        Some(Tool::Solve(tool)) => tool.run(),
        Some(Tool::SolveSplit(tool)) => tool.run(),
        Some(Tool::SolveJob(tool)) => tool.run(),
        Some(Tool::SolveMerge(tool)) => tool.run(),
        Some(Tool::Datagen(tool)) => tool.run(),
        Some(Tool::Openings(tool)) => tool.run(),
        Some(Tool::Tune(tool)) => tool.run(),
        Some(Tool::Train(tool)) => tool.run(),
        Some(Tool::ImportMancalaGames(tool)) => tool.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{ENGINE_NAME}: {message}");
            // A tool stopped by a signal ends with the status of a process that signal ended.
            ExitCode::from(interrupt::exit_status().unwrap_or(2))
        }
    }
}

/// `--help` and `--version` print their text; a wrong argument gets one line saying what is
/// wrong and one with the usage of the tool and where its help is, not the whole usage.
fn usage_error(error: &clap::Error, args: &[OsString]) -> ExitCode {
    use clap::CommandFactory;
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    let rendered = error.render().to_string();
    // The message is the first paragraph of clap's (a list of missing arguments follows a colon).
    let what = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let what = what.trim_start_matches("error: ");
    let mut command = Cli::command();
    let tool = args
        .get(1)
        .and_then(|word| word.to_str())
        .and_then(|word| command.find_subcommand_mut(word))
        .map(|tool| (tool.get_name().to_string(), tool.render_usage().to_string()));
    let (usage, help) = match tool {
        Some((name, usage)) => (
            format!(
                "{ENGINE_NAME} {}",
                usage.trim().trim_start_matches("Usage: ")
            ),
            format!("{ENGINE_NAME} {name} --help"),
        ),
        None => (
            command.render_usage().to_string(),
            format!("{ENGINE_NAME} --help"),
        ),
    };
    let usage = usage.trim().trim_start_matches("Usage: ");
    eprintln!("{ENGINE_NAME}: {what}");
    eprintln!("usage: {usage} (more: {help})");
    ExitCode::from(2)
}

/// The files of the `--game FILE` (or `--game=FILE`) arguments, in order.
fn game_files(args: &[OsString]) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        let Some(text) = word.to_str() else { continue };
        if text == "--game" {
            if let Some(file) = words.next() {
                files.push(std::path::PathBuf::from(file));
            }
        } else if let Some(file) = text.strip_prefix("--game=") {
            files.push(std::path::PathBuf::from(file));
        }
    }
    files
}

/// A game name, for the tools' arguments.
pub fn variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// A game that has a choice of move, or the error that says what `tool` cannot do with one
/// whose moves are all forced (`go` and `query side` play such a game out).
pub fn game_with_choice(text: &str, cannot: &str) -> Result<Variant, String> {
    let variant = variant(text)?;
    if variant.rules().has_forced_moves() {
        return Err(format!(
            "{variant} {cannot}: its moves are forced ('go' and 'query side' play it out)"
        ));
    }
    Ok(variant)
}

/// The tablebases of directory `path`, read into memory where they fit (the tools probe them
/// hard, for long) and mapped where they do not, with a warning for each file left out.
pub fn load_tablebases(path: &std::path::Path) -> Result<mancala_tablebase::Tablebases, String> {
    let (loaded, mapped) =
        mancala_tablebase::Tablebases::load_for_solving(path).map_err(|e| e.to_string())?;
    if mapped {
        eprintln!(
            "{ENGINE_NAME}: the tables in {} ({} MiB) do not fit in 3/4 of the memory \
             available: mapped, each page read from disk as probes reach it",
            path.display(),
            mancala_tablebase::table_bytes(path) >> 20
        );
    }
    for refused in &loaded.refused {
        eprintln!("{ENGINE_NAME}: {refused} (left out)");
    }
    Ok(loaded.tablebases)
}

/// `--threads`, or every core when it is not given.
pub fn threads_or_every_core(threads: Option<u16>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(2, |n| n.get()),
        usize::from,
    )
}

/// `--hash` in MiB for `tables` solver tables of that size, cut to what this process may use
/// (its control group's limit included), with a note on standard error when it is cut. The
/// tables grow as a solve fills them, so one bigger than the memory would not fail at the start
/// but be killed when it got there, perhaps hours in.
pub fn solver_hash_within_memory(asked: u64, tables: u64) -> usize {
    match mancala_platform::memory::available_mib() {
        Some(available) if asked * tables > available => {
            let fit = 1u64 << (available / tables).max(1).ilog2();
            eprintln!(
                "{ENGINE_NAME}: --hash {asked} is more than the {available} MiB this process may use{}: the solver's table grows to {fit} MiB at most",
                if tables > 1 {
                    " for its two tables"
                } else {
                    ""
                }
            );
            fit as usize
        }
        _ => asked as usize,
    }
}
