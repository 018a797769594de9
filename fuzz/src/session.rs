//! Fuzz target: a whole session, arbitrary lines against one engine, through the real main loop.
//!
//! Lines that would make one execution take long are dropped before the session sees them:
//! `perft` and `bench` (which run to the end at end of input), and `Hash`/`Threads` options
//! (large tables and thread pools per execution). Everything else, `go` included, runs; at end
//! of input searches stop, as in the daemon. A panic on any thread aborts (see Cargo.toml).

use std::io::{Cursor, Write};

struct Sink;

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn slow(line: &[u8]) -> bool {
    let lower = line.to_ascii_lowercase();
    [&b"perft"[..], b"bench", b"hash", b"threads"]
        .iter()
        .any(|word| lower.windows(word.len()).any(|w| w == *word))
}

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let kept: Vec<u8> = data
            .split_inclusive(|&b| b == b'\n')
            .filter(|line| !slow(line))
            .flatten()
            .copied()
            .collect();
        mancala_engine::protocol::run(Cursor::new(kept), Sink);
    });
}
