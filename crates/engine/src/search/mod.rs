//! The search: iterative deepening alpha-beta over a shared transposition table, with Lazy SMP
//! helper threads, time management and the simple baseline strategies.
//!
//! It prints nothing: progress goes to a callback, and it stops when its [`SearchControl`] says so.

mod limits;
mod strategy;
pub(crate) mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use crate::node::score::Score;
pub use limits::{Limits, TimePlan};
pub use strategy::Strategy;
pub use tt::TranspositionTable;

use crate::node::keys::{position_key, position_key_for};
use crate::node::score::{INFINITY, MAX_PLY, Value};
use crate::solve::{SolveLimits, Solver, SolverTable};
use worker::{RootResult, Worker, is_proven};

use mancala_rules::{Game, LastFourRule, Move, Position, Spec, margin_of};
use mancala_tablebase::Tablebases;

pub use mancala_rules::Aborted;

/// How the outside world steers a running search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Microseconds from the search's start to `ponderhit` (the clock starts then).
    ponderhit_at: AtomicU64,
}

impl SearchControl {
    pub fn new(ponder: bool) -> SearchControl {
        let control = SearchControl::default();
        control.pondering.store(ponder, Ordering::Relaxed);
        control
    }

    /// Ends the search as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag itself, for jobs that poll a plain `AtomicBool` (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The opponent played the expected move: the ponder search becomes a normal one, with the
    /// clock starting now.
    pub fn ponderhit(&self, since_start: Duration) {
        self.ponderhit_at
            .store(since_start.as_micros() as u64, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// Settings of a search that do not come from `go`.
#[derive(Clone)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub strategy: Strategy,
    /// A fresh random number for this search (the `random` strategy's choice).
    pub random: u64,
    /// The solver's table, kept between searches; without one, small positions are not solved.
    pub solver: Option<Arc<Mutex<SolverTable>>>,
    /// Endgame tables, if loaded.
    pub tablebases: Option<Arc<Tablebases>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            strategy: Strategy::Search,
            random: 0,
            solver: None,
            tablebases: None,
        }
    }
}

/// One line of thinking, reported after each completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of this line among the MultiPV lines.
    pub multipv: usize,
    pub score: Score,
    /// The final margin of the line's first move, when the search has proven it.
    pub exact_margin: Option<i32>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// Positions looked up in the tablebases.
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// The one line of a search that reached `depth` (and as deep) after `nodes` nodes in
    /// `elapsed`, with its speed; no hash table or tablebase figures.
    pub fn new(
        depth: u32,
        score: Score,
        exact_margin: Option<i32>,
        pv: Vec<Move>,
        nodes: u64,
        elapsed: Duration,
    ) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            multipv: 1,
            score,
            exact_margin,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time_ms: elapsed.as_millis() as u64,
            hashfull: 0,
            tbhits: 0,
            pv,
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOutcome {
    /// `None` when the game is over.
    pub best: Option<Move>,
    /// The reply expected after `best` (the second move of the principal variation).
    pub ponder: Option<Move>,
    pub nodes: u64,
    pub depth: u32,
    pub score: Option<Score>,
    /// A bug ended the search early (its message): the move is only a legal one.
    pub internal_error: Option<String>,
}

/// What every search thread shares.
pub(crate) struct Shared {
    root: Position,
    root_quiet: u16,
    rule: LastFourRule,
    table: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    nodes: AtomicU64,
    node_limit: Option<u64>,
    plan: TimePlan,
    start: Instant,
    /// The main thread has finished: helpers stop.
    done: AtomicBool,
    /// The depth the search is asked to reach; a helper that reaches it first ends the search.
    target_depth: u32,
    /// The deepest iteration any helper has completed, with its result.
    helper_best: Mutex<Option<(u32, RootResult)>>,
    /// Set when a helper has completed `target_depth`.
    target_reached: AtomicBool,
    helper_depth: AtomicU32,
    /// The depth the main thread is searching.
    main_depth: AtomicU32,
    /// The moves being searched by some thread, when there are several.
    busy: Option<BusyMoves>,
    /// The tables, when they cover some positions of this game: positions with at most
    /// `tb_max` counters on the board are exact leaves.
    tablebases: Option<Arc<Tablebases>>,
    tb_max: u32,
    tb_hits: AtomicU64,
}

/// Which (position, move) pairs some thread is searching now: a small lossy table of hashes.
pub(crate) struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

impl BusyMoves {
    const SLOTS: usize = 1 << 15;

