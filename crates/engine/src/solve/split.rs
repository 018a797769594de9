//! Solving beyond one machine: a solve split into independent jobs that any batch system runs
//! (a Slurm job array, a Kubernetes Indexed Job), and a merge that computes the root's value
//! from their results.
//!
//! The **plan** is the game tree of the root to a fixed number of plies. Its leaves are the
//! jobs: a position and the positions of the line since its last capture (which decide where
//! play cycles, as in the whole solve), the same leaf reached by several lines being one job.
//! Each job's exact value is proven by [`Solver::value_in_line`]; the merge walks the same tree
//! and takes the best move at every node, with the solver's rules for endings and cycles. So the
//! merged value is exactly the whole solve's: each leaf's value is what the whole search gives
//! that node on that line.
//!
//! A job's result is the **yield** of its position (its value less its captured margin), which
//! is what positions that differ only in their captured totals share (see
//! `crate::node::keys::future_key_for`).
//!
//! The plan file (one home for the format: [`Plan::to_text`], [`Plan::parse`]):
//!
//! ```text
//! mancala-solve-plan 1
//! game kalah
//! root 3-3-3-3-3-3-3-3-3-3-3-3-0-0-S
//! depth 2
//! window none
//! jobs 36
//! 0 A a
//! 1 A b
//! …
//! ```
//!
//! Each job line is its index and the moves of the first line that reaches it. A results file
//! is lines `job INDEX yield Y nodes N seconds S` after a line `mancala-solve-results 1 plan
//! FINGERPRINT` naming the plan they belong to.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::node::child::Child;
use crate::node::keys::future_key_for;
use mancala_rules::{Ending, LastFourRule, Move, Position, Spec, Variant};

/// The first line of a plan file.
pub const PLAN_HEADER: &str = "mancala-solve-plan 1";
/// The first word and version of a results file's header.
pub const RESULTS_HEADER: &str = "mancala-solve-results 1";
/// Deeper plans have more jobs than any batch system wants (6^12 for Kalah).
pub const MAX_SPLIT_DEPTH: u32 = 12;
/// The most leaves a plan may have (lines reaching the same job counted each time): a plan
/// beyond it is refused at once rather than left to fill the memory.
pub const MAX_PLAN_LEAVES: u64 = 5_000_000;

/// A leaf of the plan: a position, and the keys of its line's positions since the last capture.
#[derive(Clone, Debug)]
pub struct Job {
    /// The moves from the root of the first line that reaches the job.
    pub moves: Vec<Move>,
    pub position: Position,
    /// Keys ([`super::Solver::line_key`]) of the line's positions since its last
    /// capture, oldest first, the job's position not included.
    pub line: Vec<u64>,
}

/// A solve split into jobs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub variant: Variant,
    pub root: Position,
    pub depth: u32,
    /// What the split decides, from the root's side: the root's value clamped to `lo..=hi`
    /// (so `lo` stands for "at most `lo`", `hi` for "at least `hi`"); `None` for its exact value.
    /// A narrow window makes every job cheaper: with `(v - 1, v)` it decides whether the value
    /// is at least `v`, one probe of the whole solve spread over the jobs.
    pub window: Option<(i32, i32)>,
    pub jobs: Vec<Job>,
}

/// What identifies a job: the key of its position and of its line.
type JobKey = (u64, Vec<u64>);

/// What the merge found at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The root's solved value.
    pub value: i32,
    /// Each legal move of the root and its value for the side to move at the root.
    pub moves: Vec<(Move, i32)>,
}

