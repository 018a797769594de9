//! Position strings (RULES.md, "Position strings"): `<pits…>-<South captured>-<North captured>-<S|N>[-<S|N|X>-<S|N|X>]`;
//! in a match of rounds a blocked pit is written `x` (and in a game whose pits close, a closed
//! one), and one more field says who started the
//! round (`S` or `N`), and in a match for territory one more each pit's owner (in a match of
//! rounds won, the rounds each player has won, `2:1`); where a capture
//! gives one extra move at most, or a goal won outright has extra moves, a field says whether
//! the side to move is on one (`E`) or not (`X`); where a single counter may not cross straight
//! back, the pit it crossed into (or `X`); where the first move chooses the directions, the
//! field the way South sows (`>` counter-clockwise, `<` clockwise, `X` not yet chosen); where
//! the game has an opening, the last field the moves of it played so far.

use std::fmt;

use super::moves::Move;
use super::position::{MAX_COUNTERS, MAX_PITS, Position, holder_mark};
use super::side::Side;
use super::variant::{ChildMaking, Direction, Variant};

/// What is wrong with a position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStringError {
    /// The string does not have the variant's number of `-`-separated fields.
    FieldCount {
        variant: Variant,
        expected: usize,
        found: usize,
    },
    /// A count is not a non-negative decimal integer (or is absurdly large).
    BadCount { field: String, text: String },
    /// Pits and captured totals do not add up to the variant's counters.
    WrongTotal {
        variant: Variant,
        expected: u32,
        found: u64,
    },
    /// A game that allows any total was given none, or more than any game may have.
    TotalOutOfRange {
        variant: Variant,
        most: u32,
        found: u64,
    },
    /// A game whose pits close was given more counters than it has (fewer are left as they
    /// leave the game).
    MoreThanTheGame {
        variant: Variant,
        most: u32,
        found: u64,
    },
    /// The side to move is not `S` or `N`.
    BadSide { text: String },
    /// An Anywoli capture field is not `S`, `N` or `X`.
    BadHolder { field: &'static str, text: String },
    /// A pit is blocked (`x`) in a match of rounds whose rounds block none (elsewhere, but in a
    /// game whose pits close, an `x` is a [`PositionStringError::BadCount`]).
    BlockedPit { field: String },
    /// The round's starter is not `S` or `N`.
    BadRoundStarter { text: String },
    /// The directions field is not `>`, `<` or `X`.
    BadDirections { text: String },
    /// A match for territory's owners field is not `S` or `N` for each pit.
    BadOwners { text: String, pits: usize },
    /// A match of rounds won's field is not `<South's wins>:<North's wins>`, each fewer than the
    /// wins that end the match.
    BadRoundWins { text: String, most: u8 },
    /// The extra-move field is not `E` or `X`.
    BadExtraMove { text: String },
    /// The crossing field is not a pit letter of the board or `X`.
    BadCrossing { text: String },
    /// The opening field is not a number of moves from 0 to the opening's length.
    BadOpening { text: String, most: u8 },
    /// Every pit of a row is blocked: no round is dealt so (a player who goes on fills a pit at
    /// least), and a hand with nowhere to go would never end.
    RowBlocked { side: Side },
    /// A pit is marked a child (`s` or `n` after its count) in a game without children.
    ChildPit { field: String },
    /// A player has more than one child where the game allows one each.
    ChildrenOneEach { side: Side },
}

