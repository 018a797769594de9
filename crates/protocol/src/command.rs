//! The commands of the protocol as typed values: what [`crate::parse_line`] makes of a line, and,
//! through `Display`, the one way each is written (what a client sends).

use std::fmt;

use mancala_rules::{Move, Variant};

use crate::commands::{COMMANDS, CommandSpec};

/// Which handshake the client used; the replies differ only in the closing word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `uci` → … `uciok`.
    Uci,
    /// `ugi` → … `ugiok` (the Universal Game Interface of cutegames).
    Ugi,
}

impl Dialect {
    /// The handshake's word: `uci` or `ugi`.
    pub fn word(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ugi => "ugi",
        }
    }
}

/// A machine-readable question about the game; every answer is one `response …` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query fen`: the position string.
    Fen,
    /// `query moves`: the legal moves in index order.
    Moves,
    /// `query gameover`: `true` or `false`.
    GameOver,
    /// `query p1turn`: whether South is to move.
    P1Turn,
    /// `query result`: `p1win`, `p2win`, `draw` or `none`.
    Result,
    /// `query score`: captured (or, once over, final) totals of South and North.
    Score,
    /// `query side`: Mangala IV's best side for the ritual's winner.
    Side,
    /// `query tb`: the solved value of the position from the loaded tablebases, or `none`.
    Tablebase,
    /// `query round`: in a match of rounds, the rounds ended and who started this one.
    Round,
    /// `query sowing <move>`: the move told step by step (for a GUI's animation), not played.
    Sowing(Move),
}

impl Query {
    /// The queries without an argument, with their words (the grammar and `help` read this).
    pub const WORDS: [(&'static str, Query); 9] = [
        ("fen", Query::Fen),
        ("moves", Query::Moves),
        ("gameover", Query::GameOver),
        ("p1turn", Query::P1Turn),
        ("result", Query::Result),
        ("score", Query::Score),
        ("side", Query::Side),
        ("tb", Query::Tablebase),
        ("round", Query::Round),
    ];
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Query::Sowing(mv) => write!(f, "sowing {mv}"),
            other => {
                let word = Query::WORDS
                    .iter()
                    .find(|(_, q)| q == other)
                    .map_or("fen", |(w, _)| w);
                f.write_str(word)
            }
        }
    }
}

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    StartPos,
    /// A position string (RULES.md, "Position strings"), not yet validated.
    PositionString(String),
    /// The random deal of a seed (games without a choice of move).
    Random(u64),
}

impl fmt::Display for PositionBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionBase::StartPos => f.write_str("startpos"),
            PositionBase::PositionString(text) => write!(f, "fen {text}"),
            PositionBase::Random(seed) => write!(f, "random {seed}"),
        }
    }
}

/// The limits of one search, as `go` gives them. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Remaining time of South (p1, white) and North (p2, black).
    pub time: [Option<u64>; 2],
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
}

impl Limits {
    /// Whether the search ends only on `stop` (or `ponderhit` for a ponder search).
    pub fn waits_for_stop(&self) -> bool {
        self.infinite
            || self.ponder
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.time == [None, None])
    }
}

