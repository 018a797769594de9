//! The documents tell the truth: the README's two commands work as written, every example
//! session in README.md, protocol.md and RULES.md reproduces through the real binary, every
//! example of protocol.md's error table is what the engine answers, and no link leaves the
//! repository.
//!
//! An example session is a code block with lines starting `> ` (sent to the engine); its other
//! lines are the expected replies. In an expected line, `…` stands for any text (search numbers,
//! times); a line that is only `…` stands for any number of lines.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use mancala_testkit::daemon::Daemon;

const DOCUMENTS: [&str; 3] = ["README.md", "protocol.md", "RULES.md"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A code block of a Markdown file: its first line number and its lines, de-indented.
struct Block {
    line: usize,
    lines: Vec<String>,
}

/// The fenced and indented code blocks of a Markdown text.
fn code_blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if trimmed.starts_with("```") {
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            let cut = indent(lines[i]);
            blocks.push(Block {
                line: start + 1,
                lines: lines[start..end]
                    .iter()
                    .map(|l| l.get(cut..).unwrap_or("").to_string())
                    .collect(),
            });
            i = end + 1;
        } else if indent(lines[i]) >= 4 && (i == 0 || lines[i - 1].trim().is_empty()) {
            let start = i;
            let mut end = i;
            while end < lines.len() && (indent(lines[end]) >= 4 || lines[end].trim().is_empty()) {
                end += 1;
            }
            while end > start && lines[end - 1].trim().is_empty() {
                end -= 1;
            }
            let cut = lines[start..end]
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| indent(l))
                .min()
                .unwrap_or(0);
            blocks.push(Block {
                line: start + 1,
                lines: lines[start..end]
                    .iter()
                    .map(|l| l.get(cut..).unwrap_or("").to_string())
                    .collect(),
            });
            i = end;
        } else {
            i += 1;
        }
    }
    blocks
}

/// An example session: what is sent, and what must come back.
struct Session {
    input: Vec<String>,
    expected: Vec<String>,
}

fn sessions(text: &str) -> Vec<(usize, Session)> {
    code_blocks(text)
        .into_iter()
        .filter(|b| b.lines.iter().any(|l| l.starts_with("> ")))
        .map(|b| {
            let (input, expected) = b
                .lines
                .iter()
                .filter(|l| !l.trim().is_empty())
                .partition::<Vec<&String>, _>(|l| l.starts_with("> "));
            (
                b.line,
                Session {
                    input: input.iter().map(|l| l[2..].to_string()).collect(),
                    expected: expected.iter().map(|l| l.to_string()).collect(),
                },
            )
        })
        .collect()
}

/// Plays `input` through the engine as a user would: a search is given time to answer before the
/// next line is typed. Returns every line the engine printed.
fn play(input: &[String]) -> Vec<String> {
    let mut engine = Daemon::start();
    let mut output = Vec::new();
    for line in input {
        engine.send(line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let searches = words.first() == Some(&"go")
            && !words
                .iter()
                .any(|w| matches!(*w, "infinite" | "ponder" | "perft"));
        if searches {
            // Until its answer: `bestmove`, or the error that refused it.
            while let Some(line) = engine.next_line(Duration::from_secs(60)) {
                let answered =
                    line.starts_with("bestmove") || line.starts_with("info string error");
                output.push(line);
                if answered {
                    break;
                }
            }
        }
    }
    engine.close_input();
    while let Some(line) = engine.next_line(Duration::from_secs(60)) {
        output.push(line);
    }
    output
}

/// Whether `actual` fits `pattern`, where `…` in the pattern matches any text.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let Some(rest) = actual.strip_prefix(parts[0]) else {
        return false;
    };
    let last = parts[parts.len() - 1];
    if rest.len() < last.len() || !rest.ends_with(last) {
        return false;
    }
    let mut middle = &rest[..rest.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match middle.find(part) {
            Some(at) => middle = &middle[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `actual` fits `expected`, where a line `…` matches any number of lines.
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, others)| line_matches(first, line) && lines_match(rest, others)),
    }
}

