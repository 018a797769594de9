//! The table of commands: one row per command, read by the parser (which row's grammar a line's
//! first word picks), by the engine (what a command does to a running job), by `help` and by
//! protocol.md's table of commands (a test compares them).

use crate::parse::{self, ArgumentsParser};

/// What a command does while a job (a search, a perft, the bench) runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuringJob {
    /// Waits until the job has ended, then runs in order.
    Waits,
    /// Answered at once during a search nobody has stopped (UCI requires it of `isready`);
    /// during a perft or the bench it waits like the rest.
    AnsweredDuringSearch,
    /// Acts on the running job at once.
    Interrupts,
}

/// One command of the protocol.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// The first word (any case).
    pub name: &'static str,
    /// Other first words for the same command (`ugi` for `uci`).
    pub aliases: &'static [&'static str],
    /// Its form, as `help` shows it.
    pub synopsis: &'static str,
    /// What it does, in a line.
    pub summary: &'static str,
    pub during_job: DuringJob,
    /// The grammar of its arguments.
    pub(crate) parse: ArgumentsParser,
}

impl CommandSpec {
    /// Whether `word` (any case) names this command.
    pub fn is_named(&self, word: &str) -> bool {
        self.name.eq_ignore_ascii_case(word)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
    }

    pub fn interrupts_job(&self) -> bool {
        self.during_job == DuringJob::Interrupts
    }

    pub fn answers_during_search(&self) -> bool {
        self.during_job == DuringJob::AnsweredDuringSearch
    }
}

use DuringJob::{AnsweredDuringSearch, Interrupts, Waits};

/// Every command, in the order `help` and protocol.md list them.
pub static COMMANDS: [CommandSpec; 18] = [
    CommandSpec {
        name: "uci",
        aliases: &["ugi"],
        synopsis: "uci | ugi",
        summary: "identify, list the options, end with uciok / ugiok",
        during_job: Waits,
        parse: parse::handshake,
    },
    CommandSpec {
        name: "isready",
        aliases: &[],
        synopsis: "isready",
        summary: "answer readyok",
        during_job: AnsweredDuringSearch,
        parse: parse::is_ready,
    },
    CommandSpec {
        name: "setoption",
        aliases: &[],
        synopsis: "setoption name <n> [value <v>]",
        summary: "set an option (`help` lists them)",
        during_job: Waits,
        parse: parse::setoption,
    },
    CommandSpec {
        name: "ucinewgame",
        aliases: &["uginewgame"],
        synopsis: "ucinewgame | uginewgame",
        summary: "forget what was learned (clears the hash table)",
        during_job: Waits,
        parse: parse::new_game,
    },
    CommandSpec {
        name: "variant",
        aliases: &[],
        synopsis: "variant [<name>]",
        summary: "list the games, or switch game (resets the game)",
        during_job: Waits,
        parse: parse::variant,
    },
    CommandSpec {
        name: "position",
        aliases: &[],
        synopsis: "position startpos | fen <string> | random <seed> [moves <m>...]",
        summary: "set the start position, a position string (e.g. 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S) \
                  or the random deal of a seed (games without a choice of move or dealt at random), then play the moves",
        during_job: Waits,
        parse: parse::position,
    },
    CommandSpec {
        name: "move",
        aliases: &[],
        synopsis: "move <m>...",
        summary: "play moves on the current game",
        during_job: Waits,
        parse: parse::moves,
    },
    CommandSpec {
        name: "undo",
        aliases: &[],
        synopsis: "undo [<n>]",
        summary: "take back the last n moves (default 1)",
        during_job: Waits,
        parse: parse::undo,
    },
    CommandSpec {
        name: "query",
        aliases: &[],
        synopsis: "query fen | moves | gameover | p1turn | result | score | side | tb | round | \
                   sowing <m>",
        summary: "one 'response ...' line; side: Mangala IV's side choice, tb: the solved value \
                  from the loaded tablebases, round: a match of rounds' count and starter, \
                  sowing: a move told step by step",
        during_job: AnsweredDuringSearch,
        parse: parse::query,
    },
    CommandSpec {
        name: "go",
        aliases: &[],
        synopsis: "go [depth n] [nodes n] [movetime ms] [infinite] [ponder] [p1time ms] \
                   [p2time ms] [p1inc ms] [p2inc ms] [movestogo n]",
        summary: "search: info lines, then one bestmove",
        during_job: Waits,
        parse: parse::go,
    },
    CommandSpec {
        name: "stop",
        aliases: &[],
        synopsis: "stop",
        summary: "end the search, perft or bench now",
        during_job: Interrupts,
        parse: parse::stop,
    },
    CommandSpec {
        name: "ponderhit",
        aliases: &[],
        synopsis: "ponderhit",
        summary: "the pondered move was played: the ponder search goes on under the clock",
        during_job: Interrupts,
        parse: parse::ponder_hit,
    },
    CommandSpec {
        name: "perft",
        aliases: &[],
        synopsis: "perft <depth> | go perft <depth>",
        summary: "count leaf nodes, split by first move",
        during_job: Waits,
        parse: parse::perft,
    },
    CommandSpec {
        name: "eval",
        aliases: &[],
        synopsis: "eval",
        summary: "the static evaluation and its parts",
        during_job: Waits,
        parse: parse::eval,
    },
    CommandSpec {
        name: "bench",
        aliases: &[],
        synopsis: "bench",
        summary: "fixed search; ends with Nodes searched / Nodes/second",
        during_job: Waits,
        parse: parse::bench,
    },
    CommandSpec {
        name: "d",
        aliases: &[],
        synopsis: "d",
        summary: "show the board",
        during_job: Waits,
        parse: parse::display,
    },
    CommandSpec {
        name: "help",
        aliases: &[],
        synopsis: "help",
        summary: "the commands and the options",
        during_job: Waits,
        parse: parse::help,
    },
    CommandSpec {
        name: "quit",
        aliases: &[],
        synopsis: "quit",
        summary: "exit (end of input does the same)",
        during_job: Interrupts,
        parse: parse::quit,
    },
];

