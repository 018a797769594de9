//! A game as a file: the [`Rules`] record written as `key = value` lines, a small subset of TOML
//! (numbers, `true`/`false`, words in double quotes, lists of numbers in brackets, `#`
//! comments), read by hand so that the rules library needs no dependency. The built-in games are
//! such files too (`crates/rules/games/*.toml`, shipped in the library): `build.rs` reads them
//! with this format and compiles them in.
//!
//! A file that is inconsistent, or asks for a rule the engine does not implement, is refused
//! with a message that names the field; nothing of a refused file is kept.
//!
//! ```
//! use mancala_rules::definition::parse;
//!
//! let rules = parse("name = \"mini-kalah\"\npits-per-row = 3\nstart = 2\n\
//!                    sow-own-store = true\nextra-turn-in-store = true\n\
//!                    capture-empty-opposite = true\ncapture-side = \"own\"\n\
//!                    game-ends = \"row-empty\"\nleftover = \"row-owner\"\n").unwrap();
//! assert_eq!(rules.pit_count(), 6);
//! let error = parse("name = \"x\"\npits-per-row = 30\nstart = 1\n").unwrap_err();
//! assert_eq!(error.to_string(), "pits-per-row: 30 pits a row is not in 2 to 12");
//! ```

mod format;

pub use format::*;

use crate::variant::{Rules, Variant};

// `BUILT_IN_FILES`: each built-in game's file name and text, in the order of the built-in
// variants; written by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/built_in_files.rs"));

/// The compiled rules of the built-in games, which their files made.
pub const BUILT_IN_RULES: [&Rules; Variant::ALL.len()] = crate::variant::BUILT_IN;

/// Reads a game file and adds its game to the games known by name ([`Variant::register`]): the
/// one step a program needs to play a game of a file.
pub fn register(text: &str) -> Result<Variant, DefinitionError> {
    Variant::register(parse(text)?).map_err(|e| DefinitionError {
        field: "name".to_string(),
        why: e.to_string(),
    })
}
