//! The match runner's reports: the progress line, the final table and the JSON summary.

use std::fmt::Write as _;

use super::config::MatchConfig;
use super::record::GameRecord;
use super::runner::MatchState;
use super::stats::{EloEstimate, elo_pentanomial, elo_wdl, los};

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

/// The final report for people.
pub fn summary_text(config: &MatchConfig, state: &MatchState) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Finished {} of {} games: {}, {}",
        state.games_done,
        state.games_total,
        config.variant,
        config.time_control.describe()
    );
    for pairing in &state.pairings {
        let wdl = pairing.wdl;
        let _ = writeln!(
            text,
            "\n{} vs {}: +{} ={} -{} ({} games), score {}",
            state.names[pairing.first],
            state.names[pairing.second],
            wdl.wins,
            wdl.draws,
            wdl.losses,
            wdl.games(),
            wdl.score()
                .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
        );
        let _ = writeln!(
            text,
            "  Elo {}, LOS {:.1}%",
            elo_text(elo_wdl(&wdl)),
            100.0 * los(&wdl)
        );
        let p = pairing.pentanomial.0;
        let _ = writeln!(
            text,
            "  pairs [0, 0.5, 1, 1.5, 2 points]: [{}, {}, {}, {}, {}], pair Elo {}",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            elo_text(elo_pentanomial(&pairing.pentanomial))
        );
        let ends: Vec<String> = pairing
            .terminations
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let _ = writeln!(text, "  endings: {}", ends.join(", "));
    }
    if state.names.len() > 2 {
        let _ = writeln!(text, "\nEngines against the field:");
        for (name, wdl) in state.names.iter().zip(&state.engines) {
            let _ = writeln!(
                text,
                "  {name}: +{} ={} -{}, score {}, Elo {}",
                wdl.wins,
                wdl.draws,
                wdl.losses,
                wdl.score()
                    .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
                elo_text(elo_wdl(wdl))
            );
        }
    }
    for (name, faults) in state.names.iter().zip(&state.faults) {
        if faults.crashes + faults.hangs + faults.illegal_moves + faults.time_forfeits > 0 {
            let _ = writeln!(
                text,
                "Faults of {name}: {} crashes, {} hangs, {} illegal moves, {} time forfeits",
                faults.crashes, faults.hangs, faults.illegal_moves, faults.time_forfeits
            );
        }
    }
    if let (Some(sprt), Some((llr, decision))) = (config.sprt, state.sprt) {
        let (lower, upper) = sprt.bounds();
        let _ = writeln!(
            text,
            "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} in [{lower:.3}, {upper:.3}]: {}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            decision.name()
        );
    }
    text
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number, or `null` for the infinite Elo of a perfect score.
fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "null".into()
    }
}

fn json_elo(estimate: Option<EloEstimate>) -> String {
    match estimate {
        Some(e) => format!(
            "{{\"elo\": {}, \"lower\": {}, \"upper\": {}}}",
            json_number(e.elo),
            json_number(e.lower),
            json_number(e.upper)
        ),
        None => "null".into(),
    }
}

/// The machine-readable summary.
pub fn summary_json(config: &MatchConfig, state: &MatchState) -> String {
    let mut json = String::from("{\n");
    let _ = writeln!(
        json,
        "  \"variant\": {},",
        json_string(config.variant.name())
    );
    let _ = writeln!(
        json,
        "  \"time_control\": {},",
        json_string(&config.time_control.describe())
    );
    let _ = writeln!(json, "  \"games_total\": {},", state.games_total);
    let _ = writeln!(json, "  \"games_played\": {},", state.games_done);
    json.push_str("  \"engines\": [\n");
    let engines: Vec<String> = state
        .names
        .iter()
        .zip(&state.engines)
        .zip(&state.faults)
        .map(|((name, wdl), faults)| {
            format!(
                "    {{\"name\": {}, \"wins\": {}, \"draws\": {}, \"losses\": {}, \"score\": {}, \
                 \"crashes\": {}, \"hangs\": {}, \"illegal_moves\": {}, \"time_forfeits\": {}}}",
                json_string(name),
                wdl.wins,
                wdl.draws,
                wdl.losses,
                wdl.score().map_or("null".into(), json_number),
                faults.crashes,
                faults.hangs,
                faults.illegal_moves,
                faults.time_forfeits
            )
        })
        .collect();
    json.push_str(&engines.join(",\n"));
    json.push_str("\n  ],\n  \"pairings\": [\n");
    let pairings: Vec<String> = state
        .pairings
        .iter()
        .map(|p| {
            let terminations: Vec<String> = p
                .terminations
                .iter()
                .map(|(kind, n)| format!("{}: {n}", json_string(kind)))
                .collect();
            format!(
                "    {{\"first\": {}, \"second\": {}, \"wins\": {}, \"draws\": {}, \"losses\": {}, \
                 \"score\": {}, \"elo\": {}, \"los\": {}, \"pentanomial\": {:?}, \
                 \"pair_elo\": {}, \"terminations\": {{{}}}}}",
                json_string(&state.names[p.first]),
                json_string(&state.names[p.second]),
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses,
                p.wdl.score().map_or("null".into(), json_number),
                json_elo(elo_wdl(&p.wdl)),
                json_number(los(&p.wdl)),
                p.pentanomial.0,
                json_elo(elo_pentanomial(&p.pentanomial)),
                terminations.join(", ")
            )
        })
        .collect();
    json.push_str(&pairings.join(",\n"));
    json.push_str("\n  ],\n");
    match (config.sprt, state.sprt) {
        (Some(sprt), llr) => {
            let (lower, upper) = sprt.bounds();
            let (llr, decision) = llr.map_or((0.0, "continue"), |(l, d)| {
                (
                    l,
                    match d {
                        super::stats::SprtDecision::AcceptH0 => "H0",
                        super::stats::SprtDecision::AcceptH1 => "H1",
                        super::stats::SprtDecision::Continue => "continue",
                    },
                )
            });
            let _ = writeln!(
                json,
                "  \"sprt\": {{\"elo0\": {}, \"elo1\": {}, \"alpha\": {}, \"beta\": {}, \
                 \"llr\": {}, \"lower\": {}, \"upper\": {}, \"result\": {}}}",
                json_number(sprt.elo0),
                json_number(sprt.elo1),
                json_number(sprt.alpha),
                json_number(sprt.beta),
                json_number(llr),
                json_number(lower),
                json_number(upper),
                json_string(decision)
            );
        }
        (None, _) => json.push_str("  \"sprt\": null\n"),
    }
    json.push_str("}\n");
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
        assert_eq!(json_number(f64::INFINITY), "null");
        assert_eq!(json_number(1.5), "1.5000");
    }
}
