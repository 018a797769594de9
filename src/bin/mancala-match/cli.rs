//! `mancala-match`'s command line (clap, derived), read into the match runner's
//! [`MatchConfig`].
//!
//! The engine words keep the form cutechess-cli and fastchess users know: `--engine cmd=PROG
//! name=N arg=A option.NAME=V`, plus a limit of the engine's own (`tc=`, `movetime=`, `depth=`,
//! `nodes=`) for matches at time odds.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use mancala_match::config::{
    EngineSpec, MatchConfig, OpeningSource, Shard, TimeControl, Tournament,
};
use mancala_match::stats::Sprt;
use mancala_rules::{LastFourRule, Variant};

/// What the command line asked for.
#[derive(Debug)]
pub enum Invocation {
    Run(Box<MatchConfig>),
    /// `merge A.json B.json … [--json OUT]`.
    Merge {
        inputs: Vec<PathBuf>,
        json: Option<PathBuf>,
    },
    /// `--help` or `--version`: the text to print.
    Print(String),
}

/// Explains the report; shown by `--help` after the options.
pub const REPORT_GUIDE: &str = "\
A move that is illegal or cannot be parsed, a clock overstepped by more than the margin, a crash
and a missed deadline each lose the game; a crashed or hung engine is restarted for the next game.

