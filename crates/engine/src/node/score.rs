//! Search scores: heuristic values in centi-counters, and proven results that carry both the
//! exact final margin and the distance to the end of the game.
//!
//! A proven win by `m` counters at `p` plies from the root scores `WIN + 256·m − p`, a proven loss
//! `−WIN + 256·m + p` (`m < 0`), a proven draw 0. So any proven win beats any heuristic value, a
//! larger margin beats a smaller one, and among equal margins the quicker win (slower loss) is
//! preferred.

/// A score in the search's units, from the point of view of the side to move.
pub type Value = i32;

/// Base of proven results; heuristic values stay strictly inside `(-WIN, WIN)`.
pub const WIN: Value = 40_000;
/// Above any score (a proven win by the most counters a game may have is `WIN + 256 · 255`).
pub const INFINITY: Value = 200_000;
/// Plies that a search line may reach (proven scores encode the distance in 8 bits).
pub const MAX_PLY: usize = 128;
/// The bound on heuristic evaluations.
pub const MAX_EVAL: Value = WIN - 1_000;

/// The proven score of a game ending `ply` plies from the root with `margin` counters for the side
/// to move there.
#[inline]
pub fn proven(margin: i32, ply: usize) -> Value {
    let ply = ply as Value;
    match margin.signum() {
        1 => WIN + 256 * margin - ply,
        -1 => -WIN + 256 * margin + ply,
        _ => 0,
    }
}

#[inline]
pub fn is_proven_win(value: Value) -> bool {
    value > WIN
}

#[inline]
pub fn is_proven_loss(value: Value) -> bool {
    value < -WIN
}

/// Stores proven scores relative to the node (distance from the node, not the root).
#[inline]
pub fn to_table(value: Value, ply: usize) -> Value {
    if is_proven_win(value) {
        value + ply as Value
    } else if is_proven_loss(value) {
        value - ply as Value
    } else {
        value
    }
}

/// The inverse of [`to_table`].
#[inline]
pub fn from_table(value: Value, ply: usize) -> Value {
    if is_proven_win(value) {
        value - ply as Value
    } else if is_proven_loss(value) {
        value + ply as Value
    } else {
        value
    }
}

/// What a search says of a position (for its side to move): `value` orders moves, and `lo..=hi`
/// bounds the true final margin under best play, whatever the depth: a game end gives exact
/// bounds, a leaf judged by the evaluation only what its captured and remaining counters allow,
/// a node the best lower bound of the moves it searched and the best upper bound of all its
/// moves. When `lo == hi` the margin is proven.
///
/// Invariants, which keep the two consistent so that the order of `value` never prefers a move
/// that the bounds show to be worse: a proven value's margin lies within `lo..=hi`; `lo > 0`
/// only under a proven win and `hi < 0` only under a proven loss (so the open bounds of a leaf
/// always include 0); and a value is clamped to at most 0 where `hi <= 0` and at least 0 where
/// `lo >= 0` (a proven draw weighs 0, like any sure draw).
///
/// `anchor` says whether the result belongs to the position or to the line that reached it: a
/// repetition or a no-progress end below a node is judged with positions and quiet moves of the
/// line above it (or of the game before the root), which another line to the same position need
/// not share. The result is the position's own at every ply below `anchor` and is stored in the
/// table only there, so that no later search (of this game or another) takes a line's result for
/// the position's value. [`OWN`] when only the position and the moves below it count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub value: Value,
    pub lo: Margin,
    pub hi: Margin,
    pub anchor: u8,
}

/// A final margin, in counters: at most the game's counters either way (255), so 9 bits hold it.
pub type Margin = i16;

/// Below every margin a game can end with: the bounds of a node that has searched no move.
pub const NO_MARGIN: Margin = -256;

/// The anchor of a result that depends on nothing above its position.
pub const OWN: u8 = u8::MAX;

impl Scored {
    /// The end of the game `ply` plies from the root, with `margin` for the side to move there.
    #[inline]
    pub fn game_end(margin: i32, ply: usize) -> Scored {
        Scored {
            value: proven(margin, ply),
            lo: margin as Margin,
            hi: margin as Margin,
            anchor: OWN,
        }
    }

    /// A value judged without a proof, in a position where the side to move has captured
    /// `captured_margin` more than the opponent and `on_board` counters are still in play.
    #[inline]
    pub fn judged(value: Value, captured_margin: i32, on_board: i32) -> Scored {
        Scored {
            value,
            lo: (captured_margin - on_board).clamp(-255, 0) as Margin,
            hi: (captured_margin + on_board).clamp(0, 255) as Margin,
            anchor: OWN,
        }
    }

    /// The same position seen by the other side.
    #[inline]
    pub fn negate(self) -> Scored {
        Scored {
            value: -self.value,
            lo: -self.hi,
            hi: -self.lo,
            anchor: self.anchor,
        }
    }

    /// The value brought within what the bounds allow (see the invariants).
    #[inline]
    pub fn clamped(mut self) -> Scored {
        if self.hi <= 0 {
            self.value = self.value.min(0);
        }
        if self.lo >= 0 {
            self.value = self.value.max(0);
        }
        self
    }

    /// This result with the anchor `anchor` (see the type's doc).
    #[inline]
    pub fn anchored(self, anchor: u8) -> Scored {
        Scored { anchor, ..self }
    }

    /// Whether the result is the position's own at a node `ply` plies from the root.
    #[inline]
    pub fn is_own_at(&self, ply: usize) -> bool {
        ply < self.anchor as usize
    }

    /// The proven final margin, if the bounds meet.
    #[inline]
    pub fn exact_margin(&self) -> Option<i32> {
        (self.lo == self.hi).then_some(self.lo as i32)
    }
}

/// A score as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// 100 × the expected final margin of the side to move.
    Centi(i32),
    /// A proven result: the game ends in `plies` moves, won (`plies > 0`) or lost (`plies < 0`),
    /// by `margin` counters (negative when losing).
    Mate { plies: i32, margin: i32 },
}

impl Score {
    pub fn from_value(value: Value) -> Score {
        let decode = |excess: Value| {
            let margin = (excess + 255) / 256;
            (margin, 256 * margin - excess)
        };
        if is_proven_win(value) {
            let (margin, plies) = decode(value - WIN);
            Score::Mate { plies, margin }
        } else if is_proven_loss(value) {
            let (margin, plies) = decode(-value - WIN);
            Score::Mate {
                plies: -plies,
                margin: -margin,
            }
        } else {
            Score::Centi(value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_round_trip_and_order() {
        for margin in [-255, -98, -3, -1, 1, 2, 98, 162, 255] {
            for ply in [0, 1, 7, MAX_PLY - 1] {
                let value = proven(margin, ply);
                let plies = if margin > 0 {
                    ply as i32
                } else {
                    -(ply as i32)
                };
                assert_eq!(Score::from_value(value), Score::Mate { plies, margin });
                assert_eq!(from_table(to_table(value, 9), 9), value);
            }
        }
        assert!(proven(1, 100) > MAX_EVAL);
        assert!(proven(3, 50) > proven(2, 1), "larger margin first");
        assert!(proven(2, 3) > proven(2, 5), "quicker win first");
        assert!(proven(-2, 5) > proven(-2, 3), "slower loss first");
        assert!(proven(-1, 0) < -MAX_EVAL);
        assert_eq!(proven(0, 4), 0);
        assert!(proven(255, 0) < INFINITY && proven(-255, 0) > -INFINITY);
        assert_eq!(Score::from_value(-250), Score::Centi(-250));
    }
}
