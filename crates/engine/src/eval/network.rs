//! A small network on top of the pit tables: one hidden layer over the same sparse inputs the pit
//! tables read (each pit's count bucket in the mover's row and the other row) and the phase of
//! the game (the counters on the board), whose output is added to the linear evaluation. The pit
//! tables see what each count in each pit is worth alone; the hidden units see how pits combine
//! (a pit that reaches another, a chain of small counts, a relay that runs on).
//!
//! Inference is integer only: input weights `i16` scaled by [`ONE`], a clipped ReLU to [0, ONE],
//! output weights in centi-counters per unit of activation. With 2N + 1 inputs active of
//! 32N + [`PHASES`], the hidden layer costs (2N + 1) × hidden additions per evaluation.
//!
//! A network is data: a text file of `key = value` lines, which `mancala-engine train` writes.
//! The built-in games' networks are embedded from `crates/engine/games/<game>.net`; any game's can be
//! loaded at run time (option `NetworkFile`, or `--network`), replacing the embedded one.
//!
//! ```text
//! # mancala-engine network
//! game = "mangala-ii"
//! hidden = 32
//! over = "9c1e0f7a2b3d4e5f"    # the fingerprint of the weights it was trained on top of
//! data = "mancala-engine datagen mangala-ii games=8000 …"
//! command = "mancala-engine train mii.txt --save mangala-ii.net"
//! hidden-bias = [..]            # `hidden` values, scaled by 64
//! output-weights = [..]         # `hidden` values, centi-counters per unit of activation
//! output-bias = 0
//! mine-A-0 = [..]               # `hidden` values: the mover's pit A holding 0 counters
//! theirs-A-15 = [..]            # the other row's pit A holding 15 or more
//! phase-0 = [..]                # the board holding the first eighth of the counters
//! ```

use std::collections::BTreeMap;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::fields::{Value, read_fields, value_error};
use super::terms::{COUNT_BUCKETS, bucket};
use mancala_rules::{MAX_ROW, Move, Position, Side, Spec, Variant};

/// The phases of a game, by the share of its counters still on the board.
pub const PHASES: usize = 8;

/// An activation of 1 in the integer arithmetic (the scale of the input weights and biases).
pub const ONE: i32 = 64;

/// The widest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 64;

/// Inputs active in one position: a count per pit of both rows, and the phase.
pub const MAX_ACTIVE: usize = 2 * MAX_ROW + 1;

/// The largest input weight or hidden bias, in magnitude (about 15.6 activations): with
/// [`MAX_ACTIVE`] inputs and the bias, the hidden sums stay within an `i16`.
pub const MAX_WEIGHT: i16 = 1000;

/// The first line of every network file.
pub const HEADER: &str = "# mancala-engine network";

/// One game's network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub variant: Variant,
    pub hidden: usize,
    /// The fingerprint of the linear evaluation it was trained on top of ([`fingerprint`]).
    pub over: u64,
    pub data: String,
    pub command: String,
    /// Input-major: the `hidden` weights of input 0, then of input 1, …
    pub input_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    pub output_weights: Vec<i32>,
    pub output_bias: i32,
}

/// The number of inputs of a game with `n` pits per row.
pub const fn input_count(n: usize) -> usize {
    2 * n * COUNT_BUCKETS + PHASES
}

/// The phase input of a board holding `on_board` of the game's `total` counters.
#[inline(always)]
pub fn phase(on_board: u32, total: u32) -> usize {
    (on_board as usize * PHASES) / (total as usize + 1)
}

/// The inputs active in `pos`, from its side to move's point of view: the count bucket of each
/// of the mover's pits (by place in its row), then of the other row's, then the phase. Returns
/// how many were written (2N + 1).
#[inline(always)]
pub fn active_inputs(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let n = pos.rules().pits_per_row;
    let me = pos.side_to_move();
    fill_active(
        pos.all_pits(),
        me.index() * n,
        me.opponent().index() * n,
        n,
        phase(pos.on_board(), pos.rules().total()),
        out,
    )
}

