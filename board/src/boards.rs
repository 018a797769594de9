//! The open boards: one engine process each, and the page's connection to it.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command as Program, Stdio};

use mancala_protocol::Command;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the page hears: an engine line, or news of the board itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Line(String),
    /// The engine process ended (crashed, or was killed): the status it gave.
    EngineExited(String),
    /// The page's request of this number was refused (never reached the engine), and why.
    Refused {
        request: String,
        why: String,
    },
    /// Another connection took this board over: this one ends.
    TakenOver,
    /// The page's connection sent a message longer than any line: it ends.
    TooLong,
}

/// Lines kept for a page that is not (yet) connected.
const BACKLOG: usize = 4096;
/// Longest engine line passed on (an engine that prints endless garbage is cut short).
const MAX_ENGINE_LINE: usize = 64 * 1024;

/// One engine process with its input and the thread reading its output.
struct Engine {
    child: Child,
    stdin: ChildStdin,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where a board's messages go.
#[derive(Default)]
struct Outbox {
    page: Option<Sender<Message>>,
    /// Which connection is the page's (each attach gets the next number), so that a connection
    /// taken over does not detach its successor when it ends.
    connection: u64,
    backlog: VecDeque<Message>,
    /// The process id of the board's current engine: a replaced engine's last words (its exit
    /// above all) must not reach the page as news of the new one.
    engine: u32,
    /// Whether the engine is searching (a `go` sent, its `bestmove` not yet seen): one search
    /// per board at a time, so that a page cannot queue searches without end.
    searching: bool,
}

pub struct Board {
    pub id: String,
    engine: Mutex<Option<Engine>>,
    outbox: Arc<Mutex<Outbox>>,
    /// When the page last let go of its connection (`None` while connected).
    detached_since: Mutex<Option<Instant>>,
}

/// Passes what engine `pid` said on to the page (or keeps it until the page connects).
fn deliver(outbox: &Mutex<Outbox>, pid: u32, message: Message) {
    let mut outbox = outbox.lock().unwrap_or_else(|p| p.into_inner());
    if pid != outbox.engine {
        return;
    }
    match &message {
        Message::Line(line) if line.starts_with("bestmove") => outbox.searching = false,
        Message::EngineExited(_) => outbox.searching = false,
        _ => {}
    }
    if let Some(page) = &outbox.page
        && page.send(message.clone()).is_ok()
    {
        return;
    }
    outbox.page = None;
    if outbox.backlog.len() == BACKLOG {
        outbox.backlog.pop_front();
    }
    outbox.backlog.push_back(message);
}

/// A page's connection to its board, as [`Board::attach`] gives it: where the session posts its
/// own notices, where everything for the page arrives, and the connection's number.
pub struct Attachment {
    pub notices: Sender<Message>,
    pub messages: Receiver<Message>,
    pub connection: u64,
}
impl Board {
    fn start_engine(engine: &EngineCommand, outbox: Arc<Mutex<Outbox>>) -> std::io::Result<Engine> {
        let mut child = Program::new(&engine.program)
            .args(&engine.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let pid = child.id();
        {
            let mut outbox = outbox.lock().unwrap_or_else(|p| p.into_inner());
            outbox.engine = pid;
            outbox.searching = false;
        }
        std::thread::Builder::new()
            .name(format!("engine-{pid}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match reader
                        .by_ref()
                        .take(MAX_ENGINE_LINE as u64)
                        .read_until(b'\n', &mut line)
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&line);
                            deliver(&outbox, pid, Message::Line(text.trim_end().to_string()));
                        }
                    }
                }
                deliver(
                    &outbox,
                    pid,
                    Message::EngineExited(format!("engine {pid} ended")),
                );
            })?;
        Ok(Engine { child, stdin })
    }

    /// Sends one (checked) line to the engine from the page's connection `connection`: refused
    /// if another connection has taken the board over, or if it is a `go` while a search runs.
    pub fn send(&self, connection: u64, command: &Command) -> Result<(), String> {
        let mut engine = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        {
            let mut outbox = self.outbox.lock().unwrap_or_else(|p| p.into_inner());
            if outbox.connection != connection {
                return Err("another connection has taken this board over".into());
            }
            if matches!(command, Command::Go(_)) && engine.is_some() {
                if outbox.searching {
                    return Err("the engine is already thinking: stop it first".into());
                }
                outbox.searching = true;
            }
        }
        let Some(engine) = engine.as_mut() else {
            return Err("the engine is not running: restart it".into());
        };
        writeln!(engine.stdin, "{command}")
            .and_then(|()| engine.stdin.flush())
            .map_err(|e| format!("the engine does not take input ({e}): restart it"))
    }

    /// Ends the engine process and starts another.
    pub fn restart(&self, command: &EngineCommand) -> Result<(), String> {
        let mut engine = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        // From now on, nothing the old engine says (its end above all) is news.
        self.outbox.lock().unwrap_or_else(|p| p.into_inner()).engine = 0;
        engine.take(); // killed on drop
        *engine = Some(
            Board::start_engine(command, Arc::clone(&self.outbox))
                .map_err(|e| format!("cannot start the engine: {e}"))?,
        );
        Ok(())
    }

    /// Connects the page: it receives what waited, then everything as it comes (and what the
    /// returned sender sends). A connection already there is told it was taken over and ends:
    /// one board, one connection. Returns the connection's number for [`Board::detach`].
    pub fn attach(&self) -> Attachment {
        let (sender, receiver) = channel();
        let mut outbox = self.outbox.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(previous) = outbox.page.take() {
            let _ = previous.send(Message::TakenOver);
        }
        for message in outbox.backlog.drain(..) {
            let _ = sender.send(message);
        }
        outbox.page = Some(sender.clone());
        outbox.connection += 1;
        let connection = outbox.connection;
        *self
            .detached_since
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = None;
        Attachment {
            notices: sender,
            messages: receiver,
            connection,
        }
    }

    /// Disconnects the page's connection `connection`, unless another has taken its place.
    pub fn detach(&self, connection: u64) {
        let mut outbox = self.outbox.lock().unwrap_or_else(|p| p.into_inner());
        if outbox.connection != connection {
            return;
        }
        outbox.page = None;
        *self
            .detached_since
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
    }
}

