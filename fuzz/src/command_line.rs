//! Fuzz target: one input line through the line reader and the nom command parser.
//!
//! Finds panics in the parser and in the bounded, CRLF- and UTF-8-aware line reader. The parser
//! must also be total: every line is a command, nothing, or one error.

mod checks;

fn main() {
    afl::fuzz!(|data: &[u8]| checks::command_line(data));
}