#[test]
fn the_matcher_elides_only_what_it_should() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(line_matches(
        "info depth … pv …",
        "info depth 3 nodes 9 pv A b"
    ));
    assert!(!line_matches("info depth … pv …", "info depth 3 nodes 9"));
    assert!(line_matches("bestmove …", "bestmove C"));
    assert!(!line_matches("bestmove C", "bestmove D"));
    assert!(lines_match(&s(&["a", "…", "d"]), &s(&["a", "b", "c", "d"])));
    assert!(lines_match(&s(&["a", "…", "d"]), &s(&["a", "d"])));
    assert!(!lines_match(&s(&["a", "…", "d"]), &s(&["a", "b", "c"])));
    assert!(!lines_match(&s(&["a", "b"]), &s(&["a", "b", "c"])));
}

#[test]
fn example_sessions_reproduce() {
    let mut checked = 0;
    for name in DOCUMENTS {
        for (line, session) in sessions(&read(name)) {
            let actual = play(&session.input);
            assert!(
                lines_match(&session.expected, &actual),
                "{name}, the example session at line {line} does not reproduce\n--- sent\n{}\n\
                 --- expected\n{}\n--- actual\n{}",
                session.input.join("\n"),
                session.expected.join("\n"),
                actual.join("\n")
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} example sessions found");
}

/// protocol.md's table of errors: each example line, sent alone, gets the reply shown.
#[test]
fn the_error_table_is_what_the_engine_answers() {
    let text = read("protocol.md");
    let table = text
        .split("\n## Errors")
        .nth(1)
        .expect("protocol.md has an Errors section");
    let mut checked = 0;
    for row in table.lines().take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        if cells.len() != 3 {
            continue;
        }
        let (Some(line), Some(reply)) = (code_span(cells[1]), code_span(cells[2])) else {
            continue;
        };
        if cells[1].trim() != format!("`{line}`") {
            continue; // an example that needs words around it (a position, a size)
        }
        let actual = play(&[line.to_string()]);
        assert!(
            actual.len() == 1 && line_matches(reply, &actual[0]),
            "protocol.md error table: '{line}' answers {actual:?}, the table says '{reply}'"
        );
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} rows of the error table checked"
    );
}

/// The text of the first `code span` in a table cell.
fn code_span(cell: &str) -> Option<&str> {
    let start = cell.find('`')? + 1;
    let end = start + cell[start..].find('`')?;
    Some(&cell[start..end])
}

/// The README's two commands, and `.ci/run` running the second.
fn readme_commands() -> (String, String) {
    let readme = read("README.md");
    let section = readme
        .split("## Two commands")
        .nth(1)
        .expect("README has a 'Two commands' section");
    let block = &code_blocks(section)[0];
    let commands: Vec<String> = block
        .lines
        .iter()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(commands.len(), 2, "two commands: {commands:?}");
    (commands[0].clone(), commands[1].clone())
}

#[test]
fn ci_runs_the_readme_test_command() {
    let (_, test) = readme_commands();
    let ci = read(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == test),
        ".ci/run must run the README's test command '{test}'"
    );
}

/// The README's first command starts the daemon: it is `cargo run --release`, the manifest's
/// `default-run` names the `mancala-engine` binary (so cargo knows which one to run), and that
/// binary, as this test run built it, answers the README's session on mangala-ii. (Running the
/// command itself would build the release profile inside the suite, a minute of it.)
#[test]
fn the_readme_first_command_starts_the_daemon() {
    let (run, _) = readme_commands();
    let words: Vec<&str> = run.split_whitespace().collect();
    assert_eq!(words[..3], ["cargo", "run", "--release"], "{run}");
    assert!(
        !words[3..].iter().any(|w| *w == "--bin" || *w == "-p"),
        "{run}: the first command runs the default binary"
    );
    let manifest = read("Cargo.toml");
    assert!(
        manifest
            .lines()
            .any(|line| line.replace(' ', "") == "default-run=\"mancala-engine\""),
        "Cargo.toml names no default-run = \"mancala-engine\""
    );
    let output = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .args(&words[3..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"query fen\nvariant\nquit\n")?;
            child.wait_with_output()
        })
        .expect("the engine runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "'{run}' failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.starts_with("response 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S\n")
            && stdout.contains("mangala-ii Mangala II (Ottoman) 2x6 72 counters (current)"),
        "'{run}' did not start the daemon on mangala-ii: {stdout}"
    );
}

