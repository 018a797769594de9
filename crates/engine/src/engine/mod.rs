//! The engine facade: owns the game, the options, the hash table and the background job (a
//! search, a perft or the bench). It never prints; a job reports through the callbacks it was
//! started with.

pub mod bench;
pub mod options;

/// What a front end sends the engine and hears from it: the limits of a `go`, and the reports of
/// a search (a front end needs nothing else of the search).
pub use crate::eval::EvalParts;
pub use crate::search::{Limits, Score, SearchInfo, SearchOutcome, Strategy};

use std::fmt;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::eval::evaluate_parts;
use crate::search::tt::OutOfMemory;
use crate::search::{SearchControl, SearchOptions, TranspositionTable, search};
use crate::solve::SolverTable;
use mancala_rules::{
    Aborted, Game, IllegalMove, LastFourRule, Move, MoveListError, Position, PositionStringError,
    SideChoice, SplitMix64, UndoError, Variant, perft_divide,
};
use mancala_tablebase::Tablebases;

/// The deepest perft accepted: deeper trees could not finish anyway, and the bound keeps the
/// recursion well inside the job thread's stack.
pub const MAX_PERFT_DEPTH: u64 = 256;

/// Stack for job threads: perft and search recurse once per ply.
const JOB_STACK_BYTES: usize = 64 * 1024 * 1024;
/// The solver's table, kept through a game (small endgames are solved again move after move).
/// 16 MiB: what the table held when the constant said 32 (a power of two was halved until
/// 2026-12-06), the size the daemon's memory bound (`tests/cli/limits.rs`) was measured with.
const SOLVER_TABLE_MIB: usize = 16;

/// Where a `position` command starts from (the protocol's type).
pub use mancala_protocol::PositionBase;

