//! Fuzz target: a whole session, arbitrary lines against one engine, through the real main loop.
//!
//! Lines that would make one execution take long are dropped before the session sees them:
//! `perft` and `bench` (which run to the end at end of input), and `Hash`/`Threads` options
//! (large tables and thread pools per execution). Everything else, `go` included, runs; at end
//! of input searches stop, as in the daemon. A panic on any thread aborts (see Cargo.toml).

mod checks;

fn main() {
    afl::fuzz!(|data: &[u8]| checks::session(data));
}
