//! A layer built by several machines: each builds a part, a merge makes the layer.
//!
//! In a game that sows into its stores, a move that stays in its layer keeps both row totals
//! (the hand never leaves the mover's row), and the other side's view swaps them. A layer of `n`
//! counters therefore falls into independent classes, one for each smaller row total
//! `0..=n / 2`, and a part is a set of classes, dealt out by size so that the parts weigh about
//! the same. Every part reads every layer below (all of them, from the shared directory) and
//! writes a file the size of the layer in which the other parts' positions hold a mark; the
//! merge takes each position from the one part that solved it, refuses overlaps and gaps, and
//! writes the layer file that a whole build would have written. Games whose layers cycle cannot
//! be split this way (their cycles link a whole layer) and are refused.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{
    BuildError, BuildReport, Event, LayerBuild, NOT_SOLVED, available_memory, has_tables,
    max_counters,
};
use crate::file::{layer_path, read_layer, write_layer};
use crate::index::Ranking;
use crate::{Layer, layer_header};
use mancala_rules::Variant;

/// Part `number` (from 1) of `count` parts of a layer, as a batch system numbers its tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerPart {
    pub number: u32,
    pub count: u32,
}

/// Where part `part` of the layer of `counters` counters goes:
/// `kalah-20.part-3-of-8.mtb` beside `kalah-20.mtb`.
pub fn part_path(dir: &Path, variant: Variant, counters: u32, part: LayerPart) -> PathBuf {
    dir.join(format!(
        "{variant}-{counters:02}.part-{}-of-{}.mtb",
        part.number, part.count
    ))
}

/// The row classes of a layer of `counters` counters (`0..=counters / 2`) that `part` solves:
/// the biggest class first, each to the part with the fewest positions so far.
fn classes_of(variant: Variant, counters: u32, part: LayerPart) -> Vec<bool> {
    let row = Ranking::new(variant.rules().pits_per_row);
    let n = counters as usize;
    let mut sizes: Vec<(u64, usize)> = (0..=n / 2)
        .map(|smaller| {
            let boards = row.layer_size(smaller) * row.layer_size(n - smaller);
            let views = if smaller == n - smaller { 1 } else { 2 };
            (boards * views, smaller)
        })
        .collect();
    sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut load = vec![0u64; part.count as usize];
    let mut classes = vec![false; n / 2 + 1];
    for (size, class) in sizes {
        let lightest = (0..load.len())
            .min_by_key(|&p| (load[p], p))
            .expect("at least one part");
        load[lightest] += size;
        classes[class] = lightest + 1 == part.number as usize;
    }
    classes
}

