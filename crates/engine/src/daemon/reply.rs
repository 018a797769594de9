//! Every reply the engine sends, built in one place as the protocol's typed [`Reply`] (which
//! writes it).

use crate::engine::bench::BenchItem;
use crate::engine::options::OPTIONS;
use crate::engine::{Engine, MAX_PERFT_DEPTH};
use crate::engine::{EvalParts, Score, SearchInfo, SearchOutcome};
use mancala_protocol::{BestMove, Dialect, Id, Info, Reply, ScoreReport};
use mancala_rules::{Game, GameResult, Goal, Move, Side, SideChoice, Variant};

pub const ENGINE_NAME: &str = "mancala-engine";
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
pub const ENGINE_AUTHORS: &str = "the mancala-engine developers";

/// The line for a bug of the engine (a panic it survived), with what it said.
pub fn internal_error(message: &str) -> Reply {
    Reply::error(format!(
        "internal: {message} (please report it; the engine goes on)"
    ))
}

/// `info string error …`: the one reply to a line that could not be carried out.
pub fn error(message: impl std::fmt::Display) -> Reply {
    Reply::error(message)
}

/// The reply to `uci` / `ugi`: identity, one line per option (its current value as default),
/// then `uciok` / `ugiok`.
pub fn handshake(dialect: Dialect, engine: &Engine) -> Vec<Reply> {
    let mut lines = vec![
        Reply::Id(Id::Name(format!("{ENGINE_NAME} {ENGINE_VERSION}"))),
        Reply::Id(Id::Author(ENGINE_AUTHORS.to_string())),
    ];
    lines.extend(
        OPTIONS
            .iter()
            .map(|option| Reply::Option(option.uci_option(&(option.current)(engine)))),
    );
    lines.push(Reply::HandshakeOk(dialect));
    lines
}

/// The reply to `variant` alone: one line per game.
pub fn variant_list(current: Variant) -> Vec<Reply> {
    Variant::all()
        .iter()
        .map(|&v| {
            Reply::info_string(format!(
                "variant {v} {}{}",
                board_shape(v),
                if v == current { " (current)" } else { "" }
            ))
        })
        .collect()
}

/// A game's title and board, as the variant list and a loaded game show it: `Kalah 2x6 48
/// counters, sown into stores, any total`.
fn board_shape(variant: Variant) -> String {
    let rules = variant.rules();
    format!(
        "{} 2x{} {} counters{}{}{}{}{}{}",
        rules.title,
        rules.pits_per_row,
        rules.total(),
        if rules.sow_own_store {
            ", sown into stores"
        } else if rules.stores {
            ", with stores"
        } else {
            ""
        },
        if rules.any_total { ", any total" } else { "" },
        match rules.rounds {
            Some(rounds) if rounds.territory_pits_to_win > 0 => format!(
                ", a match for territory, {} pits to win",
                rounds.territory_pits_to_win
            ),
            Some(rounds) if rounds.wins_to_win > 0 =>
                format!(", a match of rounds won, {} to win", rounds.wins_to_win),
            Some(_) => ", a match of rounds".to_string(),
            None => String::new(),
        },
        if rules.random_start {
            ", dealt at random"
        } else {
            ""
        },
        match rules.closes_pits_at {
            0 => String::new(),
            at => format!(", pits closing at {at}"),
        },
        match rules.goal {
            Goal::MostCounters => "",
            Goal::ClearOwnRow => ", won by clearing one's own row",
            Goal::Deprive => ", won by depriving the opponent",
            Goal::Immobilize => ", won by immobilizing the opponent",
        },
    )
}

/// What `WeightsFile` loaded.
pub fn weights_loaded(variant: Variant, model: &str, path: &str) -> Reply {
    Reply::info_string(format!("weights of {variant} loaded from {path} ({model})"))
}

/// What `NetworkFile` loaded.
pub fn network_loaded(variant: Variant, path: &str) -> Reply {
    Reply::info_string(format!("network of {variant} loaded from {path}"))
}

/// What `GameFile` loaded.
pub fn game_loaded(variant: Variant, path: &str) -> Reply {
    Reply::info_string(format!(
        "game {variant} loaded from {path}: {}",
        board_shape(variant)
    ))
}

