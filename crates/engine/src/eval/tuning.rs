//! The engine's settings of each game beyond its rules, read by one loader: the evaluation's
//! weights, the counters on the board up to which a position goes to the solver first, the
//! largest table layer a build accepts, and the depth the bench searches the game's positions
//! to.
//!
//! A built-in game's settings are data beside it, `crates/engine/games/<game>.toml` with
//! `<game>.weights` (made by `tune --write`) and `<game>.net` (made by `train`), compiled in as
//! constants by `build.rs` (so that the code compiled for the game folds them). A game without
//! a weights file, or loaded at run time, has [`DEFAULT`]'s evaluation, or the weights loaded
//! for it from a file ([`load`]).

use std::sync::atomic::{AtomicPtr, Ordering};

use super::terms::{PitValues, Weights};
use super::weights_file::WeightsFile;
use mancala_rules::Variant;

/// What the engine uses of one game beyond its rules.
pub struct Tuning {
    /// The evaluation's weights of the hand-made terms.
    pub weights: Weights,
    /// The evaluation's value per count per pit (unused when `used` is false).
    pub pits: &'static PitValues,
    /// Positions with at most this many counters on the board (or within the tables) are first
    /// given to the solver.
    pub solve_max_counters: u32,
    /// The depth of the bench's searches of this game's positions.
    pub bench_depth: u32,
    /// The largest layer a table build accepts (`None`: as many as the tables' own size limit
    /// allows, `mancala_tablebase::generate::max_counters`).
    pub table_max_counters: Option<u32>,
}

/// A game with no settings of its own: material alone, the solver up to 20 counters.
pub const DEFAULT: Tuning = Tuning {
    weights: Weights {
        material: 100,
        row: 0,
        mobility: 0,
        threat_pct: 0,
        big_pit: 0,
        threes: 0,
        leftover_pct: 0,
    },
    pits: &PitValues::NONE,
    solve_max_counters: 20,
    bench_depth: 9,
    table_max_counters: None,
};

// By built-in game, in the order of `Variant::ALL`: `BUILT_IN` (the settings),
// `HAS_WEIGHTS` (whether the game has a weights file), `WEIGHTS_FILES` and `NETWORKS` (the
// files' text); and `COMPILED`, the games with a weights file. Written by `build.rs` from
// `crates/engine/games/`.
include!(concat!(env!("OUT_DIR"), "/settings.rs"));

/// Settings loaded at run time, by game number: each a leaked `Tuning` (a replaced one is never
/// freed, so that a search still reading it is safe), or null.
static LOADED: [AtomicPtr<Tuning>; 256] = [const { AtomicPtr::new(std::ptr::null_mut()) }; 256];

/// Makes `tuning` the settings of `variant` (a game without compiled weights) from now on (the
/// next search uses them).
fn set_loaded(variant: Variant, tuning: Tuning) {
    let leaked: &'static mut Tuning = Box::leak(Box::new(tuning));
    LOADED[variant.index()].store(leaked, Ordering::Release);
}

/// The settings loaded for `variant`, if any.
fn loaded(variant: Variant) -> Option<&'static Tuning> {
    let pointer = LOADED[variant.index()].load(Ordering::Acquire);
    // SAFETY: a non-null pointer here comes from `Box::leak` in `set_loaded` and is never freed.
    unsafe { pointer.as_ref() }
}

/// The settings of `variant`: loaded for it at run time, else compiled in for a built-in game
/// (constants, which fold into the code compiled for the game), else [`DEFAULT`].
#[inline(always)]
pub fn tuning(variant: Variant) -> &'static Tuning {
    if variant.is_built_in() && HAS_WEIGHTS[variant.index()] {
        return &BUILT_IN[variant.index()];
    }
    loaded(variant).unwrap_or(match BUILT_IN.get(variant.index()) {
        Some(built_in) => built_in,
        None => &DEFAULT,
    })
}

/// The settings of the game with `file`'s weights (the game's own other settings kept).
fn with_weights(file: &WeightsFile) -> Tuning {
    let base = tuning(file.variant);
    Tuning {
        weights: file.weights,
        pits: Box::leak(Box::new(file.pits)),
        ..*base
    }
}