/// Every relative link of every Markdown file in the repository points at a file in it.
#[test]
fn no_link_leaves_the_repository() {
    let mut files = Vec::new();
    collect_markdown(&root(), &mut files);
    assert!(files.len() >= 4, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for target in link_targets(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            if target.starts_with('#') {
                continue;
            }
            let path = target.split('#').next().unwrap();
            let resolved = file.parent().unwrap().join(path);
            let inside = resolved
                .canonicalize()
                .is_ok_and(|p| p.starts_with(root().canonicalize().unwrap()));
            assert!(
                inside,
                "{}: the link '{target}' does not point at a file of the repository",
                file.display()
            );
        }
        assert!(
            !text.contains("shared/spec") && !text.contains("../shared"),
            "{}: mentions the shared folder, which a clone does not have",
            file.display()
        );
    }
}

fn collect_markdown(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                collect_markdown(&path, files);
            }
        } else if name.ends_with(".md") {
            files.push(path);
        }
    }
}

/// The targets of the Markdown links `[text](target)` in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        if let Some(end) = after.find(')') {
            targets.push(after[..end].trim().to_string());
        }
        rest = after;
    }
    targets
}

/// `document` holds `table` (made by the code that the table documents) exactly.
fn holds_table(document: &str, what: &str, table: &str) -> String {
    let text = read(document);
    assert!(
        text.contains(table),
        "{document}'s table of {what} must read, exactly:\n{table}"
    );
    text
}

/// protocol.md's table of options is the one the option registry makes (every option, its
/// values and default, what it does), so that the two cannot drift apart.
#[test]
fn protocol_md_lists_the_options_of_the_registry() {
    let table = mancala_engine::engine::options::markdown_table();
    holds_table("protocol.md", "options", &table);
}

/// protocol.md's table of commands is the one the protocol crate's `COMMANDS` makes (the table
/// that also drives the parser, the engine's dispatch and `help`).
#[test]
fn protocol_md_lists_the_commands_of_the_table() {
    holds_table(
        "protocol.md",
        "commands",
        &mancala_protocol::markdown_table(),
    );
}

/// RULES.md's table of a game file's fields is the one the rules library makes (every field,
/// its values and default, the rule), and every built-in game's file reads back as its game.
#[test]
fn rules_md_lists_the_fields_of_a_game_file() {
    let rules = holds_table(
        "RULES.md",
        "game file fields",
        &mancala_rules::definition::fields_table(),
    );
    // The example file of that section is a game.
    let example = rules
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("RULES.md has a game file example");
    mancala_rules::definition::parse(example).expect("RULES.md's example game file");
}

/// `help` lists every command protocol.md documents (its `###` headings and the rows of its
/// query table) and every option of the registry.
#[test]
fn help_names_every_documented_command_and_every_option() {
    let mut engine = Daemon::start();
    engine.send("help");
    engine.send("isready");
    let help = engine.until("readyok", Duration::from_secs(10)).join("\n");
    engine.quit();
    let protocol = read("protocol.md");
    let mut words: Vec<String> = Vec::new();
    for line in protocol.lines() {
        // `### `cmd …`, `cmd2 …``: each command of a heading.
        if let Some(heading) = line.strip_prefix("### `") {
            for part in heading.split("`, `").flat_map(|p| p.split("` / `")) {
                if let Some(word) = part.trim_matches('`').split_whitespace().next() {
                    words.push(word.trim_matches('`').to_string());
                }
            }
        }
        // `| `query fen` | …`: each query.
        if let Some(row) = line.strip_prefix("| `query ")
            && let Some(what) = row
                .split('`')
                .next()
                .and_then(|q| q.split_whitespace().next())
        {
            words.push(what.to_string());
        }
    }
    words.sort();
    words.dedup();
    assert!(words.len() >= 20, "{words:?}");
    for word in &words {
        assert!(
            help.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == word),
            "help does not name '{word}':\n{help}"
        );
    }
    for option in &mancala_engine::engine::options::OPTIONS {
        assert!(
            help.contains(option.name),
            "help does not name the option {}",
            option.name
        );
    }
}
