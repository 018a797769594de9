//! `mancala-engine openings`: random quiet openings for `mancala-match --openings`.

use std::collections::HashSet;
use std::sync::Arc;

use clap::Args;
use mancala_engine::search::{SearchOptions, TranspositionTable};
use mancala_learn::datagen::{BALANCED_TRIES, choose_opening, search_nodes};
use mancala_rules::{Game, Variant};

/// A game whose openings are moves: a game without a choice of move starts from deals, which
/// mancala-match makes itself.
fn game_with_openings(text: &str) -> Result<Variant, String> {
    super::game_with_choice(text, "openings are deals, which mancala-match makes itself")
}

/// Draws in a row that find only openings already written, before the tool gives up.
const MAX_REPEATS: u32 = 50;

/// Random quiet openings for 'mancala-match --openings'.
///
/// Each opening is a few random moves that capture nothing, written as a move prefix, one a
/// line, with its search score as a comment when --balanced asks for one.
#[derive(Args, Debug)]
pub struct Openings {
    /// The game (any with a choice of move: mangala-ii, al-manqala, anywoli, kalah, oware, or one loaded with --game; mancala-match deals Mangala IV itself).
    #[arg(value_parser = game_with_openings)]
    variant: Variant,
    /// How many different openings to write.
    #[arg(value_parser = clap::value_parser!(u64).range(1..=100_000))]
    count: u64,
    /// The output file ('-' writes stdout).
    file: String,
    /// Random quiet moves in each opening.
    #[arg(long = "random-plies", value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=60))]
    random_plies: u32,
    /// Keep only openings that a search of --nodes nodes scores within CP centi-counters of even.
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    balanced: Option<u32>,
    /// Nodes of the search that judges an opening (with --balanced).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl Openings {
    pub fn run(self) -> Result<(), String> {
        let Openings {
            variant,
            count,
            file,
            random_plies: plies,
            balanced,
            nodes,
            seed,
        } = self;
        let balanced = balanced.map(|cp| cp as i32);
        let table =
            Arc::new(TranspositionTable::new(16).map_err(|_| "out of memory for a 16 MiB table")?);
        let options = SearchOptions::default();
        let mut think = |game: &Game| search_nodes(game, nodes, &options, &table);
        let mut text = format!(
            "# mancala-engine openings {variant} {count} random-plies={plies} seed={seed}{}\n",
            balanced.map_or(String::new(), |cp| format!(" balanced={cp} nodes={nodes}"))
        );
        // Different numbers can draw the same opening (few are balanced): each is written once.
        let mut written = HashSet::new();
        let mut far = 0;
        let (mut index, mut repeats) = (0, 0);
        while (written.len() as u64) < count {
            if repeats >= MAX_REPEATS {
                return Err(format!(
                    "only {} different openings found ({MAX_REPEATS} draws in a row gave one \
                     already found): ask for fewer, more --random-plies or a wider --balanced",
                    written.len()
                ));
            }
            let (opening, searched) =
                choose_opening(variant, plies, seed, index, balanced, &mut think);
            index += 1;
            let line = if opening.moves.is_empty() {
                "startpos".to_string()
            } else {
                opening
                    .moves
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            if !written.insert(line.clone()) {
                repeats += 1;
                continue;
            }
            repeats = 0;
            match searched {
                Some((score, outcome)) => {
                    let off = balanced.is_some_and(|cp| score.abs() > cp);
                    far += off as u64;
                    let note = if off {
                        ", the closest of the draws"
                    } else {
                        ""
                    };
                    text.push_str(&format!(
                        "{line}  # {score} cp for the side to move at depth {}{note}\n",
                        outcome.depth
                    ));
                }
                None => text.push_str(&format!("{line}\n")),
            }
        }
        if file == "-" {
            print!("{text}");
        } else {
            std::fs::write(&file, &text).map_err(|e| format!("cannot write {file}: {e}"))?;
        }
        eprintln!(
            "openings {variant}: {count} written to {file}{}",
            balanced.map_or(String::new(), |cp| match far {
                0 => format!(" (all within {cp} cp)"),
                _ => format!(
                    " ({far} not within {cp} cp after {BALANCED_TRIES} draws: the closest)"
                ),
            })
        );
        Ok(())
    }
}
