//! A layer solved in one look a position, for a game whose layers cannot cycle.
//!
//! Where the game sows into the mover's store, every move that stays in the layer lowers the
//! counters' distance to their stores ([`mancala_rules::Rules::distance_to_stores`]). Sorted by
//! that distance, each position's moves within the layer lead to positions already solved, so
//! one look settles it: no first values, no counting, no lists, no second looks (the general
//! build takes about four looks a position). The sort is a counting sort by chunk, two cheap
//! passes that generate no moves. Positions at one distance do not depend on each other and are
//! shared out among the threads.
//!
//! The order holds each position's board packed into a word where it fits (and its index where
//! not): a position is then read back by ranking its board, which costs far less than
//! unranking its index.
//!
//! Every look checks that its moves within the layer do lead nearer, and stay among the
//! positions with the same row totals (the hand never leaves the mover's row): a game that broke
//! the promise would have its layer built again by the general method. The row totals split a
//! layer into independent classes, which is how a layer is shared out among machines
//! ([`super::parts`]).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use super::{BuildError, CHUNK, LayerBuild, NOT_SOLVED, Outcome};
use mancala_rules::{Ending, MAX_MOVES, MAX_PITS, Spec};

/// A layer's positions in order of distance: `order[starts[d]..starts[d + 1]]` are those at
/// distance `d`, each run in order of index. Each entry is the position's board and state
/// packed by `packing`, or without one its index.
struct ByDistance {
    order: Vec<AtomicU64>,
    starts: Vec<u64>,
    packing: Option<Packing>,
}

/// A board and its state in one word: each pit's count in `width` bits, the state above them.
#[derive(Clone, Copy)]
struct Packing {
    width: u32,
    pits: usize,
}

impl Packing {
    /// The packing of boards of `pits` pits holding `counters` in `states` states, if they fit.
    fn new(pits: usize, counters: u32, states: u32) -> Option<Packing> {
        let width = u32::BITS - counters.leading_zeros();
        let state_bits = u32::BITS - states.saturating_sub(1).leading_zeros();
        (pits as u32 * width.max(1) + state_bits <= u64::BITS).then_some(Packing {
            width: width.max(1),
            pits,
        })
    }

    #[inline]
    fn pack(self, state: u64, board: &[u8]) -> u64 {
        let packed = board
            .iter()
            .rev()
            .fold(0u64, |word, &count| (word << self.width) | count as u64);
        // A board that fills the word has one state, 0, and nothing to shift in.
        packed
            | state
                .checked_shl(self.pits as u32 * self.width)
                .unwrap_or(0)
    }

    /// The state, with the board written into `board`.
    #[inline]
    fn unpack(self, mut word: u64, board: &mut [u8]) -> u64 {
        let mask = (1u64 << self.width) - 1;
        for pit in board[..self.pits].iter_mut() {
            *pit = (word & mask) as u8;
            word >>= self.width;
        }
        word
    }
}

