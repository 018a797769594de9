//! What the mancala programs ask of the operating system, in one place: how much memory there
//! is ([`memory`]), huge pages for big tables ([`huge_pages`]), and the signals that stop a long
//! tool cleanly ([`signals`]). No dependency; Linux is asked where it can answer, and elsewhere
//! the answers are "unknown" and the hints do nothing. Every call the programs make into the
//! operating system's C interface is here.

pub mod huge_pages;
pub mod memory;
pub mod signals;
