//! `mancala-engine`: the protocol daemon on stdin/stdout (protocol.md), and the tools of its
//! command line (`mancala-engine --help` lists them).

mod tools;

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    tools::main(std::env::args_os())
}
