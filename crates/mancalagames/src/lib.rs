//! MancalaGames' game files (`GameProps/*.txt` of StoneShark/MancalaGames: a JSON object
//! followed by its help text) translated into game files of this engine (RULES.md, "Games as
//! data"), for the parameters the engine has; any other parameter refuses the file with its name
//! and value. [`import`] registers each game translated and plays random games of it to their
//! end before writing it, so that a file written is one the engine plays. `mancala-engine
//! import-mancalagames` is its command line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mancala_rules::{
    Game, LastFourRule, MAX_COUNTERS, MAX_ROW, Position, SplitMix64, Variant, definition,
};
use serde_json::Value;

/// What became of one file.
pub enum Outcome {
    /// Written to this path, after its random games were played to their end.
    Written(PathBuf),
    /// The same rules as this built-in (or already loaded) game: not written.
    SameAs(Variant),
    /// A game of the same name as this one, with other rules (in these fields): written under
    /// the name with `-mancalagames` added.
    Renamed(PathBuf, Variant, String),
}

/// Why a file is not translated: the parameter that stops it, and why.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub parameter: String,
    pub why: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let joint = if self.why.starts_with('=') || self.why.starts_with("with ") {
            " "
        } else {
            ": "
        };
        write!(f, "{}{joint}{}", self.parameter, self.why)
    }
}

pub fn refuse(parameter: &str, why: impl Into<String>) -> Refusal {
    Refusal {
        parameter: parameter.to_string(),
        why: why.into(),
    }
}

/// Translates one file's text, registers the game, plays `games` random games and writes it.
pub fn import(text: &str, out: &Path, games: u32, played: &mut u64) -> Result<Outcome, Refusal> {
    let game_file = translate_naming_every_blocker(text)?;
    let rules = definition::parse(&game_file.text).map_err(|e| refuse(&e.field, e.why))?;
    if let Ok(existing) = rules.name.parse::<Variant>() {
        let mut same = rules;
        same.name = existing.rules().name;
        same.title = existing.rules().title;
        if &same == existing.rules() {
            return Ok(Outcome::SameAs(existing));
        }
        let differing = differing_fields(&definition::write(existing.rules()), &game_file.text);
        let renamed = format!(
            "{}-mancalagames",
            &rules.name[..rules.name.len().min(32 - "-mancalagames".len())]
        );
        let text = game_file.text.replacen(
            &format!("name = \"{}\"", rules.name),
            &format!("name = \"{renamed}\""),
            1,
        );
        return write_game(&text, out, games, played)
            .map(|path| Outcome::Renamed(path, existing, differing));
    }
    write_game(&game_file.text, out, games, played).map(Outcome::Written)
}

/// Registers the game of `text`, plays `games` random games of it and writes it into `out`.
fn write_game(text: &str, out: &Path, games: u32, played: &mut u64) -> Result<PathBuf, Refusal> {
    let variant = definition::register(text).map_err(|e| refuse(&e.field, e.why))?;
    let mut random = SplitMix64::new(0x6d61_6e63_616c_6167);
    for _ in 0..games {
        play_to_the_end(variant, &mut random).map_err(|why| refuse("play", why))?;
        *played += 1;
    }
    let path = out.join(format!("{}.toml", variant.name()));
    std::fs::write(&path, text)
        .map_err(|e| refuse("file", format!("{} cannot be written: {e}", path.display())))?;
    Ok(path)
}

/// The fields whose lines differ between two game files' canonical texts (name and title aside).
fn differing_fields(ours: &str, theirs: &str) -> String {
    let lines = |text: &str| -> BTreeMap<String, String> {
        definition::parse(text)
            .map(|rules| definition::write(&rules))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.split_once(" = "))
            .filter(|(key, _)| !matches!(*key, "name" | "title"))
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()
    };
    let (ours, theirs) = (lines(ours), lines(theirs));
    let keys: Vec<&String> = ours
        .keys()
        .chain(theirs.keys())
        .filter(|key| ours.get(*key) != theirs.get(*key))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    keys.iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays random moves from the start to the end of the game (which the history rules guarantee).
fn play_to_the_end(variant: Variant, random: &mut SplitMix64) -> Result<(), String> {
    let mut game = Game::new(Position::start(variant), LastFourRule::default());
    // The no-progress rule ends any game within far fewer moves than this.
    for _ in 0..100_000 {
        if game.is_over() {
            let [south, north] = game.score();
            let total = variant.rules().total();
            return if south + north <= total {
                Ok(())
            } else {
                Err(format!(
                    "a game ended with {south}+{north} of {total} counters"
                ))
            };
        }
        let moves = game.legal_moves();
        let mv = moves.as_slice()[(random.next_u64() % moves.len() as u64) as usize];
        game.play(mv)
            .map_err(|e| format!("a legal move was refused: {e}"))?;
    }
    Err("a random game did not end in 100000 moves".into())
}

/// A translated game file: its text (this engine's format).
#[derive(Debug)]
pub struct GameFile {
    pub text: String,
}

/// MancalaGames' parameters that the translation reads (the others must keep their defaults).
const READ: &[&str] = &[
    "name",
    "sow_direct",
    "stores",
    "sow_stores",
    "skip_start",
    "capt_on",
    "evens",
    "capt_min",
    "capt_max",
    "capt_side",
    "crosscapt",
    "xcpickown",
    "multicapt",
    "capt_dir",
    "grandslam",
    "mustshare",
    "mustpass",
    "unclaimed",
    "mlaps",
    "min_move",
    "mlap_cont",
    "mlap_param",
    "allow_rule",
    "sow_rule",
    "presowcapt",
    "rounds",
    "blocks",
    "round_fill",
    "round_starter",
    "capt_type",
    "pickextra",
    "capt_rturn",
    "start_pattern",
    "goal",
    "end_cond",
    "nosinglecapt",
    "no_sides",
    "udir_holes",
    "child_type",
    "child_cvt",
    "child_rule",
    "child_locs",
    "nocaptmoves",
    "prescribed",
    "sow_start",
    "move_one",
];

/// Parameters with no bearing on the rules of play: descriptions, what conceding gives.
const IGNORED: &[&str] = &["about", "help_file", "quitter"];

/// Parameters that only mean something with another one set (which refuses the file if set):
/// the parameter, and the one it depends on.
const DEPENDENT: &[(&str, &str)] = &[
    ("goal_param", "goal"),
    ("end_param", "end_cond"),
    ("sow_param", "sow_rule"),
    ("mlap_param", "mlap_cont"),
    ("xc_sown", "crosscapt"),
];

/// What the rules the engine does not have are, by parameter (for the refusal's message).
const NOT_HAD: &[(&str, &str)] = &[
    ("moveunlock", "locked pits"),
    ("play_locs", "moves from the stores"),
    ("goal_param", "the goal's parameter"),
    ("end_param", "the end condition's parameter"),
    ("sow_param", "the sowing rule's parameter"),
    (
        "xc_sown",
        "a cross capture only after sowing the opponent's row",
    ),
];

/// Whether `value` is MancalaGames' default for `key` (false, 0, empty or absent; 1 for
/// `min_move`).
fn is_default(key: &str, value: &Value) -> bool {
    match key {
        "min_move" => value.as_i64() == Some(1),
        _ => match value {
            Value::Null => true,
            Value::Bool(b) => !b,
            Value::Number(n) => n.as_f64() == Some(0.0),
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
        },
    }
}

/// An integer parameter (MancalaGames writes some flags as `true`/`false`, some as 0/1).
fn int(info: &serde_json::Map<String, Value>, key: &str, default: i64) -> Result<i64, Refusal> {
    match info.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b as i64),
        Some(Value::Number(n)) => n
            .as_i64()
            .ok_or_else(|| refuse(key, format!("= {n}: not a whole number"))),
        Some(other) => Err(refuse(key, format!("= {other}: not a number"))),
    }
}

fn flag(info: &serde_json::Map<String, Value>, key: &str) -> Result<bool, Refusal> {
    Ok(int(info, key, 0)? != 0)
}

/// MancalaGames' places for children (`child_locs`) as this engine's: the places of a row
/// (1 for its owner's leftmost) where nobody makes a child, and the pit of the other row that
/// must not be a child (`child-apart`). MancalaGames splits each row into five parts (its two
/// end pits on each side and the middle) and says who may make a child in each; the engine
/// bars a place for both players in both rows, so a pattern that bars a pit for one player
/// only where the other could make one (by `side`), or other places in the two rows, is
/// refused.
fn child_places(
    locs: i64,
    holes: usize,
    side: &str,
    territory: bool,
) -> Result<(Vec<usize>, &'static str), Refusal> {
    // Who may make a child in each part: South (MancalaGames' False), North (True), both or
    // nobody; North's row as seen from South (its parts from the board's left), then South's.
    const B: (bool, bool) = (true, true);
    const S: (bool, bool) = (true, false);
    const N: (bool, bool) = (false, true);
    const X: (bool, bool) = (false, false);
    let (pattern, apart): ([[(bool, bool); 5]; 2], &str) = match locs {
        0 => return Ok((Vec::new(), "anywhere")),
        1 => ([[B, X, X, X, B], [B, X, X, X, B]], "anywhere"),
        2 => ([[X, B, B, B, X], [X, B, B, B, X]], "anywhere"),
        3 => ([[S, N, N, N, S], [N, S, S, S, N]], "anywhere"),
        4 => ([[B, S, X, S, B], [B, N, X, N, B]], "anywhere"),
        5 => ([[S, B, B, B, B], [B, B, B, B, N]], "anywhere"),
        6 => ([[B, B, B, B, N], [S, B, B, B, B]], "anywhere"),
        7 => ([[N, B, B, B, B], [B, B, B, B, S]], "anywhere"),
        8 => ([[N, B, B, B, B], [B, B, B, B, S]], "same-letter"),
        9 => ([[B, B, B, B, N], [S, B, B, B, B]], "facing"),
        10 => ([[B, S, S, S, B], [B, N, N, N, B]], "anywhere"),
        other => {
            return Err(refuse(
                "child_locs",
                format!(
                    "= {other}: {}",
                    if other == 11 {
                        "children in a fixed pit are not a rule the engine has"
                    } else {
                        "not a place for children MancalaGames has"
                    }
                ),
            ));
        }
    };
    if territory {
        return Err(refuse(
            "child_locs",
            "in a match for territory: places for children by row are not a rule the engine has \
             with pits that change hands",
        ));
    }
    // The part of each place in a row, from its owner's left (short rows take some parts).
    let parts: Vec<usize> = match holes {
        2 => vec![0, 4],
        3 => vec![0, 2, 4],
        4 => vec![0, 1, 3, 4],
        _ => [0, 1]
            .into_iter()
            .chain(std::iter::repeat_n(2, holes.saturating_sub(4)))
            .chain([3, 4])
            .collect(),
    };
    // Who may make a child at `place` of `row` (0 South, 1 North), by the pattern and `side`.
    let may = |row: usize, place: usize| {
        let (south, north) = if row == 0 {
            pattern[1][parts[place]]
        } else {
            // North's row from its own left is the pattern's first row from the right.
            pattern[0][4 - parts[place]]
        };
        let by_side = |player: usize| match side {
            "opponent" => player != row,
            "own" => player == row,
            _ => true,
        };
        (
            south && by_side(0),
            north && by_side(1),
            by_side(0),
            by_side(1),
        )
    };
    let mut barred = Vec::new();
    for place in 0..holes {
        let mut barred_in = [false; 2];
        for (row, barred_in) in barred_in.iter_mut().enumerate() {
            let (south, north, south_side, north_side) = may(row, place);
            *barred_in = !(south || north);
            // Barring the place must leave each player who could make a child there by `side`
            // as the pattern says.
            if (south_side && south == *barred_in) || (north_side && north == *barred_in) {
                return Err(refuse(
                    "child_locs",
                    format!(
                        "= {locs}: a place barred to children for one player only is not a \
                         rule the engine has"
                    ),
                ));
            }
        }
        if barred_in[0] != barred_in[1] {
            return Err(refuse(
                "child_locs",
                format!(
                    "= {locs}: places barred to children that differ from row to row are not a \
                     rule the engine has"
                ),
            ));
        }
        if barred_in[0] {
            barred.push(place + 1);
        }
    }
    Ok((barred, apart))
}

