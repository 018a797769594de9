//! The value of a position by null-window probes (MTD(f)), with side probes on a budget that
//! close in on the main one, by every thread of the solve.

use super::*;

/// The share of the main probe's budget each side probe gets, so that few nodes go to bounds a
/// full proof may not need. (The main probe loses nothing by running out: its search resumes
/// from the proofs it left in the table.)
pub(super) const SIDE_SHARE: u64 = 8;

/// The bound of the next side probe while the main probe, at `center` (where MTD(f) would
/// probe), is open: the bounds at distances 1, 2, 4, … from `center` on either side, and
/// `center` itself (those beyond the window `(lower, upper)` taken at its edge), farthest
/// first, since bounds far from the value are the cheap ones. A bound `open` (its probe
/// spent the current budget unanswered; the main probe's among them) stops its side: the
/// bounds between it and `center` are nearer the value, so dearer, and wait for the next
/// budget. `None` when both sides are stopped. Where every value has one `parity`, a bound of the other is raised by
/// one: "at least 1" is "at least 2" when the value is even, one question, not two.
pub(super) fn closing_probe(
    center: i32,
    (lower, upper): (i32, i32),
    open: &[i32],
    parity: Option<u32>,
) -> Option<i32> {
    let center = with_parity(center.clamp(lower + 1, upper), parity, 1);
    // A bound's side and its distance from the center, which orders the probes.
    let side = |beta: i32| (beta > center, (beta - center).abs());
    let stopped = |beta: i32| {
        let (upward, distance) = side(beta);
        open.iter()
            .filter(|&&o| lower < o && o <= upper)
            .any(|&o| side(o).0 == upward && side(o).1 >= distance)
    };
    // Steps up to the first one that reaches past both edges.
    let steps = std::iter::successors(Some(1i32), |&step| step.checked_mul(2))
        .take_while(|&step| step / 2 <= upper - lower);
    std::iter::once(center)
        .chain(steps.flat_map(|step| [center - step, center + step]))
        .map(|beta| with_parity(beta.clamp(lower + 1, upper), parity, 1))
        .filter(|&beta| !stopped(beta))
        // Farthest first; of two as far, the lower one.
        .max_by_key(|&beta| (side(beta).1, -beta))
}

/// `bound`, or the next one in the direction `step` (`1` or `-1`) when it has not the `parity`
/// every value has.
pub(super) fn with_parity(bound: i32, parity: Option<u32>, step: i32) -> i32 {
    match parity {
        Some(p) if bound.rem_euclid(2) as u32 != p => bound + step,
        _ => bound,
    }
}

