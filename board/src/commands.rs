//! The only protocol lines a board needs, checked word by word before they reach an engine. The
//! engine would refuse a bad line itself, but what a page may make it do (run for hours, eat
//! memory, quit) is decided here. Games, move names and position strings are checked by the
//! rules library, so that the board knows no game of its own.

use mancala_rules::{Move, Variant};

/// Longest line accepted: a whole game's `position` command is a few kilobytes.
pub const MAX_LINE: usize = 16 * 1024;
/// The longest thinking time a page may ask for, in milliseconds.
const MAX_MOVETIME: u64 = 60_000;
/// The longest clock a page may give (half an hour a side: the engine plans a fraction of it
/// for a move, never more than half), and the longest increment.
const MAX_CLOCK: u64 = 30 * 60_000;
const MAX_INCREMENT: u64 = 60_000;

const QUERIES: [&str; 8] = [
    "fen", "moves", "gameover", "p1turn", "result", "score", "side", "tb",
];

/// A game the engine plays (the rules library's list).
fn is_game(word: &str) -> bool {
    word.parse::<Variant>().is_ok()
}

/// A move name of the rules (a pit letter or `pass`).
fn is_move(word: &str) -> bool {
    word.parse::<Move>().is_ok()
}

/// A word shaped like a position string: counts, `-` and side letters. Whether it is one of the
/// current game is the engine's to say: it answers in turn, naming what is wrong for that game
/// (and in which game the string would be valid), which the server, not knowing the game, could
/// not.
fn is_position_string(word: &str) -> bool {
    !word.is_empty()
        && word.len() < 256
        && word.split('-').all(|field| {
            !field.is_empty()
                && (field.bytes().all(|b| b.is_ascii_digit()) || matches!(field, "S" | "N" | "X"))
        })
}

/// A whole number written in digits only (Rust's parser would also take `+100`), at most `max`.
fn number(word: Option<&str>, max: u64) -> Option<u64> {
    let word = word?;
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse::<u64>().ok().filter(|&n| n <= max)
}

/// A page's message `<number> <command>`: the request's number and the command.
pub fn numbered(message: &str) -> Result<(u64, &str), String> {
    let (number, line) = message
        .split_once(' ')
        .ok_or("a message is '<request number> <command>'")?;
    let number = self::number(Some(number), u64::MAX)
        .ok_or_else(|| format!("'{number}' is not a request number"))?;
    Ok((number, line))
}

/// `line` if a board may send it, else why not.
pub fn check(line: &str) -> Result<&str, String> {
    if line.len() > MAX_LINE {
        return Err(format!("a line is at most {MAX_LINE} bytes"));
    }
    if line.contains(['\n', '\r', '\0']) {
        return Err("one line at a time".into());
    }
    let words: Vec<&str> = line.split(' ').collect();
    let ok = match words.as_slice() {
        ["uci" | "isready" | "ucinewgame" | "stop" | "d"] => true,
        ["variant"] => true,
        ["variant", name] => is_game(name),
        ["query", what] => QUERIES.contains(what),
        ["query", "sowing", mv] => is_move(mv),
        ["go", "movetime", ms] => number(Some(ms), MAX_MOVETIME).is_some(),
        ["go", "p1time", p1, "p2time", p2, "p1inc", i1, "p2inc", i2] => {
            [p1, p2]
                .iter()
                .all(|t| number(Some(t), MAX_CLOCK).is_some())
                && [i1, i2]
                    .iter()
                    .all(|i| number(Some(i), MAX_INCREMENT).is_some())
        }
        ["setoption", "name", "MultiPV", "value", n] => number(Some(n), 12).is_some_and(|n| n >= 1),
        ["position", rest @ ..] => {
            let (base, moves) = match rest {
                ["startpos", moves @ ..] => (true, moves),
                ["fen", fen, moves @ ..] => (is_position_string(fen), moves),
                ["random", seed, moves @ ..] => (number(Some(seed), u64::MAX).is_some(), moves),
                _ => (false, &[][..]),
            };
            base && match moves {
                [] => true,
                ["moves", list @ ..] => list.iter().all(|m| is_move(m)),
                _ => false,
            }
        }
        _ => false,
    };
    if ok {
        Ok(line)
    } else {
        let shown: String = line.chars().take(60).collect();
        Err(format!("'{shown}' is not a command a board sends"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_commands_pass() {
        for line in [
            "uci",
            "isready",
            "variant",
            "stop",
            "d",
            "variant anywoli",
            "query fen",
            "query side",
            "query sowing C",
            "query sowing pass",
            "go movetime 100",
            "go p1time 180000 p2time 175500 p1inc 2000 p2inc 2000",
            "setoption name MultiPV value 3",
            "position startpos",
            "position startpos moves A f pass",
            "position fen 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S moves A",
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-X-X",
            "position random 18446744073709551615 moves A",
        ] {
            assert_eq!(check(line), Ok(line), "{line}");
        }
    }

    #[test]
    fn messages_carry_their_request_number() {
        assert_eq!(numbered("17 query fen"), Ok((17, "query fen")));
        assert_eq!(
            numbered("1 position startpos moves A"),
            Ok((1, "position startpos moves A"))
        );
        for bad in ["query fen", "x query fen", "", "-3 uci", "+3 uci", " 3 uci"] {
            assert!(numbered(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn everything_else_is_refused() {
        for line in [
            "quit",
            "bench",
            "perft 9",
            "go infinite",
            "go depth 99",
            "go movetime 99999999",
            "go movetime +100",
            "go movetime -1",
            "go movetime ",
            "go p1time 180000 p2time 180000",
            "go p1time 99999999 p2time 1000 p1inc 0 p2inc 0",
            "go p1time 1000 p2time 1000 p1inc 99999999 p2inc 0",
            "go p1time +1000 p2time 1000 p1inc 0 p2inc 0",
            "position random +5",
            "setoption name Hash value 16384",
            "setoption name TablebasePath value /etc",
            "setoption name MultiPV value 0",
            "variant chess",
            "query fen\nquit",
            "query  fen",
            "query sowing",
            "query sowing AB",
            "query sowing C D",
            "position startpos moves AB",
            "position fen ../../etc",
            "position startpos A f",
            "uci extra",
            "",
        ] {
            assert!(check(line).is_err(), "{line:?}");
        }
        assert!(check(&"position startpos moves A".repeat(2000)).is_err());
    }
}