pub fn response(answer: impl std::fmt::Display) -> Reply {
    Reply::response(answer)
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
pub fn tablebases_loaded(report: &crate::engine::TablebaseReport) -> Vec<Reply> {
    let mut lines: Vec<Reply> = report
        .refused
        .iter()
        .map(|why| Reply::info_string(format!("tablebase file left out: {why}")))
        .collect();
    if report.path.is_empty() {
        lines.push(Reply::info_string("tablebases: none"));
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
    lines.push(Reply::info_string(if covered.is_empty() {
        format!("tablebases: no tables found in {}", report.path)
    } else {
        format!("tablebases: {}", covered.join(", "))
    }));
    lines
}

/// The reply to `query side`: both outcomes, then the answer.
pub fn side_choice(choice: &SideChoice) -> Vec<Reply> {
    let [ss, sn] = choice.choose_south;
    let [ns, nn] = choice.choose_north;
    vec![
        Reply::info_string(format!(
            "choose south: north moves first, final score {ss}-{sn}; \
             choose north: south moves first, final score {ns}-{nn}"
        )),
        response(choice.best().map_or("either", Side::name)),
    ]
}

/// One `info` line of a search.
pub fn search_info(info: &SearchInfo, multipv: bool) -> Reply {
    Reply::Info(Info {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: multipv.then_some(info.multipv as u32),
        score: Some(match info.score {
            Score::Centi(v) => ScoreReport::Centi(v.into()),
            Score::Mate { plies, .. } => ScoreReport::Mate(plies.into()),
        }),
        margin: info.exact_margin.map(Into::into),
        nodes: Some(info.nodes),
        nps: Some(info.nps),
        hashfull: (info.hashfull > 0).then_some(info.hashfull.into()),
        tbhits: (info.tbhits > 0).then_some(info.tbhits),
        time_ms: Some(info.time_ms),
        other: Vec::new(),
        pv: info.pv.clone(),
    })
}

/// `bestmove <m> [ponder <m>]`, or `bestmove (none)` when the game is over.
pub fn bestmove(outcome: &SearchOutcome, with_ponder: bool) -> Reply {
    Reply::BestMove(BestMove {
        best: outcome.best,
        ponder: outcome
            .ponder
            .filter(|_| with_ponder && outcome.best.is_some()),
    })
}

/// The reply to `eval`: each term, then the total, for the side to move.
pub fn eval(parts: &EvalParts, side: Side) -> Vec<Reply> {
    parts
        .named()
        .iter()
        .map(|(name, value)| Reply::info_string(format!("eval {name} {value}")))
        .chain(std::iter::once(Reply::info_string(format!(
            "eval total {} (centi-counters for {side}, the side to move)",
            parts.total()
        ))))
        .collect()
}

/// One bench position.
pub fn bench_item(item: &BenchItem) -> Reply {
    Reply::info_string(format!(
        "bench {}/{} {} {} depth {} nodes {} bestmove {}",
        item.index,
        item.count,
        item.position.variant(),
        item.position,
        item.depth,
        item.outcome.nodes,
        item.outcome
            .best
            .map_or("(none)".to_string(), |m| m.to_string())
    ))
}

/// The bench's last two lines.
pub fn bench_totals(nodes: u64, seconds: f64) -> Vec<Reply> {
    vec![
        Reply::Text(format!("Nodes searched: {nodes}")),
        Reply::Text(format!(
            "Nodes/second: {}",
            (nodes as f64 / seconds.max(1e-9)) as u64
        )),
    ]
}

pub fn perft_move(mv: Move, count: u64) -> Reply {
    Reply::Text(format!("{mv}: {count}"))
}

pub fn perft_total(nodes: u64) -> Reply {
    Reply::Text(format!("Nodes searched: {nodes}"))
}

pub fn perft_stopped() -> Reply {
    Reply::info_string("perft stopped")
}

/// The `d` diagram: North's row on top (from North's right to left, as seen by South), South's
/// row below, then the game's state.
pub fn diagram(game: &Game) -> Vec<Reply> {
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
            .map(|&p| match pos.is_blocked(p) {
                true => cell("x".to_string()),
                false => cell(pos.pits()[p].to_string()),
            })
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
    if pos.rules().rounds.is_some() {
        lines.push(format!(
            "Match of rounds: {} ended since the position was set; this round started by {}{}{}",
            game.rounds_ended(),
            pos.round_starter(),
            if pos.rules().wins_to_win() > 0 {
                let [south, north] = pos.round_wins();
                format!("; rounds won: South {south}, North {north}")
            } else {
                String::new()
            },
            if pos.rules().blocks_pits() {
                " (x: a pit blocked for the round)"
            } else {
                ""
            }
        ));
    }
    if pos.rules().closes_pits_at > 0 {
        // (A game of any total does not say how many it had.)
        let left = match pos.rules().any_total {
            true => String::new(),
            false => format!(
                "; counters out of the game: {}",
                pos.rules().total().saturating_sub(pos.total())
            ),
        };
        lines.push(format!(
            "Pits close at {} counters (x: closed){left}",
            pos.rules().closes_pits_at,
        ));
    }
    if pos.rules().territory() {
        let owners = |side: Side| {
            let pits: Vec<String> = (0..pos.rules().pit_count())
                .filter(|&pit| pos.owner(pit) == side)
                .map(|pit| Move::from_pit(pit, pos.rules().pits_per_row).to_string())
                .collect();
            pits.join(" ")
        };
        lines.push(format!(
            "Pits owned: South {}; North {}",
            owners(Side::South),
            owners(Side::North)
        ));
    }
    lines.push(format!("Position: {pos}"));
    lines.push(format!(
        "Moves played: {}; moves without capture: {}",
        game.moves().len(),
        game.quiet_run()
    ));
    lines.push(match (game.ending(), game.final_totals(), game.result()) {
        (Some(ending), Some([s, n]), Some(winner)) => {
            format!("Game over: {ending} ({winner} {s}-{n})")
        }
        _ => format!("Game over: no; legal moves: {}", game.legal_moves()),
    });
    lines.into_iter().map(Reply::Text).collect()
}

/// One `info string round over …` line for each round that the moves from the `from`-th on
/// ended (a match of rounds): how it ended, what each player held, and how the next one starts.
pub fn rounds_ended(game: &Game, from: usize) -> Vec<Reply> {
    game.round_ends_from(from)
        .map(|(end, next)| {
            let [south, north] = end.totals;
            let count = |n: u32| match n {
                1 => "1 pit".to_string(),
                n => format!("{n} pits"),
            };
            let how = if next.rules().wins_to_win() > 0 {
                let [south_wins, north_wins] = next.round_wins();
                format!("rounds won: South {south_wins}, North {north_wins}")
            } else if next.rules().territory() {
                let north_owns = next.north_owned_pits().count_ones();
                let south_owns = next.rules().pit_count() as u32 - north_owns;
                format!("South owns {}, North {}", count(south_owns), north_owns)
            } else {
                match next.blocked_pits().count_ones() {
                    0 => "no pit blocked".to_string(),
                    n => format!("{} blocked", count(n)),
                }
            };
            Reply::info_string(format!(
                "round over ({}): South {south}, North {north}; next round: {} to move, {how}",
                end.ending,
                next.side_to_move(),
            ))
        })
        .collect()
}

/// The answer to `query round`: `none` in a game that is not played in rounds, else the rounds
/// ended since the position was set and who started the current one (`south` or `north`).
pub fn round_word(game: &Game) -> String {
    match game.position().rules().rounds {
        None => "none".to_string(),
        Some(_) => format!(
            "{} {}",
            game.rounds_ended(),
            match game.position().round_starter() {
                Side::South => "south",
                Side::North => "north",
            }
        ),
    }
}

/// The reply to `help`: the commands as [`mancala_protocol::COMMANDS`] declares them, and the
/// options as [`OPTIONS`] does.
pub fn help() -> Vec<Reply> {
    let mut lines = vec!["Commands (one per line; protocol.md has the details):".to_string()];
    lines.extend(mancala_protocol::help_lines());
    lines.push("Options:".to_string());
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
    lines.into_iter().map(Reply::Text).collect()
}
