//! Training data from self-play: many fast games from varied openings, every position labelled
//! with a search's score, the game's final margin and, where the tables reach, the exact value.
//!
//! Reproducible: each game's opening comes from the seed and the game's number, and each move
//! from a search limited by nodes with a table of its own, so the same settings give the same
//! file whatever the number of threads (games are written in their order).

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::data::Record;
use mancala_engine::search::Score;
use mancala_engine::search::TranspositionTable;
use mancala_engine::search::{Limits, SearchControl, SearchOptions, SearchOutcome, search};
use mancala_rules::openings::{Opening, random_opening};
use mancala_rules::{Game, LastFourRule, Side, Variant};
use mancala_tablebase::Tablebases;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: Variant,
    pub games: u64,
    pub seed: u64,
    /// Nodes per move of the self-play searches.
    pub nodes: u64,
    /// Random quiet moves before the engines play.
    pub random_plies: u32,
    /// Keep only openings whose first search scores within this many centi-counters of even
    /// (others are drawn again): in games where random openings are mostly lopsided (Anywoli),
    /// the data then covers the close positions that decide games between good players.
    pub balanced: Option<i32>,
    pub threads: usize,
}

/// What a run produced, for its final report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    /// Games won by South, drawn, won by North.
    pub results: [u64; 3],
    /// Positions with an exact value from the tables.
    pub exact: u64,
}

/// The search's score as centi-counters (a proven result as 100 × its margin).
pub fn centi(score: Score) -> i32 {
    match score {
        Score::Centi(value) => value,
        Score::Mate { margin, .. } => 100 * margin,
    }
}

/// Hash table per game: small, since a game's searches are small.
const TABLE_MIB: usize = 4;
/// Moves after which a game is given up (the rules end every game long before).
const MAX_GAME_PLIES: usize = 2000;

/// A search of `game` limited to `nodes` nodes, quietly, in `table` (a new search of it): what
/// self-play and the choice of balanced openings think with.
pub fn search_nodes(
    game: &Game,
    nodes: u64,
    options: &SearchOptions,
    table: &Arc<TranspositionTable>,
) -> SearchOutcome {
    table.new_search();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let control = Arc::new(SearchControl::new(false));
    search(
        game,
        &limits,
        options,
        Arc::clone(table),
        control,
        &mut |_| {},
    )
}

/// Openings drawn for one game before `--balanced` takes the closest seen.
pub const BALANCED_TRIES: u64 = 200;

