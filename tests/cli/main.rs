//! The programs driven from outside, as a user or a GUI drives them, in one test binary (one
//! link instead of thirteen): the daemon through pipes, the tools by their command lines, and the
//! documents' examples played through them. The match runner's tests are `tests/match_runner.rs`
//! (a binary of its own: it doubles as the fake engines it starts).

mod docs;
mod endgames;
mod hostile;
mod learn;
mod limits;
mod mancalagames;
mod panics;
mod protocol;
mod search_protocol;
mod solve;
mod solve_split;
mod tablebase_protocol;
mod torture;
