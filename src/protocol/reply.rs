//! Every line the engine sends, formatted in one place.

use super::command::Dialect;
use crate::engine::MAX_PERFT_DEPTH;
use crate::rules::{Game, GameResult, LastFourRule, Move, Side, SideChoice, Variant};

pub const ENGINE_NAME: &str = "mancala-engine";
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
pub const ENGINE_AUTHORS: &str = "the mancala-engine developers";

/// `info string error …`: the one reply to a line that could not be carried out.
pub fn error(message: impl std::fmt::Display) -> String {
    format!("info string error {message}")
}

/// The reply to `uci` / `ugi`.
pub fn handshake(dialect: Dialect, variant: Variant, last_four: LastFourRule) -> Vec<String> {
    let variants: String = Variant::ALL.iter().map(|v| format!(" var {v}")).collect();
    vec![
        format!("id name {ENGINE_NAME} {ENGINE_VERSION}"),
        format!("id author {ENGINE_AUTHORS}"),
        format!("option name Variant type combo default {variant}{variants}"),
        format!(
            "option name AnywoliLastFour type combo default {} var {} var {}",
            last_four.name(),
            LastFourRule::MostRecentFour.name(),
            LastFourRule::FirstCapture.name()
        ),
        match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        }
        .to_string(),
    ]
}

/// The reply to `variant` alone: one line per game.
pub fn variant_list(current: Variant) -> Vec<String> {
    Variant::ALL
        .iter()
        .map(|&v| {
            let rules = v.rules();
            format!(
                "info string variant {v} {} 2x{} {} counters{}",
                rules.title,
                rules.pits_per_row,
                rules.total(),
                if v == current { " (current)" } else { "" }
            )
        })
        .collect()
}

pub fn response(answer: impl std::fmt::Display) -> String {
    let answer = answer.to_string();
    if answer.is_empty() {
        "response".to_string()
    } else {
        format!("response {answer}")
    }
}

pub fn result_word(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::SouthWins) => "p1win",
        Some(GameResult::NorthWins) => "p2win",
        Some(GameResult::Draw) => "draw",
        None => "none",
    }
}

/// The reply to `query side`: both outcomes, then the answer.
pub fn side_choice(choice: &SideChoice) -> Vec<String> {
    let [ss, sn] = choice.choose_south;
    let [ns, nn] = choice.choose_north;
    vec![
        format!(
            "info string choose south: north moves first, final score {ss}-{sn}; \
             choose north: south moves first, final score {ns}-{nn}"
        ),
        response(choice.best().map_or("either", Side::name)),
    ]
}

pub fn perft_move(mv: Move, count: u64) -> String {
    format!("{mv}: {count}")
}

pub fn perft_total(nodes: u64) -> String {
    format!("Nodes searched: {nodes}")
}

pub fn perft_stopped() -> String {
    "info string perft stopped".to_string()
}

/// The `d` diagram: North's row on top (from North's right to left, as seen by South), South's
/// row below, then the game's state.
pub fn diagram(game: &Game) -> Vec<String> {
    let pos = game.position();
    let n = pos.rules().pits_per_row;
    let cell = |text: String| format!("{text:>4}");
    let north: Vec<usize> = pos.row(Side::North).rev().collect();
    let south: Vec<usize> = pos.row(Side::South).collect();
    let letters = |pits: &[usize]| -> String {
        pits.iter()
            .map(|&p| cell(Move::from_pit(p, n).to_string()))
            .collect()
    };
    let counts = |pits: &[usize]| -> String {
        pits.iter()
            .map(|&p| cell(pos.pits()[p].to_string()))
            .collect()
    };
    let captured = if pos.rules().stores {
        "store"
    } else {
        "captured"
    };
    let mut lines = vec![
        format!("{} ({})", pos.rules().title, pos.variant()),
        format!("        {}", letters(&north)),
        format!(
            "North   {}   {captured} {}",
            counts(&north),
            pos.captured(Side::North)
        ),
        format!(
            "South   {}   {captured} {}",
            counts(&south),
            pos.captured(Side::South)
        ),
        format!("        {}", letters(&south)),
        format!("To move: {}", pos.side_to_move()),
    ];
    if pos.rules().stores {
        let holder = |h: Option<Side>| h.map_or("nobody".to_string(), |s| s.to_string());
        lines.push(format!(
            "Most recent four: {}; first last-seed capture: {}",
            holder(pos.last_four()),
            holder(pos.first_capture())
        ));
    }
    lines.push(format!("Position: {pos}"));
    lines.push(format!(
        "Moves played: {}; moves without capture: {}",
        game.moves().len(),
        game.quiet_run()
    ));
    lines.push(match (game.ending(), game.final_totals()) {
        (Some(ending), Some([s, n])) => {
            let winner = match GameResult::from_totals([s, n]) {
                GameResult::SouthWins => "South wins",
                GameResult::NorthWins => "North wins",
                GameResult::Draw => "draw",
            };
            format!("Game over: {} ({winner} {s}-{n})", ending.describe())
        }
        _ => format!("Game over: no; legal moves: {}", game.legal_moves()),
    });
    lines
}

/// The reply to `help`.
pub fn help() -> Vec<String> {
    [
        "Commands (one per line; see protocol.md for the details):",
        "  uci | ugi                        identify, list options, end with uciok / ugiok",
        "  isready                          answer readyok",
        "  setoption name <n> [value <v>]   options: Variant, AnywoliLastFour",
        "  ucinewgame | uginewgame          forget what was learned from earlier games",
        "  variant [<name>]                 list the games, or switch game (resets the game)",
        "  position startpos [moves <m>...] set the start position, then play moves",
        "  position fen <string> [moves ...]  set a position string (e.g. 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S)",
        "  position random <seed> [moves ...] Mangala IV: the random deal of <seed>",
        "  move <m>...                      play moves on the current game",
        "  undo [<n>]                       take back the last n moves (default 1)",
        "  query fen|moves|gameover|p1turn|result|score|side",
        "  perft <depth> | go perft <depth> count leaf nodes, split by first move",
        "  d                                show the board",
        "  stop                             stop a running perft",
        "  quit                             exit (end of input does the same)",
        "Moves: A B C ... are South's pits from South's left, a b c ... North's; pass.",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(std::iter::once(format!(
        "Perft depth is at most {MAX_PERFT_DEPTH}."
    )))
    .collect()
}
