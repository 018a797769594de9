//! A solve split into jobs, run as separate processes (as a batch system runs them) and merged,
//! gives the value of the whole solve (issue 27): `solve-split`, `solve-job`, `solve-merge`
//! through the real binary.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `mancala-engine ARGS` run in `dir`, whatever its exit.
fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the engine runs")
}

/// `mancala-engine ARGS` run in `dir`, which must succeed.
fn engine(args: &[&str], dir: &Path) -> Output {
    let output = run(args, dir);
    assert!(
        output.status.success(),
        "mancala-engine {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `mancala-engine ARGS` started in `dir`, its output and errors piped, for a test that reads
/// it while it runs.
fn spawn(args: &[&str], dir: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The first line starting with `value` of `text`.
fn value_line(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with("value"))
        .unwrap_or_else(|| panic!("no value in {text}"))
        .to_string()
}

/// Splits `position` at `depth` plies (within `window` if any), runs the jobs as `shards`
/// processes, merges their results and returns the merge's output.
fn split_and_merge(
    dir: &Path,
    game: &str,
    position: &str,
    depth: u32,
    window: Option<(i32, i32)>,
    shards: usize,
) -> String {
    let depth = depth.to_string();
    let mut split = vec!["solve-split", game, position, "--depth", &depth];
    let window_words = window.map(|(lo, hi)| [lo.to_string(), hi.to_string()]);
    if let Some([lo, hi]) = &window_words {
        split.extend(["--window", lo, hi]);
    }
    split.extend(["--out", "plan.txt"]);
    engine(&split, dir);
    let mut results = Vec::new();
    for k in 1..=shards {
        let out = format!("results-{k}.txt");
        let shard = format!("{k}/{shards}");
        engine(
            &["solve-job", "plan.txt", "--shard", &shard, "--out", &out],
            dir,
        );
        results.push(out);
    }
    let mut merge = vec!["solve-merge", "plan.txt"];
    merge.extend(results.iter().map(String::as_str));
    stdout(&engine(&merge, dir))
}

#[test]
fn merged_values_equal_the_whole_solve_on_the_small_starts() {
    for (game, position, depth) in [
        ("kalah", "2-2-2-2-2-2-2-2-2-2-2-2-0-0-S", 3),
        ("mangala-ii", "3-3-3-3-3-3-3-3-3-3-3-3-18-18-S", 3),
        ("al-manqala", "3-3-3-3-3-3-3-3-3-3-3-3-3-3-28-28-S", 3),
        // A middlegame of Mangala II in which play can go round in circles.
        ("mangala-ii", "1-0-2-0-1-0-0-1-0-2-0-1-31-33-S", 4),
    ] {
        let dir = tempfile_dir(&format!("{game}-{depth}"));
        let whole = stdout(&engine(&["solve", game, position], &dir));
        let merged = split_and_merge(&dir, game, position, depth, None, 3);
        assert_eq!(value_line(&merged), value_line(&whole), "{game} {position}");
        let best = whole
            .lines()
            .find_map(|l| l.strip_prefix("best move "))
            .expect("a best move");
        let moves = merged
            .lines()
            .find_map(|l| l.strip_prefix("moves "))
            .expect("the root's moves");
        let value: i32 = value_line(&whole)
            .split_whitespace()
            .nth(1)
            .and_then(|v| v.parse().ok())
            .expect("a value");
        assert!(
            moves.split(", ").any(|m| m == format!("{best} {value}")),
            "{game}: the whole solve's best move {best} keeps {value} in the merge: {moves}"
        );
    }
}

#[test]
fn a_window_decides_which_side_of_a_bound_the_value_is() {
    // Kalah with 2 per pit is +6 for South.
    let position = "2-2-2-2-2-2-2-2-2-2-2-2-0-0-S";
    let run = |name: &str, window| {
        split_and_merge(&tempfile_dir(name), "kalah", position, 2, Some(window), 2)
    };
    let above = run("kalah-above", (5, 6));
    assert_eq!(value_line(&above), "value >= 6 (the window's high end)");
    let below = run("kalah-below", (6, 7));
    assert_eq!(value_line(&below), "value <= 6 (the window's low end)");
    let inside = run("kalah-inside", (-10, 10));
    assert!(value_line(&inside).starts_with("value 6 "), "{inside}");
}

#[test]
fn a_stopped_task_resumes_and_a_merge_names_what_is_missing() {
    let dir = tempfile_dir("kalah-resume");
    let position = "2-2-2-2-2-2-2-2-2-2-2-2-0-0-S";
    engine(
        &[
            "solve-split",
            "kalah",
            position,
            "--depth",
            "2",
            "--out",
            "plan.txt",
        ],
        &dir,
    );
    engine(
        &[
            "solve-job",
            "plan.txt",
            "--shard",
            "1/2",
            "--out",
            "results.txt",
        ],
        &dir,
    );
    let merge = run(&["solve-merge", "plan.txt", "results.txt"], &dir);
    assert!(!merge.status.success(), "half the jobs cannot decide");
    let error = String::from_utf8_lossy(&merge.stderr);
    assert!(error.contains("have no result"), "{error}");
    // Run again over all jobs into the same file: the first half is not solved again.
    let again = stdout(&engine(
        &["solve-job", "plan.txt", "--out", "results.txt"],
        &dir,
    ));
    let plan = std::fs::read_to_string(dir.join("plan.txt")).expect("the plan");
    let jobs: usize = plan
        .lines()
        .find_map(|l| l.strip_prefix("jobs "))
        .and_then(|n| n.parse().ok())
        .expect("a job count");
    let half = jobs.div_ceil(2);
    assert!(
        again.contains(&format!("{} jobs of {jobs} to run", jobs - half)),
        "{again}"
    );
    let merged = stdout(&engine(&["solve-merge", "plan.txt", "results.txt"], &dir));
    assert!(value_line(&merged).starts_with("value 6 "), "{merged}");
    // Results of another plan are refused.
    engine(
        &[
            "solve-split",
            "kalah",
            position,
            "--depth",
            "1",
            "--out",
            "other.txt",
        ],
        &dir,
    );
    let foreign = run(&["solve-merge", "other.txt", "results.txt"], &dir);
    assert!(!foreign.status.success());
    assert!(
        String::from_utf8_lossy(&foreign.stderr).contains("another plan"),
        "{}",
        String::from_utf8_lossy(&foreign.stderr)
    );
}

/// The SIGTERM a batch system sends at a task's time limit stops `solve-job` cleanly: the
/// jobs finished are in the results file, the status says the signal ended it, and the same
/// command run again goes on with the rest.
#[test]
fn a_task_stopped_by_sigterm_keeps_its_finished_jobs_and_resumes() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile_dir("sigterm");
    let plan = stdout(&engine(
        &[
            "solve-split",
            "kalah",
            "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S",
            "--depth",
            "2",
            "--out",
            "plan.txt",
        ],
        &dir,
    ));
    let jobs: usize = plan
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a job count in {plan}"));
    let mut child = spawn(
        &[
            "solve-job",
            "plan.txt",
            "--out",
            "results.txt",
            "--threads",
            "1",
            "--hash",
            "16",
        ],
        &dir,
    );
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    // The first job's result (Kalah with 3 a pit takes seconds a job), then the signal.
    let first = lines
        .by_ref()
        .map(|line| line.expect("a line"))
        .find(|line| line.starts_with("job "))
        .expect("a job's result");
    mancala_testkit::send_signal(child.id(), "TERM");
    let finished = 1 + lines.filter(|line| line.is_ok()).count();
    let output = child.wait_with_output().expect("it ends");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{errors}");
    assert!(errors.contains("stopped by SIGTERM in job "), "{errors}");
    assert!(
        finished < jobs,
        "stopped before the end: {finished} of {jobs}"
    );
    let results = std::fs::read_to_string(dir.join("results.txt")).expect("the results");
    assert!(results.contains(&first), "{first} kept in {results}");
    // Run again, it names what is left (and is then ended: the rest takes half a minute).
    let mut again = spawn(&["solve-job", "plan.txt", "--out", "results.txt"], &dir);
    let mut left = String::new();
    BufReader::new(again.stdout.take().expect("its output"))
        .read_line(&mut left)
        .expect("a line");
    again.kill().expect("it ends");
    let _ = again.wait();
    assert!(
        left.starts_with(&format!("{} jobs of {jobs} to run", jobs - finished)),
        "{left}"
    );
}

/// A fresh directory of this test's own under the target directory.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("solve-split-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a directory");
    dir
}

/// A reader that stops early (`… | head -1`) ends a tool quietly, not with a panic.
#[test]
fn a_closed_output_ends_a_tool_quietly() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile_dir("closed-pipe");
    engine(
        &[
            "solve-split",
            "kalah",
            "2-2-2-2-2-2-2-2-2-2-2-2-0-0-S",
            "--depth",
            "6",
            "--out",
            "plan.txt",
        ],
        &dir,
    );
    let mut child = spawn(
        &[
            "solve-job",
            "plan.txt",
            "--out",
            "results.txt",
            "--threads",
            "1",
        ],
        &dir,
    );
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut first)
        .expect("a line");
    assert!(first.contains("jobs of"), "{first}");
    // The reader is gone: the thousands of lines still to come have nowhere to go.
    let output = child.wait_with_output().expect("it ends");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(!errors.contains("panicked"), "{errors}");
}
