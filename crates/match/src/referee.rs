//! Plays one game between two engine processes, checking every answer against the rules.

use std::time::{Duration, Instant};

use mancala_protocol::{Command, Info, Limits, PositionBase, Reply};
use mancala_rules::{Ending, Game, GameResult, LastFourRule, Move, Side, Variant};

use super::config::{EngineSpec, TimeControl};
use super::process::{EngineProcess, Fault};
use super::record::{GameRecord, PlyRecord, Termination};
use mancala_rules::openings::Opening;

/// How long an engine has to answer `stop` with `bestmove` once its time is up.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// The rules and limits every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub variant: Variant,
    /// The game file every engine loads before the variant (a game not built in).
    pub game_file: Option<std::path::PathBuf>,
    pub last_four_rule: LastFourRule,
    /// The limits of South and North.
    pub limits: [TimeControl; 2],
    pub time_margin: Duration,
    pub answer_timeout: Duration,
    pub max_plies: Option<u32>,
}

/// An engine's place at the table: its spec and, while it runs, its process. A process that
/// crashed or hung is dropped (killed) and started afresh for the next game.
pub struct Seat {
    pub index: usize,
    pub name: String,
    spec: EngineSpec,
    process: Option<EngineProcess>,
}

impl Seat {
    pub fn new(index: usize, name: String, spec: EngineSpec) -> Seat {
        Seat {
            index,
            name,
            spec,
            process: None,
        }
    }

    /// The running engine, started and told the game if needed, synchronised for a new game.
    fn prepare(&mut self, setup: &GameSetup) -> Result<&mut EngineProcess, Fault> {
        if self.process.is_none() {
            let mut engine = EngineProcess::start(&self.spec, setup.answer_timeout)?;
            let set = |name: &str, value: String| Command::SetOption {
                name: name.to_string(),
                value: Some(value),
            };
            if let Some(path) = &setup.game_file {
                engine.send(&set("GameFile", path.display().to_string()))?;
            }
            engine.send(&set("Variant", setup.variant.to_string()))?;
            if setup.variant.rules().tracks_four_holders()
                && setup.last_four_rule != LastFourRule::default()
            {
                engine.send(&set(
                    "AnywoliLastFour",
                    setup.last_four_rule.name().to_string(),
                ))?;
            }
            self.process = Some(engine);
        }
        let engine = self.process.as_mut().expect("started above");
        engine.send(&Command::NewGame)?;
        engine.sync(setup.answer_timeout)?;
        Ok(engine)
    }

    fn drop_process(&mut self) {
        self.process = None;
    }
}

/// What the engine said about its search before `bestmove`.
#[derive(Default)]
struct Thinking {
    depth: Option<u32>,
    score: Option<String>,
}

impl Thinking {
    /// The last depth and score said so far.
    fn read_info(&mut self, info: &Info) {
        self.depth = info.depth.or(self.depth);
        if let Some(score) = info.score {
            self.score = Some(score.to_string());
        }
    }
}

/// How one request for a move ended.
enum Answer {
    Move {
        mv: Move,
        think: Duration,
        thinking: Thinking,
    },
    Lost(Termination),
}

