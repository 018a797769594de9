//! An engine running as a child process, spoken to over pipes with deadlines on every answer.

use mancala_protocol::{Command, Dialect, Id, Reply};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command as Program, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use super::config::EngineSpec;

/// Longest line read from an engine; a longer one is cut into pieces.
const MAX_LINE: u64 = 1 << 20;
/// Lines buffered between the reader thread and the referee.
const LINE_BUFFER: usize = 4096;

/// Why an engine stopped being usable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It exited or closed its pipes.
    Crashed(String),
    /// It missed a deadline for an answer it owes.
    Unresponsive(String),
}

/// A line from the engine and when it arrived.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

/// A running engine. Dropping it sends `quit` and, if that is not enough, kills the process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// The name from `id name`, if it gave one.
    pub id_name: Option<String>,
}

impl EngineProcess {
    /// Starts the engine and does the `uci` handshake; then sends the spec's options.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProcess, Fault> {
        let mut child = Program::new(&spec.command)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crashed(format!("cannot start '{}': {e}", spec.command)))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (sender, lines) = sync_channel(LINE_BUFFER);
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || read_lines(stdout, sender))
            .map_err(|e| Fault::Crashed(format!("cannot start a reader thread: {e}")))?;
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            id_name: None,
        };
        engine.send(&Command::Handshake(Dialect::Uci))?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = engine.receive(deadline, "uciok")?;
            match Reply::parse(&line.text) {
                Ok(Reply::HandshakeOk(_)) => break,
                Ok(Reply::Id(Id::Name(name))) => engine.id_name = Some(name),
                _ => {}
            }
        }
        for (name, value) in &spec.options {
            engine.send(&Command::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            })?;
        }
        Ok(engine)
    }

    /// Sends one command (as its line).
    pub fn send(&mut self, command: &Command) -> Result<(), Fault> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Fault::Crashed("its input is closed".into()))?;
        writeln!(stdin, "{command}")
            .and_then(|()| stdin.flush())
            .map_err(|_| self.crashed())
    }

    /// The next line, waiting until `deadline`; `awaited` names what was expected, for the fault.
    pub fn receive(&mut self, deadline: Instant, awaited: &str) -> Result<Line, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Unresponsive(format!(
                "no '{awaited}' within the deadline"
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// Sends `isready` and waits for `readyok`, skipping other lines.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        while Reply::parse(&self.receive(deadline, "readyok")?.text) != Ok(Reply::ReadyOk) {}
        Ok(())
    }

    /// A crash fault, with the exit status when the process has already ended.
    fn crashed(&mut self) -> Fault {
        // The reader sees end of output a moment before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Fault::Crashed(format!("it exited ({status})"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Fault::Crashed("it closed its output".into())
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send(&Command::Quit);
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Forwards the engine's output line by line until it closes or the referee hangs up.
fn read_lines(stdout: impl Read, sender: SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buffer)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                let line = Line {
                    text,
                    at: Instant::now(),
                };
                if sender.send(line).is_err() {
                    return;
                }
            }
        }
    }
}
