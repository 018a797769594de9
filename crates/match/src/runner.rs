//! Schedules a match over worker threads and keeps the running totals.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::config::{MatchConfig, OpeningSource};
use super::process::{EngineProcess, Fault};
use super::record::GameRecord;
use super::referee::{GameSetup, Seat, play_game};
use super::stats::{Pentanomial, SprtDecision, Wdl};
use mancala_rules::openings::{Opening, parse_openings, random_opening};

/// The running results of one pairing, from its first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub pentanomial: Pentanomial,
    /// Finished games by termination kind.
    pub terminations: BTreeMap<String, u32>,
    /// Points of the first engine in pairs of which one game is finished.
    half_pairs: HashMap<u64, f64>,
}

/// Faults committed by one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    pub crashes: u32,
    pub hangs: u32,
    pub illegal_moves: u32,
    pub time_forfeits: u32,
}

/// Everything known about the match so far.
#[derive(Clone, Debug)]
pub struct MatchState {
    pub names: Vec<String>,
    pub games_total: u64,
    pub games_done: u64,
    pub pairings: Vec<PairingStats>,
    /// Per engine, against the whole field.
    pub engines: Vec<Wdl>,
    pub faults: Vec<Faults>,
    /// The SPRT's log-likelihood ratio and decision, when one runs.
    pub sprt: Option<(f64, SprtDecision)>,
}

/// What the totals need of one finished game: one line of a match's journal, from which a
/// stopped run goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The game's number in the whole run.
    pub number: u64,
    pub pairing: usize,
    pub pair: u64,
    /// The points of the pairing's first engine: 0, 0.5 or 1.
    pub first_points: f64,
    /// The engine that lost by a fault, if one did.
    pub offender: Option<usize>,
    /// How the game ended (`GameRecord`'s termination kind).
    pub kind: String,
}

impl PlayedGame {
    fn of(game: &GameRecord, pairing: usize, pair: u64, first: usize) -> PlayedGame {
        PlayedGame {
            number: game.number,
            pairing,
            pair,
            first_points: game.points_of(first),
            offender: game
                .termination
                .offender()
                .map(|side| game.engines[side.index()]),
            kind: game.termination.kind().to_string(),
        }
    }

    /// `<number> <pairing> <pair> <points> <offender or -> <kind>`.
    pub fn to_line(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.number,
            self.pairing,
            self.pair,
            self.first_points,
            self.offender.map_or("-".to_string(), |e| e.to_string()),
            self.kind
        )
    }

    /// [`PlayedGame::to_line`] read back.
    pub fn from_line(line: &str) -> Option<PlayedGame> {
        let mut fields = line.splitn(6, ' ');
        let mut next = || fields.next();
        let number = next()?.parse().ok()?;
        let pairing = next()?.parse().ok()?;
        let pair = next()?.parse().ok()?;
        let first_points: f64 = next()?.parse().ok()?;
        let offender = match next()? {
            "-" => None,
            engine => Some(engine.parse().ok()?),
        };
        let kind = next()?.to_string();
        [0.0, 0.5, 1.0]
            .contains(&first_points)
            .then_some(PlayedGame {
                number,
                pairing,
                pair,
                first_points,
                offender,
                kind,
            })
    }
}

impl MatchState {
    fn record(&mut self, config: &MatchConfig, game: &PlayedGame) {
        self.games_done += 1;
        let stats = &mut self.pairings[game.pairing];
        let points = game.first_points;
        stats.wdl.add(points);
        *stats.terminations.entry(game.kind.clone()).or_default() += 1;
        match stats.half_pairs.remove(&game.pair) {
            Some(other) => stats.pentanomial.add(points + other),
            None => {
                stats.half_pairs.insert(game.pair, points);
            }
        }
        let (first, second) = (stats.first, stats.second);
        self.engines[first].add(points);
        self.engines[second].add(1.0 - points);
        if let Some(engine) = game.offender {
            let faults = &mut self.faults[engine];
            match game.kind.as_str() {
                "crash" => faults.crashes += 1,
                "hang" => faults.hangs += 1,
                "illegal move" => faults.illegal_moves += 1,
                _ => faults.time_forfeits += 1,
            }
        }
        if let Some(sprt) = config.sprt {
            let llr = sprt.llr_pentanomial(&self.pairings[0].pentanomial);
            self.sprt = Some((llr, sprt.decide(llr)));
        }
    }
}

/// The games of the run (or of its shard), in the order they are begun.
fn jobs(config: &MatchConfig) -> Vec<Job> {
    let pairings = config.pairings();
    let mut jobs = Vec::new();
    let mut number = 0;
    for pair in 0..config.games as u64 / 2 {
        for pairing in 0..pairings.len() {
            for first_is_south in [true, false] {
                // Games keep their numbers in the whole run; a shard plays its own.
                number += 1;
                if config.shard.is_none_or(|shard| shard.has_game(number)) {
                    jobs.push(Job {
                        number,
                        pairing,
                        pair,
                        first_is_south,
                    });
                }
            }
        }
    }
    jobs
}

/// Whether every game of a journal is one of this run's (its number, pairing and pair, an
/// offender among its engines): a journal edited by hand must not count for another game.
pub fn check_played(config: &MatchConfig, played: &[PlayedGame]) -> Result<(), String> {
    let jobs = jobs(config);
    for game in played {
        let fits = jobs.iter().any(|job| {
            job.number == game.number && job.pairing == game.pairing && job.pair == game.pair
        }) && game.offender.is_none_or(|e| e < config.engines.len());
        if !fits {
            return Err(format!(
                "the journal's game '{}' is not a game of this run",
                game.to_line()
            ));
        }
    }
    Ok(())
}

