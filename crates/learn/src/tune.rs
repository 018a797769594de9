//! Fitting the evaluation's weights to training data: least squares on what each position is
//! worth (the exact value where the tables know it, else a blend of the game's final margin and a
//! search's score), with whole games held out to show that the fit generalises.
//!
//! The evaluation is linear in its weights (`eval::features`, and the pit tables), and material
//! is exact (100 per counter), so the fit solves the normal equations of the other terms, with a
//! little ridge to keep what the data cannot tell apart near zero. Two models: `Terms` fits the
//! hand-made terms (a few unknowns); `Pits` fits a value for every count in every pit of both
//! rows, with the opponent's threat and Anywoli's leftover (hundreds of unknowns, each position
//! touching only its own pits' entries); `TaperedPits` fits two such tables, one for a full board
//! and one for an empty board, which the evaluation blends by the counters on the board.

use super::data::Record;
use mancala_engine::eval::{
    COUNT_BUCKETS, PitValues, Weights, WeightsFile, bucket, evaluate_parts, features, weights,
};
use mancala_rules::{Laps, Variant};

/// What the fit may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The terms' weights: row, mobility, threat, big pits, threes, leftover.
    Terms,
    /// A table of count values per pit for both rows, plus threat and leftover.
    Pits,
    /// As `Pits`, with a second table for the late game.
    TaperedPits,
}

/// One unknown of the fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unknown {
    /// The term of `Features::as_array` with this index.
    Term(usize),
    /// The value of `count` bucket in pit `pit` of the mover's row (`theirs`: the other row),
    /// in the full-board table (`late`: the empty-board one).
    Pit {
        theirs: bool,
        pit: usize,
        count: usize,
        late: bool,
    },
}

/// The terms each game's evaluation has, by index of `Features::as_array` (material, row,
/// mobility, threat, big pits, threes, leftover); material is never fitted.
fn terms(variant: Variant, model: Model) -> Vec<usize> {
    // One-lap games have the threat term; relay games the big pits, threes and leftover ones.
    let one_lap = matches!(variant.rules().laps, Laps::Single { .. });
    let candidates: &[usize] = match model {
        Model::Terms if one_lap => &[1, 2, 3, 4],
        Model::Terms => &[1, 2, 4, 5, 6],
        Model::Pits | Model::TaperedPits if one_lap => &[3],
        Model::Pits | Model::TaperedPits => &[6],
    };
    // Where moves are forced the search plays the game out: nothing to fit.
    if variant.rules().has_forced_moves() {
        return Vec::new();
    }
    candidates.to_vec()
}

fn unknowns(variant: Variant, model: Model) -> Vec<Unknown> {
    let mut list: Vec<Unknown> = terms(variant, model)
        .into_iter()
        .map(Unknown::Term)
        .collect();
    let sets: &[bool] = match model {
        Model::Terms => &[],
        Model::Pits => &[false],
        Model::TaperedPits => &[false, true],
    };
    if !variant.rules().has_forced_moves() {
        for &late in sets {
            for theirs in [false, true] {
                for pit in 0..variant.rules().pits_per_row {
                    for count in 0..COUNT_BUCKETS {
                        list.push(Unknown::Pit {
                            theirs,
                            pit,
                            count,
                            late,
                        });
                    }
                }
            }
        }
    }
    list
}

/// How a record's target value is made.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The share of the game's final margin against the search's score (0 to 1).
    pub lambda: f64,
}

impl Target {
    /// What the position is worth, centi-counters for the side to move.
    pub fn of(&self, record: &Record) -> f64 {
        match record.exact {
            Some(exact) => 100.0 * exact as f64,
            None => {
                self.lambda * 100.0 * record.margin as f64
                    + (1.0 - self.lambda) * record.search as f64
            }
        }
    }
}

/// One position ready for fitting: its values of the unknowns (sparse), the part of its
/// evaluation that is not fitted (material), what it is worth, and what the build's own
/// evaluation says of it.
#[derive(Clone, Debug)]
pub struct Sample {
    x: Vec<(u32, f64)>,
    known: f64,
    pub target: f64,
    pub before: f64,
    pub held_out: bool,
}

/// Whole games whose number is a multiple of this are held out.
pub const HOLD_OUT_EVERY: u64 = 10;

/// One game's training data, pooled from the files given for it.
pub struct GameData {
    pub variant: Variant,
    /// Each file's header line (without `# `), in the order given.
    pub headers: Vec<String>,
    pub records: Vec<Record>,
}

impl GameData {
    /// The data's description for a written file's `data` field: each file's header, `; `
    /// between them.
    pub fn description(&self) -> String {
        self.headers.join("; ")
    }
}

