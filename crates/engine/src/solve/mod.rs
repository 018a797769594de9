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
    Direction, Ending, LastFourRule, MAX_MOVES, MAX_ROW, Move, MoveEffect, Position, Side, Spec,
};
use mancala_tablebase::Tablebases;

mod alpha_beta;
mod buckets;
mod busy;
mod line;
mod probes;
mod proof_numbers;
pub mod split;
mod table;
mod verify;

pub use buckets::MAX_SOLVER_TABLE_MIB;
pub use table::SolverTable;

// What the parts of the solver share among themselves.
use alpha_beta::HISTORY_SLOTS;
use table::Bounds;

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

/// Below and above any margin (a game has at most 255 counters).
const LOWEST: i32 = -256;
const HIGHEST: i32 = 256;

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

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The key by which the solver tells positions apart on a line (see [`ValueQuery::line`]).
    pub fn line_key(pos: &Position) -> u64 {
        future_key_for::<S>(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::probes::{closing_probe, with_parity};
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
