//! `mancala-engine solve`: proves a position's solved value by search, reporting progress while
//! it runs and what it has proven when a limit stops it.

use mancala_engine::engine::options::MAX_THREADS;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use mancala_engine::solve::{
    LineEnd, MAX_SOLVE_PLY, MAX_SOLVER_TABLE_MIB, ProbeAnswer, SecondProof, Solution, SolveLimits,
    Solver, SolverTable, ValueQuery, VerifyError,
};
use mancala_rules::{LastFourRule, Position, Variant};

/// Prove the solved value of a position by search.
///
/// The solved value (RULES.md, "Solved values") is the final margin of the side to move under
/// perfect play. Tables given with --tablebases are exact leaves. Each probe's answer is printed
/// as it comes, and a progress line every --progress seconds; a limit (--time, --nodes) ends
/// the search with the bounds proven so far, and so do Ctrl-C and SIGTERM (exit status 130 or
/// 143; a second signal ends it at once).
#[derive(Args, Debug)]
#[command(after_help = "Example, in a second: mancala-engine solve mangala-ii \
                        3-3-3-3-3-3-3-3-3-3-3-3-18-18-S")]
pub struct Solve {
    /// The game (any with a choice of move: mangala-ii, al-manqala, anywoli, kalah, oware, or one loaded with --game).
    #[arg(value_parser = |text: &str| super::game_with_choice(text, "has nothing to solve"))]
    variant: Variant,
    /// The position string (RULES.md), e.g. 3-3-3-3-3-3-3-3-3-3-3-3-18-18-S.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Endgame tables to use at the leaves (built by 'mancala-engine tablebase').
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    /// The solver's table, in MiB at most: it grows as the solve fills it (cut to the memory
    /// this process may use).
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=MAX_SOLVER_TABLE_MIB as u64))]
    hash: u64,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Stop after this many nodes (counted over every thread; each thread stops at most this
    /// many nodes after the probe it works on began).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Seconds between progress lines (0: none).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    progress: f64,
    /// Once proven, prove the value again another way and fail unless both agree: a fresh
    /// table, the other search (proof numbers after alpha-beta, alpha-beta with moves among
    /// equals in the other order after proof numbers), one probe on each side of the value
    /// instead of the search for it; and every position of the line within the tables solved
    /// again without them. By proof numbers it takes up to twice --hash.
    #[arg(long)]
    verify: bool,
    /// Threads (default: every core): each probe of the root searched by all of them over one
    /// table, the first answer taken; a thread puts off a position another is searching, so
    /// that they split the work.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
    /// Search each probe by proof numbers on the first thread (further threads by alpha-beta,
    /// over the same table of proven bounds), with a second table of --hash MiB for the
    /// numbers of positions not yet settled.
    #[arg(long)]
    proof_numbers: bool,
    /// Nodes the main probe (where MTD(f) probes) may first spend, per thread (0: no budget).
    /// When it spends them unanswered, side probes close in on it from afar with an eighth of
    /// its budget each, and once they run out on both sides it goes on with twice the budget
    /// (resuming, not starting again): a long solve stopped early then reports bounds on both
    /// sides of the value instead of only on one.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_PROBE_BUDGET)]
    probe_budget: u64,
    /// Bounds an earlier run of the same solve proved (the `value in [LO, HI]` it printed when
    /// stopped), taken as given, so that a long solve goes on where it stopped instead of
    /// proving them again. The value found is then proven only if they are; --verify proves
    /// it again from nothing.
    #[arg(long, num_args = 2, value_names = ["LO", "HI"], allow_hyphen_values = true)]
    known: Option<Vec<i32>>,
    /// Answer one question instead of the value: is it at least B? (The probes close in on B
    /// as on the value; no line is searched.) What a bound costs, measured alone.
    #[arg(long, value_name = "B", allow_hyphen_values = true, conflicts_with = "verify",
          value_parser = clap::value_parser!(i32).range(-10_000..=10_000))]
    at_least: Option<i32>,
}

