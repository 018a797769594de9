//! The daemon's main loop: input arrives from a reader thread, jobs report from their own thread,
//! and this loop runs one command at a time on the engine.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};

use super::reply;
use crate::engine::options::{self, Applied};
use crate::engine::{Engine, JobKind, PerftEvent};
use mancala_protocol::input::{InputLine, MAX_LINE_BYTES, read_line};
use mancala_protocol::{Command, Query, Reply, parse_line};

/// Where replies go: one line at a time, flushed at once, shared with job threads.
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    closed: Arc<AtomicBool>,
    /// Told once when the client stops reading, so that the engine can stop too.
    on_close: Option<Sender<Event>>,
}

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            writer: Arc::new(Mutex::new(Box::new(writer))),
            closed: Arc::new(AtomicBool::new(false)),
            on_close: None,
        }
    }

    /// Writes one reply as its line and flushes it. Once the client has gone away (a write
    /// fails), nothing more is written and the session is told to end.
    pub fn send(&self, reply: &Reply) {
        if self.closed.load(Ordering::Relaxed) {
            return;
        }
        let mut writer = self
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let written = writeln!(writer, "{reply}").and_then(|()| writer.flush());
        if let Err(e) = written
            && !self.closed.swap(true, Ordering::Relaxed)
        {
            log::warn!("cannot write to the client ({e}): stopping");
            if let Some(events) = &self.on_close {
                let _ = events.send(Event::OutputClosed);
            }
        }
    }

    pub fn send_all(&self, replies: impl IntoIterator<Item = Reply>) {
        for reply in replies {
            self.send(&reply);
        }
    }
}

/// What the main loop waits for.
pub(crate) enum Event {
    Input(InputLine),
    EndOfInput,
    JobDone,
    /// Stdout is closed: nobody reads the replies any more.
    OutputClosed,
}

/// A line as parsed on arrival: a command, or the error to report for it.
enum Request {
    Run(Command),
    Refuse(String),
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs the protocol on `input` and `output` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    run_with(Engine::new(), input, output)
}

/// [`run`] with an engine already set up (the command line's `--game` files loaded and
/// switched to, as `setoption name GameFile` does).
pub fn run_with(
    engine: Engine,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) {
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    let spawned = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_input(input, reader_events));
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut out = Output::new(output);
    out.on_close = Some(events.clone());
    let mut session = Session {
        engine,
        out,
        events,
        waiting: VecDeque::new(),
        input_closed: false,
    };
    for event in inbox {
        let flow = match event {
            Event::Input(line) => session.on_input(line),
            Event::EndOfInput => session.on_end_of_input(),
            Event::JobDone => session.on_job_done(),
            Event::OutputClosed => Flow::Quit,
        };
        if flow == Flow::Quit {
            break;
        }
    }
    session.engine.stop();
    session.engine.finish_job();
}

fn read_input(mut input: impl BufRead, events: Sender<Event>) {
    loop {
        match read_line(&mut input) {
            Ok(Some(line)) => {
                if events.send(Event::Input(line)).is_err() {
                    return;
                }
            }
            Ok(None) => break,
            Err(e) => {
                log::error!("cannot read input: {e}");
                break;
            }
        }
    }
    let _ = events.send(Event::EndOfInput);
}

struct Session {
    engine: Engine,
    out: Output,
    events: Sender<Event>,
    /// Requests that arrived while a job ran and must wait for it, in arrival order.
    waiting: VecDeque<Request>,
    input_closed: bool,
}

impl Session {
    fn on_input(&mut self, line: InputLine) -> Flow {
        let request = match line {
            InputLine::Text(text) => {
                log::debug!("<< {text}");
                match parse_line(&text) {
                    Ok(Some(command)) => Request::Run(command),
                    Ok(None) => return Flow::Continue,
                    Err(e) => Request::Refuse(e.to_string()),
                }
            }
            InputLine::TooLong => {
                Request::Refuse(format!("line longer than {MAX_LINE_BYTES} bytes ignored"))
            }
            InputLine::NotUtf8 => Request::Refuse("line is not valid UTF-8".to_string()),
        };
        let quit = matches!(request, Request::Run(Command::Quit));
        if self.engine.is_busy() && !quit && !self.runs_now(&request) {
            // `stop` and `ponderhit` behind waiting commands act on the running job now (else a
            // `position` waiting for an infinite search would wait for ever), and again in turn,
            // on the job a waiting `go` starts.
            if let Request::Run(command @ (Command::Stop | Command::PonderHit)) = &request {
                self.execute(command.clone());
            }
            self.waiting.push_back(request);
            return Flow::Continue;
        }
        self.handle(request)
    }

