//! The solver: exact solved values (RULES.md, "Solved values") by search.
//!
//! Alpha-beta over true final margins only, with no evaluation: every line is followed to the end
//! of the game, or to where it cycles (a position met again on the line since its last capture,
//! which ends the line by the leftover rule on that board, as a solved value counts a cycle). The
//! history rules of a real game (repetition counted from the game's start, the 100-move rule) do
//! not apply. A table keeps the proven bounds of every position searched, and the root's value is
//! found by null-window probes (MTD(f)). With tablebases, positions within them are exact leaves.
//!
//! A cycle makes a value depend on the line that led to it (the "graph history interaction"). A
//! position's bounds are therefore stored only when no cycle in its subtree closed on a position
//! above it: what is stored is the position's own value, whatever line reaches it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::eval::evaluate_for;
use crate::node::child::Child;
use crate::node::keys::future_key_for;
use mancala_rules::Aborted;
use mancala_rules::{
    Direction, Ending, LastFourRule, MAX_ROW, Move, MoveEffect, Position, Side, Spec,
};
use mancala_tablebase::Tablebases;

mod busy;
mod proof_numbers;
pub mod split;
mod verify;

pub use verify::{SecondProof, Verified, VerifyError, verify};

use busy::BusyTable;
pub use proof_numbers::ProofTable;

/// Lines longer than this are given up (a cycle or a capture ends every line long before, in
/// the positions the solver is meant for).
pub const MAX_SOLVE_PLY: usize = 4_000;
/// How far ahead [`Solver::move_to_play`] looks for a forced capture.
const PROGRESS_PLIES: u32 = 12;
/// Nodes between looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 4096;
/// How many counters above the tables a position must hold for its children's entries to be
/// read before any is searched, when it has none of its own.
const ETC_ABOVE_TABLES: u32 = 8;
/// No cycle closed on a position above.
const NO_CYCLE: u32 = u32::MAX;

/// Below and above any margin.
const LOWEST: i32 = -127;
const HIGHEST: i32 = 127;

/// When the solver must give up.
#[derive(Clone, Copy)]
pub struct SolveLimits<'a> {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    /// Where the nodes searched so far are counted, a few thousand at a time by every thread,
    /// for a watcher that reports progress.
    pub progress: Option<&'a AtomicU64>,
}

impl SolveLimits<'_> {
    pub const NONE: SolveLimits<'static> = SolveLimits {
        nodes: None,
        deadline: None,
        stop: None,
        progress: None,
    };
}

/// What [`Solver::query`] asks of a position; the default is its exact value, reached by no
/// line, unreported.
pub struct ValueQuery<'r> {
    /// The keys ([`Solver::line_key`], oldest first, the position not included) of the
    /// positions since the last capture of the line that reached it: a position met again that
    /// was on them ends play as a cycle, as in the search of the whole line. What a split
    /// solve's jobs give.
    pub line: &'r [u64],
    /// `lo..=hi` (`lo < hi`): the value clamped to it, `lo` when it is at most `lo`, `hi` when
    /// at least `hi`. Cheaper the narrower.
    pub window: (i32, i32),
    /// Told each probe's answer as it comes.
    pub report: Option<&'r mut dyn FnMut(Probe)>,
}

impl Default for ValueQuery<'_> {
    fn default() -> Self {
        ValueQuery {
            line: &[],
            window: (LOWEST, HIGHEST),
            report: None,
        }
    }
}

impl<'r> ValueQuery<'r> {
    /// Reached by the line whose keys are `line`.
    pub fn in_line(self, line: &'r [u64]) -> Self {
        ValueQuery { line, ..self }
    }

    /// Clamped to `lo..=hi`.
    pub fn within(self, lo: i32, hi: i32) -> Self {
        ValueQuery {
            window: (lo, hi),
            ..self
        }
    }

    /// Telling `report` each probe's answer.
    pub fn reporting(self, report: &'r mut dyn FnMut(Probe)) -> Self {
        ValueQuery {
            report: Some(report),
            ..self
        }
    }
}

/// A proven value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The solved value: the final margin for the side to move.
    pub value: i32,
    /// A move that keeps the value (`None` when the game is over).
    pub best: Option<Move>,
    /// A line of value-keeping moves, to the end or to where it cycles (at most 256 plies).
    pub pv: Vec<Move>,
    /// How the line ends.
    pub pv_end: LineEnd,
    pub nodes: u64,
    pub tb_hits: u64,
}

/// How a [`Solution`]'s line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over.
    GameOver,
    /// A position of the line since its last capture comes again: the leftover rule ends it.
    Cycles,
    /// At its longest, 256 plies.
    Longest,
    /// No move keeps the value where the line stops: never with a proven value, so a value
    /// taken from bounds given as proven shows them wrong.
    NoMoveKeeps,
}

/// One null-window probe of the root: whether its value is at least `bound`.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub bound: i32,
    pub answer: ProbeAnswer,
    /// The bounds on the value proven once this probe is answered, `lo..=hi` (a fail-soft
    /// answer can prove more than the bound asked, and the value's parity, where the rules
    /// make it certain, one more).
    pub proven: (i32, i32),
    /// Nodes searched by the solver so far, this probe included.
    pub nodes: u64,
    /// Whether it was the main probe, where MTD(f) probes (only its answers move the guess),
    /// rather than a side probe closing in on it while it is open (see
    /// [`Solver::with_probe_budget`]).
    pub main: bool,
}

/// What one probe of the root found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeAnswer {
    /// The value is at least the bound.
    AtLeast,
    /// The value is below the bound.
    Below,
    /// The probe spent its node budget (see [`Solver::with_probe_budget`]) unanswered: other
    /// bounds are probed first, and it comes back with twice the budget.
    OutOfBudget(u64),
}