impl<S: Spec> Solver<'_, S> {
    /// Whether the value of `pos` is at least `bound`, by one null-window search (by proof
    /// numbers, with them).
    pub fn at_least(&mut self, pos: &Position, bound: i32) -> Result<bool, Aborted> {
        self.line.clear();
        let key = future_key_for::<S>(pos);
        Ok(self.search_root(pos, key, bound)? >= bound)
    }

    /// The solved value of `pos` (reached by no line).
    pub fn value(&mut self, pos: &Position) -> Result<i32, Aborted> {
        self.query(pos, ValueQuery::default())
    }

    /// The value of `pos` as `query` asks for it, by null-window probes from the captured
    /// margin (MTD(f)), with side probes on a budget.
    pub fn query(&mut self, pos: &Position, query: ValueQuery<'_>) -> Result<i32, Aborted> {
        let ValueQuery {
            line,
            window: (lo, hi),
            mut report,
        } = query;
        let mut report = |probe: Probe| {
            if let Some(report) = report.as_mut() {
                report(probe);
            }
        };
        let key = future_key_for::<S>(pos);
        // The counters on the board go to one player or nobody: the value is within the
        // captured margin plus or minus them (the total either way where the goal eliminates),
        // proven without a probe.
        let (least, most) = pos.final_margin_range();
        let mut lower = lo.max(LOWEST).max(least).min(hi);
        let mut upper = hi.min(HIGHEST).min(most).max(lo);
        let mut g = pos.captured_margin().clamp(lower, upper);
        self.proven_move = None;
        // The main probe's budget (the side probes get a share of it).
        let mut budget = self.probe_budget;
        // Every final margin from here has this parity, where the rules make that certain: a
        // proven bound of the other parity is one short of the next (value >= 1 is >= 2).
        let parity = pos.margin_parity();
        // While the main probe is open: its bound, and the side probes that spent their
        // budget unanswered (with it, those stop the round).
        let mut side_round: Option<Vec<i32>> = None;
        while lower < upper {
            // The main probe follows MTD(f): its own answers move the guess; the side
            // probes' only narrow the window around it.
            g = g.clamp(lower, upper);
            let wanted = if g == lower { g + 1 } else { g };
            let main = with_parity(wanted.clamp(lower + 1, upper), parity, 1);
            let (beta, probe_budget) = match &mut side_round {
                // A side probe settled the main one's bound: back to the main probe.
                Some(open) if open[0] != main => {
                    side_round = None;
                    continue;
                }
                Some(open) => match closing_probe(main, (lower, upper), open, parity) {
                    Some(beta) => (beta, budget.map(|b| (b / SIDE_SHARE).max(1))),
                    None => {
                        budget = budget.map(|b| b.saturating_mul(2));
                        side_round = None;
                        continue;
                    }
                },
                None => (main, budget),
            };
            let is_main = side_round.is_none();
            let answer = match self.probe_root(pos, key, line, beta, probe_budget)? {
                Some(found) => {
                    if found < beta {
                        upper = with_parity(found, parity, -1);
                        if is_main {
                            g = upper;
                        }
                        ProbeAnswer::Below
                    } else {
                        lower = with_parity(found, parity, 1);
                        if is_main {
                            g = lower;
                        }
                        let n = S::rules(pos).pits_per_row;
                        self.proven_move = self
                            .table
                            .probe(key, n, pos.captured_margin())
                            .and_then(|bounds| bounds.best);
                        ProbeAnswer::AtLeast
                    }
                }
                None => {
                    side_round.get_or_insert_with(Vec::new).push(beta);
                    ProbeAnswer::OutOfBudget(probe_budget.unwrap_or(0))
                }
            };
            report(Probe {
                bound: beta,
                answer,
                proven: (lower, upper),
                nodes: self.nodes,
                main: is_main,
            });
        }
        Ok(lower.clamp(lo, hi))
    }

    /// One null-window search of the root `pos` (reached by `line`) at `beta`, by every thread,
    /// each spending at most `budget` nodes: `None` when they all did unanswered.
    pub(super) fn probe_root(
        &mut self,
        pos: &Position,
        key: u64,
        line: &[u64],
        beta: i32,
        budget: Option<u64>,
    ) -> Result<Option<i32>, Aborted> {
        self.line.clear();
        self.line.extend_from_slice(line);
        self.over_budget = false;
        self.budget_end = budget.map(|b| self.nodes.saturating_add(b));
        let answer = self.probe_root_by_all(pos, key, beta);
        self.budget_end = None;
        match answer {
            Ok(value) => Ok(Some(value)),
            Err(Aborted) if self.over_budget && !self.out_of_limits() => Ok(None),
            Err(aborted) => Err(aborted),
        }
    }

    /// Whether the solve's own limits (not a probe's budget) are reached.
    pub(super) fn out_of_limits(&self) -> bool {
        self.limits.nodes.is_some_and(|n| self.nodes > n) || self.stopped_or_late()
    }

    /// Whether the stop flag is set or the deadline passed.
    pub(super) fn stopped_or_late(&self) -> bool {
        self.limits
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// [`Solver::probe_root`]'s search of the line in `self.line` and the budget in
    /// `self.budget_end`; a thread that runs out of the budget sets `self.over_budget`.
    pub(super) fn probe_root_by_all(
        &mut self,
        pos: &Position,
        key: u64,
        beta: i32,
    ) -> Result<i32, Aborted> {
        if self.threads <= 1 {
            return self.search_root(pos, key, beta);
        }
        let line = &self.line.clone();
        let budget = self.budget_end.map(|end| end.saturating_sub(self.nodes));
        let race = Arc::new(AtomicBool::new(false));
        let busy = Arc::new(BusyTable::new());
        let (table, tablebases, rule) = (self.table, self.tablebases, self.rule);
        // Each helper may search what is left of the node limit.
        let limits = SolveLimits {
            nodes: self.limits.nodes.map(|n| n.saturating_sub(self.nodes)),
            ..self.limits
        };
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .filter_map(|_| {
                    let race = Arc::clone(&race);
                    let busy = Arc::clone(&busy);
                    // Deep lines recurse deeply: as much room as the solve tool's own thread.
                    std::thread::Builder::new()
                        .stack_size(512 << 20)
                        .spawn_scoped(scope, move || {
                            let mut helper = Solver::<S>::new(table, tablebases, rule, limits);
                            helper.race = Some(Arc::clone(&race));
                            helper.busy = Some(busy);
                            helper.budget_end = budget;
                            helper.line.extend_from_slice(line);
                            let found = helper.search(pos, key, beta - 1, beta, line.len(), 0);
                            race.store(true, Ordering::Relaxed);
                            let over_budget = helper.over_budget;
                            (
                                found.map(|f| f.value),
                                helper.nodes,
                                helper.tb_hits,
                                over_budget,
                            )
                        })
                        .ok()
                })
                .collect();
            self.race = Some(Arc::clone(&race));
            self.busy = Some(busy);
            let mine = self.search_root(pos, key, beta);
            race.store(true, Ordering::Relaxed);
            self.race = None;
            self.busy = None;
            let mut answer = mine;
            for helper in helpers {
                if let Ok((found, nodes, tb_hits, over_budget)) = helper.join() {
                    self.nodes += nodes;
                    self.tb_hits += tb_hits;
                    self.over_budget |= over_budget;
                    if answer.is_err() {
                        answer = found;
                    }
                }
            }
            answer
        })
    }

    /// This thread's search of the root at `beta`, the line already in `self.line`.
    pub(super) fn search_root(
        &mut self,
        pos: &Position,
        key: u64,
        beta: i32,
    ) -> Result<i32, Aborted> {
        if self.proof_table.is_some() {
            return self.prove_root(pos, key, beta);
        }
        let ply = self.line.len();
        Ok(self.search(pos, key, beta - 1, beta, ply, 0)?.value)
    }
}