/// `go`'s parameters in their written order (`p1…`/`p2…`, never the chess names).
impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = Vec::new();
        let mut number = |name: &str, value: Option<u64>| {
            if let Some(value) = value {
                words.push(format!("{name} {value}"));
            }
        };
        number("depth", self.depth.map(u64::from));
        number("nodes", self.nodes);
        number("movetime", self.movetime);
        number("p1time", self.time[0]);
        number("p2time", self.time[1]);
        number("p1inc", Some(self.inc[0]).filter(|&i| i > 0));
        number("p2inc", Some(self.inc[1]).filter(|&i| i > 0));
        number("movestogo", self.movestogo.map(u64::from));
        if self.infinite {
            words.push("infinite".into());
        }
        if self.ponder {
            words.push("ponder".into());
        }
        f.write_str(&words.join(" "))
    }
}

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci` / `ugi`: identify, list the options, and close with `uciok` / `ugiok`.
    Handshake(Dialect),
    /// `isready` → `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption { name: String, value: Option<String> },
    /// `ucinewgame` / `uginewgame`: forget what was learned from earlier games.
    NewGame,
    /// `variant` lists the games; `variant <name>` switches to one (and resets the game).
    Variant(Option<Variant>),
    /// `position (startpos | fen <string> | random <seed>) [moves <m>…]`.
    Position {
        base: PositionBase,
        moves: Vec<Move>,
    },
    /// `move <m>…`: play moves on the current game.
    Move(Vec<Move>),
    /// `undo [n]`: take back the last `n` moves (default 1).
    Undo(usize),
    /// `query <what>`.
    Query(Query),
    /// `go [depth n] [nodes n] [movetime ms] [infinite] [ponder] [p1time ms] [p2time ms]
    /// [p1inc ms] [p2inc ms] [wtime ms] [btime ms] [winc ms] [binc ms] [movestogo n]`: search.
    Go(Limits),
    /// `ponderhit`: the expected move was played; the ponder search goes on under the clock.
    PonderHit,
    /// `perft <depth>` / `go perft <depth>`.
    Perft(u64),
    /// `bench`: the fixed search whose node count is the search's signature.
    Bench,
    /// `eval`: the static evaluation and its parts.
    Eval,
    /// `d`: the board as a diagram.
    Display,
    /// `help`: the list of commands.
    Help,
    /// `stop`: end the running job early.
    Stop,
    /// `quit`: end the running job and exit.
    Quit,
}

impl Command {
    /// The command's first word as it is written.
    pub fn word(&self) -> &'static str {
        match self {
            Command::Handshake(dialect) => dialect.word(),
            Command::IsReady => "isready",
            Command::SetOption { .. } => "setoption",
            Command::NewGame => "ucinewgame",
            Command::Variant(_) => "variant",
            Command::Position { .. } => "position",
            Command::Move(_) => "move",
            Command::Undo(_) => "undo",
            Command::Query(_) => "query",
            Command::Go(_) => "go",
            Command::PonderHit => "ponderhit",
            Command::Perft(_) => "perft",
            Command::Bench => "bench",
            Command::Eval => "eval",
            Command::Display => "d",
            Command::Help => "help",
            Command::Stop => "stop",
            Command::Quit => "quit",
        }
    }

    /// The command's row of [`COMMANDS`].
    pub fn spec(&self) -> &'static CommandSpec {
        let word = self.word();
        COMMANDS
            .iter()
            .find(|spec| spec.name == word || spec.aliases.contains(&word))
            .expect("every command has a row in COMMANDS (a unit test checks it)")
    }

    /// Commands that act on a running job instead of waiting for it to finish.
    pub fn interrupts_job(&self) -> bool {
        self.spec().interrupts_job()
    }

    /// Commands answered at once while a search runs (UCI requires it of `isready`); during a
    /// perft or the bench they wait their turn like the rest.
    pub fn answers_during_search(&self) -> bool {
        self.spec().answers_during_search()
    }
}

/// The command as one line (without its line end), in the form `protocol.md` writes it: what
/// [`crate::parse_line`] reads back as the same command.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())?;
        match self {
            Command::SetOption { name, value } => {
                write!(f, " name {name}")?;
                if let Some(value) = value {
                    write!(f, " value {value}")?;
                }
                Ok(())
            }
            Command::Variant(Some(variant)) => write!(f, " {variant}"),
            Command::Position { base, moves } => {
                write!(f, " {base}")?;
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for mv in moves {
                        write!(f, " {mv}")?;
                    }
                }
                Ok(())
            }
            Command::Move(moves) => moves.iter().try_for_each(|mv| write!(f, " {mv}")),
            Command::Undo(n) => write!(f, " {n}"),
            Command::Query(query) => write!(f, " {query}"),
            Command::Go(limits) => {
                let limits = limits.to_string();
                if limits.is_empty() {
                    Ok(())
                } else {
                    write!(f, " {limits}")
                }
            }
            Command::Perft(depth) => write!(f, " {depth}"),
            _ => Ok(()),
        }
    }
}