/// Proven bounds per position, kept between searches (and between moves of a game), shared by
/// the threads of one solve.
///
/// Slots of two words in buckets of one cache line each: the key xor-ed with the data, and the
/// data (lo, hi as signed bytes, the best move's code, the effort: the bit length of the nodes
/// its proof took). A slot torn by two threads writing at once no longer matches its key, so a
/// probe never reads one position's bounds for another's. A new position takes its bucket's
/// emptiest or cheapest slot.
pub struct SolverTable {
    /// Words from `start` on, `2 * BUCKET_SLOTS` per bucket.
    words: Vec<AtomicU64>,
    /// The first word of the first whole cache line of `words`.
    start: usize,
    /// Buckets, a power of two.
    buckets: usize,
    /// The last position the solver gave up on, in which game: in the same game, positions with
    /// as many counters are not tried again.
    gave_up: Option<GaveUp>,
}

/// The largest solver table, in MiB (64 GiB).
pub const MAX_SOLVER_TABLE_MIB: usize = 65_536;

/// Slots per bucket: a 64-byte cache line of 16-byte slots.
const BUCKET_SLOTS: usize = 4;

/// Where the solver gave up: in which game (the key of the position it was set up from and the
/// moves played from it until then), on how many counters on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GaveUp {
    base: u64,
    moves: Vec<Move>,
    counters: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    lo: i32,
    hi: i32,
    best: Option<Move>,
}

impl SolverTable {
    /// A table of about `mib` MiB (1 to [`MAX_SOLVER_TABLE_MIB`]). Its memory comes untouched
    /// from the operating system (on huge pages where it can), so an unused part costs nothing.
    pub fn new(mib: usize) -> SolverTable {
        let buckets = ((mib.clamp(1, MAX_SOLVER_TABLE_MIB) << 20) / (16 * BUCKET_SLOTS))
            .next_power_of_two()
            .max(256)
            / 2;
        let len = (buckets + 1) * 2 * BUCKET_SLOTS;
        let words = mancala_platform::huge_pages::zeroed::<AtomicU64>(len);
        let misalignment = (words.as_ptr() as usize / 8) % (2 * BUCKET_SLOTS);
        SolverTable {
            start: (2 * BUCKET_SLOTS - misalignment) % (2 * BUCKET_SLOTS),
            words,
            buckets,
            gave_up: None,
        }
    }

    pub fn clear(&mut self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
        self.gave_up = None;
    }

    /// Remembers that the solver gave up on a position with `counters` on the board, reached by
    /// `moves` from the position of key `base`.
    pub fn give_up(&mut self, base: u64, moves: &[Move], counters: u32) {
        self.gave_up = Some(GaveUp {
            base,
            moves: moves.to_vec(),
            counters,
        });
    }

    /// Whether the solver gave up earlier in this game (set up from the position of key `base`,
    /// with `moves` played since) on a position with at most `counters` on the board. Only the
    /// same game counts, the one that went on from where it gave up: what another game's
    /// position cost says nothing of this one, and no search may depend on it.
    pub fn gave_up_before(&self, base: u64, moves: &[Move], counters: u32) -> bool {
        self.gave_up.as_ref().is_some_and(|g| {
            g.base == base && moves.starts_with(&g.moves) && g.counters <= counters
        })
    }

    /// The words of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let first = self.start + ((key as usize) & (self.buckets - 1)) * 2 * BUCKET_SLOTS;
        &self.words[first..first + 2 * BUCKET_SLOTS]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after does not wait.
    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let word = self.bucket(key).as_ptr();
            // SAFETY: prefetching is a hint; it never faults, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(word as *const i8, std::arch::x86_64::_MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The data of `key`'s slot in `bucket`, and the slot, if it is there.
    #[inline]
    fn find(bucket: &[AtomicU64], key: u64) -> Option<(usize, u64)> {
        bucket.chunks_exact(2).enumerate().find_map(|(i, slot)| {
            let data = slot[1].load(Ordering::Relaxed);
            (data != 0 && slot[0].load(Ordering::Relaxed) ^ data == key).then_some((i, data))
        })
    }

    /// The bounds stored for `key`, a position of a board of `n` pits per row and captured
    /// margin `margin`. The table holds bounds on what the board will still yield (the value
    /// less the captured margin), which positions that share a [`future_key_for`] share.
    #[inline]
    fn probe(&self, key: u64, n: usize, margin: i32) -> Option<Bounds> {
        Self::find(self.bucket(key), key).map(|(_, data)| Bounds {
            lo: from_yield((data as u8 as i8) as i32, margin),
            hi: from_yield(((data >> 8) as u8 as i8) as i32, margin),
            best: Move::from_code((data >> 16) as u8, n),
        })
    }

    /// Stores `bounds` for `key` (see [`SolverTable::probe`]), keeping whatever the slot
    /// already proves of the same position; a new position takes the bucket's cheapest slot.
    fn store(&self, key: u64, n: usize, margin: i32, bounds: Bounds, effort: u8) {
        let bucket = self.bucket(key);
        let mut lo = to_yield(bounds.lo, margin);
        let mut hi = to_yield(bounds.hi, margin);
        let mut best = bounds.best;
        let slot = match Self::find(bucket, key) {
            Some((same, data)) => {
                lo = lo.max((data as u8 as i8) as i32);
                hi = hi.min(((data >> 8) as u8 as i8) as i32);
                best = best.or(Move::from_code((data >> 16) as u8, n));
                same
            }
            None => (0..BUCKET_SLOTS)
                .min_by_key(|&i| (bucket[2 * i + 1].load(Ordering::Relaxed) >> 24) as u8)
                .unwrap_or(0),
        };
        let data = (lo as i8 as u8 as u64)
            | (hi as i8 as u8 as u64) << 8
            | (best.map_or(Move::NO_CODE, |mv| mv.code(n)) as u64) << 16
            | (effort.max(1) as u64) << 24;
        bucket[2 * slot].store(key ^ data, Ordering::Relaxed);
        bucket[2 * slot + 1].store(data, Ordering::Relaxed);
    }
}

