//! `mancala-engine solve` through the real binary: probe budgets change the path of a proof,
//! never its value, and a solve stopped early prints the bounds it proved (issue 27).

use std::process::{Command, Output};

fn solve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .arg("solve")
        .args(args)
        .args(["--threads", "1", "--hash", "16", "--progress", "0"])
        .output()
        .expect("the engine runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The line starting with `value ` followed by a number: the proven value.
fn value_line(text: &str) -> Option<&str> {
    text.lines().find(|line| {
        line.strip_prefix("value ")
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|word| word.parse::<i32>().is_ok())
    })
}

#[test]
fn a_probe_out_of_budget_changes_the_path_not_the_value() {
    for (game, position) in [
        ("al-manqala", "3-3-3-3-3-3-3-3-3-3-3-3-3-3-28-28-S"),
        ("mangala-ii", "2-0-1-0-3-0-0-1-0-2-0-1-30-32-S"),
    ] {
        let without = solve(&[game, position, "--probe-budget", "0"]);
        let with = solve(&[game, position, "--probe-budget", "16"]);
        assert!(without.status.success() && with.status.success());
        let (without, with) = (stdout(&without), stdout(&with));
        assert!(!without.contains("open after"), "{without}");
        assert!(
            with.contains("open after its budget of 16 nodes"),
            "{game} {position}: {with}"
        );
        assert_eq!(value_line(&with), value_line(&without), "{with}");
        assert!(value_line(&with).is_some(), "{with}");
    }
}

/// Mangala II with 4 a pit is a draw (a test of the solver proves it in 1.2 M nodes): stopped
/// at 400,000, the budgets have proven bounds on both sides of 0 that are narrower than what
/// the board alone allows.
#[test]
fn a_stopped_solve_prints_the_bounds_around_the_value() {
    let output = solve(&[
        "mangala-ii",
        "4-4-4-4-4-4-4-4-4-4-4-4-12-12-S",
        "--nodes",
        "400000",
        "--probe-budget",
        "4096",
    ]);
    let text = stdout(&output);
    assert!(!output.status.success(), "{text}");
    assert!(value_line(&text).is_none(), "no value claimed: {text}");
    let bounds = text
        .lines()
        .find_map(|line| line.split_once("value in [")?.1.split_once(']'))
        .map(|(bounds, _)| bounds.to_string())
        .unwrap_or_else(|| panic!("no bounds in {text}"));
    let (lo, hi) = bounds
        .split_once(", ")
        .and_then(|(lo, hi)| Some((lo.parse::<i32>().ok()?, hi.parse::<i32>().ok()?)))
        .unwrap_or_else(|| panic!("bounds {bounds}"));
    assert!(lo <= 0 && 0 <= hi, "[{lo}, {hi}]");
    assert!(-48 < lo && hi < 48, "[{lo}, {hi}]: nothing proven");
}