impl Plan {
    /// The plan of `root` to `depth` plies (at most [`MAX_SPLIT_DEPTH`]), deciding the root's
    /// value within `window` (see [`Plan::window`]).
    pub fn new(root: &Position, depth: u32, window: Option<(i32, i32)>) -> Result<Plan, String> {
        if depth > MAX_SPLIT_DEPTH {
            return Err(format!(
                "a split of {depth} plies is too deep (at most {MAX_SPLIT_DEPTH})"
            ));
        }
        if let Some((lo, hi)) = window
            && lo >= hi
        {
            return Err(format!(
                "the window {lo} {hi} is empty (its low end must be below its high end)"
            ));
        }
        let mut jobs: Vec<Job> = Vec::new();
        let mut index: HashMap<JobKey, usize> = HashMap::new();
        let exhausted = mancala_rules::with_spec!(root.variant(), S => {
            let mut walk = Walk::<S>::new(MAX_PLAN_LEAVES);
            walk.value(root, 0, depth, &mut |pos, line, moves| {
                let key = (future_key_for::<S>(pos), line.to_vec());
                index.entry(key).or_insert_with(|| {
                    jobs.push(Job {
                        moves: moves.to_vec(),
                        position: *pos,
                        line: line.to_vec(),
                    });
                    jobs.len() - 1
                });
                Some(0)
            });
            walk.leaves_left == 0
        });
        if exhausted {
            return Err(format!(
                "a split of {depth} plies has more than {MAX_PLAN_LEAVES} leaves: split at fewer \
                 plies"
            ));
        }
        Ok(Plan {
            variant: root.variant(),
            root: *root,
            depth,
            window,
            jobs,
        })
    }

    /// The plan file's text.
    pub fn to_text(&self) -> String {
        let window = self
            .window
            .map_or("none".to_string(), |(lo, hi)| format!("{lo} {hi}"));
        let mut text = format!(
            "{PLAN_HEADER}\ngame {}\nroot {}\ndepth {}\nwindow {window}\njobs {}\n",
            self.variant.name(),
            self.root,
            self.depth,
            self.jobs.len()
        );
        for (i, job) in self.jobs.iter().enumerate() {
            let mut line = i.to_string();
            for mv in &job.moves {
                let _ = write!(line, " {mv}");
            }
            let _ = writeln!(text, "{line}");
        }
        text
    }

