//! A run's journal: one line per finished game, appended and flushed as each game ends, so that
//! a run stopped by a signal (a batch system's time limit, a pod's eviction) goes on where it
//! stopped when the same command runs again. Its first line names the run; a journal of another
//! run is refused.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::runner::PlayedGame;
use super::summary::Run;

const HEADER: &str = "# mancala-match journal of the run ";

/// An open journal, appended to.
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens the journal at `path` for the run `run`: the games it holds already (none if it is
    /// new or empty), and the journal to append the next ones to. A last line cut short (the
    /// process killed while writing it) is dropped: its game is played again.
    pub fn open(path: &Path, run: &Run) -> Result<(Journal, Vec<PlayedGame>), String> {
        let header = format!(
            "{HEADER}{}",
            serde_json::to_string(run).map_err(|e| e.to_string())?
        );
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let mut played = Vec::new();
        let mut whole = String::new();
        if !text.is_empty() {
            let mut lines = text.split_inclusive('\n');
            let first = lines.next().unwrap_or_default();
            if first.trim_end() != header {
                return Err(format!(
                    "{} is the journal of another run (engines, game, limits, games, openings, \
                     seed or shard differ) or not a journal: remove it, or give another file",
                    path.display()
                ));
            }
            whole.push_str(first);
            for line in lines.filter(|l| l.ends_with('\n')) {
                let Some(game) = PlayedGame::from_line(line.trim_end()) else {
                    return Err(format!(
                        "{}: '{}' is not a game of a journal",
                        path.display(),
                        line.trim_end()
                    ));
                };
                if played.iter().any(|g: &PlayedGame| g.number == game.number) {
                    return Err(format!(
                        "{}: game {} is in it twice",
                        path.display(),
                        game.number
                    ));
                }
                whole.push_str(line);
                played.push(game);
            }
        } else {
            whole = format!("{header}\n");
        }
        // Rewritten whole (a cut last line dropped), then appended to.
        std::fs::write(path, &whole)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            played,
        ))
    }

    /// Appends a finished game, flushed to the file at once.
    pub fn append(&mut self, game: &PlayedGame) -> Result<(), String> {
        writeln!(self.file, "{}", game.to_line())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_reads_back_as_itself() {
        let game = PlayedGame {
            number: 17,
            pairing: 2,
            pair: 8,
            first_points: 0.5,
            offender: Some(1),
            kind: "illegal move".into(),
        };
        assert_eq!(PlayedGame::from_line(&game.to_line()), Some(game));
        assert_eq!(PlayedGame::from_line("1 0 0 0.7 - board empty"), None);
        assert_eq!(PlayedGame::from_line("1 0 0 1"), None);
    }
}