#[inline(always)]
fn fill_active(
    all: &[u8],
    mine: usize,
    theirs: usize,
    n: usize,
    phase: usize,
    out: &mut [u16; MAX_ACTIVE],
) -> usize {
    for p in 0..n {
        out[p] = (p * COUNT_BUCKETS + bucket(all[mine + p])) as u16;
        out[n + p] = ((n + p) * COUNT_BUCKETS + bucket(all[theirs + p])) as u16;
    }
    out[2 * n] = (2 * n * COUNT_BUCKETS + phase) as u16;
    2 * n + 1
}

impl Network {
    /// The network's value of `pos` for its side to move, centi-counters.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut active = [0u16; MAX_ACTIVE];
        let count = active_inputs(pos, &mut active);
        self.evaluate_inputs(&active[..count])
    }

    /// [`Network::evaluate`] for a position of the game `S` (the row length a constant).
    #[inline(always)]
    pub fn evaluate_for<S: Spec>(&self, pos: &Position) -> i32 {
        let rules = S::rules(pos);
        let n = rules.pits_per_row;
        let me = pos.side_to_move();
        let mut active = [0u16; MAX_ACTIVE];
        let count = fill_active(
            pos.all_pits(),
            me.index() * n,
            me.opponent().index() * n,
            n,
            phase(pos.on_board_for::<S>(), rules.total()),
            &mut active,
        );
        self.evaluate_inputs(&active[..count])
    }

    /// The value given the active inputs.
    #[inline(always)]
    pub fn evaluate_inputs(&self, active: &[u16]) -> i32 {
        let h = self.hidden;
        // In i16, twice as many lanes as i32: every weight is within [`MAX_WEIGHT`], so that a
        // bias and 2 × 12 + 1 inputs sum to at most 26,000.
        let mut sums = [0i16; MAX_HIDDEN];
        let sums = &mut sums[..h];
        sums.copy_from_slice(&self.hidden_bias);
        for &input in active {
            let start = input as usize * h;
            let row = &self.input_weights[start..start + h];
            for (sum, &w) in sums.iter_mut().zip(row) {
                *sum += w;
            }
        }
        let mut out = 0i32;
        for (&sum, &w) in sums.iter().zip(&self.output_weights) {
            out += (sum as i32).clamp(0, ONE) * w;
        }
        out / ONE + self.output_bias
    }

    /// Reads a network file; its game must be known (built in, or loaded before).
    pub fn parse(text: &str) -> Result<Network, String> {
        if !text.starts_with(HEADER) {
            return Err(format!(
                "not a network file (its first line is not '{HEADER}')"
            ));
        }
        let mut fields = read_fields(text)?;
        let word = |fields: &mut BTreeMap<String, Value>, key: &str| match fields.remove(key) {
            Some(Value::Word(w)) => Ok(w),
            Some(_) => Err(value_error(key, "is not a word in double quotes")),
            None => Err(value_error(key, "missing")),
        };
        let variant: Variant = word(&mut fields, "game")?
            .parse()
            .map_err(|e| value_error("game", format!("{e}")))?;
        if variant.rules().has_forced_moves() {
            return Err(value_error(
                "game",
                format!("{variant} has no choice of move, and so no evaluation"),
            ));
        }
        let over = word(&mut fields, "over")?;
        let over = u64::from_str_radix(&over, 16)
            .ok()
            .filter(|_| over.len() == 16)
            .ok_or_else(|| value_error("over", "is not a fingerprint of 16 hexadecimal digits"))?;
        let data = word(&mut fields, "data")?;
        let command = word(&mut fields, "command")?;
        let hidden = match fields.remove("hidden") {
            Some(Value::Number(h))
                if (8..=MAX_HIDDEN as i64).contains(&h) && (h as usize).is_multiple_of(8) =>
            {
                h as usize
            }
            _ => {
                return Err(value_error(
                    "hidden",
                    format!("must be a multiple of 8 from 8 to {MAX_HIDDEN}"),
                ));
            }
        };
        let list = |fields: &mut BTreeMap<String, Value>, key: &str| -> Result<Vec<i64>, String> {
            match fields.remove(key) {
                Some(Value::List(values)) if values.len() == hidden => Ok(values),
                Some(_) => Err(value_error(
                    key,
                    format!("is not a list of {hidden} values (hidden)"),
                )),
                None => Err(value_error(key, "missing")),
            }
        };
        let small = |key: &str, values: Vec<i64>| -> Result<Vec<i16>, String> {
            values
                .into_iter()
                .map(|v| {
                    (v.abs() <= MAX_WEIGHT as i64)
                        .then_some(v as i16)
                        .ok_or_else(|| value_error(key, format!("a value is beyond ±{MAX_WEIGHT}")))
                })
                .collect()
        };
        const LIMIT: i64 = 1_000_000;
        let large = |key: &str, values: Vec<i64>| -> Result<Vec<i32>, String> {
            values
                .into_iter()
                .map(|v| {
                    (v.abs() <= LIMIT)
                        .then_some(v as i32)
                        .ok_or_else(|| value_error(key, "a value is beyond a million"))
                })
                .collect()
        };
        let hidden_bias = small("hidden-bias", list(&mut fields, "hidden-bias")?)?;
        let output_weights = large("output-weights", list(&mut fields, "output-weights")?)?;
        let output_bias = match fields.remove("output-bias") {
            Some(Value::Number(v)) if v.abs() <= LIMIT => v as i32,
            Some(_) => {
                return Err(value_error(
                    "output-bias",
                    "is not a number within a million",
                ));
            }
            None => return Err(value_error("output-bias", "missing")),
        };
        let n = variant.rules().pits_per_row;
        let mut input_weights = Vec::with_capacity(input_count(n) * hidden);
        for name in input_names(n) {
            let values = list(&mut fields, &name)?;
            input_weights.extend(small(&name, values)?);
        }
        if let Some(key) = fields.keys().next() {
            return Err(value_error(key, "unknown field"));
        }
        Ok(Network {
            variant,
            hidden,
            over,
            data,
            command,
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
        })
    }

    /// The file's text: what [`Network::parse`] reads back.
    pub fn write(&self) -> String {
        let list = |values: &mut dyn Iterator<Item = i64>| {
            let words: Vec<String> = values.map(|v| v.to_string()).collect();
            format!("[{}]", words.join(", "))
        };
        let mut text = format!(
            "{HEADER}: a hidden layer over the pit tables, made by `mancala-engine train` \
             (README, \"Learning the evaluation\").\ngame = \"{}\"\nhidden = {}\nover = \
             \"{:016x}\"\ndata = \"{}\"\ncommand = \"{}\"\nhidden-bias = {}\n\
             output-weights = {}\noutput-bias = {}\n",
            self.variant,
            self.hidden,
            self.over,
            self.data.replace('"', "'"),
            self.command.replace('"', "'"),
            list(&mut self.hidden_bias.iter().map(|&v| v as i64)),
            list(&mut self.output_weights.iter().map(|&v| v as i64)),
            self.output_bias,
        );
        let n = self.variant.rules().pits_per_row;
        for (name, row) in input_names(n)
            .into_iter()
            .zip(self.input_weights.chunks(self.hidden))
        {
            text.push_str(&format!(
                "{name} = {}\n",
                list(&mut row.iter().map(|&v| v as i64))
            ));
        }
        text
    }
}

