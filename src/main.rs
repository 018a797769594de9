//! `mancala-engine`: the protocol daemon on stdin/stdout (see protocol.md).
//!
//! `mancala-engine bench` runs the bench and exits.

use std::io::{self, BufReader, Cursor};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match std::env::args().nth(1).as_deref() {
        None => mancala_engine::protocol::run(BufReader::new(io::stdin()), io::stdout()),
        Some("bench") => mancala_engine::protocol::run(Cursor::new("bench\n"), io::stdout()),
        Some(other) => {
            eprintln!(
                "mancala-engine: unknown argument '{other}'; run it without arguments for the \
                 protocol of protocol.md, or with 'bench'"
            );
            std::process::exit(2);
        }
    }
}
