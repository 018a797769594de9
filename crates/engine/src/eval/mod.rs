//! Static evaluation: the expected final margin of the side to move, in centi-counters.
//!
//! The captured margin is exact; the positional terms estimate what the board will still yield.
//! Every term is "mine minus the opponent's" from the side to move's point of view.

mod fields;
pub(crate) mod network;
mod row_word;
mod terms;
pub(crate) mod tuning;
pub(crate) mod weights_file;

// The evaluation's curated surface: what the engine's callers (the programs, and
// `mancala-learn`, which fits the weights and trains the networks) may use.
pub use network::{
    MAX_ACTIVE, MAX_HIDDEN, MAX_WEIGHT, Network, ONE, active_inputs, fingerprint, input_count,
    load as load_network,
};
pub use terms::{COUNT_BUCKETS, PitTable, PitValues, Weights, bucket};
pub use tuning::{COMPILED, Tuning, WEIGHTS_FILES, load as load_weights, tuning as settings};
pub use weights_file::WeightsFile;

use crate::node::score::{MAX_EVAL, Value};
use mancala_rules::{CaptureCounts, Goal, Laps, Leftover, Position, Side, Spec, Variant};
use row_word::RowWord;

/// The pit tables of each game (its weights file, through the game's [`tuning::Tuning`]).
#[inline(always)]
pub fn pit_values(variant: Variant) -> &'static PitValues {
    tuning::tuning(variant).pits
}

/// Below this many counters on the board the leftover term starts to count, growing linearly.
const LEFTOVER_FROM: i32 = 24;

/// The weights of each game: fitted to self-play data by `mancala-engine tune` (the game's
/// weights file, `crates/engine/games/<game>.weights`, says from what data and by which
/// command).
#[inline(always)]
pub fn weights(variant: Variant) -> Weights {
    tuning::tuning(variant).weights
}

/// The evaluation split into its terms (already weighted), for the `eval` command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalParts {
    pub material: Value,
    pub row: Value,
    pub mobility: Value,
    pub threat: Value,
    pub big_pits: Value,
    pub threes: Value,
    pub leftover: Value,
    /// The pit tables' sum.
    pub pits: Value,
    /// The network's correction on top of the terms and tables (`network.rs`; 0 without one).
    pub network: Value,
}

