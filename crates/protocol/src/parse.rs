//! Parsing one line into a [`Command`] with nom.
//!
//! The first token picks the command's row of [`COMMANDS`](crate::COMMANDS); its arguments are
//! then parsed by that row's grammar, with `cut` wherever a keyword has committed to a form, so
//! that errors separate "unknown command" from "bad arguments for a known command" and name what
//! was expected.

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::space0;
use nom::combinator::{cut, eof, opt, value};
use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::multi::{many0, many1};
use nom::sequence::preceded;
use nom::{Err as NomErr, IResult, Parser};

use crate::command::{Command, Dialect, Limits, PositionBase, Query};
use crate::commands;
use mancala_rules::{Move, Variant};

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command.
    Unknown(String),
    /// A known command with arguments that do not fit its grammar.
    BadArguments {
        command: String,
        expected: String,
        found: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(name) => write!(
                f,
                "unknown command '{}' (help lists the commands)",
                shorten(name)
            ),
            ParseError::BadArguments {
                command,
                expected,
                found,
            } => write!(
                f,
                "bad arguments for '{command}': expected {expected}, found {found}"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// The parser's error: where it failed and what it wanted there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Syntax<'a> {
    at: &'a str,
    expected: String,
}

impl<'a> NomParseError<&'a str> for Syntax<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Syntax {
            at,
            expected: "something else".to_string(),
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

pub(crate) type PResult<'a, O> = IResult<&'a str, O, Syntax<'a>>;

/// The grammar of a command's arguments: the rest of the line after the first word, and that
/// word in lower case (`uci` and `ugi` share a row).
pub(crate) type ArgumentsParser = for<'a> fn(&'a str, &str) -> PResult<'a, Command>;

const MOVE: &str =
    "a move (a pit letter A-X or a-x, with > or < where the mover chooses its direction, or pass)";

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One token: a run of characters other than spaces and tabs, after optional blanks.
fn token(i: &str) -> PResult<'_, &str> {
    preceded(space0, take_till1(is_blank)).parse(i)
}

fn fail<'a, O>(at: &'a str, expected: impl Into<String>) -> PResult<'a, O> {
    Err(NomErr::Error(Syntax {
        at,
        expected: expected.into(),
    }))
}

/// A recoverable error of `parser` becomes "expected `what`" where `parser` started; a committed
/// (`cut`) error keeps its own, more precise, message.
fn expect<'a, O>(
    what: &'static str,
    mut parser: impl Parser<&'a str, Output = O, Error = Syntax<'a>>,
) -> impl Parser<&'a str, Output = O, Error = Syntax<'a>> {
    move |i: &'a str| {
        parser.parse(i).map_err(|e| match e {
            NomErr::Error(_) => NomErr::Error(Syntax {
                at: i,
                expected: what.to_string(),
            }),
            other => other,
        })
    }
}

/// The word `word`, in any case (`startpos`, `STARTPOS` and `StartPos` are the same keyword).
fn keyword<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Syntax<'a>> {
    move |i: &'a str| match token(i) {
        Ok((rest, t)) if t.eq_ignore_ascii_case(word) => Ok((rest, t)),
        _ => fail(i, format!("'{word}'")),
    }
}

/// An unsigned number type whose range an error message can name.
trait Number: FromStr {
    const MAX: u64;
}

impl Number for u32 {
    const MAX: u64 = u32::MAX as u64;
}

impl Number for u64 {
    const MAX: u64 = u64::MAX;
}

impl Number for usize {
    const MAX: u64 = usize::MAX as u64;
}

/// What was expected of a number, with its range when the token was all digits but too large.
fn number_expected<T: Number>(what: &str, token: &str) -> String {
    if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
        match what.strip_suffix(')') {
            Some(open) => format!("{open}, at most {})", T::MAX),
            None => format!("{what} (at most {})", T::MAX),
        }
    } else {
        what.to_string()
    }
}

/// `token` as a number of type `T`: decimal digits only (Rust's own parser would also take a
/// leading `+`).
fn number_of<T: Number>(token: &str) -> Option<T> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse::<T>().ok()
}

/// A token read as a number of type `T`.
fn parsed<'a, T: Number>(
    what: &'static str,
) -> impl Parser<&'a str, Output = T, Error = Syntax<'a>> {
    move |i: &'a str| match token(i) {
        Ok((rest, t)) => match number_of::<T>(t).ok_or(()) {
            Ok(v) => Ok((rest, v)),
            Err(_) => fail(i, number_expected::<T>(what, t)),
        },
        Err(_) => fail(i, what),
    }
}

/// An optional number: a token that is not one (or too large: the error says the range) is an
/// error.
fn optional_number<'a, T: Number>(
    what: &'static str,
) -> impl Parser<&'a str, Output = Option<T>, Error = Syntax<'a>> {
    move |i: &'a str| match token(i) {
        Err(_) => Ok((i, None)),
        Ok((rest, t)) => number_of::<T>(t).map(|v| (rest, Some(v))).ok_or_else(|| {
            NomErr::Failure(Syntax {
                at: i,
                expected: number_expected::<T>(what, t),
            })
        }),
    }
}

