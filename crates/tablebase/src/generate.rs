//! Building the tables, layer by layer from the empty board up.
//!
//! A capture leads to a smaller layer, already built; a move that captures nothing stays in the
//! layer, and such moves can go round in cycles. A layer is solved by value iteration to its
//! fixpoint: every position starts at what the leftover rule would give it now (the value of
//! endless cycling), finished positions at their exact value, and passes over the layer replace
//! each value by the best over its moves until a pass changes nothing. For every threshold `t`,
//! the positions worth at least `t` then grow (where cycling is worth less than `t`) or shrink
//! (where it is worth at least `t`) monotonically to the least or greatest fixpoint, which is
//! exactly the set of positions from which `t` can be forced, cycles scored by the leftover rule:
//! the fixpoint is the solved value.
//!
//! After the first pass, only positions one of whose moves within the layer changed value are
//! looked at again. Where memory allows (nearly always), the moves within the layer are turned
//! round once ([`predecessors`]) and the positions to look at again are exactly the predecessors
//! of those that changed: a work list, which costs a few passes' worth of move generation in all
//! where passes over the whole layer cost forty and more. Otherwise every pass generates every
//! position's moves and looks again at those with a move to a changed position. Both cores share
//! the work (positions are updated in place, which only speeds convergence up). Each layer is
//! written as soon as it is done, so a stopped build resumes from the last finished layer.
//!
//! A game whose layers cannot cycle (one that sows into the mover's store, as Kalah) skips all
//! that: its layer is solved in one look a position, in order of the counters' distance to the
//! stores ([`by_distance`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod by_distance;
mod parts;
mod predecessors;

pub use parts::{LayerPart, build_part, merge_parts, part_path};

use super::file::{FileError, layer_path, read_layer, write_layer};
use super::index::Ranking;
use super::{Layer, available_memory, has_tables, layer_header, mover_board};
use mancala_rules::{Ending, LastFourRule, MAX_MOVES, MAX_PITS, Position, Side, Spec, Variant};
use predecessors::{Counts, Filling, Predecessors};

/// The value of a position that a part of a layer leaves to the other parts (never a margin:
/// a layer holds at most 98 counters).
const NOT_SOLVED: i8 = i8::MIN;

/// Positions per unit of work handed to a thread.
const CHUNK: u64 = 1 << 14;

