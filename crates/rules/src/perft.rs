//! Perft: counting the leaves of the move tree (RULES.md, "The engine's choices"), the standard check of move generation.

use std::sync::atomic::{AtomicBool, Ordering};

use super::moves::Move;
use super::position::Position;

/// A perft run was stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aborted;

/// Leaves of the move tree of depth `depth` from `pos`. A pass is a move, a finished game has no
/// moves, and an endless move ends the game. Repetition is ignored (the position alone counts).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(pos, depth, &never).unwrap_or(0)
}

/// [`perft`] that gives up with [`Aborted`] once `stop` is set.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Result<u64, Aborted> {
    if depth == 0 {
        return Ok(1);
    }
    let moves = pos.legal_moves();
    // Bulk counting: each legal move is one leaf at depth 1, so the last ply needs no sowing.
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    if depth >= 4 && stop.load(Ordering::Relaxed) {
        return Err(Aborted);
    }
    let mut nodes = 0;
    for &mv in &moves {
        let mut child = *pos;
        if !child.play_unchecked(mv).endless {
            nodes += perft_until(&child, depth - 1, stop)?;
        }
    }
    Ok(nodes)
}

/// Perft split by root move ("divide"): `report` is called with each legal move (in index order)
/// and its count as soon as it is known. Returns the total.
pub fn perft_divide(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
    mut report: impl FnMut(Move, u64),
) -> Result<u64, Aborted> {
    if depth == 0 {
        return Ok(1);
    }
    let mut total = 0;
    for &mv in &pos.legal_moves() {
        let mut child = *pos;
        let endless = child.play_unchecked(mv).endless;
        let count = match (endless, depth) {
            (_, 1) => 1,
            (true, _) => 0,
            (false, _) => perft_until(&child, depth - 1, stop)?,
        };
        report(mv, count);
        total += count;
    }
    Ok(total)
}
