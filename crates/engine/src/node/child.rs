//! A move made during a search: the position it leads to and what it did. The search and the
//! solver make their moves the same way.

use mancala_rules::{Move, MoveEffect, Position, Spec};

#[derive(Clone, Copy)]
pub(crate) struct Child {
    pub mv: Move,
    pub pos: Position,
    pub effect: MoveEffect,
    /// Counters the move wins for the mover minus what it gives the opponent.
    pub gain: i32,
    /// The mover moves again.
    pub same_side: bool,
}

impl Child {
    /// Plays `mv` in `parent`, a position of the game `S`.
    #[inline(always)]
    pub fn make<S: Spec>(parent: &Position, mv: Move) -> Child {
        let mut pos = *parent;
        let effect = pos.play_for::<S>(mv);
        let same_side = pos.side_to_move() == parent.side_to_move();
        // The child's captured margin is its own side to move's: the mover's, or the other's.
        let after = if same_side {
            pos.captured_margin()
        } else {
            -pos.captured_margin()
        };
        Child {
            mv,
            pos,
            effect,
            gain: after - parent.captured_margin(),
            same_side,
        }
    }

    /// The move captured something (it made progress).
    #[inline]
    pub fn captured(&self) -> bool {
        self.effect.captured > 0
    }

    /// The move would never end: it was stopped and the game is over.
    #[inline]
    pub fn endless(&self) -> bool {
        self.effect.endless
    }

    /// A capture or an extra turn: searched in full however late it comes.
    #[inline]
    pub fn is_tactical(&self) -> bool {
        self.gain > 0 || self.effect.extra_turn
    }
}