    /// Whether `request` may run now, while a job runs. Input is carried out in order, so that a
    /// script reads the same transcript however fast the machine is: `stop` and `ponderhit` act
    /// at once (and again when their turn comes), and during a search that nobody has stopped,
    /// `isready` and `query` are answered at once (as UCI requires); `quit` never waits.
    /// Everything else waits for the job, and so does everything behind a waiting line.
    fn runs_now(&self, request: &Request) -> bool {
        self.waiting.is_empty() && self.may_run_during_job(request)
    }

    /// Whether `request` may run beside the running job. Once the job has been told to stop,
    /// `isready` waits for its last line: "after every earlier command has taken effect".
    fn may_run_during_job(&self, request: &Request) -> bool {
        let Request::Run(command) = request else {
            return false;
        };
        command.interrupts_job()
            || (command.answers_during_search()
                && self.engine.job() == Some(JobKind::Search)
                && !self.engine.stop_requested())
    }

    /// End of input means `quit`, but what was sent before it still runs in order: a search
    /// (running now or started by a waiting `go`) is stopped at once and answers with its best
    /// move so far; a perft or the bench, which have no partial answer, finish.
    fn on_end_of_input(&mut self) -> Flow {
        self.input_closed = true;
        if self.engine.job() == Some(JobKind::Search) {
            self.engine.stop();
        }
        if self.engine.is_busy() {
            Flow::Continue
        } else {
            Flow::Quit
        }
    }