fn optional_with<'a, T: FromStr>(
    expected: impl Fn(&str) -> String,
) -> impl Parser<&'a str, Output = Option<T>, Error = Syntax<'a>> {
    move |i: &'a str| match token(i) {
        Err(_) => Ok((i, None)),
        Ok((rest, t)) => t.parse::<T>().map(|v| (rest, Some(v))).map_err(|_| {
            NomErr::Failure(Syntax {
                at: i,
                expected: expected(t),
            })
        }),
    }
}

/// The games known now, as a list in words: `a, b or c`.
fn game_names() -> String {
    let names: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "a game".to_string(),
    }
}

/// A move name; once a token is there it must be a move.
fn move_name(i: &str) -> PResult<'_, Move> {
    let (rest, t) = token(i)?;
    t.parse::<Move>().map(|mv| (rest, mv)).map_err(|_| {
        NomErr::Failure(Syntax {
            at: i,
            expected: MOVE.to_string(),
        })
    })
}

/// Nothing but blanks left.
fn end_of_line(i: &str) -> PResult<'_, ()> {
    expect("the end of the line", preceded(space0, eof))
        .map(|_| ())
        .parse(i)
}

/// A whole argument list: `parser`, then the end of the line.
fn whole<'a, O>(
    mut parser: impl Parser<&'a str, Output = O, Error = Syntax<'a>>,
    i: &'a str,
) -> PResult<'a, O> {
    let (rest, out) = parser.parse(i)?;
    let (rest, ()) = cut(end_of_line).parse(rest)?;
    Ok((rest, out))
}

fn position_base(i: &str) -> PResult<'_, PositionBase> {
    expect(
        "startpos, fen <position string> or random <seed>",
        alt((
            value(PositionBase::StartPos, keyword("startpos")),
            preceded(keyword("fen"), cut(expect("a position string", token)))
                .map(|text: &str| PositionBase::PositionString(text.to_string())),
            preceded(
                keyword("random"),
                cut(parsed::<u64>("a seed (a non-negative integer)")),
            )
            .map(PositionBase::Random),
        )),
    )
    .parse(i)
}

pub(crate) fn position<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    let (rest, base) = position_base(i)?;
    // `position startpos A f`: moves without the word `moves` before them.
    if let Ok((_, t)) = token(rest)
        && !t.eq_ignore_ascii_case("moves")
        && t.parse::<Move>().is_ok()
    {
        return Err(NomErr::Failure(Syntax {
            at: rest,
            expected: "'moves' or the end of the line (moves follow the word 'moves', as in \
                       'position startpos moves A f')"
                .to_string(),
        }));
    }
    let moves = opt(preceded(
        expect("'moves' or the end of the line", keyword("moves")),
        many0(move_name),
    ));
    whole(moves, rest).map(|(rest, moves)| {
        (
            rest,
            Command::Position {
                base,
                moves: moves.unwrap_or_default(),
            },
        )
    })
}

pub(crate) fn setoption<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    let (i, _) = cut(keyword("name")).parse(i)?;
    let (rest, tokens) = many0(token).parse(i)?;
    let split = tokens.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match split {
        Some(at) => (&tokens[..at], Some(&tokens[at + 1..])),
        None => (&tokens[..], None),
    };
    if name.is_empty() {
        return Err(NomErr::Failure(Syntax {
            at: i,
            expected: "an option name".to_string(),
        }));
    }
    Ok((
        rest,
        Command::SetOption {
            name: name.join(" "),
            value: value.map(|v| v.join(" ")),
        },
    ))
}

/// A query without an argument, by its word.
fn plain_query(i: &str) -> PResult<'_, Query> {
    let (rest, t) = token(i)?;
    Query::WORDS
        .iter()
        .find(|(word, _)| t.eq_ignore_ascii_case(word))
        .map(|&(_, q)| (rest, q))
        .ok_or_else(|| {
            NomErr::Error(Syntax {
                at: i,
                expected: String::new(),
            })
        })
}

pub(crate) fn query<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    let what = alt((
        plain_query,
        preceded(keyword("sowing"), cut(expect(MOVE, move_name))).map(Query::Sowing),
    ));
    whole(
        expect(
            "fen, moves, gameover, p1turn, result, score, side, tb or sowing <move>",
            what,
        ),
        i,
    )
    .map(|(rest, q)| (rest, Command::Query(q)))
}

/// Perft's depth; the engine says how deep it may be.
fn perft_depth(i: &str) -> PResult<'_, u64> {
    whole(cut(parsed::<u64>("a depth (a non-negative integer)")), i)
}