/// What the build reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// A layer's file was already there and whole: it is used as it is.
    Reused { counters: u32, positions: u64 },
    /// A layer's file was there but refused; the layer is built again.
    Rebuilding { counters: u32 },
    /// A layer starts: `positions` positions, about `expected_work` looks at a position in all
    /// (as the layer before took, for as many positions).
    Started {
        counters: u32,
        positions: u64,
        expected_work: u64,
    },
    /// Looks at a position so far in the current layer, over all its passes.
    Progress { counters: u32, done: u64 },
    /// A pass (over the layer, or over the positions to look at again) ended, having changed
    /// `changed` values.
    Pass {
        counters: u32,
        pass: u32,
        changed: u64,
    },
    /// A layer is built and written.
    Finished {
        counters: u32,
        positions: u64,
        passes: u32,
        /// Looks at a position in all.
        work: u64,
        seconds: f64,
    },
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// The game has no tables (see [`has_tables`]).
    NoTables(Variant),
    /// Too many counters for this build (a layer would not fit an index or memory).
    TooLarge {
        counters: u32,
        limit: u32,
    },
    Directory(PathBuf, std::io::Error),
    File(FileError),
    Stopped,
    /// A layer cannot be split among machines: its positions can cycle.
    NotSplittable(Variant),
    /// A part of a layer needs the layers below it, and this one is not in the directory.
    MissingLayer(PathBuf),
    /// A merge needs every part, and this one is not in the directory.
    MissingPart(PathBuf),
    /// The parts of a merge do not make up the layer (named: parts of different splits, or
    /// damaged).
    PartsDisagree(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::NoTables(v) if v.rules().has_forced_moves() => {
                write!(
                    f,
                    "{v} has no tables: its play is forced (query side solves it)"
                )
            }
            BuildError::NoTables(v) if v.rules().has_children() => write!(
                f,
                "{v} has no tables: its children (pits a move makes a player's) are not indexed \
                 by the tables (solve computes a position's value)"
            ),
            BuildError::NoTables(v) if v.rules().closes_pits_at > 0 => write!(
                f,
                "{v} has no tables: its pits close, and the tables do not index closed pits \
                 (solve computes a position's value)"
            ),
            BuildError::NoTables(v) if v.rules().blocks_pits() => write!(
                f,
                "{v} has no tables: its rounds block pits, which the tables do not index \
                 (solve computes a round's value)"
            ),
            BuildError::NoTables(v) if v.rules().territory() => write!(
                f,
                "{v} has no tables: who owns each pit in its match for territory is not indexed \
                 by the tables (solve computes a round's value)"
            ),
            BuildError::NoTables(v) if v.rules().eliminates() => write!(
                f,
                "{v} has no tables: its goal is won outright, which the tables' captured \
                 margins do not follow (solve computes a position's value)"
            ),
            BuildError::NoTables(v)
                if v.rules().tracks_extra_move()
                    || v.rules().tracks_crossing()
                    || v.rules().tracks_directions()
                    || v.rules().stores_change_hands() =>
            {
                write!(
                    f,
                    "{v} has no tables: its positions hold more than the board and the side to \
                     move (an extra move, a pit just crossed into, the players' directions or \
                     captured totals that change hands), which the tables do not index (solve \
                     computes a position's value)"
                )
            }
            BuildError::NoTables(v) => write!(
                f,
                "{v} has no tables: endless play gives each player their own row, so its value \
                 depends on where the play began to cycle, which a table of positions cannot \
                 hold (solve computes it)"
            ),
            BuildError::TooLarge { counters, limit } => write!(
                f,
                "{counters} counters is more than this build can hold (at most {limit})"
            ),
            BuildError::Directory(dir, e) => {
                write!(f, "cannot create the directory {}: {e}", dir.display())
            }
            BuildError::File(e) => write!(f, "{e}"),
            BuildError::Stopped => write!(f, "stopped"),
            BuildError::NotSplittable(v) => write!(
                f,
                "{v}'s layers cannot be split among machines: play within a layer can cycle \
                 through all of it (only a game that sows into its stores splits, by row totals)"
            ),
            BuildError::MissingLayer(path) => write!(
                f,
                "{} is missing: a part of a layer needs every layer below it (build them first)",
                path.display()
            ),
            BuildError::MissingPart(path) => write!(
                f,
                "{} is missing: the merge needs every part of the layer",
                path.display()
            ),
            BuildError::PartsDisagree(why) => {
                write!(f, "the parts do not make up the layer: {why}")
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    pub built: Vec<u32>,
    pub reused: Vec<u32>,
    /// Bytes of all the layer files.
    pub bytes: u64,
    /// The most memory the layers and the work arrays took at once.
    pub peak_table_bytes: u64,
    pub seconds: f64,
}

/// Positions (bytes) that the layers up to the largest a build accepts may hold in all, for a
/// game without a limit of its own.
const MAX_TABLE_POSITIONS: u64 = 1 << 35;

/// The largest layer a build of `variant` accepts by the tables' own size limit: the values of
/// all layers up to it must fit in memory. A game's settings may give another limit (the
/// engine's `table-max-counters`), which [`build_within`] and `build_part` are then given.
pub fn max_counters(variant: Variant) -> u32 {
    if !has_tables(variant) {
        return 0;
    }
    let rules = variant.rules();
    let ranking = Ranking::new(rules.pit_count());
    let mut positions = 0u64;
    let most = rules.total().min(Ranking::MAX_COUNTERS as u32);
    (0..=most)
        .take_while(|&n| {
            let states = super::states(variant, n) as u64;
            positions =
                positions.saturating_add(ranking.layer_size(n as usize).saturating_mul(states));
            positions <= MAX_TABLE_POSITIONS
        })
        .last()
        .unwrap_or(0)
}

/// Builds (or completes) the tables of `variant` up to `max` counters in `dir` with `threads`
/// threads, reporting through `progress`; `stop` ends it between chunks of work. The memory for
/// a layer's work list is 3/4 of what the system has available when the layer starts.
pub fn build(
    variant: Variant,
    max: u32,
    dir: &Path,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<BuildReport, BuildError> {
    build_within(variant, max, None, dir, threads, None, stop, progress)
}

/// Memory a layer's work list may take when the system does not say what it has available.
const DEFAULT_LIST_MEMORY: u64 = 4 << 30;

/// [`build`], with the memory a layer's work list may take: `Some(bytes)`, or `None` for 3/4
/// of what the system has available when the layer starts (a layer whose list would take more
/// is built by passes over the whole layer, with the same values, more slowly), and the largest
/// layer accepted: `Some(counters)` (the game's settings), or `None` for [`max_counters`].
#[allow(clippy::too_many_arguments)]
pub fn build_within(
    variant: Variant,
    max: u32,
    limit: Option<u32>,
    dir: &Path,
    threads: usize,
    list_memory: Option<u64>,
    stop: &AtomicBool,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<BuildReport, BuildError> {
    if !has_tables(variant) {
        return Err(BuildError::NoTables(variant));
    }
    let limit = limit
        .unwrap_or_else(|| max_counters(variant))
        .min(variant.rules().total());
    if max > limit {
        return Err(BuildError::TooLarge {
            counters: max,
            limit,
        });
    }
    std::fs::create_dir_all(dir).map_err(|e| BuildError::Directory(dir.to_path_buf(), e))?;
    let started = Instant::now();
    let mut report = BuildReport::default();
    let mut layers: Vec<Layer> = Vec::new();
    // Looks per position, as the layer before took.
    let mut work_per_position = 4.0;
    for counters in 0..=max {
        let path = layer_path(dir, variant, counters);
        let header = layer_header(variant, counters);
        let boards = header.positions / header.states as u64;
        let reused = if path.exists() {
            match read_layer(&path, &header) {
                Ok(values) => Some(values),
                Err(e) => {
                    log::warn!("tablebase: {e}; building the layer again");
                    progress(Event::Rebuilding { counters });
                    None
                }
            }
        } else {
            None
        };
        let values = match reused {
            Some(values) => {
                progress(Event::Reused {
                    counters,
                    positions: header.positions,
                });
                report.reused.push(counters);
                values
            }
            None => {
                let layer_started = Instant::now();
                progress(Event::Started {
                    counters,
                    positions: header.positions,
                    expected_work: (header.positions as f64 * work_per_position) as u64,
                });
                let memory = list_memory.unwrap_or_else(|| {
                    available_memory().map_or(DEFAULT_LIST_MEMORY, |m| m / 4 * 3)
                });
                let built = mancala_rules::with_spec!(variant, S => {
                    LayerBuild::<S>::new(variant, counters, boards, header.states, &layers)
                        .run(threads, memory, stop, progress)
                })?;
                let (values, passes, work) = (built.values, built.passes, built.work);
                work_per_position = work as f64 / header.positions.max(1) as f64;
                report.peak_table_bytes = report.peak_table_bytes.max(
                    layers.iter().map(|l| l.values.len() as u64).sum::<u64>()
                        + header.positions * 5 / 4,
                );
                write_layer(&path, &header, &values).map_err(BuildError::File)?;
                progress(Event::Finished {
                    counters,
                    positions: header.positions,
                    passes,
                    work,
                    seconds: layer_started.elapsed().as_secs_f64(),
                });
                report.built.push(counters);
                values
            }
        };
        report.bytes += super::file::HEADER_BYTES as u64 + values.len() as u64;
        layers.push(Layer {
            counters,
            boards,
            values,
        });
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Builds the layers `0..=max` of `variant` in memory, without files (for tests and small
/// tables).
pub fn build_in_memory(variant: Variant, max: u32) -> Vec<Layer> {
    build_in_memory_within(variant, max, u64::MAX)
}

/// [`build_in_memory`] with `list_memory` bytes for a layer's work list (0: by passes over the
/// whole layer).
pub fn build_in_memory_within(variant: Variant, max: u32, list_memory: u64) -> Vec<Layer> {
    let never = AtomicBool::new(false);
    let mut layers: Vec<Layer> = Vec::new();
    for counters in 0..=max {
        let header = layer_header(variant, counters);
        let boards = header.positions / header.states as u64;
        let built = mancala_rules::with_spec!(variant, S => {
            LayerBuild::<S>::new(variant, counters, boards, header.states, &layers)
                .run(1, list_memory, &never, &|_| {})
        })
        .expect("an in-memory build is never stopped");
        layers.push(Layer {
            counters,
            boards,
            values: built.values,
        });
    }
    layers
}

/// The distance to the stores that one counter in each pit adds, if the game has one.
fn store_steps(variant: Variant) -> Option<[u32; MAX_PITS]> {
    let rules = variant.rules();
    let mut steps = [0; MAX_PITS];
    let mut alone = [0u8; MAX_PITS];
    let pits = rules.pit_count();
    for (pit, step) in steps[..pits].iter_mut().enumerate() {
        alone[pit] = 1;
        *step = rules.distance_to_stores(&alone[..pits])?;
        alone[pit] = 0;
    }
    Some(steps)
}

/// The work of building one layer of the game `S`.
struct LayerBuild<'a, S: Spec> {
    variant: Variant,
    counters: u32,
    boards: u64,
    states: u32,
    lower: &'a [Layer],
    ranking: Ranking,
    values: Vec<AtomicI8>,
    /// Two sets of positions: by passes, those whose value changed in the pass before (`marked`)
    /// and in this one (`marking`); by work list, those to look at in this round and the next.
    marked: Vec<AtomicU64>,
    marking: Vec<AtomicU64>,
    /// The row classes this build solves, by class ([`parts`]); `None`: the whole layer.
    part: Option<Vec<bool>>,
    /// What a counter in each pit adds to the distance to the stores
    /// ([`mancala_rules::Rules::distance_to_stores`] of a board of that one counter), in a game
    /// that has one: the sum is the build's sort key, computed for every position and move.
    store_steps: Option<[u32; MAX_PITS]>,
    game: std::marker::PhantomData<S>,
}

/// Where a move leads, for the value of the position it is made in.
#[derive(Clone, Copy)]
enum Outcome {
    /// The game is over after the move: the mover's future margin is known.
    Known(i32),
    /// A position of a smaller layer, or of this one: `gain + sign × value(index)`.
    Lower {
        gain: i32,
        sign: i32,
        layer: usize,
        index: u64,
    },
    Same {
        gain: i32,
        sign: i32,
        index: u64,
    },
}

impl<'a, S: Spec> LayerBuild<'a, S> {
    fn new(
        variant: Variant,
        counters: u32,
        boards: u64,
        states: u32,
        lower: &'a [Layer],
    ) -> LayerBuild<'a, S> {
        let positions = boards * states as u64;
        let words = positions.div_ceil(64) as usize;
        LayerBuild {
            variant,
            counters,
            boards,
            states,
            lower,
            ranking: Ranking::new(variant.rules().pit_count()),
            // Read at random by every look: on huge pages where the system gives them.
            values: mancala_platform::huge_pages::zeroed(positions as usize),
            marked: mancala_platform::huge_pages::zeroed(words),
            marking: mancala_platform::huge_pages::zeroed(words),
            part: None,
            store_steps: store_steps(variant),
            game: std::marker::PhantomData,
        }
    }

    fn positions(&self) -> u64 {
        self.boards * self.states as u64
    }

    /// The position of index `index` (board `board`), South to move.
    fn position(&self, index: u64, board: &[u8]) -> Position {
        let state = (index / self.boards.max(1)) as u32;
        let rules = self.variant.rules();
        let tracks_holders = rules.tracks_four_holders();
        let last_four = match state {
            1 if tracks_holders => Some(Side::South),
            2 if tracks_holders => Some(Side::North),
            _ => None,
        };
        // The rest captured where the game's total is fixed, none where it is not. The split
        // matters only in a majority game (its state); elsewhere a value counts only what the
        // board will still yield.
        let rest = if rules.any_total {
            0
        } else {
            rules.total() - self.counters
        };
        let captured = if rules.ends_on_majority() {
            let mine = super::capture_window(self.variant, self.counters).start() + state;
            [mine, rest - mine]
        } else {
            [rest, 0]
        };
        Position::from_parts(
            self.variant,
            board,
            captured.map(|c| c as u8),
            Side::South,
            last_four,
            None,
        )
        .expect("a board of the layer with the rest captured adds up")
    }

    /// The future margin (beyond the captured margin) of a position whose game is over now.
    fn final_future(pos: &Position, ending: Ending) -> i32 {
        pos.final_margin(ending, LastFourRule::MostRecentFour) - pos.captured_margin()
    }

    /// The index of `pos` in its layer (its side to move's view); `None` for a majority game
    /// already won.
    #[inline]
    fn locate(&self, pos: &Position) -> Option<u64> {
        let state = super::state(pos)?;
        let mut board = [0u8; MAX_PITS];
        let len = mover_board(pos, &mut board);
        let boards = self.ranking.layer_size(pos.on_board() as usize);
        Some(state * boards + self.ranking.rank(&board[..len]))
    }

    /// Where each legal move of `pos` leads; `None` if the game is over in `pos`.
    #[inline]
    fn outcomes(&self, pos: &Position, out: &mut [Outcome; MAX_MOVES]) -> Option<usize> {
        self.outcomes_seeing(pos, out, |_| {})
    }

    /// [`Self::outcomes`], showing `in_layer` each position of this layer that a move leads to.
    #[inline]
    fn outcomes_seeing(
        &self,
        pos: &Position,
        out: &mut [Outcome; MAX_MOVES],
        mut in_layer: impl FnMut(&Position),
    ) -> Option<usize> {
        let legal = pos.legal_moves_for::<S>();
        if legal.is_empty() {
            return None;
        }
        let before = pos.captured_margin();
        for (slot, &mv) in out.iter_mut().zip(legal.iter()) {
            let mut child = *pos;
            let effect = child.play_for::<S>(mv);
            let same = child.side_to_move() == pos.side_to_move();
            let sign = if same { 1 } else { -1 };
            let gain = sign * child.captured_margin() - before;
            let located = self.locate(&child);
            // The value is read once every move is generated: its cache line is on the way.
            if let Some(index) = located {
                let layer = child.on_board() as usize;
                if layer == self.counters as usize {
                    prefetch(&self.values[index as usize]);
                } else {
                    prefetch(&self.lower[layer].values[index as usize]);
                }
            }
            *slot = if effect.endless {
                Outcome::Known(gain + sign * Self::final_future(&child, Ending::EndlessMove))
            } else if let Some(index) = located {
                let layer = child.on_board() as usize;
                if layer == self.counters as usize {
                    in_layer(&child);
                    Outcome::Same { gain, sign, index }
                } else {
                    Outcome::Lower {
                        gain,
                        sign,
                        layer,
                        index,
                    }
                }
            } else {
                let ending = child
                    .own_ending_for::<S>()
                    .expect("a position outside the layer's states is a game won");
                Outcome::Known(gain + sign * Self::final_future(&child, ending))
            };
        }
        Some(legal.len())
    }

    /// The first pass: finished positions get their exact value, the others what the leftover
    /// rule would give them now.
    fn initial(&self, index: u64, board: &[u8]) {
        let pos = self.position(index, board);
        let ending = pos.own_ending_for::<S>().unwrap_or(Ending::Repetition);
        let value = Self::final_future(&pos, ending);
        self.values[index as usize].store(value as i8, Ordering::Relaxed);
    }

    /// The best of `outcomes` for the mover, with the values known now.
    #[inline]
    fn best(&self, outcomes: &[Outcome]) -> i32 {
        outcomes
            .iter()
            .map(|o| match *o {
                Outcome::Known(v) => v,
                Outcome::Lower {
                    gain,
                    sign,
                    layer,
                    index,
                } => gain + sign * self.lower[layer].values[index as usize] as i32,
                Outcome::Same { gain, sign, index } => {
                    gain + sign * self.values[index as usize].load(Ordering::Relaxed) as i32
                }
            })
            .max()
            .expect("a position that goes on has a move")
    }

    /// Gives position `index` the value `value`; true if it changed.
    #[inline]
    fn set(&self, index: u64, value: i32) -> bool {
        // A load and a store, not a swap: each position is set by the one thread that looks at
        // it in a pass, and a swap (a locked instruction) would wait for every store before it.
        let cell = &self.values[index as usize];
        if cell.load(Ordering::Relaxed) as i32 == value {
            return false;
        }
        cell.store(value as i8, Ordering::Relaxed);
        true
    }

    #[inline]
    fn is_marked(set: &[AtomicU64], index: u64) -> bool {
        set[(index / 64) as usize].load(Ordering::Relaxed) & (1 << (index % 64)) != 0
    }

    /// Adds `index` to `set`. Positions already in it are only read: the locked write would
    /// wait for every store before it.
    #[inline]
    fn mark(set: &[AtomicU64], index: u64) {
        let (word, bit) = (&set[(index / 64) as usize], 1 << (index % 64));
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// The positions of this layer that the moves of `outcomes` lead to.
    fn same_layer(outcomes: &[Outcome]) -> impl Iterator<Item = u64> + '_ {
        outcomes.iter().filter_map(|o| match *o {
            Outcome::Same { index, .. } => Some(index),
            _ => None,
        })
    }

    /// The first pass's update of position `index`, counting the moves within the layer into
    /// `counts` if given; true if its value changed.
    fn first_update(&self, index: u64, board: &[u8], counts: Option<&Counts>) -> bool {
        let pos = self.position(index, board);
        let mut outcomes = [Outcome::Known(0); MAX_MOVES];
        let Some(count) = self.outcomes(&pos, &mut outcomes) else {
            return false; // finished: its value is exact
        };
        let outcomes = &outcomes[..count];
        if let Some(counts) = counts {
            Self::same_layer(outcomes).for_each(|child| counts.prefetch(child));
            Self::same_layer(outcomes).for_each(|child| counts.add(child));
        }
        let changed = self.set(index, self.best(outcomes));
        if changed {
            Self::mark(&self.marking, index);
        }
        changed
    }

    /// Writes position `index` into the predecessor lists of the positions its moves lead to.
    fn list_moves(&self, index: u64, board: &[u8], lists: &Filling) {
        let pos = self.position(index, board);
        let mut outcomes = [Outcome::Known(0); MAX_MOVES];
        if let Some(count) = self.outcomes(&pos, &mut outcomes) {
            let outcomes = &outcomes[..count];
            Self::same_layer(outcomes).for_each(|child| lists.prefetch(child));
            Self::same_layer(outcomes).for_each(|child| lists.insert(child, index));
        }
    }

    /// A later pass's update of position `index`, if one of its moves leads to a position that
    /// changed in the pass before; true if its value changed.
    fn update(&self, index: u64, board: &[u8]) -> bool {
        let pos = self.position(index, board);
        let mut outcomes = [Outcome::Known(0); MAX_MOVES];
        let Some(count) = self.outcomes(&pos, &mut outcomes) else {
            return false;
        };
        let outcomes = &outcomes[..count];
        if !Self::same_layer(outcomes).any(|child| Self::is_marked(&self.marked, child)) {
            return false;
        }
        let changed = self.set(index, self.best(outcomes));
        if changed {
            Self::mark(&self.marking, index);
        }
        changed
    }

    /// The work list's look at position `index` (marked: a move of it leads to a position that
    /// changed); if its value changes, its predecessors are marked for the next round.
    fn revisit(&self, index: u64, board: &[u8], lists: &Predecessors) -> bool {
        let pos = self.position(index, board);
        let mut outcomes = [Outcome::Known(0); MAX_MOVES];
        let Some(count) = self.outcomes(&pos, &mut outcomes) else {
            return false;
        };
        let changed = self.set(index, self.best(&outcomes[..count]));
        if changed {
            let marking = &self.marking;
            lists
                .of(index)
                .for_each(|parent| prefetch(&marking[(parent / 64) as usize]));
            lists
                .of(index)
                .for_each(|parent| Self::mark(marking, parent));
        }
        changed
    }

    /// Hands `chunks` chunks of work to `threads` threads, each chunk done by `chunk` (its
    /// number, a board to unrank into), which returns how many of its calls to `work` returned
    /// true; returns their sum, or `Stopped` once `stop` is set.
    fn over_chunks(
        threads: usize,
        stop: &AtomicBool,
        chunks: u64,
        chunk: &(dyn Fn(u64, &mut [u8; MAX_PITS]) -> u64 + Sync),
    ) -> Result<u64, BuildError> {
        let next_chunk = AtomicU64::new(0);
        let changed = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut board = [0u8; MAX_PITS];
                    let mut count = 0;
                    loop {
                        let taken = next_chunk.fetch_add(1, Ordering::Relaxed);
                        if taken >= chunks || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        count += chunk(taken, &mut board);
                    }
                    changed.fetch_add(count, Ordering::Relaxed);
                });
            }
        });
        if stop.load(Ordering::Relaxed) {
            return Err(BuildError::Stopped);
        }
        Ok(changed.load(Ordering::Relaxed))
    }

    /// Runs `work` over every position of the layer on `threads` threads; returns how many
    /// calls returned true.
    fn pass(
        &self,
        threads: usize,
        stop: &AtomicBool,
        done: &AtomicU64,
        work: &(dyn Fn(u64, &[u8]) -> bool + Sync),
    ) -> Result<u64, BuildError> {
        let positions = self.positions();
        Self::over_chunks(threads, stop, positions.div_ceil(CHUNK), &|taken, board| {
            let mut count = 0;
            let looked = self.each_in_chunk(taken, board, |index, board| {
                if work(index, board) {
                    count += 1;
                }
            });
            done.fetch_add(looked, Ordering::Relaxed);
            count
        })
    }

    /// Calls `work` with each position of chunk `taken` in order of index, its board unranked
    /// into `board`; returns how many positions the chunk has.
    fn each_in_chunk(
        &self,
        taken: u64,
        board: &mut [u8; MAX_PITS],
        mut work: impl FnMut(u64, &[u8]),
    ) -> u64 {
        let pits = self.variant.rules().pit_count();
        let start = taken * CHUNK;
        let end = (start + CHUNK).min(self.positions());
        let mut index = start;
        while index < end {
            // A run of boards of one holder state, by successor.
            let holder_end = (index / self.boards + 1) * self.boards;
            let run_end = end.min(holder_end);
            self.ranking.unrank(
                self.counters as usize,
                index % self.boards,
                &mut board[..pits],
            );
            loop {
                work(index, &board[..pits]);
                index += 1;
                if index >= run_end {
                    break;
                }
                Ranking::next(&mut board[..pits]);
            }
        }
        end - start
    }

    /// Runs `work` over the positions in `self.marked` on `threads` threads; returns how many
    /// calls returned true.
    fn pass_over_marked(
        &self,
        threads: usize,
        stop: &AtomicBool,
        done: &AtomicU64,
        work: &(dyn Fn(u64, &[u8]) -> bool + Sync),
    ) -> Result<u64, BuildError> {
        let words = self.marked.len() as u64;
        let chunk_words = CHUNK / 64;
        let pits = self.variant.rules().pit_count();
        Self::over_chunks(
            threads,
            stop,
            words.div_ceil(chunk_words),
            &|taken, board| {
                let (mut count, mut looked) = (0, 0);
                let first = taken * chunk_words;
                for word in first..(first + chunk_words).min(words) {
                    let mut bits = self.marked[word as usize].load(Ordering::Relaxed);
                    while bits != 0 {
                        let index = word * 64 + bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        self.ranking.unrank(
                            self.counters as usize,
                            index % self.boards,
                            &mut board[..pits],
                        );
                        if work(index, &board[..pits]) {
                            count += 1;
                        }
                        looked += 1;
                    }
                }
                done.fetch_add(looked, Ordering::Relaxed);
                count
            },
        )
    }

    /// Makes the set marked now the one to read, and empties the other.
    fn next_round(&mut self) {
        std::mem::swap(&mut self.marked, &mut self.marking);
        for word in &self.marking {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// Builds the layer with `memory` bytes at most for its work list; returns its values, the
    /// number of passes it took and the looks at a position in all.
    fn run(
        mut self,
        threads: usize,
        memory: u64,
        stop: &AtomicBool,
        progress: &(dyn Fn(Event) + Sync),
    ) -> Result<BuiltLayer, BuildError> {
        let counters = self.counters;
        let positions = self.positions();
        let done = AtomicU64::new(0);
        let reporter_done = AtomicBool::new(false);
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !reporter_done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    progress(Event::Progress {
                        counters,
                        done: done.load(Ordering::Relaxed),
                    });
                }
            });
            let result = (|| {
                let pass_done = |pass, changed| {
                    progress(Event::Pass {
                        counters,
                        pass,
                        changed,
                    })
                };
                if self.part.is_some() || self.by_distance_possible(memory) {
                    if self.solve_by_distance(threads, stop, &done)? {
                        pass_done(1, positions);
                        return Ok(1);
                    }
                    if self.part.is_some() {
                        return Err(BuildError::NotSplittable(self.variant));
                    }
                    log::warn!(
                        "tablebase: layer {counters}: a move within the layer does not lower \
                         the distance to the stores; built again by the general method"
                    );
                }
                self.pass(threads, stop, &done, &|i, b| {
                    self.initial(i, b);
                    false
                })?;
                let counts = lists_possible(positions, memory).then(|| Counts::new(positions));
                let changed = self.pass(threads, stop, &done, &|i, b| {
                    self.first_update(i, b, counts.as_ref())
                })?;
                pass_done(1, changed);
                if changed == 0 {
                    return Ok(1);
                }
                let edges = counts.as_ref().and_then(Counts::edges);
                let lists = match (counts, edges) {
                    (Some(counts), Some(edges))
                        if Counts::list_bytes(positions, edges) <= memory =>
                    {
                        log::debug!(
                            "tablebase: layer {counters}: {edges} moves within the layer, lists \
                             of {} MiB",
                            Counts::list_bytes(positions, edges) >> 20
                        );
                        let started = Instant::now();
                        let lists = counts.into_lists();
                        self.pass(threads, stop, &done, &|i, b| {
                            self.list_moves(i, b, &lists);
                            false
                        })?;
                        log::debug!(
                            "tablebase: layer {counters}: lists filled in {:.1} s",
                            started.elapsed().as_secs_f64()
                        );
                        Some(lists.finish())
                    }
                    (_, edges) => {
                        log::info!(
                            "tablebase: layer {counters} by passes over the layer: its work list \
                             ({} MiB) does not fit {} MiB",
                            edges.map_or("?".into(), |e| {
                                (Counts::list_bytes(positions, e) >> 20).to_string()
                            }),
                            memory >> 20
                        );
                        None
                    }
                };
                let mut pass = 1;
                match lists {
                    Some(lists) => {
                        // The predecessors of what the first pass changed are the first round.
                        self.next_round();
                        let marked = &self.marked;
                        let marking = &self.marking;
                        for (word, bits) in marked.iter().enumerate() {
                            let mut bits = bits.load(Ordering::Relaxed);
                            while bits != 0 {
                                let index = word as u64 * 64 + bits.trailing_zeros() as u64;
                                bits &= bits - 1;
                                lists.of(index).for_each(|p| Self::mark(marking, p));
                            }
                        }
                        self.next_round();
                        loop {
                            pass += 1;
                            let changed =
                                self.pass_over_marked(threads, stop, &done, &|i, b| {
                                    self.revisit(i, b, &lists)
                                })?;
                            pass_done(pass, changed);
                            if changed == 0 {
                                return Ok(pass);
                            }
                            self.next_round();
                        }
                    }
                    None => loop {
                        self.next_round();
                        pass += 1;
                        let changed = self.pass(threads, stop, &done, &|i, b| self.update(i, b))?;
                        pass_done(pass, changed);
                        if changed == 0 {
                            return Ok(pass);
                        }
                    },
                }
            })();
            reporter_done.store(true, Ordering::Relaxed);
            result
        });
        let passes = result?;
        let work = done.load(Ordering::Relaxed);
        let values = self.values.into_iter().map(|v| v.into_inner()).collect();
        Ok(BuiltLayer {
            values,
            passes,
            work,
        })
    }
}

