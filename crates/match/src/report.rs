//! The match runner's reports: the progress line, the final table and the JSON summary.

use std::fmt::Write as _;

use super::record::GameRecord;
use super::runner::MatchState;
use super::stats::{EloEstimate, Wdl, elo_wdl};
use super::summary::{EloJson, Summary};

/// An Elo estimate with its 95% interval, as its real lower and upper bounds (the interval of a
/// logistic estimate is not symmetric). No interval is printed where there is none (a perfect
/// score has an infinite estimate).
fn elo_text(estimate: Option<EloEstimate>) -> String {
    let signed = |x: f64| {
        if x.is_finite() {
            // `+ 0.0` turns -0.0 into 0.0, so that an even score prints as +0.0.
            format!("{:+.1}", x + 0.0)
        } else {
            format!("{}inf", if x > 0.0 { "+" } else { "-" })
        }
    };
    match estimate {
        Some(e) if e.elo.is_finite() => format!(
            "{} (95% interval {} to {})",
            signed(e.elo),
            signed(e.lower),
            signed(e.upper)
        ),
        Some(e) => signed(e.elo),
        None => "-".into(),
    }
}

/// Fewer pairs than this make the intervals say little: each is estimated from the spread of
/// the results, which a handful of pairs cannot show.
pub const FEW_PAIRS: u32 = 10;

/// A warning when the games are too few for the intervals to mean what they seem to: fewer than
/// [`FEW_PAIRS`] pairs, or results all alike (then the estimated spread is nil and the interval
/// shrinks to a point, however few the games).
pub fn small_sample_warning(games: u32, pentanomial: &[u32; 5]) -> Option<String> {
    let pairs: u32 = pentanomial.iter().sum();
    let alike = pentanomial.iter().filter(|&&n| n > 0).count() <= 1;
    if pairs >= FEW_PAIRS && !alike {
        return None;
    }
    let why = if pairs < FEW_PAIRS {
        format!("{games} games ({pairs} pairs)")
    } else {
        format!("{pairs} pairs that all scored alike")
    };
    Some(format!(
        "warning: {why} are too few for the intervals to mean much: play at least {FEW_PAIRS} \
         pairs, and more until the results vary"
    ))
}

/// One line after each game: the game, then the score of its pairing.
pub fn progress_line(record: &GameRecord, state: &MatchState) -> String {
    let pairing = state
        .pairings
        .iter()
        .find(|p| {
            (p.first == record.engines[0] && p.second == record.engines[1])
                || (p.first == record.engines[1] && p.second == record.engines[0])
        })
        .expect("every game belongs to a pairing");
    let wdl = pairing.wdl;
    let mut line = format!(
        "[{}/{}] game {}: {} vs {} {} ({}) | {} vs {}: +{} ={} -{}",
        state.games_done,
        state.games_total,
        record.number,
        record.names[0],
        record.names[1],
        record.result_tag(),
        record.termination.describe(),
        state.names[pairing.first],
        state.names[pairing.second],
        wdl.wins,
        wdl.draws,
        wdl.losses,
    );
    if let Some(score) = wdl.score() {
        let _ = write!(line, " {:.1}%", 100.0 * score);
    }
    if let Some((llr, _)) = state.sprt {
        let _ = write!(line, " LLR {llr:.2}");
    }
    line
}

