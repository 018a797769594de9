//! Endgame tablebases: the solved value (RULES.md, "Solved values") of every position with at
//! most a given number of counters on the board, built by `mancala-engine tablebase` and read by
//! the engine from the directory of the `TablebasePath` option.
//!
//! A position's value is its captured margin plus what the board will still yield, and the
//! latter depends on the board seen from the side to move and, in a few games, one more thing
//! (the board's **state**). So a table holds, per layer of `n` counters on the board, one signed
//! byte per board and state with the mover's row first (the board of a North to move is turned
//! round), indexed by the state and the board's rank ([`index::Ranking`]). The states are:
//!
//! - Anywoli: who received the most recent four (nobody, the mover, the opponent), which decides
//!   its last four and its leftover. The first last-seed capture does not matter under Anywoli's
//!   default convention, the one solved values use.
//! - A game that ends on a majority of captures (a game file's: Oware itself has no tables, see
//!   [`has_tables`]): the mover's captures, which decide when the game ends; only the
//!   splits of the captures in which nobody has won yet are held.
//! - Every other game: one state (its rules never look at captured totals).

pub mod file;
#[cfg(feature = "generate")]
pub mod generate;
pub mod index;

use std::fmt;
use std::path::{Path, PathBuf};

use file::{FileError, Header, LayerValues, layer_path, map_layer};
use index::Ranking;
use mancala_rules::{LastFourRule, Leftover, MAX_PITS, Position, Side, Variant};

/// Whether a game has tables: a choice of move (a game without one is solved by playing it
/// out), and endless play worth the same wherever it is cut. Endless play is scored by the
/// leftover rule on the board where the line began to cycle; the tables, one value a position,
/// score it on any board of the cycle, which is the same thing when the leftover rule gives
/// the same margin on every board of a cycle without captures: splitting evenly, or the last
/// four's receiver (who does not change without a capture). Each row to its owner does not,
/// unless the game cannot cycle at all, as in a game that sows into stores (a hand that leaves
/// the mover's row drops a counter in the store, and one that stays in it moves every counter
/// closer to it). A match of rounds whose rounds block pits has none either, nor a game whose
/// pits close: the tables do not index blocked pits; nor a game whose captures give one extra move at most: they do not index
/// whether the mover is on one; nor a game won outright by a goal to clear, deprive or immobilize
/// (its values do not follow the captured margin, which the tables leave out); nor a game that
/// forbids moving a single counter straight back over an end of the board (the tables do not
/// index the pit it crossed into); nor a match for territory (they do not index who owns a pit); nor a game whose first move
/// chooses the players' directions (nor which way each sows); nor a game whose captured counters
/// change hands (its values depend on the captured totals); nor a game with children (the tables
/// do not index whose pit is a child). A game whose first moves have rules of their own has tables
/// of the positions past its opening (a position within it is not looked up: those rules would
/// change its value).
pub fn has_tables(variant: Variant) -> bool {
    let rules = variant.rules();
    !rules.has_forced_moves()
        && !rules.blocks_pits()
        && !rules.tracks_extra_move()
        && !rules.tracks_crossing()
        && !rules.territory()
        && !rules.tracks_directions()
        && !rules.eliminates()
        && !rules.stores_change_hands()
        && !rules.has_children()
        && (rules.leftover != Leftover::RowOwner || rules.sow_own_store)
}

/// The games known now that have tables ([`has_tables`]).
pub fn games() -> impl Iterator<Item = Variant> {
    Variant::all().into_iter().filter(|&v| has_tables(v))
}

/// The mover's captures that the states of a majority game's layer of `counters` stand for:
/// those from which neither player has more than half of the counters yet.
pub fn capture_window(variant: Variant, counters: u32) -> std::ops::RangeInclusive<u32> {
    let total = variant.rules().total();
    let half = total / 2;
    let captured = total.saturating_sub(counters);
    captured.saturating_sub(half)..=half.min(captured)
}

/// The states a board of `counters` counters can be in, in `variant` (see the crate's doc).
pub fn states(variant: Variant, counters: u32) -> u32 {
    let rules = variant.rules();
    if rules.tracks_four_holders() {
        3
    } else if rules.ends_on_majority() {
        let window = capture_window(variant, counters);
        window.end().saturating_sub(*window.start()) + 1
    } else {
        1
    }
}

/// The state of `pos` (see the crate's doc); `None` for a majority game already won.
#[inline]
pub fn state(pos: &Position) -> Option<u64> {
    let rules = pos.rules();
    if rules.tracks_four_holders() {
        return Some(match pos.last_four() {
            None => 0,
            Some(side) if side == pos.side_to_move() => 1,
            Some(_) => 2,
        });
    }
    if !rules.ends_on_majority() {
        return Some(0);
    }
    let window = capture_window(pos.variant(), pos.on_board());
    let mine = pos.captured(pos.side_to_move()) as u32;
    window
        .contains(&mine)
        .then(|| (mine - window.start()) as u64)
}

