//! The lines an engine sends, as typed values: each with its one written form (`Display`) and a
//! parser ([`Reply::parse`]) for the other end.

use std::fmt;

use mancala_rules::Move;

use crate::command::Dialect;

/// `id name …` or `id author …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id {
    Name(String),
    Author(String),
}

/// The kind of an option and its default, as a `uci` reply lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: String,
        vars: Vec<String>,
    },
    /// Free text; an empty default is written `<empty>`.
    String {
        default: String,
    },
    Button,
}

/// `option name <name> type <kind> …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    pub name: String,
    pub kind: OptionKind,
}

/// A search's score: centi-counters for the side to move, or a proven result `plies` away
/// (positive: the side to move wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReport {
    Centi(i64),
    Mate(i64),
}

/// One `info` line of a search. Every field but the line is optional, so that another engine's
/// lines (fewer fields) read too; this engine writes them all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<ScoreReport>,
    /// The exact margin once the search has proven it (this engine's addition).
    pub margin: Option<i64>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u64>,
    pub tbhits: Option<u64>,
    pub time_ms: Option<u64>,
    /// Fields this crate does not know (another engine's `currmove 3`, `wdl 500 300 200`),
    /// kept in order as words: each unknown word and the words after it up to the next field
    /// known here. Written back before `pv`.
    pub other: Vec<String>,
    pub pv: Vec<Move>,
}

/// `bestmove <m> [ponder <m>]`, or `bestmove (none)` when the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

/// One line from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id(Id),
    Option(UciOption),
    /// `uciok` / `ugiok`.
    HandshakeOk(Dialect),
    ReadyOk,
    Info(Info),
    /// `info string error …`: the one answer to a line that could not be carried out.
    Error(String),
    /// `info string …` (anything but an error).
    InfoString(String),
    BestMove(BestMove),
    /// `response [answer]`: the answer to a `query` (maybe empty).
    Response(String),
    /// Any other line: perft's counts, the bench's totals, the board diagram.
    Text(String),
}

/// Why a line that starts like a reply is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyError {
    pub line: String,
    pub why: String,
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", crate::parse::shorten(&self.line), self.why)
    }
}

impl std::error::Error for ReplyError {}

impl Reply {
    /// `info string error <message>`.
    pub fn error(message: impl fmt::Display) -> Reply {
        Reply::Error(message.to_string())
    }

    /// `info string <text>`.
    pub fn info_string(text: impl Into<String>) -> Reply {
        Reply::InfoString(text.into())
    }

    /// `response <answer>`.
    pub fn response(answer: impl fmt::Display) -> Reply {
        Reply::Response(answer.to_string())
    }

    /// Reads one line (without its line end). A line whose first word is not a reply's is
    /// [`Reply::Text`]; a line that starts like one but does not follow its form (`bestmove
    /// A1`, `info depth x`) is an error saying what is wrong.
    pub fn parse(line: &str) -> Result<Reply, ReplyError> {
        let fail = |why: String| ReplyError {
            line: line.to_string(),
            why,
        };
        let text = line.trim_matches([' ', '\t']);
        let (first, rest) = split_word(text);
        let rest = rest.trim_start_matches([' ', '\t']);
        let reply = match first {
            "uciok" if rest.is_empty() => Reply::HandshakeOk(Dialect::Uci),
            "ugiok" if rest.is_empty() => Reply::HandshakeOk(Dialect::Ugi),
            "readyok" if rest.is_empty() => Reply::ReadyOk,
            "id" => match split_word(rest) {
                ("name", value) => Reply::Id(Id::Name(value.trim().to_string())),
                ("author", value) => Reply::Id(Id::Author(value.trim().to_string())),
                _ => return Err(fail("expected 'id name …' or 'id author …'".into())),
            },
            "option" => Reply::Option(parse_option(rest).map_err(fail)?),
            "info" => match split_word(rest) {
                ("string", text) => match text.strip_prefix("error ") {
                    Some(message) => Reply::Error(message.to_string()),
                    None if text == "error" => Reply::Error(String::new()),
                    None => Reply::InfoString(text.to_string()),
                },
                _ => Reply::Info(parse_info(rest).map_err(fail)?),
            },
            "bestmove" => Reply::BestMove(parse_bestmove(rest).map_err(fail)?),
            "response" => Reply::Response(rest.to_string()),
            _ => Reply::Text(line.to_string()),
        };
        Ok(reply)
    }
}

/// The first word of `text` and what follows the one blank after it.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start_matches([' ', '\t']);
    match text.find([' ', '\t']) {
        Some(at) => (&text[..at], &text[at + 1..]),
        None => (text, ""),
    }
}

fn number<T: std::str::FromStr>(word: Option<&str>, what: &str) -> Result<T, String> {
    let word = word.ok_or_else(|| format!("'{what}' without its number"))?;
    word.parse()
        .map_err(|_| format!("'{what}' followed by '{word}', not a number"))
}

fn parse_move(word: &str) -> Result<Move, String> {
    word.parse::<Move>()
        .map_err(|_| format!("'{word}' is not a move name"))
}

