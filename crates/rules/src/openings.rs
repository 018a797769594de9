//! Match openings: read from a file, or made of random moves.

use crate::{Game, LastFourRule, Move, Position, SplitMix64, Variant};

/// A start for a pair of games: a base position and moves already played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub base: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The game after the opening moves.
    pub fn game(&self, last_four_rule: LastFourRule) -> Game {
        let mut game = Game::new(self.base, last_four_rule);
        game.play_all(&self.moves)
            .expect("openings are checked when they are made");
        game
    }
}

/// Reads an openings file: one opening per line, `#` starts a comment, blank lines are skipped.
///
/// A line is a position string, a move prefix from the start (`C d E`, optionally after
/// `moves`), `<position string> moves …`, `startpos [moves …]`, `fen <position string>
/// [moves …]` or `random <seed> [moves …]` (a Mangala IV deal). Every opening must be legal and
/// leave a game that is not over.
pub fn parse_openings(
    variant: Variant,
    last_four_rule: LastFourRule,
    text: &str,
) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = parse_line(variant, last_four_rule, line)
            .map_err(|e| format!("openings line {}: {e}", number + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("the openings file holds no opening".into());
    }
    Ok(openings)
}

fn parse_line(
    variant: Variant,
    last_four_rule: LastFourRule,
    line: &str,
) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (base, rest) = match words[0] {
        "startpos" => (Position::start(variant), &words[1..]),
        "fen" => {
            let text = words.get(1).ok_or("'fen' needs a position string")?;
            (parse_position(variant, text)?, &words[2..])
        }
        "random" => {
            if !variant.rules().has_forced_moves() {
                return Err(format!(
                    "'random' deals are the openings of games whose moves are forced (mangala-iv), \
                     not of {variant}"
                ));
            }
            let seed = words
                .get(1)
                .and_then(|s| s.parse::<u64>().ok())
                .ok_or("'random' needs a 64-bit seed")?;
            (Position::mangala_iv_deal(seed), &words[2..])
        }
        first if first.contains('-') => (parse_position(variant, first)?, &words[1..]),
        _ => (Position::start(variant), &words[..]),
    };
    let rest = match rest.first() {
        Some(&"moves") => &rest[1..],
        _ => rest,
    };
    let moves = rest
        .iter()
        .map(|m| m.parse::<Move>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<Move>, String>>()?;
    let mut game = Game::new(base, last_four_rule);
    game.play_all(&moves).map_err(|e| e.to_string())?;
    if game.is_over() {
        return Err("the game is already over after this opening".into());
    }
    Ok(Opening { base, moves })
}

fn parse_position(variant: Variant, text: &str) -> Result<Position, String> {
    Position::from_position_string(variant, text).map_err(|e| e.to_string())
}

/// Opening number `index` of a random set: a Mangala IV deal, or the start position, followed by
/// `plies` random legal moves that capture nothing (any legal moves when no such line is found,
/// and fewer moves when no line that long leaves the game going).
/// Capturing openings would hand one side material before the engines play, so that the pair
/// would measure the opening, not the engines.
pub fn random_opening(
    variant: Variant,
    last_four_rule: LastFourRule,
    plies: u32,
    seed: u64,
    index: u64,
) -> Opening {
    // SplitMix64 walks a counter, so nearby seeds would give overlapping streams: hash first.
    let stream = SplitMix64::new(seed ^ index.rotate_left(32)).next_u64();
    let mut rng = SplitMix64::new(stream);
    // Quiet sequences are tried first; after many failures (a deal where every line captures)
    // any legal moves will do, and if even that finds no line of `plies` moves that leaves the
    // game going, the longest one found is taken.
    let mut longest: Option<Opening> = None;
    for attempt in 0..MAX_ATTEMPTS {
        let quiet_only = attempt < MAX_ATTEMPTS / 2;
        // A game whose moves are forced is decided by its deal: deals are its openings.
        let base = if variant.rules().has_forced_moves() {
            Position::mangala_iv_deal(rng.next_u64())
        } else {
            Position::start(variant)
        };
        let mut game = Game::new(base, last_four_rule);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = game.legal_moves();
            let choices: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&mv| !quiet_only || captures_nothing(&game, mv))
                .collect();
            if choices.is_empty() {
                break;
            }
            let mv = choices[(rng.next_u64() % choices.len() as u64) as usize];
            let mut after = game.clone();
            after.play(mv).expect("a legal move");
            if after.is_over() {
                break;
            }
            game = after;
            moves.push(mv);
        }
        if moves.len() == plies as usize {
            return Opening { base, moves };
        }
        if longest.as_ref().is_none_or(|l| l.moves.len() < moves.len()) {
            longest = Some(Opening { base, moves });
        }
    }
    longest.expect("at least one attempt")
}

