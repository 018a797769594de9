//! The grammar of commands, case by case: what a line means, and what an error says.

use mancala_protocol::{
    COMMANDS, Command, Dialect, Limits, ParseError, PositionBase, Query, find_command, parse_line,
};

fn parsed(line: &str) -> Command {
    match parse_line(line) {
        Ok(Some(command)) => command,
        other => panic!("{line:?}: {other:?}"),
    }
}

fn refused(line: &str) -> String {
    match parse_line(line) {
        Err(error) => error.to_string(),
        other => panic!("{line:?} was accepted: {other:?}"),
    }
}

#[test]
fn blank_lines_are_nothing() {
    assert_eq!(parse_line(""), Ok(None));
    assert_eq!(parse_line(" \t "), Ok(None));
}

#[test]
fn words_are_case_insensitive_and_moves_are_not() {
    assert_eq!(parsed("ISREADY"), Command::IsReady);
    assert_eq!(parsed("UGI"), Command::Handshake(Dialect::Ugi));
    assert_eq!(parsed("uginewgame"), Command::NewGame);
    assert_eq!(parsed("query Fen"), Command::Query(Query::Fen));
    assert_eq!(
        parsed("position STARTPOS MOVES A f"),
        Command::Position {
            base: PositionBase::StartPos,
            moves: vec!["A".parse().unwrap(), "f".parse().unwrap()],
        }
    );
}

#[test]
fn go_takes_its_parameters_in_any_order_and_the_chess_names() {
    assert_eq!(
        parsed("go winc 5 wtime 100 btime 90 movestogo 3 binc 7"),
        Command::Go(Limits {
            time: [Some(100), Some(90)],
            inc: [5, 7],
            movestogo: Some(3),
            ..Limits::default()
        })
    );
    assert_eq!(parsed("go perft 3"), Command::Perft(3));
    assert_eq!(parsed("go"), Command::Go(Limits::default()));
    assert!(Limits::default().waits_for_stop());
}

#[test]
fn numbers_are_digits_only() {
    assert!(refused("go movetime +100").contains("a non-negative integer"));
    assert!(refused("undo +1").contains("a number of moves"));
    assert!(refused("position random -1").contains("a seed"));
    assert!(refused("go depth 99999999999").contains("at most 4294967295"));
}

#[test]
fn errors_name_the_command_and_what_was_expected() {
    assert_eq!(
        parse_line("foo"),
        Err(ParseError::Unknown("foo".to_string()))
    );
    assert_eq!(
        refused("perft x"),
        "bad arguments for 'perft': expected a depth (a non-negative integer), found 'x'"
    );
    assert_eq!(
        refused("isready now"),
        "bad arguments for 'isready': expected the end of the line, found 'now'"
    );
    assert!(refused("position startpos A f").contains("moves follow the word 'moves'"));
    assert!(refused("setoption Hash").contains("'name'"));
    assert!(refused("query sowing").contains("a move"));
    assert!(refused(&format!("{} x", "y".repeat(100))).contains('…'));
}

#[test]
fn setoption_names_and_values_keep_their_spaces() {
    assert_eq!(
        parsed("setoption name Move Overhead value 30"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("30".into()),
        }
    );
    assert_eq!(
        parsed("setoption name TablebasePath value"),
        Command::SetOption {
            name: "TablebasePath".into(),
            value: Some(String::new()),
        }
    );
}

#[test]
fn every_command_has_one_row_and_every_row_parses() {
    for spec in &COMMANDS {
        assert!(std::ptr::eq(find_command(spec.name).unwrap(), spec));
        let line = match spec.name {
            "setoption" => "setoption name Hash value 1",
            "position" => "position startpos",
            "move" => "move A",
            "query" => "query fen",
            "perft" => "perft 1",
            bare => bare,
        };
        let command = parsed(line);
        assert!(std::ptr::eq(command.spec(), spec), "{line}");
        assert_eq!(command.word(), spec.name);
    }
}

#[test]
fn stop_ponderhit_and_quit_act_on_a_running_job_and_isready_and_query_answer_during_one() {
    assert!(parsed("stop").interrupts_job());
    assert!(parsed("ponderhit").interrupts_job());
    assert!(parsed("quit").interrupts_job());
    assert!(!parsed("go").interrupts_job());
    assert!(parsed("isready").answers_during_search());
    assert!(parsed("query moves").answers_during_search());
    assert!(!parsed("position startpos").answers_during_search());
}
