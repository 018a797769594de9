//! Every line the engine sends, formatted in one place.

use super::command::Dialect;
use crate::engine::bench::BenchItem;
use crate::engine::options::OPTIONS;
use crate::engine::{Engine, MAX_PERFT_DEPTH};
use crate::engine::{EvalParts, Score, SearchInfo, SearchOutcome};
use mancala_rules::{Game, GameResult, Move, Side, SideChoice, Variant};

pub const ENGINE_NAME: &str = "mancala-engine";
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
pub const ENGINE_AUTHORS: &str = "the mancala-engine developers";

/// `info string error …`: the one reply to a line that could not be carried out.
/// The line for a bug of the engine (a panic it survived), with what it said.
pub fn internal_error(message: &str) -> String {
    format!("info string error internal: {message} (please report it; the engine goes on)")
}

pub fn error(message: impl std::fmt::Display) -> String {
    format!("info string error {message}")
}

/// The reply to `uci` / `ugi`: identity, one line per option (its current value as default),
/// then `uciok` / `ugiok`.
pub fn handshake(dialect: Dialect, engine: &Engine) -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME} {ENGINE_VERSION}"),
        format!("id author {ENGINE_AUTHORS}"),
    ];
    lines.extend(
        OPTIONS
            .iter()
            .map(|option| option.uci_line(&(option.current)(engine))),
    );
    lines.push(
        match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        }
        .to_string(),
    );
    lines
}

/// The reply to `variant` alone: one line per game.
pub fn variant_list(current: Variant) -> Vec<String> {
    Variant::all()
        .iter()
        .map(|&v| {
            format!(
                "info string variant {v} {}{}",
                board_shape(v),
                if v == current { " (current)" } else { "" }
            )
        })
        .collect()
}

/// A game's title and board, as the variant list and a loaded game show it: `Kalah 2x6 48
/// counters, sown into stores, any total`.
fn board_shape(variant: Variant) -> String {
    let rules = variant.rules();
    format!(
        "{} 2x{} {} counters{}{}",
        rules.title,
        rules.pits_per_row,
        rules.total(),
        if rules.sow_own_store {
            ", sown into stores"
        } else {
            ""
        },
        if rules.any_total { ", any total" } else { "" },
    )
}

/// What `WeightsFile` loaded.
pub fn weights_loaded(variant: Variant, model: &str, path: &str) -> String {
    format!("info string weights of {variant} loaded from {path} ({model})")
}

/// What `NetworkFile` loaded.
pub fn network_loaded(variant: Variant, path: &str) -> String {
    format!("info string network of {variant} loaded from {path}")
}

/// What `GameFile` loaded.
pub fn game_loaded(variant: Variant, path: &str) -> String {
    format!(
        "info string game {variant} loaded from {path}: {}",
        board_shape(variant)
    )
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

/// What setting `TablebasePath` loaded: a line per refused file, then what is covered.
pub fn tablebases_loaded(report: &crate::engine::TablebaseReport) -> Vec<String> {
    let mut lines: Vec<String> = report
        .refused
        .iter()
        .map(|why| format!("info string tablebase file left out: {why}"))
        .collect();
    if report.path.is_empty() {
        lines.push("info string tablebases: none".to_string());
        return lines;
    }
    let covered: Vec<String> = report
        .coverage
        .iter()
        .map(|(variant, max)| match max {
            Some(max) => format!("{variant} up to {max} counters"),
            None => format!("{variant} (layer 0 missing: nothing covered)"),
        })
        .collect();
    lines.push(if covered.is_empty() {
        format!("info string tablebases: no tables found in {}", report.path)
    } else {
        format!("info string tablebases: {}", covered.join(", "))
    });
    lines
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

/// One `info` line of a search: `info depth … seldepth … [multipv …] score (cp v | mate n) nodes …
/// nps … [hashfull …] time … pv …`.
pub fn search_info(info: &SearchInfo, multipv: bool) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if multipv {
        line += &format!(" multipv {}", info.multipv);
    }
    line += &match info.score {
        Score::Centi(v) => format!(" score cp {v}"),
        Score::Mate { plies, .. } => format!(" score mate {plies}"),
    };
    if let Some(margin) = info.exact_margin {
        line += &format!(" margin {margin}");
    }
    line += &format!(" nodes {} nps {}", info.nodes, info.nps);
    if info.hashfull > 0 {
        line += &format!(" hashfull {}", info.hashfull);
    }
    if info.tbhits > 0 {
        line += &format!(" tbhits {}", info.tbhits);
    }
    line += &format!(" time {} pv", info.time_ms);
    for mv in &info.pv {
        line += &format!(" {mv}");
    }
    line
}

/// `bestmove <m> [ponder <m>]`, or `bestmove (none)` when the game is over.
pub fn bestmove(outcome: &SearchOutcome, with_ponder: bool) -> String {
    match (outcome.best, outcome.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(best), Some(ponder)) if with_ponder => format!("bestmove {best} ponder {ponder}"),
        (Some(best), _) => format!("bestmove {best}"),
    }
}

