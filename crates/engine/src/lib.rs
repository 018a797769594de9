//! The engine of two-row mancala games, in layers over `mancala-rules` (each uses only those
//! above it in this list):
//!
//! - `node` (private): what the search, the solver and the evaluation share about one node of a
//!   game tree: a move made, position keys, scores;
//! - [`eval`]: the static evaluation, its weights, the networks and their file formats, each
//!   game's engine settings;
//! - [`solve`]: the exact solver (proven values, lines, bounds) and its split into jobs;
//! - [`search`]: iterative deepening PVS with a lock-free shared hash table and Lazy SMP
//!   helpers, asking the solver where few counters are left; it prints nothing and reports
//!   through callbacks;
//! - [`engine`]: the facade a front end talks to: it owns the game, the options and the job
//!   running in the background (a search, a perft or the bench);
//! - [`daemon`]: the line protocol (`mancala-protocol`'s commands and replies) run on the engine:
//!   lines read, dispatched by the table of commands, and every reply built in one place. It is
//!   the only part that writes to its output.
//!
//! A daemon is one call: `mancala_engine::daemon::run(stdin, stdout)`.

pub mod daemon;
pub mod engine;
pub mod eval;
mod node;
pub mod search;
pub mod solve;