/// A bound on a value as a bound on what the board yields beyond the captured `margin`; the
/// unbounded ends stay unbounded, and a bound past them becomes no bound (never a wrong one).
fn to_yield(bound: i32, margin: i32) -> i32 {
    if bound <= LOWEST || bound >= HIGHEST {
        return bound.clamp(LOWEST, HIGHEST);
    }
    (bound - margin).clamp(LOWEST, HIGHEST)
}

/// [`to_yield`] undone.
fn from_yield(bound: i32, margin: i32) -> i32 {
    if bound <= LOWEST || bound >= HIGHEST {
        return bound;
    }
    (bound + margin).clamp(LOWEST, HIGHEST)
}

/// The share of the main probe's budget each side probe gets, so that few nodes go to bounds a
/// full proof may not need. (The main probe loses nothing by running out: its search resumes
/// from the proofs it left in the table.)
const SIDE_SHARE: u64 = 8;

/// The bound of the next side probe while the main probe, at `center` (where MTD(f) would
/// probe), is open: the bounds at distances 1, 2, 4, … from `center` on either side, and
/// `center` itself (those beyond the window `(lower, upper)` taken at its edge), farthest
/// first, since bounds far from the value are the cheap ones. A bound `open` (its probe
/// spent the current budget unanswered; the main probe's among them) stops its side: the
/// bounds between it and `center` are nearer the value, so dearer, and wait for the next
/// budget. `None` when both sides are stopped. Where every value has one `parity`, a bound of the other is raised by
/// one: "at least 1" is "at least 2" when the value is even, one question, not two.
fn closing_probe(
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
fn with_parity(bound: i32, parity: Option<u32>, step: i32) -> i32 {
    match parity {
        Some(p) if bound.rem_euclid(2) as u32 != p => bound + step,
        _ => bound,
    }
}

/// What searching a position gave: its value (an exact margin, or a bound outside the window)
/// and the lowest line position that a cycle in its subtree closed on.
#[derive(Clone, Copy)]
struct Searched {
    value: i32,
    cycle_at: u32,
}

/// The solver for the game `S`.
pub struct Solver<'a, S: Spec> {
    table: &'a SolverTable,
    tablebases: Option<&'a Tablebases>,
    rule: LastFourRule,
    limits: SolveLimits<'a>,
    /// Keys of the positions on the current line.
    line: Vec<u64>,
    nodes: u64,
    tb_hits: u64,
    /// Moves in the other order (for proving a value again another way).
    other_order: bool,
    /// The root's move that answered the last probe the value was at least its bound: it
    /// keeps the value, by a proof maybe still in the table (a later probe that fell short
    /// may have left another move as the root's best there).
    proven_move: Option<Move>,
    /// Threads that search each probe of the root together (see [`Solver::with_threads`]).
    threads: usize,
    /// Set when another thread has answered the probe this one works on.
    race: Option<Arc<AtomicBool>>,
    /// The positions the threads of a probe are searching, where more than one searches it.
    busy: Option<Arc<BusyTable>>,
    /// Children put off because another thread was searching them.
    put_off: u64,
    /// Cut-offs by each move (by its pit, the pass last), halved as they grow: among moves
    /// equal otherwise, the one that refuted most often is tried first.
    history: [u32; HISTORY_SLOTS],
    /// [`Solver::within_tables`], once looked up.
    tables_reach: Option<u32>,
    /// With it, this thread searches each probe by proof numbers (see
    /// [`Solver::with_proof_numbers`]).
    proof_table: Option<ProofTable>,
    /// The first node budget of a probe of the root (see [`Solver::with_probe_budget`]).
    probe_budget: Option<u64>,
    /// The node count at which the probe under way runs out of its budget.
    budget_end: Option<u64>,
    /// Set when the probe under way ran out of its budget.
    over_budget: bool,
    game: std::marker::PhantomData<S>,
}

/// One slot a pit of either row, and one for the pass.
const HISTORY_SLOTS: usize = 2 * MAX_ROW + 1;
/// Where the history counts are halved: they fit the bits the order gives them.
const HISTORY_CAP: u32 = (1 << 14) - 1;
/// The static evaluations the order tells apart (beyond them, all alike): 14 bits.
const EVAL_SPAN: i64 = (1 << 13) - 1;

fn history_slot(mv: Move) -> usize {
    mv.pit(MAX_ROW).unwrap_or(2 * MAX_ROW)
}

