//! Training data and the tuner: a seed reproduces a set whatever the threads, the labels are
//! what they say (final margins from the games' ends, exact values from tables), and the tuner
//! reads the files and writes the generated weights, through the real binary.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mancala_learn::data::Record;
use mancala_learn::datagen::{Settings, Summary, generate};
use mancala_rules::{Side, Variant};
use mancala_tablebase::Tablebases;
use mancala_tablebase::generate::build_in_memory;

fn settings(variant: Variant, threads: usize) -> Settings {
    Settings {
        variant,
        games: 12,
        seed: 3,
        nodes: 600,
        random_plies: 6,
        balanced: None,
        threads,
    }
}

fn run(settings: &Settings, tables: Option<Arc<Tablebases>>) -> (String, Summary) {
    let mut out = Vec::new();
    let summary = generate(settings, tables, &mut out, &AtomicBool::new(false), &|_| {}).unwrap();
    (String::from_utf8(out).unwrap(), summary)
}

fn records(variant: Variant, text: &str) -> Vec<Record> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| Record::parse(variant, l).unwrap())
        .collect()
}

#[test]
fn a_seed_reproduces_the_set_whatever_the_threads() {
    for variant in [Variant::MangalaII, Variant::AlManqala, Variant::Anywoli] {
        let (one, summary) = run(&settings(variant, 1), None);
        let (two, again) = run(&settings(variant, 2), None);
        assert_eq!(one, two, "{variant}");
        assert_eq!(summary, again);
        assert_eq!(summary.games, 12);
        assert_eq!(summary.results.iter().sum::<u64>(), 12, "{summary:?}");
        let records = records(variant, &one);
        assert_eq!(records.len() as u64, summary.positions);
        assert!(one.starts_with(&format!(
            "# mancala-engine datagen {variant} games=12 seed=3 nodes=600 random-plies=6 tablebases=none\n"
        )));
        // Another seed, other games.
        let (other, _) = run(
            &Settings {
                seed: 4,
                ..settings(variant, 1)
            },
            None,
        );
        assert_ne!(one, other, "{variant}");
    }
}

/// A run stopped (by Ctrl-C in the tool) begins no game more and finishes those in play: its
/// records are those of the first games, whole and in order, as a shorter run writes them.
#[test]
fn a_stopped_run_writes_the_first_games_whole() {
    let variant = Variant::AlManqala;
    let full = Settings {
        games: 40,
        ..settings(variant, 2)
    };
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let summary = generate(&full, None, &mut out, &stop, &|summary| {
        if summary.games >= 3 {
            stop.store(true, Ordering::Relaxed);
        }
    })
    .unwrap();
    let stopped = String::from_utf8(out).unwrap();
    // Stopped early; the games in play on the other thread were finished too (how many
    // depends on the timing, the prefix below does not).
    assert!((3..40).contains(&summary.games), "{summary:?}");
    let games: Vec<u64> = records(variant, &stopped).iter().map(|r| r.game).collect();
    assert_eq!(games.len() as u64, summary.positions);
    assert_eq!(*games.last().unwrap(), summary.games - 1);
    let (shorter, again) = run(
        &Settings {
            games: summary.games,
            ..full
        },
        None,
    );
    assert_eq!(again, summary);
    let body = |text: &str| text.split_once('\n').unwrap().1.to_string();
    assert_eq!(body(&stopped), body(&shorter));
}

