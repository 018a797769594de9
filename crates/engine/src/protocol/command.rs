//! The commands of the protocol, as typed values (what `parser` produces from a line).

use crate::engine::Limits;
use crate::engine::PositionBase;
use mancala_rules::{Move, Variant};

/// Which handshake the client used; the replies differ only in the closing word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `uci` → … `uciok`.
    Uci,
    /// `ugi` → … `ugiok` (the Universal Game Interface of cutegames).
    Ugi,
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
    /// `query sowing <move>`: the move told step by step (for a GUI's animation), not played.
    Sowing(mancala_rules::Move),
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
    /// Commands that act on a running job instead of waiting for it to finish.
    pub fn interrupts_job(&self) -> bool {
        matches!(self, Command::Stop | Command::Quit | Command::PonderHit)
    }

    /// Commands answered at once while a search runs (UCI requires it of `isready`); during a
    /// perft or the bench they wait their turn like the rest.
    pub fn answers_during_search(&self) -> bool {
        matches!(self, Command::IsReady | Command::Query(_))
    }
}