    /// Reads a plan file's text. The jobs are made again from the game, root and depth, and the
    /// file's job lines must be exactly those: a plan edited by hand, damaged or made by another
    /// version is refused rather than solved wrongly.
    pub fn parse(text: &str) -> Result<Plan, String> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(PLAN_HEADER) {
            return Err(format!(
                "not a solve plan (its first line is not '{PLAN_HEADER}')"
            ));
        }
        let mut field = |name: &str| -> Result<String, String> {
            let line = lines.next().unwrap_or_default();
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(|rest| rest.trim().to_string())
                .ok_or(format!("the plan has no '{name}' line where expected"))
        };
        let game = field("game")?;
        let variant: Variant = game.parse().map_err(|_| {
            format!("the plan's game '{game}' is not known here (load it with --game)")
        })?;
        let root_text = field("root")?;
        let root = Position::from_position_string(variant, &root_text)
            .map_err(|e| format!("the plan's root '{root_text}': {e}"))?;
        let depth_text = field("depth")?;
        let depth: u32 = depth_text
            .parse()
            .map_err(|_| format!("the plan's depth '{depth_text}' is not a number"))?;
        let window_text = field("window")?;
        let window = match window_text
            .split_whitespace()
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["none"] => None,
            [lo, hi] => match (lo.parse::<i32>(), hi.parse::<i32>()) {
                (Ok(lo), Ok(hi)) => Some((lo, hi)),
                _ => {
                    return Err(format!(
                        "the plan's window '{window_text}' is not two numbers"
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "the plan's window '{window_text}' is not 'none' or two numbers"
                ));
            }
        };
        let count_text = field("jobs")?;
        let count: usize = count_text
            .parse()
            .map_err(|_| format!("the plan's job count '{count_text}' is not a number"))?;
        let plan = Plan::new(&root, depth, window)?;
        if plan.jobs.len() != count {
            return Err(format!(
                "the plan says {count} jobs, but its root and depth make {}",
                plan.jobs.len()
            ));
        }
        if plan.to_text() != format!("{}\n", text.trim_end()) {
            return Err("the plan's job lines are not those its root and depth make".into());
        }
        Ok(plan)
    }

    /// The window job `index` decides, from its own side to move (see [`Plan::window`]).
    pub fn job_window(&self, index: usize) -> Option<(i32, i32)> {
        let job = self.jobs.get(index)?;
        let (lo, hi) = self.window?;
        Some(if job.position.side_to_move() == self.root.side_to_move() {
            (lo, hi)
        } else {
            (-hi, -lo)
        })
    }

    /// A fingerprint of the plan (FNV-1a of its text), written in each results file.
    pub fn fingerprint(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in self.to_text().bytes() {
            hash = (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
        format!("{hash:016x}")
    }

    /// The root's value from the jobs' yields (`yields[i]` is job `i`'s, `None` if missing).
    /// Fails, naming the first missing jobs, unless every job the merge needs has a yield.
    pub fn merge(&self, yields: &[Option<i32>]) -> Result<Merged, String> {
        let mut index: HashMap<JobKey, usize> = HashMap::new();
        let mut missing = Vec::new();
        let merged = mancala_rules::with_spec!(self.variant, S => {
            for (i, job) in self.jobs.iter().enumerate() {
                index.insert((future_key_for::<S>(&job.position), job.line.clone()), i);
            }
            let mut walk = Walk::<S>::new(u64::MAX);
            let mut leaf = |pos: &Position, line: &[u64], _: &[Move]| {
                let i = index.get(&(future_key_for::<S>(pos), line.to_vec())).copied()?;
                let found = yields.get(i).copied().flatten();
                if found.is_none() && !missing.contains(&i) {
                    missing.push(i);
                }
                found.map(|y| y + pos.captured_margin())
            };
            walk.root_moves(&self.root, self.depth, &mut leaf)
        });
        if !missing.is_empty() {
            missing.sort_unstable();
            let shown: Vec<String> = missing.iter().take(10).map(ToString::to_string).collect();
            return Err(format!(
                "{} of {} jobs have no result (jobs {}{})",
                missing.len(),
                self.jobs.len(),
                shown.join(", "),
                if missing.len() > 10 { ", …" } else { "" }
            ));
        }
        let mut merged =
            merged.ok_or_else(|| "the jobs' results do not decide the root".to_string())?;
        if let Some((lo, hi)) = self.window {
            merged.value = merged.value.clamp(lo, hi);
            for (_, value) in &mut merged.moves {
                *value = (*value).clamp(lo, hi);
            }
        }
        Ok(merged)
    }
}

/// The walk of the plan's tree, the same for making the plan and for merging.
struct Walk<S: Spec> {
    /// Keys of the positions on the current line.
    line: Vec<u64>,
    moves: Vec<Move>,
    rule: LastFourRule,
    /// Leaves the walk may still visit; at 0 it stops (every value then `None`).
    leaves_left: u64,
    game: std::marker::PhantomData<S>,
}

/// A leaf's value: from the position, its line since the last capture and the moves to it.
type Leaf<'a> = dyn FnMut(&Position, &[u64], &[Move]) -> Option<i32> + 'a;

impl<S: Spec> Walk<S> {
    fn new(leaves: u64) -> Walk<S> {
        Walk {
            line: Vec::new(),
            moves: Vec::new(),
            rule: LastFourRule::default(),
            leaves_left: leaves,
            game: std::marker::PhantomData,
        }
    }

    /// The root's value and each of its moves' values.
    fn root_moves(&mut self, root: &Position, depth: u32, leaf: &mut Leaf) -> Option<Merged> {
        if root.own_ending_for::<S>().is_some() || depth == 0 {
            return self.value(root, 0, depth, leaf).map(|value| Merged {
                value,
                moves: Vec::new(),
            });
        }
        self.line.push(future_key_for::<S>(root));
        let mut moves = Vec::new();
        let mut all = true;
        for &mv in root.legal_moves_for::<S>().iter() {
            match self.child_value(root, mv, 0, depth, leaf) {
                Some(value) => moves.push((mv, value)),
                None => all = false,
            }
        }
        self.line.pop();
        let value = moves.iter().map(|&(_, v)| v).max()?;
        all.then_some(Merged { value, moves })
    }

    /// The value of `pos` for its side to move, `depth` plies above the leaves; `since` is where
    /// the line's positions since its last capture start in `self.line`. `None` when a leaf has
    /// no value (every other leaf is still visited).
    fn value(&mut self, pos: &Position, since: usize, depth: u32, leaf: &mut Leaf) -> Option<i32> {
        if let Some(ending) = pos.own_ending_for::<S>() {
            return Some(pos.final_margin(ending, self.rule));
        }
        if depth == 0 {
            if self.leaves_left == 0 {
                return None;
            }
            self.leaves_left -= 1;
            return leaf(pos, &self.line[since..], &self.moves);
        }
        self.line.push(future_key_for::<S>(pos));
        let mut best: Option<i32> = None;
        let mut all = true;
        for &mv in pos.legal_moves_for::<S>().iter() {
            if self.leaves_left == 0 {
                return None;
            }
            match self.child_value(pos, mv, since, depth, leaf) {
                Some(value) => best = Some(best.map_or(value, |b| b.max(value))),
                None => all = false,
            }
        }
        self.line.pop();
        best.filter(|_| all)
    }

    /// The value of playing `mv` in `pos` (whose key is on top of `self.line`), for its mover.
    fn child_value(
        &mut self,
        pos: &Position,
        mv: Move,
        since: usize,
        depth: u32,
        leaf: &mut Leaf,
    ) -> Option<i32> {
        let child = Child::make::<S>(pos, mv);
        let for_mover = |value: i32| if child.same_side { value } else { -value };
        if child.endless() {
            return Some(for_mover(
                child.pos.final_margin(Ending::EndlessMove, self.rule),
            ));
        }
        let start = if child.captured() {
            self.line.len()
        } else {
            since
        };
        let key = future_key_for::<S>(&child.pos);
        if self.line[start..].contains(&key) {
            return Some(for_mover(
                child.pos.final_margin(Ending::Repetition, self.rule),
            ));
        }
        self.moves.push(mv);
        let value = self.value(&child.pos, start, depth - 1, leaf);
        self.moves.pop();
        value.map(for_mover)
    }
}

/// One job's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobResult {
    pub index: usize,
    pub yield_: i32,
    pub nodes: u64,
    pub seconds: f64,
}