/// Reads the weights file at `path` and makes its weights the evaluation of its game from the
/// next search on; returns the game and the model. Nothing changes if the file is refused.
pub fn load(path: &std::path::Path) -> Result<(Variant, String), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the weights file {}: {e}", path.display()))?;
    let file = WeightsFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if COMPILED.contains(&file.variant) {
        return Err(format!(
            "{}: {} has its weights compiled in (crates/engine/games/{}.weights: `tune --write` \
             makes that file, and a rebuild uses it)",
            path.display(),
            file.variant,
            file.variant
        ));
    }
    if file.variant.rules().has_forced_moves() {
        return Err(format!(
            "{}: {} has no choice of move, and so no evaluation",
            path.display(),
            file.variant
        ));
    }
    set_loaded(file.variant, with_weights(&file));
    // A network learns what one set of weights misses: it does not fit others.
    if super::network::network(file.variant)
        .is_some_and(|net| net.over != super::network::fingerprint(file.variant))
    {
        log::warn!(
            "the network of {} was trained over other weights: it is dropped",
            file.variant
        );
        super::network::forget(file.variant);
    }
    Ok((file.variant, file.model))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::fields::{Value, read_fields};

    /// Each built-in game's weights file is its compiled evaluation, and a game without one
    /// has the default evaluation: `build.rs` wrote the files out whole.
    #[test]
    fn the_compiled_weights_are_the_games_weights_files() {
        for (index, &variant) in Variant::ALL.iter().enumerate() {
            let compiled = tuning(variant);
            match WEIGHTS_FILES[index] {
                Some(text) => {
                    let file = WeightsFile::parse(text).unwrap();
                    assert_eq!(file.variant, variant);
                    assert_eq!(compiled.weights, file.weights, "{variant}");
                    assert_eq!(*compiled.pits, file.pits, "{variant}");
                    assert!(COMPILED.contains(&variant));
                }
                None => {
                    assert_eq!(compiled.weights, DEFAULT.weights, "{variant}");
                    assert!(!compiled.pits.used);
                    assert!(!COMPILED.contains(&variant));
                }
            }
        }
        // The seed games have fitted weights; Kalah and Oware not yet.
        assert_eq!(COMPILED.len(), 4);
    }

    /// Every setting a game's `<game>.toml` gives is the compiled one (the others are the
    /// defaults).
    #[test]
    fn the_compiled_settings_are_the_games_settings_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let mut seen = 0;
        for &variant in &Variant::ALL {
            let Ok(text) = std::fs::read_to_string(dir.join(format!("{variant}.toml"))) else {
                continue;
            };
            seen += 1;
            let compiled = tuning(variant);
            let fields = read_fields(&text).unwrap();
            let number = |key: &str| match fields.get(key) {
                Some(Value::Number(n)) => Some(*n as u32),
                _ => None,
            };
            assert_eq!(
                compiled.bench_depth,
                number("bench-depth").unwrap_or(DEFAULT.bench_depth)
            );
            assert_eq!(
                compiled.solve_max_counters,
                number("solve-max-counters").unwrap_or(DEFAULT.solve_max_counters)
            );
            assert_eq!(compiled.table_max_counters, number("table-max-counters"));
        }
        assert_eq!(seen, Variant::ALL.len());
        // Anywoli's solver waits for the tables (its file says why).
        assert_eq!(tuning(Variant::Anywoli).solve_max_counters, 6);
    }

    /// A game registered at run time has the default settings until weights are loaded for it.
    #[test]
    fn a_registered_game_has_the_default_settings() {
        let text = mancala_rules::definition::write(Variant::Kalah.rules())
            .replace("name = \"kalah\"", "name = \"kalah-settings-test\"");
        let variant = mancala_rules::definition::register(&text).unwrap();
        let settings = tuning(variant);
        assert_eq!(settings.weights, DEFAULT.weights);
        assert_eq!(settings.bench_depth, DEFAULT.bench_depth);
        assert_eq!(settings.table_max_counters, None);
    }
}
