//! The match runner behind `mancala-match`: engines speaking this project's protocol play each
//! other over pipes while the rules library referees every move.
//!
//! Layers: [`config`] (what a match is) → openings (`mancala_rules::openings`) → [`process`] (one
//! engine over pipes, with deadlines) → [`referee`] (one game) → [`runner`] (scheduling and
//! totals) → [`report`] (text and JSON). [`stats`] holds the statistics. Nothing here prints; the
//! binary (`mancala-match`, in the workspace's root package) does, and reads the command line.

pub mod config;
pub mod journal;
pub mod process;
pub mod record;
pub mod referee;
pub mod report;
pub mod runner;
pub mod stats;
pub mod summary;