impl<'a, S: Spec> Solver<'a, S> {
    pub fn new(
        table: &'a SolverTable,
        tablebases: Option<&'a Tablebases>,
        rule: LastFourRule,
        limits: SolveLimits<'a>,
    ) -> Solver<'a, S> {
        Solver {
            table,
            tablebases,
            rule,
            limits,
            line: Vec::with_capacity(256),
            nodes: 0,
            tb_hits: 0,
            other_order: false,
            proven_move: None,
            threads: 1,
            race: None,
            busy: None,
            put_off: 0,
            history: [0; HISTORY_SLOTS],
            tables_reach: None,
            proof_table: None,
            probe_budget: None,
            budget_end: None,
            over_budget: false,
            game: std::marker::PhantomData,
        }
    }

    /// The solver giving the main probe of the root (where MTD(f) probes) at most `nodes` nodes
    /// (per thread) at first. When it spends them unanswered, side probes close in on it from
    /// afar, each with an eighth of its budget (bounds far from the value are cheap); once
    /// they run out on both sides, the main probe goes on with twice the budget, resuming
    /// from the proofs it left in the table. The proof is the same and costs little more, but
    /// a search stopped early has proven bounds around the value on both sides instead of
    /// only on one.
    pub fn with_probe_budget(mut self, nodes: u64) -> Self {
        self.probe_budget = Some(nodes.max(1));
        self
    }

    /// The solver trying moves in another order: by gain, an extra turn counting for half a
    /// counter (the usual order puts every extra turn first). A second proof that way follows
    /// other lines than the first.
    pub fn with_other_order(mut self) -> Self {
        self.other_order = true;
        self
    }

    /// The solver searching each probe of the root by proof numbers on its own thread, with a
    /// table of `mib` MiB for the numbers of positions not yet settled (further threads still
    /// search by alpha-beta, over the same table of proven bounds).
    pub fn with_proof_numbers(mut self, mib: usize) -> Self {
        self.proof_table = Some(ProofTable::new(mib));
        self
    }

    /// The solver searching each probe of the root with `threads` threads over the shared
    /// table; the first answer is the probe's. A thread puts off a child another thread is
    /// searching until its siblings are done (`BusyTable`), so that they go different ways
    /// and each finds the other's proofs in the table, instead of searching one tree twice.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Whether the value of `pos` is at least `bound`, by one null-window search (by proof
    /// numbers, with them).
    pub fn at_least(&mut self, pos: &Position, bound: i32) -> Result<bool, Aborted> {
        self.line.clear();
        let key = future_key_for::<S>(pos);
        Ok(self.search_root(pos, key, bound)? >= bound)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves the solved value of `pos`, a move that keeps it and a line.
    pub fn solve(&mut self, pos: &Position) -> Result<Solution, Aborted> {
        let value = self.value(pos)?;
        self.solution(pos, value, None)
    }

    /// [`Solver::solve`] for a position of a real game, which has `seen` each position some
    /// number of times since its last capture: the move is [`Solver::move_to_play`].
    pub fn solve_for_play(
        &mut self,
        pos: &Position,
        seen: &dyn Fn(&Position) -> usize,
    ) -> Result<Solution, Aborted> {
        let value = self.value(pos)?;
        let first = self.move_to_play(pos, value, seen)?;
        self.solution(pos, value, first)
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
        // captured margin plus or minus them, proven without a probe.
        let (reach, captured) = (pos.on_board_for::<S>() as i32, pos.captured_margin());
        let mut lower = lo.max(LOWEST).max(captured - reach).min(hi);
        let mut upper = hi.min(HIGHEST).min(captured + reach).max(lo);
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
    fn probe_root(
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
    fn out_of_limits(&self) -> bool {
        self.limits.nodes.is_some_and(|n| self.nodes > n) || self.stopped_or_late()
    }

    /// Whether the stop flag is set or the deadline passed.
    fn stopped_or_late(&self) -> bool {
        self.limits
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// [`Solver::probe_root`]'s search of the line in `self.line` and the budget in
    /// `self.budget_end`; a thread that runs out of the budget sets `self.over_budget`.
    fn probe_root_by_all(&mut self, pos: &Position, key: u64, beta: i32) -> Result<i32, Aborted> {
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
    fn search_root(&mut self, pos: &Position, key: u64, beta: i32) -> Result<i32, Aborted> {
        if self.proof_table.is_some() {
            return self.prove_root(pos, key, beta);
        }
        let ply = self.line.len();
        Ok(self.search(pos, key, beta - 1, beta, ply, 0)?.value)
    }

    /// The key by which the solver tells positions apart on a line (see [`ValueQuery::line`]).
    pub fn line_key(pos: &Position) -> u64 {
        future_key_for::<S>(pos)
    }

    /// The solution of `pos` once its value is known: a move that keeps it and a line.
    pub fn solve_from(&mut self, pos: &Position, value: i32) -> Result<Solution, Aborted> {
        self.solution(pos, value, None)
    }

    /// The value of playing `mv` in `pos`, for the side to move in `pos` (`mv` must be legal).
    pub fn move_value(&mut self, pos: &Position, mv: Move) -> Result<i32, Aborted> {
        let child = Self::make(pos, mv);
        if let Some(end) = self.end_value(&child) {
            return Ok(end);
        }
        let value = self.value(&child.pos)?;
        Ok(if child.same_side { value } else { -value })
    }

    /// Whether playing `mv` in `pos` keeps `value`, the solved value of `pos` (`mv` legal): by
    /// one null-window probe of the child, since no move does better than the value. Far cheaper
    /// than [`Solver::move_value`] when the probe's proof is in the table already.
    ///
    /// The probe asks the question the root's own proofs asked, so that their proofs answer it
    /// (proof numbers prove a bound, not a value): where the value has a known parity the root
    /// proved "at most v" as "below v + 2", and the positions where `root_side` is not to move
    /// are asked one step looser, an equivalent question.
    fn keeps_value(
        &mut self,
        pos: &Position,
        mv: Move,
        value: i32,
        root_side: Side,
    ) -> Result<bool, Aborted> {
        let child = Self::make(pos, mv);
        if let Some(end) = self.end_value(&child) {
            return Ok(end == value);
        }
        let key = future_key_for::<S>(&child.pos);
        let loose = pos.side_to_move() != root_side && pos.margin_parity().is_some();
        let step = loose as i32;
        // Without a budget a probe is answered or aborted.
        Ok(if child.same_side {
            self.probe_root(&child.pos, key, &[], value - step, None)?
                .ok_or(Aborted)?
                >= value - step
        } else {
            // The child's value (for the opponent) is at most -value.
            self.probe_root(&child.pos, key, &[], -value + 1 + step, None)?
                .ok_or(Aborted)?
                < -value + 1 + step
        })
    }

    /// The move to play in a real game from `pos` (solved value `value`): one that keeps the
    /// value and, where the value is better than what the leftover rule would give now, makes
    /// progress. A won position is only won under the history rules if a capture comes before
    /// the repetition or the 100-move rule ends the game, so the move that forces a capture (or
    /// the end) within the fewest plies, against any defence that keeps the value, is chosen;
    /// failing that, the move to the position the game has `seen` least often. `None` in a
    /// finished position.
    pub fn move_to_play(
        &mut self,
        pos: &Position,
        value: i32,
        seen: &dyn Fn(&Position) -> usize,
    ) -> Result<Option<Move>, Aborted> {
        let keeping = self.keeping_moves(pos, value)?;
        let needs_progress = value > pos.final_margin(Ending::Repetition, self.rule);
        if keeping.len() <= 1 || !needs_progress {
            return Ok(keeping.first().map(|c| c.mv));
        }
        let us = pos.side_to_move();
        for plies in 1..=PROGRESS_PLIES {
            let mut memo = std::collections::HashMap::new();
            for child in &keeping {
                if child.captured()
                    || child.endless()
                    || self.forced_progress(&child.pos, us, value, plies - 1, &mut memo)?
                {
                    return Ok(Some(child.mv));
                }
            }
        }
        Ok(keeping.iter().min_by_key(|c| seen(&c.pos)).map(|c| c.mv))
    }

    /// The moves of `pos` that keep its solved value `value`, captures (the biggest first) first.
    fn keeping_moves(&mut self, pos: &Position, value: i32) -> Result<Vec<Child>, Aborted> {
        let mut candidates: Vec<Child> = pos
            .legal_moves_for::<S>()
            .iter()
            .map(|&mv| Self::make(pos, mv))
            .collect();
        candidates.sort_by_key(|c| (!c.captured(), -c.gain));
        let mut keeping = Vec::new();
        for child in candidates {
            if self.keeps_value(pos, child.mv, value, pos.side_to_move())? {
                keeping.push(child);
            }
        }
        Ok(keeping)
    }

    /// Whether `us` can force, within `plies` more plies from `pos`, a capture, the end of the
    /// game or a better value than `value` (the opponent erring), keeping `value` throughout.
    fn forced_progress(
        &mut self,
        pos: &Position,
        us: Side,
        value: i32,
        plies: u32,
        memo: &mut std::collections::HashMap<(u64, u32), bool>,
    ) -> Result<bool, Aborted> {
        if pos.own_ending_for::<S>().is_some() {
            return Ok(true);
        }
        if plies == 0 {
            return Ok(false);
        }
        let key = (future_key_for::<S>(pos), plies);
        if let Some(&known) = memo.get(&key) {
            return Ok(known);
        }
        let ours = pos.side_to_move() == us;
        let mut forced = !ours;
        for &mv in pos.legal_moves_for::<S>().iter() {
            let child = Self::make(pos, mv);
            let for_mover = self.move_value(pos, mv)?;
            let for_us = if ours { for_mover } else { -for_mover };
            let progress = child.captured() || child.endless() || for_us > value;
            let good = for_us >= value
                && (progress || self.forced_progress(&child.pos, us, value, plies - 1, memo)?);
            if ours && good {
                forced = true;
                break;
            }
            if !ours && !good {
                forced = false;
                break;
            }
        }
        memo.insert(key, forced);
        Ok(forced)
    }

    /// The solution of `pos` with value `value`: `first` (or the first move that keeps the
    /// value) and a line of moves that keep it.
    fn solution(
        &mut self,
        pos: &Position,
        value: i32,
        first: Option<Move>,
    ) -> Result<Solution, Aborted> {
        let mut pv = Vec::new();
        let mut line_pos = *pos;
        let mut line_value = value;
        let mut seen = vec![future_key_for::<S>(pos)];
        let mut end = LineEnd::Longest;
        while pv.len() < 256 {
            let legal = line_pos.legal_moves_for::<S>();
            if legal.is_empty() {
                end = LineEnd::GameOver;
                break;
            }
            // Captures first: a line that keeps the value and makes progress is the one to play
            // under the history rules too.
            let mut candidates: Vec<Child> =
                legal.iter().map(|&mv| Self::make(&line_pos, mv)).collect();
            candidates.sort_by_key(|c| (!c.captured(), -c.gain));
            // Before them, the move the proof itself found, kept in the table: it keeps the
            // value by a proof already there, where a capture that does not would need a new one.
            let n = S::rules(&line_pos).pits_per_row;
            let proven = self.proven_move.filter(|_| pv.is_empty()).or_else(|| {
                self.table
                    .probe(
                        future_key_for::<S>(&line_pos),
                        n,
                        line_pos.captured_margin(),
                    )
                    .and_then(|bounds| bounds.best)
            });
            if let Some(at) = candidates.iter().position(|c| Some(c.mv) == proven) {
                candidates[..=at].rotate_right(1);
            }
            let mut keeping = first.filter(|_| pv.is_empty());
            for child in &candidates {
                if keeping.is_some() {
                    break;
                }
                if self.keeps_value(&line_pos, child.mv, line_value, pos.side_to_move())? {
                    keeping = Some(child.mv);
                }
            }
            let Some(mv) = keeping else {
                end = LineEnd::NoMoveKeeps;
                break;
            };
            pv.push(mv);
            let child = Self::make(&line_pos, mv);
            if child.endless() {
                end = LineEnd::GameOver;
                break;
            }
            if !child.same_side {
                line_value = -line_value;
            }
            line_pos = child.pos;
            let key = future_key_for::<S>(&line_pos);
            if child.captured() {
                seen.clear();
            } else if seen.contains(&key) {
                end = LineEnd::Cycles;
                break;
            }
            seen.push(key);
        }
        Ok(Solution {
            value,
            best: pv.first().copied(),
            pv,
            pv_end: end,
            nodes: self.nodes,
            tb_hits: self.tb_hits,
        })
    }

    #[inline]
    fn make(pos: &Position, mv: Move) -> Child {
        Child::make::<S>(pos, mv)
    }

    /// The mover's final margin if the move `child` ends the game by itself (an endless move).
    fn end_value(&self, child: &Child) -> Option<i32> {
        child.endless().then(|| {
            let margin = child.pos.final_margin(Ending::EndlessMove, self.rule);
            if child.same_side { margin } else { -margin }
        })
    }

    /// Positions with at most this many counters on the board are in the tables (0 without
    /// them), looked up once: a solver searches one game.
    fn within_tables(&mut self, pos: &Position) -> u32 {
        let tablebases = self.tablebases;
        *self.tables_reach.get_or_insert_with(|| {
            tablebases
                .and_then(|tb| tb.max_counters(pos.variant()))
                .unwrap_or(0)
        })
    }

    fn poll(&mut self) -> Result<(), Aborted> {
        self.nodes += 1;
        if self.limits.nodes.is_some_and(|n| self.nodes > n) {
            return Err(Aborted);
        }
        if self.budget_end.is_some_and(|end| self.nodes > end) {
            self.over_budget = true;
            return Err(Aborted);
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if let Some(progress) = self.limits.progress {
                progress.fetch_add(POLL_INTERVAL, Ordering::Relaxed);
            }
            if self.stopped_or_late() {
                return Err(Aborted);
            }
            if self
                .race
                .as_ref()
                .is_some_and(|race| race.load(Ordering::Relaxed))
            {
                return Err(Aborted);
            }
        }
        Ok(())
    }

    /// Fail-soft alpha-beta on margins. `since_capture` is where the line's positions since its
    /// last capture start in `self.line`.
    fn search(
        &mut self,
        pos: &Position,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        since_capture: usize,
    ) -> Result<Searched, Aborted> {
        self.poll()?;
        let legal = match pos.ending_or_moves_for::<S>() {
            Ok(legal) => legal,
            Err(ending) => {
                return Ok(Searched {
                    value: pos.final_margin(ending, self.rule),
                    cycle_at: NO_CYCLE,
                });
            }
        };
        if ply >= MAX_SOLVE_PLY {
            return Err(Aborted);
        }
        // Every counter still on the board ends with one player or nobody: the final margin is
        // within the captured margin plus or minus those counters, whatever the rules.
        let (reach, captured) = (pos.on_board_for::<S>() as i32, pos.captured_margin());
        if captured + reach <= alpha {
            return Ok(Searched {
                value: captured + reach,
                cycle_at: NO_CYCLE,
            });
        }
        if captured - reach >= beta {
            return Ok(Searched {
                value: captured - reach,
                cycle_at: NO_CYCLE,
            });
        }
        if let Some(value) = self.tablebases.and_then(|tb| tb.probe_with(pos, self.rule)) {
            self.tb_hits += 1;
            return Ok(Searched {
                value,
                cycle_at: NO_CYCLE,
            });
        }
        let entry = self.table.probe(key, S::rules(pos).pits_per_row, captured);
        if let Some(bounds) = entry {
            if bounds.lo >= beta || bounds.lo == bounds.hi {
                return Ok(Searched {
                    value: bounds.lo,
                    cycle_at: NO_CYCLE,
                });
            }
            if bounds.hi <= alpha {
                return Ok(Searched {
                    value: bounds.hi,
                    cycle_at: NO_CYCLE,
                });
            }
            alpha = alpha.max(bounds.lo);
            beta = beta.min(bounds.hi);
        }
        let (original_alpha, original_beta) = (alpha, beta);
        let mut children = [Child {
            mv: Move::PASS,
            pos: *pos,
            effect: MoveEffect::default(),
            gain: 0,
            same_side: false,
        }; MAX_ROW];
        let count = legal.len();
        let tt_move = entry.and_then(|b| b.best);
        for (slot, &mv) in children.iter_mut().zip(legal.iter()) {
            *slot = Self::make(pos, mv);
        }
        // The table's move first, then every extra turn (another move at once is worth most
        // often, and Kalah's solvers try it first), then the biggest gains.
        let children = &mut children[..count];
        // Where the store is sown, among equals the pit nearest to it first (Kalah's classic
        // order: those moves most often end in the store or keep counters at home).
        let rules = S::rules(pos);
        let to_store = |mv: Move| -> usize {
            let offset = mv.pit(MAX_ROW).unwrap_or(0) % MAX_ROW;
            match (rules.sow_own_store, rules.direction) {
                (false, _) => 0,
                (true, Direction::CounterClockwise) => rules.pits_per_row - 1 - offset,
                (true, Direction::Clockwise) => offset,
            }
        };
        // One number per child, the biggest first: the table's move, then (in the usual order)
        // every extra turn, then the biggest gain, then the pit nearest the store, then the
        // static evaluation of the child for the mover, then the move that refuted most often.
        // Where the store is sown, the pit's distance to it tells every move apart, and the
        // evaluation is not computed.
        let other_order = self.other_order;
        let history = &self.history;
        let order = |c: &Child| -> i64 {
            let first = (Some(c.mv) == tt_move) as i64;
            let turn = c.same_side as i64;
            let gain = c.gain.clamp(-255, 255) as i64 + 256;
            let near = MAX_ROW as i64 - to_store(c.mv) as i64;
            let judged = if rules.sow_own_store {
                0
            } else {
                let own = evaluate_for::<S>(&c.pos) as i64;
                let own = if c.same_side { own } else { -own };
                own.clamp(-EVAL_SPAN, EVAL_SPAN) + EVAL_SPAN
            };
            let refuted = history[history_slot(c.mv)] as i64;
            let low = (near << 28) | (judged << 14) | refuted;
            if other_order {
                (first << 48) | ((gain * 4 + turn * 2) << 34) | low
            } else {
                (first << 48) | (turn << 46) | (gain << 34) | low
            }
        };
        let mut keys_for_order = [0i64; MAX_ROW];
        for (k, c) in keys_for_order.iter_mut().zip(children.iter()) {
            *k = order(c);
        }
        // Insertion sort, stable: a handful of children.
        for i in 1..children.len() {
            let mut j = i;
            while j > 0 && keys_for_order[j - 1] < keys_for_order[j] {
                keys_for_order.swap(j - 1, j);
                children.swap(j - 1, j);
                j -= 1;
            }
        }
        // The children's keys, and their buckets on their way into the cache meanwhile.
        let mut keys = [0u64; MAX_ROW];
        for (child_key, child) in keys.iter_mut().zip(children.iter()) {
            if !child.endless() {
                *child_key = future_key_for::<S>(&child.pos);
                self.table.prefetch(*child_key);
            }
        }
        let started = self.nodes;
        self.line.push(key);
        let mut best = LOWEST;
        let mut best_move = None;
        let mut cycle_at = NO_CYCLE;
        // Enhanced transposition cut-off: a child whose proven bounds already refute the window
        // ends the search before any child is searched (a child that repeats a position of the
        // line is not its own value there, and is left to the search). Children within the
        // tables have no entries: they are not looked for.
        let within_tables = self.within_tables(pos);
        let cut_first = entry.is_some() || pos.on_board() > within_tables + ETC_ABOVE_TABLES;
        let refuting = children
            .iter()
            .zip(keys.iter())
            .filter(|_| cut_first)
            .find_map(|(child, &child_key)| {
                let start = if child.captured() {
                    self.line.len()
                } else {
                    since_capture
                };
                if child.endless()
                    || child.pos.on_board() <= within_tables
                    || self.line[start..].contains(&child_key)
                {
                    return None;
                }
                let n = rules.pits_per_row;
                let bounds = self
                    .table
                    .probe(child_key, n, child.pos.captured_margin())?;
                let value = if child.same_side {
                    bounds.lo
                } else {
                    -bounds.hi
                };
                (value >= beta).then_some((child.mv, value))
            });
        if let Some((mv, value)) = refuting {
            best = value;
            best_move = Some(mv);
        }
        // Where other threads search with this one, a child one of them is busy with is put
        // off until the siblings are done (never the first: every thread starts where the
        // order says the proof most likely is).
        let to_search = if refuting.is_some() { 0 } else { count };
        let mut put_off = [0usize; MAX_ROW];
        let (mut put_off_count, mut next, mut next_put_off) = (0, 0, 0);
        loop {
            let index = if next < to_search {
                next += 1;
                let index = next - 1;
                if index > 0
                    && self
                        .busy
                        .as_ref()
                        .is_some_and(|busy| busy.is_busy(keys[index]))
                {
                    put_off[put_off_count] = index;
                    put_off_count += 1;
                    self.put_off += 1;
                    continue;
                }
                index
            } else if next_put_off < put_off_count {
                next_put_off += 1;
                put_off[next_put_off - 1]
            } else {
                break;
            };
            let (child, child_key) = (&children[index], keys[index]);
            let child_started = self.nodes;
            let (value, cycled) = if let Some(end) = self.end_value(child) {
                (end, NO_CYCLE)
            } else {
                let start = if child.captured() {
                    self.line.len()
                } else {
                    since_capture
                };
                let repeated = self.line[start..].iter().position(|&k| k == child_key);
                let found = match repeated {
                    Some(at) => Searched {
                        value: child.pos.final_margin(Ending::Repetition, self.rule),
                        cycle_at: (start + at) as u32,
                    },
                    None => {
                        if let Some(busy) = &self.busy {
                            busy.mark(child_key);
                        }
                        let searched = if child.same_side {
                            self.search(&child.pos, child_key, alpha, beta, ply + 1, start)
                        } else {
                            self.search(&child.pos, child_key, -beta, -alpha, ply + 1, start)
                                .map(|s| Searched {
                                    value: -s.value,
                                    cycle_at: s.cycle_at,
                                })
                        };
                        if let Some(busy) = &self.busy {
                            busy.clear(child_key);
                        }
                        searched?
                    }
                };
                let value = match (repeated, child.same_side) {
                    (Some(_), false) => -found.value,
                    _ => found.value,
                };
                (value, found.cycle_at)
            };
            cycle_at = cycle_at.min(cycled);
            if value > best {
                best = value;
                best_move = Some(child.mv);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        let slot = &mut self.history[history_slot(child.mv)];
                        let size = 64 - (self.nodes - child_started).leading_zeros();
                        *slot += size * size;
                        if *slot >= HISTORY_CAP {
                            self.history.iter_mut().for_each(|h| *h /= 2);
                        }
                        break;
                    }
                }
            }
        }
        self.line.pop();
        // Stored only if no cycle closed above this position: then the value is its own.
        if cycle_at as usize >= ply {
            let effort = (64 - (self.nodes - started).leading_zeros()) as u8;
            let bounds = if best <= original_alpha {
                Bounds {
                    lo: LOWEST,
                    hi: best,
                    best: best_move,
                }
            } else if best >= original_beta {
                Bounds {
                    lo: best,
                    hi: HIGHEST,
                    best: best_move,
                }
            } else {
                Bounds {
                    lo: best,
                    hi: best,
                    best: best_move,
                }
            };
            let margin = pos.captured_margin();
            self.table
                .store(key, S::rules(pos).pits_per_row, margin, bounds, effort);
        }
        Ok(Searched {
            value: best,
            cycle_at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child that another thread is searching is searched after its siblings, never left
    /// out: with every child of the root marked busy (as if another thread were in each), one
    /// thread still proves the value it proves alone, on positions of two games.
    #[test]
    fn a_child_another_thread_is_searching_is_put_off_not_left_out() {
        let mut rng = mancala_rules::SplitMix64::new(27);
        let mut put_off = 0;
        for variant in [
            mancala_rules::Variant::AlManqala,
            mancala_rules::Variant::MangalaII,
        ] {
            for _ in 0..40 {
                let text = mancala_testkit::positions::random_position(variant, 16, &mut rng);
                let pos = Position::from_position_string(variant, &text).expect("a valid position");
                mancala_rules::with_spec!(variant, S => {
                    let rule = LastFourRule::default();
                    let alone = {
                        let table = SolverTable::new(1);
                        let mut solver = Solver::<S>::new(&table, None, rule, SolveLimits::NONE);
                        solver.value(&pos).expect("no limits")
                    };
                    let busy = Arc::new(BusyTable::new());
                    for &mv in pos.legal_moves_for::<S>().iter() {
                        busy.mark(future_key_for::<S>(&Child::make::<S>(&pos, mv).pos));
                    }
                    let table = SolverTable::new(1);
                    let mut solver = Solver::<S>::new(&table, None, rule, SolveLimits::NONE);
                    solver.busy = Some(busy);
                    assert_eq!(solver.value(&pos), Ok(alone), "{variant} {text}");
                    put_off += solver.put_off;
                });
            }
        }
        assert!(put_off > 0, "no child was put off");
    }

    #[test]
    fn giving_up_counts_in_the_same_game_only() {
        let mut table = SolverTable::new(1);
        let a = Move::sow(Side::South, 0);
        let b = Move::sow(Side::North, 1);
        assert!(!table.gave_up_before(7, &[], 10));
        table.give_up(7, &[a], 10);
        // The same game, on or after that move, with as many counters or more.
        assert!(table.gave_up_before(7, &[a], 10));
        assert!(table.gave_up_before(7, &[a, b], 12));
        assert!(
            !table.gave_up_before(7, &[a, b], 8),
            "fewer counters: tried again"
        );
        // Another game: another base, or the same base with other moves.
        assert!(!table.gave_up_before(8, &[a], 10));
        assert!(!table.gave_up_before(7, &[b], 10));
        assert!(
            !table.gave_up_before(7, &[], 10),
            "before the move it gave up after"
        );
        table.clear();
        assert!(!table.gave_up_before(7, &[a], 10));
    }

    #[test]
    fn after_a_probe_runs_out_the_probes_close_in_on_it_from_afar() {
        // 9 ran out of its budget: the window's far edge first, the cheapest of all.
        assert_eq!(closing_probe(9, (7, 48), &[9], None), Some(48));
        // It fell short of 48 and proved the value at most 30: the new edge.
        assert_eq!(closing_probe(9, (7, 30), &[9], None), Some(30));
        assert_eq!(closing_probe(9, (7, 12), &[9], None), Some(12));
        // As far on either side: the lower one first.
        assert_eq!(closing_probe(9, (7, 10), &[9], None), Some(8));
        assert_eq!(closing_probe(9, (8, 10), &[9], None), Some(10));
        assert_eq!(closing_probe(9, (8, 10), &[9, 10], None), None);
    }

    #[test]
    fn an_open_probe_stops_its_side_until_the_budget_grows() {
        // 25 ran out too: nothing between it and 9 is tried, the lower side goes on.
        assert_eq!(closing_probe(9, (6, 25), &[9, 25], None), Some(7));
        assert_eq!(closing_probe(9, (7, 25), &[9, 25], None), Some(8));
        assert_eq!(closing_probe(9, (7, 25), &[9, 25, 8], None), None);
        // Bounds beyond it on its side still are.
        assert_eq!(closing_probe(9, (7, 48), &[9, 25], None), Some(48));
        // An open bound the window has since passed stops nothing.
        assert_eq!(closing_probe(9, (7, 20), &[9, 25], None), Some(20));
        // The center itself moves into the window.
        assert_eq!(closing_probe(9, (10, 20), &[9, 25], None), Some(20));
        assert_eq!(closing_probe(9, (12, 20), &[9, 20], None), Some(13));
        assert_eq!(closing_probe(0, (-1, 0), &[], None), Some(0));
        assert_eq!(closing_probe(0, (-1, 0), &[0], None), None);
    }

    #[test]
    fn where_every_value_is_even_odd_bounds_are_not_asked() {
        let even = Some(0);
        // "At least 1" is "at least 2".
        assert_eq!(closing_probe(1, (0, 2), &[], even), Some(2));
        assert_eq!(closing_probe(1, (0, 2), &[2], even), None);
        assert_eq!(closing_probe(9, (0, 48), &[10], even), Some(48));
        assert_eq!(closing_probe(9, (0, 48), &[10, 48], even), Some(2));
        assert_eq!(closing_probe(9, (2, 48), &[10, 48], even), Some(4));
        assert_eq!(closing_probe(9, (4, 48), &[10, 48], even), Some(6));
        // Odd values: the bounds are odd.
        assert_eq!(closing_probe(0, (-3, 3), &[1], Some(1)), Some(-1));
        assert_eq!(with_parity(-2, Some(1), -1), -3);
        assert_eq!(with_parity(-2, Some(0), -1), -2);
        assert_eq!(with_parity(-2, None, 1), -2);
    }
}
