//! Fuzz target: one input line through the line reader and the nom command parser.
//!
//! Finds panics in the parser and in the bounded, CRLF- and UTF-8-aware line reader. The parser
//! must also be total: every line is a command, nothing, or one error.

use std::io::Cursor;

use mancala_engine::protocol::input::{InputLine, read_line};
use mancala_engine::protocol::parser::parse_line;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let mut reader = Cursor::new(data);
        while let Ok(Some(line)) = read_line(&mut reader) {
            if let InputLine::Text(text) = line {
                assert!(!text.contains('\n'), "a line holds no line end");
                if let Err(error) = parse_line(&text) {
                    assert!(!error.to_string().is_empty(), "every error says what was wrong");
                }
            }
        }
    });
}
