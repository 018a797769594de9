//! Training a game's network (`mancala_engine::eval::Network`) on top of its linear evaluation:
//! stochastic gradient descent (Adam, minibatches) on the squared error between what a position is
//! worth (the same target as `tune`'s) and the linear evaluation plus the network, with whole
//! games held out. Hand-written: the model is one hidden layer over sparse one-hot inputs, whose
//! gradient is a few lines, and a framework would bring hundreds of crates for it.
//!
//! The network starts with output weights near zero, that is at the linear evaluation, and only
//! learns what that misses. The epoch with the lowest held-out error is kept; the error reported
//! at the end is the integer network's, exactly as the engine computes it.

use mancala_engine::eval::evaluate_parts;
use mancala_engine::eval::{
    MAX_ACTIVE, MAX_HIDDEN, MAX_WEIGHT, Network, ONE, active_inputs, fingerprint, input_count,
};
use mancala_rules::{SplitMix64, Variant};
use std::sync::atomic::{AtomicBool, Ordering};

use super::data::Record;
use super::tune::{HOLD_OUT_EVERY, Target};

/// One position ready for training.
#[derive(Clone, Debug)]
pub struct TrainSample {
    active: [u16; MAX_ACTIVE],
    count: u8,
    /// The linear evaluation (terms and pit tables), counters.
    linear: f32,
    /// What the position is worth, counters.
    target: f32,
    pub held_out: bool,
}

/// The training samples of `records`.
pub fn train_samples(records: &[Record], target: Target) -> Vec<TrainSample> {
    records
        .iter()
        .map(|r| {
            let mut active = [0u16; MAX_ACTIVE];
            let count = active_inputs(&r.position, &mut active) as u8;
            TrainSample {
                active,
                count,
                linear: evaluate_parts(&r.position).linear() as f32 / 100.0,
                target: target.of(r) as f32 / 100.0,
                held_out: r.game % HOLD_OUT_EVERY == 0,
            }
        })
        .collect()
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size at the first epoch; it falls linearly to a tenth of it at the last.
    pub learning_rate: f32,
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hidden: 32,
            epochs: 30,
            batch: 256,
            learning_rate: 0.002,
            seed: 1,
        }
    }
}

/// One epoch's errors (RMSE in counters).
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub number: usize,
    pub train: f64,
    pub held_out: f64,
}

/// The result of training.
#[derive(Clone, Debug)]
pub struct Trained {
    pub network: Network,
    pub train: usize,
    pub held_out: usize,
    /// The epoch kept (lowest held-out error), from 1.
    pub best_epoch: usize,
    /// The epochs run: all those asked for, unless training was stopped.
    pub epochs: usize,
    /// RMSE in counters: (the linear evaluation, with the integer network) on the training part
    /// and on the held-out part.
    pub rmse_train: (f64, f64),
    pub rmse_held_out: (f64, f64),
}

/// The floating-point model being trained.
#[derive(Clone)]
struct Model {
    hidden: usize,
    /// Input-major, as the engine's.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// Adam's running moments for one parameter vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(len: usize) -> Moments {
        Moments {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// One Adam step of `params` along `grads` (then zeroed).
    fn step(&mut self, params: &mut [f32], grads: &mut [f32], rate: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grads.iter_mut())
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = B1 * *m + (1.0 - B1) * *g;
            *v = B2 * *v + (1.0 - B2) * *g * *g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *g = 0.0;
        }
    }
}

fn uniform(rng: &mut SplitMix64) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

impl Model {
    fn new(inputs: usize, hidden: usize, rng: &mut SplitMix64) -> Model {
        let mut random = |scale: f32| (uniform(rng) * 2.0 - 1.0) * scale;
        Model {
            hidden,
            w1: (0..inputs * hidden).map(|_| random(0.3)).collect(),
            // Units start inside the clipped ReLU's slope.
            b1: vec![0.5; hidden],
            w2: (0..hidden).map(|_| random(0.01)).collect(),
            b2: 0.0,
        }
    }

    /// The hidden sums of `sample`.
    fn sums(&self, sample: &TrainSample, out: &mut [f32]) {
        out.copy_from_slice(&self.b1);
        for &input in &sample.active[..sample.count as usize] {
            let start = input as usize * self.hidden;
            for (o, w) in out.iter_mut().zip(&self.w1[start..start + self.hidden]) {
                *o += w;
            }
        }
    }

