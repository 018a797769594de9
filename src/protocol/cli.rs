//! The command line of `mancala-engine`: the protocol daemon (no arguments) and the jobs that run
//! once and exit: `bench`, `tablebase` and `solve`.

use std::io::{self, BufReader, Cursor};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use super::reply::{ENGINE_NAME, ENGINE_VERSION};
use crate::rules::{LastFourRule, Position, Variant};
use crate::search::solver::{SolveLimits, Solver, SolverTable};
use crate::tablebase::Tablebases;
use crate::tablebase::generate::{Event, build};

pub const USAGE: &str = "\
mancala-engine: a rules engine and protocol daemon for four two-row mancala games

USAGE:
  mancala-engine                 run the protocol on stdin/stdout (protocol.md); 'quit' ends it
  mancala-engine bench           run the fixed bench search and print its node count
  mancala-engine tablebase <variant> <max counters> <directory> [--threads N]
                                 build the endgame tables of a game (mangala-ii, al-manqala,
                                 anywoli) for every position with at most <max counters> on the
                                 board; layers already in <directory> are reused
  mancala-engine solve <variant> <position string> [--tablebases DIR] [--hash MIB]
                                 prove the solved value of a position (RULES.md) by search,
                                 with the tables of DIR at the leaves
  mancala-engine datagen <variant> <games> <file> [--seed S] [--nodes N] [--random-plies K]
                                 [--balanced CP] [--threads N] [--tablebases DIR]
                                 training data from self-play: every position with a search's
                                 score, the game's final margin and the exact value where the
                                 tables reach (format: src/learn/data.rs; '-' writes stdout);
                                 --balanced keeps only openings a search scores within CP
                                 centi-counters of even
  mancala-engine openings <variant> <count> <file> [--random-plies K] [--balanced CP]
                                 [--nodes N] [--seed S]
                                 random quiet openings (default 4 plies) for mancala-match
                                 --openings, one move prefix a line ('-' writes stdout);
                                 --balanced keeps only those
                                 a search of N nodes (default 20000) scores within CP
                                 centi-counters of even
  mancala-engine tune <file>... [--lambda L] [--lambda VARIANT=L] [--pits | --tapered]
                                 [--write FILE]
                                 fit the evaluation's weights to training data (least squares,
                                 one fit per game of all its files, every tenth game held out)
                                 and report the error before and after;
                                 the target is L x the final margin + (1 - L) x the search's
                                 score (L 0.5 unless given; VARIANT=L for one game's files);
                                 --pits fits a value per count per pit instead of the hand-made
                                 terms, --tapered two such tables (full and empty board, blended
                                 by the counters on the board); --write makes the generated
                                 source file of the weights (games without data keep the
                                 running build's weights)
  mancala-engine --help | --version

The rules are in RULES.md, the protocol in protocol.md.
";

/// Runs the command line `args` (without the program name).
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        None => {
            super::run(BufReader::new(io::stdin()), io::stdout());
            ExitCode::SUCCESS
        }
        Some("bench") if args.len() == 1 => {
            super::run(Cursor::new("bench\n"), io::stdout());
            ExitCode::SUCCESS
        }
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("-V" | "--version") => {
            println!("{ENGINE_NAME} {ENGINE_VERSION}");
            ExitCode::SUCCESS
        }
        Some("tablebase") => report(tablebase(&args[1..])),
        Some("solve") => report(solve(&args[1..])),
        Some("datagen") => report(datagen(&args[1..])),
        Some("openings") => report(openings(&args[1..])),
        Some("tune") => report(tune(args)),
        Some(other) => {
            eprintln!("mancala-engine: unknown argument '{other}'\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mancala-engine: {message}");
            ExitCode::from(2)
        }
    }
}

fn parse_variant(text: Option<&String>) -> Result<Variant, String> {
    text.ok_or("the variant is missing (see --help)")?
        .parse::<Variant>()
        .map_err(|e| e.to_string())
}

/// `--name value` options after the positional arguments.
fn options<'a>(args: &'a [String], known: &[&str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut found = Vec::new();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if !known.contains(&flag.as_str()) {
            return Err(format!("unexpected '{flag}' (see --help)"));
        }
        let value = rest.next().ok_or(format!("{flag} needs a value"))?;
        found.push((flag.as_str(), value.as_str()));
    }
    Ok(found)
}

