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

/// `mancala-engine solve` of Al-manqala with 4 a pit (far beyond a test's time; budgets of 4096
/// nodes a probe prove bounds within the first second), its output piped, started by `shell`
/// (`sh -c`) where given.
fn long_solve(shell: Option<&str>) -> std::process::Child {
    use std::process::Stdio;
    let engine = env!("CARGO_BIN_EXE_mancala-engine");
    let args = [
        "solve",
        "al-manqala",
        "4-4-4-4-4-4-4-4-4-4-4-4-4-4-21-21-S",
        "--threads",
        "1",
        "--hash",
        "16",
        "--progress",
        "0",
        "--probe-budget",
        "4096",
    ];
    let mut command = match shell {
        Some(script) => {
            let mut command = Command::new("sh");
            command.arg("-c").arg(script).arg(engine).args(args);
            command
        }
        None => {
            let mut command = Command::new(engine);
            command.args(args);
            command
        }
    };
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine runs")
}

/// Sends `signal` to `child` once it has proven a bound (not only run a probe out of budget),
/// and returns its whole output and its exit status.
fn stop_after_a_bound(
    mut child: std::process::Child,
    signal: &str,
) -> (String, String, Option<i32>) {
    let text = mancala_testkit::signal_at_line(
        child.id(),
        child.stdout.take().expect("its output"),
        |line| line.contains("value >= -") && !line.contains('?') || line.contains("value < "),
        signal,
    );
    let output = child.wait_with_output().expect("it ends");
    let errors = String::from_utf8_lossy(&output.stderr).into_owned();
    (text, errors, output.status.code())
}

/// Checks that `text` ends a solve stopped by `signal` with the bounds proven, no value.
fn assert_stopped_with_bounds(text: &str, signal: &str) {
    assert!(value_line(text).is_none(), "no value claimed: {text}");
    let stopped = text
        .lines()
        .find(|line| line.starts_with(&format!("stopped by {signal} after ")))
        .unwrap_or_else(|| panic!("no line saying where it stopped: {text}"));
    assert!(stopped.contains("value in ["), "{stopped}");
    assert!(
        !stopped.contains("value in [-56, 56]"),
        "the bound proven before the signal is reported: {stopped}"
    );
}

/// Ctrl-C ends a long solve like a limit does: with the bounds proven so far, no value
/// claimed, and the status of a process that SIGINT ended.
#[test]
fn ctrl_c_stops_a_solve_with_the_bounds_it_has_proven() {
    // SIGINT, or SIGTERM where the tests run ignoring SIGINT.
    let (signal, status) = mancala_testkit::ctrl_c_signal();
    let (text, errors, code) = stop_after_a_bound(long_solve(None), signal);
    assert_eq!(code, Some(status), "{text}{errors}");
    assert!(
        errors.contains(&format!("stopped by SIG{signal}")),
        "{errors}"
    );
    assert_stopped_with_bounds(&text, &format!("SIG{signal}"));
}

/// A solve started by `nohup` (SIGHUP ignored) goes on when its terminal closes: the engine
/// keeps a signal ignored that it was started ignoring, and still stops on SIGTERM.
#[test]
fn a_solve_started_ignoring_sighup_goes_on_when_it_comes() {
    use std::io::{BufRead, BufReader};
    let mut child = long_solve(Some("trap '' HUP; exec \"$0\" \"$@\""));
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    let first = lines.next().expect("a line").expect("a line");
    assert!(first.starts_with("solving "), "{first}");
    mancala_testkit::send_signal(child.id(), "HUP");
    // Still searching: more probes come after the signal.
    let mut text = String::new();
    for line in lines.by_ref().take(3) {
        text += &line.expect("a line");
        text.push('\n');
    }
    assert!(child.try_wait().expect("a status").is_none(), "{text}");
    mancala_testkit::send_signal(child.id(), "TERM");
    let output = child.wait_with_output().expect("it ends");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{errors}");
    assert!(errors.contains("stopped by SIGTERM"), "{errors}");
}

/// A stopped solve says how to go on (`--known LO HI`); going on from those bounds proves the
/// value without probing outside them.
#[test]
fn a_solve_goes_on_from_the_bounds_a_stopped_run_proved() {
    let position = "4-4-4-4-4-4-4-4-4-4-4-4-12-12-S";
    let stopped = stdout(&solve(&[
        "mangala-ii",
        position,
        "--nodes",
        "400000",
        "--probe-budget",
        "4096",
    ]));
    let known: Vec<String> = stopped
        .lines()
        .find_map(|line| {
            line.split_once("to go on from them: --known ")?
                .1
                .strip_suffix(')')
        })
        .unwrap_or_else(|| panic!("no way to go on in {stopped}"))
        .split(' ')
        .map(String::from)
        .collect();
    let (lo, hi): (i32, i32) = (known[0].parse().unwrap(), known[1].parse().unwrap());
    assert!(lo <= 0 && 0 <= hi && (lo, hi) != (-48, 48), "[{lo}, {hi}]");
    // And from bounds that leave one probe to ask (value >= 2?), where a whole solve asks two.
    for (lo, hi) in [(lo, hi), (0, 2)] {
        let (lo_text, hi_text) = (lo.to_string(), hi.to_string());
        let output = solve(&["mangala-ii", position, "--known", &lo_text, &hi_text]);
        let text = stdout(&output);
        assert!(output.status.success(), "{text}");
        assert!(
            value_line(&text).is_some_and(|line| line.starts_with("value 0 ")
                && line.ends_with(&format!("given the bounds [{lo}, {hi}] of --known"))),
            "{text}"
        );
        for line in text.lines().filter(|line| line.starts_with("  value ")) {
            let bound: i32 = line
                .split_whitespace()
                .nth(2)
                .and_then(|word| word.trim_end_matches([':', '?']).parse().ok())
                .unwrap_or_else(|| panic!("a bound in {line}"));
            assert!(
                lo < bound && bound <= hi,
                "{line} probes outside [{lo}, {hi}]"
            );
        }
    }
}

