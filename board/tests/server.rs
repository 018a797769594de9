//! The board server without a browser: who may use it (Host, Origin, the page's own header),
//! what reaches the engine (only the board's commands, one line at a time), the limit on boards,
//! and engines that end with their board (closed, or abandoned by a tab that went away).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{BoardServer, engine_children};
use mancala_testkit::send_signal;
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// A raw HTTP/1.1 request with exactly these headers; the status code and the body.
fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("Content-Length: 0\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {reply:?}"));
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, body.to_string())
}

/// The headers the board's own page sends.
fn own(port: u16) -> [(String, String); 3] {
    [
        ("Host".into(), format!("127.0.0.1:{port}")),
        ("Origin".into(), format!("http://127.0.0.1:{port}")),
        ("X-Mancala-Board".into(), "1".into()),
    ]
}

fn as_refs(headers: &[(String, String)]) -> Vec<(&str, &str)> {
    headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

/// Opens a board as the page does; its id.
fn open_board(port: u16) -> String {
    let (status, body) = http(port, "POST", "/api/boards", &as_refs(&own(port)));
    assert_eq!(status, 201, "{body}");
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    json["id"].as_str().unwrap().to_string()
}

/// The closing tab's beacon for board `id`: the page's Origin, no custom header; its status.
fn beacon_close(port: u16, id: &str) -> u16 {
    let (host, origin) = (
        format!("127.0.0.1:{port}"),
        format!("http://127.0.0.1:{port}"),
    );
    let path = format!("/api/boards/{id}/close");
    http(port, "POST", &path, &[("Host", &host), ("Origin", &origin)]).0
}

type Socket = WebSocket<TcpStream>;

/// The board's WebSocket, opened with `origin`; the handshake's error status if refused.
fn socket(port: u16, id: &str, origin: Option<&str>) -> Result<Socket, u16> {
    let mut request = format!("ws://127.0.0.1:{port}/api/boards/{id}/socket")
        .into_client_request()
        .unwrap();
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
    }
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    match tungstenite::client(request, stream) {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(reply))) => {
            Err(reply.status().as_u16())
        }
        Err(e) => panic!("handshake: {e}"),
    }
}

fn own_socket(port: u16, id: &str) -> Socket {
    socket(port, id, Some(&format!("http://127.0.0.1:{port}"))).expect("the page's socket")
}

/// The page's socket, once the engine has answered through it.
fn ready_socket(port: u16, id: &str) -> Socket {
    let mut socket = own_socket(port, id);
    send(&mut socket, "isready");
    read_until(&mut socket, |l| l == "readyok");
    socket
}

/// How long [`read_until`] waits in all. The socket's read timeout alone does not bound it: the
/// server's pings every 15 s keep a read alive, so a message that never comes would hang the test.
const READ_DEADLINE: Duration = Duration::from_secs(60);

/// Reads messages until one satisfies `last`; all of them. Fails after [`READ_DEADLINE`].
fn read_until(socket: &mut Socket, last: impl Fn(&str) -> bool) -> Vec<String> {
    let start = Instant::now();
    let mut lines = Vec::new();
    loop {
        assert!(
            start.elapsed() < READ_DEADLINE,
            "no awaited message within {READ_DEADLINE:?}; got {lines:?}"
        );
        match socket.read().expect("a message") {
            Message::Text(text) => {
                let text = text.to_string();
                let done = last(&text);
                lines.push(text);
                if done {
                    return lines;
                }
            }
            Message::Close(_) => panic!("closed after {lines:?}"),
            _ => {}
        }
    }
}

/// Sends `line` as the page does, numbered (the number of a refused request comes back).
fn send(socket: &mut Socket, line: &str) {
    send_numbered(socket, 1, line);
}

fn send_numbered(socket: &mut Socket, number: u64, line: &str) {
    socket
        .send(Message::Text(format!("{number} {line}").into()))
        .unwrap();
}

fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_page_is_served_to_its_own_host_only() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let (status, body) = http(port, "GET", "/", &[("Host", &host)]);
    assert_eq!(status, 200);
    assert!(
        body.contains("<script type=\"module\" src=\"/app.js\">"),
        "{body}"
    );
    let (status, _) = http(port, "GET", "/", &[("Host", &format!("localhost:{port}"))]);
    assert_eq!(status, 200);
    // The page's modules and style, each with its type (a module needs a JavaScript type).
    for (file, kind) in [
        ("/app.js", "text/javascript"),
        ("/link.js", "text/javascript"),
        ("/view.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/index.html", "text/html"),
    ] {
        assert_eq!(http(port, "GET", file, &[("Host", &host)]).0, 200, "{file}");
        assert!(
            head_of(port, file).contains(&format!("Content-Type: {kind}")),
            "{file}"
        );
    }
    assert_eq!(http(port, "GET", "/nothing.js", &[("Host", &host)]).0, 404);
    // A DNS-rebinding site reaches 127.0.0.1 under its own name.
    let (status, body) = http(
        port,
        "GET",
        "/",
        &[("Host", &format!("evil.example:{port}"))],
    );
    assert_eq!(status, 421, "{body}");
    assert_eq!(http(port, "GET", "/", &[]).0, 421, "no Host at all");
    assert_eq!(
        http(port, "GET", "/", &[("Host", "127.0.0.1:1")]).0,
        421,
        "another port"
    );
    assert_eq!(http(port, "GET", "/nothing", &[("Host", &host)]).0, 404);
}

#[test]
fn other_sites_cannot_open_or_drive_boards() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let evil = "http://evil.example";
    // Opening a board: the page's Origin and its header, both.
    for headers in [
        vec![("Host", host.as_str())],
        vec![("Host", host.as_str()), ("X-Mancala-Board", "1")],
        vec![
            ("Host", host.as_str()),
            ("Origin", evil),
            ("X-Mancala-Board", "1"),
        ],
        vec![
            ("Host", host.as_str()),
            ("Origin", &format!("http://127.0.0.1:{port}")),
        ],
        vec![
            ("Host", "evil.example"),
            ("Origin", "http://evil.example"),
            ("X-Mancala-Board", "1"),
        ],
    ] {
        let (status, body) = http(port, "POST", "/api/boards", &headers);
        assert!(
            status == 403 || status == 421,
            "{headers:?}: {status} {body}"
        );
    }
    assert_eq!(engine_children(server.pid()).len(), 0, "no engine started");

    let id = open_board(port);
    // Its socket: refused from another site or without any Origin, and for unknown boards.
    assert_eq!(socket(port, &id, Some(evil)).err(), Some(403));
    assert_eq!(socket(port, &id, None).err(), Some(403));
    assert_eq!(
        socket(
            port,
            "0123456789abcdef0123456789abcdef",
            Some(&format!("http://127.0.0.1:{port}"))
        )
        .err(),
        Some(404)
    );
    // Restarting and closing: the same.
    let restart = format!("/api/boards/{id}/restart");
    let (status, _) = http(
        port,
        "POST",
        &restart,
        &[("Host", &host), ("Origin", evil), ("X-Mancala-Board", "1")],
    );
    assert_eq!(status, 403);
    let close = format!("/api/boards/{id}/close");
    assert_eq!(
        http(port, "POST", &close, &[("Host", &host), ("Origin", evil)]).0,
        403
    );
    assert_eq!(http(port, "POST", &close, &[("Host", &host)]).0, 403);
    assert_eq!(
        engine_children(server.pid()).len(),
        1,
        "the board is still open"
    );
}

