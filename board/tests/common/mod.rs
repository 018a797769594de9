//! The board server as the tests run it (on a free port, with the engine built beside it), and
//! headless Chromium.
#![allow(dead_code)]

pub mod chromium;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct BoardServer {
    child: Child,
    pub port: u16,
}

/// The engine binary of the workspace, built (with the profile of this test run) if it is not
/// there yet.
pub fn engine_path() -> PathBuf {
    let board = PathBuf::from(env!("CARGO_BIN_EXE_mancala-board"));
    let engine = board.with_file_name(format!("mancala-engine{}", std::env::consts::EXE_SUFFIX));
    if !engine.exists() {
        // The binaries of a profile live in target/<profile>/, except the dev profile's (debug).
        let profile = match board.parent().and_then(|dir| dir.file_name()) {
            Some(name) if name != "debug" => name.to_string_lossy().into_owned(),
            _ => "dev".to_string(),
        };
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--profile",
                &profile,
                "-p",
                "mancala",
                "--bin",
                "mancala-engine",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(status.success());
    }
    engine
}

/// The live (not yet reaped) child processes of `parent`: the engines a board server started.
pub fn engine_children(parent: u32) -> Vec<u32> {
    let mut children = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …: the command may hold spaces, so read after its ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 1 && fields[1] == parent.to_string() && fields[0] != "Z" {
            children.push(pid);
        }
    }
    children.sort();
    children
}

impl BoardServer {
    /// Starts `mancala-board --port 0` with `args`, and reads the port it chose.
    pub fn start(args: &[&str]) -> BoardServer {
        Self::start_with(args, &[])
    }

    pub fn start_with(args: &[&str], env: &[(&str, &str)]) -> BoardServer {
        let engine = engine_path();
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala-board"));
        command.args(["--port", "0"]);
        if !args.contains(&"--engine") {
            command.arg("--engine").arg(&engine);
        }
        command
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("mancala-board starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in '{line}'"));
        BoardServer { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for BoardServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