#[test]
fn balanced_openings_start_every_game_close_to_even() {
    // Anywoli's random openings are mostly lopsided: without the filter some first searches
    // are far from even, with it none is.
    let first_scores = |balanced: Option<i32>| {
        let (text, _) = run(
            &Settings {
                games: 8,
                balanced,
                ..settings(Variant::Anywoli, 2)
            },
            None,
        );
        let records = records(Variant::Anywoli, &text);
        let firsts: Vec<i32> = (0..8)
            .map(|game| records.iter().find(|r| r.game == game).unwrap().search)
            .collect();
        (text, firsts)
    };
    let (_, plain) = first_scores(None);
    assert!(plain.iter().any(|s| s.abs() > 1500), "{plain:?}");
    let (text, balanced) = first_scores(Some(1500));
    assert!(balanced.iter().all(|s| s.abs() <= 1500), "{balanced:?}");
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("random-plies=6 balanced=1500 tablebases=none"),
        "{text}"
    );
    // Still reproducible whatever the threads.
    let (one, _) = run(
        &Settings {
            games: 8,
            balanced: Some(1500),
            ..settings(Variant::Anywoli, 1)
        },
        None,
    );
    assert_eq!(one, text);
}

#[test]
fn each_game_has_one_final_margin_seen_from_each_side_to_move() {
    let (text, _) = run(&settings(Variant::MangalaII, 2), None);
    let records = records(Variant::MangalaII, &text);
    for game in 0..12 {
        let of_game: Vec<&Record> = records.iter().filter(|r| r.game == game).collect();
        assert!(!of_game.is_empty(), "game {game}");
        // One final margin per game, seen from each side to move.
        let south: Vec<i32> = of_game
            .iter()
            .map(|r| {
                if r.position.side_to_move() == Side::South {
                    r.margin
                } else {
                    -r.margin
                }
            })
            .collect();
        assert!(
            south.windows(2).all(|w| w[0] == w[1]),
            "game {game}: {south:?}"
        );
    }
}

#[test]
fn exact_values_come_from_the_tables() {
    let tables = Arc::new(Tablebases::from_layers(
        Variant::MangalaII,
        build_in_memory(Variant::MangalaII, 8),
    ));
    let (text, summary) = run(
        &Settings {
            games: 6,
            ..settings(Variant::MangalaII, 2)
        },
        Some(Arc::clone(&tables)),
    );
    assert!(text.lines().next().unwrap().ends_with("tablebases=up-to-8"));
    let records = records(Variant::MangalaII, &text);
    let exact: Vec<&Record> = records.iter().filter(|r| r.exact.is_some()).collect();
    assert_eq!(exact.len() as u64, summary.exact);
    assert!(!exact.is_empty(), "endgames reach 8 counters");
    for r in &records {
        assert_eq!(r.exact.is_some(), r.position.on_board() <= 8, "{r}");
        assert_eq!(r.exact, tables.probe(&r.position), "{r}");
    }
}

/// Runs the engine binary with `args`; its stdout and stderr, after checking that it succeeded.
fn engine_ok(args: &[&str]) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(args)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    );
    assert!(output.status.success(), "{args:?}: {stdout}{stderr}");
    (stdout, stderr)
}