    fn on_job_done(&mut self) -> Flow {
        self.engine.finish_job();
        while let Some(request) = self.waiting.pop_front() {
            if self.engine.is_busy() && !self.may_run_during_job(&request) {
                self.waiting.push_front(request);
                break;
            }
            let was_busy = self.engine.is_busy();
            if self.handle(request) == Flow::Quit {
                return Flow::Quit;
            }
            if !was_busy && self.engine.is_busy() {
                self.on_job_started_from_queue();
            }
        }
        if self.input_closed && !self.engine.is_busy() {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// A waiting line has just started a job. A `stop` or `ponderhit` sent after that line has
    /// already arrived, so it acts on the new job now: it may wait behind other lines that wait
    /// for this very job, and a job started for a command sent before a `stop` must not run on
    /// unstopped. The end of input stops a new search the same way.
    fn on_job_started_from_queue(&mut self) {
        let later = |wanted: fn(&Command) -> bool| {
            self.waiting
                .iter()
                .any(|r| matches!(r, Request::Run(command) if wanted(command)))
        };
        if later(|c| matches!(c, Command::PonderHit)) {
            self.engine.ponderhit();
        }
        let stop_later = later(|c| matches!(c, Command::Stop));
        if stop_later || (self.input_closed && self.engine.job() == Some(JobKind::Search)) {
            self.engine.stop();
        }
    }

    fn handle(&mut self, request: Request) -> Flow {
        match request {
            Request::Run(command) => {
                // A bug of the engine in a command is reported, and the daemon goes on.
                let run = std::panic::AssertUnwindSafe(|| self.execute(command));
                std::panic::catch_unwind(run).unwrap_or_else(|payload| {
                    let message = crate::engine::panic_message(payload.as_ref());
                    log::error!("a command failed: {message}");
                    self.out.send(&reply::internal_error(&message));
                    Flow::Continue
                })
            }
            Request::Refuse(message) => {
                self.out.send(&reply::error(message));
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command) -> Flow {
        let out = self.out.clone();
        match command {
            Command::Handshake(dialect) => out.send_all(reply::handshake(dialect, &self.engine)),
            Command::IsReady => out.send(&Reply::ReadyOk),
            Command::SetOption { name, value } => {
                if let Err(message) = self.set_option(&name, value.as_deref()) {
                    out.send(&reply::error(message));
                }
            }
            Command::NewGame => self.engine.new_game(),
            Command::Variant(None) => out.send_all(reply::variant_list(self.engine.variant())),
            Command::Variant(Some(variant)) => self.engine.set_variant(variant),
            Command::Position { base, moves } => match self.engine.set_position(&base, &moves) {
                Ok(()) => out.send_all(reply::rounds_ended(self.engine.game(), 0)),
                Err(e) => out.send(&reply::error(e)),
            },
            Command::Move(moves) => {
                let before = self.engine.game().moves().len();
                match self.engine.play(&moves) {
                    Ok(()) => out.send_all(reply::rounds_ended(self.engine.game(), before)),
                    Err(e) => out.send(&reply::error(e)),
                }
            }
            Command::Undo(count) => {
                if let Err(e) = self.engine.undo(count) {
                    out.send(&reply::error(e));
                }
            }
            Command::Query(query) => self.answer(query),
            Command::Perft(depth) => self.start_perft(depth),
            Command::Go(limits) => self.start_search(limits),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Bench => self.start_bench(),
            Command::Eval => out.send_all(reply::eval(
                &{
                    crate::engine::injected_fault("command");
                    self.engine.eval()
                },
                self.engine.game().position().side_to_move(),
            )),
            Command::Display => out.send_all(reply::diagram(self.engine.game())),
            Command::Help => out.send_all(reply::help()),
            Command::Stop => self.engine.stop(),
            Command::Quit => {
                self.engine.stop();
                self.engine.finish_job();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// `setoption`: the option and its value are read as [`options::OPTIONS`] declares them,
    /// then set; a refused value changes nothing.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let (option, value) = options::parse(name, value).map_err(|e| e.to_string())?;
        match (option.set)(&mut self.engine, value).map_err(|e| e.to_string())? {
            Applied::Quietly => {}
            Applied::Tablebases(report) => self.out.send_all(reply::tablebases_loaded(&report)),
            Applied::Game(variant, path) => self.out.send(&reply::game_loaded(variant, &path)),
            Applied::Weights(variant, model, path) => self
                .out
                .send(&reply::weights_loaded(variant, &model, &path)),
            Applied::Network(variant, path) => {
                self.out.send(&reply::network_loaded(variant, &path))
            }
        }
        Ok(())
    }

    fn answer(&mut self, query: Query) {
        let game = self.engine.game();
        let line = match query {
            Query::Fen => reply::response(game.position()),
            Query::Moves => reply::response(game.legal_moves()),
            Query::GameOver => reply::response(game.is_over()),
            Query::P1Turn => {
                reply::response(game.position().side_to_move() == mancala_rules::Side::South)
            }
            Query::Result => reply::response(reply::result_word(game.result())),
            Query::Score => {
                let [south, north] = game.score();
                reply::response(format!("{south} {north}"))
            }
            Query::Side => match self.engine.side_choice() {
                Ok(choice) => return self.out.send_all(reply::side_choice(&choice)),
                Err(e) => reply::error(e),
            },
            Query::Round => reply::response(reply::round_word(game)),
            Query::Tablebase => reply::response(
                self.engine
                    .tablebase_value()
                    .map_or("none".to_string(), |v| v.to_string()),
            ),
            Query::Sowing(mv) if game.is_over() => {
                reply::error(format!("illegal move {mv}: the game is over"))
            }
            Query::Sowing(mv) => match game.position().trace_move(mv) {
                Ok(trace) => reply::response(trace),
                Err(illegal) => reply::error(illegal),
            },
        };
        self.out.send(&line);
    }

    fn start_search(&mut self, limits: crate::engine::Limits) {
        let info_out = self.out.clone();
        let done_out = self.out.clone();
        let events = self.events.clone();
        let multipv = self.engine.options().multipv > 1;
        let ponder = self.engine.options().ponder;
        let started = self.engine.go(
            limits,
            move |info| info_out.send(&reply::search_info(&info, multipv)),
            move |outcome| {
                if let Some(message) = &outcome.internal_error {
                    done_out.send(&reply::internal_error(message));
                }
                done_out.send(&reply::bestmove(&outcome, ponder));
                let _ = events.send(Event::JobDone);
            },
        );
        if let Err(e) = started {
            self.out.send(&reply::error(e));
        }
    }

    fn start_bench(&mut self) {
        let item_out = self.out.clone();
        let done_out = self.out.clone();
        let events = self.events.clone();
        let started = self.engine.start_bench(
            move |item| item_out.send(&reply::bench_item(item)),
            move |result, stopped| {
                match result {
                    Err(message) => done_out.send(&reply::internal_error(&message)),
                    Ok(_) if stopped => {}
                    Ok((nodes, elapsed)) => {
                        done_out.send_all(reply::bench_totals(nodes, elapsed.as_secs_f64()))
                    }
                }
                if stopped {
                    done_out.send(&Reply::info_string("bench stopped"));
                }
                let _ = events.send(Event::JobDone);
            },
        );
        if let Err(e) = started {
            self.out.send(&reply::error(e));
        }
    }

    fn start_perft(&mut self, depth: u64) {
        let out = self.out.clone();
        let events = self.events.clone();
        let started = self.engine.start_perft(
            depth,
            move |event| match event {
                PerftEvent::Move(mv, count) => out.send(&reply::perft_move(mv, count)),
                PerftEvent::Finished { nodes, elapsed } => {
                    let seconds = elapsed.as_secs_f64().max(1e-9);
                    log::info!(
                        "perft {depth}: {nodes} nodes in {:.3} s, {:.0} nodes/s",
                        seconds,
                        nodes as f64 / seconds
                    );
                    out.send(&reply::perft_total(nodes));
                }
                PerftEvent::Stopped => out.send(&reply::perft_stopped()),
                PerftEvent::Failed(message) => {
                    out.send(&reply::internal_error(&message));
                    out.send(&reply::perft_stopped());
                }
            },
            move || {
                let _ = events.send(Event::JobDone);
            },
        );
        if let Err(e) = started {
            self.out.send(&reply::error(e));
        }
    }
}
