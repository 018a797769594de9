//! The web server: the page, a few JSON calls, and one WebSocket per board.
//!
//! Crates: httparse reads request heads, tungstenite speaks WebSocket over the connection (both
//! small, well kept, synchronous: a thread per connection is plenty for a board on one's own
//! machine, and no async runtime is needed).
//!
//! Nobody else gets in: the server listens on 127.0.0.1 only; every request must name this
//! server in its `Host` (a DNS-rebinding site names its own) and, when it has an `Origin`, come
//! from this server's own page (a page of any other site that opens a WebSocket or posts here
//! says where it comes from); calls that change anything must have that `Origin` and a custom
//! header (which other sites cannot send without a preflight this server never grants); and a
//! board is reached only by its random 128-bit id. The engine's path comes from the command line
//! only.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tungstenite::protocol::frame::{CloseFrame, coding::CloseCode};
use tungstenite::protocol::{Role, WebSocket, WebSocketConfig};
use tungstenite::{Message as WsMessage, handshake::derive_accept_key};

use crate::Settings;
use crate::boards::{Attachment, Board, Boards, Message, OpenError};
use crate::commands;
use crate::gate::{Gate, Ticket};

/// The page's files, built into the binary: name, type, content.
const FILES: [(&str, &str, &str); 5] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../page/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/app.js"),
    ),
    (
        "link.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/link.js"),
    ),
    (
        "view.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/view.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../page/style.css"),
    ),
];
const ICON: &str = include_str!("../page/icon.svg");

/// Longest request head or body read.
const MAX_REQUEST: usize = 16 * 1024;
/// Longest WebSocket message: a request number, a space and a line.
const MAX_MESSAGE: usize = commands::MAX_LINE + 32;
/// Headers that decide who may ask and what: each may come once (with two, which one a check
/// reads and which one another part trusts could differ).
const SINGLE_HEADERS: [&str; 7] = [
    "host",
    "origin",
    "x-mancala-board",
    "upgrade",
    "sec-websocket-key",
    "content-length",
    "transfer-encoding",
];
/// A page that reconnects quickly keeps its board; after this long without it, it closes.
const ABANDONED_AFTER: Duration = Duration::from_secs(10);
/// Connections held at once beyond one per board (the page, its files and calls need a few).
const SPARE_CONNECTIONS: usize = 32;
/// How long a request's head (and body) may take to arrive, in all.
const HEAD_DEADLINE: Duration = Duration::from_secs(5);

/// Headers of every response: no page may frame the board (its controls could be clicked
/// through a disguise), and the page runs only this server's own script and style.
const SECURITY_HEADERS: &str = "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n\
     Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src \
     'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n\
     Referrer-Policy: no-referrer\r\n";

/// What this server calls itself, for the `Host` and `Origin` checks.
struct Identity {
    hosts: [String; 2],
    origins: [String; 2],
}

impl Identity {
    fn new(port: u16) -> Identity {
        Identity {
            hosts: [format!("127.0.0.1:{port}"), format!("localhost:{port}")],
            origins: [
                format!("http://127.0.0.1:{port}"),
                format!("http://localhost:{port}"),
            ],
        }
    }
}

pub fn serve(settings: Settings) -> anyhow::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", settings.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", settings.port))?;
    let port = listener.local_addr()?.port();
    let identity = Arc::new(Identity::new(port));
    let boards = Arc::new(Boards::new(
        settings.engine_command(),
        usize::from(settings.max_engines),
    ));
    println!(
        "mancala-board: open http://127.0.0.1:{port}/ in a browser (engine {}, at most {} boards)",
        boards.engine(),
        boards.max()
    );
    let _ = std::io::stdout().flush();
    let gate = Gate::new(boards.max() + SPARE_CONNECTIONS);
    {
        let (boards, gate) = (Arc::clone(&boards), Arc::clone(&gate));
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                boards.close_abandoned(ABANDONED_AFTER);
                gate.close_late(HEAD_DEADLINE);
            }
        });
    }
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let Some(ticket) = gate.admit(&stream) else {
            // Full of live connections: refused at once, without a thread.
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = json_error(
                &mut stream,
                "503 Service Unavailable",
                "too many connections",
            );
            continue;
        };
        let (boards, identity) = (Arc::clone(&boards), Arc::clone(&identity));
        std::thread::spawn(move || {
            if let Err(e) = handle(stream, &boards, &identity, &ticket) {
                log::debug!("connection: {e:#}");
            }
        });
    }
    Ok(())
}

