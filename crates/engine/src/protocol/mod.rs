//! The text protocol: reads lines, parses them into commands, runs them on the engine and formats
//! every reply. The only part of the crate that writes to stdout.

pub mod command;
pub mod input;
pub mod parser;
pub mod reply;
mod session;

pub use session::{Output, run};
