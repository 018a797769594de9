//! The protocol's lines, one test binary: the grammar of commands case by case, and both ends
//! reading what the other writes.

mod grammar;
mod round_trip;
