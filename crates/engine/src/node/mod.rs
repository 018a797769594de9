//! What the search, the solver and the evaluation share about one node of a game tree: its
//! children (a move made the way both searches make it), its key, and the scores of proven and
//! heuristic values. It depends on the rules alone.

pub(crate) mod child;
pub(crate) mod keys;
pub mod score;