/// Opening `index` of a set of random quiet openings of `plies` moves: the plain random opening
/// (the match runner's for the same seed and index), or with `balanced`, the first of up to
/// [`BALANCED_TRIES`] openings (each drawn from a seed of its own) that `think` scores within
/// `balanced` centi-counters of even for its side to move, else the closest. Also gives the
/// score and the search of the chosen opening (none without `balanced`).
pub fn choose_opening(
    variant: Variant,
    plies: u32,
    seed: u64,
    index: u64,
    balanced: Option<i32>,
    think: &mut dyn FnMut(&Game) -> SearchOutcome,
) -> (Opening, Option<(i32, SearchOutcome)>) {
    let rule = LastFourRule::default();
    let mut chosen = None;
    for attempt in 0..BALANCED_TRIES {
        let seed = seed.wrapping_add(attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let opening = random_opening(variant, rule, plies, seed, index);
        let Some(limit) = balanced else {
            return (opening, None);
        };
        let outcome = think(&opening.game(rule));
        let score = outcome.score.map_or(0, centi);
        if chosen
            .as_ref()
            .is_none_or(|(_, (best, _)): &(Opening, (i32, _))| score.abs() < best.abs())
        {
            chosen = Some((opening, (score, outcome)));
        }
        if score.abs() <= limit {
            break;
        }
    }
    let (opening, searched) = chosen.expect("at least one try");
    (opening, Some(searched))
}

/// Plays game `index` and labels its positions.
fn play_game(settings: &Settings, tables: Option<&Arc<Tablebases>>, index: u64) -> Vec<Record> {
    let rule = LastFourRule::default();
    let table = Arc::new(TranspositionTable::new(TABLE_MIB).expect("a small table"));
    let options = SearchOptions {
        tablebases: tables.cloned(),
        ..SearchOptions::default()
    };
    let think = |game: &Game| search_nodes(game, settings.nodes, &options, &table);
    // The chosen opening's search is its first move's too.
    let (opening, searched) = choose_opening(
        settings.variant,
        settings.random_plies,
        settings.seed,
        index,
        settings.balanced,
        &mut |game| think(game),
    );
    let mut first_outcome = searched.map(|(_, outcome)| outcome);
    let mut game = opening.game(rule);
    // (position, its search score)
    let mut seen = Vec::new();
    while !game.is_over() && seen.len() < MAX_GAME_PLIES {
        let outcome = first_outcome.take().unwrap_or_else(|| think(&game));
        let Some(best) = outcome.best else { break };
        if game.legal_moves().len() > 1 {
            seen.push((*game.position(), outcome.score.map_or(0, centi)));
        }
        if game.play(best).is_err() {
            break;
        }
    }
    let Some(totals) = game.final_totals() else {
        return Vec::new(); // given up: no final margin to learn from
    };
    let south_margin = totals[0] as i32 - totals[1] as i32;
    seen.into_iter()
        .map(|(position, search)| Record {
            position,
            search,
            margin: if position.side_to_move() == Side::South {
                south_margin
            } else {
                -south_margin
            },
            exact: tables.and_then(|t| t.probe(&position)),
            game: index,
        })
        .collect()
}

/// Generates the data, writing the records (after a header line) to `out` in game order;
/// `progress` hears of each finished game. Once `stop` is set no game is begun, and those in
/// play are finished and written: what was written is then the records of the first
/// `Summary::games` games, whole, as a run of that many games with the same settings writes.
pub fn generate(
    settings: &Settings,
    tables: Option<Arc<Tablebases>>,
    out: &mut (dyn Write + Send),
    stop: &AtomicBool,
    progress: &(dyn Fn(&Summary) + Sync),
) -> std::io::Result<Summary> {
    writeln!(
        out,
        "# mancala-engine datagen {} games={} seed={} nodes={} random-plies={}{} tablebases={}",
        settings.variant,
        settings.games,
        settings.seed,
        settings.nodes,
        settings.random_plies,
        settings
            .balanced
            .map_or(String::new(), |cp| format!(" balanced={cp}")),
        tables
            .as_ref()
            .and_then(|t| t.max_counters(settings.variant))
            .map_or("none".to_string(), |m| format!("up-to-{m}"))
    )?;
    let next = AtomicU64::new(0);
    // Finished games waiting for those before them, the next to write, and the totals.
    struct Writer<'a> {
        waiting: BTreeMap<u64, Vec<Record>>,
        next: u64,
        summary: Summary,
        out: &'a mut (dyn Write + Send),
        error: Option<std::io::Error>,
    }
    let writer = Mutex::new(Writer {
        waiting: BTreeMap::new(),
        next: 0,
        summary: Summary::default(),
        out,
        error: None,
    });
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            scope.spawn(|| {
                loop {
                    // Every game begun is written, so a stopped run's games are a prefix.
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games {
                        return;
                    }
                    let records = play_game(settings, tables.as_ref(), index);
                    let mut w = writer.lock().unwrap_or_else(|p| p.into_inner());
                    if w.error.is_some() {
                        return;
                    }
                    w.waiting.insert(index, records);
                    while let Some(records) = {
                        let n = w.next;
                        w.waiting.remove(&n)
                    } {
                        w.next += 1;
                        w.summary.games += 1;
                        if let Some(first) = records.first() {
                            let south = if first.position.side_to_move() == Side::South {
                                first.margin
                            } else {
                                -first.margin
                            };
                            w.summary.results[(1 - south.signum()) as usize] += 1;
                        }
                        w.summary.positions += records.len() as u64;
                        w.summary.exact +=
                            records.iter().filter(|r| r.exact.is_some()).count() as u64;
                        let mut text = String::new();
                        for record in &records {
                            text.push_str(&record.to_string());
                            text.push('\n');
                        }
                        if let Err(e) = w.out.write_all(text.as_bytes()) {
                            w.error = Some(e);
                            return;
                        }
                        progress(&w.summary);
                    }
                }
            });
        }
    });
    let mut w = writer.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = w.error.take() {
        return Err(e);
    }
    w.out.flush()?;
    Ok(w.summary)
}