/// The board of `pos` seen from its side to move: the mover's row first.
#[inline]
pub fn mover_board(pos: &Position, board: &mut [u8; MAX_PITS]) -> usize {
    let pits = pos.pits();
    let n = pits.len() / 2;
    match pos.side_to_move() {
        Side::South => board[..2 * n].copy_from_slice(pits),
        Side::North => {
            board[..n].copy_from_slice(&pits[n..]);
            board[n..2 * n].copy_from_slice(&pits[..n]);
        }
    }
    2 * n
}

/// The header a layer's file must have.
pub fn layer_header(variant: Variant, counters: u32) -> Header {
    let pits = variant.rules().pit_count();
    let states = states(variant, counters);
    Header {
        variant,
        pits: pits as u32,
        counters,
        states,
        positions: Ranking::new(pits).layer_size(counters as usize) * states as u64,
        rules: file::rules_fingerprint(variant),
    }
}

/// One layer in memory: the values of the boards with `counters` counters.
pub struct Layer {
    pub counters: u32,
    /// Boards in the layer (per state).
    pub boards: u64,
    pub values: Vec<i8>,
}

/// A layer ready for probes: in memory or mapped from its file.
struct ProbedLayer {
    /// Boards in the layer (per state).
    boards: u64,
    values: LayerValues,
}

/// The loaded tables of one game: layers `0..layers.len()` (a layer that could not be loaded is
/// `None`, and its positions are simply not covered).
pub struct GameTables {
    pub variant: Variant,
    ranking: Ranking,
    layers: Vec<Option<ProbedLayer>>,
}

impl GameTables {
    /// The largest `n` such that every layer up to `n` is loaded.
    pub fn complete_up_to(&self) -> Option<u32> {
        let loaded = self.layers.iter().take_while(|l| l.is_some()).count();
        (loaded > 0).then(|| loaded as u32 - 1)
    }

    /// What the board of `pos` will still yield for its side to move, if its layer is loaded.
    #[inline]
    fn board_value(&self, pos: &Position) -> Option<i32> {
        let layer = self.layers.get(pos.on_board() as usize)?.as_ref()?;
        let mut board = [0u8; MAX_PITS];
        let len = mover_board(pos, &mut board);
        let index = state(pos)? * layer.boards + self.ranking.rank(&board[..len]);
        layer.values.get(index).map(i32::from)
    }

    /// Blocks of the mapped layers found damaged so far (their positions answer nothing).
    pub fn damaged_blocks(&self) -> usize {
        self.layers
            .iter()
            .flatten()
            .map(|layer| match &layer.values {
                LayerValues::Mapped(mapped) => mapped.damaged_blocks(),
                LayerValues::InMemory(_) => 0,
            })
            .sum()
    }
}

/// Why tables could not be loaded.
#[derive(Debug)]
pub enum TablebaseError {
    /// The directory does not exist or cannot be read.
    Directory(PathBuf, std::io::Error),
    /// A layer file is there but cannot be used; the layer (and its game's layers above it, if
    /// it is the first) are left out.
    File(FileError),
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Directory(dir, e) => {
                write!(
                    f,
                    "cannot read the tablebase directory {}: {e}",
                    dir.display()
                )
            }
            TablebaseError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TablebaseError {}

/// The tables of every game found in a directory.
#[derive(Default)]
pub struct Tablebases {
    games: Vec<GameTables>,
}

/// What [`Tablebases::load`] found.
pub struct Loaded {
    pub tablebases: Tablebases,
    /// Files that were there but refused (damaged, of another game or format).
    pub refused: Vec<TablebaseError>,
}

/// What the system has available now, in bytes (the platform's one reader).
pub use mancala_platform::memory::available as available_memory;

/// The bytes of the table files (`*.mtb`) in `dir`.
pub fn table_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "mtb"))
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum()
    })
}

/// Whether tables of `bytes` are read into memory given `available` (unknown: yes): when they
/// take at most 3/4 of it.
fn loads_whole(bytes: u64, available: Option<u64>) -> bool {
    available.is_none_or(|memory| bytes <= memory / 4 * 3)
}

impl Tablebases {
    /// Loads the tables in `dir`: for each game, its layers from 0 up; a missing layer ends the
    /// game's tables, a refused file (damaged, wrong) is reported and left out. Never a wrong
    /// value: a file is used only if its header and checksums are right. The files are mapped,
    /// not read: loading takes no time whatever their size, a probe reads the page it needs,
    /// and a block of values is checked the first time it is read (a damaged one answers
    /// nothing and is logged; `tablebase` finds and rebuilds damaged layers).
    pub fn load(dir: &Path) -> Result<Loaded, TablebaseError> {
        Self::load_as(dir, false)
    }

