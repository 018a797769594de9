//! A deliberately naive solver, on the naive rules of `reference.rs`: plain minimax over every
//! line, with no table and no pruning. A position met again on the line since its last capture
//! ends the line by the leftover rule (RULES.md, "Solved values"). Exponential: for positions
//! with a few counters only, and it gives up (`None`) past a budget of nodes.

use mancala_rules::LastFourRule;

use super::reference::{RefEnding, RefMove, RefPosition};

/// The side to move's final margin in `pos` when the game ends there by `ending`.
fn margin(pos: &RefPosition, ending: RefEnding) -> i32 {
    let totals = pos.final_totals(ending, LastFourRule::MostRecentFour);
    totals[pos.side] as i32 - totals[1 - pos.side] as i32
}

/// The value of each move of `pos` for its side to move: the solved value of the position it
/// leads to (a line of its own: `pos` is not on it); `None` past `budget` nodes.
pub fn naive_move_values(pos: &RefPosition, budget: u64) -> Option<Vec<(RefMove, i32)>> {
    let mut nodes = 0;
    pos.legal()
        .into_iter()
        .map(|mv| move_value(pos, mv, &mut Vec::new(), &mut nodes, budget).map(|v| (mv, v)))
        .collect()
}

/// The solved value of `pos`; `None` past `budget` nodes.
pub fn naive_value(pos: &RefPosition, budget: u64) -> Option<i32> {
    let mut nodes = 0;
    value(pos, &mut vec![pos.clone()], &mut nodes, budget)
}

fn value(
    pos: &RefPosition,
    line: &mut Vec<RefPosition>,
    nodes: &mut u64,
    budget: u64,
) -> Option<i32> {
    *nodes += 1;
    if *nodes > budget {
        return None;
    }
    if let Some(ending) = pos.own_ending() {
        return Some(margin(pos, ending));
    }
    let mut best = None;
    for mv in pos.legal() {
        let v = move_value(pos, mv, line, nodes, budget)?;
        best = Some(best.map_or(v, |b: i32| b.max(v)));
    }
    best
}

/// The value for `pos`'s mover of playing `mv`; `line` holds the positions since the last capture.
fn move_value(
    pos: &RefPosition,
    mv: RefMove,
    line: &mut Vec<RefPosition>,
    nodes: &mut u64,
    budget: u64,
) -> Option<i32> {
    let mut child = pos.clone();
    let (captured, endless) = child.play(mv);
    let sign = if child.side == pos.side { 1 } else { -1 };
    if endless {
        return Some(sign * margin(&child, RefEnding::Endless));
    }
    if !captured && line.contains(&child) {
        return Some(sign * margin(&child, RefEnding::Repetition));
    }
    let saved = if captured {
        std::mem::take(line)
    } else {
        Vec::new()
    };
    line.push(child.clone());
    let v = value(&child, line, nodes, budget);
    line.pop();
    if captured {
        *line = saved;
    }
    Some(sign * v?)
}