impl fmt::Display for PositionStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionStringError::FieldCount {
                variant,
                expected,
                found,
            } => write!(
                f,
                "{variant} position strings have {expected} fields separated by '-', found {found}"
            ),
            PositionStringError::BadCount { field, text } => {
                write!(f, "{field} is '{text}', not a non-negative integer")
            }
            PositionStringError::WrongTotal {
                variant,
                expected,
                found,
            } => write!(
                f,
                "pits and captured totals add up to {found}, but {variant} has {expected} counters"
            ),
            PositionStringError::TotalOutOfRange {
                variant,
                most,
                found,
            } => write!(
                f,
                "pits and captured totals add up to {found}, but {variant} is played with 1 to \
                 {most} counters"
            ),
            PositionStringError::MoreThanTheGame {
                variant,
                most,
                found,
            } => write!(
                f,
                "pits and captured totals add up to {found}, but {variant} has {most} counters \
                 (fewer once some have left the game at closed pits)"
            ),
            PositionStringError::BadSide { text } => {
                write!(f, "side to move is '{text}', expected S or N")
            }
            PositionStringError::BadHolder { field, text } => {
                write!(f, "{field} is '{text}', expected S, N or X")
            }
            PositionStringError::BlockedPit { field } => {
                write!(f, "{field} is blocked ('x'), but this game blocks no pits")
            }
            PositionStringError::BadRoundStarter { text } => {
                write!(f, "the round's starter is '{text}', expected S or N")
            }
            PositionStringError::BadCrossing { text } => {
                write!(
                    f,
                    "the crossing field is '{text}', expected the letter of the pit a single \
                     counter has just crossed into (an end pit of a row holding one counter), or \
                     X"
                )
            }
            PositionStringError::BadOpening { text, most } => {
                write!(
                    f,
                    "the opening field is '{text}', expected the moves played so far, from 0 to \
                     {most}"
                )
            }
            PositionStringError::BadExtraMove { text } => {
                write!(
                    f,
                    "the extra-move field is '{text}', expected E (on an extra move) or X"
                )
            }
            PositionStringError::BadRoundWins { text, most } => {
                write!(
                    f,
                    "the rounds-won field is '{text}', expected South's and North's round wins as \
                     S:N, each from 0 to {most}"
                )
            }
            PositionStringError::BadOwners { text, pits } => {
                write!(
                    f,
                    "the owners field is '{text}', expected S or N for each of the {pits} pits, \
                     in pit order"
                )
            }
            PositionStringError::BadDirections { text } => {
                write!(
                    f,
                    "the directions field is '{text}', expected > (South sows counter-clockwise, \
                     North clockwise), < (the other way round) or X (the first move chooses)"
                )
            }
            PositionStringError::RowBlocked { side } => {
                write!(
                    f,
                    "every pit of {side}'s row is blocked ('x'): a round leaves one open"
                )
            }
            PositionStringError::ChildPit { field } => {
                write!(
                    f,
                    "{field} is marked a child, but this game has no children"
                )
            }
            PositionStringError::ChildrenOneEach { side } => {
                write!(
                    f,
                    "{side} has more than one child, where this game allows one each"
                )
            }
        }
    }
}

impl std::error::Error for PositionStringError {}

const LAST_FOUR_FIELD: &str = "the receiver of the most recent four";
const FIRST_CAPTURE_FIELD: &str = "the maker of the first last-seed capture";

/// Largest count accepted while parsing; anything bigger cannot add up to any game's total.
const MAX_COUNT: u64 = 1_000_000;

impl Position {
    /// Number of fields in `variant`'s position strings.
    pub fn field_count(variant: Variant) -> usize {
        let rules = variant.rules();
        rules.pit_count()
            + 3
            + if rules.tracks_four_holders() { 2 } else { 0 }
            + rules.rounds.is_some() as usize
            + rules.territory() as usize
            + (rules.wins_to_win() > 0) as usize
            + rules.tracks_extra_move() as usize
            + rules.tracks_crossing() as usize
            + rules.tracks_directions() as usize
            + (rules.opening_moves() > 0) as usize
    }