fn number(flag: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or(format!(
            "{flag} takes a number from {min} to {max}, not '{value}'"
        ))
}

/// The kernel's count of this process's peak resident memory, in MiB.
fn peak_memory_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

fn tablebase(args: &[String]) -> Result<(), String> {
    let variant = parse_variant(args.first())?;
    let max = args
        .get(1)
        .ok_or("the largest number of counters is missing (see --help)")?;
    let max = number("<max counters>", max, 0, variant.rules().total() as u64)? as u32;
    let dir = PathBuf::from(args.get(2).ok_or("the directory is missing (see --help)")?);
    let mut threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    for (flag, value) in options(&args[3.min(args.len())..], &["--threads"])? {
        if flag == "--threads" {
            threads = number(flag, value, 1, 256)? as usize;
        }
    }
    eprintln!(
        "building {variant} tables up to {max} counters in {} ({threads} threads)",
        dir.display()
    );
    let bars = MultiProgress::new();
    let style =
        ProgressStyle::with_template("{prefix:>12} [{bar:30}] {percent:>3}% {msg} (eta {eta})")
            .expect("a valid template")
            .progress_chars("=> ");
    let current: std::sync::Mutex<Option<ProgressBar>> = std::sync::Mutex::new(None);
    // Layer lines go above the bars on a terminal, and plainly to stderr otherwise.
    let say = |line: String| {
        if bars.is_hidden() {
            eprintln!("{line}");
        } else {
            bars.println(line).ok();
        }
    };
    let stop = AtomicBool::new(false);
    let progress = |event: Event| {
        let mut current = current.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            Event::Reused {
                counters,
                positions,
            } => {
                say(format!(
                    "layer {counters:>2}: {positions} positions, already built"
                ));
            }
            Event::Rebuilding { counters } => {
                say(format!(
                    "layer {counters:>2}: the file there is refused (see the warning); building it again"
                ));
            }
            Event::Started {
                counters,
                positions,
                expected_passes,
            } => {
                // One unit per position and pass: the bar's length grows with each pass beyond
                // the expected number (the previous layer's).
                let bar = bars.add(ProgressBar::new(positions * (expected_passes as u64 + 1)));
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
                seconds,
            } => {
                if let Some(bar) = current.take() {
                    bar.finish_and_clear();
                }
                say(format!(
                    "layer {counters:>2}: {positions} positions in {passes} passes, {seconds:.1} s"
                ));
            }
        }
    };
    let result = build(variant, max, &dir, threads, &stop, &progress);
    let report = result.map_err(|e| e.to_string())?;
    println!(
        "{variant} tables up to {max} counters in {}: {} layers built, {} reused, {:.1} MiB on \
         disk, {:.1} s, table memory at most {:.1} MiB, peak memory {} MiB",
        dir.display(),
        report.built.len(),
        report.reused.len(),
        report.bytes as f64 / (1 << 20) as f64,
        report.seconds,
        report.peak_table_bytes as f64 / (1 << 20) as f64,
        peak_memory_mib().map_or("unknown".into(), |m| m.to_string())
    );
    Ok(())
}

