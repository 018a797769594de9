//! Match statistics: Elo with a 95% interval, likelihood of superiority, pair (pentanomial)
//! statistics and the sequential probability ratio test, all on the logistic Elo scale.

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player (or of the first engine of a pairing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The score as a fraction of the points available, `None` before any game.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    /// Adds one game's points (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }
}

/// Pairs of games (one opening, sides swapped) counted by the points the first engine made in
/// the pair: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair scoring `points` (0 to 2 in steps of ½).
    pub fn add(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }
}

/// Converts an expected score into an Elo difference (±∞ at 100% and 0%).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    fn from_samples(mean: f64, variance: f64, samples: u32) -> EloEstimate {
        let error = (variance / samples as f64).sqrt();
        EloEstimate {
            elo: elo_from_score(mean),
            lower: elo_from_score(mean - Z95 * error),
            upper: elo_from_score(mean + Z95 * error),
        }
    }
}

/// Mean and variance of a distribution over scores `values` with counts `counts`.
fn mean_variance(values: &[f64], counts: &[f64]) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    let mean = values.iter().zip(counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let variance = values
        .iter()
        .zip(counts)
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, variance)
}

const GAME_SCORES: [f64; 3] = [1.0, 0.5, 0.0];
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn wdl_counts(wdl: &Wdl) -> [f64; 3] {
    [wdl.wins as f64, wdl.draws as f64, wdl.losses as f64]
}

/// Elo and its 95% interval from game results, treating games as independent.
pub fn elo_wdl(wdl: &Wdl) -> Option<EloEstimate> {
    (wdl.games() > 0).then(|| {
        let (mean, variance) = mean_variance(&GAME_SCORES, &wdl_counts(wdl));
        EloEstimate::from_samples(mean, variance, wdl.games())
    })
}

/// Elo and its 95% interval from pairs: narrower than [`elo_wdl`] when the opening decides much,
/// because the two games of a pair are not independent.
pub fn elo_pentanomial(pairs: &Pentanomial) -> Option<EloEstimate> {
    (pairs.pairs() > 0).then(|| {
        let counts = pairs.0.map(f64::from);
        let (mean, variance) = mean_variance(&PAIR_SCORES, &counts);
        EloEstimate::from_samples(mean, variance, pairs.pairs())
    })
}

/// Likelihood of superiority: the probability that the first engine is the stronger, from wins
/// and losses (draws carry no information about it).
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
}

/// The error function (libm's, correctly rounded to a few ulps).
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// A sequential probability ratio test of H0 "Elo = elo0" against H1 "Elo = elo1".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 accepted: the first engine is not `elo1` stronger.
    AcceptH0,
    /// H1 accepted: the first engine is `elo1` stronger.
    AcceptH1,
    Continue,
}