#[test]
fn only_board_commands_reach_the_engine_one_line_at_a_time() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let id = open_board(port);
    let mut socket = own_socket(port, &id);
    send(&mut socket, "uci");
    let lines = read_until(&mut socket, |l| l == "uciok");
    assert!(lines[0].starts_with("id name mancala-engine"), "{lines:?}");
    for (number, (line, why)) in (10..).zip([
        ("quit", "'quit' is not a command a board sends"),
        (
            "setoption name TablebasePath value /etc",
            "is not a command a board sends",
        ),
        ("go infinite", "is not a command a board sends"),
        ("go movetime 99999999", "is not a command a board sends"),
        ("query fen\nquit", "one line at a time"),
        ("bench", "is not a command a board sends"),
    ]) {
        send_numbered(&mut socket, number, line);
        let reply = read_until(&mut socket, |_| true);
        assert_eq!(reply.len(), 1);
        assert!(
            reply[0].starts_with(&format!("board refused {number} ")) && reply[0].contains(why),
            "{line:?}: {reply:?}"
        );
    }
    // A message without its request number is refused too.
    socket.send(Message::Text("query fen".into())).unwrap();
    let reply = read_until(&mut socket, |_| true);
    assert!(
        reply[0].starts_with("board refused - ") && reply[0].contains("request number"),
        "{reply:?}"
    );
    // The engine is still there, and still as it was: nothing of the above reached it.
    send(&mut socket, "position startpos moves A");
    send(&mut socket, "query fen");
    assert_eq!(
        read_until(&mut socket, |_| true),
        ["response 0-7-7-7-7-7-7-6-6-6-6-6-0-0-N"]
    );
    send(&mut socket, "go movetime 50");
    let search = read_until(&mut socket, |l| l.starts_with("bestmove"));
    assert!(
        search.iter().any(|l| l.starts_with("info depth")),
        "{search:?}"
    );
    assert_eq!(engine_children(server.pid()).len(), 1);
}

#[test]
fn boards_are_limited_and_the_limit_is_reported() {
    let server = BoardServer::start(&["--max-engines", "2"]);
    let port = server.port;
    let first = open_board(port);
    let _second = open_board(port);
    let (status, body) = http(port, "POST", "/api/boards", &as_refs(&own(port)));
    assert_eq!(status, 503);
    assert!(
        body.contains("all 2 boards this server allows are open") && body.contains("--max-engines"),
        "{body}"
    );
    let host = format!("127.0.0.1:{port}");
    let (_, status) = http(port, "GET", "/api/status", &[("Host", &host)]);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&status).unwrap(),
        serde_json::json!({"boards": 2, "max": 2})
    );
    // Closing one makes room.
    assert_eq!(beacon_close(port, &first), 204);
    open_board(port);
}

#[test]
fn a_closed_board_ends_its_engine() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let id = open_board(port);
    let engines = engine_children(server.pid());
    assert_eq!(engines.len(), 1);
    assert_eq!(beacon_close(port, &id), 204);
    wait_until(Duration::from_secs(5), "the engine ends", || {
        engine_children(server.pid()).is_empty()
    });
    assert_eq!(beacon_close(port, &id), 404, "closed already");
}

#[test]
fn a_board_whose_page_went_away_is_closed() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let id = open_board(port);
    let mut socket = own_socket(port, &id);
    send(&mut socket, "isready");
    read_until(&mut socket, |l| l == "readyok");
    // The tab dies without a word (no beacon): the connection just ends.
    drop(socket);
    let host = format!("127.0.0.1:{port}");
    wait_until(
        Duration::from_secs(30),
        "the abandoned board closes",
        || {
            let (_, status) = http(port, "GET", "/api/status", &[("Host", &host)]);
            status.contains("\"boards\": 0")
        },
    );
    wait_until(Duration::from_secs(5), "its engine ends", || {
        engine_children(server.pid()).is_empty()
    });
}

