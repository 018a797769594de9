//! The daemon: reads lines, parses them into `mancala-protocol` commands, runs them on the
//! engine and builds every reply. The only part of the crate that writes to stdout.

pub mod reply;
mod session;

pub use session::{Output, run, run_with};
