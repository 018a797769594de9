//! The engine facade: owns the game, the rule options and the background job (perft now, the
//! search later). It never prints; a job reports through the callback it was started with.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::rules::{
    Aborted, Game, IllegalMove, LastFourRule, Move, MoveListError, Position, PositionStringError,
    SideChoice, UndoError, Variant, perft_divide,
};

/// The deepest perft accepted: deeper trees could not finish anyway, and the bound keeps the
/// recursion well inside the job thread's stack.
pub const MAX_PERFT_DEPTH: u32 = 256;

/// Stack for job threads: perft and search recurse once per ply.
const JOB_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    StartPos,
    /// A position string (rules.md §6), not yet validated.
    PositionString(String),
    /// Mangala IV's random deal from a seed.
    Random(u64),
}

/// Why an engine command was refused; the engine is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    InvalidPosition {
        text: String,
        error: PositionStringError,
    },
    IllegalMove(IllegalMove),
    IllegalMoveInList(MoveListError),
    Undo(UndoError),
    /// The command exists only for some games.
    WrongVariant {
        what: &'static str,
        only: Variant,
        current: Variant,
    },
    PerftTooDeep(u32),
    /// A background job is running.
    Busy,
    /// The operating system refused a thread for the job.
    NoThread(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::InvalidPosition { text, error } => {
                write!(f, "invalid position string '{text}': {error}")
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
            EngineError::Busy => write!(f, "a job is running; send stop first"),
            EngineError::NoThread(error) => write!(f, "cannot start a thread: {error}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What a perft job reports, in this order: one `Move` per legal move, then `Finished` or
/// `Stopped`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftEvent {
    Move(Move, u64),
    Finished { nodes: u64, elapsed: Duration },
    Stopped,
}

struct Job {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine state behind the protocol.
pub struct Engine {
    variant: Variant,
    last_four_rule: LastFourRule,
    game: Game,
    job: Option<Job>,
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
        let last_four_rule = LastFourRule::default();
        Engine {
            variant,
            last_four_rule,
            game: Game::new(Position::start(variant), last_four_rule),
            job: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn last_four_rule(&self) -> LastFourRule {
        self.last_four_rule
    }

    /// Switches games and resets to the new game's start position.
    pub fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
        self.game = Game::new(Position::start(variant), self.last_four_rule);
    }

    pub fn set_last_four_rule(&mut self, rule: LastFourRule) {
        self.last_four_rule = rule;
        self.game.set_last_four_rule(rule);
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
                    }
                })?
            }
            PositionBase::Random(seed) => {
                self.require(Variant::MangalaIV, "position random")?;
                Position::mangala_iv_deal(*seed)
            }
        };
        let mut game = Game::new(start, self.last_four_rule);
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
        self.require(Variant::MangalaIV, "query side")?;
        SideChoice::for_board(self.game.position()).ok_or(EngineError::WrongVariant {
            what: "query side",
            only: Variant::MangalaIV,
            current: self.variant,
        })
    }

    fn require(&self, only: Variant, what: &'static str) -> Result<(), EngineError> {
        if self.variant == only {
            Ok(())
        } else {
            Err(EngineError::WrongVariant {
                what,
                only,
                current: self.variant,
            })
        }
    }

    /// Whether a job is running (it may have just finished; [`Engine::finish_job`] tells).
    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Asks the running job, if any, to stop soon.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
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

    /// Starts perft of the current position (history ignored, rules.md §7) on a background
    /// thread. `report` receives every event; `done` runs after the last one.
    pub fn start_perft(
        &mut self,
        depth: u32,
        mut report: impl FnMut(PerftEvent) + Send + 'static,
        done: impl FnOnce() + Send + 'static,
    ) -> Result<(), EngineError> {
        if self.job.is_some() {
            return Err(EngineError::Busy);
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(EngineError::PerftTooDeep(depth));
        }
        let position = *self.game.position();
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("perft".into())
            .stack_size(JOB_STACK_BYTES)
            .spawn(move || {
                let started = Instant::now();
                let outcome = perft_divide(&position, depth, &job_stop, |mv, count| {
                    report(PerftEvent::Move(mv, count))
                });
                report(match outcome {
                    Ok(nodes) => PerftEvent::Finished {
                        nodes,
                        elapsed: started.elapsed(),
                    },
                    Err(Aborted) => PerftEvent::Stopped,
                });
                done();
            })
            .map_err(|error| EngineError::NoThread(error.to_string()))?;
        self.job = Some(Job { stop, handle });
        Ok(())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.finish_job();
    }
}
