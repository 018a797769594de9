//! The engine's settings of each game, in one table: the evaluation's weights (fitted by
//! `mancala-engine tune`, generated into `weights.rs`), the counters on the board up to which a
//! position goes to the solver first, and the depth the bench searches the game's positions to.

use super::eval::{PitValues, Weights};
use super::weights;
use mancala_rules::Variant;

/// What the engine uses of one game beyond its rules.
pub struct Tuning {
    /// The evaluation's weights of the hand-made terms.
    pub weights: Weights,
    /// The evaluation's value per count per pit (unused when `used` is false).
    pub pits: &'static PitValues,
    /// Positions with at most this many counters on the board (or within the tables) are first
    /// given to the solver.
    pub solve_max_counters: u32,
    /// The depth of the bench's searches of this game's positions.
    pub bench_depth: u32,
}

const MANGALA_II: Tuning = Tuning {
    weights: weights::MANGALA_II,
    pits: &weights::MANGALA_II_PITS,
    solve_max_counters: 20,
    bench_depth: 13,
};

/// Play is forced: the search plays the game out, and the evaluation is never asked.
const MANGALA_IV: Tuning = Tuning {
    weights: weights::MANGALA_IV,
    pits: &PitValues::NONE,
    solve_max_counters: 20,
    bench_depth: 1,
};

const AL_MANQALA: Tuning = Tuning {
    weights: weights::AL_MANQALA,
    pits: &weights::AL_MANQALA_PITS,
    solve_max_counters: 20,
    bench_depth: 12,
};

/// Anywoli's sparse boards cycle for long before a capture, which the solver's search handles
/// slowly: there it waits for the tables.
const ANYWOLI: Tuning = Tuning {
    weights: weights::ANYWOLI,
    pits: &weights::ANYWOLI_PITS,
    solve_max_counters: 6,
    bench_depth: 9,
};

/// The settings of `variant`.
pub const fn tuning(variant: Variant) -> &'static Tuning {
    match variant {
        Variant::MangalaII => &MANGALA_II,
        Variant::MangalaIV => &MANGALA_IV,
        Variant::AlManqala => &AL_MANQALA,
        Variant::Anywoli => &ANYWOLI,
    }
}