const GO_PARAMETERS: &str = "a go parameter (depth, nodes, movetime, infinite, ponder, p1time, \
     p2time, p1inc, p2inc, wtime, btime, winc, binc, movestogo) or perft <depth>";

/// `go`'s parameters, in any order; a repeated one takes its last value.
pub(crate) fn go<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    if let Ok((rest, _)) = keyword("perft").parse(i) {
        return perft_depth(rest).map(|(rest, d)| (rest, Command::Perft(d)));
    }
    let mut limits = Limits::default();
    let mut rest = i;
    while let Ok((after, word)) = token(rest) {
        let number = |at| cut(parsed::<u64>("a non-negative integer")).parse(at);
        let word = word.to_ascii_lowercase();
        let word = word.as_str();
        rest = match word {
            "infinite" => {
                limits.infinite = true;
                after
            }
            "ponder" => {
                limits.ponder = true;
                after
            }
            "depth" | "movestogo" => {
                let (after, n) = cut(parsed::<u32>("a non-negative integer")).parse(after)?;
                if word == "depth" {
                    limits.depth = Some(n);
                } else {
                    limits.movestogo = Some(n);
                }
                after
            }
            "nodes" | "movetime" | "p1time" | "wtime" | "p2time" | "btime" | "p1inc" | "winc"
            | "p2inc" | "binc" => {
                let (after, n) = number(after)?;
                match word {
                    "nodes" => limits.nodes = Some(n),
                    "movetime" => limits.movetime = Some(n),
                    "p1time" | "wtime" => limits.time[0] = Some(n),
                    "p2time" | "btime" => limits.time[1] = Some(n),
                    "p1inc" | "winc" => limits.inc[0] = n,
                    _ => limits.inc[1] = n,
                }
                after
            }
            _ => {
                return Err(NomErr::Failure(Syntax {
                    at: rest,
                    expected: GO_PARAMETERS.to_string(),
                }));
            }
        };
    }
    Ok((rest, Command::Go(limits)))
}

fn no_arguments(command: Command, i: &str) -> PResult<'_, Command> {
    whole(space0, i).map(|(rest, _)| (rest, command))
}

pub(crate) fn handshake<'a>(i: &'a str, word: &str) -> PResult<'a, Command> {
    let dialect = if word == "ugi" {
        Dialect::Ugi
    } else {
        Dialect::Uci
    };
    no_arguments(Command::Handshake(dialect), i)
}

pub(crate) fn variant<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    whole(optional_with(|_| game_names()), i).map(|(rest, v)| (rest, Command::Variant(v)))
}

pub(crate) fn moves<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    whole(expect(MOVE, many1(move_name)), i).map(|(rest, moves)| (rest, Command::Move(moves)))
}

pub(crate) fn undo<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    whole(
        optional_number::<usize>("a number of moves (a non-negative integer)"),
        i,
    )
    .map(|(rest, n)| (rest, Command::Undo(n.unwrap_or(1))))
}

pub(crate) fn perft<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
    perft_depth(i).map(|(rest, d)| (rest, Command::Perft(d)))
}

/// The commands without arguments.
macro_rules! bare {
    ($($name:ident => $command:expr),* $(,)?) => {
        $(pub(crate) fn $name<'a>(i: &'a str, _: &str) -> PResult<'a, Command> {
            no_arguments($command, i)
        })*
    };
}

bare! {
    is_ready => Command::IsReady,
    new_game => Command::NewGame,
    ponder_hit => Command::PonderHit,
    bench => Command::Bench,
    eval => Command::Eval,
    display => Command::Display,
    help => Command::Help,
    stop => Command::Stop,
    quit => Command::Quit,
}

/// Parses one line (without its line end). `Ok(None)` for a blank line, which is ignored.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let Ok((args, name)) = token(line) else {
        return Ok(None);
    };
    let Some(spec) = commands::find(name) else {
        return Err(ParseError::Unknown(name.to_string()));
    };
    let word = name.to_ascii_lowercase();
    match (spec.parse)(args, &word) {
        Ok((_, command)) => Ok(Some(command)),
        Err(NomErr::Error(e) | NomErr::Failure(e)) => Err(ParseError::BadArguments {
            command: word,
            expected: e.expected,
            found: describe(e.at),
        }),
        Err(NomErr::Incomplete(_)) => Err(ParseError::BadArguments {
            command: word,
            expected: "more input".to_string(),
            found: "the end of the line".to_string(),
        }),
    }
}

/// The token at `at`, quoted and shortened, or "the end of the line".
fn describe(at: &str) -> String {
    match token(at) {
        Ok((_, t)) => format!("'{}'", shorten(t)),
        Err(_) => "the end of the line".to_string(),
    }
}

/// At most 40 characters of `text`, so that error lines stay short whatever was sent.
pub(crate) fn shorten(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((cut_at, _)) => format!("{}…", &text[..cut_at]),
        None => text.to_string(),
    }
}
