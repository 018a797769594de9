//! The real binary driven through pipes: every `tests/transcripts/*.in` must produce exactly the
//! matching `.out`, plus inputs that are awkward to store as files.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ENGINE: &str = env!("CARGO_BIN_EXE_mancala-engine");

fn spawn() -> Child {
    Command::new(ENGINE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts")
}

/// Runs the engine on `input` (then end of input) and returns its stdout.
fn run(input: &[u8]) -> String {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("engine runs");
    writer.join().unwrap().expect("input written");
    assert!(output.status.success(), "exit status {}", output.status);
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// Waits for the child to exit within `limit` (generous: this catches hangs, not slowness).
fn exits_within(child: &mut Child, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    false
}

/// Timing fields vary from run to run: `nps 123 … time 4` reads `nps N … time N`.
fn normalise(output: &str) -> String {
    output
        .lines()
        .map(|line| {
            let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
            if words.first().is_some_and(|w| w == "info") {
                for i in 1..words.len() {
                    if matches!(words[i - 1].as_str(), "nps" | "time" | "hashfull") {
                        words[i] = "N".to_string();
                    }
                }
            }
            words.join(" ") + "\n"
        })
        .collect()
}

#[test]
fn transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 8, "transcripts missing");
    for input in inputs {
        let expected = std::fs::read_to_string(input.with_extension("out")).unwrap();
        let actual = normalise(&run(&std::fs::read(&input).unwrap()));
        if actual != expected {
            let line = actual
                .lines()
                .zip(expected.lines())
                .position(|(a, e)| a != e)
                .unwrap_or(actual.lines().count().min(expected.lines().count()));
            panic!(
                "{} differs at output line {}:\n--- expected\n{}\n--- actual\n{}",
                input.display(),
                line + 1,
                expected.lines().nth(line).unwrap_or("<end>"),
                actual.lines().nth(line).unwrap_or("<end>")
            );
        }
    }
}

#[test]
fn every_malformed_line_gets_exactly_one_error_line() {
    let mut input = Vec::new();
    input.extend_from_slice(b"position startpos moves A\n");
    input.extend(std::iter::repeat_n(b'x', 2 << 20));
    input.extend_from_slice(b"\n\xff\xfe\xfd\nmove \xc3\x28\nposition startpos moves A\x00\n");
    input.extend_from_slice(b"\x1b[A\n\t\n\r\nquery fen\n");
    let output = run(&input);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(
        lines,
        [
            "info string error line longer than 1048576 bytes ignored",
            "info string error line is not valid UTF-8",
            "info string error line is not valid UTF-8",
            "info string error bad arguments for 'position': expected a move (a pit letter A-X or a-x, with > or < where the mover chooses its direction, or pass), found 'A\u{0}'",
            "info string error unknown command '\u{1b}[A' (help lists the commands)",
            "response 0-7-7-7-7-7-7-6-6-6-6-6-0-0-N",
        ]
    );
}

#[test]
fn end_of_input_without_quit_exits_cleanly() {
    assert_eq!(run(b"isready"), "readyok\n");
    assert_eq!(run(b""), "");
}

#[test]
fn end_of_input_lets_a_running_perft_finish() {
    let output = run(b"variant al-manqala\nperft 6\nquery fen\n");
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[7], "Nodes searched: 95135");
    assert_eq!(lines[8], "response 7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S");
}

#[test]
fn quit_interrupts_a_running_perft() {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"perft 40\n").unwrap();
    std::thread::sleep(Duration::from_millis(100));
    stdin.write_all(b"quit\n").unwrap();
    assert!(
        exits_within(&mut child, Duration::from_secs(10)),
        "quit did not end perft"
    );
    drop(stdin);
}

#[test]
fn stop_interrupts_perft_and_the_engine_answers_afterwards() {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"perft 40\n").unwrap();
    std::thread::sleep(Duration::from_millis(100));
    stdin.write_all(b"stop\nisready\n").unwrap();
    drop(stdin);
    assert!(
        exits_within(&mut child, Duration::from_secs(10)),
        "stop did not end perft"
    );
    let mut output = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    assert!(
        output.ends_with("info string perft stopped\nreadyok\n"),
        "{output}"
    );
}

#[test]
fn commands_sent_during_perft_run_in_order_after_it() {
    let output = run(b"perft 4\nisready\nposition startpos moves A\nquery fen\n");
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines[6], "Nodes searched: 1166");
    assert_eq!(
        &lines[7..],
        ["readyok", "response 0-7-7-7-7-7-7-6-6-6-6-6-0-0-N"]
    );
}

#[test]
fn a_client_that_stops_reading_ends_the_engine() {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    drop(child.stdout.take()); // nobody reads the replies any more
    stdin.write_all(b"uci\nbench\n").unwrap();
    assert!(
        exits_within(&mut child, Duration::from_secs(10)),
        "the engine went on working for nobody"
    );
    drop(stdin);
}
