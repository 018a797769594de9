//! Once the value is known: the moves that keep it, the move to play in a real game, and the
//! proven line.

use super::*;

impl<S: Spec> Solver<'_, S> {
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
    pub(super) fn keeps_value(
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
    pub(super) fn keeping_moves(
        &mut self,
        pos: &Position,
        value: i32,
    ) -> Result<Vec<Child>, Aborted> {
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
    pub(super) fn forced_progress(
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
    pub(super) fn solution(
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
}
