//! What a page may make its engine do. A page's line is parsed by the protocol's own parser
//! (`mancala-protocol`, the grammar the engine reads) and then filtered as a typed command: the
//! engine would refuse a bad line itself, but what a page may make it do (run for hours, eat
//! memory, quit) is decided here. The engine gets the command as the protocol writes it.

use mancala_protocol::{Command, Limits, parse_line};

/// Longest line accepted: a whole game's `position` command is a few kilobytes.
pub const MAX_LINE: usize = 16 * 1024;
/// The longest thinking time a page may ask for, in milliseconds.
const MAX_MOVETIME: u64 = 60_000;
/// The longest clock a page may give (half an hour a side: the engine plans a fraction of it
/// for a move, never more than half), and the longest increment.
const MAX_CLOCK: u64 = 30 * 60_000;
const MAX_INCREMENT: u64 = 60_000;

/// A whole number written in digits only (Rust's parser would also take `+100`), at most `max`.
fn number(word: &str, max: u64) -> Option<u64> {
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
    let number = self::number(number, u64::MAX)
        .ok_or_else(|| format!("'{number}' is not a request number"))?;
    Ok((number, line))
}

/// A `go` a board may send: a thinking time of at most a minute, or clocks of at most half an
/// hour with increments of at most a minute; nothing that runs until `stop`.
fn allowed_search(limits: &Limits) -> bool {
    let thinking_time = Limits {
        movetime: limits.movetime,
        ..Limits::default()
    };
    let clocks = Limits {
        time: limits.time,
        inc: limits.inc,
        ..Limits::default()
    };
    if *limits == thinking_time {
        limits.movetime.is_some_and(|ms| ms <= MAX_MOVETIME)
    } else if *limits == clocks {
        limits
            .time
            .iter()
            .all(|t| t.is_some_and(|ms| ms <= MAX_CLOCK))
            && limits.inc.iter().all(|&ms| ms <= MAX_INCREMENT)
    } else {
        false
    }
}

/// Whether a board may send `command`.
fn allowed(command: &Command) -> bool {
    match command {
        Command::Handshake(_)
        | Command::IsReady
        | Command::NewGame
        | Command::Stop
        | Command::Display
        | Command::Variant(_)
        | Command::Query(_)
        | Command::Position { .. } => true,
        Command::Go(limits) => allowed_search(limits),
        // Its range is the engine's to check.
        Command::SetOption { name, value } => {
            name.eq_ignore_ascii_case("MultiPV") && value.is_some()
        }
        _ => false,
    }
}

/// The command a page's `line` asks for, if a board may send it; else why not.
pub fn check(line: &str) -> Result<Command, String> {
    if line.len() > MAX_LINE {
        return Err(format!("a line is at most {MAX_LINE} bytes"));
    }
    if line.contains(['\n', '\r', '\0']) {
        return Err("one line at a time".into());
    }
    let shown: String = line.chars().take(60).collect();
    match parse_line(line) {
        Ok(Some(command)) if allowed(&command) => Ok(command),
        Ok(_) => Err(format!("'{shown}' is not a command a board sends")),
        Err(error) => Err(format!("'{shown}' is not a command a board sends: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(line: &str) -> String {
        check(line)
            .unwrap_or_else(|why| panic!("{line}: {why}"))
            .to_string()
    }

    #[test]
    fn board_commands_pass_as_the_protocol_writes_them() {
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
            "go p1time 180000 p2time 180000",
            "setoption name MultiPV value 3",
            "position startpos",
            "position startpos moves A f pass",
            "position fen 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S moves A",
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-X-X",
            "position random 18446744073709551615 moves A",
        ] {
            assert_eq!(forwarded(line), line);
        }
        // What the engine would read the same way goes on in the protocol's one form.
        assert_eq!(forwarded("query  FEN"), "query fen");
        assert_eq!(forwarded("go movetime 100 movetime 200"), "go movetime 200");
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
            "go",
            "go infinite",
            "go ponder movetime 100",
            "go depth 99",
            "go movetime 99999999",
            "go movetime +100",
            "go movetime -1",
            "go movetime ",
            "go movetime 100 p1time 1000 p2time 1000",
            "go p1time 180000",
            "go p1time 99999999 p2time 1000 p1inc 0 p2inc 0",
            "go p1time 1000 p2time 1000 p1inc 99999999 p2inc 0",
            "go p1time +1000 p2time 1000 p1inc 0 p2inc 0",
            "position random +5",
            "setoption name Hash value 16384",
            "setoption name TablebasePath value /etc",
            "setoption name MultiPV",
            "variant chess",
            "query fen\nquit",
            "query sowing",
            "query sowing AB",
            "query sowing C D",
            "position startpos moves AB",
            "position startpos A f",
            "uci extra",
            "",
        ] {
            assert!(check(line).is_err(), "{line:?}");
        }
        assert!(check(&"position startpos moves A".repeat(2000)).is_err());
    }
}
