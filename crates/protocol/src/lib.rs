//! The line protocol of mancala engines (`protocol.md` in the repository), for both ends.
//!
//! - [`Command`]: what a client sends, parsed from a line with nom by [`parse_line`] and written
//!   back by `Display`, so that an engine reads and a client writes the same grammar;
//! - [`Reply`]: what an engine sends (`info`, `bestmove`, `response`, `option`, errors), written
//!   by `Display` and read by [`Reply::parse`];
//! - [`COMMANDS`]: one row per command (its words, synopsis, summary and what it does while a
//!   job runs), which drives the parser, the engine's dispatch, `help` and protocol.md's table;
//! - [`input::read_line`]: reading lines safely (bounded, CRLF-tolerant, any bytes).
//!
//! A client in Rust takes this crate to drive any engine of the protocol:
//!
//! ```
//! use mancala_protocol::{BestMove, Command, Limits, Reply};
//!
//! let go = Command::Go(Limits { movetime: Some(100), ..Limits::default() });
//! assert_eq!(go.to_string(), "go movetime 100");
//! assert_eq!(mancala_protocol::parse_line("go movetime 100"), Ok(Some(go)));
//!
//! let Ok(Reply::BestMove(BestMove { best: Some(mv), .. })) = Reply::parse("bestmove C") else {
//!     panic!("a bestmove line");
//! };
//! assert_eq!(mv.to_string(), "C");
//! ```

mod command;
mod commands;
pub mod input;
mod parse;
mod reply;

pub use command::{Command, Dialect, Limits, PositionBase, Query};
pub use commands::{
    COMMANDS, CommandSpec, DuringJob, find as find_command, help_lines, markdown_table,
};
pub use parse::{ParseError, parse_line};
pub use reply::{BestMove, Id, Info, OptionKind, Reply, ReplyError, ScoreReport, UciOption};
