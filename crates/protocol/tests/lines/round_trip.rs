//! Both ends read what the other writes: every command written by `Display` parses back as
//! itself, and so does every reply.

use mancala_protocol::{
    BestMove, Command, Dialect, Info, Limits, PositionBase, Query, Reply, ScoreReport, parse_line,
};
use mancala_rules::{Move, Variant};
use proptest::prelude::*;

fn a_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (0usize..24).prop_map(|pit| Move::from_pit(pit, 12)),
        Just("pass".parse::<Move>().unwrap()),
    ]
}

fn moves(max: usize) -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(a_move(), 0..max)
}

fn limits() -> impl Strategy<Value = Limits> {
    (
        (
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            any::<bool>(),
            any::<bool>(),
        ),
        (
            [
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>()),
            ],
            [any::<u64>(), any::<u64>()],
            prop::option::of(any::<u32>()),
        ),
    )
        .prop_map(
            |((depth, nodes, movetime, infinite, ponder), (time, inc, movestogo))| Limits {
                depth,
                nodes,
                movetime,
                infinite,
                ponder,
                time,
                inc,
                movestogo,
            },
        )
}

/// Words an option's name or value may hold (not `value`, which separates them).
fn words() -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9/._]{1,8}", 1..4)
        .prop_filter("not the separator", |w| {
            !w.iter().any(|w| w.eq_ignore_ascii_case("value"))
        })
        .prop_map(|w| w.join(" "))
}

fn query() -> impl Strategy<Value = Query> {
    prop_oneof![
        (0..Query::WORDS.len()).prop_map(|i| Query::WORDS[i].1),
        a_move().prop_map(Query::Sowing),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let base = prop_oneof![
        Just(PositionBase::StartPos),
        "[0-9]{1,2}(-[0-9]{1,2}){13}-[SN]".prop_map(PositionBase::PositionString),
        any::<u64>().prop_map(PositionBase::Random),
    ];
    prop_oneof![
        prop_oneof![Just(Dialect::Uci), Just(Dialect::Ugi)].prop_map(Command::Handshake),
        Just(Command::IsReady),
        (words(), prop::option::of(words()))
            .prop_map(|(name, value)| Command::SetOption { name, value }),
        Just(Command::NewGame),
        prop::option::of((0..Variant::ALL.len()).prop_map(|i| Variant::ALL[i]))
            .prop_map(Command::Variant),
        (base, moves(30)).prop_map(|(base, moves)| Command::Position { base, moves }),
        moves(10)
            .prop_filter("at least one move", |m| !m.is_empty())
            .prop_map(Command::Move),
        any::<usize>().prop_map(Command::Undo),
        query().prop_map(Command::Query),
        limits().prop_map(Command::Go),
        Just(Command::PonderHit),
        any::<u64>().prop_map(Command::Perft),
        Just(Command::Bench),
        Just(Command::Eval),
        Just(Command::Display),
        Just(Command::Help),
        Just(Command::Stop),
        Just(Command::Quit),
    ]
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u32>()),
            prop::option::of(1u32..13),
            prop::option::of(prop_oneof![
                any::<i64>().prop_map(ScoreReport::Centi),
                any::<i64>().prop_map(ScoreReport::Mate),
            ]),
            prop::option::of(any::<i64>()),
        ),
        (
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            moves(20),
        ),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score, margin),
                (nodes, nps, hashfull, tbhits, time_ms, pv),
            )| {
                Info {
                    depth,
                    seldepth,
                    multipv,
                    score,
                    margin,
                    nodes,
                    nps,
                    hashfull,
                    tbhits,
                    time_ms,
                    other: Vec::new(),
                    pv,
                }
            },
        )
}

proptest! {
    #[test]
    fn a_written_command_reads_back_as_itself(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(parse_line(&line), Ok(Some(command)), "{}", line);
    }

    #[test]
    fn a_written_search_report_reads_back_as_itself(info in info()) {
        let reply = Reply::Info(info);
        let line = reply.to_string();
        prop_assert_eq!(Reply::parse(&line), Ok(reply), "{}", line);
    }

    #[test]
    fn a_written_bestmove_reads_back_as_itself(best in prop::option::of(a_move()), ponder in prop::option::of(a_move())) {
        let reply = Reply::BestMove(BestMove { best, ponder: ponder.filter(|_| best.is_some()) });
        let line = reply.to_string();
        prop_assert_eq!(Reply::parse(&line), Ok(reply), "{}", line);
    }
}
