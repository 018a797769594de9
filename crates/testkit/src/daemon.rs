//! The real engine binary as a test drives it: stdin held open, lines read with deadlines, and
//! every line it sends checked against the protocol's replies (a line that starts like a reply
//! but does not follow its form fails the test that reads it).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Program, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use mancala_protocol::{BestMove, Command, Reply};

pub struct Daemon {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// The engine binary the tests drive: `MANCALA_ENGINE_BIN` if set, else the `mancala-engine` that
/// Cargo built beside the running test (a test binary lives in `target/<profile>/deps/`, the
/// programs of the package in `target/<profile>/`).
pub fn engine_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("MANCALA_ENGINE_BIN") {
        return PathBuf::from(path);
    }
    let test = std::env::current_exe().expect("the test binary's path");
    let profile_dir = test
        .parent()
        .and_then(Path::parent)
        .expect("a test binary in target/<profile>/deps");
    profile_dir.join(format!("mancala-engine{}", std::env::consts::EXE_SUFFIX))
}

impl Daemon {
    /// Starts [`engine_binary`].
    pub fn start() -> Daemon {
        Daemon::start_program(&engine_binary())
    }

    /// Starts the engine `program`.
    pub fn start_program(program: &Path) -> Daemon {
        let mut child = Program::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if let Err(malformed) = Reply::parse(&line) {
                    // Sent in place of the line, so that the test reading it fails.
                    let _ = sender.send(format!("malformed reply {malformed}"));
                    return;
                }
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Daemon {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a typed command, as the protocol writes it.
    pub fn command(&mut self, command: &Command) {
        self.send(&command.to_string());
    }

    /// Reads up to `bestmove` (within `limit`): the lines before it, and the move.
    pub fn best_move(&self, limit: Duration) -> (Vec<String>, BestMove) {
        let mut lines = self.until("bestmove", limit);
        let last = lines.pop().expect("until returns the bestmove line");
        match Reply::parse(&last) {
            Ok(Reply::BestMove(best)) => (lines, best),
            other => panic!("'{last}' is not a bestmove line: {other:?}"),
        }
    }

    /// Sends raw bytes (line ends included), as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, within `limit` (generous: this catches hangs, not slowness).
    pub fn line(&self, limit: Duration) -> String {
        self.lines
            .recv_timeout(limit)
            .unwrap_or_else(|_| panic!("no line within {limit:?}"))
    }

    /// Lines up to and including the first that starts with `prefix`, within `limit`.
    pub fn until(&self, prefix: &str, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left.max(Duration::from_millis(1)))
                .unwrap_or_else(|_| panic!("no '{prefix}' within {limit:?}; saw {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends `isready`; returns everything answered before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", Duration::from_secs(10));
        lines.pop();
        lines
    }

    /// The one-line answer to `query <what>`.
    pub fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        self.line(Duration::from_secs(10))
    }

    /// The kernel's count of the process's peak resident memory, in MiB.
    pub fn peak_rss_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
            / 1024
    }

    /// Sends `quit` and checks that the engine exits cleanly.
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }

    /// The exit status, if the process has ended.
    pub fn try_exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().unwrap()
    }

    /// The next line if one comes within `limit`.
    pub fn next_line(&self, limit: Duration) -> Option<String> {
        self.lines.recv_timeout(limit).ok()
    }

    /// Closes stdin: end of input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