    fn new() -> BusyMoves {
        BusyMoves {
            slots: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn tag(key: u64, mv: Move, n: usize) -> u64 {
        (key ^ (mv.code(n) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 17) as usize % Self::SLOTS]
    }

    #[inline]
    pub(crate) fn is_searching(&self, key: u64, mv: Move, n: usize) -> bool {
        let tag = Self::tag(key, mv, n);
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    #[inline]
    pub(crate) fn enter(&self, key: u64, mv: Move, n: usize) {
        let tag = Self::tag(key, mv, n);
        self.slot(tag).store(tag, Ordering::Relaxed);
    }

    #[inline]
    pub(crate) fn leave(&self, key: u64, mv: Move, n: usize) {
        let tag = Self::tag(key, mv, n);
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

impl Shared {
    /// Time on the clock so far: from the start, or from `ponderhit` for a ponder search.
    fn clock(&self) -> Duration {
        let elapsed = self.start.elapsed();
        let hit = Duration::from_micros(self.control.ponderhit_at.load(Ordering::Relaxed));
        elapsed.saturating_sub(hit)
    }

    fn should_stop(&self, abortable: bool) -> bool {
        // Depth 1 always finishes (it takes microseconds), so every answer comes from a search.
        if !abortable {
            return false;
        }
        if self.control.is_stopped()
            || self.done.load(Ordering::Relaxed)
            || self.target_reached.load(Ordering::Relaxed)
        {
            return true;
        }
        if self.control.is_pondering() {
            return false;
        }
        self.plan.hard.is_some_and(|hard| self.clock() >= hard)
    }
}

/// Keys of the game's positions before the current one that a later position could repeat
/// (those since the last capture).
fn history_keys(game: &Game) -> Vec<u64> {
    let mut keys: Vec<u64> = game.since_capture().map(position_key).collect();
    keys.pop(); // the current position is the search's root
    keys
}

/// Searches the current position of `game` within `limits`, reporting each completed iteration.
/// Returns only when the limits are reached or the control says stop (under `infinite` and
/// `ponder`, only on stop or ponderhit).
pub fn search(
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    table: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    report: &mut dyn FnMut(SearchInfo),
) -> SearchOutcome {
    let start = Instant::now();
    let legal = game.legal_moves();
    let outcome = if legal.is_empty() {
        SearchOutcome::default()
    } else if game.position().rules().has_forced_moves() {
        forced_play(game, start, report)
    } else {
        match options.strategy {
            Strategy::Search => solve_small(game, limits, options, &control, start, report)
                .unwrap_or_else(|| {
                    let shared = Shared {
                        root: *game.position(),
                        root_quiet: game.quiet_run(),
                        rule: game.last_four_rule(),
                        table,
                        control: Arc::clone(&control),
                        nodes: AtomicU64::new(0),
                        node_limit: limits.nodes,
                        plan: TimePlan::new(
                            limits,
                            game.position().side_to_move(),
                            options.move_overhead_ms,
                        ),
                        start,
                        done: AtomicBool::new(false),
                        target_depth: max_depth(limits),
                        helper_best: Mutex::new(None),
                        target_reached: AtomicBool::new(false),
                        helper_depth: AtomicU32::new(0),
                        busy: (options.threads > 1).then(BusyMoves::new),
                        main_depth: AtomicU32::new(0),
                        tb_max: options
                            .tablebases
                            .as_ref()
                            .filter(|_| {
                                game.last_four_rule() == LastFourRule::MostRecentFour
                                    || !game.position().rules().tracks_four_holders()
                            })
                            .and_then(|tb| tb.max_counters(game.position().variant()))
                            .unwrap_or(0),
                        tablebases: options.tablebases.clone(),
                        tb_hits: AtomicU64::new(0),
                    };
                    mancala_rules::with_spec!(
                        shared.root.variant(),
                        S => search_threads::<S>(&shared, game, limits, options, report)
                    )
                }),
            other => SearchOutcome {
                best: Some(other.choose(game.position(), options.random)),
                ..SearchOutcome::default()
            },
        }
    };
    // Under `infinite` (or while pondering) the answer waits for `stop` (or `ponderhit`).
    while limits.waits_for_stop()
        && !control.is_stopped()
        && (limits.infinite || !limits.ponder || control.is_pondering())
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    outcome
}

/// Nodes the solver may spend when the search has no clock (under `depth`, `nodes`, or no limit):
/// a fixed budget keeps such searches repeatable.
const SOLVE_NODES_WITHOUT_CLOCK: u64 = 4_000_000;

/// Small positions are solved outright when the solver can do it within a share of the time:
/// the answer then keeps the solved value (the best final margin), and comes at once.
fn solve_small(
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    control: &Arc<SearchControl>,
    start: Instant,
    report: &mut dyn FnMut(SearchInfo),
) -> Option<SearchOutcome> {
    let pos = game.position();
    let table = options.solver.as_ref()?;
    let in_tables = options
        .tablebases
        .as_ref()
        .is_some_and(|tb| tb.probe_with(pos, game.last_four_rule()).is_some());
    if (pos.on_board() > crate::eval::tuning::tuning(pos.variant()).solve_max_counters
        && !in_tables)
        || options.multipv > 1
    {
        return None;
    }
    let plan = TimePlan::new(limits, pos.side_to_move(), options.move_overhead_ms);
    let (deadline, nodes) = match plan.soft {
        Some(soft) if !limits.infinite && !limits.ponder => (Some(start + soft / 4), None),
        _ => (
            None,
            Some(limits.nodes.map_or(SOLVE_NODES_WITHOUT_CLOCK, |n| n / 2)),
        ),
    };
    let mut table = table
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let tablebases = options.tablebases.as_deref();
    let base = position_key(game.base());
    let moves: Vec<Move> = game.moves().collect();
    if !in_tables && table.gave_up_before(base, &moves, pos.on_board()) {
        return None;
    }
    let solve_limits = SolveLimits {
        nodes,
        deadline,
        stop: Some(control.stop_flag()),
        progress: None,
    };
    // How often each position has occurred since the game's last capture.
    let history: Vec<u64> = game.since_capture().map(position_key).collect();
    let seen = |p: &Position| {
        let key = position_key(p);
        history.iter().filter(|&&k| k == key).count()
    };
    let solved = mancala_rules::with_spec!(pos.variant(), S => {
        Solver::<S>::new(&table, tablebases, game.last_four_rule(), solve_limits)
            .solve_for_play(pos, &seen)
    });
    let solution = match solved {
        Ok(solution) => solution,
        Err(Aborted) => {
            log::debug!("the solver gave up after {:?}", start.elapsed());
            if !control.is_stopped() {
                table.give_up(base, &moves, pos.on_board());
            }
            return None;
        }
    };
    Some(proven_answer(
        solution.value,
        solution.pv,
        solution.nodes,
        solution.tb_hits,
        start,
        report,
    ))
}

/// The answer to a search whose value is proven: `margin` by the line `pv` (its first move the
/// one to play), reported as one `info` line whose depth is the line's length.
fn proven_answer(
    margin: i32,
    pv: Vec<Move>,
    nodes: u64,
    tbhits: u64,
    start: Instant,
    report: &mut dyn FnMut(SearchInfo),
) -> SearchOutcome {
    // The length is exact here, however long the line: no need for the search's encoding.
    let plies = pv.len().max(1) as i32;
    let score = match margin.signum() {
        0 => Score::Centi(0),
        sign => Score::Mate {
            plies: sign * plies,
            margin,
        },
    };
    let info = SearchInfo {
        tbhits,
        ..SearchInfo::new(
            plies as u32,
            score,
            Some(margin),
            pv,
            nodes,
            start.elapsed(),
        )
    };
    let outcome = SearchOutcome {
        best: info.pv.first().copied(),
        ponder: info.pv.get(1).copied(),
        nodes,
        depth: plies as u32,
        internal_error: None,
        score: Some(score),
    };
    report(info);
    outcome
}

fn search_threads<S: Spec>(
    shared: &Shared,
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    report: &mut dyn FnMut(SearchInfo),
) -> SearchOutcome {
    shared.table.new_search();
    let keys = history_keys(game);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..options.threads.max(1))
            .filter_map(|id| {
                let keys = &keys;
                std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(32 << 20)
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker::<S>::new(shared, id, keys);
                        helper_loop(&mut worker, shared);
                        worker.flush_nodes();
                    })
                    .map_err(|e| log::warn!("cannot start search helper {id}: {e}"))
                    .ok()
            })
            .collect();
        let mut main = Worker::<S>::new(shared, 0, &keys);
        let outcome = iterative_deepening(&mut main, shared, limits, options, report);
        shared.done.store(true, Ordering::Relaxed);
        for helper in helpers {
            let _ = helper.join();
        }
        SearchOutcome {
            nodes: shared.nodes.load(Ordering::Relaxed),
            ..outcome
        }
    })
}

