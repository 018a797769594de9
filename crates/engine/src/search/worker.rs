//! One search thread: iterative deepening over a principal-variation alpha-beta search.

use std::sync::atomic::Ordering;

use std::marker::PhantomData;

use super::tt::{Bound, Entry};
use super::{Aborted, Shared};
use crate::eval::evaluate_for;
use crate::node::child::Child;
use crate::node::keys::{position_key_for, table_key};
use crate::node::score::{
    INFINITY, MAX_EVAL, MAX_PLY, NO_MARGIN, OWN, Score, Scored, Value, from_table, is_proven_loss,
    is_proven_win, to_table,
};
use mancala_rules::{
    Ending, LastFourRule, MAX_MOVES, MAX_PITS, Move, MoveChoice, MoveFilter, MoveList,
    NO_PROGRESS_LIMIT, Position, REPETITION_LIMIT, Spec,
};

/// Captures searched beyond the nominal depth.
const QUIESCENCE_PLIES: u32 = 6;
/// Buckets of the repetition pre-filter.
const KEY_FILTER: usize = 4096;
/// Nodes this deep or deeper put off moves that another thread is searching.
const DEFER_MIN_DEPTH: i32 = 3;
/// Nodes this shallow neither probe nor fill the transposition table: a depth-1 node costs less
/// to search again than the cache miss of a probe (bench: 4% more nodes, 8% less time).
const TABLE_MIN_DEPTH: i32 = 2;
/// Nodes this shallow may stop at a static judgement far enough above beta (reverse futility).
const RFP_MAX_DEPTH: i32 = 3;
/// How far above beta, per ply of depth left, in centi-counters.
const RFP_MARGIN: Value = 200;
/// How often (in nodes) the stop flag and the clock are looked at.
const POLL_INTERVAL: u64 = 1024;

/// The moves of a node waiting to be searched, each with its ordering key, picked best first
/// (most nodes are cut after one or two moves: sorting them all would be wasted).
///
/// A key is packed with its move's place in the list, so that the largest packed key is unique
/// and ties go to the earlier place; an empty or used slot holds 0. The best is then the maximum
/// of a fixed-length array, which compiles without branches.
struct Ordered {
    keys: [i32; MAX_MOVES],
    moves: [Move; MAX_MOVES],
}

impl Ordered {
    /// Keys from this much below zero can be given.
    const KEY_OFFSET: i32 = 1 << 19;

    fn new() -> Ordered {
        Ordered {
            keys: [0; MAX_MOVES],
            moves: [Move::PASS; MAX_MOVES],
        }
    }

    /// Puts `mv` with `key` (from `-KEY_OFFSET` to below `2^25`) at `place` (each place once),
    /// if `keep`: without a branch, a move left out leaves its place empty.
    #[inline(always)]
    fn put(&mut self, place: usize, mv: Move, key: i32, keep: bool) {
        const { assert!(MAX_MOVES <= 32) };
        debug_assert!((-Self::KEY_OFFSET..1 << 25).contains(&key));
        // Signed, though never negative: signed comparisons are the cheaper vector operations.
        let packed = ((key + Self::KEY_OFFSET + 1) << 5) | (31 - place as i32);
        self.keys[place] = packed & (keep as i32).wrapping_neg();
        self.moves[place] = mv;
    }

    /// Takes the move with the largest key (the earliest of equals) among the first `places`,
    /// if any is left.
    #[inline(always)]
    fn pop(&mut self, places: usize) -> Option<Move> {
        let best = self.keys[..places].iter().copied().max().unwrap_or(0);
        if best == 0 {
            return None;
        }
        let place = 31 - (best & 31) as usize;
        self.keys[place] = 0;
        Some(self.moves[place])
    }
}

/// The result of searching the root at one depth.
#[derive(Clone, Debug)]
pub struct RootResult {
    pub value: Value,
    pub pv: Vec<Move>,
    /// Each root move searched, with what its search said (from the root's side).
    pub moves: Vec<(Move, Scored)>,
}

impl RootResult {
    /// Whether the best move is proven optimal by margin: its final margin is proven, and it
    /// reaches every other root move's upper bound, so that no deeper search can find better.
    pub fn best_is_proven_optimal(&self) -> bool {
        let Some(&best) = self.pv.first() else {
            return false;
        };
        let Some(&(_, scored)) = self.moves.iter().find(|(mv, _)| *mv == best) else {
            return false;
        };
        scored.exact_margin().is_some()
            && self
                .moves
                .iter()
                .all(|&(mv, other)| mv == best || other.hi <= scored.lo)
    }

