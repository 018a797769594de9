//! The engine's options, each declared once, in [`OPTIONS`]: its name, the kind and range of its
//! values, its default, what it does, how to read its current value and what setting it does.
//! The `uci` listing, `setoption` (the lookup, the parsing, the range check and the effect),
//! `help` and protocol.md's table of options all follow from that one list.

use super::{Engine, EngineError, TablebaseReport};
use crate::search::Strategy;
use crate::search::tt::MAX_HASH_MIB;
use mancala_protocol::{OptionKind, UciOption};
use mancala_rules::{LastFourRule, Variant};

/// The bounds of the numeric options.
pub const MAX_THREADS: u64 = 64;
pub const MAX_MULTIPV: u64 = 12;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;
pub const DEFAULT_HASH_MIB: u64 = 16;
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// A numeric option: its name, default and range, declared once (below) for the registry and
/// for the engine's setters, which check a value against it.
#[derive(Clone, Copy, Debug)]
pub struct Spin {
    pub name: &'static str,
    pub default: u64,
    pub min: u64,
    pub max: u64,
    /// What it counts, if anything (`MiB`, `ms`).
    pub unit: Option<&'static str>,
}

impl Spin {
    /// `value` if it is within the range, else the error naming the option and its range.
    pub fn check(&self, value: u64) -> Result<u64, EngineError> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(EngineError::OutOfRange {
                option: self.name,
                value,
                min: self.min,
                max: self.max,
            })
        }
    }
}

pub const HASH: Spin = Spin {
    name: "Hash",
    default: DEFAULT_HASH_MIB,
    min: 1,
    max: MAX_HASH_MIB as u64,
    unit: Some("MiB"),
};

pub const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: 1,
    max: MAX_THREADS,
    unit: None,
};

pub const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: MAX_MULTIPV,
    unit: None,
};

pub const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: DEFAULT_MOVE_OVERHEAD_MS,
    min: 0,
    max: MAX_MOVE_OVERHEAD_MS,
    unit: Some("ms"),
};

/// The one wording of a value outside an option's range, whoever checks it.
pub fn out_of_range(option: &str, value: impl std::fmt::Display, min: u64, max: u64) -> String {
    format!("option '{option}' value {value} is out of range ({min} to {max})")
}

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// `true` or `false`.
    Check { default: bool },
    /// A whole number within a range.
    Spin(Spin),
    /// A whole number from 0 to 2^64 − 1, listed to GUIs as a `string` (many hold a `spin` in 32
    /// bits).
    Number { default: u64 },
    /// One of a list of words (case-insensitive); `also` names other spellings accepted.
    Combo {
        default: fn() -> String,
        choices: fn() -> Vec<String>,
        also: Option<&'static str>,
    },
    /// Any text; empty is allowed and means `empty`.
    Text {
        what: &'static str,
        empty: &'static str,
    },
}

/// A value given to `setoption`, read as its option's kind says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Check(bool),
    Spin(u64),
    Word(String),
}

/// What setting an option did, when it has something to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    Quietly,
    /// `TablebasePath`: what was loaded.
    Tablebases(TablebaseReport),
    /// `GameFile`: the game loaded (and switched to), from where.
    Game(Variant, String),
    /// `WeightsFile`: the game whose weights were loaded, their model, from where.
    Weights(Variant, String, String),
    /// `NetworkFile`: the game whose network was loaded, from where.
    Network(Variant, String),
}

/// One option.
pub struct EngineOption {
    /// The name as listed (matched case-insensitively).
    pub name: &'static str,
    pub kind: Kind,
    /// What it does, for protocol.md's table and `help`.
    pub effect: &'static str,
    /// The value now, which `uci` lists as the default (as UCI engines do).
    pub current: fn(&Engine) -> String,
    /// Sets it; the value is of the option's kind, and a spin's is within its range.
    pub set: fn(&mut Engine, Value) -> Result<Applied, EngineError>,
}

fn word(value: Value) -> String {
    match value {
        Value::Word(word) => word,
        Value::Spin(n) => n.to_string(),
        Value::Check(b) => b.to_string(),
    }
}

/// The path a file option names; `None` for an empty value (which does nothing).
fn file_path(value: Value) -> Option<String> {
    let path = word(value).trim().to_string();
    (!path.is_empty()).then_some(path)
}

fn number(value: &Value) -> u64 {
    match value {
        Value::Spin(n) => *n,
        _ => 0,
    }
}