/// What the solve was asked, and found.
enum Found {
    /// The value, a move that keeps it and a line.
    Value(Solution),
    /// Whether the value is at least the bound of `--at-least`.
    AtLeast(bool),
}

/// The first node budget of a probe, per thread: ten to twenty seconds' search, more than the
/// hardest probe of the README's examples takes (so they are searched as without budgets).
const DEFAULT_PROBE_BUDGET: u64 = 1 << 26;

/// What the probes have proven so far: the value is in `lo..=hi`.
#[derive(Clone, Copy, Debug)]
struct Proven {
    lo: i32,
    hi: i32,
}

impl Solve {
    pub fn run(self) -> Result<(), String> {
        super::interrupt::stop_on_signals();
        let variant = self.variant;
        let text = &self.position;
        let pos = Position::from_position_string(variant, text)
            .map_err(|e| format!("invalid position string '{text}': {e}"))?;
        let seconds = |flag: &str, value: f64| {
            (value.is_finite() && value >= 0.0)
                .then(|| Duration::from_secs_f64(value))
                .ok_or(format!("{flag} takes a number of seconds, not {value}"))
        };
        let time_limit = self.time.map(|t| seconds("--time", t)).transpose()?;
        let every = seconds("--progress", self.progress)?;
        // The value can be no better than the captured margin plus everything on the board.
        let captured = pos.captured_margin();
        let on_board = pos.on_board() as i32;
        let (reach_lo, reach_hi) = (captured - on_board, captured + on_board);
        let known = match self.known.as_deref() {
            Some(&[lo, hi]) if lo <= hi && reach_lo <= hi && lo <= reach_hi => {
                Some((lo.max(reach_lo), hi.min(reach_hi)))
            }
            Some(&[lo, hi]) if lo > hi => {
                return Err(format!("--known {lo} {hi}: LO is above HI"));
            }
            Some(&[lo, hi]) => {
                return Err(format!(
                    "--known {lo} {hi}: no value of this position is in [{lo}, {hi}] (the \
                     board allows [{reach_lo}, {reach_hi}])"
                ));
            }
            _ => None,
        };
        let tablebases = self
            .tablebases
            .as_deref()
            .map(super::load_tablebases)
            .transpose()?;
        println!(
            "solving {variant} {pos} ({} counters on the board{})",
            pos.on_board(),
            tablebases
                .as_ref()
                .and_then(|tb| tb.max_counters(variant))
                .map_or(String::new(), |m| format!("; tables up to {m}"))
        );
        let (lo, hi) = known.unwrap_or((reach_lo, reach_hi));
        if let Some((lo, hi)) = known {
            println!("taking as proven: value in [{lo}, {hi}] (--known)");
        }
        let proven = Arc::new(Mutex::new(Proven { lo, hi }));
        let nodes_so_far = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let watcher = (!every.is_zero()).then(|| {
            let (proven, nodes, done) = (
                Arc::clone(&proven),
                Arc::clone(&nodes_so_far),
                Arc::clone(&done),
            );
            std::thread::spawn(move || watch(every, started, &proven, &nodes, &done))
        });
        let hash = super::solver_hash_within_memory(
            self.hash,
            if self.proof_numbers || self.verify {
                2
            } else {
                1
            },
        );
        let (node_limit, verify) = (self.nodes, self.verify);
        let (proof_numbers, probe_budget) = (self.proof_numbers, self.probe_budget);
        let at_least = self.at_least;
        let threads = super::threads_or_every_core(self.threads);
        let deadline = time_limit.map(|t| started + t);
        let (probe_proven, probe_nodes) = (Arc::clone(&proven), Arc::clone(&nodes_so_far));
        // Deep lines recurse deeply: the solver runs on a thread with room for them.
        let solved = std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(move || {
                let table = SolverTable::new(hash);
                let limits = SolveLimits {
                    nodes: node_limit,
                    deadline,
                    stop: Some(super::interrupt::flag()),
                    progress: Some(&probe_nodes),
                };
                mancala_rules::with_spec!(variant, S => {
                    let mut solver = Solver::<S>::new(
                        &table,
                        tablebases.as_ref(),
                        LastFourRule::default(),
                        limits,
                    )
                    .with_threads(threads);
                    if proof_numbers {
                        solver = solver.with_proof_numbers(hash);
                    }
                    if probe_budget > 0 {
                        solver = solver.with_probe_budget(probe_budget);
                    }
                    let mut report = |probe: mancala_engine::solve::Probe| {
                        let mut proven = probe_proven.lock().unwrap_or_else(|p| p.into_inner());
                        let (bound, seconds) = (probe.bound, started.elapsed().as_secs_f64());
                        (proven.lo, proven.hi) = match (at_least, probe.proven) {
                            // With --at-least the window [B - 1, B] is the question, not
                            // proven bounds: only bounds the probes proved beyond it count.
                            (Some(bound), (found_lo, found_hi)) => (
                                if found_lo >= bound { found_lo } else { lo },
                                if found_hi < bound { found_hi } else { hi },
                            ),
                            (None, found) => found,
                        };
                        let answer = match probe.answer {
                            ProbeAnswer::AtLeast => format!("value >= {bound}"),
                            ProbeAnswer::Below => format!("value < {bound}"),
                            ProbeAnswer::OutOfBudget(budget) => format!(
                                "value >= {bound}? open after its budget of {budget} nodes"
                            ),
                        };
                        println!("  {answer}: {seconds:.3} s, {} nodes", probe.nodes);
                    };
                    if let Some(bound) = at_least {
                        // The value clamped to [bound - 1, bound] tells which side it is on.
                        let answer = match known {
                            Some((lo, _)) if lo >= bound => Ok(true),
                            Some((_, hi)) if hi < bound => Ok(false),
                            _ => solver
                                .query(&pos, ValueQuery::default().within(bound - 1, bound).reporting(&mut report))
                                .map(|clamped| clamped >= bound),
                        };
                        return (answer.map(Found::AtLeast), solver.nodes(), None);
                    }
                    // Within known bounds, the value clamped to them is the value.
                    let value = match known {
                        Some((lo, hi)) if lo == hi => Ok(lo),
                        Some((lo, hi)) => solver.query(&pos, ValueQuery::default().within(lo, hi).reporting(&mut report)),
                        None => solver.query(&pos, ValueQuery::default().reporting(&mut report)),
                    };
                    let nodes = solver.nodes();
                    let solution = value.and_then(|value| solver.solve_from(&pos, value));
                    drop(solver);
                    drop(table);
                    let verified = match (&solution, verify) {
                        (Ok(solution), true) => Some(
                            mancala_engine::solve::verify::<S>(
                                &pos,
                                solution,
                                hash,
                                tablebases.as_ref(),
                                limits,
                                if proof_numbers {
                                    SecondProof::OtherOrder
                                } else {
                                    SecondProof::ProofNumbers
                                },
                            )
                            .map_err(|e| match e {
                                VerifyError::Stopped => super::interrupt::received().map_or(
                                    "the verification was stopped by the limits".to_string(),
                                    |signal| format!("the verification was stopped by {signal}"),
                                ),
                                other => other.to_string(),
                            }),
                        ),
                        _ => None,
                    };
                    (solution.map(Found::Value), nodes, verified)
                })
            })
            .map_err(|e| format!("cannot start the solver: {e}"))?
            .join()
            .map_err(|_| "the solver failed".to_string())?;
        done.store(true, Ordering::Relaxed);
        if let Some(watcher) = watcher {
            let _ = watcher.join();
        }
        let elapsed = started.elapsed().as_secs_f64().max(1e-9);
        let peak =
            || mancala_platform::memory::peak_mib().map_or("unknown".into(), |m| m.to_string());
        let (solution, nodes, verified) = match solved {
            (Ok(Found::Value(solution)), nodes, verified) => (solution, nodes, verified),
            (Ok(Found::AtLeast(yes)), nodes, _) => {
                let bound = at_least.unwrap_or_default();
                println!(
                    "value {} {bound}{}",
                    if yes { ">=" } else { "<" },
                    known.map_or(String::new(), |(lo, hi)| format!(
                        ", given the bounds [{lo}, {hi}] of --known"
                    ))
                );
                println!(
                    "nodes {nodes}, time {elapsed:.3} s, {:.0} nodes/s, peak memory {} MiB",
                    nodes as f64 / elapsed,
                    peak()
                );
                return Ok(());
            }
            (Err(_), nodes, _) => {
                let Proven { lo, hi } = *proven.lock().unwrap_or_else(|p| p.into_inner());
                let by = super::interrupt::received();
                println!(
                    "stopped{} after {elapsed:.3} s, {nodes} nodes: value in [{lo}, {hi}] (not \
                     proven; the bounds are{}; to go on from them: --known {lo} {hi})",
                    by.map_or(String::new(), |signal| format!(" by {signal}")),
                    if known.is_some() {
                        ", given those of --known"
                    } else {
                        ""
                    }
                );
                // Without a signal or a limit given, what stopped it is the solver's own cap on
                // a line's length.
                let why = match (by, time_limit.is_some() || node_limit.is_some()) {
                    (Some(signal), _) => format!("stopped by {signal}"),
                    (None, true) => "not solved within the limits".into(),
                    (None, false) => format!(
                        "not solved: a line reached {MAX_SOLVE_PLY} plies without ending (the \
                         solver's cap on a line's length)"
                    ),
                };
                return Err(why);
            }
        };
        if solution.pv_end == LineEnd::NoMoveKeeps {
            let ply = solution.pv.len() + 1;
            return Err(if known.is_some() {
                format!(
                    "the bounds of --known are wrong: they lead to the value {}, and at ply \
                     {ply} of its line no move keeps it",
                    solution.value
                )
            } else {
                format!(
                    "a defect: at ply {ply} of the line of the value {} no move keeps it",
                    solution.value
                )
            });
        }
        println!(
            "value {} ({} to move ends {} counters {}){}",
            solution.value,
            pos.side_to_move().name(),
            solution.value.abs(),
            if solution.value >= 0 {
                "ahead"
            } else {
                "behind"
            },
            known.map_or(String::new(), |(lo, hi)| format!(
                ", given the bounds [{lo}, {hi}] of --known"
            ))
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
            match solution.pv_end {
                LineEnd::GameOver => " (end)",
                LineEnd::Cycles => " (cycles)",
                LineEnd::Longest | LineEnd::NoMoveKeeps => " (and on)",
            }
        );
        println!(
            "nodes {}, time {elapsed:.3} s, {:.0} nodes/s, tablebase hits {}, peak memory {} MiB",
            solution.nodes.max(nodes),
            solution.nodes.max(nodes) as f64 / elapsed,
            solution.tb_hits,
            peak()
        );
        if let Some(verified) = verified {
            let verified = verified?;
            // Without tables there is nothing of theirs to check: no "0 … agree".
            let tables = if verified.table_checks > 0 {
                format!(
                    "; {} of the line's positions within the tables agree with a search without \
                     them",
                    verified.table_checks
                )
            } else {
                String::new()
            };
            println!(
                "verified: value {} proven again another way ({:.3} s, {} nodes){tables}",
                solution.value, verified.seconds, verified.nodes
            );
        }
        Ok(())
    }
}

/// Prints a progress line every `every` until `done`: time, nodes, speed and the bounds proven.
fn watch(
    every: Duration,
    started: Instant,
    proven: &Mutex<Proven>,
    nodes: &AtomicU64,
    done: &AtomicBool,
) {
    let mut next = every;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let elapsed = started.elapsed();
        if elapsed < next {
            continue;
        }
        next += every;
        let Proven { lo, hi } = *proven.lock().unwrap_or_else(|p| p.into_inner());
        let nodes = nodes.load(Ordering::Relaxed);
        eprintln!(
            "  {:.0} s: {nodes} nodes, {:.0} nodes/s, value in [{lo}, {hi}]",
            elapsed.as_secs_f64(),
            nodes as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
}