impl EvalParts {
    pub fn total(&self) -> Value {
        (self.linear() + self.network).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The terms' and tables' sum, without the network (what a network is trained on top of).
    pub fn linear(&self) -> Value {
        self.material
            + self.row
            + self.mobility
            + self.threat
            + self.big_pits
            + self.threes
            + self.leftover
            + self.pits
    }

    /// The terms with their names, in a fixed order.
    pub fn named(&self) -> [(&'static str, Value); 9] {
        [
            ("material", self.material),
            ("row", self.row),
            ("mobility", self.mobility),
            ("threat", self.threat),
            ("bigpits", self.big_pits),
            ("threes", self.threes),
            ("leftover", self.leftover),
            ("pits", self.pits),
            ("network", self.network),
        ]
    }
}

/// Counts of one row that the evaluation uses.
#[derive(Default)]
struct RowStats {
    total: i32,
    filled: i32,
    big: i32,
    threes: i32,
}

fn row_stats(pits: &[u8], lap: u8) -> RowStats {
    let mut stats = RowStats::default();
    for &c in pits {
        stats.total += c as i32;
        stats.filled += (c > 0) as i32;
        stats.big += (c >= lap) as i32;
        stats.threes += (c == 3) as i32;
    }
    stats
}

/// The largest capture the side not to move could start next turn, judged by the landing pit
/// alone (exact about whether it captures in one-lap games, a lower bound of how much).
fn threat(pos: &Position, side: Side) -> i32 {
    pos.row(side)
        .filter(|&pit| pos.pits()[pit] > 0)
        .filter_map(|pit| pos.capture_hint(pit))
        .max()
        .unwrap_or(0) as i32
}

/// The share of the board's counters that the last-four receiver can expect, for the side to
/// move (centi-counters): zero above `LEFTOVER_FROM` counters, then growing as the board empties.
fn leftover(pos: &Position, pct: i32) -> i32 {
    let Some(receiver) = pos.last_four().filter(|_| pct != 0) else {
        return 0;
    };
    let on_board = pos.on_board() as i32;
    let share = on_board * (LEFTOVER_FROM - on_board).max(0) * pct / LEFTOVER_FROM;
    if receiver == pos.side_to_move() {
        share
    } else {
        -share
    }
}

/// The evaluation's terms before weighting, "mine minus the opponent's" for the side to move:
/// what the tuner fits the weights to. `leftover` is the leftover share at 100 percent, in
/// centi-counters; `threat` the opponent's best capture (0 in games without the term).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub material: i32,
    pub row: i32,
    pub mobility: i32,
    pub threat: i32,
    pub big_pits: i32,
    pub threes: i32,
    pub leftover: i32,
}

impl Features {
    /// The features in the order of [`EvalParts::named`].
    pub fn as_array(&self) -> [i32; 7] {
        [
            self.material,
            self.row,
            self.mobility,
            self.threat,
            self.big_pits,
            self.threes,
            self.leftover,
        ]
    }
}

/// The unweighted terms of `pos`.
pub fn features(pos: &Position) -> Features {
    let me = pos.side_to_move();
    let opp = me.opponent();
    let lap = pos.rules().pit_count() as u8;
    let mine = row_stats(&pos.pits()[pos.row(me)], lap);
    let theirs = row_stats(&pos.pits()[pos.row(opp)], lap);
    let threat = if matches!(pos.rules().laps, Laps::Single { .. }) {
        threat(pos, opp)
    } else {
        0
    };
    // Where the goal is to clear one's own row, counters and filled pits in it are a burden.
    let sign = if pos.rules().goal == Goal::ClearOwnRow {
        -1
    } else {
        1
    };
    Features {
        material: pos.owned_margin(),
        row: sign * (mine.total - theirs.total),
        mobility: sign * (mine.filled - theirs.filled),
        threat,
        big_pits: mine.big - theirs.big,
        threes: mine.threes - theirs.threes,
        // Where the leftover goes to the receiver of the most recent four, who receives it
        // matters more and more as the board empties.
        leftover: if pos.rules().leftover == Leftover::LastFourReceiver {
            leftover(pos, 100)
        } else {
            0
        },
    }
}

/// Evaluates `pos` term by term.
pub fn evaluate_parts(pos: &Position) -> EvalParts {
    let w = weights(pos.variant());
    let f = features(pos);
    EvalParts {
        material: w.material * f.material,
        row: w.row * f.row,
        mobility: w.mobility * f.mobility,
        threat: -w.threat_pct * f.threat,
        big_pits: w.big_pit * f.big_pits,
        threes: w.threes * f.threes,
        // Not `f.leftover` scaled: the integer share must round as `evaluate` rounds it.
        leftover: leftover(pos, w.leftover_pct),
        pits: pit_sum(pos, pit_values(pos.variant())),
        network: network::network(pos.variant()).map_or(0, |net| net.evaluate(pos)),
    }
}

/// The pit tables' sum for the side to move.
fn pit_sum(pos: &Position, table: &PitValues) -> i32 {
    if !table.used {
        return 0;
    }
    let me = pos.side_to_move();
    let mine = &pos.pits()[pos.row(me)];
    let theirs = &pos.pits()[pos.row(me.opponent())];
    let (mut full, mut late) = (0, 0);
    for (p, (&m, &t)) in mine.iter().zip(theirs).enumerate() {
        full += table.mine[p][bucket(m)] + table.theirs[p][bucket(t)];
        late += table.mine_late[p][bucket(m)] + table.theirs_late[p][bucket(t)];
    }
    if !table.tapered {
        return full;
    }
    PitValues::blend(
        full,
        late,
        pos.on_board() as i32,
        pos.rules().total() as i32,
    )
}

/// The static evaluation of `pos` for its side to move: the same as
/// `evaluate_parts(pos).total()` (a property test holds them equal), computed in one pass without
/// the parts, since it runs at every leaf of the search.
pub fn evaluate(pos: &Position) -> Value {
    mancala_rules::with_spec!(pos.variant(), S => evaluate_for::<S>(pos))
}

/// [`evaluate`] for a position of the game `S`, from the rows packed in words: with the game's
/// rules and weights as constants, the terms a game does not use fold away.
#[inline(always)]
pub fn evaluate_for<S: Spec>(pos: &Position) -> Value {
    let rules = S::rules(pos);
    let w = weights(S::variant(pos));
    let lap = rules.pit_count() as u8;
    let me = pos.side_to_move();
    let (mine, theirs) = (
        RowWord::of::<S>(pos, me),
        RowWord::of::<S>(pos, me.opponent()),
    );
    let sign = if rules.goal == Goal::ClearOwnRow {
        -1
    } else {
        1
    };
    let row = sign * (mine.total() - theirs.total());
    let filled = sign * (mine.non_empty() - theirs.non_empty());
    let big = mine.at_least(lap) - theirs.at_least(lap);
    let threes = if w.threes != 0 {
        mine.exactly(3) - theirs.exactly(3)
    } else {
        0
    };
    let threat = match rules.laps {
        Laps::Single { captures } if w.threat_pct != 0 => one_lap_threat::<S>(pos, captures),
        _ => 0,
    };
    // (Children's counters are their owners': only a game with children looks.)
    let material = if rules.has_children() {
        pos.owned_margin()
    } else {
        pos.captured_margin()
    };
    let table = pit_values(S::variant(pos));
    let pits = if table.used {
        let n = rules.pits_per_row;
        let all = pos.all_pits();
        let (mine, theirs) = (me.index() * n, me.opponent().index() * n);
        let (mut full, mut late) = (0, 0);
        for p in 0..n {
            let (m, t) = (bucket(all[mine + p]), bucket(all[theirs + p]));
            full += table.mine[p][m] + table.theirs[p][t];
            if table.tapered {
                late += table.mine_late[p][m] + table.theirs_late[p][t];
            }
        }
        if table.tapered {
            PitValues::blend(
                full,
                late,
                pos.on_board_for::<S>() as i32,
                rules.total() as i32,
            )
        } else {
            full
        }
    } else {
        0
    };
    let network = match network::network(S::variant(pos)) {
        Some(net) => net.evaluate_for::<S>(pos),
        None => 0,
    };
    (network + pits + w.material * material + w.row * row + w.mobility * filled
        - w.threat_pct * threat
        + w.big_pit * big
        + w.threes * threes
        + leftover(pos, w.leftover_pct))
    .clamp(-MAX_EVAL, MAX_EVAL)
}

/// The opponent's best capture next turn in a one-lap game (as [`threat`], by the landing pit),
/// without branches: an empty pit's landing count is 0, which captures nothing.
#[inline(always)]
fn one_lap_threat<S: Spec>(pos: &Position, captures: CaptureCounts) -> i32 {
    let n = S::rules(pos).pits_per_row;
    let first = pos.side_to_move().opponent().index() * n;
    let mut threat = 0u8;
    for pit in first..first + n {
        let landing_count = pos.landing_count_for::<S>(pit);
        threat = threat.max(landing_count * captures.contains(landing_count) as u8);
    }
    threat as i32
}
