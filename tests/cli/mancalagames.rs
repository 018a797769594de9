//! `mancala-engine import-mancalagames` through the real binary, on files written here in
//! MancalaGames' format (a JSON object, then text): what it translates, what it refuses and why,
//! and that what it writes is a game the engine plays.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mancala_rules::definition;
use mancala_testkit::Scratch;

const ENGINE: &str = env!("CARGO_BIN_EXE_mancala-engine");

/// A fresh directory for one test.
/// Writes `files` (name, JSON of `game_info`, holes, seeds) into `dir` in MancalaGames' layout.
fn write_files(dir: &Path, files: &[(&str, &str, u32, u32)]) -> Vec<PathBuf> {
    files
        .iter()
        .map(|(name, info, holes, seeds)| {
            let path = dir.join(format!("{name}.txt"));
            let text = format!(
                "{{\n   \"game_class\": \"Mancala\",\n   \"game_constants\": {{ \"holes\": {holes}, \
                 \"nbr_start\": {seeds} }},\n   \"game_info\": {info},\n   \"player\": {{ \
                 \"algorithm\": \"minimaxer\" }}\n}}\n<text_section>\n<about>\nWritten for a \
                 test.\n</about>\n</text_section>\n"
            );
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

/// Runs the import; its stdout's lines.
fn import(files: &[PathBuf], out: &Path) -> Vec<String> {
    let output = Command::new(ENGINE)
        .arg("import-mancalagames")
        .args(files)
        .arg("--out")
        .arg(out)
        .args(["--games", "5"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The `Nodes searched` count of `perft depth` in `game`, with `--game file` if given.
fn perft(game: &str, file: Option<&Path>, depth: u32) -> String {
    let mut command = Command::new(ENGINE);
    if let Some(file) = file {
        command.arg("--game").arg(file);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::{BufRead, BufReader, Write};
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "variant {game}\nperft {depth}").unwrap();
    stdin.flush().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut nodes = String::new();
    for line in stdout.lines() {
        let line = line.unwrap();
        assert!(!line.contains("error"), "{game}: {line}");
        if let Some(count) = line.strip_prefix("Nodes searched: ") {
            nodes = count.to_string();
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    child.wait().unwrap();
    nodes
}

#[test]
fn an_oware_file_becomes_a_game_the_engine_plays() {
    let dir = Scratch::new("mg-oware");
    let files = write_files(
        &dir,
        &[(
            "Test_Abapa",
            r#"{ "name": "Test Abapa", "about": "<text_section>", "capt_on": [2, 3],
                 "grandslam": 2, "multicapt": -1, "mustshare": true, "capt_side": 1,
                 "skip_start": true, "sow_direct": 1, "stores": true, "quitter": 0 }"#,
            6,
            4,
        )],
    );
    let out = dir.join("games");
    let lines = import(&files, &out);
    let written = out.join("test-abapa.toml");
    assert_eq!(
        lines[0],
        format!("written  {} -> {}", files[0].display(), written.display())
    );
    assert_eq!(
        lines[1],
        "1 files: 1 written (5 random games played to their end), 0 the same as a game already \
         there, 0 refused"
    );
    let rules = definition::parse(&std::fs::read_to_string(&written).unwrap()).unwrap();
    let oware: mancala_rules::Variant = "oware".parse().unwrap();
    let mut expected = *oware.rules();
    expected.name = rules.name;
    expected.title = "Test Abapa";
    // MancalaGames plays on when the player to move has no counter left (where Oware's
    // majority rule has ended the game at once) and has no no-progress rule; it draws stores.
    expected.own_end = mancala_rules::OwnEnd::MoverRowEmpty;
    expected.no_progress_limit = rules.no_progress_limit;
    expected.stores = true;
    // It ends a game on a majority as well; its chains go on past the pit sown from; its grand
    // slam is judged on a row that held counters before the move; the counters left when no
    // move can feed go as its leftover rule says (here each row to its owner: to the mover).
    expected.majority_ends = true;
    expected.chain_stops_at_origin = false;
    expected.grand_slam = mancala_rules::GrandSlam::CapturesNothingIfHeld;
    expected.unfed = mancala_rules::Unfed::AsLeftover;
    assert_eq!(rules, expected);
    assert_eq!(
        perft("test-abapa", Some(&written), 7),
        perft("oware", None, 7)
    );
}

#[test]
fn a_kalah_file_is_written_under_its_own_name_beside_the_built_in_kalah() {
    let dir = Scratch::new("mg-kalah");
    let files = write_files(
        &dir,
        &[(
            "Kalah",
            r#"{ "name": "Kalah", "crosscapt": 1, "capt_side": 1, "sow_direct": 1,
                 "sow_stores": 1, "stores": true, "xcpickown": 1 }"#,
            6,
            4,
        )],
    );
    let out = dir.join("games");
    let lines = import(&files, &out);
    let written = out.join("kalah-mancalagames.toml");
    assert_eq!(
        lines[0],
        format!(
            "written  {} -> {} (not 'kalah', whose rules differ in any-total, game-ends, \
             majority-ends, no-progress-limit, store-at-right)",
            files[0].display(),
            written.display()
        )
    );
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("game-ends = \"mover-row-empty\""), "{text}");
    assert!(text.contains("capture-empty-opposite = true"), "{text}");
    assert!(text.contains("extra-turn-in-store = true"), "{text}");
    assert_eq!(
        perft("kalah-mancalagames", Some(&written), 7),
        perft("kalah", None, 7)
    );
}

#[test]
fn rules_the_engine_lacks_are_refused_with_the_parameter_named() {
    let dir = Scratch::new("mg-refused");
    let files = write_files(
        &dir,
        &[
            (
                "Relay",
                r#"{ "name": "Relay", "mlaps": 1, "rounds": 3, "round_fill": 1, "capt_on": [4] }"#,
                7,
                4,
            ),
            (
                "Split",
                r#"{ "name": "Split", "sow_direct": 0, "udir_holes": [1], "min_move": 2 }"#,
                5,
                4,
            ),
            (
                "Backwards",
                r#"{ "name": "Backwards", "crosscapt": true, "capt_side": 0, "xcpickown": 2 }"#,
                6,
                4,
            ),
            (
                "Centre",
                r#"{ "name": "Centre", "capt_on": [2, 3], "sow_direct": 4 }"#,
                7,
                4,
            ),
            (
                "NoSlam",
                r#"{ "name": "No Slam", "capt_on": [2, 3], "grandslam": 1 }"#,
                6,
                4,
            ),
            (
                "Huge",
                r#"{ "name": "Huge", "capt_on": [2, 3], "mustshare": true }"#,
                12,
                11,
            ),
            ("Broken", r#"{ "name": "Broken", "#, 6, 4),
        ],
    );
    // Another class of game, written by hand.
    let class = dir.join("Columns.txt");
    std::fs::write(
        &class,
        r#"{ "game_class": "ZigZag", "game_constants": { "holes": 6, "nbr_start": 4 },
            "game_info": { "name": "Columns" } }"#,
    )
    .unwrap();
    // Numbers no board holds, refused before any arithmetic on them.
    let enormous = dir.join("Enormous.txt");
    std::fs::write(
        &enormous,
        r#"{ "game_constants": { "holes": 6, "nbr_start": 9223372036854775807 },
            "game_info": { "name": "Enormous" } }"#,
    )
    .unwrap();
    let mut all = files.clone();
    all.push(class.clone());
    all.push(enormous.clone());
    let out = dir.join("games");
    let lines = import(&all, &out);
    let expected = [
        format!(
            "refused  {}: rounds = 3: rounds that end once the start's count or fewer are left \
             are not a rule the engine has",
            files[0].display()
        ),
        format!(
            "refused  {}: sow_direct = 0 (split) with an odd row and its middle pit not in \
             udir_holes: a pit without a direction",
            files[1].display()
        ),
        format!(
            "refused  {}: capt_side = 0 with crosscapt: only the capture of the opponent's pit \
             (capt_side 1), or of either with xcpickown 0 or 1 (capt_side 0), is a rule the \
             engine has",
            files[2].display()
        ),
        format!(
            "refused  {}: sow_direct = 4: sowing towards the centre is not a rule the engine \
             has",
            files[3].display()
        ),
        format!(
            "refused  {}: grandslam = 1: a grand slam that may not be played is not a rule the \
             engine has",
            files[4].display()
        ),
        format!(
            "refused  {}: start: 264 counters in all is not from 1 to 255",
            files[5].display()
        ),
    ];
    for (line, expected) in lines.iter().zip(&expected) {
        assert_eq!(line, expected);
    }
    assert!(
        lines[6].starts_with(&format!(
            "refused  {}: file: is not MancalaGames' JSON:",
            files[6].display()
        )),
        "{}",
        lines[6]
    );
    assert_eq!(
        lines[7],
        format!(
            "refused  {}: game_class = ZigZag: only the classes Mancala (one ring of two rows) \
             and NorthSouthCycle (a ring of each row) are read",
            class.display()
        )
    );
    assert_eq!(
        lines[8],
        format!(
            "refused  {}: nbr_start = 9223372036854775807: a game has at most 255 counters",
            enormous.display()
        )
    );
    assert!(
        lines[9].starts_with("9 files: 0 written (0 random games played to their end), 0 the same as a game already there, 9 refused"),
        "{}",
        lines[9]
    );
    // Nothing is written for a refused file.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}