ENGINE WORDS (after --engine, up to the next --flag; --each takes arg=, option.* and limits):
  cmd=PROGRAM      the program to run (required)
  arg=ARG          one command-line argument (repeat for more)
  name=NAME        name in results (default: the engine's 'id name')
  option.NAME=V    'setoption name NAME value V' (repeat for more)
  tc=S[+INC] | movetime=MS | depth=N | nodes=N
                   this engine's own limit, instead of the match's: a time-odds match is
                   --engine cmd=E name=fast movetime=25 --engine cmd=E name=slow movetime=100

SHARDS: --shard K/N plays only the games of the whole run whose opening falls to shard K of N
(the same openings, seeds and colours as the whole run; both games of an opening in one shard).
Run the N shards anywhere, each with --json, then 'mancala-match merge S1.json S2.json ...
[--json OUT]' prints the report of the whole run. An SPRT does not stop a shard early.

READING THE REPORT (each pairing, from the first engine's side):
  +W =D -L, score      wins, draws and losses; the score counts a draw as half a win.
  Elo E (95% interval LO to HI)
                       the Elo difference the score implies, and the range that holds the true
                       difference 95 times in 100. The range is not symmetric around E; with a
                       perfect score E is infinite and there is no range.
  LOS                  likelihood of superiority: the chance that the first engine is really the
                       stronger, from wins and losses (draws say nothing about it).
  pairs [...]          every opening is played twice, sides swapped: how many pairs scored 0,
                       0.5, 1, 1.5 and 2 points of 2 (the pentanomial count).
  pair Elo             Elo from those pair scores: openings that one side wins whoever plays it
                       count as the even pair they are, so this is the fairer figure (narrower
                       where openings decide much, as in Anywoli).
  SPRT ... LLR         the sequential test: it accepts H1 (the engine gains ELO1) when the
                       log-likelihood ratio reaches the upper bound, H0 (it gains ELO0 or less)
                       at the lower one.

EXAMPLES:
  mancala-match --engine cmd=target/release/mancala-engine name=search \\
                --engine cmd=target/release/mancala-engine name=random option.Strategy=random \\
                --variant anywoli --games 100 --movetime 100
  mancala-match --engine cmd=./new --engine cmd=./old --tc 1+0.01 --concurrency 4 \\
                --sprt 0 5 0.05 0.05 --games 20000 --json result.json
  mancala-match --engine cmd=./e name=fast movetime=25 --engine cmd=./e name=slow movetime=100 \\
                --variant al-manqala --games 200 --shard 2/8 --json shard2.json
";

/// mancala-match: plays engines that speak the mancala-engine protocol against each other,
/// referees every move with the rules library, and reports results with Elo, LOS, pair
/// statistics and SPRT.
#[derive(Parser, Debug)]
#[command(
    name = "mancala-match",
    version,
    about = "Plays engines that speak the mancala-engine protocol against each other, referees \
             every move with the rules library, and reports Elo, LOS, pair statistics and SPRT.",
    after_help = "--help (not -h) explains the engine words, shards and the report.",
    after_long_help = REPORT_GUIDE,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Combines the JSON summaries of the shards of one run into the report of the whole run.
    Merge {
        /// The shards' JSON summaries (from --json).
        #[arg(required = true, value_name = "SUMMARY.json")]
        inputs: Vec<PathBuf>,
        /// Also write the merged summary here.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
    },
}

/// Upper bounds that keep a typo from asking for billions of games, threads or years of waiting.
const MAX_GAMES: u32 = 10_000_000;
const MAX_CONCURRENCY: usize = 256;
/// One day, in milliseconds: the longest move time, margin or timeout.
const MAX_WAIT_MS: u64 = 86_400_000;
/// Random openings longer than this would often end the game before it starts.
const MAX_RANDOM_PLIES: u32 = 60;

#[derive(Args, Debug)]
struct RunArgs {
    /// One engine: KEY=VALUE words up to the next flag (cmd= is required; see --help).
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., required = true)]
    engines: Vec<String>,
    /// arg=, option.NAME= and limit words added to every engine.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// round-robin, or gauntlet: the first engine against each of the others.
    #[arg(long, default_value = "round-robin", value_parser = str::parse::<Tournament>)]
    tournament: Tournament,
    /// mangala-ii, mangala-iv, al-manqala, anywoli, kalah, oware, or the game of --game.
    #[arg(long, default_value = "mangala-ii", value_parser = parse_variant)]
    variant: Variant,
    /// A game file (RULES.md, "Games as data"): the referee plays its game (the --variant unless
    /// one is given), and every engine is sent 'setoption name GameFile value FILE' first.
    #[arg(long = "game", value_name = "FILE")]
    game_file: Option<PathBuf>,
    /// Anywoli's final four: most-recent-four or first-capture.
    #[arg(long = "last-four", default_value = "most-recent-four", value_parser = parse_last_four)]
    last_four: LastFourRule,
    /// Games per pairing (rounded up to even).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES as i64))]
    games: u32,
    /// Games played at the same time (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_CONCURRENCY as i64))]
    concurrency: Option<u16>,
    /// A clock per side: SECONDS[+INC], e.g. 10+0.1 or 60.
    #[arg(long, value_name = "S[+INC]", value_parser = parse_clock, group = "limit")]
    tc: Option<TimeControl>,
    /// Fixed time per move, in ms (the default is 100).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_WAIT_MS), group = "limit")]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), group = "limit")]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), group = "limit")]
    nodes: Option<u64>,
    /// Allowance over the clock or move time, in ms.
    #[arg(long = "time-margin", value_name = "MS", default_value_t = 50, value_parser = clap::value_parser!(u64).range(0..=MAX_WAIT_MS))]
    time_margin: u64,
    /// Wait for uciok/readyok, and for bestmove under --depth/--nodes, in ms; a missed deadline
    /// loses the game as a hang.
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..=MAX_WAIT_MS))]
    timeout: u64,
    /// One opening per line: a position string, a move prefix from the start ('C d E'),
    /// '<position string> moves C d', 'startpos moves C d', 'random <seed> [moves ...]'
    /// (Mangala IV deal); '#' starts a comment.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Random opening moves that capture nothing (default 4); Mangala IV openings are deals.
    #[arg(long = "random-plies", value_name = "K", value_parser = clap::value_parser!(u32).range(0..=MAX_RANDOM_PLIES as i64))]
    random_plies: Option<u32>,
    /// Seed for random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate a game still going after N plies by the leftover rule.
    #[arg(long = "max-plies", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: Option<u32>,
    /// Stop when the SPRT decides (two engines only), e.g. --sprt 0 5 0.05 0.05.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// Play only shard K of N of the run (see --help).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Game records, one block per game, with tags and moves.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// A machine-readable summary (read back by merge).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// A journal of the finished games, written as each ends; a run stopped by SIGTERM, SIGINT
    /// or SIGHUP (a batch system's time limit) goes on from it when the same command is run
    /// again.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
}

fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse()
        .map_err(|e: mancala_rules::UnknownVariant| e.to_string())
}

fn parse_last_four(text: &str) -> Result<LastFourRule, String> {
    text.parse()
}

fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if s.is_finite() && (0.0..=1e7).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!("'{text}' is not a valid number of seconds"))
    }
}