    /// The result with the move to play first. The search's order puts every evaluated line
    /// above every proven loss, which is right while an evaluated line may still be a draw or a
    /// win, but not when the evaluation itself expects a bigger loss than a move that is proven
    /// to lose less: a move proven to lose by 82 is better than one evaluated at −85. So the moves
    /// are ranked by the margin each is expected or proven to give (proven wins above all), and a
    /// move whose upper bound on the margin is below another move's proven lower bound is never
    /// chosen. A move other than the line's first comes with a line of itself alone.
    pub fn preferred(self) -> RootResult {
        let Some(&first) = self.pv.first() else {
            return self;
        };
        let floor = self
            .moves
            .iter()
            .map(|(_, s)| s.lo)
            .max()
            .unwrap_or(NO_MARGIN);
        let rank_of = |mv: Move, scored: &Scored| {
            // The line's own value for its first move (the list holds the same, or a bound).
            let value = if mv == first {
                self.value
            } else {
                scored.value
            };
            (margin_rank(value), mv == first)
        };
        let choice = self
            .moves
            .iter()
            .filter(|(_, scored)| scored.hi >= floor)
            .max_by_key(|(mv, scored)| rank_of(*mv, scored));
        match choice {
            Some(&(mv, scored)) if mv != first => RootResult {
                value: scored.value,
                pv: vec![mv],
                moves: self.moves,
            },
            _ => self,
        }
    }

    /// The proven final margin of the line's first move, if its bounds meet.
    pub fn line_margin(&self) -> Option<i32> {
        let first = self.pv.first()?;
        let (_, scored) = self.moves.iter().find(|(mv, _)| mv == first)?;
        scored.exact_margin()
    }
}

/// A search thread for the game `S` (compiled once per game, with its rules as constants).
pub struct Worker<'a, S: Spec> {
    shared: &'a Shared,
    pub id: usize,
    rule: LastFourRule,
    /// Keys of the positions before the current node: the game's (since its last capture) and
    /// then the search path's. Used for repetition.
    keys: Vec<u64>,
    base_keys: usize,
    /// How many keys in `keys` share each low-bits bucket: most nodes need no scan at all.
    key_filter: Box<[u8; KEY_FILTER]>,
    pub nodes: u64,
    reported_nodes: u64,
    pub seldepth: usize,
    /// The depth of the current root search: extensions stay within twice it.
    root_depth: i32,
    /// Whether running out of time may abort the current iteration (never during depth 1).
    abortable: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: [[i32; MAX_PITS + 1]; 2],
    pv: Vec<Vec<Move>>,
    /// Root moves left out of this search (MultiPV: those already reported).
    pub excluded: Vec<Move>,
    /// What each root move's search said in the current root search.
    root_moves: Vec<(Move, Scored)>,
    /// Helpers shuffle the order of quiet moves a little, so that threads explore different
    /// parts of the tree first (the main thread keeps 0: its search stays deterministic).
    jitter: u64,
    game: PhantomData<S>,
}

impl<'a, S: Spec> Worker<'a, S> {
    /// Pits per row of the game (a constant for a built-in game).
    #[inline(always)]
    fn n(&self) -> usize {
        S::rules(&self.shared.root).pits_per_row
    }