/// Plays `opening` with `seats[0]` as South and `seats[1]` as North.
pub fn play_game(
    setup: &GameSetup,
    number: u64,
    opening: &Opening,
    mut seats: [&mut Seat; 2],
) -> GameRecord {
    let mut game = opening.game(setup.last_four_rule);
    let mut plies: Vec<PlyRecord> = opening
        .moves
        .iter()
        .zip(game.positions())
        .map(|(&mv, before)| PlyRecord {
            side: before.side_to_move(),
            mv,
            book: true,
            think: Duration::ZERO,
            depth: None,
            score: None,
        })
        .collect();
    let finish = |game: &Game, plies: Vec<PlyRecord>, seats: &[&mut Seat; 2], end: End| {
        let (result, totals, termination) = match end {
            End::Rules(ending) => {
                let totals = game.final_totals().expect("the game is over");
                (
                    game.result().expect("the game is over"),
                    Some(totals),
                    Termination::Rules(ending),
                )
            }
            End::PlyCap => {
                let totals = game
                    .position()
                    .final_totals(Ending::NoProgress, setup.last_four_rule);
                (
                    GameResult::from_totals(totals),
                    Some(totals),
                    Termination::PlyCap,
                )
            }
            End::Fault(termination) => {
                let loser = termination.offender().expect("a fault has an offender");
                let result = match loser {
                    Side::South => GameResult::NorthWins,
                    Side::North => GameResult::SouthWins,
                };
                (result, None, termination)
            }
        };
        GameRecord {
            number,
            variant: setup.variant,
            base: opening.base,
            engines: [seats[0].index, seats[1].index],
            names: [seats[0].name.clone(), seats[1].name.clone()],
            time_controls: setup.limits.map(|l| l.describe()),
            plies,
            final_position: *game.position(),
            result,
            totals,
            termination,
        }
    };

    for side in Side::BOTH {
        let seat = &mut seats[side.index()];
        if let Err(fault) = seat.prepare(setup) {
            seat.drop_process();
            return finish(
                &game,
                plies,
                &seats,
                End::Fault(fault_termination(side, fault)),
            );
        }
    }

    let mut clocks = setup.limits.map(|limit| match limit {
        TimeControl::Clock { initial, .. } => initial,
        _ => Duration::ZERO,
    });
    let base = PositionBase::PositionString(opening.base.to_string());
    loop {
        if let Some(ending) = game.ending() {
            return finish(&game, plies, &seats, End::Rules(ending));
        }
        if setup
            .max_plies
            .is_some_and(|cap| plies.len() >= cap as usize)
        {
            return finish(&game, plies, &seats, End::PlyCap);
        }
        let side = game.position().side_to_move();
        let position = Command::Position {
            base: base.clone(),
            moves: game.moves().collect(),
        };
        // As tournament managers do, the engine that waits hears the position too.
        let waiting = &mut seats[side.opponent().index()];
        if let Some(engine) = waiting.process.as_mut()
            && let Err(fault) = engine.send(&position)
        {
            waiting.drop_process();
            let termination = fault_termination(side.opponent(), fault);
            return finish(&game, plies, &seats, End::Fault(termination));
        }
        let seat = &mut seats[side.index()];
        let answer = ask_for_move(setup, seat, &position, side, &clocks);
        match answer {
            Answer::Lost(termination) => {
                return finish(&game, plies, &seats, End::Fault(termination));
            }
            Answer::Move {
                mv,
                think,
                thinking,
            } => {
                if let TimeControl::Clock { increment, .. } = setup.limits[side.index()] {
                    let clock = &mut clocks[side.index()];
                    *clock = clock.saturating_sub(think) + increment;
                }
                if let Err(illegal) = game.play(mv) {
                    let termination = Termination::IllegalMove {
                        side,
                        detail: illegal.to_string(),
                    };
                    return finish(&game, plies, &seats, End::Fault(termination));
                }
                plies.push(PlyRecord {
                    side,
                    mv,
                    book: false,
                    think,
                    depth: thinking.depth,
                    score: thinking.score,
                });
            }
        }
    }
}

enum End {
    Rules(Ending),
    PlyCap,
    Fault(Termination),
}

fn fault_termination(side: Side, fault: Fault) -> Termination {
    match fault {
        Fault::Crashed(detail) => Termination::Crash { side, detail },
        Fault::Unresponsive(detail) => Termination::Hang { side, detail },
    }
}