impl SprtDecision {
    pub fn name(self) -> &'static str {
        match self {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "continue",
        }
    }
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, error rates strictly between 0 and ½.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        if !rate(alpha) || !rate(beta) {
            return Err(format!(
                "SPRT error rates must lie strictly between 0 and 0.5 (got {alpha} and {beta})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratio bounds `(lower, upper)`: below `lower` H0 is accepted, above
    /// `upper` H1 (Wald).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pair results, by the generalised SPRT's normal
    /// approximation (as fishtest computes it). The variance is estimated with one pseudo-sample
    /// spread evenly over the outcomes: without it a few identical pairs (common in these games,
    /// where an opening often decides each game by side) would have no variance and end the test
    /// at once.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.llr(&PAIR_SCORES, &pairs.0.map(f64::from))
    }

    /// The same from game results counted as independent games.
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr(&GAME_SCORES, &wdl_counts(wdl))
    }

    fn llr(&self, values: &[f64], counts: &[f64]) -> f64 {
        let n: f64 = counts.iter().sum();
        if n == 0.0 {
            return 0.0;
        }
        let prior = 1.0 / counts.len() as f64;
        let smoothed: Vec<f64> = counts.iter().map(|&c| c + prior).collect();
        let (mean, variance) = mean_variance(values, &smoothed);
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    // Reference values were computed independently in Python with math.erf and the textbook
    // formulas (see the comments of each function), the SPRT's with the same pseudo-sample.

    #[test]
    fn elo_and_interval_from_wdl() {
        let e = elo_wdl(&Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        })
        .unwrap();
        assert!(close(e.elo, 147.1907, 1e-3), "{e:?}");
        assert!(close(e.lower, 86.2250, 1e-3), "{e:?}");
        assert!(close(e.upper, 218.2518, 1e-3), "{e:?}");
    }

    #[test]
    fn even_score_is_zero_elo_and_symmetric() {
        let e = elo_wdl(&Wdl {
            wins: 30,
            draws: 40,
            losses: 30,
        })
        .unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.lower, -e.upper, 1e-9));
        assert!(e.upper > 0.0);
    }

    #[test]
    fn perfect_score_is_unbounded() {
        let e = elo_wdl(&Wdl {
            wins: 10,
            draws: 0,
            losses: 0,
        })
        .unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(elo_wdl(&Wdl::default()), None);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-600.0, -100.0, 0.0, 35.5, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn likelihood_of_superiority() {
        let los1 = los(&Wdl {
            wins: 10,
            draws: 7,
            losses: 5,
        });
        assert!(close(los1, 0.901_647, 1e-6), "{los1}");
        let los2 = los(&Wdl {
            wins: 40,
            draws: 3,
            losses: 45,
        });
        assert!(close(los2, 0.293_797, 1e-6), "{los2}");
        assert_eq!(
            los(&Wdl {
                wins: 0,
                draws: 9,
                losses: 0
            }),
            0.5
        );
    }

    #[test]
    fn error_function_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

    #[test]
    fn pentanomial_elo_interval() {
        let e = elo_pentanomial(&Pentanomial([3, 10, 40, 15, 2])).unwrap();
        assert!(close(e.elo, 7.4462, 1e-3), "{e:?}");
        assert!(close(e.lower, -25.1811, 1e-3), "{e:?}");
        assert!(close(e.upper, 40.2057, 1e-3), "{e:?}");
    }

    #[test]
    fn pentanomial_buckets_by_pair_points() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0] {
            p.add(points);
        }
        assert_eq!(p, Pentanomial([1, 1, 2, 1, 1]));
        assert_eq!(p.pairs(), 6);
    }

    #[test]
    fn sprt_bounds_follow_wald() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        let skewed = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap().bounds();
        assert!(close(skewed.0, (0.1f64 / 0.95).ln(), 1e-12));
        assert!(close(skewed.1, (0.9f64 / 0.05).ln(), 1e-12));
    }

    #[test]
    fn sprt_log_likelihood_ratio() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let llr = sprt.llr_pentanomial(&Pentanomial([3, 10, 40, 15, 2]));
        assert!(close(llr, 0.085_028, 1e-5), "{llr}");
        let llr = sprt.llr_wdl(&Wdl {
            wins: 300,
            draws: 500,
            losses: 200,
        });
        assert!(close(llr, 2.721_496, 1e-5), "{llr}");
        assert_eq!(sprt.decide(llr), SprtDecision::Continue);
        assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
    }

    #[test]
    fn sprt_decides_one_sided_results() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let all_won = Pentanomial([0, 0, 0, 0, 50]);
        assert_eq!(
            sprt.decide(sprt.llr_pentanomial(&all_won)),
            SprtDecision::AcceptH1
        );
        let all_lost = Pentanomial([50, 0, 0, 0, 0]);
        assert_eq!(
            sprt.decide(sprt.llr_pentanomial(&all_lost)),
            SprtDecision::AcceptH0
        );
        assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
        // A few identical pairs say little; many say a lot.
        let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        let few = sprt.llr_pentanomial(&Pentanomial([0, 0, 3, 0, 0]));
        assert!(close(few, -0.039_677, 1e-5), "{few}");
        let many = sprt.llr_pentanomial(&Pentanomial([0, 0, 300, 0, 0]));
        assert!(close(many, -298.566_09, 1e-3), "{many}");
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
    }
}