/// The inputs' names in their order: `mine-A-0` … `theirs-F-15`, `phase-0` … `phase-7`.
pub fn input_names(n: usize) -> Vec<String> {
    let mut names = Vec::with_capacity(input_count(n));
    for row in ["mine", "theirs"] {
        for pit in 0..n {
            for count in 0..COUNT_BUCKETS {
                names.push(format!(
                    "{row}-{}-{count}",
                    Move::sow(Side::South, pit as u8)
                ));
            }
        }
    }
    names.extend((0..PHASES).map(|p| format!("phase-{p}")));
    names
}

/// A fingerprint of `variant`'s linear evaluation (its terms' weights and pit tables): a
/// network is trained on top of one, and is refused over another.
pub fn fingerprint(variant: Variant) -> u64 {
    let tuning = super::tuning::tuning(variant);
    let text = format!("{:?}{:?}", tuning.weights, tuning.pits);
    // FNV-1a, 64 bits.
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Each game's network, by game number: a leaked `Network` (a replaced one is never freed, so
/// that a search still reading it is safe), or null.
static NETWORKS: [AtomicPtr<Network>; 256] = [const { AtomicPtr::new(std::ptr::null_mut()) }; 256];

static EMBEDDED_INSTALLED: Once = Once::new();

fn install(network: Network) {
    let variant = network.variant;
    let leaked: &'static mut Network = Box::leak(Box::new(network));
    NETWORKS[variant.index()].store(leaked, Ordering::Release);
}

fn install_embedded() {
    let embedded = Variant::ALL.iter().zip(super::tuning::NETWORKS);
    for (&variant, text) in embedded.filter_map(|(v, text)| Some((v, text?))) {
        // A test parses each embedded file and checks it is over the compiled weights.
        match Network::parse(text) {
            Ok(network) if network.over == fingerprint(variant) => install(network),
            Ok(_) => log::error!("the embedded network of {variant} is over other weights"),
            Err(e) => log::error!("the embedded network of {variant}: {e}"),
        }
    }
}

/// The network of `variant`, if it has one (embedded or loaded).
#[inline(always)]
pub fn network(variant: Variant) -> Option<&'static Network> {
    EMBEDDED_INSTALLED.call_once(install_embedded);
    let pointer = NETWORKS[variant.index()].load(Ordering::Acquire);
    // SAFETY: a non-null pointer here comes from `Box::leak` in `install` and is never freed.
    unsafe { pointer.as_ref() }
}