/// `S[+INC]` in seconds.
fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let (initial, increment) = text.split_once('+').unwrap_or((text, "0"));
    let initial = seconds(initial)?;
    if initial.is_zero() {
        return Err("the clock must start above zero".into());
    }
    Ok(TimeControl::Clock {
        initial,
        increment: seconds(increment)?,
    })
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not K/N with 1 <= K <= N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, count) = (
        k.parse::<u32>().map_err(|_| bad())?,
        n.parse::<u32>().map_err(|_| bad())?,
    );
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// A positive number of an engine word, at most `max`.
fn word_number<T: std::str::FromStr + PartialOrd + Default + std::fmt::Display>(
    key: &str,
    value: &str,
    max: T,
) -> Result<T, String> {
    match value.parse::<T>() {
        Ok(n) if n > T::default() && n <= max => Ok(n),
        _ => Err(format!("{key}={value}: expected a number from 1 to {max}")),
    }
}

/// Parses the `key=value` words of `--engine` (or `--each`, which takes no `cmd`/`name`).
fn engine_words(words: &[String], each: bool) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec::default();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!("'{word}' is not KEY=VALUE (see --help)"));
        };
        let mut limit = |tc: TimeControl| -> Result<(), String> {
            if spec.limit.replace(tc).is_some() {
                return Err(format!(
                    "'{word}': an engine has one limit (tc, movetime, depth or nodes)"
                ));
            }
            Ok(())
        };
        match key {
            "cmd" if !each => spec.command = value.to_string(),
            "name" if !each => spec.name = value.to_string(),
            "arg" => spec.args.push(value.to_string()),
            "tc" => limit(parse_clock(value).map_err(|e| format!("tc={value}: {e}"))?)?,
            "movetime" => limit(TimeControl::MoveTime(Duration::from_millis(word_number(
                key,
                value,
                MAX_WAIT_MS,
            )?)))?,
            "depth" => limit(TimeControl::Depth(word_number(key, value, u32::MAX)?))?,
            "nodes" => limit(TimeControl::Nodes(word_number(key, value, u64::MAX)?))?,
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    spec.options.push((name.to_string(), value.to_string()))
                }
                _ => {
                    return Err(format!(
                        "unknown engine key '{key}' (expected cmd, name, arg, option.NAME, tc, \
                         movetime, depth or nodes)"
                    ));
                }
            },
        }
    }
    if !each && spec.command.is_empty() {
        return Err("every --engine needs cmd=PROGRAM".into());
    }
    Ok(spec)
}

/// Reads the command line (without the program name).
pub fn parse_args(args: &[String]) -> Result<Invocation, String> {
    use clap::{CommandFactory, FromArgMatches};
    let line = std::iter::once("mancala-match".to_string()).chain(args.iter().cloned());
    let clap_error = |e: clap::Error| match e.kind() {
        clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
            Ok(Invocation::Print(e.to_string()))
        }
        _ => Err(e.render().to_string().trim_end().to_string()),
    };
    // The game of `--game` is registered first, so that `--variant` can name it.
    let loaded = match game_file(args) {
        Some(path) => Some(load_game(&path)?),
        None => None,
    };
    let matches = match Cli::command().try_get_matches_from(line) {
        Ok(matches) => matches,
        Err(e) => return clap_error(e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    // Each `--engine` (and `--each`) is one group of words.
    let groups = |id: &str| -> Vec<Vec<String>> {
        matches
            .get_occurrences::<String>(id)
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default()
    };
    let (engine_groups, each_groups) = (groups("engines"), groups("each"));
    if let Some(Sub::Merge { inputs, json }) = cli.command {
        return Ok(Invocation::Merge { inputs, json });
    }
    let run = cli.run;
    let variant_given =
        matches.value_source("variant") == Some(clap::parser::ValueSource::CommandLine);
    let variant = match loaded {
        Some((game, _)) if !variant_given => game,
        _ => run.variant,
    };
    let mut each = EngineSpec::default();
    for words in &each_groups {
        let spec = engine_words(words, true)?;
        each.args.extend(spec.args);
        each.options.extend(spec.options);
        if spec.limit.is_some() {
            each.limit = spec.limit;
        }
    }
    let mut engines = Vec::new();
    for words in &engine_groups {
        let mut spec = engine_words(words, false)?;
        spec.args.extend(each.args.iter().cloned());
        spec.options.extend(each.options.iter().cloned());
        spec.limit = spec.limit.or(each.limit);
        engines.push(spec);
    }
    if engines.len() < 2 {
        return Err("give at least two engines with --engine cmd=PROGRAM (see --help)".into());
    }
    let sprt = match run.sprt.as_deref() {
        Some(&[elo0, elo1, alpha, beta]) => {
            if engines.len() != 2 {
                return Err("--sprt needs exactly two engines".into());
            }
            Some(Sprt::new(elo0, elo1, alpha, beta).map_err(|e| format!("--sprt: {e}"))?)
        }
        Some(_) => return Err("--sprt takes ELO0 ELO1 ALPHA BETA".into()),
        None => None,
    };
    let time_control = run
        .tc
        .or(run
            .movetime
            .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms))))
        .or(run.depth.map(TimeControl::Depth))
        .or(run.nodes.map(TimeControl::Nodes))
        .unwrap_or(TimeControl::MoveTime(Duration::from_millis(100)));
    let concurrency = run.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        usize::from,
    );
    Ok(Invocation::Run(Box::new(MatchConfig {
        engines,
        tournament: run.tournament,
        variant,
        game_file: loaded.map(|(_, path)| path),
        last_four_rule: run.last_four,
        games: run.games.saturating_add(run.games % 2),
        concurrency,
        time_control,
        time_margin: Duration::from_millis(run.time_margin),
        answer_timeout: Duration::from_millis(run.timeout),
        openings: match run.openings {
            Some(path) => OpeningSource::File(path),
            None => OpeningSource::Random {
                plies: run.random_plies.unwrap_or(4),
            },
        },
        seed: run.seed,
        max_plies: run.max_plies,
        sprt,
        shard: run.shard,
        records: run.records,
        json: run.json,
        journal: run.journal,
    })))
}