#[test]
fn a_crashed_engine_is_reported_and_restarted() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let id = open_board(port);
    // (Attached to the board before the engine dies: the news goes to the connection attached
    // when it comes, and a socket's handshake ends before the server attaches it.)
    let mut socket = ready_socket(port, &id);
    let engines = engine_children(server.pid());
    assert_eq!(engines.len(), 1);
    send_signal(engines[0], "KILL");
    let news = read_until(&mut socket, |l| l.starts_with("board exit"));
    assert!(news.last().unwrap().contains("ended"), "{news:?}");
    send(&mut socket, "isready");
    let refused = read_until(&mut socket, |_| true);
    assert!(
        refused[0].starts_with("board refused 1 the engine does not take input"),
        "{refused:?}"
    );
    let restart = format!("/api/boards/{id}/restart");
    assert_eq!(http(port, "POST", &restart, &as_refs(&own(port))).0, 204);
    send(&mut socket, "isready");
    assert_eq!(read_until(&mut socket, |_| true), ["readyok"]);
    let now = engine_children(server.pid());
    assert_eq!(now.len(), 1);
    assert_ne!(now[0], engines[0]);
}

#[test]
fn a_hung_engine_is_replaced_on_restart() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let id = open_board(port);
    let mut socket = own_socket(port, &id);
    let engines = engine_children(server.pid());
    send_signal(engines[0], "STOP");
    send(&mut socket, "isready");
    socket
        .get_mut()
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    assert!(socket.read().is_err(), "a stopped engine says nothing");
    socket
        .get_mut()
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let restart = format!("/api/boards/{id}/restart");
    assert_eq!(http(port, "POST", &restart, &as_refs(&own(port))).0, 204);
    wait_until(Duration::from_secs(5), "the hung engine is gone", || {
        !engine_children(server.pid()).contains(&engines[0])
    });
    // The old engine's end is not news of the new one.
    send(&mut socket, "isready");
    assert_eq!(read_until(&mut socket, |_| true), ["readyok"]);
}

/// A raw GET with the server's own Host; the status line and the head of the reply.
fn head_of(port: u16, path: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    reply
        .split_once("\r\n\r\n")
        .map(|(head, _)| head.to_string())
        .unwrap_or(reply)
}

#[test]
fn no_page_may_frame_the_board_nor_run_scripts_in_it() {
    let server = BoardServer::start(&[]);
    for path in ["/", "/app.js", "/style.css", "/api/status", "/nothing"] {
        let head = head_of(server.port, path);
        assert!(
            head.contains("\r\nX-Frame-Options: DENY\r\n"),
            "{path}: {head}"
        );
        let policy = head
            .lines()
            .find_map(|line| line.strip_prefix("Content-Security-Policy: "))
            .unwrap_or_else(|| panic!("{path}: no policy in {head}"));
        for directive in [
            "frame-ancestors 'none'",
            "default-src 'none'",
            "script-src 'self'",
            "connect-src 'self'",
        ] {
            assert!(policy.contains(directive), "{path}: {policy}");
        }
        assert!(!policy.contains("unsafe"), "{path}: {policy}");
    }
}

#[test]
fn the_page_has_an_icon() {
    let server = BoardServer::start(&[]);
    for path in ["/favicon.ico", "/favicon.svg"] {
        let (status, body) = http(
            server.port,
            "GET",
            path,
            &[("Host", &format!("127.0.0.1:{}", server.port))],
        );
        assert_eq!(status, 200, "{path}");
        assert!(body.starts_with("<svg"), "{path}: {body}");
        assert!(head_of(server.port, path).contains("Content-Type: image/svg+xml"));
    }
}