/// Tries at finding a random opening of the length asked for.
const MAX_ATTEMPTS: u32 = 2000;

/// Whether `mv` leaves the game going and takes nothing. Where the mover's store is in the ring,
/// sowing into it is no capture: there a move takes nothing when no pit but the one it was
/// played from loses counters.
fn captures_nothing(game: &Game, mv: Move) -> bool {
    let mut after = game.clone();
    after.play(mv).expect("a legal move");
    if after.is_over() {
        return false;
    }
    let before = game.position();
    if before.rules().sow_own_store {
        let origin = mv.pit(before.rules().pits_per_row);
        before
            .pits()
            .iter()
            .zip(after.position().pits())
            .enumerate()
            .all(|(pit, (was, is))| is >= was || Some(pit) == origin)
    } else {
        after.score() == game.score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_form_is_read() {
        let text = "\
# comment
C d            # a move prefix
moves C d E
startpos moves A
startpos

6-6-6-6-6-6-6-6-6-6-6-6-0-0-N moves a
fen 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S
";
        let openings = parse_openings(Variant::MangalaII, LastFourRule::default(), text).unwrap();
        assert_eq!(openings.len(), 6);
        assert_eq!(openings[0].moves.len(), 2);
        assert_eq!(openings[1].moves.len(), 3);
        assert_eq!(openings[3].moves.len(), 0);
        assert_eq!(openings[4].moves, ["a".parse::<Move>().unwrap()]);
    }

    #[test]
    fn mangala_iv_deals() {
        let openings = parse_openings(
            Variant::MangalaIV,
            LastFourRule::default(),
            "random 7 moves A",
        )
        .unwrap();
        assert_eq!(openings[0].base, Position::mangala_iv_deal(7));
        assert!(parse_openings(Variant::MangalaII, LastFourRule::default(), "random 7").is_err());
    }

    #[test]
    fn bad_lines_name_their_number() {
        for text in ["C\nZ", "C\nC C", "", "fen", "4-4-4", "random x"] {
            let err = parse_openings(Variant::MangalaII, LastFourRule::default(), text);
            assert!(err.is_err(), "{text:?}");
        }
        let err =
            parse_openings(Variant::MangalaII, LastFourRule::default(), "C\nA A").unwrap_err();
        assert!(err.starts_with("openings line 2:"), "{err}");
    }

    #[test]
    fn random_openings_that_cannot_be_that_long_end_shorter() {
        // Mangala II games do not last 10,000 plies; the opening stops where the game would end.
        let opening = random_opening(Variant::MangalaII, LastFourRule::default(), 10_000, 3, 0);
        let game = opening.game(LastFourRule::default());
        assert!(!game.is_over());
        assert!(opening.moves.len() < 10_000 && !opening.moves.is_empty());
    }

    #[test]
    fn random_openings_are_quiet_repeatable_and_varied() {
        for variant in Variant::ALL {
            let mut distinct = std::collections::HashSet::new();
            for index in 0..20 {
                let opening = random_opening(variant, LastFourRule::default(), 4, 1, index);
                assert_eq!(
                    opening,
                    random_opening(variant, LastFourRule::default(), 4, 1, index)
                );
                let game = opening.game(LastFourRule::default());
                assert!(!game.is_over());
                assert_eq!(opening.moves.len(), 4);
                assert!(!game.is_over());
                if !variant.rules().has_forced_moves() && !variant.rules().sow_own_store {
                    assert_eq!(game.score(), [0, 0], "{variant}: {opening:?}");
                }
                distinct.insert(game.position().to_string());
            }
            assert!(distinct.len() > 5, "{variant}: {}", distinct.len());
        }
    }
}