/// Why an engine command was refused; the engine is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    InvalidPosition {
        text: String,
        error: PositionStringError,
        /// The other games in which the string is valid: a likely mix-up of games.
        valid_in: Vec<Variant>,
    },
    IllegalMove(IllegalMove),
    IllegalMoveInList(MoveListError),
    Undo(UndoError),
    /// The command exists only for some games.
    WrongVariant {
        what: &'static str,
        /// The games it is for, by name.
        only: String,
        current: Variant,
    },
    PerftTooDeep(u64),
    /// An option value outside its range.
    OutOfRange {
        option: &'static str,
        value: u64,
        min: u64,
        max: u64,
    },
    /// The hash table could not be allocated; the old one is kept.
    OutOfMemory {
        mib: usize,
    },
    /// The machine has less memory available than the hash table asked for.
    NotEnoughMemory {
        mib: usize,
        available: usize,
    },
    /// A background job is running.
    Busy,
    /// The operating system refused a thread for the job.
    NoThread(String),
    /// The tablebase directory cannot be used; the tables loaded before stay.
    Tablebase(String),
    /// An option's value is not one it takes (its own message).
    BadOptionValue(String),
    /// A game file could not be read or is not a game the engine plays; nothing was loaded.
    GameFile(String),
    /// A weights file could not be read or used; nothing was loaded.
    WeightsFile(String),
    /// A network file could not be read or used; nothing was loaded.
    NetworkFile(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::InvalidPosition {
                text,
                error,
                valid_in,
            } => {
                write!(f, "invalid position string '{text}': {error}")?;
                if let Some(first) = valid_in.first() {
                    let names: Vec<&str> = valid_in.iter().map(|v| v.name()).collect();
                    write!(
                        f,
                        " (it is a valid position string of {}: switch games first, e.g. \
                         'variant {first}')",
                        names.join(" and ")
                    )?;
                }
                Ok(())
            }
            EngineError::IllegalMove(error) => write!(f, "{error}"),
            EngineError::IllegalMoveInList(error) => write!(f, "{error}"),
            EngineError::Undo(error) => write!(f, "{error}"),
            EngineError::WrongVariant {
                what,
                only,
                current,
            } => write!(f, "{what} is only for {only}, the variant is {current}"),
            EngineError::PerftTooDeep(depth) => write!(
                f,
                "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            ),
            EngineError::OutOfRange {
                option,
                value,
                min,
                max,
            } => f.write_str(&options::out_of_range(option, value, *min, *max)),
            EngineError::OutOfMemory { mib } => {
                write!(
                    f,
                    "cannot allocate a {mib} MiB hash table; a table of the old size is kept"
                )
            }
            EngineError::NotEnoughMemory { mib, available } => write!(
                f,
                "Hash {mib} MiB is more than the {available} MiB of memory available; the old \
                 table is kept"
            ),
            EngineError::Busy => write!(f, "a job is running; send stop first"),
            EngineError::NoThread(error) => write!(f, "cannot start a thread: {error}"),
            EngineError::Tablebase(error) => write!(f, "{error}; the tables loaded before stay"),
            EngineError::BadOptionValue(error) => write!(f, "{error}"),
            EngineError::GameFile(error)
            | EngineError::WeightsFile(error)
            | EngineError::NetworkFile(error) => {
                write!(f, "{error}; nothing was loaded")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Tables up to this size are written once when made, so that searches do not pay the page faults
/// on their clock; bigger ones stay untouched until used (touching 16 GiB takes seconds).
const PREFAULT_MAX_MIB: usize = 256;

/// A new, empty table of `mib` MiB.
fn fresh_table(mib: usize) -> Result<TranspositionTable, OutOfMemory> {
    let table = TranspositionTable::new(mib)?;
    if mib <= PREFAULT_MAX_MIB {
        table.clear();
    }
    Ok(table)
}

/// A one-bucket table, standing in while a new table is allocated.
fn placeholder_table() -> TranspositionTable {
    TranspositionTable::new(0).expect("a one-bucket table")
}

/// Reads the game file at `path`, checks it and registers its game: the one place a game file
/// becomes a game (the daemon's `GameFile` option and the command line's `--game` both come
/// here).
pub fn load_game(path: &std::path::Path) -> Result<Variant, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the game file {}: {e}", path.display()))?;
    mancala_rules::definition::register(&text).map_err(|e| format!("{}: {e}", path.display()))
}

use mancala_platform::memory::available_mib as available_memory_mib;

/// What a perft job reports, in this order: one `Move` per legal move, then `Finished`,
/// `Stopped` or `Failed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftEvent {
    Move(Move, u64),
    Finished {
        nodes: u64,
        elapsed: Duration,
    },
    Stopped,
    /// The job failed on a bug of the engine (a panic, with its message).
    Failed(String),
}

/// A fault that only a test switches on, to check that the daemon survives a bug of its own:
/// `MANCALA_ENGINE_FAULT=<search|perft|bench|side|command>` makes that job (or, for `command`,
/// the `eval` command) panic. Compiled in only with the feature `fault-injection`, which the
/// workspace's tests turn on (a dev-dependency) and release builds leave off.
#[cfg(feature = "fault-injection")]
static INJECTED_FAULT: std::sync::LazyLock<Option<String>> =
    std::sync::LazyLock::new(|| std::env::var("MANCALA_ENGINE_FAULT").ok());

/// Panics if a test asked for a fault in `place`.
#[cfg(feature = "fault-injection")]
pub fn injected_fault(place: &str) {
    if INJECTED_FAULT.as_deref() == Some(place) {
        panic!("a fault injected by a test ({place})");
    }
}

/// Without the feature `fault-injection`, nothing.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn injected_fault(_place: &str) {}

/// The message of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Runs `work`, catching a panic (a bug of the engine) as an error with its message.
fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .map_err(|payload| panic_message(payload.as_ref()))
}

/// The kind of job running, which decides what input may be answered meanwhile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    Search,
    Perft,
    Bench,
}

struct Job {
    kind: JobKind,
    control: Arc<SearchControl>,
    started: Instant,
    handle: JoinHandle<()>,
}