/// Sends the game (`position`) and `go` to the side to move and waits for its `bestmove`.
fn ask_for_move(
    setup: &GameSetup,
    seat: &mut Seat,
    position: &Command,
    side: Side,
    clocks: &[Duration; 2],
) -> Answer {
    let engine = seat.process.as_mut().expect("prepared before the game");
    let (go, allowed) = match setup.limits[side.index()] {
        TimeControl::Clock { increment, .. } => {
            // Both clocks; an opponent without a clock is shown this side's.
            let [south, north] =
                [Side::South, Side::North].map(|s| match setup.limits[s.index()] {
                    TimeControl::Clock { increment, .. } => (clocks[s.index()], increment),
                    _ => (clocks[side.index()], increment),
                });
            let ms = |d: Duration| d.as_millis() as u64;
            (
                Limits {
                    time: [Some(ms(south.0)), Some(ms(north.0))],
                    inc: [ms(south.1), ms(north.1)],
                    ..Limits::default()
                },
                Some(clocks[side.index()]),
            )
        }
        TimeControl::MoveTime(t) => (
            Limits {
                movetime: Some(t.as_millis() as u64),
                ..Limits::default()
            },
            Some(t),
        ),
        TimeControl::Depth(d) => (
            Limits {
                depth: Some(d),
                ..Limits::default()
            },
            None,
        ),
        TimeControl::Nodes(n) => (
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            None,
        ),
    };
    let go = Command::Go(go);
    let sent = engine.send(position).and_then(|()| engine.send(&go));
    if let Err(fault) = sent {
        seat.drop_process();
        return Answer::Lost(fault_termination(side, fault));
    }
    let started = Instant::now();
    let mut deadline = started + allowed.map_or(setup.answer_timeout, |t| t + setup.time_margin);
    let mut thinking = Thinking::default();
    // Past the deadline: `stop` has been sent and the game is lost whatever comes.
    let mut late = false;
    loop {
        let line = match engine.receive(deadline, "bestmove") {
            Ok(line) => line,
            Err(Fault::Unresponsive(_)) if !late => {
                // Out of time: the game is lost either way, but an engine that answers `stop`
                // can stay for the next game.
                late = true;
                deadline = Instant::now() + STOP_GRACE;
                if engine.send(&Command::Stop).is_ok() {
                    continue;
                }
                seat.drop_process();
                return Answer::Lost(Termination::Crash {
                    side,
                    detail: "it closed its input".into(),
                });
            }
            Err(fault) => {
                seat.drop_process();
                let fault = match fault {
                    Fault::Unresponsive(_) => {
                        Fault::Unresponsive("no bestmove by the deadline, nor after stop".into())
                    }
                    crashed => crashed,
                };
                return Answer::Lost(fault_termination(side, fault));
            }
        };
        let reply = Reply::parse(&line.text);
        let is_bestmove = matches!(reply, Ok(Reply::BestMove(_)))
            || line.text.split_whitespace().next() == Some("bestmove");
        if let Ok(Reply::Info(info)) = &reply {
            thinking.read_info(info);
        }
        if !is_bestmove {
            continue;
        }
        let think = line.at.saturating_duration_since(started);
        if late {
            return Answer::Lost(match allowed {
                Some(_) => Termination::TimeForfeit { side },
                None => Termination::Hang {
                    side,
                    detail: format!("no bestmove within {} ms", setup.answer_timeout.as_millis()),
                },
            });
        }
        if allowed.is_some_and(|t| think > t + setup.time_margin) {
            return Answer::Lost(Termination::TimeForfeit { side });
        }
        return match reply {
            Ok(Reply::BestMove(best)) => match best.best {
                Some(mv) => Answer::Move {
                    mv,
                    think,
                    thinking,
                },
                None => Answer::Lost(Termination::IllegalMove {
                    side,
                    detail: "bestmove (none) in a position with legal moves".into(),
                }),
            },
            Err(malformed) => Answer::Lost(Termination::IllegalMove {
                side,
                detail: malformed.why,
            }),
            Ok(_) => unreachable!("a bestmove line reads as a bestmove or an error"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> Info {
        match Reply::parse(line) {
            Ok(Reply::Info(info)) => info,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn info_lines_give_depth_and_score() {
        let mut thinking = Thinking::default();
        thinking.read_info(&info(
            "info depth 9 seldepth 14 score cp -250 nodes 10 pv A b",
        ));
        assert_eq!(thinking.depth, Some(9));
        assert_eq!(thinking.score.as_deref(), Some("cp -250"));
        thinking.read_info(&info("info depth 10 score mate 7 pv A"));
        assert_eq!(thinking.score.as_deref(), Some("mate 7"));
        thinking.read_info(&info("info nodes 5"));
        assert_eq!(thinking.depth, Some(10));
    }
}