/// Why a board could not be opened.
#[derive(Debug)]
pub enum OpenError {
    Limit(usize),
    Engine(String),
}

/// Every open board, by its unguessable id.
/// The engine program each board starts, and its arguments (the `--game` files).
#[derive(Clone, Debug)]
pub struct EngineCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

impl std::fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.program.display())?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

pub struct Boards {
    engine: EngineCommand,
    max: usize,
    open: Mutex<HashMap<String, Arc<Board>>>,
}

/// A 128-bit random id, from the operating system's generator.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: the standard library's randomly keyed hasher, twice.
        use std::hash::{BuildHasher, Hasher};
        for half in bytes.chunks_mut(8) {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u128(Instant::now().elapsed().as_nanos());
            half.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Boards {
    pub fn new(engine: EngineCommand, max: usize) -> Boards {
        Boards {
            engine,
            max,
            open: Mutex::new(HashMap::new()),
        }
    }

    pub fn engine(&self) -> &EngineCommand {
        &self.engine
    }

    pub fn max(&self) -> usize {
        self.max
    }

    pub fn count(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Opens a board with an engine of its own, within the limit.
    pub fn open(&self) -> Result<Arc<Board>, OpenError> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if open.len() >= self.max {
            return Err(OpenError::Limit(self.max));
        }
        let outbox = Arc::new(Mutex::new(Outbox::default()));
        let engine = Board::start_engine(&self.engine, Arc::clone(&outbox))
            .map_err(|e| OpenError::Engine(format!("cannot start the engine: {e}")))?;
        let board = Arc::new(Board {
            id: new_id(),
            engine: Mutex::new(Some(engine)),
            outbox,
            detached_since: Mutex::new(Some(Instant::now())),
        });
        open.insert(board.id.clone(), Arc::clone(&board));
        Ok(board)
    }

    pub fn get(&self, id: &str) -> Option<Arc<Board>> {
        self.open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned()
    }

    /// Closes a board: its engine process ends.
    pub fn close(&self, id: &str) -> bool {
        let board = self
            .open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
        if let Some(board) = &board {
            board
                .engine
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
        }
        board.is_some()
    }

    /// Closes the boards whose page has been gone for longer than `grace` (a closed tab).
    pub fn close_abandoned(&self, grace: Duration) {
        let abandoned: Vec<String> = self
            .open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|b| {
                b.detached_since
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .is_some_and(|since| since.elapsed() > grace)
            })
            .map(|b| b.id.clone())
            .collect();
        for id in abandoned {
            log::info!("closing board {id}: its page is gone");
            self.close(&id);
        }
    }
}