impl<S: Spec> LayerBuild<'_, S> {
    /// Whether this layer can be solved by distance in `memory` bytes: the game's layers cannot
    /// cycle and the order of its positions fits.
    pub(super) fn by_distance_possible(&self, memory: u64) -> bool {
        let positions = self.positions();
        self.variant.rules().distance_to_stores(&[]).is_some()
            && positions <= u32::MAX as u64
            && Self::order_bytes(positions, self.distances()) <= memory
    }

    /// The keys a position of the layer can have: `0..distances()`.
    fn distances(&self) -> usize {
        2 * (self.counters as usize * self.variant.rules().pits_per_row + 1)
    }

    /// The bytes the sort takes: the order, and a count a distance for every chunk.
    fn order_bytes(positions: u64, distances: usize) -> u64 {
        positions * 8 + positions.div_ceil(CHUNK) * distances as u64 * 4
    }

    /// The class of a board: the smaller of its two row totals. Moves within the layer keep both
    /// totals, and the other view of a board swaps them.
    pub(super) fn row_class(&self, pits: &[u8]) -> usize {
        let n = self.variant.rules().pits_per_row;
        let first: usize = pits[..n].iter().map(|&c| c as usize).sum();
        first.min(self.counters as usize - first)
    }

    /// Whether this build solves the positions of `pits`: all of them, or its part's classes.
    fn solves(&self, pits: &[u8]) -> bool {
        self.part
            .as_ref()
            .is_none_or(|classes| classes[self.row_class(pits)])
    }

    /// The key a position is solved in order of: twice its distance to the stores, plus one
    /// where the mover's row (the first of the mover's view `pits`) is empty. A pass keeps the
    /// distance and leads to a mover whose row is not empty; every other move within the layer
    /// lowers the distance.
    #[inline]
    fn distance(&self, pits: &[u8]) -> usize {
        let steps = self
            .store_steps
            .as_ref()
            .expect("solved by distance only where the game has one");
        let distance: u32 = pits
            .iter()
            .zip(steps.iter())
            .map(|(&count, &step)| count as u32 * step)
            .sum();
        let must_pass = pits[..pits.len() / 2].iter().all(|&c| c == 0);
        2 * distance as usize + must_pass as usize
    }

    /// Solves the layer in order of distance, counting each look into `done`. Returns false,
    /// the values half made, if a move within the layer did not lead nearer (the game's layers
    /// can cycle after all).
    pub(super) fn solve_by_distance(
        &self,
        threads: usize,
        stop: &AtomicBool,
        done: &AtomicU64,
    ) -> Result<bool, BuildError> {
        let sorted = self.sort_by_distance(threads, stop)?;
        let broken = AtomicBool::new(false);
        let pits = self.variant.rules().pit_count();
        for (distance, run) in sorted.starts.windows(2).enumerate() {
            let run = &sorted.order[run[0] as usize..run[1] as usize];
            let chunks = (run.len() as u64).div_ceil(CHUNK);
            Self::over_chunks(threads, stop, chunks, &|taken, board| {
                let piece =
                    &run[(taken * CHUNK) as usize..run.len().min(((taken + 1) * CHUNK) as usize)];
                for entry in piece {
                    let entry = entry.load(Ordering::Relaxed);
                    let index = match sorted.packing {
                        Some(packing) => {
                            let state = packing.unpack(entry, &mut board[..pits]);
                            state * self.boards + self.ranking.rank(&board[..pits])
                        }
                        None => {
                            self.ranking.unrank(
                                self.counters as usize,
                                entry % self.boards,
                                &mut board[..pits],
                            );
                            entry
                        }
                    };
                    if !self.settle(index, &board[..pits], distance) {
                        broken.store(true, Ordering::Relaxed);
                    }
                }
                done.fetch_add(piece.len() as u64, Ordering::Relaxed);
                0
            })?;
            if broken.load(Ordering::Relaxed) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Gives position `index` (at `distance`) its value from its moves' positions, all solved;
    /// false if one of them in this layer is not nearer, or not of the same class.
    fn settle(&self, index: u64, board: &[u8], distance: usize) -> bool {
        let pos = self.position(index, board);
        let mut outcomes = [Outcome::Known(0); MAX_MOVES];
        let mut in_order = true;
        let class = self.row_class(board);
        let moves = self.outcomes_seeing(&pos, &mut outcomes, |child| {
            let mut view = [0u8; MAX_PITS];
            let len = crate::mover_board(child, &mut view);
            in_order &=
                self.distance(&view[..len]) < distance && self.row_class(child.pits()) == class;
        });
        let value = match moves {
            Some(count) => self.best(&outcomes[..count]),
            None => Self::final_future(
                &pos,
                pos.own_ending_for::<S>().unwrap_or(Ending::Repetition),
            ),
        };
        self.values[index as usize].store(value as i8, Ordering::Relaxed);
        in_order
    }

    /// The layer's positions (those this build solves) sorted by distance: each chunk's count a
    /// distance, then each chunk writes its positions from its own offsets. Positions left to
    /// other parts get [`NOT_SOLVED`].
    fn sort_by_distance(
        &self,
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<ByDistance, BuildError> {
        let positions = self.positions();
        let chunks = positions.div_ceil(CHUNK);
        let distances = self.distances();
        let at = |chunk: u64, distance: usize| chunk as usize * distances + distance;
        let counts: Vec<AtomicU32> = (0..chunks as usize * distances)
            .map(|_| AtomicU32::new(0))
            .collect();
        Self::over_chunks(
            threads,
            stop,
            chunks,
            &|taken, board: &mut [u8; MAX_PITS]| {
                let mut mine = vec![0u32; distances];
                self.each_in_chunk(taken, board, |index, board| {
                    if self.solves(board) {
                        mine[self.distance(board)] += 1;
                    } else {
                        self.values[index as usize].store(NOT_SOLVED, Ordering::Relaxed);
                    }
                });
                for (distance, count) in mine.into_iter().enumerate() {
                    counts[at(taken, distance)].store(count, Ordering::Relaxed);
                }
                0
            },
        )?;
        // Each count becomes where the chunk's positions at that distance go.
        let mut starts = Vec::with_capacity(distances + 1);
        let mut total = 0u64;
        for distance in 0..distances {
            starts.push(total);
            for chunk in 0..chunks {
                let count = &counts[at(chunk, distance)];
                let n = count.load(Ordering::Relaxed) as u64;
                count.store((total - starts[distance]) as u32, Ordering::Relaxed);
                total += n;
            }
        }
        starts.push(total);

        let packing = Packing::new(self.variant.rules().pit_count(), self.counters, self.states);
        let order: Vec<AtomicU64> = (0..total).map(|_| AtomicU64::new(0)).collect();
        Self::over_chunks(threads, stop, chunks, &|taken, board| {
            let mut next: Vec<u64> = (0..distances)
                .map(|d| starts[d] + counts[at(taken, d)].load(Ordering::Relaxed) as u64)
                .collect();
            self.each_in_chunk(taken, board, |index, board| {
                if !self.solves(board) {
                    return;
                }
                let slot = &mut next[self.distance(board)];
                let entry = match packing {
                    Some(packing) => packing.pack(index / self.boards, board),
                    None => index,
                };
                order[*slot as usize].store(entry, Ordering::Relaxed);
                *slot += 1;
            });
            0
        })?;
        Ok(ByDistance {
            order,
            starts,
            packing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Packing;

    #[test]
    fn a_packed_board_and_state_unpack_as_they_were() {
        // Kalah's layer of 20: 12 pits of 5 bits, one state.
        let packing = Packing::new(12, 20, 1).expect("60 bits fit a word");
        let board = [20, 0, 3, 31, 1, 0, 0, 7, 9, 2, 0, 16];
        let mut back = [0u8; 12];
        assert_eq!(packing.unpack(packing.pack(0, &board), &mut back), 0);
        assert_eq!(back, board);
        // Three states take two bits more, and one more counter a bit a pit.
        let packing = Packing::new(12, 30, 3).expect("62 bits fit a word");
        assert_eq!(packing.unpack(packing.pack(2, &board), &mut back), 2);
        assert_eq!(back, board);
        // A board that fills the word exactly: 16 pits of 4 bits, one state.
        let packing = Packing::new(16, 15, 1).expect("64 bits fit a word");
        let full = [15u8; 16];
        let mut back = [0u8; 16];
        assert_eq!(packing.unpack(packing.pack(0, &full), &mut back), 0);
        assert_eq!(back, full);
        assert!(Packing::new(16, 15, 2).is_none(), "65 bits do not fit");
        assert!(Packing::new(12, 32, 1).is_none(), "72 bits do not fit");
        assert!(Packing::new(14, 31, 2).is_none(), "71 bits do not fit");
    }
}
