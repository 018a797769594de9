//! The protocol torture test: a seeded stream of 100,000+ lines (valid commands, valid commands
//! with broken arguments, random bytes, overlong lines, bytes that are not UTF-8, CRLF, and
//! `go`/`stop`/`isready`/`position` interleaved while searching) against the real binary.
//!
//! A model of the game, kept with the rules library, says what every line should do. Checks: the
//! process lives to the end and exits cleanly; every malformed line gets exactly one
//! `info string error …` line; every `isready` gets `readyok`; every `go` exactly one
//! `bestmove`; and every `query fen` (sprinkled through the stream) answers what the valid
//! commands alone give.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mancala_rules::{Game, LastFourRule, Move, Position, SplitMix64, Variant};

const LINES: usize = 100_000;

/// What the stream should produce.
#[derive(Default)]
struct Expected {
    errors: usize,
    readyoks: usize,
    bestmoves: usize,
    fens: Vec<String>,
}

struct Torture {
    rng: SplitMix64,
    variant: Variant,
    game: Game,
    input: Vec<u8>,
    lines: usize,
    expected: Expected,
}

impl Torture {
    fn new(seed: u64) -> Torture {
        Torture {
            rng: SplitMix64::new(seed),
            variant: Variant::MangalaII,
            game: Game::new(Position::start(Variant::MangalaII), LastFourRule::default()),
            input: Vec::new(),
            lines: 0,
            expected: Expected::default(),
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Appends a line, with `\r\n` a fifth of the time and extra blanks between tokens.
    fn line(&mut self, text: &str) {
        let text = if self.chance(10) {
            text.replace(' ', " \t ")
        } else {
            text.to_string()
        };
        self.raw(text.as_bytes());
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.input.extend_from_slice(bytes);
        if self.chance(20) {
            self.input.push(b'\r');
        }
        self.input.push(b'\n');
        self.lines += 1;
    }

    fn error_line(&mut self, text: &str) {
        self.line(text);
        self.expected.errors += 1;
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    fn moves_text(moves: &[Move]) -> String {
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A random game of `plies` legal moves from `base`.
    fn random_line(&mut self, base: Position, plies: u64) -> Game {
        let mut game = Game::new(base, LastFourRule::default());
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = self.pick(legal.as_slice());
            game.play(mv).unwrap();
        }
        game
    }

    /// A move that is not legal now.
    fn illegal_move(&mut self) -> Move {
        let n = self.variant.rules().pits_per_row;
        let mover = self.game.position().side_to_move();
        loop {
            let candidate = match self.below(3) {
                0 => Move::sow(mover.opponent(), self.below(n as u64) as u8),
                1 => Move::sow(
                    mover,
                    (n + self.below((24 - n) as u64 + 1) as usize).min(23) as u8,
                ),
                _ => Move::PASS,
            };
            if !self.game.legal_moves().contains(candidate) {
                return candidate;
            }
        }
    }

    fn query_fen(&mut self) {
        self.line("query fen");
        let fen = self.game.position().to_string();
        self.expected.fens.push(fen);
    }

    /// One step of the stream: a valid command (changing the model as the engine should), a
    /// broken one, or noise.
    fn step(&mut self) {
        match self.below(100) {
            0..=11 => {
                // position startpos|fen … moves …: valid.
                let plies = self.below(40);
                let start = Position::start(self.variant);
                let line = self.random_line(start, plies);
                let moves: Vec<Move> = line.moves().collect();
                let text = if self.chance(50) {
                    format!("position startpos moves {}", Self::moves_text(&moves))
                } else {
                    let split = self.below(moves.len() as u64 + 1) as usize;
                    let mut prefix = Game::new(start, LastFourRule::default());
                    prefix.play_all(&moves[..split]).unwrap();
                    format!(
                        "position fen {} moves {}",
                        prefix.position(),
                        Self::moves_text(&moves[split..])
                    )
                };
                let text = text.trim_end_matches(" moves ").to_string();
                self.line(&text);
                // The history before a `fen` base is not known to the engine either.
                let mut model = if text.starts_with("position fen") {
                    let fen = text.split_whitespace().nth(2).unwrap();
                    Game::new(
                        Position::from_position_string(self.variant, fen).unwrap(),
                        LastFourRule::default(),
                    )
                } else {
                    Game::new(start, LastFourRule::default())
                };
                let rest: Vec<Move> = text
                    .split_whitespace()
                    .skip_while(|w| *w != "moves")
                    .skip(1)
                    .map(|m| m.parse().unwrap())
                    .collect();
                model.play_all(&rest).unwrap();
                self.game = model;
            }
            12..=23 => {
                // move …: valid while the game goes on.
                let count = 1 + self.below(3);
                let mut played = Vec::new();
                let mut after = self.game.clone();
                for _ in 0..count {
                    let legal = after.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = self.pick(legal.as_slice());
                    after.play(mv).unwrap();
                    played.push(mv);
                }
                if played.is_empty() {
                    let mv = self.illegal_move();
                    self.error_line(&format!("move {mv}"));
                } else {
                    self.line(&format!("move {}", Self::moves_text(&played)));
                    self.game = after;
                }
            }
            24..=29 => {
                // move with an illegal move somewhere: refused whole.
                let legal = self.game.legal_moves();
                let mut text = String::from("move");
                if let Some(&mv) = legal.as_slice().first() {
                    text.push_str(&format!(" {mv}"));
                    let mut after = self.game.clone();
                    after.play(mv).unwrap();
                    let saved = std::mem::replace(&mut self.game, after);
                    let bad = self.illegal_move();
                    self.game = saved;
                    text.push_str(&format!(" {bad}"));
                } else {
                    let bad = self.illegal_move();
                    text.push_str(&format!(" {bad}"));
                }
                self.error_line(&text);
            }
            30..=34 => {
                // undo: valid up to the moves played since the base, refused beyond.
                let played = self.game.moves().len() as u64;
                if self.chance(70) && played > 0 {
                    let n = 1 + self.below(played);
                    self.line(&format!("undo {n}"));
                    self.game.undo(n as usize).unwrap();
                } else {
                    let n = played + 1 + self.below(5);
                    self.error_line(&format!("undo {n}"));
                }
            }
            35..=42 => self.isready(),
            43..=50 => self.query_fen(),
            51..=56 => self.finite_go(),
            57..=60 => self.search_with_interleaving(),
            61..=68 => self.broken_arguments(),
            69..=76 => {
                // Random bytes behind a first byte that starts no command: unknown, or not UTF-8.
                let len = self.below(60) as usize;
                let mut bytes = vec![b'~'];
                for _ in 0..len {
                    let b = (self.rng.next_u64() & 0xFF) as u8;
                    bytes.push(if b == b'\n' || b == b'\r' { b'x' } else { b });
                }
                self.raw(&bytes);
                self.expected.errors += 1;
            }
            77..=79 => {
                // A command with bytes that are not UTF-8.
                let text =
                    self.pick(&[&b"position fen \xff\xfe"[..], b"query \xc3\x28", b"go \x80"]);
                self.raw(text);
                self.expected.errors += 1;
            }
            80..=82 => {
                // Blank and whitespace-only lines: ignored.
                let text = self.pick(&["", " ", "\t", " \t  "]);
                self.raw(text.as_bytes());
            }
            83..=86 => {
                // Harmless valid commands that change nothing.
                let text = self.pick(&[
                    "query moves",
                    "query gameover",
                    "query p1turn",
                    "query result",
                    "query score",
                    "ucinewgame",
                    "setoption name MultiPV value 2",
                    "setoption name MultiPV value 1",
                    "setoption name Move Overhead value 5",
                    "d",
                    "eval",
                    "perft 2",
                    "go perft 1",
                    "stop",
                    "ponderhit",
                ]);
                self.line(text);
            }
            87..=88 => {
                // Switching the game resets it to the start.
                let variant = self.pick(&Variant::ALL);
                self.line(&format!("variant {variant}"));
                self.variant = variant;
                self.game = Game::new(Position::start(variant), LastFourRule::default());
            }
            89..=90 => {
                // Mangala IV deals, in Mangala IV only.
                let seed = self.rng.next_u64();
                if self.variant == Variant::MangalaIV {
                    self.line(&format!("position random {seed}"));
                    self.game = Game::new(Position::mangala_iv_deal(seed), LastFourRule::default());
                } else {
                    self.error_line(&format!("position random {seed}"));
                }
            }
            _ => {
                // Broken position strings.
                let mut fields: Vec<String> = self
                    .game
                    .position()
                    .to_string()
                    .split('-')
                    .map(String::from)
                    .collect();
                match self.below(4) {
                    0 => {
                        fields.pop();
                    }
                    // (A game that allows any total takes one counter more as a position.)
                    1 if !self.variant.rules().any_total => {
                        let i = self.below(fields.len() as u64 - 1) as usize;
                        let count: u64 = fields[i].parse().unwrap_or(0);
                        fields[i] = (count + 1).to_string();
                    }
                    2 => fields.push("7".into()),
                    _ => {
                        let i = self.below(fields.len() as u64) as usize;
                        fields[i] = "q".into();
                    }
                }
                self.error_line(&format!("position fen {}", fields.join("-")));
            }
        }
    }

    fn isready(&mut self) {
        self.line("isready");
        self.expected.readyoks += 1;
    }

    fn finite_go(&mut self) {
        let limit = self.pick(&[
            "depth 1",
            "depth 3",
            "nodes 300",
            "nodes 0",
            "movetime 0",
            "movetime 5",
            "p1time 50 p2time 50",
            "wtime 40 btime 40 winc 1 binc 1 movestogo 3",
        ]);
        self.line(&format!("go {limit}"));
        self.expected.bestmoves += 1;
    }

    /// `go infinite`, then commands that answer at once or wait, then `stop`.
    fn search_with_interleaving(&mut self) {
        self.line("go infinite");
        self.expected.bestmoves += 1;
        for _ in 0..self.below(4) {
            match self.below(5) {
                0 => self.isready(),
                1 => self.query_fen(),
                2 => self.finite_go(),
                3 => {
                    // A position change while searching: it waits for the search, then applies.
                    let start = Position::start(self.variant);
                    let plies = self.below(10);
                    let line = self.random_line(start, plies);
                    let moves: Vec<Move> = line.moves().collect();
                    let text = format!("position startpos moves {}", Self::moves_text(&moves));
                    self.line(text.trim_end_matches(" moves "));
                    self.game = line;
                }
                _ => self.error_line("go depth many"),
            }
        }
        self.line("stop");
    }

    fn broken_arguments(&mut self) {
        let text = self.pick(&[
            "go depth x",
            "go movetime -5",
            "go nodes",
            "go p1time",
            "setoption name Hash value -5",
            "setoption name Hash value 999999999",
            "setoption name Threads value 0",
            "setoption name Nope value 1",
            "setoption name MultiPV value 99",
            "setoption",
            "undo -1",
            "undo x",
            "perft",
            "perft x",
            "position",
            "position fen",
            "position random x",
            "position startpos moves Z",
            "move",
            "variant chess",
            "query",
            "query nope",
            "uci extra",
            "isready now",
            "GO depth one",
        ]);
        self.error_line(text);
    }
}

#[test]
fn one_hundred_thousand_lines_of_torture() {
    let mut torture = Torture::new(0x5EED_2026);
    torture.isready();
    // A few overlong lines first: each is read to its end and refused once.
    for _ in 0..3 {
        let mut long = b"query ".to_vec();
        long.resize(1_100_000, b'x');
        torture.raw(&long);
        torture.expected.errors += 1;
    }
    while torture.lines < LINES {
        torture.step();
    }
    torture.query_fen();
    torture.isready();
    // No `quit`: it would drop whatever still waits behind a search. End of input lets it run.
    let Torture {
        input,
        expected,
        lines,
        ..
    } = torture;

    if let Ok(path) = std::env::var("TORTURE_DUMP") {
        // To replay the stream by hand: `mancala-engine < $TORTURE_DUMP`.
        std::fs::write(path, &input).unwrap();
    }
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // Written in chunks, as a client would, so that searches run while lines arrive.
        for chunk in input.chunks(4096) {
            stdin.write_all(chunk).unwrap();
        }
    });
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut errors = 0;
    let mut readyoks = 0;
    let mut bestmoves = 0;
    let mut fens = Vec::new();
    for line in stdout.lines() {
        let line = line.unwrap();
        if line.starts_with("info string error") {
            errors += 1;
        } else if line == "readyok" {
            readyoks += 1;
        } else if line.starts_with("bestmove") {
            bestmoves += 1;
        } else if let Some(fen) = line.strip_prefix("response ")
            && fen.contains('-')
            && !fen.contains(' ')
        {
            fens.push(fen.to_string());
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the session takes too long"
        );
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "the engine died: {status}");
    println!(
        "{lines} lines in {:.1} s: {errors} errors, {readyoks} readyok, {bestmoves} bestmove, {} fens",
        started.elapsed().as_secs_f64(),
        fens.len()
    );
    assert_eq!(readyoks, expected.readyoks, "every isready gets readyok");
    assert_eq!(bestmoves, expected.bestmoves, "every go gets one bestmove");
    assert_eq!(
        errors, expected.errors,
        "every malformed line gets one error"
    );
    assert_eq!(fens.len(), expected.fens.len());
    for (i, (got, want)) in fens.iter().zip(&expected.fens).enumerate() {
        assert_eq!(got, want, "query fen number {i}");
    }
    // The last answer is the state after everything: what the valid commands alone give.
    assert_eq!(fens.last(), expected.fens.last());
}
