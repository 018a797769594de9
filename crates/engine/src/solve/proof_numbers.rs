//! Depth-first proof-number search (df-pn) for one probe of the solver: whether a position's
//! value is at least a bound.
//!
//! Alpha-beta commits to its first move at every position of the prover's and searches it to
//! the end before trying another, so a wrong first move deep in a long game costs a whole
//! refutation. Proof-number search instead always works on the part of the tree that looks
//! cheapest to settle (the fewest positions still to prove or disprove), and leaves a move as
//! soon as another looks cheaper. Its answers are the alpha-beta solver's: a position settled
//! here stores its proven bound in the solver's table, where alpha-beta (helpers on other
//! threads, and the line printed afterwards) reads it, and it reads theirs.
//!
//! Numbers of positions not yet settled are kept in a table of their own, by position and
//! bound. A position's result that leaned on a cycle closing above it (a repetition on this
//! line) is its value on this line only, and is stored nowhere, as in the alpha-beta search.

use super::buckets::{BUCKET_SLOTS, GrowingBuckets};
use super::*;

/// Proof and disproof numbers this big are infinite: the position is settled.
const INFINITE: u64 = u64::MAX / 4;
/// The largest number the table of numbers keeps (28 bits); bigger ones are kept as this.
const KEPT: u64 = (1 << 28) - 1;

/// A position's numbers: how many positions at least must still be settled to prove it
/// (`proof`) or to disprove it (`disproof`), and the lowest line position a cycle in its search
/// closed on.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    proof: u64,
    disproof: u64,
    cycle_at: u32,
}

impl Numbers {
    const PROVEN: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
        cycle_at: NO_CYCLE,
    };
    const DISPROVEN: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
        cycle_at: NO_CYCLE,
    };

    fn settled(proven: bool) -> Numbers {
        if proven {
            Numbers::PROVEN
        } else {
            Numbers::DISPROVEN
        }
    }
}

/// The numbers of positions not yet settled, by position and bound: slots of two words in
/// buckets of one cache line (the key, mixed with the bound, xor-ed with the data; the data:
/// proof and disproof numbers, 28 bits each, and the bit length of the nodes spent, which
/// decides what a new position replaces). Used by one thread.
pub struct ProofTable {
    /// The slots, in a table that grows with the search up to the size asked for.
    slots: GrowingBuckets,
}

impl ProofTable {
    /// A table of at most `mib` MiB (the size asked for, or the power of two below it), grown
    /// as the search fills it.
    pub fn new(mib: usize) -> ProofTable {
        ProofTable {
            slots: GrowingBuckets::new(mib),
        }
    }

    /// `key` made a key of the question "at least `target`" (a bound on what the board yields).
    fn question(key: u64, target: i32) -> u64 {
        // The low byte, and what lies beyond it (nothing in a game of at most 127 counters).
        let beyond = (target - target as i8 as i32) as u64;
        key ^ ((target as i8 as u8 as u64) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ beyond.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
    }

    /// Starts loading `question`'s bucket into the cache.
    #[inline]
    fn prefetch(&self, question: u64) {
        self.slots.prefetch(question);
    }

    fn get(&self, question: u64) -> Option<(u64, u64)> {
        GrowingBuckets::find(self.slots.bucket(question), question)
            .map(|(_, data)| (data & KEPT, (data >> 28) & KEPT))
    }

    fn put(&mut self, question: u64, proof: u64, disproof: u64, work: u8) {
        let bucket = self.slots.bucket(question);
        let slot = GrowingBuckets::find(bucket, question)
            .map(|(slot, _)| slot)
            .unwrap_or_else(|| {
                (0..BUCKET_SLOTS)
                    .min_by_key(|&i| bucket[2 * i + 1].load(Ordering::Relaxed) >> 56)
                    .unwrap_or(0)
            });
        let data = proof.min(KEPT) | disproof.min(KEPT) << 28 | (work.max(1) as u64) << 56;
        self.slots.write(bucket, slot, question, data);
    }
}

/// A child of a position being proved, its numbers counted for the parent: `proof` is what
/// proving the parent through it costs, `disproof` what ruling it out costs.
#[derive(Clone, Copy)]
struct Choice {
    child: Child,
    key: u64,
    /// The bound the child's own question asks of its side to move.
    bound: i32,
    /// Where the child's line since its last capture starts.
    start: usize,
    /// Among children alike, the higher first: the gain, then the evaluation for the mover.
    rank: (i32, i64),
    proof: u64,
    disproof: u64,
}

impl<S: Spec> Solver<'_, S> {
    /// Whether the value of `pos` (reached by the line in `self.line`, all of it since the
    /// last capture) is at least `beta`, by proof-number search: `beta` if so, `beta - 1` if
    /// not (the solver's probes take either).
    pub(super) fn prove_root(
        &mut self,
        pos: &Position,
        key: u64,
        beta: i32,
    ) -> Result<i32, Aborted> {
        let ply = self.line.len();
        loop {
            let found = self.prove(pos, key, beta, (INFINITE, INFINITE), ply, 0)?;
            if found.proof == 0 {
                return Ok(beta);
            }
            if found.disproof == 0 {
                return Ok(beta - 1);
            }
        }
    }

