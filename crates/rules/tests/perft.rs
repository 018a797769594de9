//! Golden perft counts from `tests/data/perft.txt`, and the same counts from the naive reference
//! implementation where that is cheap.

use mancala_rules::{Position, Variant, perft};
use mancala_testkit::reference::RefPosition;

struct Case {
    variant: Variant,
    position: Position,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "bad line: {line}");
            let variant: Variant = fields[0].parse().unwrap();
            let position = match fields[1] {
                "startpos" => Position::start(variant),
                seed if seed.starts_with("random:") => {
                    Position::mangala_iv_deal(seed["random:".len()..].parse().unwrap())
                }
                text => Position::from_position_string(variant, text).unwrap(),
            };
            Case {
                variant,
                position,
                depth: fields[2].parse().unwrap(),
                nodes: fields[3].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn golden_perft_counts() {
    let cases = cases();
    assert!(cases.len() >= 40);
    for case in cases {
        assert_eq!(
            perft(&case.position, case.depth),
            case.nodes,
            "{} {} depth {}",
            case.variant,
            case.position,
            case.depth
        );
    }
}

#[test]
fn reference_implementation_agrees_with_the_golden_counts() {
    for case in cases().into_iter().filter(|c| c.nodes <= 1_000_000) {
        let reference = RefPosition::parse(case.variant, &case.position.to_string());
        assert_eq!(
            reference.perft(case.depth),
            case.nodes,
            "{} {} depth {}",
            case.variant,
            case.position,
            case.depth
        );
    }
}
