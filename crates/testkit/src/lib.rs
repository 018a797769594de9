//! What the workspace's tests share (a dev-dependency only, never published):
//!
//! - [`mod@reference`]: a deliberately naive second implementation of the rules, written straight
//!   from `RULES.md`, which the property tests play against the real one;
//! - [`naive_solver`]: plain minimax over those naive rules, the check of the solver and the
//!   tables on small positions;
//! - [`positions`]: random positions of any game with a given number of counters on the board;
//! - [`strategies`]: proptest strategies for games, position strings and random game starts;
//! - [`daemon`]: the engine binary as a test drives it, stdin held open, lines read with
//!   deadlines.

pub mod daemon;
pub mod naive_solver;
pub mod positions;
pub mod reference;
pub mod strategies;

/// Runs `body` on a thread with room for the deep lines of solvers and naive searches (256 MiB
/// of stack), and passes on its panic, if any, as the test's own.
pub fn with_big_stack(body: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(body)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