/// A request's head, as the server needs it.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    /// A header of [`SINGLE_HEADERS`] that the request gives more than once.
    fn repeated_header(&self) -> Option<&'static str> {
        SINGLE_HEADERS.into_iter().find(|name| {
            self.headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
                .count()
                > 1
        })
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> anyhow::Result<Option<Request>> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let read = reader
            .by_ref()
            .take((MAX_REQUEST - head.len()) as u64)
            .read_until(b'\n', &mut head)?;
        if read == 0 {
            return Ok(None);
        }
        if head.ends_with(b"\r\n\r\n") || head.ends_with(b"\n\n") {
            break;
        }
        anyhow::ensure!(
            head.len() < MAX_REQUEST && head.len() > before,
            "request too long"
        );
    }
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut parsed = httparse::Request::new(&mut headers);
    anyhow::ensure!(parsed.parse(&head)?.is_complete(), "incomplete request");
    let headers: Vec<(String, String)> = parsed
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_string(),
                String::from_utf8_lossy(h.value).trim().to_string(),
            )
        })
        .collect();
    let mut request = Request {
        method: parsed.method.unwrap_or("").to_string(),
        path: parsed.path.unwrap_or("").to_string(),
        headers,
        body: Vec::new(),
    };
    let length: usize = request
        .header("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    anyhow::ensure!(length <= MAX_REQUEST, "body too long");
    request.body = vec![0; length];
    reader.read_exact(&mut request.body)?;
    Ok(Some(request))
}

fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &str) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: \
         no-store\r\n{SECURITY_HEADERS}Connection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

fn json_error(stream: &mut TcpStream, status: &str, message: &str) -> std::io::Result<()> {
    let escaped = message.replace('\\', "\\\\").replace('"', "\\\"");
    respond(
        stream,
        status,
        "application/json",
        &format!("{{\"error\": \"{escaped}\"}}"),
    )
}

fn handle(
    stream: TcpStream,
    boards: &Boards,
    identity: &Identity,
    ticket: &Ticket,
) -> anyhow::Result<()> {
    stream.set_read_timeout(Some(HEAD_DEADLINE))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    let Some(request) = read_request(&mut reader)? else {
        return Ok(());
    };
    ticket.head_done();
    log::debug!(
        "{} {} (host {:?}, origin {:?})",
        request.method,
        request.path,
        request.header("host"),
        request.header("origin")
    );
    if let Some(name) = request.repeated_header() {
        json_error(
            &mut stream,
            "400 Bad Request",
            &format!("the header {name} may be given once"),
        )?;
        return Ok(());
    }
    // Who may ask: this server's own name, and its own page.
    let host_ok = request.header("host").is_some_and(|h| {
        identity
            .hosts
            .iter()
            .any(|ours| ours.eq_ignore_ascii_case(h))
    });
    if !host_ok {
        json_error(&mut stream, "421 Misdirected Request", "unknown host")?;
        return Ok(());
    }
    let origin = request.header("origin");
    if origin.is_some_and(|o| !identity.origins.iter().any(|ours| ours == o)) {
        json_error(
            &mut stream,
            "403 Forbidden",
            "requests from other sites are refused",
        )?;
        return Ok(());
    }
    let from_page = origin.is_some() && request.header("x-mancala-board") == Some("1");
    let path = request.path.split('?').next().unwrap_or("").to_string();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (request.method.as_str(), parts.as_slice()) {
        ("GET", [name]) if FILES.iter().any(|(file, ..)| file == name) || name.is_empty() => {
            let name = if name.is_empty() { "index.html" } else { name };
            let (_, kind, content) = FILES.iter().find(|(file, ..)| *file == name).unwrap();
            respond(&mut stream, "200 OK", kind, content)?
        }
        ("GET", ["favicon.svg" | "favicon.ico"]) => {
            respond(&mut stream, "200 OK", "image/svg+xml", ICON)?
        }
        ("GET", ["api", "status"]) => respond(
            &mut stream,
            "200 OK",
            "application/json",
            &format!(
                "{{\"boards\": {}, \"max\": {}}}",
                boards.count(),
                boards.max()
            ),
        )?,
        ("POST", ["api", "boards"]) if from_page => match boards.open() {
            Ok(board) => respond(
                &mut stream,
                "201 Created",
                "application/json",
                &format!("{{\"id\": \"{}\"}}", board.id),
            )?,
            Err(OpenError::Limit(max)) => json_error(
                &mut stream,
                "503 Service Unavailable",
                &format!(
                    "all {max} boards this server allows are open (close a tab, or start \
                     mancala-board with a larger --max-engines)"
                ),
            )?,
            Err(OpenError::Engine(e)) => json_error(&mut stream, "500 Internal Server Error", &e)?,
        },
        ("POST", ["api", "boards", id, "restart"]) if from_page => match boards.get(id) {
            Some(board) => match board.restart(boards.engine()) {
                Ok(()) => respond(&mut stream, "204 No Content", "text/plain", "")?,
                Err(e) => json_error(&mut stream, "500 Internal Server Error", &e)?,
            },
            None => json_error(&mut stream, "404 Not Found", "no such board")?,
        },
        // A closing tab's beacon cannot carry the custom header; closing is harmless anyway.
        ("POST", ["api", "boards", id, "close"]) if origin.is_some() => {
            if boards.close(id) {
                respond(&mut stream, "204 No Content", "text/plain", "")?
            } else {
                json_error(&mut stream, "404 Not Found", "no such board")?
            }
        }
        ("GET", ["api", "boards", id, "socket"]) if origin.is_some() => {
            let upgrade = request
                .header("upgrade")
                .is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
            let key = request.header("sec-websocket-key");
            match (boards.get(id), upgrade, key) {
                (Some(board), true, Some(key)) => {
                    let accept = derive_accept_key(key.as_bytes());
                    // The board is taken over before the client hears it is connected: once the
                    // handshake is answered, nothing the old connection sends reaches the engine.
                    let attachment = board.attach();
                    let connection = attachment.connection;
                    let handshake = write!(
                        stream,
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: \
                         Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
                    )
                    .and_then(|()| stream.flush())
                    .and_then(|()| stream.set_read_timeout(None));
                    if let Err(e) = handshake {
                        board.detach(connection);
                        return Err(e.into());
                    }
                    session(stream, &board, attachment);
                }
                (None, _, _) => json_error(&mut stream, "404 Not Found", "no such board")?,
                _ => json_error(&mut stream, "400 Bad Request", "a WebSocket is expected")?,
            }
        }
        ("POST", ["api", ..]) | ("GET", ["api", "boards", ..]) => json_error(
            &mut stream,
            "403 Forbidden",
            "only the board's own page may do this",
        )?,
        _ => json_error(&mut stream, "404 Not Found", "nothing here")?,
    }
    Ok(())
}