/// Every option, in the order `uci` lists them.
pub static OPTIONS: [EngineOption; 13] = [
    EngineOption {
        name: "Variant",
        kind: Kind::Combo {
            default: || Variant::default().to_string(),
            choices: || Variant::all().iter().map(ToString::to_string).collect(),
            also: None,
        },
        effect: "the same as `variant <name>`: switches games and resets to the start position",
        current: |engine| engine.variant().to_string(),
        set: |engine, value| {
            let variant: Variant =
                word(value)
                    .parse()
                    .map_err(|e: mancala_rules::UnknownVariant| {
                        EngineError::BadOptionValue(e.to_string())
                    })?;
            engine.set_variant(variant);
            Ok(Applied::Quietly)
        },
    },
    EngineOption {
        name: "AnywoliLastFour",
        kind: Kind::Combo {
            default: || LastFourRule::default().name().to_string(),
            choices: || {
                [LastFourRule::MostRecentFour, LastFourRule::FirstCapture]
                    .iter()
                    .map(|rule| rule.name().to_string())
                    .collect()
            },
            also: Some("`true`/`false`, `first`/`recent` are accepted too"),
        },
        effect: "who gets Anywoli's final four seeds: the player who received the most recent \
 four, or the player who made the first last-seed capture of the game. It changes \
 only final totals and results.",
        current: |engine| engine.options().last_four_rule.name().to_string(),
        set: |engine, value| {
            let rule: LastFourRule = word(value).parse().map_err(EngineError::BadOptionValue)?;
            engine.set_last_four_rule(rule);
            Ok(Applied::Quietly)
        },
    },
    EngineOption {
        name: HASH.name,
        kind: Kind::Spin(HASH),
        effect: "size of the transposition table; resizing clears it. If the memory cannot be \
 had, the old table stays and the error says so.",
        current: |engine| engine.options().hash_mib.to_string(),
        set: |engine, value| engine.set_hash(number(&value)).map(|()| Applied::Quietly),
    },
    EngineOption {
        name: THREADS.name,
        kind: Kind::Spin(THREADS),
        effect: "search threads (Lazy SMP over the shared table). More threads than cores only \
 slows the search down.",
        current: |engine| engine.options().threads.to_string(),
        set: |engine, value| {
            engine
                .set_threads(number(&value))
                .map(|()| Applied::Quietly)
        },
    },
    EngineOption {
        name: MULTIPV.name,
        kind: Kind::Spin(MULTIPV),
        effect: "how many best lines `go` reports (`info … multipv k …`); `bestmove` is the first \
 line's move",
        current: |engine| engine.options().multipv.to_string(),
        set: |engine, value| {
            engine
                .set_multipv(number(&value))
                .map(|()| Applied::Quietly)
        },
    },
    EngineOption {
        name: MOVE_OVERHEAD.name,
        kind: Kind::Spin(MOVE_OVERHEAD),
        effect: "time kept back from every move for communication delays; subtracted from \
 `movetime` and from the clock",
        current: |engine| engine.options().move_overhead_ms.to_string(),
        set: |engine, value| {
            engine
                .set_move_overhead(number(&value))
                .map(|()| Applied::Quietly)
        },
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check { default: false },
        effect: "whether `bestmove` carries `ponder <m>` (the expected reply); pondering itself \
 is `go ponder` … `ponderhit`",
        current: |engine| engine.options().ponder.to_string(),
        set: |engine, value| {
            engine.set_ponder(value == Value::Check(true));
            Ok(Applied::Quietly)
        },
    },
    EngineOption {
        name: "Strategy",
        kind: Kind::Combo {
            default: || Strategy::default().to_string(),
            choices: || Strategy::ALL.iter().map(ToString::to_string).collect(),
            also: None,
        },
        effect: "how `go` chooses: the search; the move that captures most now (ties to the \
 lowest pit); a uniformly random legal move. The baselines answer at once (no \
 `info` lines), so that matches against simple players need no other program.",
        current: |engine| engine.options().strategy.to_string(),
        set: |engine, value| {
            let strategy: Strategy = word(value).parse().map_err(EngineError::BadOptionValue)?;
            engine.set_strategy(strategy);
            Ok(Applied::Quietly)
        },
    },
    EngineOption {
        name: "Seed",
        kind: Kind::Number { default: 0 },
        effect: "seeds the `random` strategy: the same seed gives the same sequence of choices",
        current: |engine| engine.options().seed.to_string(),
        set: |engine, value| {
            engine.set_seed(number(&value));
            Ok(Applied::Quietly)
        },
    },
    EngineOption {
        name: "TablebasePath",
        kind: Kind::Text {
            what: "a directory",
            empty: "none",
        },
        effect: "loads the tablebases in it, for every game ([Tablebases and exact \
 values](#tablebases-and-exact-values)); an empty value unloads them. A directory \
 that does not exist or holds no tables is refused, and the tables loaded before \
 stay.",
        current: |engine| engine.options().tablebase_path.clone().unwrap_or_default(),
        set: |engine, value| {
            engine
                .set_tablebase_path(word(value).trim())
                .map(Applied::Tablebases)
        },
    },
    EngineOption {
        name: "GameFile",
        kind: Kind::Text {
            what: "a game file",
            empty: "none",
        },
        effect: "loads the game the file defines ([Games as data](#games-as-data)), adds it to the \
                 games `variant` lists and switches to it; a file that is inconsistent or asks for a \
                 rule the engine does not implement is refused with the field named, and nothing \
                 changes. An empty value does nothing.",
        current: |engine| engine.options().game_file.clone().unwrap_or_default(),
        set: |engine, value| match file_path(value) {
            None => Ok(Applied::Quietly),
            Some(path) => engine
                .load_game_file(&path)
                .map(|variant| Applied::Game(variant, path)),
        },
    },
    EngineOption {
        name: "WeightsFile",
        kind: Kind::Text {
            what: "a weights file",
            empty: "none",
        },
        effect: "loads the evaluation's weights of a game that has none compiled in (the file names \
                 its game; `mancala-engine tune --save` writes such files); the next search uses \
                 them. A file that cannot be read or is not a weights file of such a game is refused, \
                 and nothing changes. An empty value does nothing.",
        current: |engine| engine.options().weights_file.clone().unwrap_or_default(),
        set: |engine, value| match file_path(value) {
            None => Ok(Applied::Quietly),
            Some(path) => engine
                .load_weights_file(&path)
                .map(|(variant, model)| Applied::Weights(variant, model, path)),
        },
    },
    EngineOption {
        name: "NetworkFile",
        kind: Kind::Text {
            what: "a network file",
            empty: "none",
        },
        effect: "loads a game's network (a hidden layer over the pit tables, added to the \
                 evaluation; `mancala-engine train --save` writes such files), replacing the one \
                 compiled in; the next search uses it. A file that cannot be read, is not a \
                 network file, or was trained over other weights than the game's is refused, and \
                 nothing changes. An empty value does nothing.",
        current: |engine| engine.options().network_file.clone().unwrap_or_default(),
        set: |engine, value| match file_path(value) {
            None => Ok(Applied::Quietly),
            Some(path) => engine
                .load_network_file(&path)
                .map(|variant| Applied::Network(variant, path)),
        },
    },
];

