//! The search itself: fail-soft alpha-beta on final margins, with the bounds table, cycles on
//! the line, the tables at the leaves and the move order.

use super::*;

/// One slot a pit of either row, and one for the pass.
pub(super) const HISTORY_SLOTS: usize = 2 * MAX_ROW + 1;
/// Where the history counts are halved: they fit the bits the order gives them.
pub(super) const HISTORY_CAP: u32 = (1 << 14) - 1;
/// The static evaluations the order tells apart (beyond them, all alike): 14 bits.
pub(super) const EVAL_SPAN: i64 = (1 << 13) - 1;

pub(super) fn history_slot(mv: Move) -> usize {
    mv.pit(MAX_ROW).unwrap_or(2 * MAX_ROW)
}

/// What searching a position gave: its value (an exact margin, or a bound outside the window)
/// and the lowest line position that a cycle in its subtree closed on.
#[derive(Clone, Copy)]
pub(super) struct Searched {
    pub(super) value: i32,
    pub(super) cycle_at: u32,
}

impl<S: Spec> Solver<'_, S> {
    #[inline]
    pub(super) fn make(pos: &Position, mv: Move) -> Child {
        Child::make::<S>(pos, mv)
    }

    /// The mover's final margin if the move `child` ends the game by itself (an endless move).
    pub(super) fn end_value(&self, child: &Child) -> Option<i32> {
        child.endless().then(|| {
            let margin = child.pos.final_margin(Ending::EndlessMove, self.rule);
            if child.same_side { margin } else { -margin }
        })
    }

    /// Positions with at most this many counters on the board are in the tables (0 without
    /// them), looked up once: a solver searches one game.
    pub(super) fn within_tables(&mut self, pos: &Position) -> u32 {
        let tablebases = self.tablebases;
        *self.tables_reach.get_or_insert_with(|| {
            tablebases
                .and_then(|tb| tb.max_counters(pos.variant()))
                .unwrap_or(0)
        })
    }

    pub(super) fn poll(&mut self) -> Result<(), Aborted> {
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
    pub(super) fn search(
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
        // within the captured margin plus or minus those counters (the total either way where
        // the goal eliminates).
        let captured = pos.captured_margin();
        let (least, most) = pos.final_margin_range();
        if most <= alpha {
            return Ok(Searched {
                value: most,
                cycle_at: NO_CYCLE,
            });
        }
        if least >= beta {
            return Ok(Searched {
                value: least,
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
        }; MAX_MOVES];
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
        let mut keys_for_order = [0i64; MAX_MOVES];
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
        let mut keys = [0u64; MAX_MOVES];
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
        let mut put_off = [0usize; MAX_MOVES];
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
