//! The evaluation's weights as types: the terms' weights of one game and its pit tables, with
//! the bucket of a pit's count that the tables are indexed by. The other evaluation files build
//! on these (the weights compiled in, the settings per game, the file formats, the network).

use mancala_rules::MAX_ROW;

/// The weights of one game's terms (centi-counters per unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per counter captured.
    pub material: i32,
    /// Per counter in the player's own row.
    pub row: i32,
    /// Per non-empty pit of the player's row (choices and tempo).
    pub mobility: i32,
    /// Per counter of the opponent's best capture if it were to move, in percent (the side to
    /// move's own captures are searched by the quiescence search instead).
    pub threat_pct: i32,
    /// Per pit of the player's row holding at least a full lap (a store for later).
    pub big_pit: i32,
    /// Anywoli: per pit of the player's row holding exactly three (a passing seed makes four,
    /// and mid-sow fours go to the pit's owner).
    pub threes: i32,
    /// Anywoli: percent of the seeds left that the receiver of the most recent four can expect
    /// when the board runs low (captures get rare, and the game then ends by the 100-move rule or
    /// repetition, whose leftover goes to that player).
    pub leftover_pct: i32,
}

/// Counts from this many up share one entry of a pit table.
pub const COUNT_BUCKETS: usize = 16;

/// One row's table: a value per count bucket per pit.
pub type PitTable = [[i32; COUNT_BUCKETS]; MAX_ROW];

/// The value of each count in each pit (centi-counters), by the pit's place in its owner's row
/// (0 = the owner's first pit in sowing order): `mine` for the side to move's row, `theirs` for
/// the other row. Two sets, blended linearly by the counters on the board: `mine`/`theirs` with
/// all of the game's counters on the board, `mine_late`/`theirs_late` with none (a count is worth
/// something else when the board runs low), where `tapered`; else `mine`/`theirs` alone. Learned
/// per game by `tune --pits` or `--tapered`; all zero (and skipped) where not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PitValues {
    pub used: bool,
    pub tapered: bool,
    pub mine: PitTable,
    pub theirs: PitTable,
    pub mine_late: PitTable,
    pub theirs_late: PitTable,
}

impl PitValues {
    pub const NONE: PitValues = PitValues {
        used: false,
        tapered: false,
        mine: [[0; COUNT_BUCKETS]; MAX_ROW],
        theirs: [[0; COUNT_BUCKETS]; MAX_ROW],
        mine_late: [[0; COUNT_BUCKETS]; MAX_ROW],
        theirs_late: [[0; COUNT_BUCKETS]; MAX_ROW],
    };

    /// The two sets' sums blended by the counters on the board (`on_board` of `total`).
    #[inline(always)]
    pub fn blend(full: i32, late: i32, on_board: i32, total: i32) -> i32 {
        (full * on_board + late * (total - on_board)) / total
    }
}

/// The entry of a pit table for `count` counters.
#[inline(always)]
pub fn bucket(count: u8) -> usize {
    (count as usize).min(COUNT_BUCKETS - 1)
}