/// The engine's settings (the protocol's options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub strategy: Strategy,
    pub seed: u64,
    pub last_four_rule: LastFourRule,
    /// The directory the tablebases were loaded from, if any.
    pub tablebase_path: Option<String>,
    /// The last game file loaded, if any.
    pub game_file: Option<String>,
    /// The last weights file loaded, if any.
    pub weights_file: Option<String>,
    /// The last network file loaded, if any.
    pub network_file: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mib: options::DEFAULT_HASH_MIB as usize,
            threads: 1,
            multipv: 1,
            move_overhead_ms: options::DEFAULT_MOVE_OVERHEAD_MS,
            ponder: false,
            strategy: Strategy::default(),
            seed: 0,
            last_four_rule: LastFourRule::default(),
            tablebase_path: None,
            game_file: None,
            weights_file: None,
            network_file: None,
        }
    }
}

/// The engine state behind the protocol.
pub struct Engine {
    variant: Variant,
    options: Options,
    game: Game,
    table: Arc<TranspositionTable>,
    solver: Arc<Mutex<SolverTable>>,
    tablebases: Option<Arc<Tablebases>>,
    random: SplitMix64,
    job: Option<Job>,
}

/// What setting `TablebasePath` loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TablebaseReport {
    pub path: String,
    /// Each game with tables, and the counters up to which every layer is loaded.
    pub coverage: Vec<(Variant, Option<u32>)>,
    /// Files that were there but refused, and why.
    pub refused: Vec<String>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A new engine on the default variant's start position.
    pub fn new() -> Engine {
        let variant = Variant::default();
        // The compiled networks are read now, so that the first search does not pay for it.
        crate::eval::network::network(variant);
        let options = Options::default();
        let table = TranspositionTable::new(options.hash_mib)
            .or_else(|_| TranspositionTable::new(1))
            .expect("a 1 MiB table");
        Engine {
            variant,
            game: Game::new(Position::start(variant), options.last_four_rule),
            table: Arc::new(table),
            solver: Arc::new(Mutex::new(SolverTable::new(SOLVER_TABLE_MIB))),
            tablebases: None,
            random: SplitMix64::new(options.seed),
            job: None,
            options,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Switches games and resets to the new game's start position.
    pub fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
        self.game = Game::new(Position::start(variant), self.options.last_four_rule);
        self.clear_table();
    }

    pub fn set_last_four_rule(&mut self, rule: LastFourRule) {
        self.options.last_four_rule = rule;
        self.game.set_last_four_rule(rule);
        self.clear_table();
    }

    /// Empties the hash table. A big table is replaced by fresh zeroed memory instead of being
    /// overwritten: the pages the next game never uses are never touched, and what the last game
    /// filled goes back to the system.
    fn clear_table(&mut self) {
        // No job runs when the table is cleared, so the solver's table is free.
        if let Ok(mut solver) = self.solver.lock() {
            solver.clear();
        }
        if self.options.hash_mib <= PREFAULT_MAX_MIB {
            self.table.clear();
            return;
        }
        self.table = Arc::new(placeholder_table());
        match fresh_table(self.options.hash_mib) {
            Ok(table) => self.table = Arc::new(table),
            Err(e) => log::warn!("cannot allocate the {} MiB hash table again", e.mib),
        }
    }

    /// Resizes the hash table (its contents are lost); on failure the old table stays.
    pub fn set_hash(&mut self, mib: u64) -> Result<(), EngineError> {
        options::HASH.check(mib)?;
        let current_mib = (self.table.bytes() >> 20) as u64;
        if let Some(available) = available_memory_mib()
            && mib > available + current_mib
        {
            return Err(EngineError::NotEnoughMemory {
                mib: mib as usize,
                available: available as usize,
            });
        }
        // The old table goes first, so that memory never holds both.
        self.table = Arc::new(placeholder_table());
        match fresh_table(mib as usize) {
            Ok(table) => {
                self.table = Arc::new(table);
                self.options.hash_mib = mib as usize;
                Ok(())
            }
            Err(e) => {
                self.table = Arc::new(
                    fresh_table(self.options.hash_mib).unwrap_or_else(|_| placeholder_table()),
                );
                Err(EngineError::OutOfMemory { mib: e.mib })
            }
        }
    }

    pub fn set_threads(&mut self, threads: u64) -> Result<(), EngineError> {
        options::THREADS.check(threads)?;
        self.options.threads = threads as usize;
        Ok(())
    }

    pub fn set_multipv(&mut self, lines: u64) -> Result<(), EngineError> {
        options::MULTIPV.check(lines)?;
        self.options.multipv = lines as usize;
        Ok(())
    }

    pub fn set_move_overhead(&mut self, ms: u64) -> Result<(), EngineError> {
        options::MOVE_OVERHEAD.check(ms)?;
        self.options.move_overhead_ms = ms;
        Ok(())
    }

    pub fn set_ponder(&mut self, on: bool) {
        self.options.ponder = on;
    }

    pub fn set_strategy(&mut self, strategy: Strategy) {
        self.options.strategy = strategy;
    }

    /// Reseeds the random strategy: the same seed gives the same sequence of choices.
    pub fn set_seed(&mut self, seed: u64) {
        self.options.seed = seed;
        self.random = SplitMix64::new(seed);
    }

    /// Loads the tablebases of directory `path` (empty: none). A directory that cannot be read
    /// is refused and the tables stay as they were; files in it that are damaged or of another
    /// game are left out and reported.
    pub fn set_tablebase_path(&mut self, path: &str) -> Result<TablebaseReport, EngineError> {
        if path.is_empty() {
            self.tablebases = None;
            self.options.tablebase_path = None;
            return Ok(TablebaseReport::default());
        }
        let loaded = Tablebases::load(std::path::Path::new(path))
            .map_err(|e| EngineError::Tablebase(e.to_string()))?;
        // A directory with nothing usable in it is most likely a typo: keep what was loaded.
        if loaded.tablebases.coverage().is_empty() {
            let refused = match loaded.refused.as_slice() {
                [] => String::new(),
                [one] => format!(" (a file was left out: {one})"),
                [first, rest @ ..] => {
                    format!(" ({} files were left out: {first}, …)", rest.len() + 1)
                }
            };
            return Err(EngineError::Tablebase(format!(
                "no tables found in {path}{refused}"
            )));
        }
        let report = TablebaseReport {
            path: path.to_string(),
            coverage: loaded.tablebases.coverage(),
            refused: loaded.refused.iter().map(ToString::to_string).collect(),
        };
        self.tablebases = Some(Arc::new(loaded.tablebases));
        self.options.tablebase_path = Some(path.to_string());
        Ok(report)
    }

    /// Loads the game defined in the file at `path` (see `mancala_rules::definition`),
    /// registers it and switches to it; on failure nothing changes.
    pub fn load_game_file(&mut self, path: &str) -> Result<Variant, EngineError> {
        let variant = load_game(std::path::Path::new(path)).map_err(EngineError::GameFile)?;
        self.options.game_file = Some(path.to_string());
        self.set_variant(variant);
        Ok(variant)
    }

    /// Loads the weights file at `path` for the game it names (see
    /// [`crate::search::weights_file`]); on failure nothing changes.
    pub fn load_weights_file(&mut self, path: &str) -> Result<(Variant, String), EngineError> {
        let loaded = crate::eval::tuning::load(std::path::Path::new(path))
            .map_err(EngineError::WeightsFile)?;
        self.options.weights_file = Some(path.to_string());
        Ok(loaded)
    }

    /// Loads the network file at `path` for the game it names (see
    /// [`crate::search::network`]); on failure nothing changes.
    pub fn load_network_file(&mut self, path: &str) -> Result<Variant, EngineError> {
        let variant = crate::eval::network::load(std::path::Path::new(path))
            .map_err(EngineError::NetworkFile)?;
        self.options.network_file = Some(path.to_string());
        Ok(variant)
    }

    /// The solved value of the current position from the loaded tablebases, if they hold it.
    pub fn tablebase_value(&self) -> Option<i32> {
        self.tablebases
            .as_ref()?
            .probe_with(self.game.position(), self.options.last_four_rule)
    }

    /// Forgets what was learned from earlier games: the hash table.
    pub fn new_game(&mut self) {
        self.clear_table();
    }

    /// The other games in which `text` is a valid position string, for the hint of a refused
    /// one. A game that takes any total is named only for a string of another board shape: a
    /// miscounted string of this game's shape would otherwise always point at it.
    fn games_reading(&self, text: &str) -> Vec<Variant> {
        let rows = self.variant.rules().pits_per_row;
        Variant::all()
            .into_iter()
            .filter(|&v| !(v.rules().any_total && v.rules().pits_per_row == rows))
            .filter(|&v| Position::from_position_string(v, text).is_ok())
            .collect()
    }

    /// Sets up a new game from `base` and plays `moves`; all or nothing.
    pub fn set_position(&mut self, base: &PositionBase, moves: &[Move]) -> Result<(), EngineError> {
        let start = match base {
            PositionBase::StartPos => Position::start(self.variant),
            PositionBase::PositionString(text) => {
                Position::from_position_string(self.variant, text).map_err(|error| {
                    EngineError::InvalidPosition {
                        text: text.clone(),
                        error,
                        valid_in: self.games_reading(text),
                    }
                })?
            }
            PositionBase::Random(seed) => {
                // A random deal is a start of a game without a choice of move, or of one whose
                // start is dealt at random.
                if !self.variant.rules().random_start {
                    self.require_forced_moves("position random")
                        .map_err(|e| match e {
                            EngineError::WrongVariant {
                                what,
                                only,
                                current,
                            } => EngineError::WrongVariant {
                                what,
                                only: format!("{only} and games dealt at random"),
                                current,
                            },
                            other => other,
                        })?;
                }
                Position::random_deal(self.variant, *seed)
            }
        };
        let mut game = Game::new(start, self.options.last_four_rule);
        game.play_all(moves)
            .map_err(EngineError::IllegalMoveInList)?;
        self.game = game;
        Ok(())
    }

    /// Plays `moves` on the current game; all or nothing.
    pub fn play(&mut self, moves: &[Move]) -> Result<(), EngineError> {
        match moves {
            [mv] => self.game.play(*mv).map_err(EngineError::IllegalMove),
            _ => self
                .game
                .play_all(moves)
                .map_err(EngineError::IllegalMoveInList),
        }
    }

    pub fn undo(&mut self, count: usize) -> Result<(), EngineError> {
        self.game.undo(count).map_err(EngineError::Undo)
    }

    /// Mangala IV: the exact outcome of each side choice on the current board.
    pub fn side_choice(&self) -> Result<SideChoice, EngineError> {
        self.require_forced_moves("query side")?;
        injected_fault("side");
        SideChoice::for_board(self.game.position())
            .ok_or_else(|| self.for_forced_moves_only("query side"))
    }

    /// The static evaluation of the current position, term by term.
    pub fn eval(&self) -> EvalParts {
        evaluate_parts(self.game.position())
    }

    /// `what` exists only for games whose moves are forced (their deals and side choice).
    fn require_forced_moves(&self, what: &'static str) -> Result<(), EngineError> {
        if self.variant.rules().has_forced_moves() {
            Ok(())
        } else {
            Err(self.for_forced_moves_only(what))
        }
    }

    /// The error of `what` in a game whose moves are not forced.
    fn for_forced_moves_only(&self, what: &'static str) -> EngineError {
        let only: Vec<&str> = Variant::ALL
            .iter()
            .filter(|v| v.rules().has_forced_moves())
            .map(|v| v.name())
            .collect();
        EngineError::WrongVariant {
            what,
            only: only.join(" and "),
            current: self.variant,
        }
    }

    /// The kind of the running job, if any (it may have just finished; [`Engine::finish_job`]
    /// tells).
    pub fn job(&self) -> Option<JobKind> {
        self.job.as_ref().map(|job| job.kind)
    }

    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Asks the running job, if any, to stop soon.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.control.stop();
        }
    }

    /// Whether the running job, if any, has been told to stop (it is ending).
    pub fn stop_requested(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|job| job.control.is_stopped())
    }

    /// The ponder search becomes a normal search (no effect on other jobs).
    pub fn ponderhit(&self) {
        if let Some(job) = &self.job
            && job.kind == JobKind::Search
        {
            job.control.ponderhit(job.started.elapsed());
        }
    }

    /// Waits for the running job, if any, to end (after its last report).
    pub fn finish_job(&mut self) {
        if let Some(job) = self.job.take()
            && job.handle.join().is_err()
        {
            log::error!("a background job panicked");
        }
    }

    fn spawn(
        &mut self,
        kind: JobKind,
        control: Arc<SearchControl>,
        work: impl FnOnce() + Send + 'static,
    ) -> Result<(), EngineError> {
        if self.job.is_some() {
            return Err(EngineError::Busy);
        }
        let handle = std::thread::Builder::new()
            .name(format!("{kind:?}").to_lowercase())
            .stack_size(JOB_STACK_BYTES)
            .spawn(work)
            .map_err(|error| EngineError::NoThread(error.to_string()))?;
        self.job = Some(Job {
            kind,
            control,
            started: Instant::now(),
            handle,
        });
        Ok(())
    }

    /// Starts perft of the current position (history ignored, RULES.md, "The engine's choices") on a background
    /// thread. `report` receives every event; `done` runs after the last one.
    pub fn start_perft(
        &mut self,
        depth: u64,
        mut report: impl FnMut(PerftEvent) + Send + 'static,
        done: impl FnOnce() + Send + 'static,
    ) -> Result<(), EngineError> {
        if depth > MAX_PERFT_DEPTH {
            return Err(EngineError::PerftTooDeep(depth));
        }
        let position = *self.game.position();
        let control = Arc::new(SearchControl::new(false));
        let job_control = Arc::clone(&control);
        self.spawn(JobKind::Perft, control, move || {
            let started = Instant::now();
            let outcome = guarded(|| {
                injected_fault("perft");
                perft_divide(
                    &position,
                    depth as u32,
                    job_control.stop_flag(),
                    |mv, count| report(PerftEvent::Move(mv, count)),
                )
            });
            report(match outcome {
                Ok(Ok(nodes)) => PerftEvent::Finished {
                    nodes,
                    elapsed: started.elapsed(),
                },
                Ok(Err(Aborted)) => PerftEvent::Stopped,
                Err(message) => PerftEvent::Failed(message),
            });
            done();
        })
    }

    /// Starts a search of the current position on a background thread: `report` receives each
    /// iteration, `done` the answer (exactly once).
    pub fn go(
        &mut self,
        limits: Limits,
        mut report: impl FnMut(SearchInfo) + Send + 'static,
        done: impl FnOnce(SearchOutcome) + Send + 'static,
    ) -> Result<(), EngineError> {
        if self.job.is_some() {
            return Err(EngineError::Busy);
        }
        let game = self.game.clone();
        let options = SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
            strategy: self.options.strategy,
            random: self.random.next_u64(),
            solver: Some(Arc::clone(&self.solver)),
            tablebases: self.tablebases.clone(),
        };
        let table = Arc::clone(&self.table);
        let control = Arc::new(SearchControl::new(limits.ponder));
        let job_control = Arc::clone(&control);
        self.spawn(JobKind::Search, control, move || {
            let outcome = guarded(|| {
                injected_fault("search");
                search(&game, &limits, &options, table, job_control, &mut report)
            });
            done(outcome.unwrap_or_else(|message| {
                // A bug ended the search: the answer is still a legal move.
                log::error!("the search failed: {message}");
                SearchOutcome {
                    best: game.legal_moves().as_slice().first().copied(),
                    internal_error: Some(message),
                    ..SearchOutcome::default()
                }
            }));
        })
    }

    /// Starts the bench on a background thread.
    pub fn start_bench(
        &mut self,
        report: impl FnMut(&bench::BenchItem) + Send + 'static,
        done: impl FnOnce(Result<(u64, Duration), String>, bool) + Send + 'static,
    ) -> Result<(), EngineError> {
        let control = Arc::new(SearchControl::new(false));
        let job_control = Arc::clone(&control);
        self.spawn(JobKind::Bench, control, move || {
            match guarded(|| {
                injected_fault("bench");
                bench::run(report, &job_control)
            }) {
                Ok((nodes, elapsed)) => done(Ok((nodes, elapsed)), job_control.is_stopped()),
                Err(message) => done(Err(message), true),
            }
        })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.finish_job();
    }
}