/// A page's connection to its board: its messages are numbered commands for the engine
/// (`<number> <command>`, checked; the number is the page's own, to match answers to requests),
/// and everything the engine says goes to it as it comes. `board …` messages are the server's
/// own: `board refused <number> <why>` for a command that did not reach the engine (so the page
/// knows which of its requests failed, whatever the engine is still answering), `board exit
/// <status>` when the engine ended, `board taken-over` when another connection took the board
/// (then the server closes this one, whether or not the client answers the close). Only the
/// board's current connection reaches its engine, one search at a time, and a message longer
/// than a line ends the connection at its frame's header (close code 1009).
fn session(stream: TcpStream, board: &Arc<Board>, attachment: Attachment) {
    let Attachment {
        notices,
        messages,
        connection,
    } = attachment;
    let (Ok(write_half), Ok(closer)) = (stream.try_clone(), stream.try_clone()) else {
        board.detach(connection);
        return;
    };
    // A message longer than a line the board accepts is refused at its frame's header, before
    // anything of it is buffered.
    let limits = WebSocketConfig::default()
        .max_frame_size(Some(MAX_MESSAGE))
        .max_message_size(Some(MAX_MESSAGE))
        .read_buffer_size(MAX_MESSAGE);
    let mut reader = WebSocket::from_raw_socket(stream, Role::Server, Some(limits));
    let mut writer = WebSocket::from_raw_socket(write_half, Role::Server, None);
    let forward = std::thread::spawn(move || {
        loop {
            let text = match messages.recv_timeout(Duration::from_secs(15)) {
                Ok(Message::Line(line)) => line,
                Ok(Message::EngineExited(status)) => format!("board exit {status}"),
                Ok(Message::Refused { request, why }) => format!("board refused {request} {why}"),
                Ok(Message::TakenOver) => {
                    let _ = writer.send(WsMessage::Text("board taken-over".into()));
                    let _ = writer.close(None);
                    let _ = writer.flush();
                    // The server ends the connection itself: a client that ignores the close
                    // frame is cut off, its thread and its slot at the door freed.
                    let _ = closer.shutdown(Shutdown::Both);
                    return;
                }
                Ok(Message::TooLong) => {
                    let _ = writer.close(Some(CloseFrame {
                        code: CloseCode::Size,
                        reason: format!("a message is at most {MAX_MESSAGE} bytes").into(),
                    }));
                    let _ = writer.flush();
                    let _ = closer.shutdown(Shutdown::Both);
                    return;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if writer.send(WsMessage::Ping(Vec::new().into())).is_err() {
                        return;
                    }
                    continue;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
            };
            if writer.send(WsMessage::Text(text.into())).is_err() {
                return;
            }
        }
    });
    loop {
        match reader.read() {
            Ok(WsMessage::Text(text)) => {
                let (request, outcome) = match commands::numbered(text.as_str()) {
                    Ok((number, line)) => (
                        number.to_string(),
                        commands::check(line).and_then(|command| board.send(connection, &command)),
                    ),
                    Err(why) => ("-".to_string(), Err(why)),
                };
                if let Err(why) = outcome {
                    let _ = notices.send(Message::Refused { request, why });
                }
            }
            Err(tungstenite::Error::Capacity(e)) => {
                log::debug!("connection refused a message: {e}");
                let _ = notices.send(Message::TooLong);
                break;
            }
            Ok(WsMessage::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    drop(notices);
    board.detach(connection);
    let _ = forward.join();
}
