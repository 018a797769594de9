//! Fitting the evaluation's weights to training data: least squares on what each position is
//! worth (the exact value where the tables know it, else a blend of the game's final margin and a
//! search's score), with whole games held out to show that the fit generalises.
//!
//! The evaluation is linear in its weights (`eval::features`), and material is exact (100 per
//! counter), so the fit solves the normal equations of the other terms: a handful of unknowns,
//! solved exactly, with a little ridge to keep terms that the data cannot tell apart near zero.

use super::data::Record;
use crate::rules::Variant;
use crate::search::eval::{Features, Weights, features, weights};

/// Which terms a game's evaluation has, in the order of `Features::as_array` (material first,
/// which is not fitted).
fn terms(variant: Variant) -> [bool; 7] {
    match variant {
        Variant::MangalaII | Variant::AlManqala => [false, true, true, true, true, false, false],
        Variant::Anywoli => [false, true, true, false, true, true, true],
        Variant::MangalaIV => [false; 7],
    }
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

/// One position ready for fitting.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub features: [f64; 7],
    pub target: f64,
    pub held_out: bool,
}

/// Whole games whose number is a multiple of this are held out.
pub const HOLD_OUT_EVERY: u64 = 10;

pub fn samples(records: &[Record], target: Target) -> Vec<Sample> {
    records
        .iter()
        .map(|r| {
            let f: Features = features(&r.position);
            Sample {
                features: f.as_array().map(f64::from),
                target: target.of(r),
                held_out: r.game % HOLD_OUT_EVERY == 0,
            }
        })
        .collect()
}

/// Root mean square error, in counters, of `coefficients` on the samples `which` selects.
pub fn rmse(samples: &[Sample], c: &[f64; 7], which: impl Fn(&Sample) -> bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0u64);
    for s in samples.iter().filter(|s| which(s)) {
        let predicted: f64 = s.features.iter().zip(c).map(|(f, w)| f * w).sum();
        // The evaluation is clamped far beyond any real margin: no clamp needed here.
        sum += (predicted - s.target).powi(2);
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
    pub before: Weights,
    pub after: Weights,
    pub train: usize,
    pub held_out: usize,
    /// RMSE in counters: (before, after) on the training part and on the held-out part.
    pub rmse_train: (f64, f64),
    pub rmse_held_out: (f64, f64),
}

/// Ridge: a small pull towards zero, per sample, on the normal equations' diagonal.
const RIDGE: f64 = 1e-3;

/// Fits the weights of `variant` to `samples` (training part only).
pub fn fit(variant: Variant, samples: &[Sample]) -> Result<Fit, String> {
    let active: Vec<usize> = (0..7).filter(|&i| terms(variant)[i]).collect();
    if active.is_empty() {
        return Err(format!("{variant} has no choice of move: nothing to tune"));
    }
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    if train.len() < 10 * active.len() {
        return Err(format!(
            "{} positions to learn from are too few (at least {})",
            train.len(),
            10 * active.len()
        ));
    }
    let k = active.len();
    // Normal equations A x = b for the active terms; material's part is known (100 per counter).
    let mut a = vec![vec![0.0; k]; k];
    let mut b = vec![0.0; k];
    for s in &train {
        let residual = s.target - 100.0 * s.features[0];
        for (i, &ti) in active.iter().enumerate() {
            b[i] += s.features[ti] * residual;
            for (j, &tj) in active.iter().enumerate() {
                a[i][j] += s.features[ti] * s.features[tj];
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += RIDGE * train.len() as f64;
    }
    let x = solve(a, b).ok_or("the terms cannot be told apart on this data")?;
    let mut c = [0.0; 7];
    c[0] = 100.0;
    for (i, &t) in active.iter().enumerate() {
        c[t] = x[i];
    }
    let before = weights(variant);
    let after = to_weights(&c);
    // Errors of the weights as they would be used (rounded).
    let (cb, ca) = (coefficients(&before), coefficients(&after));
    Ok(Fit {
        variant,
        before,
        after,
        train: train.len(),
        held_out: samples.len() - train.len(),
        rmse_train: (
            rmse(samples, &cb, |s| !s.held_out),
            rmse(samples, &ca, |s| !s.held_out),
        ),
        rmse_held_out: (
            rmse(samples, &cb, |s| s.held_out),
            rmse(samples, &ca, |s| s.held_out),
        ),
    })
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

/// The generated source file of tuned weights: every game's weights, and how they were made.
pub fn source(fits: &[(Fit, String)], command: &str, all: &[(Variant, Weights)]) -> String {
    let mut text = String::new();
    text.push_str("//! The evaluation's weights, generated by `mancala-engine tune`: do not edit by hand, re-run it.\n");
    text.push_str(&format!("//!\n//! Command: `{command}`\n"));
    for (fit, data) in fits {
        text.push_str(&format!(
            "//! {}: fitted to {} positions ({} held out) of `{data}`; RMSE in counters, held-out part: {:.3} before, {:.3} after.\n",
            fit.variant, fit.train, fit.held_out, fit.rmse_held_out.0, fit.rmse_held_out.1
        ));
    }
    for (variant, _) in all {
        if !fits.iter().any(|(fit, _)| fit.variant == *variant) {
            text.push_str(&format!(
                "//! {variant}: not fitted here; the weights of the build that ran `tune`.\n"
            ));
        }
    }
    text.push_str("\nuse super::eval::Weights;\n");
    for (variant, w) in all {
        let name = variant.to_string().to_uppercase().replace('-', "_");
        text.push_str(&format!(
            "\npub const {name}: Weights = Weights {{\n    material: {},\n    row: {},\n    mobility: {},\n    threat_pct: {},\n    big_pit: {},\n    threes: {},\n    leftover_pct: {},\n}};\n",
            w.material, w.row, w.mobility, w.threat_pct, w.big_pit, w.threes, w.leftover_pct
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

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
        // engine's evaluation (up to the leftover term's rounding).
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
        assert_eq!(value as i32, crate::search::eval::evaluate(&pos));
        assert_eq!(to_weights(&c), weights(Variant::MangalaII));
    }

    #[test]
    fn a_fit_recovers_weights_that_made_the_targets() {
        // Targets made by known weights from real positions: the fit finds them again.
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
        let mut samples = Vec::new();
        let mut game =
            crate::rules::Game::new(Position::start(Variant::MangalaII), Default::default());
        let mut rng = crate::rules::SplitMix64::new(5);
        for n in 0..4000u64 {
            if game.is_over() {
                game = crate::rules::Game::new(
                    Position::start(Variant::MangalaII),
                    Default::default(),
                );
            }
            let legal = game.legal_moves();
            let mv = legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize];
            game.play(mv).unwrap();
            let f = features(game.position()).as_array().map(f64::from);
            let target = f.iter().zip(&c).map(|(f, w)| f * w).sum();
            samples.push(Sample {
                features: f,
                target,
                held_out: n % 10 == 0,
            });
        }
        let fit = fit(Variant::MangalaII, &samples).unwrap();
        assert_eq!(fit.after, known, "{fit:?}");
        assert!(fit.rmse_held_out.1 < 0.01, "{fit:?}");
    }
}