    /// Parses a position string of `variant`.
    pub fn from_position_string(
        variant: Variant,
        text: &str,
    ) -> Result<Position, PositionStringError> {
        let rules = variant.rules();
        let fields: Vec<&str> = text.split('-').collect();
        let expected = Position::field_count(variant);
        if fields.len() != expected {
            return Err(PositionStringError::FieldCount {
                variant,
                expected,
                found: fields.len(),
            });
        }
        let len = rules.pit_count();
        let mut counts = [0u64; MAX_PITS + 2];
        let mut blocked = 0u32;
        let mut children = [0u32; 2];
        for (i, text) in fields[..len + 2].iter().enumerate() {
            // A child's count is marked with its owner: `5s` (South's), `5n` (North's).
            let owner = match text.as_bytes().last() {
                Some(b's') if i < len => Some(Side::South),
                Some(b'n') if i < len => Some(Side::North),
                _ => None,
            };
            let marked = text;
            let text = match owner {
                Some(side) => {
                    if !rules.has_children() {
                        return Err(PositionStringError::ChildPit {
                            field: field_name(i, rules.pits_per_row),
                        });
                    }
                    children[side.index()] |= 1 << i;
                    let count = &text[..text.len() - 1];
                    // Only a count is marked: a blocked pit (`x`) is nobody's child.
                    if parse_count(count).is_none() {
                        return Err(PositionStringError::BadCount {
                            field: field_name(i, rules.pits_per_row),
                            text: marked.to_string(),
                        });
                    }
                    count
                }
                None => text,
            };
            if i < len && text == "x" && (rules.rounds.is_some() || rules.closes_pits_at > 0) {
                if !rules.blocks_pits() {
                    return Err(PositionStringError::BlockedPit {
                        field: field_name(i, rules.pits_per_row),
                    });
                }
                blocked |= 1 << i;
                continue;
            }
            counts[i] = parse_count(text).ok_or_else(|| PositionStringError::BadCount {
                field: field_name(i, rules.pits_per_row),
                text: text.to_string(),
            })?;
        }
        let n = rules.pits_per_row;
        for side in [Side::South, Side::North] {
            let row = ((1u32 << n) - 1) << (side.index() * n);
            // (A game whose pits close may close a whole row: its owner has no move.)
            if blocked & row == row && rules.rounds.is_some() {
                return Err(PositionStringError::RowBlocked { side });
            }
            let one_each = rules
                .children
                .is_some_and(|c| c.made_by == ChildMaking::OneEach);
            if one_each && children[side.index()].count_ones() > 1 {
                return Err(PositionStringError::ChildrenOneEach { side });
            }
        }
        let found: u64 = counts[..len + 2].iter().sum();
        if rules.any_total {
            // (Every counter may have left a game whose pits close.)
            if (found == 0 && rules.closes_pits_at == 0) || found > MAX_COUNTERS as u64 {
                return Err(PositionStringError::TotalOutOfRange {
                    variant,
                    most: MAX_COUNTERS,
                    found,
                });
            }
        } else if rules.closes_pits_at > 0 {
            // Counters leave the game at closed pits (all of them, maybe).
            if found > rules.total() as u64 {
                return Err(PositionStringError::MoreThanTheGame {
                    variant,
                    most: rules.total(),
                    found,
                });
            }
        } else if found != rules.total() as u64 {
            return Err(PositionStringError::WrongTotal {
                variant,
                expected: rules.total(),
                found,
            });
        }
        let side_to_move = match fields[len + 2] {
            "S" => Side::South,
            "N" => Side::North,
            other => {
                return Err(PositionStringError::BadSide {
                    text: other.to_string(),
                });
            }
        };
        let (last_four, first_capture) = if rules.tracks_four_holders() {
            (
                parse_holder(fields[len + 3], LAST_FOUR_FIELD)?,
                parse_holder(fields[len + 4], FIRST_CAPTURE_FIELD)?,
            )
        } else {
            (None, None)
        };
        // The last field: the moves of the opening played, where the game has one.
        let opening_field = (rules.opening_moves() > 0) as usize;
        let opening = if opening_field == 1 {
            let text = fields[expected - 1];
            match parse_count(text) {
                Some(moves) if moves <= rules.opening_moves() as u64 => moves as u8,
                _ => {
                    return Err(PositionStringError::BadOpening {
                        text: text.to_string(),
                        most: rules.opening_moves(),
                    });
                }
            }
        } else {
            0
        };
        let expected = expected - opening_field;
        // The way South sows, where the first move chooses it.
        let south_direction = if rules.tracks_directions() {
            match fields[expected - 1] {
                "X" => None,
                ">" => Some(Direction::CounterClockwise),
                "<" => Some(Direction::Clockwise),
                other => {
                    return Err(PositionStringError::BadDirections {
                        text: other.to_string(),
                    });
                }
            }
        } else {
            None
        };
        let before_directions = expected - rules.tracks_directions() as usize;
        let crossed_into = if rules.tracks_crossing() {
            match fields[before_directions - 1] {
                "X" => 0,
                name => match name.parse::<Move>() {
                    Ok(mv) if mv.chosen_direction().is_none() => match mv.sown() {
                        // An end pit of a row, holding the one counter.
                        Some((_, offset))
                            if (offset == 0 || offset as usize == rules.pits_per_row - 1)
                                && counts[mv.pit(rules.pits_per_row).unwrap_or_default()] == 1 =>
                        {
                            mv.pit(rules.pits_per_row).unwrap_or_default() as u8 + 1
                        }
                        _ => {
                            return Err(PositionStringError::BadCrossing {
                                text: name.to_string(),
                            });
                        }
                    },
                    _ => {
                        return Err(PositionStringError::BadCrossing {
                            text: name.to_string(),
                        });
                    }
                },
            }
        } else {
            0
        };
        let extra_move_field = before_directions - 1 - rules.tracks_crossing() as usize;
        let on_extra_move = if rules.tracks_extra_move() {
            match fields[extra_move_field] {
                "E" => true,
                "X" => false,
                other => {
                    return Err(PositionStringError::BadExtraMove {
                        text: other.to_string(),
                    });
                }
            }
        } else {
            false
        };
        let round_starter = if rules.rounds.is_some() {
            match fields[len + 3 + 2 * rules.tracks_four_holders() as usize] {
                "S" => Side::South,
                "N" => Side::North,
                other => {
                    return Err(PositionStringError::BadRoundStarter {
                        text: other.to_string(),
                    });
                }
            }
        } else {
            Side::South
        };
        let north_owned = if rules.territory() {
            let text = fields[len + 4 + 2 * rules.tracks_four_holders() as usize];
            let bad = || PositionStringError::BadOwners {
                text: text.to_string(),
                pits: len,
            };
            if text.len() != len {
                return Err(bad());
            }
            let mut north = 0u32;
            for (pit, letter) in text.bytes().enumerate() {
                match letter {
                    b'S' => {}
                    b'N' => north |= 1 << pit,
                    _ => return Err(bad()),
                }
            }
            north
        } else {
            rules.start_owners()
        };
        let round_wins = if rules.wins_to_win() > 0 {
            let text = fields[len + 4 + 2 * rules.tracks_four_holders() as usize];
            // Neither has won the match yet: each has fewer wins than end it.
            let most = rules.wins_to_win() - 1;
            let wins = text.split_once(':').and_then(|(south, north)| {
                let win = |t| parse_count(t).filter(|&w| w <= most as u64);
                Some([win(south)? as u8, win(north)? as u8])
            });
            wins.ok_or_else(|| PositionStringError::BadRoundWins {
                text: text.to_string(),
                most,
            })?
        } else {
            [0; 2]
        };
        // Every count is at most the total (<= 255), so the narrowing below is exact.
        let mut pits = [0u8; MAX_PITS];
        for (pit, &count) in pits.iter_mut().zip(&counts[..len]) {
            *pit = count as u8;
        }
        Ok(Position {
            variant,
            pits,
            captured: [counts[len] as u8, counts[len + 1] as u8],
            total: found as u8,
            side_to_move,
            marks: if rules.wins_to_win() > 0 {
                round_wins
            } else {
                [holder_mark(last_four), holder_mark(first_capture)]
            },
            blocked,
            round_starter,
            on_extra_move,
            crossed_into,
            north_owned,
            south_direction,
            children,
            opening,
        })
    }
}