/// The reply to `eval`: each term, then the total, for the side to move.
pub fn eval(parts: &EvalParts, side: Side) -> Vec<String> {
    parts
        .named()
        .iter()
        .map(|(name, value)| format!("info string eval {name} {value}"))
        .chain(std::iter::once(format!(
            "info string eval total {} (centi-counters for {side}, the side to move)",
            parts.total()
        )))
        .collect()
}

/// One bench position.
pub fn bench_item(item: &BenchItem) -> String {
    format!(
        "info string bench {}/{} {} {} depth {} nodes {} bestmove {}",
        item.index,
        item.count,
        item.position.variant(),
        item.position,
        item.depth,
        item.outcome.nodes,
        item.outcome
            .best
            .map_or("(none)".to_string(), |m| m.to_string())
    )
}

/// The bench's last two lines.
pub fn bench_totals(nodes: u64, seconds: f64) -> Vec<String> {
    vec![
        format!("Nodes searched: {nodes}"),
        format!(
            "Nodes/second: {}",
            (nodes as f64 / seconds.max(1e-9)) as u64
        ),
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
    if pos.rules().tracks_four_holders() {
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
            let winner = GameResult::from_totals([s, n]);
            format!("Game over: {ending} ({winner} {s}-{n})")
        }
        _ => format!("Game over: no; legal moves: {}", game.legal_moves()),
    });
    lines
}

/// The reply to `help`: the commands, and the options as [`OPTIONS`] declares them.
pub fn help() -> Vec<String> {
    let mut lines: Vec<String> = [
        "Commands (one per line; protocol.md has the details):",
        "  uci | ugi                        identify, list options, end with uciok / ugiok",
        "  isready                          answer readyok",
        "  setoption name <n> [value <v>]   set an option (the options are listed below)",
        "  ucinewgame | uginewgame          forget what was learned (clears the hash table)",
        "  variant [<name>]                 list the games, or switch game (resets the game)",
        "  position startpos [moves <m>...] set the start position, then play moves",
        "  position fen <string> [moves ...]  set a position string (e.g. 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S)",
        "  position random <seed> [moves ...] Mangala IV: the random deal of <seed>",
        "  move <m>...                      play moves on the current game",
        "  undo [<n>]                       take back the last n moves (default 1)",
        "  query fen|moves|gameover|p1turn|result|score|side|tb|sowing <m>",
        "                                   one 'response ...' line; side: Mangala IV's side choice,",
        "                                   tb: the solved value from the loaded tablebases",
        "  go [depth n] [nodes n] [movetime ms] [infinite] [ponder]",
        "     [p1time ms] [p2time ms] [p1inc ms] [p2inc ms] [movestogo n]   search; bestmove <m>",
        "  stop | ponderhit                 end the search, perft or bench now / the pondered move was played",
        "  perft <depth> | go perft <depth> count leaf nodes, split by first move",
        "  eval                             the static evaluation and its parts",
        "  bench                            fixed search; ends with Nodes searched / Nodes/second",
        "  d                                show the board",
        "  help                             this list",
        "  quit                             exit (end of input does the same)",
        "Options:",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for option in &OPTIONS {
        lines.push(format!(
            "  {:<16} {}",
            option.name,
            option.values_text().replace('`', "")
        ));
    }
    lines.extend([
        "Moves: A B C ... are South's pits from South's left, a b c ... North's; pass.".to_string(),
        "The rules of the games: RULES.md; the protocol: protocol.md.".to_string(),
        format!("Perft depth is at most {MAX_PERFT_DEPTH}."),
    ]);
    lines
}