/// Bounds given as proven that are not (the value of Mangala II with 4 a pit is 0) lead to a
/// value that no move keeps somewhere along its line: refused, not claimed.
#[test]
fn wrong_known_bounds_are_refused() {
    let position = "4-4-4-4-4-4-4-4-4-4-4-4-12-12-S";
    for (lo, hi) in [("2", "6"), ("-6", "-2")] {
        let output = solve(&["mangala-ii", position, "--known", lo, hi]);
        let errors = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{errors}");
        assert!(
            errors.contains("the bounds of --known are wrong"),
            "{errors}"
        );
        assert!(value_line(&stdout(&output)).is_none(), "no value claimed");
    }
    for (lo, hi, why) in [
        ("3", "1", "LO is above HI"),
        ("50", "60", "the board allows"),
    ] {
        let output = solve(&["mangala-ii", position, "--known", lo, hi]);
        let errors = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{errors}");
        assert!(errors.contains(why), "{errors}");
        assert!(output.stdout.is_empty(), "refused before it starts");
    }
}

/// `--at-least B` answers one question, whether the value is at least B, without the value's
/// line: Mangala II with 3 a pit (value 0, every value even) is at least 0 and -2, not at least
/// 1 or 2; bounds the board settles take no search; bounds given as known are used.
#[test]
fn at_least_answers_one_bound_and_claims_no_value() {
    let position = "3-3-3-3-3-3-3-3-3-3-3-3-18-18-S";
    let answer = |extra: &[&str]| {
        let output = solve(&[&["mangala-ii", position][..], extra].concat());
        let text = stdout(&output);
        assert!(output.status.success(), "{extra:?}: {text}");
        assert!(value_line(&text).is_none(), "no value claimed: {text}");
        assert!(!text.contains("\nline "), "no line searched: {text}");
        let said = text
            .lines()
            .find(|line| line.starts_with("value >= ") || line.starts_with("value < "))
            .unwrap_or_else(|| panic!("{extra:?}: no answer in {text}"))
            .to_string();
        let nodes: u64 = text
            .lines()
            .find_map(|line| line.strip_prefix("nodes ")?.split(',').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no nodes in {text}"));
        (said, nodes)
    };
    assert_eq!(answer(&["--at-least", "0"]).0, "value >= 0");
    assert_eq!(answer(&["--at-least", "-2"]).0, "value >= -2");
    assert_eq!(answer(&["--at-least", "1"]).0, "value < 1");
    assert_eq!(answer(&["--at-least", "2"]).0, "value < 2");
    assert_eq!(answer(&["--at-least", "-36"]), ("value >= -36".into(), 0));
    assert_eq!(answer(&["--at-least", "37"]), ("value < 37".into(), 0));
    assert_eq!(
        answer(&["--at-least", "6", "--known", "-4", "4"]),
        ("value < 6, given the bounds [-4, 4] of --known".into(), 0)
    );
    let output = solve(&["mangala-ii", position, "--at-least", "0", "--verify"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("cannot be used with '--verify'"),
        "{output:?}"
    );
}

/// A stopped `--at-least` prints only what it proved: the window it asks about is a question,
/// not bounds (Kalah with 4 a pit is far beyond 100,000 nodes).
#[test]
fn a_stopped_at_least_claims_no_bounds_it_only_asked_about() {
    let output = solve(&[
        "kalah",
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "--at-least",
        "8",
        "--nodes",
        "100000",
        "--probe-budget",
        "4096",
    ]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("value in [-48, 48] (not proven; the bounds are;"),
        "{text}"
    );
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("value >= ") || l.starts_with("value < ")),
        "{text}"
    );
}

/// `--verify` without tables says what it verified, and nothing about tables it does not have
/// (a "0 of the line's positions within the tables agree" read as a failure).
#[test]
fn verify_without_tables_speaks_of_no_tables() {
    let output = solve(&["mangala-ii", "0-0-0-0-2-1-0-0-0-0-1-3-30-35-S", "--verify"]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    let verified = text
        .lines()
        .find(|line| line.starts_with("verified: value "))
        .unwrap_or_else(|| panic!("no verification line in {text}"));
    assert!(!verified.contains("tables"), "{verified}");
}

/// The solver's table grows as the solve fills it: a small solve under the largest `--hash`
/// touches a few MiB (it used to touch all of it, 8 GiB and 8 s for 26,000 nodes under
/// `--hash 8192`), and a size beyond the memory this process may use is cut to it, with a note.
#[test]
fn a_small_solve_under_a_huge_hash_costs_what_it_searches() {
    let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(["solve", "kalah", "2-2-2-2-2-2-2-2-2-2-2-2-0-0-S"])
        .args(["--threads", "1", "--hash", "65536", "--progress", "0"])
        .output()
        .expect("the engine runs");
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert_eq!(
        value_line(&text),
        Some("value 6 (south to move ends 6 counters ahead)")
    );
    let peak: u64 = text
        .split("peak memory ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|mib| mib.parse().ok())
        .unwrap_or_else(|| panic!("no peak memory in {text}"));
    assert!(peak < 128, "peak memory {peak} MiB for a small solve");
    let errors = String::from_utf8_lossy(&output.stderr);
    let available = mancala_platform::memory::available_mib().expect("Linux tells");
    if available < 65536 {
        assert!(
            errors.contains("--hash 65536 is more than the")
                && errors.contains("the solver's table grows to"),
            "{errors}"
        );
    }
}