/// The game name of this engine for MancalaGames' `name`: lower-case letters, digits and `-`.
fn game_name(title: &str) -> String {
    let mut name = String::new();
    for c in title.chars().flat_map(char::to_lowercase).map(unaccented) {
        if c.is_ascii_alphanumeric() {
            name.push(c);
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    name.trim_end_matches('-')
        .chars()
        .take(32)
        .collect::<String>()
}

/// The letter without its accent, for the accented Latin letters of the catalogue's names
/// (`Dépouiller`, `Sàn Yáo`, `Sokusowó`); any other character as it is.
fn unaccented(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        'ñ' => 'n',
        'ç' => 'c',
        other => other,
    }
}

/// Pits that close (`sow_rule` 1, or 2 sparing each row's right-hand pit): a relay lap ending
/// in an opponent's pit that then holds `sow_param` counters closes it, and the counters sown
/// into the opponent's closed pits leave the game (MancalaGames puts them in South's store; the
/// files that have the rule capture nothing, so nothing else is there).
fn close_pits(
    info: &serde_json::Map<String, Value>,
    sow_rule: i64,
    mlaps: i64,
    eliminates: bool,
    total: i64,
    lines: &mut Vec<String>,
) -> Result<(), Refusal> {
    let why = if mlaps != 1 {
        Some(
            "without multi-lap sowing from the landing pit (mlaps 1): a pit closed at the end \
              of a move, its counters out of the game, is not a rule the engine has",
        )
    } else if !flag(info, "blocks")? {
        Some("without blocks: MancalaGames needs them to close pits")
    } else if int(info, "rounds", 0)? != 0 {
        Some("with rounds: pits that close in a match of rounds are not a rule the engine has")
    } else if !eliminates {
        Some("without a goal to deprive or immobilize: MancalaGames needs one to close pits")
    } else if flag(info, "sow_stores")? || flag(info, "skip_start")? {
        Some("with sow_stores or skip_start: MancalaGames' sowing past closed pits has neither")
    } else if int(info, "child_type", 0)? != 0 {
        Some("with children: pits that close beside children are not a rule the engine has")
    } else {
        None
    };
    if let Some(why) = why {
        return Err(refuse("sow_rule", format!("= {sow_rule} {why}")));
    }
    let at = int(info, "sow_param", 0)?;
    if !(2..=total.min(MAX_COUNTERS as i64)).contains(&at) {
        return Err(refuse(
            "sow_param",
            format!("= {at}: pits close at 2 counters or more (a lap that leaves one ends)"),
        ));
    }
    lines.push(format!("closes-pits-at = {at}"));
    if sow_rule == 2 {
        lines.push("closing-spares-right-pits = true".into());
    }
    Ok(())
}

/// [`translate`], and where it refuses, every parameter that stops the file, not only the first:
/// each parameter a refusal names is set back to its default and the file tried again, until it
/// translates or a refusal names no parameter of `game_info` (the class, the board, the name).
/// The refusals are joined in the order met: their parameters with `, `, their reasons with `; `.
pub fn translate_naming_every_blocker(text: &str) -> Result<GameFile, Refusal> {
    let first = match translate(text) {
        Ok(game) => return Ok(game),
        Err(refusal) => refusal,
    };
    let Some(mut json) = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()
        .and_then(Result::ok)
    else {
        return Err(first);
    };
    let mut refusals = vec![first];
    // Each round sets at least one parameter back, and there are fewer than a hundred.
    for _ in 0..100 {
        let last = refusals.last().expect("one refusal at least");
        let Some(info) = json.get_mut("game_info").and_then(Value::as_object_mut) else {
            break;
        };
        let named: Vec<String> = last
            .parameter
            .split(", ")
            .filter(|key| info.contains_key(*key))
            .map(str::to_string)
            .collect();
        if named.is_empty() {
            break;
        }
        for key in &named {
            info.remove(key);
        }
        match translate(&json.to_string()) {
            // A parameter whose default refuses the file as its value did is named once.
            Err(refusal) if !refusals.contains(&refusal) => refusals.push(refusal),
            _ => break,
        }
    }
    if refusals.len() == 1 {
        return Err(refusals.remove(0));
    }
    Err(Refusal {
        parameter: refusals
            .iter()
            .map(|r| r.parameter.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        why: refusals
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// The game file's `capture-side` of MancalaGames' `capt_side`.
/// The start of MancalaGames' fill pattern `pattern` (1 to 5, 7) of `holes` pits a row and
/// `seeds` a pit, South moving first, in pit-number order (its own board order).
fn start_pattern(pattern: i64, holes: i64, seeds: i64) -> Result<Vec<i64>, Refusal> {
    let n = holes as usize;
    let mut board = vec![0i64; 2 * n];
    let too_small = |least: usize, what: &str| {
        Err(refuse(
            "start_pattern",
            format!("= {pattern}: {what} needs at least {least} pits a row"),
        ))
    };
    // North's row given as South's: the board turned round.
    let turned = |board: &[i64]| [&board[n..], &board[..n]].concat();
    match pattern {
        // Gamacha's: counters in every other pit from the third, and one pit's moved across.
        1 => {
            if n < 3 {
                return too_small(3, "Gamacha's pattern");
            }
            for loc in (2..2 * n).step_by(2) {
                board[loc] = seeds;
            }
            let dest = 1 + 2 * ((n - 1) / 4);
            let source = 2 * n - dest - 1;
            board[dest] = board[source];
            board[source] = 0;
        }
        // Alternating empty and full pits from the first (an odd row: the starter gets fewer).
        2 => {
            for loc in (1..2 * n).step_by(2) {
                board[loc] = seeds;
            }
        }
        // The same, one pit of the opponent's cut to a single counter (and, with an even row,
        // one of the starter's emptied).
        3 => {
            if n < 3 {
                return too_small(3, "alternating counts with one");
            }
            for loc in (1..2 * n).step_by(2) {
                board[loc] = seeds;
            }
            board[n + 3 - n % 2] = 1;
            if n.is_multiple_of(2) {
                board[n - 3] = 0;
            }
        }
        // Repeating empty, full, full; North's row the same as South's.
        4 => {
            if n < 3 {
                return too_small(3, "clipped triples");
            }
            for loc in (3..=n).step_by(3) {
                board[loc - 1] = seeds;
                board[loc - 2] = seeds;
            }
            let south = board[..n].to_vec();
            board[n..].copy_from_slice(&south);
        }
        // Full pits but the last two of each row.
        5 => {
            if n < 4 {
                return too_small(4, "two empty pits");
            }
            for loc in 0..n - 2 {
                board[loc] = seeds;
                board[n + loc] = seeds;
            }
        }
        // Every pit full, and one more in each row's rightmost pit.
        8 => {
            board.fill(seeds);
            board[n - 1] += 1;
            board[2 * n - 1] += 1;
        }
        // Alternating, then a quarter of a pit's counters moved across, the board turned round.
        _ => {
            if !n.is_multiple_of(2) {
                return Err(refuse(
                    "start_pattern",
                    "= 7: alternating counts then split needs an even row",
                ));
            }
            for loc in (1..2 * n).step_by(2) {
                board[loc] = seeds;
            }
            board[n] += seeds / 4;
            board[n - 1] -= seeds / 4;
            board = turned(&board);
        }
    }
    let total: i64 = board.iter().sum();
    if !(1..=MAX_COUNTERS as i64).contains(&total) {
        return Err(refuse(
            "start_pattern",
            format!("= {pattern}: {total} counters is not from 1 to {MAX_COUNTERS}"),
        ));
    }
    Ok(board)
}

fn capture_side(side: i64) -> Result<&'static str, Refusal> {
    match side {
        0 => Ok("any"),
        1 => Ok("opponent"),
        2 => Ok("own"),
        other => Err(refuse(
            "capt_side",
            format!(
                "= {other}: a capture side other than both, the opponent's or one's own is not a \
                 rule the engine has"
            ),
        )),
    }
}

/// Translates the text of one MancalaGames file into a game file of this engine.
pub fn translate(text: &str) -> Result<GameFile, Refusal> {
    let json: Value = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()
        .ok_or_else(|| refuse("file", "holds no JSON object"))?
        .map_err(|e| refuse("file", format!("is not MancalaGames' JSON: {e}")))?;
    let class = json
        .get("game_class")
        .and_then(Value::as_str)
        .unwrap_or("Mancala");
    // NorthSouthCycle: each player sows round their own row only.
    let own_row_ring = class == "NorthSouthCycle";
    if class != "Mancala" && !own_row_ring {
        return Err(refuse(
            "game_class",
            format!(
                "= {class}: only the classes Mancala (one ring of two rows) and NorthSouthCycle \
                 (a ring of each row) are read"
            ),
        ));
    }
    let constants = json
        .get("game_constants")
        .and_then(Value::as_object)
        .ok_or_else(|| refuse("game_constants", "missing"))?;
    let empty = serde_json::Map::new();
    let info = json
        .get("game_info")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let holes = int(constants, "holes", -1)?;
    let seeds = int(constants, "nbr_start", -1)?;
    if holes < 0 {
        return Err(refuse("holes", "missing"));
    }
    if seeds < 0 {
        return Err(refuse("nbr_start", "missing"));
    }
    // Beyond these no game file can hold the board (and the sums below stay small).
    if !(2..=MAX_ROW as i64).contains(&holes) {
        return Err(refuse(
            "holes",
            format!("= {holes}: a row of 2 to {MAX_ROW} pits is what the engine has"),
        ));
    }
    if seeds > MAX_COUNTERS as i64 {
        return Err(refuse(
            "nbr_start",
            format!("= {seeds}: a game has at most {MAX_COUNTERS} counters"),
        ));
    }

    // Every parameter is read, ignored as without bearing on play, or at its default; the
    // others are named together.
    let mut lacking: Vec<(String, String)> = Vec::new();
    for (key, value) in info {
        if READ.contains(&key.as_str()) || IGNORED.contains(&key.as_str()) {
            continue;
        }
        if let Some((_, parent)) = DEPENDENT.iter().find(|(k, _)| k == key)
            && info.get(*parent).is_none_or(|v| is_default(parent, v))
        {
            continue;
        }
        if is_default(key, value) {
            continue;
        }
        // Territory's parameter is the pits to win (read with the rounds).
        if key == "goal_param"
            && matches!(
                info.get("goal").and_then(Value::as_i64),
                Some(2 | 4 | 8 | 9 | 11)
            )
        {
            continue;
        }
        // The count at which pits close (read with the sowing rule).
        if key == "sow_param" && matches!(info.get("sow_rule").and_then(Value::as_i64), Some(1 | 2))
        {
            continue;
        }
        let what = NOT_HAD
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, what)| what.to_string())
            .unwrap_or_else(|| "a parameter this translation does not know".to_string());
        lacking.push((key.clone(), format!("{key} = {value} ({what})")));
    }
    if !lacking.is_empty() {
        let (keys, whats): (Vec<String>, Vec<String>) = lacking.into_iter().unzip();
        return Err(Refusal {
            parameter: keys.join(", "),
            why: format!("rules the engine does not have: {}", whats.join("; ")),
        });
    }

    // `nbr_start` as MancalaGames reads it in its rules (a pit's start count, but the whole deal
    // for a random start).
    let nbr_start = seeds;
    // The start: equal pits, or MancalaGames' random deal (pattern 6) of `nbr_start` counters in
    // all, at least two a pit where there are enough, as this engine's random deal makes it.
    let mut start_list: Option<Vec<i64>> = None;
    let pattern = int(info, "start_pattern", 0)?;
    let (seeds, random_start) = match pattern {
        0 => (seeds, false),
        // The starter's first move from their rightmost pit, made for them.
        9 if int(info, "rounds", 0)? == 0 => (seeds, false),
        pattern @ (1..=5 | 7 | 8) => {
            start_list = Some(start_pattern(pattern, holes, seeds)?);
            (seeds, false)
        }
        6 if seeds > 0 && seeds % (2 * holes) == 0 => (seeds / (2 * holes), true),
        6 => {
            return Err(refuse(
                "start_pattern",
                format!(
                    "= 6 with {seeds} counters: a random deal of a total that is not the same \
                     count in every pit is not a rule the engine has"
                ),
            ));
        }
        other => {
            return Err(refuse(
                "start_pattern",
                format!(
                    "= {other}: a start {} is not a rule the engine has",
                    match other {
                        9 => "made by a move, in a match of rounds",
                        10 => "made by a random move",
                        11 => "that no sowing repeats into one's own row",
                        12 => "dealt at random with empty pits",
                        _ => "of this pattern",
                    }
                ),
            ));
        }
    };

    let title = info
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("Mancala")
        .trim()
        .to_string();
    let name = game_name(&title);
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Err(refuse(
            "name",
            format!("= \"{title}\": gives no game name (it must begin with a letter)"),
        ));
    }
    let mut lines = vec![
        format!("name = \"{name}\""),
        format!("title = \"{}\"", title.replace('"', "'")),
        format!("pits-per-row = {holes}"),
        match &start_list {
            Some(counts) => format!(
                "start = [{}]",
                counts
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!("start = {seeds}"),
        },
    ];
    // Every counter of the start (a pattern's total may differ from a pit's count a pit).
    let total = start_list
        .as_ref()
        .map_or(2 * holes * seeds, |counts| counts.iter().sum());
    // The goal: the most counters, or one won outright (to deprive, clear or immobilize).
    let goal = int(info, "goal", 0)?;
    let territory = goal == 2;
    // A goal of rounds won: each round is played for the goal's round win (the most counters,
    // or one won outright), and the first to win goal_param rounds wins the match.
    let rounds_won = matches!(goal, 4 | 8 | 9 | 11);
    let eliminates = match goal {
        0 | 2 | 4 => false,
        1 | 9 => {
            lines.push("goal = \"deprive\"".into());
            true
        }
        3 | 8 => {
            lines.push("goal = \"clear-own-row\"".into());
            true
        }
        10 | 11 => {
            lines.push("goal = \"immobilize\"".into());
            true
        }
        other => {
            return Err(refuse(
                "goal",
                format!(
                    "= {other}: {} is not a rule the engine has",
                    match other {
                        5 => "a goal of counters gathered over rounds",
                        6 => "a goal of extra counters over rounds",
                        7 => "a goal of points over rounds",
                        _ => "this goal",
                    }
                ),
            ));
        }
    };
    if pattern == 9 {
        lines.push("opening-from-rightmost = true".into());
    }
    if random_start {
        lines.push("random-start = true".into());
    }

    // The pits whose direction the player chooses, counted from each player's left from 0.
    let udir: Vec<i64> = match info.get("udir_holes") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(places)) => places
            .iter()
            .map(|v| {
                v.as_i64()
                    .filter(|p| (0..holes).contains(p))
                    .ok_or_else(|| refuse("udir_holes", format!("holds {v}: not a pit of the row")))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(refuse("udir_holes", format!("= {other}: not a list"))),
    };
    let (direction, direction_by) = match int(info, "sow_direct", 1)? {
        1 => ("counter-clockwise", "fixed"),
        -1 => ("clockwise", "fixed"),
        3 => ("counter-clockwise", "hand-parity"),
        // The first move's player chooses its way; each player then keeps one (MancalaGames
        // makes every pit's direction chosen, for the first move).
        2 => ("counter-clockwise", "first-move"),
        0 if holes % 2 == 0 || udir.contains(&(holes / 2)) => ("counter-clockwise", "row-halves"),
        0 => {
            return Err(refuse(
                "sow_direct",
                "= 0 (split) with an odd row and its middle pit not in udir_holes: a pit without \
                 a direction",
            ));
        }
        other => {
            return Err(refuse(
                "sow_direct",
                format!(
                    "= {other}: {} is not a rule the engine has",
                    match other {
                        4 => "sowing towards the centre",
                        _ => "this direction",
                    }
                ),
            ));
        }
    };
    lines.push(format!("direction-by = \"{direction_by}\""));
    lines.push(format!("direction = \"{direction}\""));
    let first_move = direction_by == "first-move";
    if first_move || !udir.is_empty() {
        // MancalaGames' own rules allow no grand-slam rule and no move restriction that
        // depends on the direction with them; its sowing into stores is not had here.
        for key in ["grandslam", "allow_rule", "sow_stores"] {
            if flag(info, key)? {
                return Err(refuse(
                    key,
                    "with udir_holes: a rule that needs a pit's direction before its move is \
                     chosen is not a rule the engine has",
                ));
            }
        }
        if first_move && flag(info, "no_sides")? {
            return Err(refuse(
                "no_sides",
                "with sow_direct 2: a first move of either row that chooses the directions is \
                 not a rule the engine has",
            ));
        }
    }
    if !udir.is_empty() && !first_move {
        let places: Vec<String> = udir.iter().map(|p| (p + 1).to_string()).collect();
        lines.push(format!("chosen-direction-pits = [{}]", places.join(", ")));
    }
    let (sow_own_store, extra_turn) = match int(info, "sow_stores", 0)? {
        0 => (false, false),
        1 => (true, true),
        3 => (true, false),
        other => {
            return Err(refuse(
                "sow_stores",
                format!("= {other}: sowing into the opponent's store is not a rule the engine has"),
            ));
        }
    };
    lines.push(format!("sow-own-store = {sow_own_store}"));
    // The opening's rules, counted in moves: MancalaGames counts some in turns, which are the
    // same where no move of the opening can give another.
    let extra_moves = extra_turn || int(info, "capt_rturn", 0)? != 0;
    match int(info, "nocaptmoves", 0)? {
        0 => {}
        _ if extra_turn => {
            return Err(refuse(
                "nocaptmoves",
                "with sow_stores 1: opening turns without captures in a game whose last counter \
                 in the store gives another move (turns, not moves) are not a rule the engine has",
            ));
        }
        moves @ 1..=16 => lines.push(format!("no-capture-moves = {moves}")),
        other => {
            return Err(refuse(
                "nocaptmoves",
                format!("= {other}: an opening of 1 to 16 moves is what the engine has"),
            ));
        }
    }
    match int(info, "prescribed", 0)? {
        0 => {}
        4 => lines.push("first-move = \"one-from-every-other\"".into()),
        // Each player's first turn sows in the game's direction: the first two moves.
        6 if udir.is_empty() || first_move => {}
        6 if extra_moves => {
            return Err(refuse(
                "prescribed",
                "= 6 with extra moves: each player's first turn without chosen directions, \
                 counted in turns, is not a rule the engine has",
            ));
        }
        6 => lines.push("fixed-direction-moves = 2".into()),
        other => {
            return Err(refuse(
                "prescribed",
                format!(
                    "= {other}: {} is not a rule the engine has",
                    match other {
                        1 => "a first move sown without the game's sowing rules",
                        2 => "a first move sown in laps",
                        3 => "first moves whose last counter must reach the opponent's row",
                        5 => "an opening of arranged counters, children and captures limited",
                        _ => "this prescribed opening",
                    }
                ),
            ));
        }
    }
    // MancalaGames' split sowing with a least move of one forbids moving back, on the very next
    // move, a single counter just moved across the end of a row (unless an end pit's direction
    // is chosen). It looks at the last move made, whoever made it: after a pass or an extra
    // move it would forbid the mover a pit of their own row, which is not this rule.
    if int(info, "sow_direct", 1)? == 0
        && int(info, "min_move", 1)? == 1
        && !udir.contains(&0)
        && !udir.contains(&(holes - 1))
    {
        if flag(info, "mustpass")? || extra_turn || int(info, "capt_rturn", 0)? != 0 {
            return Err(refuse(
                "sow_direct",
                "= 0 (split) with min_move 1 and passes or extra moves: the ban on moving a single \
                 counter straight back, applied after a pass or an extra move, is not a rule the \
                 engine has",
            ));
        }
        lines.push("no-crossing-back = true".into());
    }
    // Its stores are at the players' right ends, whichever way a hand goes.
    if sow_own_store {
        lines.push("store-at-right = true".into());
    }
    lines.push(format!("extra-turn-in-store = {extra_turn}"));
    lines.push(format!("skip-origin = {}", flag(info, "skip_start")?));
    let min_move = int(info, "min_move", 1)?;
    if !(1..=MAX_COUNTERS as i64).contains(&min_move) {
        return Err(refuse(
            "min_move",
            format!("= {min_move}: not a count of counters"),
        ));
    }
    if min_move > 1 && flag(info, "mustshare")? {
        return Err(refuse(
            "min_move",
            format!(
                "= {min_move} with mustshare: feeding judged by movable pits is not a rule the \
                 engine has"
            ),
        ));
    }
    lines.push(format!("min-move = {min_move}"));
    // Moves from any pit of either row: the rows belong to nobody, a player always has a move
    // while the board has one, and the counters left at the end count for nobody.
    let no_sides = flag(info, "no_sides")?;
    if no_sides {
        // MancalaGames' own rules refuse the rest of these with `no_sides`.
        for key in [
            "mustpass",
            "mustshare",
            "grandslam",
            "blocks",
            "rounds",
            "end_cond",
            "goal",
            "allow_rule",
            "sow_stores",
        ] {
            if flag(info, key)? {
                return Err(refuse(
                    key,
                    "with no_sides: a rule that asks whose row a pit is in, in a game whose \
                     rows belong to nobody",
                ));
            }
        }
        if int(info, "capt_side", 0)? != 0 {
            return Err(refuse(
                "capt_side",
                "with no_sides: captures on one side, in a game whose rows belong to nobody",
            ));
        }
        lines.push("moves = \"either-row\"".into());
    }
    let filter = match int(info, "allow_rule", 0)? {
        0 => "every",
        1 => "ends-away-or-empty",
        2 => "single-into-empty",
        3 => "one-only-if-all",
        4 => "ones-only-if-all-into-empty",
        5 => "two-only-if-all",
        other => {
            return Err(refuse(
                "allow_rule",
                format!(
                    "= {other}: {} is not a rule the engine has",
                    match other {
                        6 | 8 | 12 | 13 => "a restriction on the first moves, or to the right half",
                        7 | 9 => "a restriction on the first moves",
                        _ => "this restriction on which pits may move",
                    }
                ),
            ));
        }
    };
    lines.push(format!("move-filter = \"{filter}\""));
    // Multi-lap sowing: a lap ending in a pit that held counters, and that no capture takes,
    // is sown on from there.
    let mlaps = int(info, "mlaps", 0)?;
    let relay = match mlaps {
        0 => false,
        1 if sow_own_store && !extra_turn => {
            return Err(refuse(
                "mlaps",
                "= 1 with sow_stores but no extra turn: a lap ending in the store that goes on \
                 from it is not a rule the engine has",
            ));
        }
        1 => true,
        2 if sow_own_store || flag(info, "crosscapt")? => {
            return Err(refuse(
                "mlaps",
                "= 2 with sow_stores or crosscapt: laps going on from the next pit past a store, \
                 or stopping for a cross capture, are not a rule the engine has",
            ));
        }
        2 => true,
        other => return Err(refuse("mlaps", format!("= {other}: not a kind of lap"))),
    };
    // The first counter sown back into the pit it came from (MancalaGames' sow_start; with
    // move_one a single counter goes to the next pit, and without it a single counter cannot
    // move: MancalaGames asks for a least move of two then).
    let sow_start = flag(info, "sow_start")?;
    let move_one = flag(info, "move_one")?;
    if move_one && !sow_start {
        return Err(refuse(
            "move_one",
            "without sow_start: not a game MancalaGames plays",
        ));
    }
    if sow_start {
        if !move_one && min_move < 2 {
            return Err(refuse(
                "sow_start",
                "without move_one and with min_move 1: not a game MancalaGames plays (a single \
                 counter would be sown back into its own pit)",
            ));
        }
        if relay {
            return Err(refuse(
                "sow_start",
                "with mlaps: laps after a first one that keeps a counter in its pit are not a \
                 rule the engine has",
            ));
        }
        lines.push("origin-keeps-one = true".into());
    }
    if relay {
        lines.push("laps = \"relay\"".into());
        if mlaps == 2 {
            // Each lap goes on from the pit after its landing pit, if that holds counters.
            lines.push("relay-from = \"next-pit\"".into());
        }
        // MancalaGames calls a move of more than 75 laps endless.
        lines.push("lap-limit = 75".into());
        let param = int(info, "mlap_param", 0)?;
        match int(info, "mlap_cont", 0)? {
            0 => {}
            1 if (2..=total).contains(&param) => lines.push(format!("relay-counts = [{param}]")),
            2 if (2..=total).contains(&param) => {
                let counts: Vec<String> = (param..=total.min(MAX_COUNTERS as i64))
                    .map(|c| c.to_string())
                    .collect();
                lines.push(format!("relay-counts = [{}]", counts.join(", ")));
            }
            3 => lines.push("relay-side = \"own\"".into()),
            4 => lines.push("relay-side = \"opponent\"".into()),
            other => {
                return Err(refuse(
                    "mlap_cont",
                    format!(
                        "= {other} (mlap_param {param}): {} is not a rule the engine has",
                        match other {
                            1 | 2 => "a relay count outside 2 to the game's counters",
                            5 => "a first lap that must reach the opponent's row",
                            _ => "a relay that stops at or from a store",
                        }
                    ),
                ));
            }
        }
    }
    // Without multi-lap sowing, MancalaGames never reads `mlap_cont`.
    lines.push(format!("stores = {}", flag(info, "stores")?));

    // Captures: the counts (every criterion must hold), or the opposite of one's own empty pit.
    let capt_on: Vec<i64> = match info.get("capt_on") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(values)) => values
            .iter()
            .map(|v| {
                v.as_i64()
                    .ok_or_else(|| refuse("capt_on", format!("= {v}: not a count")))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(refuse("capt_on", format!("= {other}: not a list"))),
    };
    let evens = flag(info, "evens")?;
    let capt_min = int(info, "capt_min", 0)?;
    let capt_max = int(info, "capt_max", 0)?;
    let by_count = !capt_on.is_empty() || evens || capt_min != 0 || capt_max != 0;
    let side = int(info, "capt_side", 0)?;
    let multicapt = int(info, "multicapt", 0)?;
    let crosscapt = int(info, "crosscapt", 0)?;
    match crosscapt {
        0 => {}
        1 => {
            if by_count {
                return Err(refuse(
                    "crosscapt",
                    "= 1 with capt_on, evens, capt_min or capt_max: a capture of the opposite \
                     pit by its count is not a rule the engine has",
                ));
            }
            // The pit taken: the opponent's (capt_side 1, the last counter in one's own row), or
            // either (0, the last counter in either row), where one's own counter stays or goes
            // with the capture (not taken alone).
            let either_row = side == 0 && matches!(int(info, "xcpickown", 0)?, 0 | 1);
            if side != 1 && !either_row {
                return Err(refuse(
                    "capt_side",
                    format!(
                        "= {side} with crosscapt: only the capture of the opponent's pit \
                         (capt_side 1), or of either with xcpickown 0 or 1 (capt_side 0), is a \
                         rule the engine has"
                    ),
                ));
            }
            if either_row {
                lines.push("capture-empty-either-row = true".into());
            }
            let takes_own = match int(info, "xcpickown", 0)? {
                0 => false,
                1 => true,
                // Taken even without a capture (not a capture: no extra move follows it).
                2 if int(info, "capt_rturn", 0)? == 0 => {
                    lines.push("capture-takes-own-alone = true".into());
                    true
                }
                other => {
                    return Err(refuse(
                        "xcpickown",
                        format!(
                            "= {other} with crosscapt: {} is not a rule the engine has",
                            if other == 2 {
                                "taking one's own counter without a capture, with capt_rturn"
                            } else {
                                "this pick-up of one's own counter"
                            }
                        ),
                    ));
                }
            };
            lines.push(format!("capture-takes-own = {takes_own}"));
            if multicapt != 0 {
                return Err(refuse(
                    "multicapt",
                    "with crosscapt: chains of opposite captures are not a rule the engine has",
                ));
            }
            // The pit where the last counter ends is one's own, as Kalah's file says (or either).
            lines.push(format!(
                "capture-side = \"{}\"",
                if either_row { "any" } else { "own" }
            ));
            lines.push("capture-empty-opposite = true".into());
        }
        other => {
            return Err(refuse(
                "crosscapt",
                format!(
                    "= {other}: only the capture from one's own empty pit (1) is a rule the \
                     engine has"
                ),
            ));
        }
    }
    // Other capture mechanisms: the capture past an empty pit ("two out").
    let capt_type = int(info, "capt_type", 0)?;
    let past_empty = match capt_type {
        0 => false,
        2 if crosscapt != 0 => {
            return Err(refuse(
                "capt_type",
                "= 2 with crosscapt: two capture mechanisms at once are not a rule the engine has",
            ));
        }
        2 => true,
        6 if crosscapt != 0 || !(0..=2).contains(&side) => {
            return Err(refuse(
                "capt_type",
                format!(
                    "= 6 with crosscapt or capt_side {side}: a store given away beside a capture \
                     across, or judged by where the capture starts, is not a rule the engine has"
                ),
            ));
        }
        6 => false,
        // A last counter in the opponent's row, or in one's own right-hand pit, is a capture
        // that takes nothing itself; picking every opponent's pit a count fits (pickextra 2)
        // then takes them.
        5 if int(info, "pickextra", 0)? == 2
            && by_count
            && crosscapt == 0
            && multicapt == 0
            && matches!(side, 0 | 1)
            && int(info, "mlaps", 0)? == 0
            && int(info, "sow_rule", 0)? == 0 =>
        {
            lines.push("capture-every-count = true".into());
            false
        }
        other => {
            return Err(refuse(
                "capt_type",
                format!(
                    "= {other}: a capture {} is not a rule the engine has",
                    match other {
                        1 => "of the pit after the last one",
                        3 => "of a pit and its opposite holding as many",
                        4 => "of single counters",
                        5 =>
                            "marked by a last counter in the opponent's row or one's right-hand \
                              pit, except with pickextra 2, counts, one lap, no chains, no other \
                              sowing rule and capt_side 0 or 1,",
                        6 => "by passing one's own store",
                        7 => "that pulls counters across the board",
                        8 => "by ending in the opponent's store",
                        9 => "of pits between two of one's own",
                        _ => "of this kind",
                    }
                ),
            ));
        }
    };
    // What a capture picks up besides: the pit facing the first one it took.
    let pickextra = int(info, "pickextra", 0)?;
    match pickextra {
        0 | 3 | 4 => {}
        1 if past_empty => {}
        2 if capt_type == 5 => {}
        other => {
            return Err(refuse(
                "pickextra",
                format!(
                    "= {other}: {} is not a rule the engine has",
                    match other {
                        1 => "taking the facing pit too, with a capture by count",
                        2 => "taking every pit of the opponent's that a capture count fits",
                        4 => "the round's starter taking the last counters on the board",
                        5 => "taking the pits a final capture leaves",
                        _ => "taking the facing pits of a chain",
                    }
                ),
            ));
        }
    }
    if past_empty {
        lines.push("capture-past-empty = true".into());
        if pickextra == 1 {
            lines.push("past-empty-takes-facing = true".into());
        }
        if !by_count {
            // (With counts, the side is written below.)
            lines.push(format!("capture-side = \"{}\"", capture_side(side)?));
        }
        // MancalaGames captures past empty pits in the sowing direction only (`capt_dir` 1).
        let direction = int(info, "capt_dir", 0)?;
        if direction != 1 {
            return Err(refuse(
                "capt_dir",
                format!(
                    "= {direction} with capt_type 2: captures past an empty pit are taken in \
                     the sowing direction (1)"
                ),
            ));
        }
        match multicapt {
            0 => {}
            -1 => lines.push("capture-chain = true".into()),
            other => {
                return Err(refuse(
                    "multicapt",
                    format!(
                        "= {other}: chains of at most {other} pits are not a rule the engine has"
                    ),
                ));
            }
        }
    }
    // A last counter into an empty pit on the capture side gives the mover's store to the
    // opponent (MancalaGames' "passive capture"); other captures only where it does not.
    if capt_type == 6 {
        lines.push("empty-landing-gives-store = true".into());
        if !by_count {
            // (With counts, the side is written below.)
            lines.push(format!("capture-side = \"{}\"", capture_side(side)?));
        }
    }
    if by_count {
        let total = total.clamp(0, MAX_COUNTERS as i64);
        let counts: Vec<String> = (1..=total)
            .filter(|c| capt_on.is_empty() || capt_on.contains(c))
            .filter(|c| !evens || c % 2 == 0)
            .filter(|c| capt_min == 0 || *c >= capt_min)
            .filter(|c| capt_max == 0 || *c <= capt_max)
            .map(|c| c.to_string())
            .collect();
        lines.push(format!("capture-counts = [{}]", counts.join(", ")));
        // The opponent's (3) or one's own (4) row for the last pit, a chain going on into
        // either row: where the chain is a count's, at the end of a one-lap move.
        let chain_either_row = matches!(side, 3 | 4);
        if chain_either_row
            && (past_empty || int(info, "mlaps", 0)? != 0 || int(info, "sow_rule", 0)? != 0)
        {
            return Err(refuse(
                "capt_side",
                format!(
                    "= {side} with capt_type 2, mlaps or sow_rule: a chain into either row there \
                     is not a rule the engine has"
                ),
            ));
        }
        // (Every pit a count fits is the opponent's where the last counter marks a capture.)
        let side = match capt_type {
            5 => "opponent",
            _ => capture_side(if chain_either_row { side - 2 } else { side })?,
        };
        lines.push(format!("capture-side = \"{side}\""));
        if chain_either_row && multicapt == -1 {
            lines.push("chain-either-row = true".into());
        }
        match multicapt {
            // (The chain of captures past empty pits, above.)
            _ if past_empty => {}
            0 => {}
            chain @ (-1 | 2..=24) => {
                let direction = int(info, "capt_dir", 0)?;
                if direction != 0 {
                    return Err(refuse(
                        "capt_dir",
                        format!(
                            "= {direction}: only chains against the sowing (0) are a rule the \
                             engine has"
                        ),
                    ));
                }
                lines.push("capture-chain = true".into());
                // Its chain goes on past the pit the move was sown from.
                lines.push("chain-stops-at-origin = false".into());
                if chain > 0 {
                    lines.push(format!("capture-chain-most = {chain}"));
                }
            }
            other => {
                return Err(refuse(
                    "multicapt",
                    format!(
                        "= {other}: chains of at most {other} pits are not a rule the engine has"
                    ),
                ));
            }
        }
    }

    // A counter of each lap's hand into the mover's store before the lap is sown; a single
    // counter's take of the pit facing its own before it is sown (one lap).
    match int(info, "presowcapt", 0)? {
        0 => {}
        1 => lines.push("store-one-per-lap = true".into()),
        // Every single counter of the mover's row takes across before the move is sown (one
        // lap: MancalaGames does it before each lap).
        2 if int(info, "mlaps", 0)? == 0 => lines.push("singles-take-facing = true".into()),
        3 if int(info, "mlaps", 0)? == 0
            && int(info, "sow_rule", 0)? == 0
            && int(info, "grandslam", 0)? == 0 =>
        {
            lines.push("single-counter-takes-facing = true".into())
        }
        other => {
            return Err(refuse(
                "presowcapt",
                format!(
                    "= {other}: a capture across from single counters before sowing is not a \
                     rule the engine has"
                ),
            ));
        }
    }
    // No capture at the end of a move of a single counter (one lap).
    if flag(info, "nosinglecapt")? {
        if int(info, "mlaps", 0)? != 0 || int(info, "sow_rule", 0)? != 0 {
            return Err(refuse(
                "nosinglecapt",
                "with mlaps or sow_rule: a single counter's move without a capture there is not \
                 a rule the engine has",
            ));
        }
        lines.push("single-counter-captures = false".into());
    }
    // Captures while sowing (en passant): the pits a counter before the last makes capturable.
    let sow_rule = int(info, "sow_rule", 0)?;
    if matches!(sow_rule, 1 | 2) {
        close_pits(info, sow_rule, mlaps, eliminates, total, &mut lines)?;
    }
    let passing = match sow_rule {
        // Laps that go on after a capture: below. Pits that close: above.
        0 | 1 | 2 | 8 | 12 => None,
        3 => Some("to-owner"),
        4 => Some("to-owner-last-too"),
        14 => Some("to-mover"),
        15 => Some("to-mover-in-own-row"),
        16 => Some("to-mover-in-opponent-row"),
        other => {
            return Err(refuse(
                "sow_rule",
                format!(
                    "= {other}: {} is not a rule the engine has",
                    match other {
                        1 | 2 => "sowing that diverts past blocked pits",
                        5 => "sowing that skips the opponent's pits of a count",
                        6 => "laps that change direction",
                        7 => "a most counters a pit may hold",
                        10 => "laps that go on after a capture, the last counters to the opponent",
                        9 | 11 | 13 => "sowing past children",
                        _ => "this sowing rule",
                    }
                ),
            ));
        }
    };
    if let Some(passing) = passing {
        if !by_count {
            return Err(refuse(
                "sow_rule",
                format!("= {sow_rule} without capture counts: captures in passing need them"),
            ));
        }
        lines.push(format!("passing-captures = \"{passing}\""));
    }
    match int(info, "grandslam", 0)? {
        0 => {}
        2 => lines.push("grand-slam = \"captures-nothing-if-held\"".into()),
        3 => lines.push("grand-slam = \"movers-row-to-opponent\"".into()),
        4 => lines.push("grand-slam = \"leaves-leftmost\"".into()),
        5 => lines.push("grand-slam = \"leaves-rightmost\"".into()),
        6 if mlaps != 0 || int(info, "capt_rturn", 0)? != 0 => {
            return Err(refuse(
                "grandslam",
                "= 6 with mlaps or capt_rturn: a grand slam's extra move after laps, or besides a \
                 capture's, is not a rule the engine has",
            ));
        }
        6 => lines.push("grand-slam = \"captures-and-moves-again\"".into()),
        other => {
            return Err(refuse(
                "grandslam",
                format!(
                    "= {other}: a grand slam that {} is not a rule the engine has",
                    match other {
                        1 => "may not be played",
                        _ => "does this",
                    }
                ),
            ));
        }
    }

    // Laps that go on after a capture (`sow_rule` 8): past an empty pit, or across from an empty
    // one, at the end of every lap.
    // With the counters a capture took sown on from the lap's last pit (`sow_rule` 12): across
    // from an empty pit. Without stores MancalaGames stops a lap where the opponent has none.
    if sow_rule == 8 || sow_rule == 12 {
        let why = if mlaps != 1 {
            Some("without multi-lap sowing from the landing pit (mlaps 1)")
        } else if !(past_empty
            || crosscapt == 1
            || sow_rule == 8 && by_count && crosscapt == 0 && capt_type == 0)
        {
            Some("without a capture by count, across from an empty pit or past one")
        } else if sow_rule == 12 && crosscapt != 1 {
            Some("without a cross capture")
        } else if pickextra != 0
            || int(info, "capt_rturn", 0)? != 0
            || int(info, "grandslam", 0)? != 0
            || int(info, "xcpickown", 0)? != 0
            || int(info, "mlap_cont", 0)? != 0
        {
            Some("with pickextra, capt_rturn, grandslam, xcpickown or mlap_cont")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(refuse(
                "sow_rule",
                format!(
                    "= {sow_rule} {why}: laps that go on after such a capture are not a rule the \
                     engine has"
                ),
            ));
        }
        lines.push("lap-captures = true".into());
        if sow_rule == 12 {
            lines.push("lap-captures-sown-on = true".into());
        }
        if !flag(info, "stores")? {
            lines.push("relay-needs-opponent-counters = true".into());
        }
    }
    // The last counters on the board, once no more than a pit's start count are left where
    // captures are judged, go to the mover with the move's captures.
    if pickextra == 3 || pickextra == 4 {
        if int(info, "grandslam", 0)? != 0 {
            return Err(refuse(
                "pickextra",
                "= 3 with grandslam: whether taking the last counters is a grand slam is not a \
                 rule the engine has",
            ));
        }
        if !(by_count || past_empty || crosscapt != 0) && side != 0 {
            return Err(refuse(
                "pickextra",
                format!(
                    "= 3 with capt_side {side} and no capture: where the last counters are \
                     counted is not a rule the engine has"
                ),
            ));
        }
        if !(1..=MAX_COUNTERS as i64).contains(&nbr_start) {
            return Err(refuse(
                "pickextra",
                format!("= 3 with nbr_start {nbr_start}: not a number of counters"),
            ));
        }
        if pickextra == 4 {
            // Twice a pit's count, to the round's starter.
            if int(info, "rounds", 0)? == 0 {
                return Err(refuse(
                    "pickextra",
                    "= 4 without rounds: the last counters to the game's starter are not a rule \
                     the engine has",
                ));
            }
            lines.push(format!("sweep-at-most = {}", 2 * nbr_start));
            lines.push("sweep-taker = \"round-starter\"".into());
        } else {
            lines.push(format!("sweep-at-most = {nbr_start}"));
        }
    }
    // Another move after a capture: always, or once in a row.
    match int(info, "capt_rturn", 0)? {
        0 => {}
        1 => lines.push("capture-extra-move = \"always\"".into()),
        2 => lines.push("capture-extra-move = \"once\"".into()),
        other => {
            return Err(refuse(
                "capt_rturn",
                format!("= {other}: not a kind of extra move"),
            ));
        }
    }

    // How the game ends, and who takes what is left (`unclaimed`).
    let must_share = flag(info, "mustshare")?;
    let must_pass = flag(info, "mustpass")?;
    let unclaimed = int(info, "unclaimed", 0)?;
    if must_share {
        // When no move can feed, the counters left go as `unclaimed` says (below); with
        // `mustpass`, any move is played and the starved player passes.
        let unfed = match unclaimed {
            _ if must_pass => "any-move",
            3 => "starved-player-takes-all",
            _ => "as-leftover",
        };
        lines.push("must-feed = true".into());
        lines.push(format!("unfed = \"{unfed}\""));
    }
    // Besides the player to move without a move: MancalaGames' end once the mover's own row
    // (1) or the opponent's (2) is empty after a move. Without passes, and without an extra
    // move after a capture, the first is the end on either row empty, and the second the end
    // on the player to move without counters, unless a move may give another (which this
    // engine's position would not tell apart).
    let end_cond = int(info, "end_cond", 0)?;
    let game_ends = match end_cond {
        _ if must_pass && end_cond != 0 => {
            return Err(refuse(
                "end_cond",
                format!(
                    "= {end_cond} with mustpass: an end on a cleared row in a game with passes is not a rule the engine has"
                ),
            ));
        }
        _ if end_cond != 0 && (must_share || int(info, "capt_rturn", 0)? != 0 || eliminates) => {
            return Err(refuse(
                "end_cond",
                format!(
                    "= {end_cond} with mustshare, capt_rturn or a goal won outright is not a rule the engine has"
                ),
            ));
        }
        0 if must_pass || no_sides => "board-empty",
        0 => "mover-row-empty",
        1 => "either-row-empty",
        2 if !extra_turn => "mover-row-empty",
        2 => {
            return Err(refuse(
                "end_cond",
                "= 2 in a game with extra turns: an end on the opponent's cleared row after a move that gives another is not a rule the engine has",
            ));
        }
        other => {
            return Err(refuse(
                "end_cond",
                format!("= {other}: an end by a count of counters is not a rule the engine has"),
            ));
        }
    };
    lines.push(format!("game-ends = \"{game_ends}\""));
    // MancalaGames ends every game as soon as a player has more than half of the counters (a
    // game won outright by its goal ends only by it).
    if eliminates {
        if must_share {
            return Err(refuse(
                "mustshare",
                format!(
                    "with goal {goal}: feeding in a game won outright is not a rule the engine has"
                ),
            ));
        }
    } else if total % 2 != 0 {
        return Err(refuse(
            "nbr_start",
            format!(
                "{total} counters in all: MancalaGames' majority of an odd total is not a rule the engine has"
            ),
        ));
    }
    if own_row_ring {
        lines.push("sowing-ring = \"own-row\"".into());
    }
    // Children: pits a move makes a player's own.
    let child_type = int(info, "child_type", 0)?;
    let child_count = int(info, "child_cvt", 0)?;
    let stores = flag(info, "stores")?;
    if child_type != 0 && no_sides {
        return Err(refuse(
            "child_type",
            "with no_sides: children in a game whose rows belong to nobody are not a rule the \
             engine has",
        ));
    }
    if child_type != 0 {
        let made_by = match child_type {
            1 | 4 => "count",
            3 => "one-each",
            6 => "facing-pair",
            other => {
                return Err(refuse(
                    "child_type",
                    format!(
                        "= {other}: {} are not a rule the engine has",
                        match other {
                            5 => "children made in pairs of neighbours (bulls)",
                            7 => "children of no owner that change with the counts (rams)",
                            _ => "these children",
                        }
                    ),
                ));
            }
        };
        let side = match (int(info, "child_rule", 0)?, territory) {
            (0, _) => "any",
            (1, false) | (4, true) => "opponent",
            (2, false) | (5, true) => "own",
            (rule, _) => {
                return Err(refuse(
                    "child_rule",
                    format!("= {rule}: this condition on children is not a rule the engine has"),
                ));
            }
        };
        if !(1..=MAX_COUNTERS as i64).contains(&child_count) {
            return Err(refuse(
                "child_cvt",
                format!("= {child_count}: a child needs a count of 1 or more"),
            ));
        }
        if !stores {
            return Err(refuse(
                "child_type",
                "without stores: children that hold the captures are not a rule the engine has",
            ));
        }
        if mlaps == 2 {
            return Err(refuse(
                "child_type",
                "with mlaps 2: laps that go on from the next pit past a child are not a rule \
                 the engine has",
            ));
        }
        let locs = int(info, "child_locs", 0)?;
        let (barred, apart) = child_places(locs, holes as usize, side, territory)?;
        lines.push(format!("child-count = {child_count}"));
        lines.push(format!("child-made-by = \"{made_by}\""));
        lines.push(format!("child-side = \"{side}\""));
        if !barred.is_empty() {
            let places: Vec<String> = barred.iter().map(ToString::to_string).collect();
            lines.push(format!("child-barred-places = [{}]", places.join(", ")));
        }
        if apart != "anywhere" {
            lines.push(format!("child-apart = \"{apart}\""));
        }
        if child_type == 4 {
            // A last counter into the opponent's weg takes two from it (one if it holds one).
            lines.push("child-landing-takes = 2".into());
        }
    }
    // In a match for territory whose rounds end without moves, MancalaGames wins the round only
    // with every counter (its round's winning count is then the total less one), and so in a
    // match of rounds won whose rounds end so (rounds 2).
    let round_ends_by_moves = rounds_won && int(info, "rounds", 0)? != 1;
    if !eliminates && !territory && !round_ends_by_moves {
        lines.push("majority-ends = true".into());
    }
    // It ends a game without stores in the sowing, and not ended by the feeding rule, once
    // fewer counters are left than the smallest capture needs.
    let ended_by_feeding = must_share && !must_pass;
    // (Nor where the last counters are taken with a capture: MancalaGames leaves that end out.)
    // (Nor where another end condition is set: MancalaGames leaves it out then too.)
    // (Nor where the only captures are a weg's: MancalaGames leaves that end out then too.)
    let weg_only = child_type == 4
        && capt_on.is_empty()
        && !evens
        && capt_min == 0
        && int(info, "capt_max", 0)? == 0
        && capt_type == 0
        && crosscapt == 0;
    if !sow_own_store
        && !ended_by_feeding
        && pickextra != 3
        && !eliminates
        && end_cond == 0
        && !weg_only
    {
        // With children, a move that makes one changes the outcome (and MancalaGames' end then
        // needs no child on the board, as the engine's `ends-below` does).
        let mut fewest = if child_type != 0 { child_count } else { total };
        if evens || crosscapt != 0 {
            fewest = fewest.min(2);
        }
        if past_empty {
            // A counter to land, and one to take past an empty pit; without laps the last pit
            // must have held one before.
            fewest = fewest.min(if relay { 2 } else { 3 });
        }
        if let Some(&smallest) = capt_on.iter().min() {
            // With `evens`, MancalaGames takes the smallest of `capt_on` alone.
            fewest = if evens {
                smallest
            } else {
                fewest.min(smallest)
            };
        }
        if capt_min != 0 {
            fewest = if fewest == total {
                capt_min
            } else {
                fewest.max(capt_min)
            };
        }
        if min_move < fewest && fewest < total {
            lines.push(format!("ends-below = {fewest}"));
        }
    }
    // The counters left when the game ends without a capture deciding it (the player to move
    // has none, too few are left, or this engine's history rules): `unclaimed`, or `quitter`
    // where `unclaimed` gives them to the unfed player.
    let (key, condition) = if unclaimed == 3 {
        ("quitter", int(info, "quitter", 4)?)
    } else {
        ("unclaimed", unclaimed)
    };
    let leftover = match condition {
        // A game won outright shares nothing: its goal decides (`unclaimed` is not read).
        _ if eliminates => "row-owner",
        // Nor does a game without sides: only what the players took counts.
        _ if no_sides => "nobody",
        0 => "row-owner",
        1 => "nobody",
        // Where a move may give another, the move that ends the game gives its mover the
        // counters at once (not in a match of rounds).
        2 if (!extra_turn && int(info, "capt_rturn", 0)? == 0) || int(info, "rounds", 0)? == 0 => {
            "last-mover"
        }
        4 => "split-odd-to-trailing",
        other => {
            return Err(refuse(
                key,
                format!(
                    "= {other}: counters left {} is not a rule the engine has",
                    if other == 2 {
                        "to the last mover, in a match of rounds with extra turns"
                    } else {
                        "to another player"
                    }
                ),
            ));
        }
    };
    lines.push(format!("leftover = \"{leftover}\""));

    // A match of rounds: a round ends as a game would (MancalaGames' `rounds` = 2, "no moves");
    // each player refills their own row from what they hold.
    let rounds = int(info, "rounds", 0)?;
    let blocks = flag(info, "blocks")?;
    match rounds {
        0 if territory => {
            return Err(refuse(
                "goal",
                "= 2 without rounds: territory is won from round to round",
            ));
        }
        0 if rounds_won => {
            return Err(refuse(
                "goal",
                format!("= {goal} without rounds: rounds are won from round to round"),
            ));
        }
        // A match of rounds won: every round is dealt as the first, and ends as a game would
        // (rounds 2), or once a player holds more than half of the counters (rounds 1).
        1 | 2 if rounds_won => {
            let round_fill = int(info, "round_fill", 0)?;
            if round_fill != 0 {
                return Err(refuse(
                    "round_fill",
                    format!(
                        "= {round_fill} with a goal of rounds won, whose rounds are dealt as the first"
                    ),
                ));
            }
            if blocks {
                return Err(refuse(
                    "blocks",
                    "with a goal of rounds won: its rounds are dealt as the first, and block no pit",
                ));
            }
            if rounds == 1 && total % 2 == 1 {
                return Err(refuse(
                    "rounds",
                    format!(
                        "= 1 with {total} counters: MancalaGames' majority of an odd total is not \
                         a rule the engine has"
                    ),
                ));
            }
            let starter = match int(info, "round_starter", 0)? {
                0 => "alternate",
                1 => "loser",
                2 => "winner",
                3 => "last-mover",
                other => {
                    return Err(refuse(
                        "round_starter",
                        format!("= {other}: this round starter is not a rule the engine has"),
                    ));
                }
            };
            let wins = int(info, "goal_param", 0)?;
            if !(1..=255).contains(&wins) {
                return Err(refuse(
                    "goal_param",
                    format!("= {wins}: the rounds to win are from 1 to 255"),
                ));
            }
            lines.push("rounds = true".into());
            lines.push(format!("round-starter = \"{starter}\""));
            lines.push(format!("rounds-to-win = {wins}"));
        }
        _ if rounds_won => {
            return Err(refuse(
                "rounds",
                format!(
                    "= {rounds} with a goal of rounds won: rounds that end once the start's count, \
                     or twice it, or fewer are left are not a rule the engine has"
                ),
            ));
        }
        // Pits blocked as the game goes on are the pits that close (`sow_rule` 1 or 2).
        0 if blocks && !matches!(sow_rule, 1 | 2) => {
            return Err(refuse(
                "blocks",
                "without rounds: pits blocked as the game goes on is not a rule the engine has",
            ));
        }
        0 => {}
        // Rounds that end once the start's count or fewer are left, where the last capture's
        // pick of the last counters (pickextra 3) ends them already: MancalaGames then adds no
        // end of its own, and in a match for territory its round is won early by W counters.
        2 | 3 if rounds == 2 || territory && pickextra == 3 => {
            if !matches!(
                leftover,
                "row-owner" | "last-mover" | "split-odd-to-trailing"
            ) {
                return Err(refuse(
                    key,
                    format!(
                        "= {condition} with rounds: the next round is filled from every \
                         counter, and this rule scores some for nobody"
                    ),
                ));
            }
            let round_fill = int(info, "round_fill", 0)?;
            let fill = match round_fill {
                _ if territory => "",
                1 => "from-left",
                // Only the loser fills, in MancalaGames' own order for a row: from the board's
                // left end.
                10 => "from-board-left",
                2 => "from-right",
                0 | 3 => "outside-in",
                other => {
                    return Err(refuse(
                        "round_fill",
                        format!(
                            "= {other}: a round filled {} is not a rule the engine has",
                            match other {
                                3 => "from the outside in",
                                4 => "evenly",
                                5 | 9 => "on shortened rows",
                                6..=8 => "by the players' choice",
                                _ => "by territory",
                            }
                        ),
                    ));
                }
            };
            let starter = match int(info, "round_starter", 0)? {
                0 => "alternate",
                1 => "loser",
                2 => "winner",
                3 => "last-mover",
                other => {
                    return Err(refuse(
                        "round_starter",
                        format!("= {other}: this round starter is not a rule the engine has"),
                    ));
                }
            };
            if territory {
                // A drawn hole goes to the winner only over half a pit: MancalaGames' own
                // rounding (its random draw is for an even start count only).
                let rounded = round_fill == 0 || round_fill == 11 && seeds % 2 == 1;
                if !rounded && round_fill != 12 {
                    return Err(refuse(
                        "round_fill",
                        format!(
                            "= {round_fill}: a territory {} is not a rule the engine has",
                            match round_fill {
                                11 => "whose half-filled pit is drawn at random",
                                13 => "whose partly filled pit is left empty",
                                _ => "dealt this way",
                            }
                        ),
                    ));
                }
                if blocks {
                    return Err(refuse(
                        "blocks",
                        "with territory: a match for territory deals every pit",
                    ));
                }
                let pits = int(info, "goal_param", 0)?;
                if !(holes + 1..=2 * holes).contains(&pits) {
                    return Err(refuse(
                        "goal_param",
                        format!("= {pits}: territory to win is more than a row, up to the board"),
                    ));
                }
                lines.push("rounds = true".into());
                lines.push(format!("round-starter = \"{starter}\""));
                lines.push(format!("territory-pits-to-win = {pits}"));
                if rounds == 3 {
                    lines.push("majority-ends = true".into());
                }
                if round_fill == 12 {
                    lines.push("territory-partial-pit-to-loser = true".into());
                }
            } else {
                let pits = int(info, "goal_param", 0)?.max(1);
                if pits > holes {
                    return Err(refuse(
                        "goal_param",
                        format!("= {pits}: more pits to go on than a row has"),
                    ));
                }
                lines.push("rounds = true".into());
                lines.push(format!("round-fill = \"{fill}\""));
                lines.push(format!("round-starter = \"{starter}\""));
                lines.push(format!("round-blocks = {blocks}"));
                lines.push(format!("round-pits-to-go-on = {pits}"));
                if round_fill == 10 {
                    lines.push("round-only-loser-refills = true".into());
                }
            }
        }
        other => {
            return Err(refuse(
                "rounds",
                format!(
                    "= {other}: rounds that end {} are not a rule the engine has",
                    match other {
                        1 => "when a player has half of the counters",
                        3 => "once the start's count or fewer are left",
                        4 => "once twice the start's count or fewer are left",
                        _ => "this way",
                    }
                ),
            ));
        }
    }

    let mut text = String::from(
        "# Translated from a MancalaGames game file by 'mancala-engine import-mancalagames'.\n\
         # Where it plays otherwise than MancalaGames (RULES.md, \"MancalaGames' game files\"):\n\
         # - this engine's history rules end a game that MancalaGames plays on: a position met\n\
         #   the third time, and no-progress-limit moves without a capture;\n\
         # - South moves first (MancalaGames draws who starts: give North's start as a position\n\
         #   string);\n",
    );
    if random_start {
        text.push_str(
            "# - MancalaGames deals the start at random: `position random <seed>` deals one\n\
             #   (another deal than MancalaGames' own; from a given deal, play is the same);\n",
        );
    }
    if relay {
        text.push_str(
            "# - an endless move ends both games, but MancalaGames drops the counters in hand and\n\
             #   shares those on the board by its `quitter` rule, this engine by `leftover`.\n",
        );
    }
    if int(info, "capt_rturn", 0)? == 2 {
        text.push_str(
            "# - a pass ends the turn: the opponent's next capture gives an extra move, where\n\
             #   MancalaGames still counts the passer's extra move and gives none.\n",
        );
    }
    if !udir.is_empty() && !first_move && flag(info, "mustshare")? {
        text.push_str(
            "# - the feeding rule judges each direction of a pit whose direction is chosen, where\n\
             #   MancalaGames' move list offers both directions when one of them feeds.\n",
        );
    }
    for line in lines {
        let _ = writeln!(text, "{line}");
    }
    Ok(GameFile { text })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A MancalaGames file: the JSON object with `game_info`, then its help text.
    fn file(holes: u32, seeds: u32, info: &str) -> String {
        format!(
            "{{ \"game_class\": \"Mancala\", \"game_constants\": {{ \"holes\": {holes}, \
             \"nbr_start\": {seeds} }}, \"game_info\": {info} }}\n<text_section>help\
             </text_section>\n"
        )
    }

    #[test]
    fn a_plain_file_becomes_a_game_file_the_rules_read() {
        let game = translate(&file(5, 3, r#"{ "name": "Plain Test" }"#)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        assert_eq!(rules.pits_per_row, 5, "{}", game.text);
        assert!(game.text.contains("start = 3"), "{}", game.text);
    }

    #[test]
    fn a_parameter_the_engine_lacks_is_named_in_the_refusal() {
        let laps = file(6, 4, r#"{ "name": "Laps", "mlaps": 1, "goal": 5 }"#);
        let refusal = translate(&laps).unwrap_err();
        assert!(refusal.parameter.contains("goal"), "{refusal}");
        assert!(
            refusal
                .to_string()
                .contains("counters gathered over rounds"),
            "{refusal}"
        );
    }

    #[test]
    fn directions_chosen_by_the_first_move_become_direction_by_first_move() {
        let info = r#"{ "name": "Ways", "sow_direct": 2, "capt_on": [2] }"#;
        let game = translate(&file(5, 4, info)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        assert!(rules.tracks_directions(), "{}", game.text);
        assert_eq!(rules.chosen_direction_pits, 0, "{}", game.text);
        // A row of 7 has 14 first moves; a grand slam rule would need a direction before the
        // move.
        let seven = definition::parse(&translate(&file(7, 4, info)).unwrap().text).unwrap();
        assert!(seven.tracks_directions());
        let slam = r#"{ "name": "Ways", "sow_direct": 2, "capt_on": [2], "grandslam": 1 }"#;
        assert_eq!(
            translate(&file(5, 4, slam)).unwrap_err().parameter,
            "grandslam"
        );
    }

    #[test]
    fn a_grand_slam_that_moves_again_becomes_captures_and_moves_again() {
        let info = r#"{ "name": "Share", "capt_on": [2, 3], "capt_side": 1, "multicapt": -1,
                        "mustshare": true, "grandslam": 6, "stores": true }"#;
        let game = translate(&file(6, 4, info)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        assert_eq!(
            rules.grand_slam,
            mancala_rules::GrandSlam::CapturesAndMovesAgain,
            "{}",
            game.text
        );
        assert!(rules.has_extra_moves(), "{}", game.text);
        // Relay sowing's last lap is not where the engine gives the extra move: refused.
        let relay = r#"{ "name": "Share", "capt_on": [2, 3], "mlaps": 1, "grandslam": 6,
                         "stores": true }"#;
        assert_eq!(
            translate(&file(6, 4, relay)).unwrap_err().parameter,
            "grandslam"
        );
    }

    #[test]
    fn a_goal_of_rounds_won_becomes_a_match_of_rounds_won() {
        let info = r#"{ "name": "Won", "goal": 4, "goal_param": 5, "rounds": 2,
                        "round_starter": 1, "stores": true }"#;
        let game = translate(&file(6, 4, info)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        let rounds = rules.rounds.expect("a match of rounds");
        assert_eq!(rounds.wins_to_win, 5, "{}", game.text);
        assert_eq!(rounds.starter, mancala_rules::RoundStarter::Loser);
        // A round that ends without moves is won only with every counter by count.
        assert!(!rules.majority_ends, "{}", game.text);
        // Rounds that end at half of the counters end at a majority.
        let half = translate(&file(6, 4, &info.replace("\"rounds\": 2", "\"rounds\": 1"))).unwrap();
        assert!(
            definition::parse(&half.text).unwrap().majority_ends,
            "{}",
            half.text
        );
        // Rounds won by depriving the opponent.
        let deprive = translate(&file(6, 4, &info.replace("\"goal\": 4", "\"goal\": 9"))).unwrap();
        let rules = definition::parse(&deprive.text).unwrap();
        assert_eq!(rules.goal, mancala_rules::Goal::Deprive, "{}", deprive.text);
        assert_eq!(rules.wins_to_win(), 5, "{}", deprive.text);
        // Without rounds, with rounds that end at a count left, or with a fill: refused.
        let without = file(6, 4, r#"{ "name": "W", "goal": 4, "goal_param": 5 }"#);
        assert_eq!(translate(&without).unwrap_err().parameter, "goal");
        let counted = file(6, 4, &info.replace("\"rounds\": 2", "\"rounds\": 3"));
        assert_eq!(translate(&counted).unwrap_err().parameter, "rounds");
        let filled = info.replace("\"round_starter\"", "\"round_fill\": 1, \"round_starter\"");
        assert_eq!(
            translate(&file(6, 4, &filled)).unwrap_err().parameter,
            "round_fill"
        );
        // Counters gathered over rounds are another goal, still refused (its parameter first).
        let gathered = file(6, 4, &info.replace("\"goal\": 4", "\"goal\": 5"));
        assert_eq!(translate(&gathered).unwrap_err().parameter, "goal_param");
    }

    #[test]
    fn single_counters_capturing_across_before_sowing_take_facing() {
        let info = r#"{ "name": "Singles", "presowcapt": 2, "stores": true }"#;
        let game = translate(&file(6, 4, info)).unwrap();
        assert!(
            definition::parse(&game.text).unwrap().singles_take_facing,
            "{}",
            game.text
        );
        // Before each lap of a relay: refused.
        let laps = file(
            6,
            4,
            &info.replace("\"stores\"", "\"mlaps\": 1, \"stores\""),
        );
        assert_eq!(translate(&laps).unwrap_err().parameter, "presowcapt");
    }

    #[test]
    fn a_goal_of_territory_becomes_a_match_for_territory() {
        let info = r#"{ "name": "Land", "goal": 2, "goal_param": 10, "rounds": 2,
                        "round_starter": 1, "stores": true }"#;
        let game = translate(&file(6, 4, info)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        let rounds = rules.rounds.expect("a match of rounds");
        assert_eq!(rounds.territory_pits_to_win, 10, "{}", game.text);
        assert_eq!(rounds.starter, mancala_rules::RoundStarter::Loser);
        // MancalaGames ends such a round by moves, not by a count of counters.
        assert!(!rules.majority_ends, "{}", game.text);
        // Without rounds, with a pit drawn at random, or fewer pits to win than a row: refused.
        let without = file(6, 4, r#"{ "name": "L", "goal": 2, "goal_param": 10 }"#);
        assert_eq!(translate(&without).unwrap_err().parameter, "goal");
        let drawn = file(
            6,
            4,
            &info.replace("\"round_starter\"", "\"round_fill\": 11, \"round_starter\""),
        );
        assert_eq!(translate(&drawn).unwrap_err().parameter, "round_fill");
        let few = file(6, 4, &info.replace("10", "6"));
        assert_eq!(translate(&few).unwrap_err().parameter, "goal_param");
        // Rounds ended by the pick of the last counters: won early by W counters.
        let picked = info.replace("\"rounds\": 2", "\"rounds\": 3, \"pickextra\": 3");
        let game = translate(&file(6, 4, &picked)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        assert!(rules.majority_ends && rules.territory(), "{}", game.text);
        // The partly filled pit to the loser.
        let to_loser = info.replace("\"round_starter\"", "\"round_fill\": 12, \"round_starter\"");
        let game = translate(&file(6, 4, &to_loser)).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        assert!(rules.rounds.unwrap().partial_pit_to_loser, "{}", game.text);
    }

    #[test]
    fn an_end_on_a_cleared_row_becomes_the_end_it_is_without_passes() {
        let ends = |info: &str| {
            let game = translate(&file(6, 4, info)).map_err(|e| e.to_string())?;
            let rules = definition::parse(&game.text).unwrap();
            Ok::<_, String>((rules.own_end, rules.leftover))
        };
        // The mover's own row (1), with extra turns and the counters left to the last mover.
        let own = r#"{ "name": "Own", "end_cond": 1, "stores": true, "sow_stores": 1,
                       "unclaimed": 2 }"#;
        assert_eq!(
            ends(own),
            Ok((
                mancala_rules::OwnEnd::EitherRowEmpty,
                mancala_rules::Leftover::LastMover
            ))
        );
        // The opponent's (2) is the end on the player to move without counters, where no move
        // gives another.
        assert_eq!(
            ends(r#"{ "name": "Opp", "end_cond": 2 }"#).map(|(end, _)| end),
            Ok(mancala_rules::OwnEnd::MoverRowEmpty)
        );
        for (info, why) in [
            (
                r#"{ "name": "Opp Turns", "end_cond": 2, "stores": true, "sow_stores": 1 }"#,
                "extra turns",
            ),
            (
                r#"{ "name": "Passes", "end_cond": 1, "mustpass": true }"#,
                "with mustpass",
            ),
            (r#"{ "name": "Few", "end_cond": 3 }"#, "a count of counters"),
        ] {
            let refusal = translate(&file(6, 4, info)).unwrap_err();
            assert_eq!(refusal.parameter, "end_cond", "{refusal}");
            assert!(refusal.why.contains(why), "{refusal}");
        }
    }

    #[test]
    fn rounds_that_end_with_no_moves_become_a_match_of_rounds() {
        let dakon_like = file(
            7,
            7,
            r#"{ "name": "Rounds", "rounds": 2, "blocks": true, "round_fill": 2,
                 "round_starter": 3, "goal_param": 4, "stores": true, "sow_stores": 1 }"#,
        );
        let game = translate(&dakon_like).unwrap();
        let rules = definition::parse(&game.text).unwrap();
        let rounds = rules.rounds.expect("a match of rounds");
        assert_eq!(rounds.fill, mancala_rules::RoundFill::FromRight);
        assert_eq!(rounds.starter, mancala_rules::RoundStarter::LastMover);
        assert!(rounds.blocks);
        assert_eq!(rounds.pits_to_go_on, 4);
        assert!(!rounds.only_loser_refills);
        // Only the loser filling its row, from the board's left end (MancalaGames' order).
        let loser_only = file(
            7,
            5,
            r#"{ "name": "Loser Only", "rounds": 2, "blocks": true, "round_fill": 10,
                 "round_starter": 2, "stores": true, "sow_stores": 1 }"#,
        );
        let rules = definition::parse(&translate(&loser_only).unwrap().text).unwrap();
        let rounds = rules.rounds.expect("a match of rounds");
        assert!(rounds.only_loser_refills);
        assert_eq!(rounds.fill, mancala_rules::RoundFill::FromBoardLeft);
        // Other round ends, fills and blocks without rounds are refused by name.
        let half = file(6, 4, r#"{ "name": "Half", "rounds": 1, "round_fill": 1 }"#);
        let refusal = translate(&half).unwrap_err();
        assert_eq!(refusal.parameter, "rounds", "{refusal}");
        assert!(refusal.why.contains("half of the counters"), "{refusal}");
        let chosen = file(
            6,
            4,
            r#"{ "name": "Chosen", "rounds": 2, "round_fill": 6 }"#,
        );
        let refusal = translate(&chosen).unwrap_err();
        assert_eq!(refusal.parameter, "round_fill", "{refusal}");
        assert!(refusal.why.contains("players' choice"), "{refusal}");
        let blocks = file(6, 4, r#"{ "name": "Blocks", "blocks": true }"#);
        assert_eq!(translate(&blocks).unwrap_err().parameter, "blocks");
        // Counters left to nobody cannot fill the next round.
        let lost = file(
            6,
            4,
            r#"{ "name": "Lost", "rounds": 2, "round_fill": 1, "unclaimed": 1 }"#,
        );
        assert_eq!(translate(&lost).unwrap_err().parameter, "unclaimed");
    }

    #[test]
    fn children_become_child_rules() {
        let weg = file(
            6,
            4,
            r#"{ "name": "Wegs", "child_type": 4, "child_cvt": 4, "mlaps": 1, "stores": true }"#,
        );
        let rules = definition::parse(&translate(&weg).unwrap().text).unwrap();
        let children = rules.children.expect("children");
        assert_eq!(children.count, 4);
        assert_eq!(children.made_by, mancala_rules::ChildMaking::Count);
        assert_eq!(children.landing_takes, 2);
        // A weg's game without other captures has no end on too few counters.
        assert_eq!(rules.ends_below, 0);
        let qur = file(
            8,
            4,
            r#"{ "name": "Qurs", "child_type": 6, "child_cvt": 3, "child_rule": 2,
                 "crosscapt": 1, "capt_side": 1, "xcpickown": 1, "stores": true }"#,
        );
        let rules = definition::parse(&translate(&qur).unwrap().text).unwrap();
        let children = rules.children.expect("children");
        assert_eq!(children.made_by, mancala_rules::ChildMaking::FacingPair);
        assert_eq!(children.side, mancala_rules::CaptureSide::Own);
        assert_eq!(children.landing_takes, 0);
        // The end on too few counters starts from the child's count.
        assert_eq!(rules.ends_below, 2);
        // Bulls, children only in some pits, and children that hold the captures are refused.
        for (info, parameter, why) in [
            (
                r#""child_type": 5, "child_cvt": 4, "stores": true"#,
                "child_type",
                "bulls",
            ),
            (
                r#""child_type": 1, "child_cvt": 4, "child_locs": 5, "stores": true"#,
                "child_locs",
                "for one player only",
            ),
            (
                r#""child_type": 1, "child_cvt": 4, "child_locs": 11, "stores": true"#,
                "child_locs",
                "a fixed pit",
            ),
            (
                r#""child_type": 1, "child_cvt": 4"#,
                "child_type",
                "without stores",
            ),
        ] {
            let refused = file(6, 4, &format!(r#"{{ "name": "Kin", {info} }}"#));
            let refusal = translate(&refused).unwrap_err();
            assert_eq!(refusal.parameter, parameter, "{refusal}");
            assert!(refusal.why.contains(why), "{refusal}");
        }
    }

    #[test]
    fn places_for_children_become_barred_places_of_both_rows() {
        let children = |holes: u32, info: &str| {
            let kin = file(
                holes,
                4,
                &format!(
                    r#"{{ "name": "Kin", "child_type": 1, "child_cvt": 3, "stores": true, {info} }}"#
                ),
            );
            let rules = definition::parse(&translate(&kin).unwrap().text).unwrap();
            let c = rules.children.unwrap();
            (c.barred_places, c.apart)
        };
        use mancala_rules::ChildApart;
        // Only the end pits: the six places between them in a row of 8 are barred.
        assert_eq!(
            children(8, r#""child_locs": 1"#),
            (0b0111_1110, ChildApart::Anywhere)
        );
        // No ends: a row of 3 has its middle only (its parts: an end, the middle, an end).
        assert_eq!(
            children(3, r#""child_locs": 2"#),
            (0b101, ChildApart::Anywhere)
        );
        // Toguz Kumalak: children on the opponent's row, never at its ninth pit, never of one
        // letter; Toguz Xorgol: never at its first, never facing.
        assert_eq!(
            children(9, r#""child_locs": 8, "child_rule": 1"#),
            (1 << 8, ChildApart::SameLetter)
        );
        assert_eq!(
            children(9, r#""child_locs": 9, "child_rule": 1"#),
            (1, ChildApart::Facing)
        );
        // Without the rule that children are made in the opponent's row, those places would
        // be barred for one player only.
        let refusal = translate(&file(
            9,
            4,
            r#"{ "name": "Kin", "child_type": 1, "child_cvt": 3, "stores": true, "child_locs": 8 }"#,
        ))
        .unwrap_err();
        assert_eq!(refusal.parameter, "child_locs", "{refusal}");
    }

    #[test]
    fn a_first_counter_sown_back_into_its_pit_keeps_one_there() {
        let toguz = file(
            9,
            9,
            r#"{ "name": "T", "sow_start": true, "move_one": true }"#,
        );
        let rules = definition::parse(&translate(&toguz).unwrap().text).unwrap();
        assert!(rules.origin_keeps_one);
        // 162 counters, more than a signed byte.
        assert_eq!(rules.total(), 162);
        // Without move_one, a single counter needs a least move of two.
        let two = file(6, 4, r#"{ "name": "T", "sow_start": true, "min_move": 2 }"#);
        assert!(
            definition::parse(&translate(&two).unwrap().text)
                .unwrap()
                .origin_keeps_one
        );
        for (info, parameter) in [
            (r#""sow_start": true"#, "sow_start"),
            (r#""move_one": true"#, "move_one"),
            (
                r#""sow_start": true, "move_one": true, "mlaps": 1"#,
                "sow_start",
            ),
        ] {
            let refusal =
                translate(&file(6, 4, &format!(r#"{{ "name": "T", {info} }}"#))).unwrap_err();
            assert_eq!(refusal.parameter, parameter, "{refusal}");
        }
    }

    #[test]
    fn a_capture_two_out_becomes_a_capture_past_an_empty_pit() {
        let two_out = file(
            7,
            5,
            r#"{ "name": "Two Out", "capt_type": 2, "capt_dir": 1, "multicapt": -1,
                 "pickextra": 1, "mlaps": 2 }"#,
        );
        let rules = definition::parse(&translate(&two_out).unwrap().text).unwrap();
        assert!(rules.capture_past_empty && rules.capture_chain && rules.past_empty_takes_facing);
        // Other capture mechanisms and pick-ups are refused with what they are.
        let next = file(6, 4, r#"{ "name": "Next", "capt_type": 1, "capt_dir": 1 }"#);
        let refusal = translate(&next).unwrap_err();
        assert_eq!(refusal.parameter, "capt_type", "{refusal}");
        assert!(
            refusal.why.contains("the pit after the last one"),
            "{refusal}"
        );
        let pick = file(
            6,
            4,
            r#"{ "name": "Pick", "capt_on": [4], "pickextra": 1 }"#,
        );
        let refusal = translate(&pick).unwrap_err();
        assert_eq!(refusal.parameter, "pickextra", "{refusal}");
        // Two out against the sowing is not MancalaGames' rule either.
        let backwards = file(6, 4, r#"{ "name": "Back", "capt_type": 2, "capt_dir": 0 }"#);
        assert_eq!(translate(&backwards).unwrap_err().parameter, "capt_dir");
    }

    #[test]
    fn a_passive_capture_gives_the_movers_store_away_on_its_capture_side() {
        let passive = file(
            6,
            4,
            r#"{ "name": "Passive", "capt_type": 6, "capt_side": 1, "stores": true }"#,
        );
        let rules = definition::parse(&translate(&passive).unwrap().text).unwrap();
        assert!(rules.empty_landing_gives_store);
        assert_eq!(rules.capture_side, mancala_rules::CaptureSide::Opponent);
        // Beside a capture across, or judged where the capture starts: refused.
        for info in [
            r#"{ "name": "P", "capt_type": 6, "crosscapt": 1, "capt_side": 1 }"#,
            r#"{ "name": "P", "capt_type": 6, "capt_side": 3 }"#,
        ] {
            let refusal = translate(&file(6, 4, info)).unwrap_err();
            assert_eq!(refusal.parameter, "capt_type", "{refusal}");
        }
    }

    #[test]
    fn a_game_without_sides_moves_from_either_row_and_scores_only_what_is_taken() {
        let no_sides = file(
            5,
            2,
            r#"{ "name": "No Sides", "no_sides": true, "capt_on": [2], "stores": true }"#,
        );
        let rules = definition::parse(&translate(&no_sides).unwrap().text).unwrap();
        assert_eq!(rules.move_choice, mancala_rules::MoveChoice::EitherRow);
        assert_eq!(rules.own_end, mancala_rules::OwnEnd::EmptyBoard);
        assert_eq!(rules.leftover, mancala_rules::Leftover::Nobody);
        // Captures on one side are refused by name; a long row's moves are every pit's.
        let one_side = file(
            5,
            2,
            r#"{ "name": "One Side", "no_sides": true, "capt_on": [2], "capt_side": 1 }"#,
        );
        assert_eq!(translate(&one_side).unwrap_err().parameter, "capt_side");
        let long = file(
            12,
            2,
            r#"{ "name": "Long", "no_sides": true, "capt_on": [2] }"#,
        );
        let rules = definition::parse(&translate(&long).unwrap().text).unwrap();
        assert_eq!(rules.move_choice, mancala_rules::MoveChoice::EitherRow);
        // Pits whose direction the player chooses, of either row; not children, nor directions
        // chosen by the first move.
        let chosen = file(
            5,
            2,
            r#"{ "name": "Chosen", "no_sides": true, "capt_on": [2], "udir_holes": [2] }"#,
        );
        let rules = definition::parse(&translate(&chosen).unwrap().text).unwrap();
        assert_eq!(rules.chosen_direction_pits, 1 << 2);
        assert_eq!(rules.most_moves(), 12);
        let kin = file(
            5,
            2,
            r#"{ "name": "Kin", "no_sides": true, "capt_on": [2], "child_type": 1, "stores": true,
                 "child_cvt": 4 }"#,
        );
        assert_eq!(translate(&kin).unwrap_err().parameter, "child_type");
        let first = file(
            4,
            2,
            r#"{ "name": "First", "no_sides": true, "capt_on": [2], "sow_direct": 2 }"#,
        );
        assert_eq!(translate(&first).unwrap_err().parameter, "no_sides");
    }

    #[test]
    fn pits_whose_direction_the_player_chooses_become_chosen_direction_pits() {
        let all = file(
            5,
            4,
            r#"{ "name": "All Ways", "udir_holes": [0, 1, 2, 3, 4], "capt_on": [2] }"#,
        );
        let rules = definition::parse(&translate(&all).unwrap().text).unwrap();
        assert_eq!(rules.chosen_direction_pits, 0b11111);
        // A split row of an odd length: its middle pit chosen, the halves as in an even row.
        let split = file(
            5,
            4,
            r#"{ "name": "Split", "sow_direct": 0, "udir_holes": [2], "min_move": 2 }"#,
        );
        let rules = definition::parse(&translate(&split).unwrap().text).unwrap();
        assert_eq!(rules.chosen_direction_pits, 0b100);
        assert_eq!(
            rules.direction_rule,
            mancala_rules::DirectionRule::RowHalves
        );
        // Split sowing with a least move of one forbids undoing a single counter's crossing,
        // in a row of any length; with passes (where MancalaGames applies it to the passer's
        // opponent's next move as well) it is refused by name.
        for holes in [5, 6] {
            let undo = file(
                holes,
                4,
                r#"{ "name": "Undo", "sow_direct": 0, "udir_holes": [2] }"#,
            );
            let rules = definition::parse(&translate(&undo).unwrap().text).unwrap();
            assert!(rules.no_crossing_back);
            let passes = file(
                holes,
                4,
                r#"{ "name": "Undo", "sow_direct": 0, "udir_holes": [2], "mustpass": true }"#,
            );
            assert_eq!(translate(&passes).unwrap_err().parameter, "sow_direct");
        }
        // No middle pit chosen; sowing into stores.
        let odd = file(5, 4, r#"{ "name": "Odd", "sow_direct": 0, "min_move": 2 }"#);
        assert_eq!(translate(&odd).unwrap_err().parameter, "sow_direct");
        let stores = file(
            5,
            4,
            r#"{ "name": "Stores", "udir_holes": [1], "sow_stores": 1, "stores": true }"#,
        );
        assert_eq!(translate(&stores).unwrap_err().parameter, "sow_stores");
    }

    #[test]
    fn start_patterns_fill_as_mancalagames_fills_them_for_south() {
        // MancalaGames' own fills, South to move (its `fill_patterns`, run for these sizes).
        for (pattern, holes, seeds, expected) in [
            (
                1,
                12,
                4,
                &[
                    0, 0, 4, 0, 4, 4, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 0, 0, 4, 0, 4, 0,
                ][..],
            ),
            (2, 6, 4, &[0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4]),
            (2, 7, 3, &[0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3]),
            (3, 6, 4, &[0, 4, 0, 0, 0, 4, 0, 4, 0, 1, 0, 4]),
            (3, 7, 3, &[0, 3, 0, 3, 0, 3, 0, 3, 0, 1, 0, 3, 0, 3]),
            (4, 6, 4, &[0, 4, 4, 0, 4, 4, 0, 4, 4, 0, 4, 4]),
            (4, 7, 3, &[0, 3, 3, 0, 3, 3, 0, 0, 3, 3, 0, 3, 3, 0]),
            (5, 6, 4, &[4, 4, 4, 4, 0, 0, 4, 4, 4, 4, 0, 0]),
            (5, 7, 3, &[3, 3, 3, 3, 3, 0, 0, 3, 3, 3, 3, 3, 0, 0]),
            (7, 6, 4, &[1, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 3]),
            (8, 5, 4, &[4, 4, 4, 4, 5, 4, 4, 4, 4, 5]),
        ] {
            assert_eq!(
                start_pattern(pattern, holes, seeds).unwrap(),
                expected,
                "pattern {pattern}, {holes} x {seeds}"
            );
        }
        assert_eq!(
            start_pattern(7, 7, 4).unwrap_err().parameter,
            "start_pattern"
        );
        assert_eq!(
            start_pattern(5, 3, 4).unwrap_err().parameter,
            "start_pattern"
        );
    }

    #[test]
    fn names_keep_accented_letters_without_their_accents() {
        assert_eq!(game_name("Sokusowó"), "sokusowo");
        assert_eq!(game_name("Dépouiller"), "depouiller");
        assert_eq!(game_name("Sàn Yáo"), "san-yao");
        assert_eq!(game_name("Adji Kui I"), "adji-kui-i");
    }

    #[test]
    fn every_parameter_that_stops_a_file_is_named() {
        // Points over rounds is a goal the engine lacks; with the goal set back, the split
        // direction of an odd row stops the file too.
        let both = file(5, 4, r#"{ "name": "Both", "goal": 7, "sow_direct": 0 }"#);
        assert!(translate(&both).unwrap_err().parameter == "goal");
        let refusal = translate_naming_every_blocker(&both).unwrap_err();
        assert_eq!(refusal.parameter, "goal, sow_direct", "{refusal}");
        assert!(
            refusal.why.contains("a goal of points over rounds"),
            "{refusal}"
        );
        assert!(refusal.why.contains("odd row"), "{refusal}");
        // One blocker alone is named as translate names it.
        let one = file(6, 4, r#"{ "name": "One", "goal": 7 }"#);
        assert_eq!(
            translate_naming_every_blocker(&one).unwrap_err(),
            translate(&one).unwrap_err()
        );
    }

    #[test]
    fn openings_short_chains_and_a_sweep_to_the_starter_become_their_rules() {
        use mancala_rules::FirstMove;
        // Captures inhibited for two turns, chains of at most two pits.
        let quiet = file(
            6,
            6,
            r#"{ "name": "Quiet", "evens": true, "mlaps": 1, "multicapt": 2,
                 "nocaptmoves": 2, "capt_side": 0, "stores": true }"#,
        );
        let rules = definition::parse(&translate(&quiet).unwrap().text).unwrap();
        assert_eq!(rules.no_capture_moves, 2);
        assert!(rules.capture_chain && !rules.chain_stops_at_origin);
        assert_eq!(rules.chain_most, 2);
        // Turns and moves differ where the last counter in the store gives another move.
        let stored = file(
            6,
            4,
            r#"{ "name": "Stored", "nocaptmoves": 1, "sow_stores": 1, "stores": true,
                 "capt_on": [4] }"#,
        );
        assert_eq!(translate(&stored).unwrap_err().parameter, "nocaptmoves");
        // Plus one, minus one; each player's first turn in the game's direction.
        let plus = file(
            6,
            4,
            r#"{ "name": "Plus", "prescribed": 4, "capt_on": [4], "stores": true }"#,
        );
        let rules = definition::parse(&translate(&plus).unwrap().text).unwrap();
        assert_eq!(rules.first_move, FirstMove::OneFromEveryOther);
        let firsts = file(
            6,
            4,
            r#"{ "name": "Firsts", "prescribed": 6, "udir_holes": [0, 1, 2, 3, 4, 5],
                 "capt_on": [4], "stores": true }"#,
        );
        let rules = definition::parse(&translate(&firsts).unwrap().text).unwrap();
        assert_eq!(rules.fixed_direction_moves, 2);
        // Without chosen directions the prescribed opening changes nothing.
        let plain = file(6, 4, r#"{ "name": "Plain", "prescribed": 6 }"#);
        let rules = definition::parse(&translate(&plain).unwrap().text).unwrap();
        assert_eq!(rules.opening_moves(), 0);
        let other = file(6, 4, r#"{ "name": "Other", "prescribed": 3 }"#);
        let refusal = translate(&other).unwrap_err();
        assert_eq!(refusal.parameter, "prescribed");
        assert!(refusal.why.contains("opponent's row"), "{refusal}");
        // The last counters, twice a pit's count, to the round's starter.
        let swept = file(
            6,
            3,
            r#"{ "name": "Swept", "capt_on": [4], "pickextra": 4, "rounds": 2,
                 "stores": true, "mustpass": true }"#,
        );
        let rules = definition::parse(&translate(&swept).unwrap().text).unwrap();
        assert_eq!(rules.sweep_at_most, 6);
        assert!(rules.sweep_to_round_starter);
    }

    #[test]
    fn pits_closed_past_blocks_become_closing_pits() {
        // Relay laps, pits closing at 3 but for each row's right-hand pit, to immobilize.
        let closing = file(
            6,
            2,
            r#"{ "name": "Closing", "blocks": true, "goal": 10, "mlaps": 1, "sow_rule": 2,
                 "sow_param": 3, "min_move": 2 }"#,
        );
        let rules = definition::parse(&translate(&closing).unwrap().text).unwrap();
        assert_eq!(rules.closes_pits_at, 3);
        assert!(rules.closing_spares_right_pits);
        assert_eq!(rules.min_move, 2);
        let every = closing.replace("\"sow_rule\": 2", "\"sow_rule\": 1");
        let rules = definition::parse(&translate(&every).unwrap().text).unwrap();
        assert!(!rules.closing_spares_right_pits);
        // A single lap's closed pit (its counters out of the game), a closing count of one,
        // and closing in rounds are refused by name.
        let single = closing.replace("\"mlaps\": 1", "\"mlaps\": 0");
        let refusal = translate(&single).unwrap_err();
        assert_eq!(refusal.parameter, "sow_rule");
        assert!(refusal.why.contains("mlaps 1"), "{refusal}");
        let one = closing.replace("\"sow_param\": 3", "\"sow_param\": 1");
        assert_eq!(translate(&one).unwrap_err().parameter, "sow_param");
        let rounds = closing.replace("\"min_move\": 2", "\"rounds\": 2");
        assert_eq!(translate(&rounds).unwrap_err().parameter, "sow_rule");
        // Other sowing rules' parameters are still refused.
        let other = file(
            6,
            4,
            r#"{ "name": "Other", "sow_rule": 7, "sow_param": 5 }"#,
        );
        assert!(
            translate(&other)
                .unwrap_err()
                .parameter
                .contains("sow_param")
        );
    }

    #[test]
    fn a_capture_marked_by_the_last_counter_with_every_count_picked_is_had() {
        let kara = file(
            6,
            7,
            r#"{ "name": "Marked", "capt_type": 5, "capt_on": [2, 4, 6], "capt_side": 1,
                 "pickextra": 2, "stores": true }"#,
        );
        let rules = definition::parse(&translate(&kara).unwrap().text).unwrap();
        assert!(rules.capture_every_count);
        assert_eq!(rules.capture_side, mancala_rules::CaptureSide::Opponent);
        // The mark alone (it takes nothing), or the pick after another capture, is refused.
        let mark = kara.replace("\"pickextra\": 2, ", "");
        assert_eq!(translate(&mark).unwrap_err().parameter, "capt_type");
        let pick = kara.replace("\"capt_type\": 5, ", "");
        assert_eq!(translate(&pick).unwrap_err().parameter, "pickextra");
    }

    #[test]
    fn a_move_restriction_goes_with_the_feeding_rule() {
        // MancalaGames filters by the restriction, then by feeding: so does the engine.
        let both = file(
            6,
            4,
            r#"{ "name": "Both", "allow_rule": 3, "mustshare": true, "capt_on": [2, 3],
                 "stores": true }"#,
        );
        let rules = definition::parse(&translate(&both).unwrap().text).unwrap();
        assert_eq!(
            rules.move_filter,
            mancala_rules::MoveFilter::CountOnlyIfAll(1)
        );
        assert!(rules.must_feed);
    }

    #[test]
    fn a_cross_capture_from_either_row_may_take_the_last_counter_too() {
        let both = file(
            6,
            4,
            r#"{ "name": "Both", "crosscapt": 1, "capt_side": 0, "xcpickown": 1, "stores": true }"#,
        );
        let rules = definition::parse(&translate(&both).unwrap().text).unwrap();
        assert!(rules.empty_either_row && rules.capture_takes_own && !rules.takes_own_alone);
        // Taken alone, from either row, is not a rule the engine has.
        let alone = both.replace("\"xcpickown\": 1", "\"xcpickown\": 2");
        assert_eq!(translate(&alone).unwrap_err().parameter, "capt_side");
    }

    #[test]
    fn another_class_or_no_json_is_refused() {
        let other = file(6, 4, "{}").replace("\"Mancala\"", "\"ZigZag\"");
        assert_eq!(translate(&other).unwrap_err().parameter, "game_class");
        // A ring of each row (NorthSouthCycle) is read: each player sows round its own row.
        let rows = file(
            6,
            4,
            r#"{ "name": "Rows", "sow_stores": 1, "stores": true }"#,
        )
        .replace("\"Mancala\"", "\"NorthSouthCycle\"");
        let rules = definition::parse(&translate(&rows).unwrap().text).unwrap();
        assert!(rules.own_row_ring && rules.sow_own_store);
        assert_eq!(translate("not json").unwrap_err().parameter, "file");
    }
}