/// The deepest iteration a search may run.
fn max_depth(limits: &Limits) -> u32 {
    limits
        .depth
        .unwrap_or(u32::MAX)
        .clamp(1, (MAX_PLY - 8) as u32)
}

/// A Lazy SMP helper: searches the same root (the first helper at the main thread's depth, where
/// moves one thread is searching are put off by the other so that the two share the work; further
/// helpers alternate between that depth and one ply ahead), filling the shared
/// table for the main thread, and offers each completed iteration as an answer.
fn helper_loop<S: Spec>(worker: &mut Worker<S>, shared: &Shared) {
    let mut depth = 1 + (worker.id / 2 % 2) as u32;
    let mut previous = None;
    while depth <= shared.target_depth {
        let Ok(result) = search_window(worker, depth, previous) else {
            return;
        };
        if shared.done.load(Ordering::Relaxed) {
            return;
        }
        previous = Some(result.value);
        if !result.pv.is_empty()
            && shared.helper_depth.fetch_max(depth, Ordering::Relaxed) < depth
            && let Ok(mut best) = shared.helper_best.lock()
        {
            *best = Some((depth, result));
        }
        if depth >= shared.target_depth {
            shared.target_reached.store(true, Ordering::Relaxed);
            return;
        }
        // Stay ahead of the main thread: its iterations fill the table for this one's.
        let main_depth = shared.main_depth.load(Ordering::Relaxed);
        depth = (depth + 1).max(main_depth + (worker.id / 2 % 2) as u32);
    }
}