/// Reads datagen files (each names its game in its header line) and pools the files of one game
/// into one set, in the order given. Game numbers restart in every file: they are offset, so
/// that whole games stay whole (held out or not) and games of different files stay apart.
pub fn read_files(files: &[std::path::PathBuf]) -> Result<Vec<GameData>, String> {
    let mut games: Vec<GameData> = Vec::new();
    for file in files {
        let name = file.display();
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {name}: {e}"))?;
        let header = text.lines().next().unwrap_or("");
        let variant = header
            .strip_prefix("# mancala-engine datagen ")
            .and_then(|rest| rest.split_whitespace().next())
            .ok_or(format!("{name}: not a datagen file (no header line)"))?
            .parse::<Variant>()
            .map_err(|e| format!("{name}: {e}"))?;
        let index = match games.iter().position(|game| game.variant == variant) {
            Some(index) => index,
            None => {
                games.push(GameData {
                    variant,
                    headers: Vec::new(),
                    records: Vec::new(),
                });
                games.len() - 1
            }
        };
        let game = &mut games[index];
        game.headers
            .push(header.trim_start_matches("# ").to_string());
        let offset = game.records.iter().map(|r| r.game + 1).max().unwrap_or(0);
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut record =
                Record::parse(variant, line).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
            record.game += offset;
            game.records.push(record);
        }
    }
    Ok(games)
}

pub fn samples(variant: Variant, model: Model, records: &[Record], target: Target) -> Vec<Sample> {
    let list = unknowns(variant, model);
    records
        .iter()
        .map(|r| {
            let pos = &r.position;
            let f = features(pos).as_array();
            let mut x = Vec::new();
            let me = pos.side_to_move();
            // The full-board table's share of a tapered evaluation.
            let full = match model {
                Model::TaperedPits => pos.on_board() as f64 / pos.rules().total() as f64,
                _ => 1.0,
            };
            for (i, unknown) in list.iter().enumerate() {
                let value = match *unknown {
                    Unknown::Term(t) => f[t] as f64,
                    Unknown::Pit {
                        theirs,
                        pit,
                        count,
                        late,
                    } => {
                        let side = if theirs { me.opponent() } else { me };
                        let c = pos.pits()[pos.row(side).start + pit];
                        match (bucket(c) == count, late) {
                            (false, _) => 0.0,
                            (true, false) => full,
                            (true, true) => 1.0 - full,
                        }
                    }
                };
                if value != 0.0 {
                    x.push((i as u32, value));
                }
            }
            Sample {
                x,
                known: 100.0 * f[0] as f64,
                target: target.of(r),
                before: evaluate_parts(pos).total() as f64,
                held_out: r.game % HOLD_OUT_EVERY == 0,
            }
        })
        .collect()
}

/// Root mean square error, in counters, of `predict` on the samples `which` selects.
fn rmse(
    samples: &[Sample],
    predict: impl Fn(&Sample) -> f64,
    which: impl Fn(&Sample) -> bool,
) -> f64 {
    let (mut sum, mut n) = (0.0, 0u64);
    for s in samples.iter().filter(|s| which(s)) {
        sum += (predict(s) - s.target).powi(2);
        n += 1;
    }
    if n == 0 {
        f64::NAN
    } else {
        (sum / n as f64).sqrt() / 100.0
    }
}

/// The result of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    pub variant: Variant,
    pub model: Model,
    pub before: Weights,
    pub after: Weights,
    pub pits: PitValues,
    pub train: usize,
    pub held_out: usize,
    /// RMSE in counters: (the build's evaluation, the fitted one) on the training part and on
    /// the held-out part.
    pub rmse_train: (f64, f64),
    pub rmse_held_out: (f64, f64),
}

/// Ridge: a small pull towards zero, per sample, on the normal equations' diagonal.
const RIDGE: f64 = 1e-3;