#[test]
fn datagen_and_tune_through_the_binary() {
    let dir = std::env::temp_dir().join(format!("mancala-learn-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("am.txt");
    // `--write` writes each fitted game's weights file into a directory, as the built-in games'
    // are kept (crates/engine/games).
    let weights_dir = dir.join("games");
    std::fs::create_dir_all(&weights_dir).unwrap();
    let weights = weights_dir.join("al-manqala.weights");
    let (data_path, weights_path) = (data.to_str().unwrap(), weights_dir.to_str().unwrap());
    let engine = env!("CARGO_BIN_EXE_mancala-engine");
    let (_, stderr) = engine_ok(&["datagen", "al-manqala", "80", data_path, "--nodes", "300"]);
    assert!(
        stderr.contains("datagen al-manqala: 80 games (South won ") && stderr.contains("positions"),
        "{stderr}"
    );
    // Off a terminal, progress comes as a line at every tenth of the games.
    let progress: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("/80 games, "))
        .collect();
    assert_eq!(progress.len(), 10, "{stderr}");
    assert!(
        progress[9].starts_with("datagen al-manqala: 80/80 games, "),
        "{stderr}"
    );
    let (stdout, _) = engine_ok(&["tune", data_path, "--write", weights_path]);
    assert!(
        stdout.contains("al-manqala: ") && stdout.contains("RMSE in counters"),
        "{stdout}"
    );
    let file = std::fs::read_to_string(&weights).unwrap();
    assert!(
        file.contains("game = \"al-manqala\"\nmodel = \"terms\"\n"),
        "{file}"
    );
    assert!(file.contains("command = \"mancala-engine tune "), "{file}");
    // Only the games fitted get a file.
    let written: Vec<_> = std::fs::read_dir(&weights_dir).unwrap().collect();
    assert_eq!(written.len(), 1, "{written:?}");
    // Pit tables: fitted and written as tables.
    let (stdout, _) = engine_ok(&["tune", data_path, "--pits", "--write", weights_path]);
    assert!(stdout.contains("a value for each count"), "{stdout}");
    let file = std::fs::read_to_string(&weights).unwrap();
    assert!(file.contains("model = \"pits\""), "{file}");
    assert!(file.contains("\nmine-A = ["), "{file}");
    assert!(!file.contains("mine-late"), "{file}");
    // Two files of one game make one fit of all their positions.
    let (one, _) = engine_ok(&["tune", data_path]);
    let (two, _) = engine_ok(&[
        "tune",
        data_path,
        data_path,
        "--tapered",
        "--write",
        weights_path,
    ]);
    let positions = |report: &str| -> usize {
        let words: Vec<&str> = report.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "positions").unwrap();
        words[at - 1].parse().unwrap()
    };
    assert_eq!(two.matches("al-manqala: ").count(), 1, "{two}");
    assert!(positions(&two) > positions(&one), "{one}\n{two}");
    let file = std::fs::read_to_string(&weights).unwrap();
    assert!(file.contains("model = \"tapered-pits\""), "{file}");
    assert!(
        file.contains("` and `mancala-engine datagen al-manqala"),
        "{file}"
    );
    assert!(file.contains("\nmine-late-A = ["), "{file}");
    // A game's own lambda applies to that game's files only.
    let report = |extra: &[&str]| {
        let mut args = vec!["tune", data_path];
        args.extend_from_slice(extra);
        engine_ok(&args).0
    };
    let all_margin = report(&["--lambda", "1"]);
    assert_eq!(report(&["--lambda", "al-manqala=1"]), all_margin);
    assert_eq!(
        report(&["--lambda", "0", "--lambda", "al-manqala=1"]),
        all_margin
    );
    assert_eq!(report(&["--lambda", "anywoli=1"]), report(&[]));
    assert_ne!(report(&[]), all_margin);
    // Bad input: refused with a reason, nothing written.
    for (args, why) in [
        (
            vec!["datagen", "mangala-iv", "5", "-"],
            "has nothing to learn",
        ),
        (
            vec!["datagen", "al-manqala", "0", "-"],
            "0 is not in 1..=100000000",
        ),
        (
            vec!["datagen", "al-manqala", "5", "-", "--nodes"],
            "a value is required for '--nodes <NODES>'",
        ),
        (
            vec!["tune"],
            "the following required arguments were not provided",
        ),
        (
            vec!["tune", data_path, "--lambda", "al-manqala=2"],
            "--lambda takes a number from 0 to 1",
        ),
        (vec!["tune", data_path, "--lambda", "chess=0.5"], "chess"),
        (vec!["tune", "/nonexistent"], "cannot read /nonexistent"),
        (
            vec!["tune", data_path, "--write", data_path],
            "not a directory",
        ),
        (
            vec!["tune", concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")],
            "not a datagen file",
        ),
    ] {
        let output = Command::new(engine).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_makes_a_file_the_match_runner_reads() {
    use mancala_rules::LastFourRule;
    use mancala_rules::openings::parse_openings;
    let dir = std::env::temp_dir().join(format!("mancala-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("anywoli.txt");
    let path = file.to_str().unwrap();
    let (_, stderr) = engine_ok(&[
        "openings",
        "anywoli",
        "12",
        path,
        "--balanced",
        "1200",
        "--nodes",
        "3000",
    ]);
    assert!(stderr.contains("12 written"), "{stderr}");
    let text = std::fs::read_to_string(&file).unwrap();
    let openings = parse_openings(Variant::Anywoli, LastFourRule::default(), &text).unwrap();
    assert_eq!(openings.len(), 12);
    let mut lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    for line in &lines {
        // Four quiet moves, and the search's score within the limit (or the closest drawn).
        let (moves, note) = line.split_once('#').unwrap();
        assert_eq!(moves.split_whitespace().count(), 4, "{line}");
        let score: i32 = note.split_whitespace().next().unwrap().parse().unwrap();
        assert!(score.abs() <= 1200 || note.contains("closest"), "{line}");
    }
    for opening in &openings {
        let game = opening.game(LastFourRule::default());
        assert_eq!(game.position().captured(Side::South), 0);
        assert_eq!(game.position().captured(Side::North), 0);
    }
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), 12, "each opening once");
    // The same command makes the same file.
    let again = dir.join("again.txt");
    engine_ok(&[
        "openings",
        "anywoli",
        "12",
        again.to_str().unwrap(),
        "--balanced",
        "1200",
        "--nodes",
        "3000",
    ]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    // '-' writes the set to stdout.
    let (stdout, _) = engine_ok(&[
        "openings",
        "anywoli",
        "12",
        "-",
        "--balanced",
        "1200",
        "--nodes",
        "3000",
    ]);
    assert_eq!(stdout, text);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_says_why_it_cannot_make_a_set() {
    let fails = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
            .args(args)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stderr).to_string()
    };
    let dir = std::env::temp_dir().join(format!("mancala-openings-bad-{}", std::process::id()));
    let path = dir.join("x.txt");
    let path = path.to_str().unwrap();
    // No random moves: the start position is the only opening there is.
    let stderr = fails(&["openings", "mangala-ii", "3", path, "--random-plies", "0"]);
    assert!(
        stderr.contains("only 1 different openings found"),
        "{stderr}"
    );
    let stderr = fails(&["openings", "mangala-iv", "3", path]);
    assert!(stderr.contains("deals"), "{stderr}");
    let stderr = fails(&["openings", "anywoli", "3", path, "--balanced", "x"]);
    assert!(stderr.contains("--balanced"), "{stderr}");
    assert!(!std::path::Path::new(path).exists());
}

/// A wrong argument to a tool gets one line saying what is wrong and one line with the tool's
/// usage and where its help is: not the whole usage.
#[test]
fn a_wrong_tool_argument_gets_one_line_and_a_hint() {
    for (args, what, usage) in [
        (
            vec!["bench", "extra"],
            "unexpected argument 'extra' found",
            "usage: mancala-engine bench (more: mancala-engine bench --help)",
        ),
        (
            vec!["solve", "mangala-ii"],
            "required arguments were not provided: <POSITION>",
            "usage: mancala-engine solve [OPTIONS] <VARIANT> <POSITION> (more: mancala-engine solve --help)",
        ),
        (
            vec!["frobnicate"],
            "unrecognized subcommand 'frobnicate'",
            "usage: mancala-engine [OPTIONS] [COMMAND] (more: mancala-engine --help)",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {stderr}");
        assert!(
            lines[0].starts_with("mancala-engine: ") && lines[0].contains(what),
            "{args:?}: {stderr}"
        );
        assert_eq!(lines[1], usage, "{args:?}");
    }
}

/// A game of a file is fitted without editing the source: `datagen` and `tune --save` with
/// `--game`, and the daemon started with `--game` and `--weights` evaluates with the fit.
#[test]
fn a_game_of_a_file_is_fitted_and_its_weights_loaded() {
    let dir = mancala_testkit::Scratch::new("learn-file");
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/games/short-kalah.toml"
    );
    let data = dir.join("short.txt");
    let saved = dir.join("short.weights");
    let (data_path, saved_path) = (data.to_str().unwrap(), saved.to_str().unwrap());
    let (_, stderr) = engine_ok(&[
        "datagen",
        "short-kalah",
        "200",
        data_path,
        "--nodes",
        "300",
        "--game",
        game,
    ]);
    assert!(
        stderr.contains("datagen short-kalah: 200 games"),
        "{stderr}"
    );
    let (stdout, _) = engine_ok(&[
        "tune", data_path, "--pits", "--save", saved_path, "--game", game,
    ]);
    assert!(stdout.contains("short-kalah: "), "{stdout}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.starts_with("# mancala-engine weights"), "{text}");
    assert!(text.contains("game = \"short-kalah\""), "{text}");
    assert!(text.contains("model = \"pits\""), "{text}");
    // Without the game, the weights file names a game the engine does not know.
    let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(["--weights", saved_path, "bench"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("game: "), "{stderr}");
    // With both, the daemon's evaluation uses the fitted pit tables.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(["--game", game, "--weights", saved_path])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        writeln!(
            stdin,
            "variant short-kalah\nposition startpos moves A\neval"
        )
        .unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let pits: i32 = stdout
        .lines()
        .find_map(|line| line.strip_prefix("info string eval pits "))
        .unwrap_or_else(|| panic!("{stdout}"))
        .parse()
        .unwrap();
    assert_ne!(pits, 0, "the fitted pit tables value the board: {stdout}");

    // A network trained over those weights, loaded at start and by the option.
    let net = dir.join("short.net");
    let net_path = net.to_str().unwrap();
    let (stdout, stderr) = engine_ok(&[
        "train",
        data_path,
        "--epochs",
        "3",
        "--hidden",
        "8",
        "--save",
        net_path,
        "--game",
        game,
        "--weights",
        saved_path,
    ]);
    assert!(
        stdout.contains("short-kalah: ") && stdout.contains("held out"),
        "{stdout}"
    );
    assert_eq!(stderr.matches("epoch ").count(), 3, "{stderr}");
    let text = std::fs::read_to_string(&net).unwrap();
    assert!(text.starts_with("# mancala-engine network"), "{text}");
    assert!(text.contains("game = \"short-kalah\""), "{text}");
    // Over the default weights (no --weights), it does not fit: refused before anything runs.
    let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(["--game", game, "--network", net_path, "bench"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("trained over other weights"), "{stderr}");
    let eval_with = |args: &[&str], lines: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "{lines}").unwrap();
        }
        let output = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&output.stdout).to_string()
    };
    let network_term = |stdout: &str| -> i32 {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix("info string eval network "))
            .unwrap_or_else(|| panic!("{stdout}"))
            .parse()
            .unwrap()
    };
    let moves = "variant short-kalah\nposition startpos moves A\neval";
    let stdout = eval_with(&["--game", game, "--weights", saved_path], moves);
    assert_eq!(network_term(&stdout), 0, "no network yet: {stdout}");
    let stdout = eval_with(
        &[
            "--game",
            game,
            "--weights",
            saved_path,
            "--network",
            net_path,
        ],
        moves,
    );
    let at_start = network_term(&stdout);
    let stdout = eval_with(
        &["--game", game, "--weights", saved_path],
        &format!("setoption name NetworkFile value {net_path}\n{moves}"),
    );
    assert!(
        stdout.contains(&format!(
            "info string network of short-kalah loaded from {net_path}"
        )),
        "{stdout}"
    );
    assert_eq!(network_term(&stdout), at_start, "{stdout}");
    // A damaged file is refused with one line, and the engine evaluates as before.
    let broken = dir.join("broken.net");
    std::fs::write(&broken, text.replacen("hidden = 8", "hidden = 9", 1)).unwrap();
    let stdout = eval_with(
        &["--game", game, "--weights", saved_path],
        &format!(
            "setoption name NetworkFile value {}\n{moves}",
            broken.display()
        ),
    );
    assert!(
        stdout.contains("info string error") && stdout.contains("hidden: must be"),
        "{stdout}"
    );
    assert_eq!(network_term(&stdout), 0, "{stdout}");
}