/// One game to play.
struct Job {
    number: u64,
    pairing: usize,
    pair: u64,
    /// Whether the pairing's first engine plays South.
    first_is_south: bool,
}

/// Reads or makes the openings of the match: one per pair of games.
pub fn load_openings(config: &MatchConfig) -> Result<Vec<Opening>, String> {
    match &config.openings {
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse_openings(config.variant, config.last_four_rule, &text)
        }
        OpeningSource::Random { plies } => Ok((0..config.games as u64 / 2)
            .map(|i| {
                random_opening(
                    config.variant,
                    config.last_four_rule,
                    *plies,
                    config.seed,
                    i,
                )
            })
            .collect()),
    }
}

/// Starts every engine once, so that a wrong command fails the match at once, and names them:
/// the given name, else the engine's `id name`, else the program's file name; repeated names
/// get `#2`, `#3`.
pub fn check_engines(config: &MatchConfig) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    for spec in &config.engines {
        let engine = EngineProcess::start(spec, config.answer_timeout).map_err(|fault| {
            let detail = match fault {
                Fault::Crashed(d) | Fault::Unresponsive(d) => d,
            };
            format!("engine '{}' failed the handshake: {detail}", spec.command)
        })?;
        let base = if !spec.name.is_empty() {
            spec.name.clone()
        } else if let Some(id) = &engine.id_name {
            id.clone()
        } else {
            Path::new(&spec.command)
                .file_name()
                .map_or(spec.command.clone(), |f| f.to_string_lossy().into_owned())
        };
        let mut name = base.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{base}#{n}");
            n += 1;
        }
        names.push(name);
    }
    Ok(names)
}

/// Plays the match (or its shard); `on_game` sees every finished game with the totals after it
/// (one call at a time). Stops scheduling games once the SPRT decides (not in a shard). The
/// games of `played` (a journal of an earlier, stopped run) count as played and are not played
/// again. Once `stop` is set (a signal), no game is begun and the games in play are dropped
/// when they end (an engine may have had the signal too): a run of the same command with the
/// journal plays them.
pub fn run_match(
    config: &MatchConfig,
    names: &[String],
    openings: &[Opening],
    played: &[PlayedGame],
    stop: &AtomicBool,
    on_game: &mut (dyn FnMut(&GameRecord, &PlayedGame, &MatchState) + Send),
) -> MatchState {
    let pairings = config.pairings();
    let mut jobs = jobs(config);
    let games_total = jobs.len() as u64;
    let done: std::collections::HashSet<u64> = played.iter().map(|g| g.number).collect();
    jobs.retain(|job| !done.contains(&job.number));
    let state = Mutex::new(MatchState {
        names: names.to_vec(),
        games_total,
        games_done: 0,
        pairings: pairings
            .iter()
            .map(|&(first, second)| PairingStats {
                first,
                second,
                ..PairingStats::default()
            })
            .collect(),
        engines: vec![Wdl::default(); names.len()],
        faults: vec![Faults::default(); names.len()],
        sprt: None,
    });
    {
        let mut state = state.lock().expect("not shared yet");
        for game in played {
            state.record(config, game);
        }
    }
    let setup = GameSetup {
        variant: config.variant,
        game_file: config.game_file.clone(),
        last_four_rule: config.last_four_rule,
        limits: [config.time_control; 2],
        time_margin: config.time_margin,
        answer_timeout: config.answer_timeout,
        max_plies: config.max_plies,
    };
    let next = AtomicUsize::new(0);
    // A journal's games may have decided the SPRT already: then no game is begun.
    let decided_by_journal = config.shard.is_none()
        && matches!(
            state.lock().expect("not shared yet").sprt,
            Some((_, d)) if d != SprtDecision::Continue
        );
    let decided = AtomicBool::new(decided_by_journal);
    let on_game = Mutex::new(on_game);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(jobs.len()).max(1) {
            scope.spawn(|| {
                let mut seats: HashMap<usize, Seat> = HashMap::new();
                loop {
                    if decided.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let (first, second) = pairings[job.pairing];
                    let (south, north) = if job.first_is_south {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    for index in [south, north] {
                        seats.entry(index).or_insert_with(|| {
                            Seat::new(index, names[index].clone(), config.engines[index].clone())
                        });
                    }
                    let mut south_seat = seats.remove(&south).expect("inserted");
                    let north_seat = seats.get_mut(&north).expect("inserted");
                    let opening = &openings[(job.pair % openings.len() as u64) as usize];
                    let setup = GameSetup {
                        limits: [config.limit_of(south), config.limit_of(north)],
                        ..setup.clone()
                    };
                    let record =
                        play_game(&setup, job.number, opening, [&mut south_seat, north_seat]);
                    seats.insert(south, south_seat);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = PlayedGame::of(&record, job.pairing, job.pair, first);
                    let mut state = state.lock().expect("no panics while locked");
                    state.record(config, &game);
                    (on_game.lock().expect("no panics while locked"))(&record, &game, &state);
                    // A shard plays all its games: the merge decides on all of them.
                    if config.shard.is_none()
                        && matches!(state.sprt, Some((_, d)) if d != SprtDecision::Continue)
                    {
                        decided.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    state.into_inner().expect("workers ended")
}