    pub fn new(shared: &'a Shared, id: usize, history_keys: &[u64]) -> Worker<'a, S> {
        let mut key_filter = Box::new([0u8; KEY_FILTER]);
        for &key in history_keys {
            key_filter[key as usize % KEY_FILTER] += 1;
        }
        Worker {
            shared,
            id,
            rule: shared.rule,
            keys: history_keys.to_vec(),
            base_keys: history_keys.len(),
            key_filter,
            nodes: 0,
            reported_nodes: 0,
            seldepth: 0,
            root_depth: 0,
            abortable: false,
            killers: [[None; 2]; MAX_PLY + 1],
            history: [[0; MAX_PITS + 1]; 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            excluded: Vec::new(),
            root_moves: Vec::new(),
            jitter: id as u64 * 0x9E37_79B9_7F4A_7C15,
            game: PhantomData,
        }
    }

    /// Searches the root to `depth` within `(alpha, beta)`.
    pub fn search_root(
        &mut self,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Result<RootResult, Aborted> {
        self.abortable = depth > 1;
        self.root_depth = depth as i32;
        while self.keys.len() > self.base_keys {
            self.pop_key();
        }
        let root = self.shared.root;
        let key = position_key_for::<S>(&root);
        self.root_moves.clear();
        let at = NodeAt {
            pos: &root,
            key,
            ply: 0,
            quiet: self.shared.root_quiet,
            endless: false,
        };
        let scored = self.node(at, depth as i32, alpha, beta)?;
        Ok(RootResult {
            value: scored.value,
            pv: self.pv[0].clone(),
            moves: self.root_moves.clone(),
        })
    }

    /// What the root search that was just aborted had found: the line of a move that scored
    /// inside the window (the first move searched, or one that beat it), if any.
    pub fn unfinished_root(&self) -> Option<RootResult> {
        let pv = self.pv[0].clone();
        let &(_, scored) = self
            .root_moves
            .iter()
            .find(|(mv, _)| Some(mv) == pv.first())?;
        Some(RootResult {
            value: scored.value,
            pv,
            moves: self.root_moves.clone(),
        })
    }

    /// Adds this thread's uncounted nodes to the shared total.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.reported_nodes, Ordering::Relaxed);
        self.reported_nodes = self.nodes;
    }

    fn push_key(&mut self, key: u64) {
        self.keys.push(key);
        self.key_filter[key as usize % KEY_FILTER] += 1;
    }

    fn pop_key(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.key_filter[key as usize % KEY_FILTER] -= 1;
        }
    }

    #[inline]
    fn visit(&mut self, ply: usize) -> Result<(), Aborted> {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(limit) = self.shared.node_limit {
            let others = self.shared.nodes.load(Ordering::Relaxed) - self.reported_nodes;
            if self.abortable && self.nodes + others >= limit {
                return Err(Aborted);
            }
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.flush_nodes();
            if self.shared.should_stop(self.abortable) {
                return Err(Aborted);
            }
        }
        Ok(())
    }

    /// The exact score of a finished game at `pos` for its side to move.
    fn final_value(&self, pos: &Position, ending: Ending, ply: usize) -> Scored {
        Scored::game_end(pos.final_margin(ending, self.rule), ply)
    }

    /// `value` from the evaluation, with the bounds that the counters alone allow.
    #[inline]
    fn judged(pos: &Position, value: Value) -> Scored {
        if S::rules(pos).eliminates() {
            // Won outright: the whole total either way, whatever has been captured.
            return Scored::judged(value, 0, pos.goal_total() as i32);
        }
        Scored::judged(value, pos.captured_margin(), pos.on_board_for::<S>() as i32)
    }

    /// Why the game is over at the node `at` (which has no legal move when `no_moves`), in the
    /// game's order of precedence, with the anchor of its result (see [`Scored`]); `None` while
    /// the game goes on.
    fn ending_at(&self, at: &NodeAt<'_>, no_moves: bool) -> Option<(Ending, u8)> {
        let NodeAt {
            pos,
            key,
            ply,
            quiet,
            endless,
        } = *at;
        if no_moves {
            return pos.own_ending_for::<S>().map(|ending| (ending, OWN));
        }
        if endless {
            return Some((Ending::EndlessMove, OWN));
        }
        if quiet >= 2 && self.key_filter[key as usize % KEY_FILTER] > 0 {
            let window = (quiet as usize).min(self.keys.len());
            let first = self.keys.len() - window;
            let mut seen = 0;
            let mut earliest = None;
            for (index, _) in self.keys[first..]
                .iter()
                .enumerate()
                .filter(|&(_, &k)| k == key)
            {
                seen += 1;
                earliest.get_or_insert(first + index);
            }
            if seen + 1 >= REPETITION_LIMIT {
                // The earlier occurrences are on the line (their plies) or in the game.
                let anchor = earliest
                    .and_then(|index| index.checked_sub(self.base_keys))
                    .map_or(0, |at| (at + 1).min(OWN as usize - 1) as u8);
                return Some((Ending::Repetition, anchor));
            }
        }
        // The quiet run began at the ply `ply - quiet` (or in the game, before the root): the
        // end is the position's own only above it, where the run's first capture is still
        // to come.
        (quiet >= NO_PROGRESS_LIMIT).then(|| {
            let start = (ply as i64 - quiet as i64).max(0);
            (Ending::NoProgress, start.min(OWN as i64 - 1) as u8)
        })
    }

    /// Orders the legal moves other than the table's move without making them: likely captures
    /// (largest first), the killers, and the rest by history.
    fn order_moves(
        &mut self,
        pos: &Position,
        legal: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
    ) -> Ordered {
        let mover = pos.side_to_move().index();
        let mut ordered = Ordered::new();
        for (place, &mv) in legal.iter().enumerate() {
            if Some(mv) == tt_move || (ply == 0 && self.excluded.contains(&mv)) {
                continue;
            }
            let pit = mv.pit(self.n());
            let key = if let Some(hint) = pit
                .and_then(|p| pos.capture_hint_for::<S>(p))
                .filter(|&h| h > 0)
            {
                (1 << 20) + hint as i32
            } else if self.killers[ply][0] == Some(mv) {
                1 << 19
            } else if self.killers[ply][1] == Some(mv) {
                (1 << 19) - 1
            } else {
                let noise = if self.jitter == 0 {
                    0
                } else {
                    self.jitter ^= self.jitter << 13;
                    self.jitter ^= self.jitter >> 7;
                    self.jitter ^= self.jitter << 17;
                    (self.jitter % 4096) as i32
                };
                self.history[mover][pit.unwrap_or(MAX_PITS)].clamp(-(1 << 18), 1 << 18) + noise
            };
            ordered.put(place, mv, key, true);
        }
        ordered
    }

    /// Searches a child from the parent's point of view: the child's score is negated unless the
    /// same side moves again (an extra turn).
    fn child_value(
        &mut self,
        child: &Child,
        depth: i32,
        alpha: Value,
        beta: Value,
        ply: usize,
        quiet: u16,
    ) -> Result<Scored, Aborted> {
        let key = position_key_for::<S>(&child.pos);
        let quiet = if child.captured() { 0 } else { quiet + 1 };
        if depth >= TABLE_MIN_DEPTH {
            self.shared.table.prefetch(table_key(key, quiet));
        }
        let at = NodeAt {
            pos: &child.pos,
            key,
            ply: ply + 1,
            quiet,
            endless: child.effect.endless,
        };
        if child.same_side {
            self.node(at, depth, alpha, beta)
        } else {
            Ok(self.node(at, depth, -beta, -alpha)?.negate())
        }
    }

    /// The alpha-beta search of the node `at` to `depth` in the window `alpha..beta`.
    fn node(
        &mut self,
        at: NodeAt<'_>,
        depth: i32,
        mut alpha: Value,
        beta: Value,
    ) -> Result<Scored, Aborted> {
        let NodeAt {
            pos,
            key,
            ply,
            quiet,
            ..
        } = at;
        self.visit(ply)?;
        self.pv[ply].clear();
        if ply > 0
            && let Some((ending, anchor)) = self.ending_at(&at, pos.is_game_over_for::<S>())
        {
            return Ok(self.final_value(pos, ending, ply).anchored(anchor));
        }
        if ply > 0
            && self.shared.tb_max > 0
            && pos.on_board_for::<S>() <= self.shared.tb_max
            && let Some(margin) = self.shared.tablebases.as_ref().and_then(|tb| tb.probe(pos))
        {
            self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
            return Ok(Scored::game_end(margin, ply));
        }
        if ply >= MAX_PLY - 1 {
            return Ok(Self::judged(pos, evaluate_for::<S>(pos)).clamped());
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let pv_node = beta - alpha > 1;
        let tkey = table_key(key, quiet);
        let entry = if depth >= TABLE_MIN_DEPTH {
            self.shared.table.probe(tkey, self.n())
        } else {
            None
        };
        if let Some(entry) = entry
            && ply > 0
            && !pv_node
        {
            let value = from_table(entry.value, ply);
            // A proven margin is worth as much at any depth.
            let proven = entry.lo == entry.hi;
            let cut = (proven || entry.depth as i32 >= depth)
                && match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
            if cut || proven {
                // A line's result stands for this search only: so does every result drawn from it.
                return Ok(Scored {
                    value,
                    lo: entry.lo,
                    hi: entry.hi,
                    anchor: if entry.own { OWN } else { 0 },
                });
            }
        }
        // Reverse futility: near the leaves, a position judged far above beta stays above it
        // (SPRT on Anywoli: +19.2 over 796 games, see STRENGTH.md).
        if !pv_node && ply > 0 && depth <= RFP_MAX_DEPTH && beta.abs() < MAX_EVAL {
            let judged = Self::judged(pos, evaluate_for::<S>(pos)).clamped();
            if judged.value - RFP_MARGIN * depth >= beta {
                return Ok(judged);
            }
        }
        // The table's move first; the others are ordered only if it does not cut.
        let legal = pos.legal_moves_for::<S>();
        // A forced move is no choice: it does not use up depth, so that forcing sowings (a row
        // that must feed, a last pit) do not hide what follows them. (SPRT on Al-manqala: +8.9
        // over 5,495 games, see STRENGTH.md.)
        let depth = if legal.len() == 1 && ply > 0 && (ply as i32) < 2 * self.root_depth {
            depth + 1
        } else {
            depth
        };
        let tt_move = entry
            .and_then(|e| e.best)
            .filter(|&mv| legal.contains(mv) && !(ply == 0 && self.excluded.contains(&mv)));
        let mut rest: Option<Ordered> = None;
        self.push_key(key);
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        // Bounds on this node's margin: the best proven lower bound of the moves searched, and
        // the best upper bound, which holds only if every move is searched.
        let mut lo = NO_MARGIN;
        let mut hi = NO_MARGIN;
        let mut anchor = OWN;
        let mut cut = false;
        let mover = pos.side_to_move().index();
        // With helpers, a move another thread is searching right now is put off to the end
        // (simplified ABDADA): by then its result is likely in the table.
        let busy = self
            .shared
            .busy
            .as_ref()
            .filter(|_| depth >= DEFER_MIN_DEPTH);
        let mut deferred = [Move::PASS; 12];
        let (mut deferred_len, mut deferred_next) = (0, 0);
        let mut next = 0;
        let mut i = 0;
        loop {
            let generated = match (next, tt_move) {
                (0, Some(mv)) => Some(mv),
                _ => rest
                    .get_or_insert_with(|| self.order_moves(pos, &legal, tt_move, ply))
                    .pop(self.n()),
            };
            let mv = match generated {
                Some(mv) => {
                    next += 1;
                    if i > 0
                        && let Some(busy) = busy
                        && busy.is_searching(key, mv, self.n())
                    {
                        deferred[deferred_len] = mv;
                        deferred_len += 1;
                        continue;
                    }
                    mv
                }
                None if deferred_next < deferred_len => {
                    deferred_next += 1;
                    deferred[deferred_next - 1]
                }
                None => break,
            };
            let child = &Child::make::<S>(pos, mv);
            let tactical = child.is_tactical();
            if let Some(busy) = busy {
                busy.enter(key, mv, self.n());
            }
            let value = if i == 0 {
                self.child_value(child, depth - 1, alpha, beta, ply, quiet)
            } else {
                let reduction = if tactical {
                    0
                } else {
                    late_move_reduction(depth, i)
                };
                self.child_value(child, depth - 1 - reduction, alpha, alpha + 1, ply, quiet)
                    .and_then(|value| {
                        if value.value > alpha && reduction > 0 {
                            self.child_value(child, depth - 1, alpha, alpha + 1, ply, quiet)
                        } else {
                            Ok(value)
                        }
                    })
                    .and_then(|value| {
                        if value.value > alpha && value.value < beta {
                            self.child_value(child, depth - 1, alpha, beta, ply, quiet)
                        } else {
                            Ok(value)
                        }
                    })
            };
            if let Some(busy) = busy {
                busy.leave(key, mv, self.n());
            }
            let scored = value?;
            if ply == 0 {
                self.root_moves.push((child.mv, scored));
            }
            lo = lo.max(scored.lo);
            hi = hi.max(scored.hi);
            anchor = anchor.min(scored.anchor);
            let value = scored.value;
            i += 1;
            if value > best_value {
                best_value = value;
                best_move = Some(child.mv);
                if value > alpha {
                    alpha = value;
                    // Outside the principal variation a better move is a cut: no line to keep.
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(child.mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if value >= beta {
                        if !tactical {
                            let killers = &mut self.killers[ply];
                            if killers[0] != Some(child.mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(child.mv);
                            }
                            let pit = child.mv.pit(self.n()).unwrap_or(MAX_PITS);
                            self.history[mover][pit] += depth * depth;
                        }
                        cut = true;
                        break;
                    }
                }
            }
        }
        self.pop_key();
        if best_move.is_none() {
            // Every root move is excluded (MultiPV beyond the number of moves).
            return Ok(Scored {
                value: -INFINITY,
                lo: NO_MARGIN,
                hi: NO_MARGIN,
                anchor: OWN,
            });
        }
        if cut || (ply == 0 && !self.excluded.is_empty()) {
            hi = Self::judged(pos, 0).hi.max(hi);
        }
        let scored = Scored {
            value: best_value,
            lo,
            hi,
            anchor,
        }
        .clamped();
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if (self.excluded.is_empty() || ply > 0) && depth >= TABLE_MIN_DEPTH {
            self.shared.table.store(
                tkey,
                self.n(),
                Entry {
                    value: to_table(scored.value, ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                    best: best_move,
                    lo: scored.lo,
                    hi: scored.hi,
                    own: scored.is_own_at(ply),
                },
            );
        }
        Ok(scored)
    }

    /// Captures only, on top of the static evaluation, so that leaves are not judged in the
    /// middle of an exchange.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        plies_left: u32,
    ) -> Result<Scored, Aborted> {
        let stand_pat = Self::judged(pos, evaluate_for::<S>(pos)).clamped();
        if stand_pat.value >= beta || plies_left == 0 || ply >= MAX_PLY - 1 {
            return Ok(stand_pat);
        }
        alpha = alpha.max(stand_pat.value);
        // Standing pat leaves the other moves unsearched: only the lower bound can improve.
        let mut best = stand_pat;
        let mut captures = Ordered::new();
        // The row's non-empty pits are the moves, unless a rule narrows them down or gives
        // other moves (a least move, a filter, another row, a direction chosen, the pits owned
        // in a match for territory).
        let rules = S::rules(pos);
        let places = if pos.must_feed_for::<S>()
            || rules.move_choice != MoveChoice::AnyPit
            || rules.min_move > 1
            || rules.move_filter != MoveFilter::Every
            || rules.chosen_direction_pits != 0
            || rules.territory()
            || rules.tracks_directions()
        {
            let legal = pos.legal_moves_for::<S>();
            for (place, &mv) in legal.iter().enumerate() {
                let hint = mv
                    .pit(self.n())
                    .and_then(|pit| pos.capture_hint_for::<S>(pit));
                captures.put(place, mv, hint.unwrap_or(0) as i32, hint.is_some());
            }
            legal.len()
        } else {
            let mover = pos.side_to_move();
            let first = mover.index() * self.n();
            // Empty pits need no test of their own: they never hint at a capture (and testing
            // them first costs more in mispredicted branches than it saves).
            for offset in 0..self.n() {
                let pit = first + offset;
                let hint = pos.capture_hint_for::<S>(pit);
                captures.put(
                    offset,
                    Move::sow(mover, offset as u8),
                    hint.unwrap_or(0) as i32,
                    hint.is_some(),
                );
            }
            self.n()
        };
        while let Some(mv) = captures.pop(places) {
            let child = &Child::make::<S>(pos, mv);
            if child.gain <= 0 {
                continue;
            }
            self.visit(ply + 1)?;
            let same_side = child.pos.side_to_move() == pos.side_to_move();
            let over = child.pos.is_game_over_for::<S>();
            let scored = if child.effect.endless || over {
                let ending = if over {
                    child
                        .pos
                        .own_ending_for::<S>()
                        .unwrap_or(Ending::BoardEmpty)
                } else {
                    Ending::EndlessMove
                };
                let end = self.final_value(&child.pos, ending, ply + 1);
                if same_side { end } else { end.negate() }
            } else if same_side {
                self.quiescence(&child.pos, alpha, beta, ply + 1, plies_left - 1)?
            } else {
                self.quiescence(&child.pos, -beta, -alpha, ply + 1, plies_left - 1)?
                    .negate()
            };
            best.lo = best.lo.max(scored.lo);
            if scored.value > best.value {
                best.value = scored.value;
                if scored.value > alpha {
                    alpha = scored.value;
                    if scored.value >= beta {
                        break;
                    }
                }
            }
        }
        Ok(best.clamped())
    }
}

/// Where a node of the search is: its position and key, its distance from the root, the quiet
/// moves (without a capture) that led to it, and whether the move into it was endless.
#[derive(Clone, Copy)]
struct NodeAt<'p> {
    pos: &'p Position,
    key: u64,
    ply: usize,
    quiet: u16,
    endless: bool,
}

/// How much shallower the `i`th move (0 = the first searched) of a node of `depth` is searched
/// first if it captures nothing: later moves are less likely to be best, and one that beats alpha
/// all the same is searched again at full depth. (SPRT against 1 ply from the 4th move and 2
/// from the 7th at depth 6: Anywoli +16.7, see STRENGTH.md.)
#[inline(always)]
fn late_move_reduction(depth: i32, i: usize) -> i32 {
    if depth < 3 || i < 2 {
        return 0;
    }
    1 + (depth >= 5 && i >= 5) as i32 + (depth >= 9 && i >= 8) as i32
}

/// A value's rank by the final margin it expects: a proven win above everything else; a proven
/// loss by its margin (the slower loss first), above an evaluated line that expects the same
/// margin; an evaluated line by its expected margin (100 × counters).
fn margin_rank(value: Value) -> i64 {
    match Score::from_value(value) {
        Score::Mate { margin, .. } if margin > 0 => (1 << 40) + value as i64,
        Score::Mate { plies, margin } => {
            1024 * (100 * margin as i64) + 512 + plies.unsigned_abs() as i64
        }
        Score::Centi(centi) => 1024 * centi as i64,
    }
}

/// Whether a score settles the game (no deeper search can change it).
pub fn is_proven(value: Value) -> bool {
    is_proven_win(value) || is_proven_loss(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::score::{Margin, proven};
    use mancala_rules::Side;

    fn scored(value: Value, lo: Margin, hi: Margin) -> Scored {
        Scored {
            value,
            lo,
            hi,
            anchor: OWN,
        }
    }

    /// Issue 24's root: every move loses; `d` is evaluated at −85, the others are proven to lose
    /// at least 82.
    fn losing_root(d_value: Value) -> RootResult {
        let mv = |offset| Move::sow(Side::North, offset);
        RootResult {
            value: d_value,
            pv: vec![mv(3), mv(0)],
            moves: vec![
                (mv(3), scored(d_value, -90, 0)),
                (mv(1), scored(proven(-82, 15), -90, -82)),
                (mv(5), scored(proven(-82, 23), -90, -82)),
                (mv(0), scored(proven(-84, 9), -94, -84)),
            ],
        }
    }

    #[test]
    fn a_smaller_proven_loss_is_preferred_to_a_bigger_expected_one() {
        let chosen = losing_root(-8504).preferred();
        // f: the smaller loss of the two proven at −82, lost more slowly.
        assert_eq!(chosen.pv[0], Move::sow(Side::North, 5));
        assert_eq!(chosen.value, proven(-82, 23));
        // An evaluation that expects less than the proven losses keeps its move.
        let hopeful = losing_root(-7950).preferred();
        assert_eq!(hopeful.pv[0], Move::sow(Side::North, 3));
    }

    #[test]
    fn wins_and_draws_keep_the_searchs_order() {
        let mv = |offset| Move::sow(Side::South, offset);
        let root = RootResult {
            value: proven(2, 7),
            pv: vec![mv(0)],
            moves: vec![
                (mv(0), scored(proven(2, 7), 2, 2)),
                (mv(1), scored(900, -10, 30)),
            ],
        };
        assert_eq!(root.preferred().pv, vec![mv(0)], "a sure win before a hope");
        let root = RootResult {
            value: 150,
            pv: vec![mv(1)],
            moves: vec![(mv(0), scored(0, 0, 0)), (mv(1), scored(150, -10, 30))],
        };
        assert_eq!(root.preferred().pv, vec![mv(1)]);
    }

    #[test]
    fn a_move_bounded_below_another_moves_proof_is_never_chosen() {
        let mv = |offset| Move::sow(Side::South, offset);
        // An inconsistent result, as a table of another search might leave: the line's move has
        // a higher value, but its margin is bounded below what the other move is proven to give.
        let root = RootResult {
            value: -100,
            pv: vec![mv(0)],
            moves: vec![
                (mv(0), scored(-100, -20, -5)),
                (mv(1), scored(proven(-3, 11), -3, -3)),
            ],
        };
        assert_eq!(root.preferred().pv, vec![mv(1)]);
    }
}