    /// The prediction (counters) given the hidden sums.
    fn output(&self, sample: &TrainSample, sums: &[f32]) -> f32 {
        let mut y = sample.linear + self.b2;
        for (s, w) in sums.iter().zip(&self.w2) {
            y += s.clamp(0.0, 1.0) * w;
        }
        y
    }

    fn rmse(&self, samples: &[TrainSample], held_out: bool) -> f64 {
        let mut sums = vec![0.0; self.hidden];
        rmse_of(samples, held_out, |s| {
            self.sums(s, &mut sums);
            self.output(s, &sums) as f64 * 100.0
        })
    }

    /// The integer network the engine runs.
    fn quantise(&self, variant: Variant, data: &str, command: &str) -> Network {
        let one = ONE as f32;
        // Within the bound the engine reads (its hidden sums are i16).
        let limit = MAX_WEIGHT as f32;
        let small = |v: f32| (v * one).round().clamp(-limit, limit) as i16;
        Network {
            variant,
            hidden: self.hidden,
            over: fingerprint(variant),
            data: data.to_string(),
            command: command.to_string(),
            input_weights: self.w1.iter().map(|&w| small(w)).collect(),
            hidden_bias: self.b1.iter().map(|&b| small(b)).collect(),
            output_weights: self
                .w2
                .iter()
                .map(|&w| (w * 100.0).round().clamp(-1e6, 1e6) as i32)
                .collect(),
            output_bias: (self.b2 * 100.0).round().clamp(-1e6, 1e6) as i32,
        }
    }
}

/// RMSE in counters of `predict` (centi-counters) on the part `held_out` selects.
fn rmse_of(
    samples: &[TrainSample],
    held_out: bool,
    mut predict: impl FnMut(&TrainSample) -> f64,
) -> f64 {
    let (mut total, mut n) = (0.0f64, 0u64);
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let e = predict(s) / 100.0 - s.target as f64;
        total += e * e;
        n += 1;
    }
    if n == 0 {
        f64::NAN
    } else {
        (total / n as f64).sqrt()
    }
}