/// The row of the command whose first word is `word` (any case).
pub fn find(word: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| spec.is_named(word))
}

/// The commands as `help` lists them: the synopsis, and the summary beside it or, for a long
/// synopsis, below it.
pub fn help_lines() -> Vec<String> {
    const COLUMN: usize = 34;
    let mut lines = Vec::new();
    for spec in &COMMANDS {
        let summary = spec.summary.replace('`', "");
        // A summary starts at COLUMN, after at least one blank.
        if spec.synopsis.len() + 2 < COLUMN {
            lines.push(format!(
                "  {:<width$}{summary}",
                spec.synopsis,
                width = COLUMN - 2
            ));
        } else {
            lines.push(format!("  {}", spec.synopsis));
            lines.push(format!("{:<COLUMN$}{summary}", ""));
        }
    }
    lines
}

/// protocol.md's table of commands, as this table makes it (a test of the engine's documents
/// compares them).
pub fn markdown_table() -> String {
    let mut table = String::from("| command | what it does | while a job runs |\n|---|---|---|\n");
    for spec in &COMMANDS {
        let during = match spec.during_job {
            Waits => "waits for its end",
            AnsweredDuringSearch => "answered at once during a search",
            Interrupts => "acts at once",
        };
        // A `|` inside a cell is written `\|` (GitHub's tables).
        table += &format!(
            "| `{}` | {} | {during} |\n",
            spec.synopsis.replace('|', "\\|"),
            spec.summary
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut words: Vec<&str> = COMMANDS
            .iter()
            .flat_map(|spec| std::iter::once(spec.name).chain(spec.aliases.iter().copied()))
            .collect();
        let count = words.len();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), count, "a word names two commands");
    }

    #[test]
    fn help_shows_each_synopsis_and_its_summary_apart() {
        let help = help_lines().join("\n");
        for spec in &COMMANDS {
            let summary = spec.summary.replace('`', "");
            let shown = [
                format!("  {} ", spec.synopsis),
                format!("  {}\n", spec.synopsis),
            ];
            assert!(
                shown.iter().any(|s| help.contains(s.as_str())),
                "{}",
                spec.name
            );
            assert!(help.contains(&format!(" {summary}")), "{}", spec.name);
        }
    }

    #[test]
    fn only_stop_ponderhit_and_quit_interrupt() {
        let interrupting: Vec<&str> = COMMANDS
            .iter()
            .filter(|s| s.interrupts_job())
            .map(|s| s.name)
            .collect();
        assert_eq!(interrupting, ["stop", "ponderhit", "quit"]);
    }
}