/// The file of the first `--game FILE` (or `--game=FILE`) argument.
fn game_file(args: &[String]) -> Option<PathBuf> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--game" {
            return words.next().map(PathBuf::from);
        }
        if let Some(file) = word.strip_prefix("--game=") {
            return Some(PathBuf::from(file));
        }
    }
    None
}

/// Registers the game of a game file; returns it and the file's absolute path (the engines are
/// sent that path, whatever their working directory).
fn load_game(path: &std::path::Path) -> Result<(Variant, PathBuf), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--game: cannot read {}: {e}", path.display()))?;
    let game = mancala_rules::definition::register(&text)
        .map_err(|e| format!("--game {}: {e}", path.display()))?;
    let absolute = std::fs::canonicalize(path)
        .map_err(|e| format!("--game: cannot resolve {}: {e}", path.display()))?;
    Ok((game, absolute))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn run(line: &str) -> MatchConfig {
        match parse_args(&args(line)).unwrap() {
            Invocation::Run(config) => *config,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn engines_take_their_words() {
        let c = run(
            "--engine cmd=./a name=A arg=--x option.Hash=64 --engine cmd=./b \
                     --each option.Threads=1 --variant anywoli --games 7 --tc 10+0.1",
        );
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "A");
        assert_eq!(c.engines[0].args, ["--x"]);
        assert_eq!(
            c.engines[0].options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
        assert_eq!(c.engines[1].options.len(), 1);
        assert_eq!(c.variant, Variant::Anywoli);
        assert_eq!(c.games, 8, "rounded up to even");
        assert_eq!(
            c.time_control,
            TimeControl::Clock {
                initial: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(c.pairings(), [(0, 1)]);
    }

    #[test]
    fn engines_may_have_limits_of_their_own() {
        let c = run(
            "--engine cmd=e name=fast movetime=25 --engine cmd=e name=slow movetime=100 \
             --engine cmd=e name=deep depth=9 --engine cmd=e tc=5+0.05 --each nodes=77",
        );
        assert_eq!(
            c.limit_of(0),
            TimeControl::MoveTime(Duration::from_millis(25))
        );
        assert_eq!(
            c.limit_of(1),
            TimeControl::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(c.limit_of(2), TimeControl::Depth(9));
        assert_eq!(
            c.limit_of(3),
            TimeControl::Clock {
                initial: Duration::from_secs(5),
                increment: Duration::from_millis(50)
            }
        );
        let each = run("--engine cmd=a --engine cmd=b movetime=20 --each nodes=77");
        assert_eq!(each.limit_of(0), TimeControl::Nodes(77));
        assert_eq!(
            each.limit_of(1),
            TimeControl::MoveTime(Duration::from_millis(20))
        );
        let plain = run("--engine cmd=a --engine cmd=b --depth 4");
        assert_eq!(plain.limit_of(1), TimeControl::Depth(4));
    }

    #[test]
    fn defaults() {
        let c = run("--engine cmd=a --engine cmd=b");
        assert_eq!(c.variant, Variant::MangalaII);
        assert_eq!(c.games, 100);
        assert_eq!(
            c.time_control,
            TimeControl::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(c.openings, OpeningSource::Random { plies: 4 });
        assert!(c.concurrency >= 1);
        assert_eq!(c.shard, None);
    }

    #[test]
    fn tournaments_pair_engines() {
        let three = "--engine cmd=a --engine cmd=b --engine cmd=c";
        assert_eq!(run(three).pairings(), [(0, 1), (0, 2), (1, 2)]);
        let gauntlet = run(&format!("{three} --tournament gauntlet"));
        assert_eq!(gauntlet.pairings(), [(0, 1), (0, 2)]);
    }

    #[test]
    fn shards_split_the_opening_pairs() {
        let c = run("--engine cmd=a --engine cmd=b --shard 2/3");
        let shard = c.shard.unwrap();
        assert_eq!((shard.index, shard.count), (2, 3));
        let mine: Vec<u64> = (1..=12).filter(|&g| shard.has_game(g)).collect();
        assert_eq!(mine, [3, 4, 9, 10]);
        // Every game falls to exactly one shard.
        for game in 1..=60 {
            let owners = (1..=3)
                .filter(|&k| Shard { index: k, count: 3 }.has_game(game))
                .count();
            assert_eq!(owners, 1);
        }
    }

    #[test]
    fn merge_takes_summaries() {
        match parse_args(&args("merge a.json b.json --json all.json")).unwrap() {
            Invocation::Merge { inputs, json } => {
                assert_eq!(inputs.len(), 2);
                assert_eq!(json, Some(PathBuf::from("all.json")));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_are_reported_not_panicked() {
        for line in [
            "--engine cmd=a",
            "--engine name=x --engine cmd=b",
            "--engine cmd=a --engine cmd=b --games 0",
            "--engine cmd=a --engine cmd=b --games many",
            "--engine cmd=a --engine cmd=b --tc 0",
            "--engine cmd=a --engine cmd=b --tc 10 --depth 3",
            "--engine cmd=a --engine cmd=b --variant chess",
            "--engine cmd=a --engine cmd=b --sprt 0 5 0.05",
            "--engine cmd=a --engine cmd=b --engine cmd=c --sprt 0 5 0.05 0.05",
            "--engine cmd=a --engine cmd=b --bogus 1",
            "--engine cmd=a --engine cmd=b --movetime",
            "--engine cmd=a --engine cmd=b --timeout 18446744073709551615",
            "--engine cmd=a --engine cmd=b --time-margin 99999999999",
            "--engine cmd=a --engine cmd=b --movetime 99999999999",
            "--engine cmd=a --engine cmd=b --games 4000000000",
            "--engine cmd=a --engine cmd=b --concurrency 100000",
            "--engine cmd=a --engine cmd=b --random-plies 1000000000",
            "--engine cmd=a bad --engine cmd=b",
            "--engine cmd=a movetime=0 --engine cmd=b",
            "--engine cmd=a movetime=5 depth=3 --engine cmd=b",
            "--engine cmd=a tc=x --engine cmd=b",
            "--engine cmd=a --engine cmd=b --shard 0/3",
            "--engine cmd=a --engine cmd=b --shard 4/3",
            "--engine cmd=a --engine cmd=b --shard 2",
            "--engine cmd=a --engine cmd=b --openings f --random-plies 3",
            "merge",
            "stray",
        ] {
            assert!(parse_args(&args(line)).is_err(), "{line}");
        }
    }

    #[test]
    fn help_and_version() {
        for flag in ["--help", "-h", "-V", "--version"] {
            assert!(
                matches!(parse_args(&args(flag)), Ok(Invocation::Print(_))),
                "{flag}"
            );
        }
        let Ok(Invocation::Print(help)) = parse_args(&args("--help")) else {
            unreachable!()
        };
        assert!(help.contains("READING THE REPORT") && help.contains("--shard"));
    }
}
