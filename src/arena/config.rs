//! What a match is made of, and `mancala-match`'s command line.

use std::path::PathBuf;
use std::time::Duration;

use crate::rules::{LastFourRule, Variant};

use super::stats::Sprt;

/// One engine: a program, its arguments and the options sent to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// `setoption name <0> value <1>`, sent in this order after the handshake.
    pub options: Vec<(String, String)>,
}

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock per side: `initial` for the game, plus `increment` after each move.
    Clock {
        initial: Duration,
        increment: Duration,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

impl TimeControl {
    /// The tag written into game records: `10+0.1`, `movetime 100ms`, `depth 8`, `nodes 5000`.
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Clock { initial, increment } => {
                format!("{}+{}", initial.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("movetime {}ms", t.as_millis()),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// A file of position strings and/or move prefixes (see [`super::openings`]).
    File(PathBuf),
    /// `plies` random legal moves from the start (a Mangala IV deal for Mangala IV).
    Random { plies: u32 },
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub tournament: Tournament,
    pub variant: Variant,
    pub last_four_rule: LastFourRule,
    /// Games per pairing; always even (every opening is played twice).
    pub games: u32,
    pub concurrency: usize,
    pub time_control: TimeControl,
    /// Allowance over the clock or move time before a move counts as too late.
    pub time_margin: Duration,
    /// How long to wait for `bestmove` under depth and node limits, and for `uciok`/`readyok`.
    pub answer_timeout: Duration,
    pub openings: OpeningSource,
    pub seed: u64,
    /// Adjudicate by the leftover rule after this many plies.
    pub max_plies: Option<u32>,
    pub sprt: Option<Sprt>,
    pub records: Option<PathBuf>,
    pub json: Option<PathBuf>,
}

impl MatchConfig {
    /// The pairings `(first, second)`, indices into `engines`.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.tournament {
            Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Tournament::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }
}

/// What the command line asked for.
#[derive(Debug)]
pub enum Invocation {
    Run(Box<MatchConfig>),
    Help,
    Version,
}

pub const HELP: &str = "\
mancala-match: plays engines that speak the mancala-engine protocol against each other, referees
every move with the rules library, and reports results with Elo, LOS, pair statistics and SPRT.

USAGE:
  mancala-match --engine cmd=PROG [name=N] [arg=A]... [option.NAME=V]... --engine ... [OPTIONS]

ENGINES (at least two):
  --engine KEY=VALUE...    one engine; the words after --engine up to the next --flag:
                             cmd=PROGRAM      the program to run (required)
                             arg=ARG          one command-line argument (repeat for more)
                             name=NAME        name in results (default: the engine's 'id name')
                             option.NAME=V    'setoption name NAME value V' (repeat for more)
  --each KEY=VALUE...      arg= and option.* words added to every engine
  --tournament KIND        round-robin (default) or gauntlet (the first engine against the rest)

GAMES:
  --variant NAME           mangala-ii (default), mangala-iv, al-manqala or anywoli
  --last-four RULE         Anywoli's final four: most-recent-four (default) or first-capture
  --games N                games per pairing (default 100; rounded up to even)
  --concurrency N          games played at the same time (default: the number of cores)
  --max-plies N            adjudicate a game still going after N plies by the leftover rule

TIME (one of; default --movetime 100):
  --tc SECONDS[+INC]       a clock per side, e.g. 10+0.1 or 60
  --movetime MS            fixed time per move
  --depth N                fixed depth per move
  --nodes N                fixed nodes per move
  --time-margin MS         allowance over the clock or move time (default 50)
  --timeout MS             wait for uciok/readyok, and for bestmove under --depth/--nodes
                           (default 30000); a missed deadline loses the game as a hang

OPENINGS (every opening is played twice, sides swapped):
  --openings FILE          one opening per line: a position string, a move prefix from the start
                           ('C d E'), '<position string> moves C d', 'startpos moves C d',
                           'random <seed> [moves ...]' (Mangala IV deal); '#' starts a comment
  --random-plies K         K (at most 60) random opening moves that capture nothing (default 4);
                           Mangala IV openings are deals from the seed
  --seed S                 seed for random openings (default 1)

STOPPING:
  --sprt ELO0 ELO1 ALPHA BETA
                           stop when the SPRT decides (two engines only), e.g. --sprt 0 5 0.05 0.05

OUTPUT:
  --records FILE           game records, one block per game, with tags and moves
  --json FILE              a machine-readable summary
  -h, --help               this text
  -V, --version            the version

A move that is illegal or cannot be parsed, a clock overstepped by more than the margin, a crash
and a missed deadline each lose the game; a crashed or hung engine is restarted for the next game.

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
";

/// Reads the command line (without the program name).
pub fn parse_args(args: &[String]) -> Result<Invocation, String> {
    let mut parser = ArgParser::default();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        // The words that belong to this flag: up to the next `--flag`.
        let start = i;
        while i < args.len() && !args[i].starts_with("--") {
            i += 1;
        }
        let words = &args[start..i];
        match flag {
            "-h" | "--help" => return Ok(Invocation::Help),
            "-V" | "--version" => return Ok(Invocation::Version),
            "--engine" => parser.engines.push(engine_words(words, false)?),
            "--each" => parser.each = engine_words(words, true)?,
            "--sprt" => {
                let numbers = words
                    .iter()
                    .map(|w| w.parse::<f64>())
                    .collect::<Result<Vec<f64>, _>>()
                    .map_err(|_| "--sprt needs four numbers: ELO0 ELO1 ALPHA BETA".to_string())?;
                let [elo0, elo1, alpha, beta] = numbers[..] else {
                    return Err("--sprt needs four numbers: ELO0 ELO1 ALPHA BETA".into());
                };
                parser.sprt = Some(Sprt::new(elo0, elo1, alpha, beta)?);
            }
            _ => {
                let [value] = words else {
                    return Err(if flag.starts_with('-') {
                        format!("{flag} takes one value (see --help)")
                    } else {
                        format!("unexpected '{flag}' (see --help)")
                    });
                };
                parser.single(flag, value)?;
            }
        }
    }
    parser.finish().map(|c| Invocation::Run(Box::new(c)))
}

/// Parses the `key=value` words of `--engine` (or `--each`, which takes no `cmd`/`name`).
fn engine_words(words: &[String], each: bool) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec::default();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!("'{word}' is not KEY=VALUE (see --help)"));
        };
        match key {
            "cmd" if !each => spec.command = value.to_string(),
            "name" if !each => spec.name = value.to_string(),
            "arg" => spec.args.push(value.to_string()),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    spec.options.push((name.to_string(), value.to_string()))
                }
                _ => {
                    return Err(format!(
                        "unknown engine key '{key}' (expected cmd, name, arg, option.NAME)"
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

#[derive(Default)]
struct ArgParser {
    engines: Vec<EngineSpec>,
    each: EngineSpec,
    tournament: Option<Tournament>,
    variant: Option<Variant>,
    last_four_rule: Option<LastFourRule>,
    games: Option<u32>,
    concurrency: Option<usize>,
    time_control: Option<TimeControl>,
    time_margin: Option<u64>,
    timeout: Option<u64>,
    openings_file: Option<PathBuf>,
    random_plies: Option<u32>,
    seed: Option<u64>,
    max_plies: Option<u32>,
    sprt: Option<Sprt>,
    records: Option<PathBuf>,
    json: Option<PathBuf>,
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: '{value}' is not a valid number"))
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(
    flag: &str,
    value: &str,
) -> Result<T, String> {
    let n: T = number(flag, value)?;
    if n > T::default() {
        Ok(n)
    } else {
        Err(format!("{flag} must be at least 1"))
    }
}

/// Upper bounds that keep a typo from asking for billions of games, threads or years of waiting.
const MAX_GAMES: u32 = 10_000_000;
const MAX_CONCURRENCY: usize = 256;
/// One day, in milliseconds: the longest move time, margin or timeout.
const MAX_WAIT_MS: u64 = 86_400_000;
/// Random openings longer than this would often end the game before it starts.
const MAX_RANDOM_PLIES: u32 = 60;

fn at_most<T: PartialOrd + std::fmt::Display>(flag: &str, n: T, max: T) -> Result<T, String> {
    if n <= max {
        Ok(n)
    } else {
        Err(format!("{flag} is at most {max}"))
    }
}

fn seconds(flag: &str, text: &str) -> Result<Duration, String> {
    let s: f64 = number(flag, text)?;
    if s.is_finite() && (0.0..=1e7).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!("{flag}: '{text}' is not a valid number of seconds"))
    }
}

impl ArgParser {
    fn set_time_control(&mut self, flag: &str, tc: TimeControl) -> Result<(), String> {
        if self.time_control.is_some() {
            return Err(format!(
                "{flag}: only one of --tc, --movetime, --depth, --nodes"
            ));
        }
        self.time_control = Some(tc);
        Ok(())
    }

    fn single(&mut self, flag: &str, value: &str) -> Result<(), String> {
        match flag {
            "--tournament" => {
                self.tournament = Some(match value {
                    "round-robin" | "roundrobin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    _ => {
                        return Err(format!(
                            "--tournament: '{value}' is not round-robin or gauntlet"
                        ));
                    }
                })
            }
            "--variant" => {
                self.variant = Some(value.parse().map_err(|e| format!("--variant: {e}"))?)
            }
            "--last-four" => {
                self.last_four_rule = Some(value.parse().map_err(|e| format!("--last-four: {e}"))?)
            }
            "--games" => self.games = Some(at_most(flag, positive(flag, value)?, MAX_GAMES)?),
            "--concurrency" => {
                self.concurrency = Some(at_most(flag, positive(flag, value)?, MAX_CONCURRENCY)?)
            }
            "--tc" => {
                let (initial, increment) = value.split_once('+').unwrap_or((value, "0"));
                let initial = seconds(flag, initial)?;
                if initial.is_zero() {
                    return Err("--tc: the clock must start above zero".into());
                }
                let increment = seconds(flag, increment)?;
                self.set_time_control(flag, TimeControl::Clock { initial, increment })?
            }
            "--movetime" => {
                let ms = at_most(flag, positive(flag, value)?, MAX_WAIT_MS)?;
                self.set_time_control(flag, TimeControl::MoveTime(Duration::from_millis(ms)))?
            }
            "--depth" => {
                let depth = positive(flag, value)?;
                self.set_time_control(flag, TimeControl::Depth(depth))?
            }
            "--nodes" => {
                let nodes = positive(flag, value)?;
                self.set_time_control(flag, TimeControl::Nodes(nodes))?
            }
            "--time-margin" => {
                self.time_margin = Some(at_most(flag, number(flag, value)?, MAX_WAIT_MS)?)
            }
            "--timeout" => self.timeout = Some(at_most(flag, positive(flag, value)?, MAX_WAIT_MS)?),
            "--openings" => self.openings_file = Some(PathBuf::from(value)),
            "--random-plies" => {
                self.random_plies = Some(at_most(flag, number(flag, value)?, MAX_RANDOM_PLIES)?)
            }
            "--seed" => self.seed = Some(number(flag, value)?),
            "--max-plies" => self.max_plies = Some(positive(flag, value)?),
            "--records" => self.records = Some(PathBuf::from(value)),
            "--json" => self.json = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option '{flag}' (see --help)")),
        }
        Ok(())
    }

    fn finish(self) -> Result<MatchConfig, String> {
        if self.engines.len() < 2 {
            return Err("give at least two engines with --engine cmd=PROGRAM (see --help)".into());
        }
        if self.openings_file.is_some() && self.random_plies.is_some() {
            return Err("--openings and --random-plies exclude each other".into());
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        let mut engines = self.engines;
        for engine in &mut engines {
            engine.args.extend(self.each.args.iter().cloned());
            engine.options.extend(self.each.options.iter().cloned());
        }
        let games = self.games.unwrap_or(100);
        let concurrency = self.concurrency.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        Ok(MatchConfig {
            engines,
            tournament: self.tournament.unwrap_or(Tournament::RoundRobin),
            variant: self.variant.unwrap_or_default(),
            last_four_rule: self.last_four_rule.unwrap_or_default(),
            games: games.saturating_add(games % 2),
            concurrency,
            time_control: self
                .time_control
                .unwrap_or(TimeControl::MoveTime(Duration::from_millis(100))),
            time_margin: Duration::from_millis(self.time_margin.unwrap_or(50)),
            answer_timeout: Duration::from_millis(self.timeout.unwrap_or(30_000)),
            openings: match self.openings_file {
                Some(path) => OpeningSource::File(path),
                None => OpeningSource::Random {
                    plies: self.random_plies.unwrap_or(4),
                },
            },
            seed: self.seed.unwrap_or(1),
            max_plies: self.max_plies,
            sprt: self.sprt,
            records: self.records,
            json: self.json,
        })
    }
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
    }

    #[test]
    fn tournaments_pair_engines() {
        let three = "--engine cmd=a --engine cmd=b --engine cmd=c";
        assert_eq!(run(three).pairings(), [(0, 1), (0, 2), (1, 2)]);
        let gauntlet = run(&format!("{three} --tournament gauntlet"));
        assert_eq!(gauntlet.pairings(), [(0, 1), (0, 2)]);
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
            "stray",
        ] {
            assert!(parse_args(&args(line)).is_err(), "{line}");
        }
    }

    #[test]
    fn help_and_version() {
        assert!(matches!(parse_args(&args("--help")), Ok(Invocation::Help)));
        assert!(matches!(parse_args(&args("-V")), Ok(Invocation::Version)));
    }
}