/// The option named `name`, in any case.
pub fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Why a `setoption` was refused before reaching the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has that name; `hint` is the likely intended line when the value seems to
    /// have lost its `value` word.
    Unknown {
        name: String,
        hint: Option<String>,
    },
    NeedsValue(&'static str),
    NotANumber {
        option: &'static str,
        text: String,
    },
    /// Outside the range (digits past what 64 bits hold included).
    OutOfRange {
        option: &'static str,
        text: String,
        min: u64,
        max: u64,
    },
    NotCheck {
        option: &'static str,
        text: String,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown {
                name,
                hint: Some(hint),
            } => write!(
                f,
                "unknown option '{name}': the value follows the word 'value', as in \
                 'setoption name {hint}'"
            ),
            OptionError::Unknown { name, hint: None } => {
                let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                write!(f, "unknown option '{name}' (options: {})", names.join(", "))
            }
            OptionError::NeedsValue(option) => write!(f, "option '{option}' needs a value"),
            OptionError::NotANumber { option, text } => write!(
                f,
                "option '{option}' needs a non-negative integer, not '{text}'"
            ),
            OptionError::OutOfRange {
                option,
                text,
                min,
                max,
            } => write!(f, "{}", out_of_range(option, text, *min, *max)),
            OptionError::NotCheck { option, text } => {
                write!(f, "option '{option}' is true or false, not '{text}'")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// Looks up `name` and reads `value` as that option's kind says (a spin within its range), as
/// `setoption name <name> [value <value>]` gives them.
pub fn parse(
    name: &str,
    value: Option<&str>,
) -> Result<(&'static EngineOption, Value), OptionError> {
    let Some(option) = find(name) else {
        // `setoption name Hash 64` (without `value`) reads as an option named "Hash 64".
        let hint = value
            .is_none()
            .then(|| name.rsplit_once(' '))
            .flatten()
            .and_then(|(head, last)| find(head).map(|o| format!("{} value {last}", o.name)));
        return Err(OptionError::Unknown {
            name: name.to_string(),
            hint,
        });
    };
    let text = value.map(str::trim).unwrap_or("");
    if text.is_empty() && !matches!(option.kind, Kind::Text { .. }) {
        return Err(OptionError::NeedsValue(option.name));
    }
    let parsed = match option.kind {
        Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
            "true" => Value::Check(true),
            "false" => Value::Check(false),
            _ => {
                return Err(OptionError::NotCheck {
                    option: option.name,
                    text: text.to_string(),
                });
            }
        },
        Kind::Spin(_) | Kind::Number { .. } => {
            let (min, max) = option.range();
            let out_of_range = || OptionError::OutOfRange {
                option: option.name,
                text: text.to_string(),
                min,
                max,
            };
            match text.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Value::Spin(n),
                Ok(_) => return Err(out_of_range()),
                // All digits but too large for 64 bits: out of range too.
                Err(_) if text.bytes().all(|b| b.is_ascii_digit()) => return Err(out_of_range()),
                Err(_) => {
                    return Err(OptionError::NotANumber {
                        option: option.name,
                        text: text.to_string(),
                    });
                }
            }
        }
        Kind::Combo { .. } => Value::Word(text.to_string()),
        Kind::Text { .. } => Value::Word(value.unwrap_or("").to_string()),
    };
    Ok((option, parsed))
}

impl EngineOption {
    /// The option as the `uci` reply lists it, with `current` as its default.
    pub fn uci_option(&self, current: &str) -> UciOption {
        let kind = match self.kind {
            Kind::Check { .. } => OptionKind::Check {
                default: current == "true",
            },
            Kind::Spin(Spin { min, max, .. }) => OptionKind::Spin {
                default: current.parse().unwrap_or(0),
                min: min as i64,
                max: max as i64,
            },
            Kind::Combo { choices, .. } => OptionKind::Combo {
                default: current.to_string(),
                vars: choices(),
            },
            Kind::Number { .. } | Kind::Text { .. } => OptionKind::String {
                default: current.to_string(),
            },
        };
        UciOption {
            name: self.name.to_string(),
            kind,
        }
    }

    /// The values it takes and its default, as protocol.md's table says them.
    pub fn values_text(&self) -> String {
        match self.kind {
            Kind::Check { default } => {
                if default {
                    "`true` (default) / `false`".to_string()
                } else {
                    "`true` / `false` (default)".to_string()
                }
            }
            Kind::Spin(Spin {
                default,
                min,
                max,
                unit,
                ..
            }) => {
                let unit = unit.map_or(String::new(), |u| format!(" ({u})"));
                format!("{min} to {max}{unit}, default {default}")
            }
            Kind::Combo {
                default,
                choices,
                also,
            } => {
                let default = default();
                let listed: Vec<String> = choices()
                    .iter()
                    .map(|c| {
                        if *c == default {
                            format!("`{c}` (default)")
                        } else {
                            format!("`{c}`")
                        }
                    })
                    .collect();
                let also = also.map_or(String::new(), |a| format!("; {a}"));
                format!("{} (case-insensitive{also})", listed.join(", "))
            }
            Kind::Number { default } => format!("0 to {}, default {default}", u64::MAX),
            Kind::Text { what, empty } => format!("{what}, default empty ({empty})"),
        }
    }

    /// The default as the option's value is written (`current` of a new engine gives it).
    pub fn default_text(&self) -> String {
        match self.kind {
            Kind::Check { default } => default.to_string(),
            Kind::Spin(Spin { default, .. }) | Kind::Number { default } => default.to_string(),
            Kind::Combo { default, .. } => default(),
            Kind::Text { .. } => String::new(),
        }
    }

    /// The smallest and largest value of a numeric option.
    pub fn range(&self) -> (u64, u64) {
        match self.kind {
            Kind::Spin(Spin { min, max, .. }) => (min, max),
            _ => (0, u64::MAX),
        }
    }
}

/// protocol.md's table of options (`| option | values | effect |`), made from [`OPTIONS`].
pub fn markdown_table() -> String {
    let mut table = String::from("| option | values | effect |\n|---|---|---|\n");
    for option in &OPTIONS {
        table += &format!(
            "| `{}` | {} | {} |\n",
            option.name,
            option.values_text(),
            option.effect
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults are written twice, here (what `uci`, `help` and protocol.md say) and in
    /// `Options::default` (what a new engine holds): they agree, option by option.
    #[test]
    fn a_new_engine_holds_the_defaults_the_registry_lists() {
        let engine = Engine::new();
        for option in &OPTIONS {
            assert_eq!(
                (option.current)(&engine),
                option.default_text(),
                "{}",
                option.name
            );
        }
    }
}