/// Asks the processor to bring `item`'s cache line in, without waiting for it: a position's
/// moves lead to scattered values, each a likely cache miss, and they are fetched side by side.
#[inline(always)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that reads nothing and cannot fault; SSE, which it
        // needs, is part of every x86_64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Whether the work list of a layer of `positions` positions may be built in `memory` bytes
/// (before the moves are counted: the counts alone, and indices that fit the lists).
fn lists_possible(positions: u64, memory: u64) -> bool {
    positions <= 1 << 32 && Counts::bytes(positions) <= memory
}

/// A layer built: its values, the passes (or rounds of the work list) it took, and the looks at
/// a position in all.
struct BuiltLayer {
    values: Vec<i8>,
    passes: u32,
    work: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The work list and the passes over the whole layer reach the same fixpoint: every value of
    /// every layer the same, in every game with tables (each with cycles within its layers but
    /// Kalah's, which is built in order of distance and compared with the passes).
    #[test]
    fn the_work_list_and_whole_passes_give_the_same_tables() {
        for (variant, max) in [
            (Variant::MangalaII, 9),
            (Variant::AlManqala, 8),
            (Variant::Anywoli, 4),
            (Variant::Kalah, 8),
        ] {
            assert!(has_tables(variant), "{variant}");
            let by_list = build_in_memory(variant, max);
            let by_passes = build_in_memory_within(variant, max, 0);
            assert_eq!(by_list.len(), by_passes.len());
            for (a, b) in by_list.iter().zip(&by_passes) {
                assert_eq!(a.values, b.values, "{variant}, layer {}", a.counters);
            }
        }
    }

