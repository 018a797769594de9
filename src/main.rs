//! `mancala-engine`: the protocol daemon on stdin/stdout (protocol.md), and the one-shot jobs of
//! its command line (`--help` lists them).

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    mancala_engine::protocol::cli::main(&args)
}
