//! `solve-split`, `solve-job`, `solve-merge`: a solve too big for one machine, as independent
//! jobs for a batch system and a merge of their results (the format and the reasoning are in
//! `mancala_engine::solve::split`).

use mancala_engine::engine::options::MAX_THREADS;
use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use mancala_engine::solve::split::{JobResult, Plan, parse_results, results_header};
use mancala_engine::solve::{MAX_SOLVER_TABLE_MIB, SolveLimits, Solver, SolverTable, ValueQuery};
use mancala_rules::{LastFourRule, Position, Variant};

/// Split a solve into independent jobs: the positions a fixed number of plies from the root.
///
/// Writes the plan file that 'solve-job' runs and 'solve-merge' merges. Each job is a position
/// with the line that leads to it since its last capture (a position reached again ends play as
/// a cycle, as in the whole solve); lines that reach the same position with the same past are
/// one job.
#[derive(Args, Debug)]
#[command(after_help = "Example: mancala-engine solve-split kalah \
                        3-3-3-3-3-3-3-3-3-3-3-3-0-0-S --depth 3 --out plan.txt")]
pub struct SolveSplit {
    /// The game.
    #[arg(value_parser = |text: &str| super::game_with_choice(text, "has nothing to solve"))]
    variant: Variant,
    /// The position string of the root.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Plies from the root to the jobs (at most 12).
    #[arg(long, value_name = "PLIES")]
    depth: u32,
    /// Decide only the value clamped to LO..=HI, from the root's side (LO: at most LO; HI: at
    /// least HI): every job is cheaper. '--window 7 8' decides whether the value is at least 8.
    #[arg(long, num_args = 2, value_names = ["LO", "HI"], allow_hyphen_values = true)]
    window: Option<Vec<i32>>,
    /// Where to write the plan.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

impl SolveSplit {
    pub fn run(self) -> Result<(), String> {
        let pos = Position::from_position_string(self.variant, &self.position)
            .map_err(|e| format!("invalid position string '{}': {e}", self.position))?;
        let window = self.window.map(|w| (w[0], w[1]));
        let plan = Plan::new(&pos, self.depth, window)?;
        fs::write(&self.out, plan.to_text())
            .map_err(|e| format!("cannot write {}: {e}", self.out.display()))?;
        println!(
            "{} jobs at {} plies from {} {pos}, written to {} (plan {})",
            plan.jobs.len(),
            plan.depth,
            plan.variant,
            self.out.display(),
            plan.fingerprint()
        );
        Ok(())
    }
}

/// Run jobs of a plan: prove each job's exact value and append it to a results file.
///
/// With --shard K/N, only the jobs whose index is K-1 modulo N (one task of a job array of N);
/// otherwise all. Jobs already in the results file are skipped, so a task that was stopped
/// goes on where it was when run again. Ctrl-C, or the SIGTERM a batch system sends at a
/// task's time limit, stops it cleanly with the finished jobs' results written (exit status
/// 130 or 143); a second signal ends it at once.
#[derive(Args, Debug)]
#[command(
    after_help = "Example: mancala-engine solve-job plan.txt --shard 1/4 --out results-1.txt"
)]
pub struct SolveJob {
    /// The plan file ('solve-split').
    plan: PathBuf,
    /// This task's part of the jobs: K of N (1 <= K <= N).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// The results file (appended to).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Endgame tables to use at the leaves (built by 'mancala-engine tablebase').
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    /// The solver's table, in MiB at most (kept from job to job): it grows as the jobs fill it
    /// (cut to the memory this process may use).
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=MAX_SOLVER_TABLE_MIB as u64))]
    hash: u64,
    /// Threads (default: every core): each probe of a job searched by all of them over one
    /// table, the first answer taken; a thread puts off a position another is searching, so
    /// that they split the work.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
}