impl JobResult {
    /// The result's line in a results file.
    pub fn to_line(&self) -> String {
        format!(
            "job {} yield {} nodes {} seconds {:.3}",
            self.index, self.yield_, self.nodes, self.seconds
        )
    }
}

/// The header line of a results file of `plan`.
pub fn results_header(plan: &Plan) -> String {
    format!("{RESULTS_HEADER} plan {}", plan.fingerprint())
}

/// Reads the results in `text` (a results file, or several joined), which must all be of
/// `plan`. A job given twice must have the same yield.
pub fn parse_results(plan: &Plan, text: &str, into: &mut [Option<i32>]) -> Result<usize, String> {
    let fingerprint = plan.fingerprint();
    let mut read = 0;
    let mut in_plan = false;
    for (number, line) in text.lines().enumerate().map(|(n, l)| (n + 1, l.trim())) {
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix(RESULTS_HEADER) {
            let of = rest.trim().strip_prefix("plan ").map(str::trim);
            if of != Some(fingerprint.as_str()) {
                return Err(format!(
                    "line {number}: results of another plan ({}), not of this one ({fingerprint})",
                    of.unwrap_or("none named")
                ));
            }
            in_plan = true;
            continue;
        }
        if !in_plan {
            return Err(format!(
                "line {number}: a result before the '{RESULTS_HEADER}' line"
            ));
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (index, yield_) = match words.as_slice() {
            ["job", index, "yield", y, ..] => (index.parse::<usize>().ok(), y.parse::<i32>().ok()),
            _ => (None, None),
        };
        let (Some(index), Some(yield_)) = (index, yield_) else {
            return Err(format!("line {number}: '{line}' is not a job's result"));
        };
        let total = plan.root.rules().total() as i32;
        if yield_.abs() > total {
            return Err(format!(
                "line {number}: job {index} yields {yield_}, beyond the game's {total} counters"
            ));
        }
        let Some(slot) = into.get_mut(index) else {
            return Err(format!(
                "line {number}: job {index}, but the plan has {} jobs",
                plan.jobs.len()
            ));
        };
        match *slot {
            Some(earlier) if earlier != yield_ => {
                return Err(format!(
                    "line {number}: job {index} yields {yield_} here and {earlier} elsewhere"
                ));
            }
            _ => *slot = Some(yield_),
        }
        read += 1;
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kalah(text: &str) -> Position {
        Position::from_position_string(Variant::Kalah, text).expect("a valid position")
    }

    #[test]
    fn a_plan_round_trips_through_its_text_and_refuses_edits() {
        let plan =
            Plan::new(&kalah("2-2-2-2-2-2-2-2-2-2-2-2-0-0-S"), 3, Some((0, 1))).expect("a plan");
        assert!(plan.jobs.len() > 20, "{} jobs", plan.jobs.len());
        let text = plan.to_text();
        let again = Plan::parse(&text).expect("its own text");
        assert_eq!(again.to_text(), text);
        assert_eq!(again.fingerprint(), plan.fingerprint());
        let edited = text.replacen("\n0 ", "\n0 B ", 1);
        assert!(Plan::parse(&edited).is_err());
        let recounted = text.replacen(
            &format!("jobs {}", plan.jobs.len()),
            &format!("jobs {}", plan.jobs.len() + 1),
            1,
        );
        assert!(Plan::parse(&recounted).is_err());
        assert!(Plan::parse("mancala-solve-plan 2\n").is_err());
    }

    #[test]
    fn a_merge_names_the_missing_jobs_and_refuses_conflicts() {
        let plan = Plan::new(&kalah("1-1-1-1-1-1-1-1-1-1-1-1-0-0-S"), 2, None).expect("a plan");
        let mut yields = vec![None; plan.jobs.len()];
        let error = plan.merge(&yields).expect_err("nothing solved");
        assert!(error.contains("have no result"), "{error}");
        let header = results_header(&plan);
        let text = format!("{header}\njob 0 yield 1 nodes 5 seconds 0.1\n");
        assert_eq!(parse_results(&plan, &text, &mut yields), Ok(1));
        let conflict = format!("{header}\njob 0 yield 2 nodes 5 seconds 0.1\n");
        assert!(parse_results(&plan, &conflict, &mut yields).is_err());
        let foreign = "mancala-solve-results 1 plan 0000000000000000\njob 0 yield 1\n";
        assert!(parse_results(&plan, foreign, &mut yields).is_err());
        let beyond = format!("{header}\njob {} yield 1\n", plan.jobs.len());
        assert!(parse_results(&plan, &beyond, &mut yields).is_err());
        let absurd = format!("{header}\njob 1 yield 2147483647\n");
        assert!(parse_results(&plan, &absurd, &mut yields).is_err());
    }

    #[test]
    fn a_plan_too_big_is_refused_at_once() {
        let start = kalah("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
        let error = Plan::new(&start, MAX_SPLIT_DEPTH, None).expect_err("billions of leaves");
        assert!(error.contains("leaves"), "{error}");
        assert!(Plan::new(&start, MAX_SPLIT_DEPTH + 1, None).is_err());
        assert!(
            Plan::new(&start, 2, Some((3, 3))).is_err(),
            "an empty window"
        );
    }
}
