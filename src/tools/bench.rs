//! `mancala-engine bench`: the protocol's `bench` (a fixed search over fixed positions of every
//! game), run once; its node count is the search's signature.

use std::io::{self, Cursor};

use clap::Args;

/// Run the fixed bench search and print its node count and speed.
///
/// The protocol's 'bench': a search of fixed depth over fixed positions of every game, one
/// thread, the table cleared before each; the node count is the search's signature.
#[derive(Args, Debug)]
pub struct Bench {}

impl Bench {
    pub fn run(self) -> Result<(), String> {
        mancala_engine::daemon::run(Cursor::new("bench\n"), io::stdout());
        Ok(())
    }
}
