//! The games the library knows. A game is a [`Rules`] record (`crate::rules_record`;
//! `crate::definition` reads one from a text file), and a [`Variant`] names one of them: the
//! built-in ones (compiled in from their files by `build.rs`) and those registered at run time.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::landing::LandingTable;
pub use super::rules_record::*;

/// One of the games the library knows: a small handle into the registry of games (the built-in
/// ones first, then those registered with [`Variant::register`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant(u8);

impl Default for Variant {
    fn default() -> Self {
        Variant::MangalaII
    }
}

// The built-in games, from their files (`games/*.toml`, in the order of their names), written
// by `build.rs`: a `Variant` constant for each (`Variant::MangalaII` for `mangala-ii.toml`),
// its `Rules` constant (`MANGALA_II`), and `BUILT_IN`, the rules in the order of the variants.
include!(concat!(env!("OUT_DIR"), "/built_in.rs"));

/// Games registered at run time: at most this many in one process.
pub const MAX_REGISTERED: usize = 256 - BUILT_IN.len();

/// A registered game: its rules and where its sowings end, both made once and kept for the
/// process's life (a position of the game may outlive any use of its name).
struct Registered {
    rules: &'static Rules,
    landings: &'static LandingTable,
}

static REGISTERED: [OnceLock<Registered>; MAX_REGISTERED] =
    [const { OnceLock::new() }; MAX_REGISTERED];
static REGISTERED_COUNT: AtomicUsize = AtomicUsize::new(0);

/// Why a game could not be registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterError {
    /// A built-in game has that name.
    BuiltInName(String),
    /// The process has registered as many games as it can.
    Full,
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::BuiltInName(name) => {
                write!(
                    f,
                    "'{name}' is a built-in game: give the new game a name of its own"
                )
            }
            RegisterError::Full => write!(
                f,
                "{MAX_REGISTERED} games are registered already, as many as one process holds"
            ),
        }
    }
}

impl std::error::Error for RegisterError {}

impl Variant {
    /// Every game known now: the built-in ones, then the registered ones in the order they came
    /// (a game registered again under the same name replaces the earlier one in this list).
    pub fn all() -> Vec<Variant> {
        let mut games: Vec<Variant> = Variant::ALL.to_vec();
        let count = REGISTERED_COUNT.load(Ordering::Acquire);
        for (index, slot) in REGISTERED.iter().enumerate().take(count) {
            if slot.get().is_none() {
                continue;
            }
            let game = Variant((BUILT_IN.len() + index) as u8);
            match games.iter().position(|g| g.name() == game.name()) {
                Some(at) => games[at] = game,
                None => games.push(game),
            }
        }
        games
    }

    /// Adds a game (checked by [`crate::definition`], or made by the caller, who answers for
    /// its consistency) under its name; a registered game of the same name is replaced for
    /// lookups by name, while positions of the earlier one keep their rules. Registering the
    /// same rules again returns the game registered before (a GUI may load a file every game).
    pub fn register(rules: Rules) -> Result<Variant, RegisterError> {
        if Variant::ALL
            .iter()
            .any(|v| v.name().eq_ignore_ascii_case(rules.name))
        {
            return Err(RegisterError::BuiltInName(rules.name.to_string()));
        }
        if let Some(same) = Variant::all()
            .into_iter()
            .find(|v| !v.is_built_in() && *v.rules() == rules)
        {
            return Ok(same);
        }
        let index = REGISTERED_COUNT.fetch_add(1, Ordering::AcqRel);
        if index >= MAX_REGISTERED {
            REGISTERED_COUNT.fetch_sub(1, Ordering::AcqRel);
            return Err(RegisterError::Full);
        }
        let rules: &'static Rules = Box::leak(Box::new(rules));
        let landings: &'static LandingTable = Box::leak(Box::new(LandingTable::new(rules)));
        let _ = REGISTERED[index].set(Registered { rules, landings });
        Ok(Variant((BUILT_IN.len() + index) as u8))
    }

    /// The game's number in the registry (built-in games first), below 256: for tables kept per
    /// game.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the game is one of the built-in ones (compiled with its rules as constants).
    #[inline]
    pub const fn is_built_in(self) -> bool {
        (self.0 as usize) < BUILT_IN.len()
    }

    #[inline]
    pub fn rules(self) -> &'static Rules {
        match BUILT_IN.get(self.0 as usize) {
            Some(rules) => rules,
            None => self.registered().rules,
        }
    }

    /// Where the sowings of a registered game end (built-in games have theirs compiled in).
    pub(crate) fn registered_landings(self) -> &'static LandingTable {
        self.registered().landings
    }

    fn registered(self) -> &'static Registered {
        REGISTERED[self.0 as usize - BUILT_IN.len()]
            .get()
            .expect("a Variant is only made for a registered game")
    }

    pub fn name(self) -> &'static str {
        self.rules().name
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({})", self.name())
    }
}

/// The name given is not one of the games known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (expected one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Names are matched case-insensitively, as option values are in UCI.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::all()
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Who gets Anywoli's final four when the board holds only four seeds at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LastFourRule {
    /// The player who received the most recent four (RULES.md, "Anywoli", the default).
    #[default]
    MostRecentFour,
    /// The player who made the first last-seed capture of the game.
    FirstCapture,
}

impl LastFourRule {
    pub const fn name(self) -> &'static str {
        match self {
            LastFourRule::MostRecentFour => "most-recent-four",
            LastFourRule::FirstCapture => "first-capture",
        }
    }
}

impl FromStr for LastFourRule {
    type Err = String;

    /// Accepts the option's two values, plus `false`/`true` for clients that treat it as a switch.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "most-recent-four" | "most-recent" | "recent" | "false" => {
                Ok(LastFourRule::MostRecentFour)
            }
            "first-capture" | "first" | "true" => Ok(LastFourRule::FirstCapture),
            _ => Err(format!(
                "unknown AnywoliLastFour value '{s}' (expected most-recent-four or first-capture)"
            )),
        }
    }
}
