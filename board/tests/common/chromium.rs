//! Headless Chromium driven over the DevTools protocol (a WebSocket of JSON messages): just what
//! the tests need, a page to load, scripts to evaluate, real mouse clicks, a window size and
//! screenshots.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Whether the test can run: Chromium is there, or else it is skipped with a note, unless
/// `MANCALA_BOARD_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs it) makes that a failure.
pub fn available() -> bool {
    if std::path::Path::new(CHROMIUM).exists() {
        return true;
    }
    if std::env::var("MANCALA_BOARD_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("{CHROMIUM} is missing: apt-get install chromium");
    }
    eprintln!("skipped: no {CHROMIUM} (apt-get install chromium to run this test)");
    false
}

/// A headless Chromium process.
pub struct Chromium {
    child: Child,
    profile: std::path::PathBuf,
    port: u16,
}

impl Chromium {
    pub fn start() -> Chromium {
        let profile = std::env::temp_dir().join(format!(
            "mancala-board-chromium-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        // Chromium's own temporary files go inside the profile, which goes when it does.
        let temp = profile.join("tmp");
        std::fs::create_dir_all(&temp).unwrap();
        let mut child = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .env("TMPDIR", &temp)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    let _ = sender.send(url.to_string());
                }
            }
        });
        let url = receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("chromium's DevTools address");
        let port = url
            .split(':')
            .nth(2)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .expect("a port in the DevTools address");
        Chromium {
            child,
            profile,
            port,
        }
    }

    /// A new tab, `width` × `height` CSS pixels (`mobile` emulates a phone's screen).
    pub fn page(&self, width: u32, height: u32, mobile: bool) -> Page {
        // GET /json/new (a PUT in newer versions) gives the tab's WebSocket address.
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            stream,
            "PUT /json/new?about:blank HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        )
        .unwrap();
        // Chromium keeps the connection open: read the head, then Content-Length bytes.
        let mut reader = BufReader::new(stream);
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().expect("a Content-Length");
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let target: Value = serde_json::from_slice(&body).expect("a JSON target");
        let ws_url = target["webSocketDebuggerUrl"].as_str().unwrap().to_string();
        let (socket, _) = tungstenite::connect(ws_url.as_str()).expect("the tab's DevTools socket");
        let mut page = Page { socket, next_id: 1 };
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
        page
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        // Only the browser's own process: a kill of its process group (`kill -KILL -<pgid>`)
        // was seen to end processes far outside it in a sandbox. Its helpers notice its end
        // and exit; the profile's removal is tried again while they do.
        let _ = self.child.kill();
        let _ = self.child.wait();
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.profile).is_ok() || !self.profile.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// One tab.
pub struct Page {
    socket: WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Page {
    /// Calls a DevTools method and returns its result (events meanwhile are skipped).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(Message::Text(message.to_string().into()))
            .unwrap();
        loop {
            let reply = self.socket.read().expect("a DevTools reply");
            let Message::Text(text) = reply else { continue };
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            if value["id"] == id {
                if let Some(error) = value.get("error") {
                    panic!("{method}: {error}");
                }
                return value["result"].clone();
            }
        }
    }

    /// Asks the page for reduced motion (`prefers-reduced-motion: reduce`), as a person may in
    /// their system's settings: moves are then shown at once.
    pub fn reduce_motion(&mut self) {
        self.call(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}),
        );
    }

    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
    }

    /// Evaluates `js` in the page; its value as JSON.
    pub fn eval(&mut self, js: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": js, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("{js}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// `js`'s value as text (a string's own text, anything else as JSON).
    pub fn text(&mut self, js: &str) -> String {
        match self.eval(js) {
            Value::String(s) => s,
            Value::Null => String::new(),
            other => other.to_string(),
        }
    }

    /// Waits until `js` is true; panics with `what` and the page's state after `limit`.
    pub fn wait_for(&mut self, js: &str, limit: Duration, what: &str) {
        let start = Instant::now();
        // While the page loads, `document.body` may not exist yet: that is "not yet" too.
        let guarded =
            format!("(() => {{ try {{ return !!({js}); }} catch (e) {{ return false; }} }})()");
        while start.elapsed() < limit {
            if self.eval(&guarded) == Value::Bool(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!(
            "{what}: not within {limit:?}; the page: {}",
            self.describe()
        );
    }

    /// The page's state in a few words, for a failure's message.
    pub fn describe(&mut self) -> String {
        self.text(
            "JSON.stringify({state: document.body.dataset.state, status: \
             document.getElementById('engine-status').textContent, message: \
             document.getElementById('message').textContent, turn: \
             document.getElementById('turn').textContent, position: \
             document.getElementById('fen').value, moves: \
             document.getElementById('moves').textContent})",
        )
    }

    /// The middle of the first element `selector` matches (scrolled into view), if any.
    pub fn point_of(&mut self, selector: &str) -> Option<(f64, f64)> {
        let point = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return \
             [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        (!point.is_null()).then(|| (point[0].as_f64().unwrap(), point[1].as_f64().unwrap()))
    }

    /// A real click (mouse down and up) at `(x, y)`, whatever is there now.
    pub fn click_at(&mut self, (x, y): (f64, f64)) {
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// A real click (mouse down and up) in the middle of the first element `selector` matches.
    pub fn click(&mut self, selector: &str) {
        let point = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return \
             [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        if point.is_null() {
            panic!(
                "nothing to click at {selector}; the page: {}",
                self.describe()
            );
        }
        let (x, y) = (point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Picks `value` in the `<select>` with id `id`, as the keyboard would: focus, choose, change.
    pub fn choose(&mut self, id: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const s = document.getElementById({id:?}); s.focus(); s.value = {value:?}; \
             s.dispatchEvent(new Event('change')); return true; }})()"
        ));
    }

    /// Replaces the text of the input with id `id` as a person would: focus, select all, type.
    pub fn type_into(&mut self, id: &str, text: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.getElementById({id:?}); e.focus(); e.select(); return \
             true; }})()"
        ));
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Closes the tab, as a person closing it would (the page hears `pagehide`).
    pub fn close(mut self) {
        let id = self.next_id;
        let message = json!({"id": id, "method": "Page.close", "params": {}});
        let _ = self.socket.send(Message::Text(message.to_string().into()));
        // The reply, or the socket's end: either way the tab is going.
        while let Ok(reply) = self.socket.read() {
            if let Message::Text(text) = reply
                && serde_json::from_str::<Value>(text.as_str()).is_ok_and(|v| v["id"] == id)
            {
                break;
            }
        }
    }

    pub fn screenshot(&mut self, path: &std::path::Path) {
        let result = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true}),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(result["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}