fn iterative_deepening<S: Spec>(
    main: &mut Worker<S>,
    shared: &Shared,
    limits: &Limits,
    options: &SearchOptions,
    report: &mut dyn FnMut(SearchInfo),
) -> SearchOutcome {
    let root_moves = shared.root.legal_moves();
    let lines = options.multipv.clamp(1, root_moves.len());
    let max_depth = limits
        .depth
        .unwrap_or(u32::MAX)
        .clamp(1, (MAX_PLY - 8) as u32);
    let mut completed: Vec<RootResult> = Vec::new();
    let mut completed_depth = 0;
    'deepening: for depth in 1..=max_depth {
        shared.main_depth.store(depth, Ordering::Relaxed);
        let mut results: Vec<RootResult> = Vec::with_capacity(lines);
        main.excluded.clear();
        for line in 0..lines {
            let previous = completed.get(line).map(|r| r.value);
            match search_window(main, depth, previous) {
                Ok(result) if !result.pv.is_empty() => {
                    main.excluded.push(result.pv[0]);
                    results.push(result);
                }
                Ok(_) => break,
                Err(Aborted) => {
                    // An unfinished iteration still tells something if a move already scored
                    // inside its window at the new depth: that move is better than the last
                    // iteration's answer, whose move is searched first.
                    if lines == 1
                        && let Some(partial) = main.unfinished_root()
                        && completed
                            .first()
                            .is_none_or(|done| done.pv.first() != partial.pv.first())
                    {
                        log::debug!("depth {depth} unfinished: {} instead", partial.pv[0]);
                        main.flush_nodes();
                        report(iteration_info(shared, main, depth, 1, &partial));
                        completed = vec![partial];
                        completed_depth = depth;
                    }
                    break 'deepening;
                }
            }
        }
        main.flush_nodes();
        completed = results;
        completed_depth = depth;
        for (index, result) in completed.iter().enumerate() {
            report(iteration_info(shared, main, depth, index + 1, result));
        }
        if shared.control.is_stopped() {
            break;
        }
        let free = limits.waits_for_stop() && (limits.infinite || shared.control.is_pondering());
        if free {
            continue;
        }
        if root_moves.len() == 1 && limits.depth.is_none() && limits.nodes.is_none() {
            break; // forced: no need to think
        }
        log::trace!(
            "depth {depth}: root moves {:?}",
            completed[0]
                .moves
                .iter()
                .map(|(mv, s)| format!("{mv} {} [{}, {}]", s.value, s.lo, s.hi))
                .collect::<Vec<_>>()
        );
        // No deeper search can find a better margin; the line shown reaches the end once the
        // depth covers it.
        let covered = match Score::from_value(completed[0].value) {
            Score::Mate { plies, .. } => depth as i32 >= plies.abs(),
            Score::Centi(_) => true,
        };
        if completed[0].best_is_proven_optimal() && covered {
            break;
        }
        // An iteration takes a few times the one before: start the next only if it has a fair
        // chance to finish, since an unfinished one gives at best a better move.
        if let Some(soft) = shared.plan.soft
            && shared.clock() >= soft * 3 / 5
        {
            break;
        }
        if limits
            .nodes
            .is_some_and(|n| shared.nodes.load(Ordering::Relaxed) >= n)
        {
            break;
        }
    }
    // A helper that got deeper than the main thread has the better answer (single-line only:
    // helpers do not search MultiPV lines).
    if lines == 1
        && let Ok(mut helper) = shared.helper_best.lock()
        && let Some((depth, result)) = helper.take()
        && depth > completed_depth
    {
        main.flush_nodes();
        report(iteration_info(shared, main, depth, 1, &result));
        completed = vec![result];
        completed_depth = depth;
    }
    if lines == 1
        && let Some(result) = completed.pop()
    {
        let best = result.pv.first().copied();
        let mut preferred = result.preferred();
        if preferred.pv.first().copied() != best {
            preferred.pv = table_line::<S>(shared, preferred.pv[0]);
            log::debug!("{} instead of {best:?}: a smaller loss", preferred.pv[0]);
            main.flush_nodes();
            report(iteration_info(shared, main, completed_depth, 1, &preferred));
        }
        completed = vec![preferred];
    }
    let best_line = completed.first().map(|r| r.pv.clone()).unwrap_or_default();
    SearchOutcome {
        best: best_line
            .first()
            .copied()
            .or(root_moves.as_slice().first().copied()),
        ponder: best_line.get(1).copied(),
        nodes: 0,
        depth: completed_depth,
        internal_error: None,
        score: completed.first().map(|r| Score::from_value(r.value)),
    }
}