/// Digits only: no sign, no spaces, no empty field.
fn parse_count(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|&n| n <= MAX_COUNT)
}

fn parse_holder(text: &str, field: &'static str) -> Result<Option<Side>, PositionStringError> {
    match text {
        "S" => Ok(Some(Side::South)),
        "N" => Ok(Some(Side::North)),
        "X" => Ok(None),
        other => Err(PositionStringError::BadHolder {
            field,
            text: other.to_string(),
        }),
    }
}

/// A field's name for error messages: "pit C", "South's captured total", ….
fn field_name(index: usize, n: usize) -> String {
    if index < 2 * n {
        format!("pit {}", Move::from_pit(index, n))
    } else if index == 2 * n {
        "South's captured total".to_string()
    } else {
        "North's captured total".to_string()
    }
}

fn holder_letter(holder: Option<Side>) -> char {
    holder.map_or('X', Side::letter)
}

impl fmt::Display for Position {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (pit, count) in self.pits().iter().enumerate() {
            if self.is_blocked(pit) {
                f.write_str("x-")?;
            } else {
                match self.child_owner(pit) {
                    Some(Side::South) => write!(f, "{count}s-")?,
                    Some(Side::North) => write!(f, "{count}n-")?,
                    None => write!(f, "{count}-")?,
                }
            }
        }
        write!(
            f,
            "{}-{}-{}",
            self.captured[0],
            self.captured[1],
            self.side_to_move.letter()
        )?;
        if self.rules().tracks_four_holders() {
            write!(
                f,
                "-{}-{}",
                holder_letter(self.last_four()),
                holder_letter(self.first_capture())
            )?;
        }
        if self.rules().rounds.is_some() {
            write!(f, "-{}", self.round_starter.letter())?;
        }
        if self.rules().wins_to_win() > 0 {
            let [south, north] = self.round_wins();
            write!(f, "-{south}:{north}")?;
        }
        if self.rules().territory() {
            f.write_str("-")?;
            for pit in 0..self.rules().pit_count() {
                write!(f, "{}", self.owner(pit).letter())?;
            }
        }
        if self.rules().tracks_extra_move() {
            f.write_str(if self.on_extra_move { "-E" } else { "-X" })?;
        }
        if self.rules().tracks_crossing() {
            match self.crossed_into() {
                Some(pit) => write!(f, "-{}", Move::from_pit(pit, self.rules().pits_per_row))?,
                None => f.write_str("-X")?,
            }
        }
        if self.rules().tracks_directions() {
            f.write_str(match self.south_direction {
                None => "-X",
                Some(Direction::CounterClockwise) => "->",
                Some(Direction::Clockwise) => "-<",
            })?;
        }
        if self.rules().opening_moves() > 0 {
            write!(f, "-{}", self.opening)?;
        }
        Ok(())
    }
}