/// The final report for people, from the summary (so that a merge of shards prints what the
/// whole run would have).
pub fn summary_text(summary: &Summary) -> String {
    let run = &summary.run;
    let mut text = String::new();
    let limits = if run.has_engine_limits() {
        let each: Vec<String> = run
            .engines
            .iter()
            .map(|e| format!("{} {}", e.name, e.limit))
            .collect();
        format!("limits: {}", each.join(", "))
    } else {
        run.time_control.clone()
    };
    let list = |shards: &[u32]| {
        shards
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let part = match (
        summary.shard,
        &summary.shards_merged,
        &summary.shards_missing,
    ) {
        (Some(shard), _, _) => format!(" (shard {}/{})", shard.index, shard.count),
        (None, Some(merged), Some((missing, count))) => format!(
            " (PARTIAL: shards {} of {count} merged, {} missing)",
            list(merged),
            list(missing)
        ),
        (None, Some(merged), None) => format!(" (shards {} merged)", list(merged)),
        (None, None, _) => String::new(),
    };
    let _ = writeln!(
        text,
        "Finished {} of {} games{part}: {}, {limits}",
        summary.games_played, summary.games_total, run.variant
    );
    for pairing in &summary.pairings {
        // JSON has no infinity: a missing Elo is infinite, on the side of the score.
        let winning = pairing.score.is_some_and(|s| s > 0.5);
        let elo = |e: &Option<EloJson>| {
            elo_text(e.map(|e| EloEstimate {
                elo: e.elo.unwrap_or(if winning {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                }),
                lower: e.lower.unwrap_or(f64::NEG_INFINITY),
                upper: e.upper.unwrap_or(f64::INFINITY),
            }))
        };
        let games = pairing.wins + pairing.draws + pairing.losses;
        let _ = writeln!(
            text,
            "\n{} vs {}: +{} ={} -{} ({games} games), score {}",
            pairing.first,
            pairing.second,
            pairing.wins,
            pairing.draws,
            pairing.losses,
            pairing
                .score
                .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
        );
        let _ = writeln!(
            text,
            "  Elo {}, LOS {:.1}%",
            elo(&pairing.elo),
            100.0 * pairing.los
        );
        let p = pairing.pentanomial;
        let _ = writeln!(
            text,
            "  pairs [0, 0.5, 1, 1.5, 2 points]: [{}, {}, {}, {}, {}], pair Elo {}",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            elo(&pairing.pair_elo)
        );
        if let Some(warning) = small_sample_warning(games, &p) {
            let _ = writeln!(text, "  {warning}");
        }
        let ends: Vec<String> = pairing
            .terminations
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let _ = writeln!(text, "  endings: {}", ends.join(", "));
    }
    if summary.engines.len() > 2 {
        let _ = writeln!(text, "\nEngines against the field:");
        for engine in &summary.engines {
            let wdl = Wdl {
                wins: engine.wins,
                draws: engine.draws,
                losses: engine.losses,
            };
            let _ = writeln!(
                text,
                "  {}: +{} ={} -{}, score {}, Elo {}",
                engine.name,
                engine.wins,
                engine.draws,
                engine.losses,
                engine
                    .score
                    .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
                elo_text(elo_wdl(&wdl))
            );
        }
    }
    for engine in &summary.engines {
        if engine.crashes + engine.hangs + engine.illegal_moves + engine.time_forfeits > 0 {
            let _ = writeln!(
                text,
                "Faults of {}: {} crashes, {} hangs, {} illegal moves, {} time forfeits",
                engine.name,
                engine.crashes,
                engine.hangs,
                engine.illegal_moves,
                engine.time_forfeits
            );
        }
    }
    if let Some(sprt) = &summary.sprt {
        let p = sprt.parameters;
        let decision = match sprt.result.as_str() {
            "H0" => "H0 accepted",
            "H1" => "H1 accepted",
            other => other,
        };
        let _ = writeln!(
            text,
            "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} in [{:.3}, {:.3}]: {decision}",
            p.elo0, p.elo1, p.alpha, p.beta, sprt.llr, sprt.lower, sprt.upper
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_too_small_for_its_intervals_is_said_so() {
        // Two pairs: "pair Elo +0.0 (95% interval +0.0 to +0.0)" would look certain.
        let two = small_sample_warning(4, &[0, 0, 2, 0, 0]).unwrap();
        assert!(two.contains("4 games (2 pairs)"), "{two}");
        // Enough pairs, but all alike: the spread is nil.
        let alike = small_sample_warning(40, &[0, 0, 20, 0, 0]).unwrap();
        assert!(alike.contains("all scored alike"), "{alike}");
        assert_eq!(small_sample_warning(40, &[1, 3, 10, 4, 2]), None);
    }
}