fn solve(args: &[String]) -> Result<(), String> {
    let variant = parse_variant(args.first())?;
    let text = args
        .get(1)
        .ok_or("the position string is missing (see --help)")?;
    let pos = Position::from_position_string(variant, text)
        .map_err(|e| format!("invalid position string '{text}': {e}"))?;
    let mut tablebases = None;
    let mut hash = 256;
    for (flag, value) in options(&args[2.min(args.len())..], &["--tablebases", "--hash"])? {
        match flag {
            "--tablebases" => {
                let loaded =
                    Tablebases::load(std::path::Path::new(value)).map_err(|e| e.to_string())?;
                for refused in &loaded.refused {
                    eprintln!("mancala-engine: {refused} (left out)");
                }
                tablebases = Some(loaded.tablebases);
            }
            _ => hash = number(flag, value, 1, 65536)? as usize,
        }
    }
    if variant == Variant::MangalaIV {
        return Err("mangala-iv has no choice of move: 'query side' and 'go' play it out".into());
    }
    println!(
        "solving {variant} {pos} ({} counters on the board{})",
        pos.on_board(),
        tablebases
            .as_ref()
            .and_then(|tb| tb.max_counters(variant))
            .map_or(String::new(), |m| format!("; tables up to {m}"))
    );
    // Deep lines recurse deeply: the solver runs on a thread with room for them.
    let solved = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let started = Instant::now();
            let mut table = SolverTable::new(hash);
            crate::with_spec!(variant, S => {
                let mut solver = Solver::<S>::new(
                    &mut table,
                    tablebases.as_ref(),
                    LastFourRule::default(),
                    SolveLimits::NONE,
                );
                let value = solver.value_with(&pos, None, &mut |probe| {
                    println!(
                        "  value {} {}: {:.3} s, {} nodes",
                        if probe.at_least { ">=" } else { "<" },
                        probe.bound,
                        started.elapsed().as_secs_f64(),
                        probe.nodes
                    );
                });
                value.and_then(|value| solver.solve_from(&pos, value))
                    .map(|solution| (solution, started.elapsed()))
            })
        })
        .map_err(|e| format!("cannot start the solver: {e}"))?
        .join()
        .map_err(|_| "the solver failed".to_string())?;
    let (solution, elapsed) = solved.map_err(|_| "the solver gave up".to_string())?;
    println!(
        "value {} ({} to move ends {} counters {})",
        solution.value,
        pos.side_to_move().name(),
        solution.value.abs(),
        if solution.value >= 0 {
            "ahead"
        } else {
            "behind"
        }
    );
    println!(
        "best move {}",
        solution
            .best
            .map_or("(none: the game is over)".into(), |m| m.to_string())
    );
    let line: Vec<String> = solution.pv.iter().map(ToString::to_string).collect();
    println!(
        "line {}{}",
        line.join(" "),
        if solution.pv_ends_game {
            " (end)"
        } else {
            " (cycles)"
        }
    );
    let seconds = elapsed.as_secs_f64().max(1e-9);
    println!(
        "nodes {}, time {:.3} s, {:.0} nodes/s, tablebase hits {}",
        solution.nodes,
        seconds,
        solution.nodes as f64 / seconds,
        solution.tb_hits
    );
    Ok(())
}

