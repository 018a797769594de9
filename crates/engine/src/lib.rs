//! The engine of two-row mancala games, in three layers over `mancala-rules`:
//!
//! - [`search`]: iterative deepening PVS with a lock-free shared hash table and Lazy SMP
//!   helpers, a learned evaluation, and an exact solver; it prints nothing and reports through
//!   callbacks;
//! - [`engine`]: the facade a front end talks to: it owns the game, the options and the job
//!   running in the background (a search, a perft or the bench);
//! - [`protocol`]: the line protocol of `protocol.md` (in the repository): lines parsed with
//!   nom into a typed [`protocol::command::Command`], run on the engine, and every reply
//!   formatted in one place. It is the only part that writes to its output.
//!
//! A daemon is one call: `mancala_engine::protocol::run(stdin, stdout)`.

pub mod engine;
pub mod protocol;
pub mod search;