    /// Whether `pos`'s value is at least `bound`, where that is known without a search: the
    /// end of the game, the counters left, the tables, or a bound proven before.
    fn settled(&mut self, pos: &Position, key: u64, bound: i32) -> Option<bool> {
        if let Err(ending) = pos.ending_or_moves_for::<S>() {
            return Some(pos.final_margin(ending, self.rule) >= bound);
        }
        let captured = pos.captured_margin();
        let (least, most) = pos.final_margin_range();
        if most < bound {
            return Some(false);
        }
        if least >= bound {
            return Some(true);
        }
        if let Some(value) = self.tablebases.and_then(|tb| tb.probe_with(pos, self.rule)) {
            self.tb_hits += 1;
            return Some(value >= bound);
        }
        let bounds = self
            .table
            .probe(key, S::rules(pos).pits_per_row, captured)?;
        if bounds.lo >= bound {
            Some(true)
        } else if bounds.hi < bound {
            Some(false)
        } else {
            None
        }
    }

    /// Searches `pos` (at `ply`, its index on the line) for "value at least `bound`" until its
    /// proof number reaches `limits.0` or its disproof number `limits.1` (one of them infinite
    /// once it is settled). `since_capture` is where the line since the last capture starts.
    fn prove(
        &mut self,
        pos: &Position,
        key: u64,
        bound: i32,
        limits: (u64, u64),
        ply: usize,
        since_capture: usize,
    ) -> Result<Numbers, Aborted> {
        self.poll()?;
        if let Some(proven) = self.settled(pos, key, bound) {
            return Ok(Numbers::settled(proven));
        }
        if ply >= MAX_SOLVE_PLY {
            return Err(Aborted);
        }
        let legal = pos.legal_moves_for::<S>();
        let started = self.nodes;
        let mut cycle_at = NO_CYCLE;
        self.line.push(key);
        // The children, and their entries on their way into the cache meanwhile.
        let unmade = Child {
            mv: Move::PASS,
            pos: *pos,
            effect: MoveEffect::default(),
            gain: 0,
            same_side: false,
        };
        let mut made = [unmade; MAX_MOVES];
        let mut keys = [0u64; MAX_MOVES];
        for ((slot, child_key), &mv) in made.iter_mut().zip(keys.iter_mut()).zip(legal.iter()) {
            let child = Self::make(pos, mv);
            if !child.endless() {
                *child_key = future_key_for::<S>(&child.pos);
                self.table.prefetch(*child_key);
                if let Some(table) = &self.proof_table {
                    let bound = if child.same_side { bound } else { 1 - bound };
                    table.prefetch(ProofTable::question(
                        *child_key,
                        bound - child.pos.captured_margin(),
                    ));
                }
            }
            *slot = child;
        }
        let count = legal.len();
        let mut choices = [Choice {
            child: unmade,
            key: 0,
            bound,
            start: 0,
            rank: (0, 0),
            proof: 0,
            disproof: 0,
        }; MAX_MOVES];
        for ((slot, &child), &child_key) in choices.iter_mut().zip(&made[..count]).zip(keys.iter())
        {
            let start = if child.captured() {
                self.line.len()
            } else {
                since_capture
            };
            let mut choice = Choice {
                child,
                key: child_key,
                bound: if child.same_side { bound } else { 1 - bound },
                start,
                rank: (child.gain, 0),
                proof: 1,
                disproof: 1,
            };
            // Children settled at once: the proof through them is made, or cannot be.
            let settled = if let Some(end) = self.end_value(&child) {
                Some(end >= bound)
            } else if let Some(at) = self.line[start..].iter().position(|&k| k == child_key) {
                cycle_at = cycle_at.min((start + at) as u32);
                let value = child.pos.final_margin(Ending::Repetition, self.rule);
                Some(if child.same_side { value } else { -value } >= bound)
            } else {
                self.settled(&child.pos, child_key, choice.bound)
                    .map(|proven| proven == child.same_side)
            };
            match settled {
                Some(proven) => {
                    let numbers = Numbers::settled(proven);
                    (choice.proof, choice.disproof) = (numbers.proof, numbers.disproof);
                }
                None => {
                    let target = choice.bound - child.pos.captured_margin();
                    let own = evaluate_for::<S>(&child.pos) as i64;
                    choice.rank.1 = if child.same_side { own } else { -own };
                    if let Some((p, d)) = self
                        .proof_table
                        .as_ref()
                        .and_then(|t| t.get(ProofTable::question(choice.key, target)))
                    {
                        (choice.proof, choice.disproof) =
                            if child.same_side { (p, d) } else { (d, p) };
                    }
                }
            }
            *slot = choice;
        }
        let choices = &mut choices[..count];
        // Among children alike, the best for the mover by gain and by the evaluation first.
        choices.sort_by_key(|c| std::cmp::Reverse(c.rank));
        let mut numbers;
        loop {
            let (mut proof, mut disproof) = (INFINITE, 0u64);
            let (mut best, mut second) = (0, INFINITE);
            for (i, c) in choices.iter().enumerate() {
                if c.proof < proof {
                    second = proof;
                    proof = c.proof;
                    best = i;
                } else if c.proof < second {
                    second = c.proof;
                }
                disproof = disproof.saturating_add(c.disproof).min(INFINITE);
            }
            numbers = Numbers {
                proof,
                disproof,
                cycle_at,
            };
            if proof >= limits.0 || disproof >= limits.1 {
                break;
            }
            let c = choices[best];
            // The 1 + ε trick: the child may go on until it costs a quarter more than the
            // second best, so that the search does not swing between two alike.
            let proof_limit = limits
                .0
                .min(
                    second
                        .saturating_add(1)
                        .max(second.saturating_add(second / 4)),
                )
                .min(INFINITE);
            let disproof_limit = (limits.1 - disproof)
                .saturating_add(c.disproof)
                .min(INFINITE);
            let child_limits = if c.child.same_side {
                (proof_limit, disproof_limit)
            } else {
                (disproof_limit, proof_limit)
            };
            let found = self.prove(&c.child.pos, c.key, c.bound, child_limits, ply + 1, c.start)?;
            choices[best].proof = if c.child.same_side {
                found.proof
            } else {
                found.disproof
            };
            choices[best].disproof = if c.child.same_side {
                found.disproof
            } else {
                found.proof
            };
            cycle_at = cycle_at.min(found.cycle_at);
        }
        self.line.pop();
        let work = (64 - (self.nodes - started).leading_zeros()) as u8;
        let captured = pos.captured_margin();
        if numbers.proof == 0 || numbers.disproof == 0 {
            // Stored only if no cycle closed above this position: then the result is its own.
            if numbers.cycle_at as usize >= ply {
                let bounds = if numbers.proof == 0 {
                    Bounds {
                        lo: bound,
                        hi: HIGHEST,
                        best: choices.iter().find(|c| c.proof == 0).map(|c| c.child.mv),
                    }
                } else {
                    Bounds {
                        lo: LOWEST,
                        hi: bound - 1,
                        best: None,
                    }
                };
                self.table
                    .store(key, S::rules(pos).pits_per_row, captured, bounds, work);
            }
        } else if let Some(table) = self.proof_table.as_mut() {
            let question = ProofTable::question(key, bound - captured);
            table.put(question, numbers.proof, numbers.disproof, work);
        }
        Ok(numbers)
    }
}