/// Ctrl-C stops a long datagen with a file the tuner reads: the games played, every line
/// whole (before, the buffered tail was lost in the middle of a line, and the tuner refused
/// the whole file); and a long training with the best network so far, written.
#[test]
fn datagen_and_train_stopped_by_ctrl_c_keep_what_they_made() {
    // SIGINT, or SIGTERM where the tests run ignoring SIGINT.
    let (signal, status) = mancala_testkit::ctrl_c_signal();
    let dir = std::env::temp_dir().join(format!("mancala-learn-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("am.txt");
    let engine = env!("CARGO_BIN_EXE_mancala-engine");
    let child = Command::new(engine)
        .args(["datagen", "al-manqala", "100000", data.to_str().unwrap()])
        .args(["--nodes", "200"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until some games are in the file (the writer's buffer spilled a few times).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::metadata(&data).map_or(0, |m| m.len()) < 50_000 {
        assert!(std::time::Instant::now() < deadline, "no data written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    mancala_testkit::send_signal(child.id(), signal);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(status), "{stderr}");
    let said = stderr
        .lines()
        .find_map(|l| l.strip_prefix(&format!("mancala-engine: stopped by SIG{signal} after ")))
        .unwrap_or_else(|| panic!("no line saying where it stopped: {stderr}"));
    let games: u64 = said.split(' ').next().unwrap().parse().unwrap();
    assert!(
        said.contains("of 100000 games") && games < 100_000,
        "{said}"
    );
    // The signal was heard at once, before the games in play ended.
    let heard = format!(
        "SIG{signal} received: no game is begun, the games in play are being finished (a \
         second signal ends it at once)"
    );
    assert!(stderr.lines().any(|l| l == heard), "{stderr}");
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.ends_with('\n'), "the last line is whole");
    let records = records(Variant::AlManqala, &text);
    assert!(
        said.contains(&format!("holds their {} positions", records.len())),
        "{said}"
    );
    assert_eq!(records.last().unwrap().game, games - 1, "{said}");
    let (stdout, _) = engine_ok(&["tune", data.to_str().unwrap()]);
    assert!(stdout.contains("RMSE in counters"), "{stdout}");

    // Training stopped the same way keeps, and writes, the best network of the epochs run.
    let net = dir.join("am.net");
    let mut child = Command::new(engine)
        .args(["train", data.to_str().unwrap(), "--hidden", "8"])
        .args(["--epochs", "100000", "--save", net.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = mancala_testkit::signal_at_line(
        child.id(),
        child.stderr.take().unwrap(),
        |line| line.starts_with("epoch   2:"),
        signal,
    );
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(status), "{stdout}{stderr}");
    let said = stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix(&format!(
                "mancala-engine: stopped by SIG{signal} after epoch "
            ))
        })
        .unwrap_or_else(|| panic!("no line saying where it stopped: {stderr}"));
    let epochs: u32 = said.split(' ').next().unwrap().parse().unwrap();
    assert!((2..100_000).contains(&epochs), "{said}");
    assert_eq!(
        stderr.matches("RMSE in counters, training").count() as u32,
        epochs,
        "{stderr}"
    );
    assert!(
        said.contains("of 100000") && said.ends_with("written as asked"),
        "{said}"
    );
    assert!(stdout.contains("network written to"), "{stdout}");
    assert!(
        stderr.contains(&format!(
            "SIG{signal} received: the epoch under way is being finished"
        )),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&net).unwrap();
    assert!(text.starts_with("# mancala-engine network"), "{text}");
    // Its header says where training stopped.
    assert!(
        text.contains(&format!(
            "--save {} (stopped after epoch {epochs} of 100000)\"",
            net.display()
        )),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