    /// A game of a file that sows into its stores clockwise, capturing 2s and 4s in chains, in
    /// which a player without counters passes: built in order of distance, and by passes over
    /// the whole layer, the same.
    #[test]
    fn a_layer_by_distance_equals_the_fixpoint_in_a_game_of_a_file() {
        let variant = mancala_rules::definition::register(
            "name = \"store-relay-clockwise\"\n\
             title = \"A clockwise relay game with stores\"\n\
             pits-per-row = 4\n\
             start = 3\n\
             any-total = true\n\
             direction = \"clockwise\"\n\
             sow-own-store = true\n\
             capture-counts = [2, 4]\n\
             capture-chain = true\n\
             extra-turn-in-store = true\n\
             game-ends = \"board-empty\"\n\
             leftover = \"row-owner\"\n\
             stores = true\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(has_tables(variant));
        let max = 10;
        let layer = layer_header(variant, max);
        let boards = layer.positions / layer.states as u64;
        let by_distance = build_in_memory(variant, max);
        let by_passes = build_in_memory_within(variant, max, 0);
        for (a, b) in by_distance.iter().zip(&by_passes) {
            assert_eq!(a.values, b.values, "layer {}", a.counters);
        }
        // The largest layer really is built by distance (every move within it in order, not
        // fallen back on the general method), and not in no memory.
        let lower = &by_distance[..max as usize];
        let never = AtomicBool::new(false);
        mancala_rules::with_spec!(variant, S => {
            let build = LayerBuild::<S>::new(variant, max, boards, layer.states, lower);
            assert!(build.by_distance_possible(u64::MAX));
            assert!(!build.by_distance_possible(0));
            assert!(build.solve_by_distance(1, &never, &AtomicU64::new(0)).unwrap());
            let values: Vec<i8> = build.values.into_iter().map(|v| v.into_inner()).collect();
            assert_eq!(values, by_passes[max as usize].values);
        });
    }

    /// A game whose first moves capture nothing has the tables of the same game without that
    /// rule (past the opening they play alike), and a position within the opening is not
    /// looked up.
    #[test]
    fn a_game_with_an_opening_has_the_tables_of_the_positions_past_it() {
        let file = |name: &str, opening: &str| {
            mancala_rules::definition::register(&format!(
                "name = \"{name}\"\npits-per-row = 3\nstart = 2\ncapture-counts = [2, 3]\n\
                 capture-chain = true\ngame-ends = \"board-empty\"\n\
                 {opening}"
            ))
            .unwrap_or_else(|e| panic!("{e}"))
        };
        let quiet = file("tables-quiet-opening", "no-capture-moves = 2\n");
        let plain = file("tables-plain-opening", "");
        assert!(has_tables(quiet));
        let (with, without) = (build_in_memory(quiet, 8), build_in_memory(plain, 8));
        for (a, b) in with.iter().zip(&without) {
            assert_eq!(a.values, b.values, "layer {}", a.counters);
        }
        let dir = std::env::temp_dir().join(format!("mancala-opening-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let never = AtomicBool::new(false);
        build(quiet, 8, &dir, 1, &never, &|_| {}).unwrap();
        let tables = crate::Tablebases::load(&dir).unwrap().tablebases;
        let over = Position::from_position_string(quiet, "1-1-0-0-0-1-5-4-S-2").unwrap();
        let within = Position::from_position_string(quiet, "1-1-0-0-0-1-5-4-S-1").unwrap();
        assert!(tables.probe(&over).is_some());
        assert_eq!(tables.probe(&within), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A game whose pits close has no tables, and says why (not as a match of rounds would).
    #[test]
    fn a_game_whose_pits_close_has_no_tables_and_says_why() {
        let closing = mancala_rules::definition::register(
            "name = \"tables-closing\"\npits-per-row = 3\nstart = 2\nlaps = \"relay\"\n\
             closes-pits-at = 3\ncapture-counts = [4]\n",
        )
        .unwrap();
        assert!(!has_tables(closing));
        let why = BuildError::NoTables(closing).to_string();
        assert!(why.contains("its pits close"), "{why}");
    }

    /// Two threads sharing a layer (values set without a locked instruction, marks written only
    /// when not yet set) build the tables one thread builds, by the work list and by whole
    /// passes, in games with cycles within their layers.
    #[test]
    fn two_threads_build_the_tables_one_thread_builds() {
        for (variant, max) in [(Variant::MangalaII, 9), (Variant::AlManqala, 8)] {
            let alone = build_in_memory(variant, max);
            for (how, list_memory) in [("work list", None), ("whole passes", Some(0))] {
                let dir = std::env::temp_dir().join(format!(
                    "mancala-two-threads-{variant}-{}-{}",
                    list_memory.is_some(),
                    std::process::id()
                ));
                let _ = std::fs::remove_dir_all(&dir);
                let never = AtomicBool::new(false);
                build_within(variant, max, None, &dir, 2, list_memory, &never, &|_| {})
                    .unwrap_or_else(|e| panic!("{variant}: {e}"));
                for layer in &alone {
                    let path = layer_path(&dir, variant, layer.counters);
                    let header = layer_header(variant, layer.counters);
                    let values = read_layer(&path, &header).unwrap();
                    assert_eq!(
                        values, layer.values,
                        "{variant}, {how}, layer {}",
                        layer.counters
                    );
                }
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }

    /// A budget too small for a layer's list (the counts fit, the lists do not) builds that
    /// layer by passes, with the same values.
    #[test]
    fn a_list_that_does_not_fit_falls_back_to_passes() {
        let variant = Variant::MangalaII;
        let positions = Ranking::new(12).layer_size(7);
        let just_the_counts = Counts::bytes(positions);
        let tight = build_in_memory_within(variant, 7, just_the_counts);
        let by_list = build_in_memory(variant, 7);
        assert_eq!(tight.last().unwrap().values, by_list.last().unwrap().values);
        assert!(lists_possible(positions, just_the_counts));
    }
}