/// Builds part `part` of the layer of `counters` counters of `variant` in `dir`, every layer
/// below being there already; writes it to [`part_path`]. `limit` is the largest layer accepted
/// (`None`: [`max_counters`]).
#[allow(clippy::too_many_arguments)]
pub fn build_part(
    variant: Variant,
    counters: u32,
    limit: Option<u32>,
    part: LayerPart,
    dir: &Path,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<BuildReport, BuildError> {
    if !has_tables(variant) {
        return Err(BuildError::NoTables(variant));
    }
    if variant.rules().distance_to_stores(&[]).is_none() {
        return Err(BuildError::NotSplittable(variant));
    }
    let limit = limit
        .unwrap_or_else(|| max_counters(variant))
        .min(variant.rules().total());
    if counters > limit {
        return Err(BuildError::TooLarge { counters, limit });
    }
    let started = Instant::now();
    let mut layers = Vec::with_capacity(counters as usize);
    let mut report = BuildReport::default();
    for below in 0..counters {
        let path = layer_path(dir, variant, below);
        if !path.exists() {
            return Err(BuildError::MissingLayer(path));
        }
        let header = layer_header(variant, below);
        let values = read_layer(&path, &header).map_err(BuildError::File)?;
        report.reused.push(below);
        layers.push(Layer {
            counters: below,
            boards: header.positions / header.states as u64,
            values,
        });
    }
    let header = layer_header(variant, counters);
    let boards = header.positions / header.states as u64;
    // About a K-th of the layer, one look each (the classes are dealt out by size).
    let share = header.positions.div_ceil(part.count.max(1) as u64);
    progress(Event::Started {
        counters,
        positions: share,
        expected_work: share,
    });
    let memory = available_memory().unwrap_or(u64::MAX);
    let classes = classes_of(variant, counters, part);
    let built = mancala_rules::with_spec!(variant, S => {
        let mut build = LayerBuild::<S>::new(variant, counters, boards, header.states, &layers);
        if !build.by_distance_possible(u64::MAX) {
            return Err(BuildError::NotSplittable(variant));
        }
        build.part = Some(classes);
        build.run(threads, memory, stop, progress)
    })?;
    let path = part_path(dir, variant, counters, part);
    write_layer(&path, &header, &built.values).map_err(BuildError::File)?;
    let seconds = started.elapsed().as_secs_f64();
    // The positions this part solved: one look each.
    progress(Event::Finished {
        counters,
        positions: built.work,
        passes: built.passes,
        work: built.work,
        seconds,
    });
    report.built.push(counters);
    report.bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    report.seconds = seconds;
    Ok(report)
}

/// Merges the `count` parts of the layer of `counters` counters in `dir` into its layer file,
/// then removes them. Returns the layer file's path.
pub fn merge_parts(
    variant: Variant,
    counters: u32,
    count: u32,
    dir: &Path,
) -> Result<PathBuf, BuildError> {
    let header = layer_header(variant, counters);
    let mut merged = vec![NOT_SOLVED; header.positions as usize];
    let paths: Vec<PathBuf> = (1..=count)
        .map(|number| part_path(dir, variant, counters, LayerPart { number, count }))
        .collect();
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(BuildError::MissingPart(missing.clone()));
    }
    for path in &paths {
        let values = read_layer(path, &header).map_err(BuildError::File)?;
        for (index, (into, &value)) in merged.iter_mut().zip(&values).enumerate() {
            if value == NOT_SOLVED {
                continue;
            }
            if *into != NOT_SOLVED {
                return Err(BuildError::PartsDisagree(format!(
                    "position {index} is in two parts (the second: {})",
                    path.display()
                )));
            }
            *into = value;
        }
    }
    let gaps = merged.iter().filter(|&&v| v == NOT_SOLVED).count();
    if gaps > 0 {
        return Err(BuildError::PartsDisagree(format!(
            "{gaps} positions are in no part (parts of splits into other numbers?)"
        )));
    }
    let path = layer_path(dir, variant, counters);
    write_layer(&path, &header, &merged).map_err(BuildError::File)?;
    for part in &paths {
        std::fs::remove_file(part)
            .map_err(|e| BuildError::File(crate::file::FileError::Io(part.clone(), e)))?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::build;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mancala-parts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// Every class goes to exactly one part, and the parts weigh about the same.
    #[test]
    fn the_classes_are_dealt_out_once_each() {
        for (counters, count) in [(12, 3), (20, 8), (5, 1), (4, 7)] {
            let parts: Vec<Vec<bool>> = (1..=count)
                .map(|number| classes_of(Variant::Kalah, counters, LayerPart { number, count }))
                .collect();
            for class in 0..=counters as usize / 2 {
                let owners = parts.iter().filter(|p| p[class]).count();
                assert_eq!(owners, 1, "class {class} of {counters} in {count} parts");
            }
        }
    }

    /// A layer built in three parts and merged is the layer a whole build writes, byte for byte;
    /// the merge removes the parts.
    #[test]
    fn a_layer_built_in_parts_and_merged_is_the_whole_layer() {
        let never = AtomicBool::new(false);
        let (whole, split) = (scratch("whole"), scratch("split"));
        build(Variant::Kalah, 12, &whole, 2, &never, &|_| {}).unwrap();
        build(Variant::Kalah, 11, &split, 2, &never, &|_| {}).unwrap();
        let count = 3;
        for number in 1..=count {
            build_part(
                Variant::Kalah,
                12,
                None,
                LayerPart { number, count },
                &split,
                1,
                &never,
                &|_| {},
            )
            .unwrap();
        }
        let merged = merge_parts(Variant::Kalah, 12, count, &split).unwrap();
        let expected = layer_path(&whole, Variant::Kalah, 12);
        assert_eq!(
            std::fs::read(&merged).unwrap(),
            std::fs::read(expected).unwrap()
        );
        assert!(!part_path(&split, Variant::Kalah, 12, LayerPart { number: 1, count }).exists());
        let _ = std::fs::remove_dir_all(whole);
        let _ = std::fs::remove_dir_all(split);
    }

    /// A merge refuses a missing part, and parts of two different splits; a part refuses a game
    /// whose layers cycle and a layer whose lower layers are missing.
    #[test]
    fn merges_and_parts_refuse_what_does_not_make_a_layer() {
        let never = AtomicBool::new(false);
        let dir = scratch("refusals");
        build(Variant::Kalah, 9, &dir, 1, &never, &|_| {}).unwrap();
        let part = |number, count| LayerPart { number, count };
        // One thread, no stop, no progress: part `number` of `count` of the layer of `counters`.
        let build_part_of = |variant, counters, number, count| {
            build_part(
                variant,
                counters,
                None,
                part(number, count),
                &dir,
                1,
                &never,
                &|_| {},
            )
        };
        build_part_of(Variant::Kalah, 10, 1, 2).unwrap();
        let missing = merge_parts(Variant::Kalah, 10, 2, &dir).unwrap_err();
        assert!(matches!(missing, BuildError::MissingPart(_)), "{missing}");
        // Part 2 of 3 in the place of part 2 of 2: some classes twice or never.
        build_part_of(Variant::Kalah, 10, 2, 3).unwrap();
        std::fs::rename(
            part_path(&dir, Variant::Kalah, 10, part(2, 3)),
            part_path(&dir, Variant::Kalah, 10, part(2, 2)),
        )
        .unwrap();
        let wrong = merge_parts(Variant::Kalah, 10, 2, &dir).unwrap_err();
        assert!(matches!(wrong, BuildError::PartsDisagree(_)), "{wrong}");
        assert!(!layer_path(&dir, Variant::Kalah, 10).exists());
        let gap = build_part_of(Variant::Kalah, 12, 1, 2).unwrap_err();
        assert!(matches!(gap, BuildError::MissingLayer(_)), "{gap}");
        let cycles = build_part_of(Variant::MangalaII, 4, 1, 2).unwrap_err();
        assert!(matches!(cycles, BuildError::NotSplittable(_)), "{cycles}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
