//! The machine-readable summary of a match (its JSON, through serde), and the merging of the
//! summaries of a run's shards into the summary of the whole run.
//!
//! A summary holds the counts (per pairing: wins, draws, losses, pairs, endings; per engine: its
//! results and faults) and what is derived from them (score, Elo, LOS, the SPRT's state), which a
//! merge derives again from the summed counts. The `run` part says what was played; shards of one
//! run share it, and summaries of different runs are refused.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::config::{EngineSpec, MatchConfig, OpeningSource, Shard, Tournament};
use super::runner::MatchState;
use super::stats::{
    EloEstimate, Pentanomial, Sprt, SprtDecision, Wdl, elo_pentanomial, elo_wdl, los,
};

/// Format version of the summary.
pub const SUMMARY_VERSION: u32 = 2;

/// What a run played: everything that decides which games are played and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub variant: String,
    pub last_four: String,
    pub tournament: Tournament,
    /// Games per pairing in the whole run.
    pub games: u32,
    /// The match's limit, and each engine's (its own or the match's).
    pub time_control: String,
    pub engines: Vec<RunEngine>,
    pub openings: String,
    pub seed: u64,
    pub max_plies: Option<u32>,
    pub time_margin_ms: u64,
    pub sprt: Option<SprtParameters>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunEngine {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub limit: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtParameters {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Elo with the bounds of its 95% interval; `null` where infinite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloJson {
    pub elo: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
}

impl From<EloEstimate> for EloJson {
    fn from(e: EloEstimate) -> EloJson {
        let finite = |x: f64| x.is_finite().then_some(x);
        EloJson {
            elo: finite(e.elo),
            lower: finite(e.lower),
            upper: finite(e.upper),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineResult {
    pub name: String,
    pub limit: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: Option<f64>,
    pub crashes: u32,
    pub hangs: u32,
    pub illegal_moves: u32,
    pub time_forfeits: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingResult {
    pub first: String,
    pub second: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Pairs (both games of an opening) that scored 0, ½, 1, 1½ and 2 points for `first`.
    pub pentanomial: [u32; 5],
    pub terminations: BTreeMap<String, u32>,
    pub score: Option<f64>,
    pub elo: Option<EloJson>,
    pub los: f64,
    pub pair_elo: Option<EloJson>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    #[serde(flatten)]
    pub parameters: SprtParameters,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub result: String,
}

/// The summary of a run, of one of its shards, or of shards merged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub format: u32,
    pub run: Run,
    /// The shard (`index` of `count`), or `null` for a whole run.
    pub shard: Option<Shard>,
    /// For merged shards: which of the run's shards are in.
    pub shards_merged: Option<Vec<u32>>,
    /// For a merge of some of the shards: those missing, and the number the run was cut into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards_missing: Option<(Vec<u32>, u32)>,
    pub games_total: u64,
    pub games_played: u64,
    pub engines: Vec<EngineResult>,
    pub pairings: Vec<PairingResult>,
    pub sprt: Option<SprtState>,
}

fn sprt_of(parameters: SprtParameters) -> Sprt {
    Sprt {
        elo0: parameters.elo0,
        elo1: parameters.elo1,
        alpha: parameters.alpha,
        beta: parameters.beta,
    }
}

fn decision_name(decision: SprtDecision) -> &'static str {
    match decision {
        SprtDecision::AcceptH0 => "H0",
        SprtDecision::AcceptH1 => "H1",
        SprtDecision::Continue => "continue",
    }
}

impl Run {
    pub fn of(config: &MatchConfig, names: &[String]) -> Run {
        let engine = |(i, spec): (usize, &EngineSpec)| RunEngine {
            name: names[i].clone(),
            command: spec.command.clone(),
            args: spec.args.clone(),
            options: spec.options.clone(),
            limit: config.limit_of(i).describe(),
        };
        Run {
            variant: config.variant.name().to_string(),
            last_four: config.last_four_rule.name().to_string(),
            tournament: config.tournament,
            games: config.games,
            time_control: config.time_control.describe(),
            engines: config.engines.iter().enumerate().map(engine).collect(),
            openings: match &config.openings {
                OpeningSource::File(path) => format!("file {}", path.display()),
                OpeningSource::Random { plies } => format!("random {plies} plies"),
            },
            seed: config.seed,
            max_plies: config.max_plies,
            time_margin_ms: config.time_margin.as_millis() as u64,
            sprt: config.sprt.map(|s| SprtParameters {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
            }),
        }
    }

    /// Whether the engines play under limits of their own (a time-odds match).
    pub fn has_engine_limits(&self) -> bool {
        self.engines.iter().any(|e| e.limit != self.time_control)
    }
}

impl PairingResult {
    fn derive(mut self) -> PairingResult {
        let wdl = Wdl {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        };
        self.score = wdl.score();
        self.elo = elo_wdl(&wdl).map(EloJson::from);
        self.los = los(&wdl);
        self.pair_elo = elo_pentanomial(&Pentanomial(self.pentanomial)).map(EloJson::from);
        self
    }
}

impl Summary {
    /// The summary of a (shard of a) match from its final state.
    pub fn of(config: &MatchConfig, state: &MatchState) -> Summary {
        let limits: Vec<String> = (0..config.engines.len())
            .map(|i| config.limit_of(i).describe())
            .collect();
        let engines = state
            .names
            .iter()
            .zip(&state.engines)
            .zip(&state.faults)
            .zip(limits)
            .map(|(((name, wdl), faults), limit)| EngineResult {
                name: name.clone(),
                limit,
                wins: wdl.wins,
                draws: wdl.draws,
                losses: wdl.losses,
                score: wdl.score(),
                crashes: faults.crashes,
                hangs: faults.hangs,
                illegal_moves: faults.illegal_moves,
                time_forfeits: faults.time_forfeits,
            })
            .collect();
        let pairings = state
            .pairings
            .iter()
            .map(|p| {
                PairingResult {
                    first: state.names[p.first].clone(),
                    second: state.names[p.second].clone(),
                    wins: p.wdl.wins,
                    draws: p.wdl.draws,
                    losses: p.wdl.losses,
                    pentanomial: p.pentanomial.0,
                    terminations: p.terminations.clone(),
                    score: None,
                    elo: None,
                    los: 0.0,
                    pair_elo: None,
                }
                .derive()
            })
            .collect();
        let mut summary = Summary {
            format: SUMMARY_VERSION,
            run: Run::of(config, &state.names),
            shard: config.shard,
            shards_merged: None,
            shards_missing: None,
            games_total: state.games_total,
            games_played: state.games_done,
            engines,
            pairings,
            sprt: None,
        };
        summary.derive_sprt();
        summary
    }

    fn derive_sprt(&mut self) {
        self.sprt = self.run.sprt.map(|parameters| {
            let sprt = sprt_of(parameters);
            let pairs = self
                .pairings
                .first()
                .map_or(Pentanomial::default(), |p| Pentanomial(p.pentanomial));
            let llr = sprt.llr_pentanomial(&pairs);
            let (lower, upper) = sprt.bounds();
            SprtState {
                parameters,
                llr,
                lower,
                upper,
                result: decision_name(sprt.decide(llr)).to_string(),
            }
        });
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a summary always serialises") + "\n"
    }

    pub fn from_json(text: &str) -> Result<Summary, String> {
        let summary: Summary =
            serde_json::from_str(text).map_err(|e| format!("not a mancala-match summary: {e}"))?;
        if summary.format != SUMMARY_VERSION {
            return Err(format!(
                "a summary of format {}, this mancala-match reads format {SUMMARY_VERSION}",
                summary.format
            ));
        }
        Ok(summary)
    }
}

/// Combines the summaries of shards of one run: the counts summed, everything derived again.
/// Refuses summaries of different runs, whole runs, and a shard given twice.
pub fn merge(inputs: &[(PathBuf, Summary)]) -> Result<Summary, String> {
    let Some((first_path, first)) = inputs.first() else {
        return Err("nothing to merge".into());
    };
    let mut seen = Vec::new();
    for (path, summary) in inputs {
        if summary.run != first.run {
            return Err(format!(
                "{} is a summary of another run than {} (engines, game, limits, games, openings \
                 or seed differ)",
                path.display(),
                first_path.display()
            ));
        }
        let Some(shard) = summary.shard else {
            return Err(format!(
                "{} is not the summary of a shard (it was played without --shard)",
                path.display()
            ));
        };
        if shard.count != first.shard.map_or(0, |s| s.count) {
            return Err(format!(
                "{} is shard {}/{} of a run cut into another number of shards",
                path.display(),
                shard.index,
                shard.count
            ));
        }
        if seen.contains(&shard.index) {
            return Err(format!(
                "shard {}/{} is given twice ({})",
                shard.index,
                shard.count,
                path.display()
            ));
        }
        seen.push(shard.index);
    }
    seen.sort_unstable();
    let count = first.shard.map_or(1, |s| s.count);
    let mut merged = first.clone();
    for (_, summary) in &inputs[1..] {
        merged.games_total += summary.games_total;
        merged.games_played += summary.games_played;
        for (into, from) in merged.engines.iter_mut().zip(&summary.engines) {
            into.wins += from.wins;
            into.draws += from.draws;
            into.losses += from.losses;
            into.crashes += from.crashes;
            into.hangs += from.hangs;
            into.illegal_moves += from.illegal_moves;
            into.time_forfeits += from.time_forfeits;
        }
        for (into, from) in merged.pairings.iter_mut().zip(&summary.pairings) {
            into.wins += from.wins;
            into.draws += from.draws;
            into.losses += from.losses;
            for (a, b) in into.pentanomial.iter_mut().zip(from.pentanomial) {
                *a += b;
            }
            for (kind, n) in &from.terminations {
                *into.terminations.entry(kind.clone()).or_default() += n;
            }
        }
    }
    for engine in &mut merged.engines {
        engine.score = Wdl {
            wins: engine.wins,
            draws: engine.draws,
            losses: engine.losses,
        }
        .score();
    }
    merged.pairings = merged
        .pairings
        .into_iter()
        .map(PairingResult::derive)
        .collect();
    merged.shard = None;
    if seen.len() as u32 == count {
        merged.shards_merged = None;
        merged.shards_missing = None;
    } else {
        let missing = (1..=count).filter(|k| !seen.contains(k)).collect();
        merged.shards_merged = Some(seen);
        merged.shards_missing = Some((missing, count));
    }
    merged.derive_sprt();
    Ok(merged)
}