/// Fits the unknowns of `model` for `variant` to `samples` (training part only).
pub fn fit(variant: Variant, model: Model, samples: &[Sample]) -> Result<Fit, String> {
    let list = unknowns(variant, model);
    if list.is_empty() {
        return Err(format!("{variant} has no choice of move: nothing to tune"));
    }
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let k = list.len();
    if train.len() < 10 * k {
        return Err(format!(
            "{} positions to learn from are too few (at least {})",
            train.len(),
            10 * k
        ));
    }
    let mut a = vec![vec![0.0; k]; k];
    let mut b = vec![0.0; k];
    for s in &train {
        let residual = s.target - s.known;
        for &(i, xi) in &s.x {
            b[i as usize] += xi * residual;
            for &(j, xj) in &s.x {
                a[i as usize][j as usize] += xi * xj;
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += RIDGE * train.len() as f64;
    }
    let x = solve(a, b).ok_or("the terms cannot be told apart on this data")?;
    let rounded: Vec<f64> = x.iter().map(|v| v.round()).collect();
    // The fitted evaluation as the engine will use it: whole centi-counters (the leftover term
    // in percent).
    let mut terms = [100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let mut pits = PitValues {
        used: model != Model::Terms,
        tapered: model == Model::TaperedPits,
        ..PitValues::NONE
    };
    for (unknown, &v) in list.iter().zip(&x) {
        match *unknown {
            Unknown::Term(t) => terms[t] = v,
            Unknown::Pit {
                theirs,
                pit,
                count,
                late,
            } => {
                let table = match (theirs, late) {
                    (false, false) => &mut pits.mine,
                    (true, false) => &mut pits.theirs,
                    (false, true) => &mut pits.mine_late,
                    (true, true) => &mut pits.theirs_late,
                };
                table[pit][count] = v.round() as i32;
            }
        }
    }
    let after = to_weights(&terms);
    let coefficient = |i: usize| match list[i] {
        Unknown::Term(t) => coefficients(&after)[t],
        Unknown::Pit { .. } => rounded[i],
    };
    let predict = |s: &Sample| {
        s.known
            + s.x
                .iter()
                .map(|&(i, v)| v * coefficient(i as usize))
                .sum::<f64>()
    };
    Ok(Fit {
        variant,
        model,
        before: weights(variant),
        after,
        pits,
        train: train.len(),
        held_out: samples.len() - train.len(),
        rmse_train: (
            rmse(samples, |s| s.before, |s| !s.held_out),
            rmse(samples, predict, |s| !s.held_out),
        ),
        rmse_held_out: (
            rmse(samples, |s| s.before, |s| s.held_out),
            rmse(samples, predict, |s| s.held_out),
        ),
    })
}

/// `weights` as the coefficients of `Features::as_array` (centi-counters per unit).
fn coefficients(w: &Weights) -> [f64; 7] {
    [
        w.material as f64,
        w.row as f64,
        w.mobility as f64,
        -(w.threat_pct as f64),
        w.big_pit as f64,
        w.threes as f64,
        w.leftover_pct as f64 / 100.0,
    ]
}

fn to_weights(c: &[f64; 7]) -> Weights {
    Weights {
        material: c[0].round() as i32,
        row: c[1].round() as i32,
        mobility: c[2].round() as i32,
        threat_pct: (-c[3]).round() as i32,
        big_pit: c[4].round() as i32,
        threes: c[5].round() as i32,
        leftover_pct: (c[6] * 100.0).round() as i32,
    }
}

/// Gaussian elimination with partial pivoting; `None` if singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (value, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *value -= factor * p;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let sum: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - sum) / a[row][row];
    }
    Some(x)
}

/// A fit as the weights file that `tune --save` / `--write` writes: `data` names the data it was
/// fitted to, `command` the command that fitted it.
pub fn weights_file(fit: &Fit, data: &str, command: &str) -> WeightsFile {
    WeightsFile {
        variant: fit.variant,
        model: match fit.model {
            Model::Terms => "terms",
            Model::Pits => "pits",
            Model::TaperedPits => "tapered-pits",
        }
        .to_string(),
        data: data.to_string(),
        command: command.to_string(),
        weights: fit.after,
        pits: fit.pits,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use mancala_rules::Position;

    #[test]
    fn solve_solves() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![3.0, 5.0]).unwrap();
        assert!(
            (x[0] - 0.8).abs() < 1e-9 && (x[1] - 1.4).abs() < 1e-9,
            "{x:?}"
        );
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }

    #[test]
    fn weights_and_coefficients_agree_with_the_evaluation() {
        // The coefficients of the engine's own weights, applied to the features, give the
        // engine's evaluation (up to the leftover term's rounding) with the pit tables' sum.
        let pos =
            Position::from_position_string(Variant::MangalaII, "0-7-7-7-7-7-7-6-6-6-6-6-0-0-N")
                .unwrap();
        let c = coefficients(&weights(Variant::MangalaII));
        let value: f64 = features(&pos)
            .as_array()
            .iter()
            .zip(&c)
            .map(|(&f, w)| f as f64 * w)
            .sum();
        // The fit is of the linear part; the network (if the game has one) comes on top.
        let parts = evaluate_parts(&pos);
        assert_eq!(value as i32 + parts.pits, parts.linear());
        assert_eq!(
            parts.linear() + parts.network,
            mancala_engine::eval::evaluate(&pos)
        );
        assert_eq!(to_weights(&c), weights(Variant::MangalaII));
    }

    /// Records of positions from random games, each "searched" at the value `value` gives it.
    pub(crate) fn records(variant: Variant, value: impl Fn(&Position) -> i32) -> Vec<Record> {
        let mut records = Vec::new();
        let start = Position::start(variant);
        let mut game = mancala_rules::Game::new(start, Default::default());
        let mut rng = mancala_rules::SplitMix64::new(5);
        for n in 0..6000u64 {
            if game.is_over() {
                game = mancala_rules::Game::new(start, Default::default());
            }
            let legal = game.legal_moves();
            let mv = legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize];
            game.play(mv).unwrap();
            let position = *game.position();
            records.push(Record {
                position,
                search: value(&position),
                margin: 0,
                exact: None,
                game: n / 40,
            });
        }
        records
    }

    #[test]
    fn a_fit_recovers_weights_that_made_the_targets() {
        let known = Weights {
            material: 100,
            row: 7,
            mobility: 3,
            threat_pct: 20,
            big_pit: 15,
            threes: 0,
            leftover_pct: 0,
        };
        let c = coefficients(&known);
        let records = records(Variant::MangalaII, |pos| {
            let f = features(pos).as_array();
            f.iter().zip(&c).map(|(&f, w)| f as f64 * w).sum::<f64>() as i32
        });
        let samples = samples(
            Variant::MangalaII,
            Model::Terms,
            &records,
            Target { lambda: 0.0 },
        );
        let fit = fit(Variant::MangalaII, Model::Terms, &samples).unwrap();
        assert_eq!(fit.after, known, "{fit:?}");
        assert!(fit.rmse_held_out.1 < 0.01, "{fit:?}");
        assert!(!fit.pits.used);
    }

    #[test]
    fn a_fit_of_pit_tables_learns_what_each_count_is_worth() {
        // Targets that only pit tables can express: each pit's count matters by its place.
        let worth = |pos: &Position| {
            let me = pos.side_to_move();
            let mine = &pos.pits()[pos.row(me)];
            let theirs = &pos.pits()[pos.row(me.opponent())];
            let mut v = 100 * pos.captured(me) as i32 - 100 * pos.captured(me.opponent()) as i32;
            for p in 0..mine.len() {
                v += (p as i32 + 1) * [0, 30, -20, 50][mine[p].min(3) as usize];
                v -= [0, 10, 40, 0][theirs[p].min(3) as usize];
            }
            v
        };
        let records = records(Variant::AlManqala, worth);
        let samples = samples(
            Variant::AlManqala,
            Model::Pits,
            &records,
            Target { lambda: 0.0 },
        );
        let fit = fit(Variant::AlManqala, Model::Pits, &samples).unwrap();
        assert!(fit.pits.used);
        assert!(fit.rmse_held_out.1 < 0.2, "{:?}", fit.rmse_held_out);
        assert!(fit.rmse_held_out.0 > 1.0, "{:?}", fit.rmse_held_out);
        // The pit tables alone carry it: the hand-made terms are left out.
        assert_eq!(
            (fit.after.row, fit.after.mobility, fit.after.big_pit),
            (0, 0, 0)
        );
    }

    #[test]
    fn a_tapered_fit_tells_the_full_board_from_the_empty_one() {
        // A one in the mover's first pit is worth +60 on a full board and -60 on an empty one,
        // linearly in between: one table cannot say it, two blended by the board can.
        let worth = |pos: &Position| {
            let me = pos.side_to_move();
            let material = 100 * pos.captured_margin();
            let full = pos.on_board() as f64 / pos.rules().total() as f64;
            let one_first = (pos.pits()[pos.row(me).start] == 1) as i32 as f64;
            material + (one_first * (60.0 * full - 60.0 * (1.0 - full))).round() as i32
        };
        let records = records(Variant::AlManqala, worth);
        let fitted = |model| {
            let samples = samples(Variant::AlManqala, model, &records, Target { lambda: 0.0 });
            fit(Variant::AlManqala, model, &samples).unwrap()
        };
        let (flat, tapered) = (fitted(Model::Pits), fitted(Model::TaperedPits));
        assert!(!flat.pits.tapered && tapered.pits.tapered);
        assert!(
            tapered.rmse_held_out.1 < 0.5 * flat.rmse_held_out.1,
            "tapered {:?}, flat {:?}",
            tapered.rmse_held_out,
            flat.rmse_held_out
        );
        let (full, late) = (tapered.pits.mine[0][1], tapered.pits.mine_late[0][1]);
        assert!(
            (50..=70).contains(&full) && (-70..=-50).contains(&late),
            "{full} {late}"
        );
        // The weights file carries both tables, and an untapered one only the full board's.
        let text = weights_file(&tapered, "data", "tune").write();
        assert!(text.contains("model = \"tapered-pits\""), "{text}");
        assert!(text.contains("\nmine-late-A = ["), "{text}");
        let flat_text = weights_file(&flat, "data", "tune").write();
        assert!(flat_text.contains("model = \"pits\""), "{flat_text}");
        assert!(!flat_text.contains("mine-late"), "{flat_text}");
        let back = WeightsFile::parse(&text).unwrap();
        assert_eq!((back.weights, back.pits), (tapered.after, tapered.pits));
    }
}