/// Trains `variant`'s network on `samples`, reporting each epoch to `progress`. `data` and
/// `command` go into the network's header. Once `stop` is set, training ends after the epoch
/// under way, with the best network of the epochs run ([`Trained::epochs`] says how many).
pub fn train(
    variant: Variant,
    samples: &[TrainSample],
    settings: Settings,
    data: &str,
    command: &str,
    stop: &AtomicBool,
    mut progress: impl FnMut(Epoch),
) -> Result<Trained, String> {
    if variant.rules().has_forced_moves() {
        return Err(format!(
            "{variant} has no choice of move, and so no evaluation"
        ));
    }
    let hidden = settings.hidden;
    if !(8..=MAX_HIDDEN).contains(&hidden) || !hidden.is_multiple_of(8) {
        return Err(format!(
            "the hidden layer must be a multiple of 8 from 8 to {MAX_HIDDEN}, not {hidden}"
        ));
    }
    let training: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].held_out)
        .collect();
    let held_out = samples.len() - training.len();
    if training.is_empty() || held_out == 0 {
        return Err(format!(
            "too little data: {} positions to train on, {held_out} held out (every \
             {HOLD_OUT_EVERY}th game is held out)",
            training.len()
        ));
    }
    let inputs = input_count(variant.rules().pits_per_row);
    let mut rng = SplitMix64::new(settings.seed);
    let mut model = Model::new(inputs, hidden, &mut rng);
    let (mut g1, mut gb1, mut g2) = (
        vec![0.0f32; inputs * hidden],
        vec![0.0f32; hidden],
        vec![0.0f32; hidden],
    );
    let mut gb2 = [0.0f32];
    let (mut m1, mut mb1, mut m2, mut mb2) = (
        Moments::new(g1.len()),
        Moments::new(hidden),
        Moments::new(hidden),
        Moments::new(1),
    );
    let mut order = training;
    let mut best: Option<(f64, usize, Model)> = None;
    let mut sums = vec![0.0f32; hidden];
    let mut dz = vec![0.0f32; hidden];
    let mut step = 0;
    let mut epochs = 0;
    for epoch in 0..settings.epochs.max(1) {
        if epoch > 0 && stop.load(Ordering::Relaxed) {
            break;
        }
        epochs = epoch + 1;
        // Fisher–Yates with the seeded generator: the same seed, the same network.
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let progress_share = epoch as f32 / settings.epochs.max(2) as f32;
        let rate = settings.learning_rate * (1.0 - 0.9 * progress_share);
        for batch in order.chunks(settings.batch.max(1)) {
            let scale = 1.0 / batch.len() as f32;
            for &i in batch {
                let s = &samples[i];
                model.sums(s, &mut sums);
                let dy = (model.output(s, &sums) - s.target) * scale;
                gb2[0] += dy;
                for u in 0..hidden {
                    let z = sums[u];
                    g2[u] += dy * z.clamp(0.0, 1.0);
                    // The clipped ReLU passes a gradient only on its slope.
                    dz[u] = if z > 0.0 && z < 1.0 {
                        dy * model.w2[u]
                    } else {
                        0.0
                    };
                    gb1[u] += dz[u];
                }
                for &input in &s.active[..s.count as usize] {
                    let start = input as usize * hidden;
                    for (g, d) in g1[start..start + hidden].iter_mut().zip(&dz) {
                        *g += d;
                    }
                }
            }
            step += 1;
            m1.step(&mut model.w1, &mut g1, rate, step);
            mb1.step(&mut model.b1, &mut gb1, rate, step);
            m2.step(&mut model.w2, &mut g2, rate, step);
            let mut b2 = [model.b2];
            mb2.step(&mut b2, &mut gb2, rate, step);
            model.b2 = b2[0];
        }
        let report = Epoch {
            number: epoch + 1,
            train: model.rmse(samples, false),
            held_out: model.rmse(samples, true),
        };
        progress(report);
        if best
            .as_ref()
            .is_none_or(|(error, _, _)| report.held_out < *error)
        {
            best = Some((report.held_out, epoch + 1, model.clone()));
        }
    }
    let (_, best_epoch, model) = best.expect("at least one epoch ran");
    // A stopped training's header says so: the command alone would claim every epoch ran.
    let command = if epochs < settings.epochs {
        format!(
            "{command} (stopped after epoch {epochs} of {})",
            settings.epochs
        )
    } else {
        command.to_string()
    };
    let network = model.quantise(variant, data, &command);
    let linear = |s: &TrainSample| s.linear as f64 * 100.0;
    let with_network = |s: &TrainSample| {
        // The linear evaluation is an integer in the engine; `linear` holds it exactly.
        (s.linear * 100.0).round() as f64
            + network.evaluate_inputs(&s.active[..s.count as usize]) as f64
    };
    Ok(Trained {
        train: samples.len() - held_out,
        held_out,
        best_epoch,
        epochs,
        rmse_train: (
            rmse_of(samples, false, linear),
            rmse_of(samples, false, with_network),
        ),
        rmse_held_out: (
            rmse_of(samples, true, linear),
            rmse_of(samples, true, with_network),
        ),
        network,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::tests::records;
    use mancala_rules::Position;

    /// Targets the linear evaluation cannot express: the linear evaluation, plus 3 counters when
    /// the mover's first pit is filled while the other's first pit is empty (both at once), else
    /// minus 1.
    fn with_interaction(pos: &Position) -> i32 {
        let me = pos.side_to_move();
        let mine = pos.pits()[pos.row(me).start];
        let theirs = pos.pits()[pos.row(me.opponent()).start];
        let both = mine > 0 && theirs == 0;
        evaluate_parts(pos).linear() + if both { 300 } else { -100 }
    }

    /// Trains with every epoch asked for, without header text or progress.
    fn train_all(
        variant: Variant,
        samples: &[TrainSample],
        settings: Settings,
    ) -> Result<Trained, String> {
        train(
            variant,
            samples,
            settings,
            "",
            "",
            &AtomicBool::new(false),
            |_| {},
        )
    }

    fn settings() -> Settings {
        Settings {
            hidden: 16,
            epochs: 25,
            ..Settings::default()
        }
    }

    #[test]
    fn a_network_learns_what_pits_are_worth_together() {
        let records = records(Variant::MangalaII, with_interaction);
        let samples = train_samples(&records, Target { lambda: 0.0 });
        let trained = train_all(Variant::MangalaII, &samples, settings()).unwrap();
        let (linear, network) = trained.rmse_held_out;
        assert!(linear > 1.5, "{linear}");
        assert!(network < 0.5 * linear, "{linear} -> {network}");
        assert!(trained.rmse_train.1 < 0.5 * trained.rmse_train.0);
        // The engine's integer network is what was measured, over the weights it learned on.
        let net = &trained.network;
        assert_eq!(net.over, fingerprint(Variant::MangalaII));
        let pos = &records[7].position;
        let mut active = [0u16; MAX_ACTIVE];
        let count = active_inputs(pos, &mut active);
        assert_eq!(net.evaluate(pos), net.evaluate_inputs(&active[..count]));
    }

    #[test]
    fn weights_beyond_the_engine_bound_are_clamped_so_the_file_reads_back() {
        let mut rng = SplitMix64::new(1);
        let inputs = input_count(Variant::MangalaII.rules().pits_per_row);
        let mut model = Model::new(inputs, 8, &mut rng);
        model.w1[3] = 100.0;
        model.b1[0] = -100.0;
        let net = model.quantise(Variant::MangalaII, "", "");
        assert_eq!(net.input_weights[3], MAX_WEIGHT);
        assert_eq!(net.hidden_bias[0], -MAX_WEIGHT);
        assert_eq!(Network::parse(&net.write()), Ok(net));
    }

    #[test]
    fn the_same_seed_trains_the_same_network() {
        let records = records(Variant::AlManqala, with_interaction);
        let samples = train_samples(&records[..2000], Target { lambda: 0.0 });
        let quick = Settings {
            epochs: 2,
            ..settings()
        };
        let a = train_all(Variant::AlManqala, &samples, quick).unwrap();
        let b = train_all(Variant::AlManqala, &samples, quick).unwrap();
        assert_eq!(a.network, b.network);
        let other = Settings { seed: 2, ..quick };
        let c = train_all(Variant::AlManqala, &samples, other).unwrap();
        assert_ne!(a.network, c.network);
    }

    /// Stopped (by Ctrl-C in the tool), training ends after the epoch under way and keeps the
    /// best network of the epochs run; unstopped, the same settings run every epoch.
    #[test]
    fn a_stopped_training_keeps_the_best_of_the_epochs_run() {
        let records = records(Variant::AlManqala, with_interaction);
        let samples = train_samples(&records, Target { lambda: 0.0 });
        let asked = Settings {
            epochs: 6,
            ..settings()
        };
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        let stopped = train(
            Variant::AlManqala,
            &samples,
            asked,
            "",
            "mancala-engine train am.txt --epochs 6",
            &stop,
            |epoch| {
                seen = epoch.number;
                if epoch.number == 2 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
        )
        .unwrap();
        assert_eq!((stopped.epochs, seen), (2, 2));
        assert!(stopped.best_epoch <= 2);
        // The network's header tells the epochs run from those asked.
        assert_eq!(
            stopped.network.command,
            "mancala-engine train am.txt --epochs 6 (stopped after epoch 2 of 6)"
        );
        let whole = train_all(Variant::AlManqala, &samples, asked).unwrap();
        assert_eq!(whole.epochs, 6);
        assert_eq!(whole.network.command, "");
    }

    #[test]
    fn bad_settings_and_too_little_data_are_refused() {
        let records = records(Variant::MangalaII, with_interaction);
        let samples = train_samples(&records, Target { lambda: 0.0 });
        let odd = Settings {
            hidden: 12,
            ..settings()
        };
        let error = train_all(Variant::MangalaII, &samples, odd).unwrap_err();
        assert!(error.contains("multiple of 8"), "{error}");
        let held_out_only: Vec<TrainSample> =
            samples.iter().filter(|s| s.held_out).cloned().collect();
        let error = train_all(Variant::MangalaII, &held_out_only, settings()).unwrap_err();
        assert!(error.contains("too little data"), "{error}");
        let error = train_all(Variant::MangalaIV, &samples, settings()).unwrap_err();
        assert!(error.contains("no choice of move"), "{error}");
    }
}