/// The fields of an `info` line known here.
const INFO_FIELDS: [&str; 11] = [
    "depth", "seldepth", "multipv", "score", "margin", "nodes", "nps", "hashfull", "tbhits",
    "time", "pv",
];

fn parse_info(text: &str) -> Result<Info, String> {
    let mut info = Info::default();
    let mut words = text.split_whitespace().peekable();
    while let Some(key) = words.next() {
        match key {
            "depth" => info.depth = Some(number(words.next(), key)?),
            "seldepth" => info.seldepth = Some(number(words.next(), key)?),
            "multipv" => info.multipv = Some(number(words.next(), key)?),
            "score" => {
                info.score = Some(match words.next() {
                    Some("cp") => ScoreReport::Centi(number(words.next(), "score cp")?),
                    Some("mate") => ScoreReport::Mate(number(words.next(), "score mate")?),
                    other => {
                        return Err(format!(
                            "'score' followed by {}, not cp or mate",
                            other.map_or("nothing".to_string(), |w| format!("'{w}'"))
                        ));
                    }
                })
            }
            "margin" => info.margin = Some(number(words.next(), key)?),
            "nodes" => info.nodes = Some(number(words.next(), key)?),
            "nps" => info.nps = Some(number(words.next(), key)?),
            "hashfull" => info.hashfull = Some(number(words.next(), key)?),
            "tbhits" => info.tbhits = Some(number(words.next(), key)?),
            "time" => info.time_ms = Some(number(words.next(), key)?),
            "pv" => {
                info.pv = words.by_ref().map(parse_move).collect::<Result<_, _>>()?;
            }
            other => {
                info.other.push(other.to_string());
                while let Some(word) = words.next_if(|w| !INFO_FIELDS.contains(w)) {
                    info.other.push(word.to_string());
                }
            }
        }
    }
    Ok(info)
}

fn parse_bestmove(text: &str) -> Result<BestMove, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [] => Err("bestmove without a move".into()),
        ["(none)"] => Ok(BestMove {
            best: None,
            ponder: None,
        }),
        [best] => Ok(BestMove {
            best: Some(parse_move(best)?),
            ponder: None,
        }),
        [best, "ponder", ponder] => Ok(BestMove {
            best: Some(parse_move(best)?),
            ponder: Some(parse_move(ponder)?),
        }),
        [_, rest @ ..] => Err(format!(
            "expected 'bestmove <move> [ponder <move>]', found '{}' after the move",
            rest.join(" ")
        )),
    }
}

/// `name <words> type <kind> [default <value>] [min <n>] [max <n>] [var <v>]…`.
fn parse_option(text: &str) -> Result<UciOption, String> {
    let text = text
        .trim()
        .strip_prefix("name ")
        .ok_or("expected 'option name …'")?;
    let (name, rest) = text
        .split_once(" type ")
        .ok_or("an option without 'type'")?;
    let (kind, rest) = split_word(rest);
    let rest = rest.trim();
    let default = |rest: &str| -> Result<String, String> {
        rest.strip_prefix("default")
            .map(|d| d.trim().to_string())
            .ok_or_else(|| format!("a {kind} option without 'default'"))
    };
    let kind = match kind {
        "check" => OptionKind::Check {
            default: match default(rest)?.as_str() {
                "true" => true,
                "false" => false,
                other => return Err(format!("check default '{other}' is not true or false")),
            },
        },
        "spin" => {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let value = |key: &str| {
                let at = words.iter().position(|w| *w == key);
                number::<i64>(at.and_then(|at| words.get(at + 1)).copied(), key)
            };
            OptionKind::Spin {
                default: value("default")?,
                min: value("min")?,
                max: value("max")?,
            }
        }
        "combo" => {
            let mut parts = rest.split(" var ");
            let default = default(parts.next().unwrap_or_default())?;
            OptionKind::Combo {
                default,
                vars: parts.map(|v| v.trim().to_string()).collect(),
            }
        }
        "string" => {
            let value = default(rest)?;
            OptionKind::String {
                default: if value == "<empty>" {
                    String::new()
                } else {
                    value
                },
            }
        }
        "button" => OptionKind::Button,
        other => return Err(format!("unknown option type '{other}'")),
    };
    Ok(UciOption {
        name: name.trim().to_string(),
        kind,
    })
}

/// A number as a field's value.
fn text(value: Option<u64>) -> Option<String> {
    value.map(|v| v.to_string())
}

impl fmt::Display for ScoreReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreReport::Centi(v) => write!(f, "cp {v}"),
            ScoreReport::Mate(plies) => write!(f, "mate {plies}"),
        }
    }
}