fn datagen(args: &[String]) -> Result<(), String> {
    use crate::learn::datagen::{Settings, generate};
    let variant = parse_variant(args.first())?;
    if variant == Variant::MangalaIV {
        return Err("mangala-iv has no choice of move: there is nothing to learn".into());
    }
    let games = number(
        "<games>",
        args.get(1)
            .ok_or("the number of games is missing (see --help)")?,
        1,
        100_000_000,
    )?;
    let file = args
        .get(2)
        .ok_or("the output file is missing (see --help)")?;
    let mut settings = Settings {
        variant,
        games,
        seed: 1,
        nodes: 20_000,
        random_plies: 8,
        balanced: None,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut tables = None;
    let known = [
        "--seed",
        "--nodes",
        "--random-plies",
        "--balanced",
        "--threads",
        "--tablebases",
    ];
    for (flag, value) in options(&args[3.min(args.len())..], &known)? {
        match flag {
            "--seed" => settings.seed = number(flag, value, 0, u64::MAX)?,
            "--nodes" => settings.nodes = number(flag, value, 1, 1_000_000_000)?,
            "--random-plies" => settings.random_plies = number(flag, value, 0, 60)? as u32,
            "--balanced" => settings.balanced = Some(number(flag, value, 0, 10_000)? as i32),
            "--threads" => settings.threads = number(flag, value, 1, 256)? as usize,
            _ => {
                let loaded =
                    Tablebases::load(std::path::Path::new(value)).map_err(|e| e.to_string())?;
                for refused in &loaded.refused {
                    eprintln!("mancala-engine: {refused} (left out)");
                }
                tables = Some(std::sync::Arc::new(loaded.tablebases));
            }
        }
    }
    let mut out: Box<dyn std::io::Write + Send> = if file == "-" {
        Box::new(io::stdout())
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
    let tenths_said = std::sync::atomic::AtomicU64::new(0);
    let summary = generate(&settings, tables, &mut out, &|summary| {
        bar.set_position(summary.games);
        bar.set_message(format!("{} positions", summary.positions));
        let tenths = summary.games * 10 / games.max(1);
        if bar.is_hidden()
            && tenths_said.fetch_max(tenths, std::sync::atomic::Ordering::Relaxed) < tenths
        {
            eprintln!(
                "datagen {variant}: {}/{games} games, {} positions, {:.0} s",
                summary.games,
                summary.positions,
                started.elapsed().as_secs_f64()
            );
        }
    })
    .map_err(|e| format!("cannot write {file}: {e}"))?;
    bar.finish_and_clear();
    let [south, draws, north] = summary.results;
    eprintln!(
        "datagen {variant}: {} games (South won {south}, drawn {draws}, North won {north}), {} \
         positions, {} with exact values, in {:.1} s, written to {file}",
        summary.games,
        summary.positions,
        summary.exact,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Draws in a row that find only openings already written, before `openings` gives up.
const MAX_REPEATS: u32 = 50;

fn openings(args: &[String]) -> Result<(), String> {
    use crate::learn::datagen::{BALANCED_TRIES, choose_opening, search_nodes};
    use crate::rules::Game;
    use crate::search::{SearchOptions, TranspositionTable};
    use std::sync::Arc;
    let variant = parse_variant(args.first())?;
    if variant == Variant::MangalaIV {
        return Err("mangala-iv openings are deals, which mancala-match makes itself".into());
    }
    let count = number(
        "<count>",
        args.get(1)
            .ok_or("the number of openings is missing (see --help)")?,
        1,
        100_000,
    )?;
    let file = args
        .get(2)
        .ok_or("the output file is missing (see --help)")?;
    let (mut plies, mut balanced, mut nodes, mut seed) = (4, None, 20_000, 1);
    let known = ["--random-plies", "--balanced", "--nodes", "--seed"];
    for (flag, value) in options(&args[3.min(args.len())..], &known)? {
        match flag {
            "--random-plies" => plies = number(flag, value, 0, 60)? as u32,
            "--balanced" => balanced = Some(number(flag, value, 0, 10_000)? as i32),
            "--nodes" => nodes = number(flag, value, 1, 1_000_000_000)?,
            _ => seed = number(flag, value, 0, u64::MAX)?,
        }
    }
    let table =
        Arc::new(TranspositionTable::new(16).map_err(|_| "out of memory for a 16 MiB table")?);
    let options = SearchOptions::default();
    let mut think = |game: &Game| search_nodes(game, nodes, &options, &table);
    let mut text = format!(
        "# mancala-engine openings {variant} {count} random-plies={plies} seed={seed}{}\n",
        balanced.map_or(String::new(), |cp| format!(" balanced={cp} nodes={nodes}"))
    );
    // Different numbers can draw the same opening (few are balanced): each is written once.
    let mut written = std::collections::HashSet::new();
    let mut far = 0;
    let (mut index, mut repeats) = (0, 0);
    while (written.len() as u64) < count {
        if repeats >= MAX_REPEATS {
            return Err(format!(
                "only {} different openings found ({MAX_REPEATS} draws in a row gave one already \
                 found): ask for fewer, more --random-plies or a wider --balanced",
                written.len()
            ));
        }
        let (opening, searched) = choose_opening(variant, plies, seed, index, balanced, &mut think);
        index += 1;
        let line = if opening.moves.is_empty() {
            "startpos".to_string()
        } else {
            opening
                .moves
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !written.insert(line.clone()) {
            repeats += 1;
            continue;
        }
        repeats = 0;
        match searched {
            Some((score, outcome)) => {
                let off = balanced.is_some_and(|cp| score.abs() > cp);
                far += off as u64;
                let depth = outcome.depth;
                let note = if off {
                    ", the closest of the draws"
                } else {
                    ""
                };
                text.push_str(&format!(
                    "{line}  # {score} cp for the side to move at depth {depth}{note}\n"
                ));
            }
            None => text.push_str(&format!("{line}\n")),
        }
    }
    if file == "-" {
        print!("{text}");
    } else {
        std::fs::write(file, &text).map_err(|e| format!("cannot write {file}: {e}"))?;
    }
    eprintln!(
        "openings {variant}: {count} written to {file}{}",
        balanced.map_or(String::new(), |cp| match far {
            0 => format!(" (all within {cp} cp)"),
            _ => format!(" ({far} not within {cp} cp after {BALANCED_TRIES} draws: the closest)"),
        })
    );
    Ok(())
}

fn tune(args: &[String]) -> Result<(), String> {
    use crate::learn::data::Record;
    use crate::learn::tune::{Model, Target, current, fit, samples, source};
    let command = format!("mancala-engine {}", args.join(" "));
    let mut files = Vec::new();
    let mut target = Target { lambda: 0.5 };
    // `--lambda VARIANT=L`: that game's own share, over the one for all.
    let mut own_lambda: Vec<(Variant, f64)> = Vec::new();
    let mut write = None;
    let mut model = Model::Terms;
    let mut rest = args[1..].iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--lambda" => {
                let value = rest.next().ok_or("--lambda needs a value")?;
                let (game, share) = match value.split_once('=') {
                    Some((game, share)) => (
                        Some(game.parse::<Variant>().map_err(|e| e.to_string())?),
                        share,
                    ),
                    None => (None, value.as_str()),
                };
                let lambda = share
                    .parse::<f64>()
                    .ok()
                    .filter(|l| (0.0..=1.0).contains(l))
                    .ok_or(format!(
                        "--lambda takes a number from 0 to 1 (or VARIANT=number), not '{value}'"
                    ))?;
                match game {
                    Some(game) => own_lambda.push((game, lambda)),
                    None => target.lambda = lambda,
                }
            }
            "--write" => write = Some(rest.next().ok_or("--write needs a file")?.clone()),
            "--pits" => model = Model::Pits,
            "--tapered" => model = Model::TaperedPits,
            flag if flag.starts_with("--") => {
                return Err(format!("unexpected '{flag}' (see --help)"));
            }
            file => files.push(file.to_string()),
        }
    }
    if files.is_empty() {
        return Err("no training data given (see --help)".into());
    }
    let mut fits = Vec::new();
    // Files of the same game are pooled into one fit, in the order given.
    let mut games: Vec<(Variant, Vec<String>, Vec<Record>)> = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let header = text.lines().next().unwrap_or("");
        let variant = header
            .strip_prefix("# mancala-engine datagen ")
            .and_then(|rest| rest.split_whitespace().next())
            .ok_or(format!("{file}: not a datagen file (no header line)"))?
            .parse::<Variant>()
            .map_err(|e| format!("{file}: {e}"))?;
        let index = match games.iter().position(|(game, _, _)| *game == variant) {
            Some(index) => index,
            None => {
                games.push((variant, Vec::new(), Vec::new()));
                games.len() - 1
            }
        };
        let (_, headers, records) = &mut games[index];
        headers.push(header.trim_start_matches("# ").to_string());
        // Game numbers restart in every file: offset them so that whole games stay whole
        // (held out or not) and different games stay apart.
        let offset = records
            .iter()
            .map(|r: &Record| r.game + 1)
            .max()
            .unwrap_or(0);
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut record =
                Record::parse(variant, line).map_err(|e| format!("{file}:{}: {e}", n + 1))?;
            record.game += offset;
            records.push(record);
        }
    }
    for (variant, headers, records) in games {
        let target = own_lambda
            .iter()
            .rev()
            .find(|(game, _)| *game == variant)
            .map_or(target, |&(_, lambda)| Target { lambda });
        let samples = samples(variant, model, &records, target);
        let fit = fit(variant, model, &samples).map_err(|e| format!("{variant}: {e}"))?;
        println!(
            "{variant}: {} positions to fit, {} held out (every {}th game)",
            fit.train,
            fit.held_out,
            crate::learn::tune::HOLD_OUT_EVERY
        );
        println!("  before {:?}", fit.before);
        println!("  after  {:?}", fit.after);
        if fit.pits.used {
            println!("  and a value for each count (0 to 15 and more) in each pit of both rows");
        }
        println!(
            "  RMSE in counters: training {:.3} -> {:.3}, held out {:.3} -> {:.3}",
            fit.rmse_train.0, fit.rmse_train.1, fit.rmse_held_out.0, fit.rmse_held_out.1
        );
        fits.push((fit, headers.join("` and `")));
    }
    if let Some(path) = write {
        let mut all = current();
        for (fit, _) in &fits {
            if let Some(entry) = all.iter_mut().find(|(v, _, _)| *v == fit.variant) {
                *entry = (fit.variant, fit.after, fit.pits);
            }
        }
        std::fs::write(&path, source(&fits, &command, &all))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("weights written to {path}");
    }
    Ok(())
}