    /// The tables of `dir` for a long solve: every layer read into memory and checked whole
    /// first (on huge pages where the system gives them; a long solve's probes reach every part
    /// of the tables many times over) when their files take at most 3/4 of the memory available,
    /// otherwise mapped
    /// ([`Tablebases::load`]), so that tables larger than memory still serve (more slowly, each
    /// probe of a page not in memory reading it from disk). Returns whether they were mapped.
    pub fn load_for_solving(dir: &Path) -> Result<(Loaded, bool), TablebaseError> {
        let mapped = !loads_whole(table_bytes(dir), available_memory());
        let loaded = Self::load_as(dir, !mapped)?;
        Ok((loaded, mapped))
    }

    fn load_as(dir: &Path, in_memory: bool) -> Result<Loaded, TablebaseError> {
        if !dir.is_dir() {
            let why = if dir.exists() {
                "not a directory"
            } else {
                "it does not exist"
            };
            return Err(TablebaseError::Directory(
                dir.to_path_buf(),
                std::io::Error::new(std::io::ErrorKind::NotFound, why),
            ));
        }
        std::fs::read_dir(dir).map_err(|e| TablebaseError::Directory(dir.to_path_buf(), e))?;
        let mut games = Vec::new();
        let mut refused = Vec::new();
        for variant in self::games() {
            let ranking = Ranking::new(variant.rules().pit_count());
            let mut layers = Vec::new();
            for counters in 0..=Ranking::MAX_COUNTERS as u32 {
                let path = layer_path(dir, variant, counters);
                if !path.exists() {
                    break;
                }
                let header = layer_header(variant, counters);
                let values = if in_memory {
                    file::read_layer(&path, &header).map(LayerValues::InMemory)
                } else {
                    map_layer(&path, &header)
                };
                match values {
                    Ok(values) => layers.push(Some(ProbedLayer {
                        boards: header.positions / header.states as u64,
                        values,
                    })),
                    Err(e) => {
                        log::warn!("tablebase: {e}");
                        refused.push(TablebaseError::File(e));
                        layers.push(None);
                    }
                }
            }
            if layers.iter().any(Option::is_some) {
                games.push(GameTables {
                    variant,
                    ranking,
                    layers,
                });
            }
        }
        Ok(Loaded {
            tablebases: Tablebases { games },
            refused,
        })
    }

    /// Tables built in memory (by the generator, or for tests).
    pub fn from_layers(variant: Variant, layers: Vec<Layer>) -> Tablebases {
        Tablebases {
            games: vec![GameTables {
                variant,
                ranking: Ranking::new(variant.rules().pit_count()),
                layers: layers
                    .into_iter()
                    .map(|layer| {
                        Some(ProbedLayer {
                            boards: layer.boards,
                            values: LayerValues::InMemory(layer.values),
                        })
                    })
                    .collect(),
            }],
        }
    }

    /// The tables of `variant`, if any are loaded.
    pub fn game(&self, variant: Variant) -> Option<&GameTables> {
        self.games.iter().find(|g| g.variant == variant)
    }

    /// The games with tables and the largest layer up to which each is complete.
    pub fn coverage(&self) -> Vec<(Variant, Option<u32>)> {
        self.games
            .iter()
            .map(|g| (g.variant, g.complete_up_to()))
            .collect()
    }

    /// The solved value of `pos` (its side to move's final margin) under `rule`, if the tables
    /// hold it. Anywoli's tables are for its default convention for the last four only.
    #[inline]
    pub fn probe_with(&self, pos: &Position, rule: LastFourRule) -> Option<i32> {
        if rule != LastFourRule::MostRecentFour && pos.rules().tracks_four_holders() {
            return None;
        }
        // The tables hold positions past the opening (its rules would change the value).
        if pos.opening_moves_played() < pos.rules().opening_moves() {
            return None;
        }
        let game = self.game(pos.variant())?;
        Some(pos.captured_margin() + game.board_value(pos)?)
    }

    /// [`Tablebases::probe_with`] under the default rule.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        self.probe_with(pos, LastFourRule::MostRecentFour)
    }

    /// Positions with at most this many counters on the board are covered in `variant` (every
    /// layer up to it is loaded).
    pub fn max_counters(&self, variant: Variant) -> Option<u32> {
        self.game(variant)?.complete_up_to()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long solve reads tables into memory up to 3/4 of what is available, maps bigger ones,
    /// and reads them when the system does not say.
    #[test]
    fn tables_are_read_whole_only_where_they_fit() {
        let gib = 1u64 << 30;
        assert!(loads_whole(6 * gib, Some(8 * gib)));
        assert!(!loads_whole(6 * gib + 1, Some(8 * gib)));
        assert!(!loads_whole(36 * gib, Some(8 * gib)));
        assert!(loads_whole(36 * gib, None));
    }
}