/// `info depth … seldepth … [multipv …] score … [margin …] nodes … nps … [hashfull …] [tbhits …]
/// time … pv …`: the fields present, in this order.
impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let mut field = |name: &str, value: Option<String>| match value {
            Some(value) => write!(f, " {name} {value}"),
            None => Ok(()),
        };

        field("depth", text(self.depth.map(u64::from)))?;
        field("seldepth", text(self.seldepth.map(u64::from)))?;
        field("multipv", text(self.multipv.map(u64::from)))?;
        field("score", self.score.map(|s| s.to_string()))?;
        field("margin", self.margin.map(|m| m.to_string()))?;
        field("nodes", text(self.nodes))?;
        field("nps", text(self.nps))?;
        field("hashfull", text(self.hashfull))?;
        field("tbhits", text(self.tbhits))?;
        field("time", text(self.time_ms))?;
        for word in &self.other {
            write!(f, " {word}")?;
        }
        if !self.pv.is_empty() || self.depth.is_some() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.best, self.ponder) {
            (None, _) => f.write_str("bestmove (none)"),
            (Some(best), Some(ponder)) => write!(f, "bestmove {best} ponder {ponder}"),
            (Some(best), None) => write!(f, "bestmove {best}"),
        }
    }
}

impl fmt::Display for UciOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::String { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id(Id::Name(name)) => write!(f, "id name {name}"),
            Reply::Id(Id::Author(author)) => write!(f, "id author {author}"),
            Reply::Option(option) => option.fmt(f),
            Reply::HandshakeOk(dialect) => write!(f, "{}ok", dialect.word()),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => info.fmt(f),
            Reply::Error(message) => write!(f, "info string error {message}"),
            Reply::InfoString(text) => write!(f, "info string {text}"),
            Reply::BestMove(best) => best.fmt(f),
            Reply::Response(answer) if answer.is_empty() => f.write_str("response"),
            Reply::Response(answer) => write!(f, "response {answer}"),
            Reply::Text(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(line: &str) -> Reply {
        let reply = Reply::parse(line).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reply.to_string(), line, "{reply:?}");
        reply
    }

    #[test]
    fn search_lines_read_and_write_back() {
        let info = round_trip(
            "info depth 9 seldepth 14 multipv 2 score cp -250 margin 3 nodes 10 nps 5 \
             hashfull 7 tbhits 2 time 2 pv A b pass",
        );
        let Reply::Info(info) = info else {
            panic!("an info line")
        };
        assert_eq!(info.score, Some(ScoreReport::Centi(-250)));
        assert_eq!(info.pv.len(), 3);
        round_trip("info depth 3 seldepth 5 score mate -7 nodes 1 nps 1 time 0 pv");
        assert_eq!(
            round_trip("bestmove C ponder f"),
            Reply::BestMove(BestMove {
                best: Some("C".parse().unwrap()),
                ponder: Some("f".parse().unwrap())
            })
        );
        round_trip("bestmove (none)");
    }

    #[test]
    fn handshake_lines_read_and_write_back() {
        round_trip("id name mancala-engine 0.1.0");
        round_trip("option name Move Overhead type spin default 10 min 0 max 10000");
        round_trip("option name Ponder type check default false");
        round_trip("option name Strategy type combo default search var search var greedy");
        round_trip("option name Seed type string default 18446744073709551615");
        round_trip("option name GameFile type string default <empty>");
        round_trip("option name TablebasePath type string default /data/my tables");
        assert_eq!(round_trip("ugiok"), Reply::HandshakeOk(Dialect::Ugi));
        round_trip("readyok");
    }

    #[test]
    fn answers_and_errors_are_told_apart() {
        assert_eq!(
            round_trip("info string error unknown command 'x'"),
            Reply::Error("unknown command 'x'".into())
        );
        assert_eq!(
            round_trip("info string tablebases: none"),
            Reply::InfoString("tablebases: none".into())
        );
        assert_eq!(round_trip("response"), Reply::Response(String::new()));
        assert_eq!(round_trip("response A b"), Reply::Response("A b".into()));
        assert_eq!(round_trip("A: 6"), Reply::Text("A: 6".into()));
    }

    /// Another engine's fields are passed over and kept: what a client reads of the line is
    /// still there.
    #[test]
    fn fields_of_other_engines_are_kept_beside_the_known_ones() {
        let Ok(Reply::Info(info)) = Reply::parse(
            "info depth 5 currmove A currmovenumber 2 score cp 10 lowerbound wdl 500 300 200 \
             nodes 99 pv A b",
        ) else {
            panic!("an info line");
        };
        assert_eq!(info.depth, Some(5));
        assert_eq!(info.score, Some(ScoreReport::Centi(10)));
        assert_eq!(info.nodes, Some(99));
        assert_eq!(info.pv.len(), 2);
        assert_eq!(
            info.other.join(" "),
            "currmove A currmovenumber 2 lowerbound wdl 500 300 200"
        );
        round_trip("info depth 5 score cp 10 nodes 99 currmove A wdl 1 2 3 pv A b");
    }

    #[test]
    fn malformed_replies_say_what_is_wrong() {
        for (line, why) in [
            ("bestmove", "without a move"),
            ("bestmove A1", "not a move name"),
            ("bestmove A B", "after the move"),
            ("info depth x", "not a number"),
            ("info score 12", "not cp or mate"),
            ("option name X type spin default 1", "'min' without"),
            ("option name X", "without 'type'"),
            ("id nickname x", "id name"),
        ] {
            let error = Reply::parse(line).expect_err(line);
            assert!(error.why.contains(why), "{line}: {error}");
        }
    }
}
