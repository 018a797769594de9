//! `mancala-engine`: the protocol daemon on stdin/stdout (see protocol.md).

use std::io::{self, BufReader};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    if let Some(arg) = std::env::args().nth(1) {
        eprintln!(
            "mancala-engine takes no arguments (got '{arg}'); it speaks the protocol of protocol.md on stdin/stdout"
        );
        std::process::exit(2);
    }
    mancala_engine::protocol::run(BufReader::new(io::stdin()), io::stdout());
}