#[test]
fn a_second_connection_takes_the_board_over_and_keeps_it() {
    let server = BoardServer::start(&[]);
    let id = open_board(server.port);
    let mut first = ready_socket(server.port, &id);
    let mut second = own_socket(server.port, &id);
    // The first hears that it was taken over, and is closed.
    let mut heard = Vec::new();
    loop {
        match first.read() {
            Ok(Message::Text(text)) => heard.push(text.to_string()),
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    assert_eq!(heard, ["board taken-over"]);
    drop(first);
    // The second is the board's, beyond the time that closes an abandoned board.
    std::thread::sleep(Duration::from_secs(11));
    send(&mut second, "isready");
    read_until(&mut second, |l| l == "readyok");
    assert_eq!(engine_children(server.pid()).len(), 1);
}

/// The server's threads now (Linux).
fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

#[test]
fn slow_clients_are_cut_off_and_do_not_crowd_out_the_page() {
    let server = BoardServer::start(&[]);
    // Three hundred clients that send a request's first bytes and then nothing.
    let slow: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            stream.write_all(b"GET / HTTP/1.1\r\nHost: ").unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    // At most 8 boards and 32 more connections are held, a thread each, beside the server's
    // own two (accepting, housekeeping).
    let held = threads(server.pid());
    assert!(held <= 2 + 40, "{held} threads with slow clients");
    // The page is served at once all the same.
    let start = Instant::now();
    let (status, body) = http(
        server.port,
        "GET",
        "/",
        &[("Host", &format!("127.0.0.1:{}", server.port))],
    );
    assert_eq!(status, 200);
    assert!(body.contains("mancala-board"));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // A head that takes longer than five seconds is cut off.
    let mut last = slow.into_iter().last().unwrap();
    last.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let cut = Instant::now();
    let mut rest = Vec::new();
    let _ = last.read_to_end(&mut rest);
    assert!(
        cut.elapsed() < Duration::from_secs(7),
        "{:?}",
        cut.elapsed()
    );
    wait_until(
        Duration::from_secs(5),
        "the server lets its threads go",
        || threads(server.pid()) <= 2,
    );
}

/// A masked WebSocket text frame (as a client must send it), written by hand: a client that
/// does not play by the rules is what these tests are about.
fn raw_text_frame(text: &str) -> Vec<u8> {
    let payload = text.as_bytes();
    let mask = [0x12, 0x34, 0x56, 0x78];
    let mut frame = vec![0x81];
    if payload.len() < 126 {
        frame.push(0x80 | payload.len() as u8);
    } else {
        frame.push(0x80 | 126);
        frame.extend_from_slice(&(payload.len() as u16).to_be_bytes());
    }
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

/// The server's resident memory now, in bytes (Linux).
fn resident(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|n| n.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
        .unwrap()
        * 1024
}

/// Whether the server has ended the connection: reading gives its end (after any close frame
/// or last messages) within `limit`.
fn ended_by_server(stream: &mut TcpStream, limit: Duration) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let start = Instant::now();
    let mut buffer = [0u8; 4096];
    while start.elapsed() < limit {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn a_connection_taken_over_is_cut_off_even_if_it_ignores_the_close() {
    let server = BoardServer::start(&[]);
    let id = open_board(server.port);
    let mut old = ready_socket(server.port, &id);
    let mut new = own_socket(server.port, &id);
    // The old client ignores the close frame and goes on sending: its lines never reach the
    // engine (no search starts), and the server ends its connection.
    let raw = old.get_mut();
    let _ = raw.write_all(&raw_text_frame("5 go movetime 100"));
    assert!(
        ended_by_server(raw, Duration::from_secs(5)),
        "the taken-over connection is still open"
    );
    send(&mut new, "isready");
    let mut heard = read_until(&mut new, |l| l == "readyok");
    std::thread::sleep(Duration::from_millis(400));
    send(&mut new, "isready");
    heard.extend(read_until(&mut new, |l| l == "readyok"));
    assert!(
        !heard
            .iter()
            .any(|l| l.starts_with("bestmove") || l.starts_with("info")),
        "the old connection's search ran: {heard:?}"
    );
    // Many take-overs by clients that ignore the close do not fill the server's door.
    let mut kept = Vec::new();
    for _ in 0..45 {
        kept.push(ready_socket(server.port, &id)); // never closed by this side, nor read again
    }
    let (status, _) = http(
        server.port,
        "GET",
        "/",
        &[("Host", &format!("127.0.0.1:{}", server.port))],
    );
    assert_eq!(status, 200, "the page is still served");
    wait_until(
        Duration::from_secs(5),
        "the server lets the taken-over connections go",
        || threads(server.pid()) <= 2 + 2 + 1,
    );
}

#[test]
fn a_message_longer_than_a_line_is_refused_at_its_header() {
    let server = BoardServer::start(&[]);
    let id = open_board(server.port);
    let before = resident(server.pid());
    let mut streams = Vec::new();
    for _ in 0..4 {
        let mut socket = own_socket(server.port, &id);
        let raw = socket.get_mut();
        // A frame that says 12 MiB follow (under tungstenite's default limits, which would
        // buffer it whole), then as much of them as the server takes.
        let length: u64 = 12 << 20;
        let mut head = vec![0x81, 0x80 | 127];
        head.extend_from_slice(&length.to_be_bytes());
        head.extend_from_slice(&[1, 2, 3, 4]);
        raw.write_all(&head).unwrap();
        raw.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = raw.write_all(&vec![b'x'; length as usize]);
        assert!(
            ended_by_server(raw, Duration::from_secs(5)),
            "the connection stays open"
        );
        streams.push(socket);
    }
    let grown = resident(server.pid()).saturating_sub(before);
    assert!(grown < 8 << 20, "the server grew by {grown} bytes");
    // A line at the limit still passes (and is refused by its content, not its size).
    let mut socket = own_socket(server.port, &id);
    send_numbered(
        &mut socket,
        9,
        &format!("query {}", "x".repeat(16 * 1024 - 6)),
    );
    let heard = read_until(&mut socket, |l| l.starts_with("board refused 9 "));
    assert!(heard[0].contains("not a command"), "{heard:?}");
}

#[test]
fn one_search_at_a_time() {
    let server = BoardServer::start(&[]);
    let id = open_board(server.port);
    let mut socket = own_socket(server.port, &id);
    send(&mut socket, "uci");
    read_until(&mut socket, |l| l == "uciok");
    send_numbered(&mut socket, 2, "go movetime 3000");
    send_numbered(&mut socket, 3, "go movetime 3000");
    let heard = read_until(&mut socket, |l| l.starts_with("board refused 3 "));
    assert!(
        heard.last().unwrap().contains("already thinking"),
        "{heard:?}"
    );
    send_numbered(&mut socket, 4, "stop");
    read_until(&mut socket, |l| l.starts_with("bestmove"));
    // Once the search is over, the next one may start.
    send_numbered(&mut socket, 5, "go movetime 50");
    let heard = read_until(&mut socket, |l| {
        l.starts_with("bestmove") || l.starts_with("board refused")
    });
    assert!(heard.last().unwrap().starts_with("bestmove"), "{heard:?}");
    // A restart clears the search with the engine it ends. (The search is seen running first:
    // the socket and the restart's request are two connections, and a loaded server may take
    // the request first, which would hand the `go` to the new engine.)
    send_numbered(&mut socket, 6, "go movetime 5000");
    read_until(&mut socket, |l| l.starts_with("info depth"));
    let restart = format!("/api/boards/{id}/restart");
    let (status, _) = http(server.port, "POST", &restart, &as_refs(&own(server.port)));
    assert_eq!(status, 204);
    send_numbered(&mut socket, 7, "go movetime 50");
    let heard = read_until(&mut socket, |l| {
        l.starts_with("bestmove") || l.starts_with("board refused 7")
    });
    assert!(heard.last().unwrap().starts_with("bestmove"), "{heard:?}");
}

#[test]
fn headers_that_decide_access_may_come_once() {
    let server = BoardServer::start(&[]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let origin = format!("http://127.0.0.1:{port}");
    let (status, _) = http(
        port,
        "GET",
        "/",
        &[("Host", &host), ("Host", "evil.example")],
    );
    assert_eq!(status, 400);
    let (status, _) = http(port, "GET", "/", &[("Host", &host), ("Host", &host)]);
    assert_eq!(status, 400);
    let (status, body) = http(
        port,
        "POST",
        "/api/boards",
        &[
            ("Host", &host),
            ("Origin", &origin),
            ("Origin", "http://evil.example"),
            ("X-Mancala-Board", "1"),
        ],
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("origin"), "{body}");
    assert_eq!(http(port, "GET", "/", &[("Host", &host)]).0, 200);
}