/// The line that starts with the root move `first` and follows the table's best moves, as far
/// as the table knows them (to the end of the game, a position met twice, or 64 moves).
fn table_line<S: Spec>(shared: &Shared, first: Move) -> Vec<Move> {
    let mut line = vec![first];
    let mut pos = shared.root;
    let mut quiet = shared.root_quiet;
    let mut seen = vec![position_key_for::<S>(&pos)];
    let mut mv = first;
    loop {
        let effect = pos.play_for::<S>(mv);
        quiet = if effect.captured > 0 { 0 } else { quiet + 1 };
        let key = position_key_for::<S>(&pos);
        if effect.endless || pos.is_game_over_for::<S>() || seen.contains(&key) || line.len() >= 64
        {
            return line;
        }
        seen.push(key);
        let next = shared
            .table
            .probe(
                crate::node::keys::table_key(key, quiet),
                S::rules(&pos).pits_per_row,
            )
            .and_then(|entry| entry.best)
            .filter(|&next| pos.legal_moves_for::<S>().contains(next));
        match next {
            Some(next) => {
                line.push(next);
                mv = next;
            }
            None => return line,
        }
    }
}

/// The report of one completed iteration (line `multipv` of it).
fn iteration_info<S: Spec>(
    shared: &Shared,
    main: &Worker<S>,
    depth: u32,
    multipv: usize,
    result: &RootResult,
) -> SearchInfo {
    let elapsed = shared.start.elapsed();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    SearchInfo {
        seldepth: main.seldepth as u32,
        multipv,
        hashfull: shared.table.hashfull(),
        tbhits: shared.tb_hits.load(Ordering::Relaxed),
        ..SearchInfo::new(
            depth,
            Score::from_value(result.value),
            result.line_margin(),
            result.pv.clone(),
            nodes,
            elapsed,
        )
    }
}

/// Searches the root at `depth` in an aspiration window around `previous`, widening on failure.
fn search_window<S: Spec>(
    worker: &mut Worker<S>,
    depth: u32,
    previous: Option<Value>,
) -> Result<RootResult, Aborted> {
    let mut window: Value = 40;
    let (mut alpha, mut beta) = match previous {
        Some(v) if depth >= 4 && !is_proven(v) => (v - window, v + window),
        _ => (-INFINITY, INFINITY),
    };
    loop {
        let result = worker.search_root(depth, alpha, beta)?;
        if result.value <= alpha && alpha > -INFINITY {
            beta = (alpha + beta) / 2;
            alpha = (result.value - window).max(-INFINITY);
        } else if result.value >= beta && beta < INFINITY {
            beta = (result.value + window).min(INFINITY);
        } else {
            return Ok(result);
        }
        window *= 3;
        if window > 2_000 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// Mangala IV: there is never a choice, so play the game out under all the rules; the result is
/// exact.
fn forced_play(game: &Game, start: Instant, report: &mut dyn FnMut(SearchInfo)) -> SearchOutcome {
    let mut line = game.clone();
    let mut pv = Vec::new();
    while let Some(&mv) = line.legal_moves().as_slice().first() {
        if line.play(mv).is_err() {
            break;
        }
        pv.push(mv);
    }
    let margin = margin_of(line.score(), game.position().side_to_move());
    let nodes = pv.len() as u64;
    proven_answer(margin, pv, nodes, 0, start, report)
}