pub(super) fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text.split_once('/').ok_or(format!("'{text}' is not K/N"))?;
    let (k, n) = (k.trim().parse::<usize>(), n.trim().parse::<usize>());
    match (k, n) {
        (Ok(k), Ok(n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => Err(format!("'{text}' is not K/N with 1 <= K <= N")),
    }
}

fn read_plan(path: &PathBuf) -> Result<Plan, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Plan::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

impl SolveJob {
    pub fn run(self) -> Result<(), String> {
        super::interrupt::stop_on_signals();
        let plan = read_plan(&self.plan)?;
        let mut done = vec![None; plan.jobs.len()];
        if self.out.exists() {
            let text = fs::read_to_string(&self.out)
                .map_err(|e| format!("cannot read {}: {e}", self.out.display()))?;
            parse_results(&plan, &text, &mut done)
                .map_err(|e| format!("{}: {e}", self.out.display()))?;
        }
        let (k, n) = self.shard.unwrap_or((1, 1));
        let mine: Vec<usize> = (0..plan.jobs.len())
            .filter(|i| i % n == k - 1 && done[*i].is_none())
            .collect();
        let tablebases = self
            .tablebases
            .as_deref()
            .map(super::load_tablebases)
            .transpose()?;
        let mut out = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.out)
            .map_err(|e| format!("cannot open {}: {e}", self.out.display()))?;
        let out_name = self.out.display().to_string();
        let write = move |out: &mut fs::File, line: &str| {
            writeln!(out, "{line}")
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write {out_name}: {e}"))
        };
        write(&mut out, &results_header(&plan))?;
        println!(
            "{} jobs of {} to run (shard {k}/{n}; {} already done)",
            mine.len(),
            plan.jobs.len(),
            done.iter().filter(|d| d.is_some()).count()
        );
        let hash = super::solver_hash_within_memory(self.hash, 1);
        let threads = super::threads_or_every_core(self.threads);
        let variant = plan.variant;
        // Deep lines recurse deeply: the solver runs on a thread with room for them.
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(move || -> Result<(), String> {
                let table = SolverTable::new(hash);
                mancala_rules::with_spec!(variant, S => {
                    let mut solver = Solver::<S>::new(
                        &table,
                        tablebases.as_ref(),
                        LastFourRule::default(),
                        SolveLimits {
                            stop: Some(super::interrupt::flag()),
                            ..SolveLimits::NONE
                        },
                    )
                    .with_threads(threads);
                    for (finished, &index) in mine.iter().enumerate() {
                        let job = &plan.jobs[index];
                        let (started, nodes_before) = (Instant::now(), solver.nodes());
                        let window = plan.job_window(index).unwrap_or((i32::MIN, i32::MAX));
                        let value = solver
                            .query(&job.position, ValueQuery::default().in_line(&job.line).within(window.0, window.1))
                            .map_err(|_| {
                                let by = super::interrupt::received().unwrap_or("a limit");
                                format!(
                                    "stopped by {by} in job {index}, after {finished} of this \
                                     run's {} jobs: their results are kept, and running the \
                                     same command again resumes",
                                    mine.len()
                                )
                            })?;
                        let result = JobResult {
                            index,
                            yield_: value - job.position.captured_margin(),
                            nodes: solver.nodes() - nodes_before,
                            seconds: started.elapsed().as_secs_f64(),
                        };
                        write(&mut out, &result.to_line())?;
                        println!("{}", result.to_line());
                    }
                });
                Ok(())
            })
            .map_err(|e| format!("cannot start the solver: {e}"))?
            .join()
            .map_err(|_| "the solver failed".to_string())?
    }
}

/// Merge the results of a plan's jobs into the root's solved value.
///
/// Reads every results file given (any number, in any order; a job given twice must agree) and
/// computes the root's value from them by the rules of the whole solve. Fails, naming them,
/// while jobs are missing.
#[derive(Args, Debug)]
#[command(after_help = "Example: mancala-engine solve-merge plan.txt results-*.txt")]
pub struct SolveMerge {
    /// The plan file ('solve-split').
    plan: PathBuf,
    /// The results files ('solve-job --out').
    #[arg(required = true)]
    results: Vec<PathBuf>,
}

impl SolveMerge {
    pub fn run(self) -> Result<(), String> {
        let plan = read_plan(&self.plan)?;
        let mut yields = vec![None; plan.jobs.len()];
        for path in &self.results {
            let text = fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse_results(&plan, &text, &mut yields)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let merged = plan.merge(&yields)?;
        let root = plan.root;
        match plan.window {
            Some((lo, _)) if merged.value <= lo => println!("value <= {lo} (the window's low end)"),
            Some((_, hi)) if merged.value >= hi => {
                println!("value >= {hi} (the window's high end)")
            }
            _ => println!(
                "value {} ({} to move ends {} counters {})",
                merged.value,
                root.side_to_move().name(),
                merged.value.abs(),
                if merged.value >= 0 { "ahead" } else { "behind" }
            ),
        }
        let moves: Vec<String> = merged
            .moves
            .iter()
            .map(|(mv, value)| format!("{mv} {value}"))
            .collect();
        if let Some((best, _)) = merged.moves.iter().find(|(_, v)| *v == merged.value) {
            println!("best move {best}");
        }
        println!("moves {}", moves.join(", "));
        println!(
            "from {} jobs of plan {}",
            plan.jobs.len(),
            plan.fingerprint()
        );
        Ok(())
    }
}