/// Makes `network` its game's network from now on (the next search uses it), if it was trained
/// over the game's current weights.
pub fn set(network: Network) -> Result<(), String> {
    EMBEDDED_INSTALLED.call_once(install_embedded);
    let now = fingerprint(network.variant);
    if network.over != now {
        return Err(format!(
            "trained over other weights of {} (fingerprint {:016x}; the engine's are {now:016x}): \
             train it again over these",
            network.variant, network.over
        ));
    }
    install(network);
    Ok(())
}

/// Drops `variant`'s network (its weights changed, so that the network no longer fits them).
pub fn forget(variant: Variant) {
    EMBEDDED_INSTALLED.call_once(install_embedded);
    NETWORKS[variant.index()].store(std::ptr::null_mut(), Ordering::Release);
}

/// Loads the network file at `path` for the game it names; on failure nothing changes.
pub fn load(path: &std::path::Path) -> Result<Variant, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the network file {}: {e}", path.display()))?;
    let network = Network::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let variant = network.variant;
    set(network).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(variant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::SplitMix64;
    use mancala_testkit::positions::random_position;

    /// A network of `variant` with weights from a seed, over the game's current weights.
    fn random_network(variant: Variant, hidden: usize, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i64 - range as i64;
        let inputs = input_count(variant.rules().pits_per_row);
        Network {
            variant,
            hidden,
            over: fingerprint(variant),
            data: "a test".to_string(),
            command: "none".to_string(),
            input_weights: (0..inputs * hidden).map(|_| small(40) as i16).collect(),
            hidden_bias: (0..hidden).map(|_| small(64) as i16).collect(),
            output_weights: (0..hidden).map(|_| small(300) as i32).collect(),
            output_bias: small(50) as i32,
        }
    }

    #[test]
    fn a_written_network_reads_back_the_same() {
        for variant in [Variant::MangalaII, Variant::AlManqala, Variant::Anywoli] {
            let net = random_network(variant, 16, variant.index() as u64);
            assert_eq!(Network::parse(&net.write()), Ok(net));
        }
    }

    #[test]
    fn the_integer_network_clips_and_scales() {
        // One hidden unit: 1.5 (clipped to 1) times 200 centi-counters, plus 7.
        let mut net = random_network(Variant::MangalaII, 8, 1);
        net.input_weights.fill(0);
        net.hidden_bias = vec![96, -5, 0, 0, 0, 0, 0, 32];
        net.output_weights = vec![200, 1000, 0, 0, 0, 0, 0, 10];
        net.output_bias = 7;
        let pos = Position::start(Variant::MangalaII);
        // 200 (clipped) + 0 (negative) + 5 (half of 10) + 7.
        assert_eq!(net.evaluate(&pos), 212);
    }

    #[test]
    fn the_compiled_path_agrees_with_the_general_one() {
        let mut rng = SplitMix64::new(3);
        for variant in [Variant::MangalaII, Variant::AlManqala, Variant::Anywoli] {
            let net = random_network(variant, 32, 9);
            for _ in 0..200 {
                let counters = 1 + (rng.next_u64() % variant.rules().total() as u64) as u32;
                let text = random_position(variant, counters, &mut rng);
                let pos = Position::from_position_string(variant, &text).unwrap();
                let general = net.evaluate(&pos);
                let compiled = mancala_rules::with_spec!(variant, S => net.evaluate_for::<S>(&pos));
                assert_eq!(general, compiled, "{text}");
            }
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let good = random_network(Variant::MangalaII, 8, 4).write();
        for (from, to, why) in [
            (HEADER, "# something else", "not a network file"),
            (
                "game = \"mangala-ii\"",
                "game = \"chess\"",
                "game: unknown variant",
            ),
            (
                "game = \"mangala-ii\"",
                "game = \"mangala-iv\"",
                "game: mangala-iv has no choice",
            ),
            (
                "hidden = 8",
                "hidden = 12",
                "hidden: must be a multiple of 8",
            ),
            ("over = \"", "over = \"x", "over: is not a fingerprint"),
            (
                "hidden = 8",
                "hidden = 8\ncolour = 1",
                "colour: unknown field",
            ),
            ("output-bias", "output-bais", "output-bias: missing"),
            (
                "mine-A-0 = [",
                "mine-A-0 = [1, ",
                "mine-A-0: is not a list of 8",
            ),
            (
                "phase-7 = [",
                "phase-7 = [70000, ",
                "phase-7: is not a list",
            ),
            ("theirs-F-15 = ", "theirs-F-15 == ", "theirs-F-15"),
        ] {
            let text = good.replacen(from, to, 1);
            assert_ne!(text, good, "{from}");
            let error = Network::parse(&text).unwrap_err();
            assert!(error.contains(why), "{to}: {error}");
        }
        let dropped = good
            .lines()
            .filter(|l| !l.starts_with("theirs-C-3 "))
            .collect::<Vec<_>>()
            .join("\n");
        let error = Network::parse(&dropped).unwrap_err();
        assert!(error.starts_with("theirs-C-3: missing"), "{error}");
        // Weights beyond the bound that keeps the hidden sums within an i16.
        let mut big = random_network(Variant::MangalaII, 8, 4);
        big.input_weights[16 * 8] = MAX_WEIGHT + 1;
        let error = Network::parse(&big.write()).unwrap_err();
        assert!(error.starts_with("mine-B-0: a value is beyond"), "{error}");
    }

    #[test]
    fn a_network_over_other_weights_is_refused() {
        let mut net = random_network(Variant::AlManqala, 8, 5);
        net.over ^= 1;
        let before = network(Variant::AlManqala).cloned();
        let error = set(net).unwrap_err();
        assert!(error.contains("trained over other weights"), "{error}");
        assert_eq!(network(Variant::AlManqala).cloned(), before);
    }

    #[test]
    fn the_embedded_networks_are_over_the_compiled_weights() {
        let embedded = Variant::ALL.iter().zip(crate::eval::tuning::NETWORKS);
        for (&variant, text) in embedded.filter_map(|(v, text)| Some((v, text?))) {
            let net = Network::parse(text).unwrap_or_else(|e| panic!("{variant}: {e}"));
            assert_eq!(net.variant, variant);
            assert_eq!(
                net.over,
                fingerprint(variant),
                "{variant}: the network was trained over other weights; train it again"
            );
            assert_eq!(network(variant), Some(&net));
        }
    }
}
