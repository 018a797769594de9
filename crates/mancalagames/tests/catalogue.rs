//! The translated MancalaGames games of `tests/data/catalogue` (this project's own files, written
//! by `import-mancalagames`): each loads, and its perft counts from the start are those
//! MancalaGames' own code gives (`tests/data/catalogue-perft.txt`, made by
//! `scripts/mancalagames-diff.py --perft 5`), so that CI checks the rules without MancalaGames.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mancala_rules::{Game, LastFourRule, Position, SplitMix64, Variant, definition, perft};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(path)
}

/// Registers every game file of the catalogue, by name.
fn catalogue() -> BTreeMap<String, Variant> {
    let mut games = BTreeMap::new();
    for entry in std::fs::read_dir(data("catalogue")).expect("tests/data/catalogue") {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let variant =
            definition::register(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        games.insert(variant.name().to_string(), variant);
    }
    games
}

#[test]
fn the_catalogue_games_count_as_mancalagames_does() {
    let games = catalogue();
    assert!(games.len() >= 25, "{} games", games.len());
    let golden = std::fs::read_to_string(data("catalogue-perft.txt")).unwrap();
    let mut checked = BTreeMap::new();
    let mut later_rounds = BTreeMap::new();
    for line in golden
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, from, depth, nodes] = fields[..] else {
            panic!("bad line: {line}");
        };
        let variant = games[name];
        let depth: u32 = depth.parse().unwrap();
        let root = match from {
            "startpos" => Position::start(variant),
            fen => Position::from_position_string(variant, fen)
                .unwrap_or_else(|e| panic!("{name} {fen}: {e}")),
        };
        assert_eq!(
            perft(&root, depth),
            nodes.parse::<u64>().unwrap(),
            "{name} from {from} depth {depth}"
        );
        if from == "startpos" {
            *checked.entry(name).or_insert(0) += 1;
        } else {
            // A later round of a match of rounds: its string says which pits are blocked, in a
            // match for territory who owns each pit now, or in a match of rounds won the rounds
            // won so far.
            let moved = root.north_owned_pits() != Position::start(variant).north_owned_pits();
            let won = root.round_wins() != [0, 0];
            assert!(
                root.blocked_pits() != 0 || moved || won,
                "{name} {from}: blocks a pit, moves one or follows a round won"
            );
            *later_rounds.entry(name).or_insert(0) += 1;
        }
    }
    for (name, variant) in &games {
        assert_eq!(checked.get(name.as_str()), Some(&5), "{name}: five depths");
        let rules = variant.rules();
        if rules.blocks_pits() || rules.territory() || rules.wins_to_win() > 0 {
            assert_eq!(
                later_rounds.get(name.as_str()),
                Some(&4),
                "{name}: four depths from a later round"
            );
        }
    }
}

#[test]
fn every_catalogue_game_plays_to_an_end_with_its_counters_kept() {
    let mut random = SplitMix64::new(52);
    for (name, variant) in catalogue() {
        for _ in 0..20 {
            let mut game = Game::new(Position::start(variant), LastFourRule::default());
            // Matches of rounds run to a few thousand moves.
            for _ in 0..50_000 {
                if game.is_over() {
                    break;
                }
                let moves = game.legal_moves();
                let mv = moves.as_slice()[(random.next_u64() % moves.len() as u64) as usize];
                game.play(mv).unwrap();
                let pos = game.position();
                let on_board: u32 = pos.pits().iter().map(|&c| c as u32).sum();
                assert_eq!(on_board, pos.on_board(), "{name}: the board's count");
                let kept = on_board
                    + pos.captured(mancala_rules::Side::South) as u32
                    + pos.captured(mancala_rules::Side::North) as u32;
                assert_eq!(kept, pos.total(), "{name}: counters kept");
                // Only at closed pits do counters leave the game.
                if variant.rules().closes_pits_at == 0 {
                    assert_eq!(kept, variant.rules().total(), "{name}: counters kept");
                } else {
                    assert!(kept <= variant.rules().total(), "{name}: counters kept");
                }
            }
            assert!(game.is_over(), "{name}: a random game ends");
            let [south, north] = game.score();
            assert!(south + north <= variant.rules().total(), "{name}");
        }
    }
}
