//! The board in a real browser: headless Chromium (Debian's package) plays whole games of every
//! game through the page, by clicks, checking the board it draws against the game replayed
//! independently with the rules library after every move, and saves screenshots at desktop and
//! phone sizes in `target/board-screenshots/`.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use mancala_rules::{Game, LastFourRule, Move, Position, Side, Variant};

use common::BoardServer;
use common::chromium::{Chromium, Page, available};
use mancala_testkit::send_signal;

const LONG: Duration = Duration::from_secs(30);

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/board-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Headless Chromium and a board server with the default engine, or `None` (the test skips,
/// as [`available`] says) where there is no Chromium.
fn browser_and_board() -> Option<(Chromium, BoardServer)> {
    available().then(|| (Chromium::start(), BoardServer::start(&[])))
}

fn settled(page: &mut Page) {
    page.wait_for(
        "['idle','over'].includes(document.body.dataset.state) && \
         document.querySelectorAll('.pit').length > 0",
        LONG,
        "the page settles",
    );
}

/// The moves shown on the page.
fn moves(page: &mut Page) -> Vec<Move> {
    let text = page.text("document.getElementById('moves').dataset.moves");
    text.split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

/// Checks the board as drawn (pit counts, captured totals, the position string, whether the
/// game is over) against the game replayed with the rules library from `base`.
fn check_board(page: &mut Page, variant: Variant, base: Position) {
    let played = moves(page);
    let mut game = Game::new(base, LastFourRule::default());
    game.play_all(&played)
        .unwrap_or_else(|e| panic!("{variant}: the page's moves {played:?} are not legal: {e:?}"));
    let pos = game.position();
    let pits: Vec<u32> = serde_json::from_value(page.eval(
        "[...document.querySelectorAll('.pit')].sort((a, b) => a.dataset.pit - b.dataset.pit)\
         .map(p => Number(p.dataset.count))",
    ))
    .unwrap();
    let expected: Vec<u32> = pos.pits().iter().map(|&c| c as u32).collect();
    assert_eq!(pits, expected, "{variant}: the drawn pits after {played:?}");
    // Children are ringed in their owner's colour.
    let children: Vec<String> = serde_json::from_value(page.eval(
        "[...document.querySelectorAll('.pit')].sort((a, b) => a.dataset.pit - b.dataset.pit)\
         .map(p => p.classList.contains('child-south') ? 'S' \
                   : p.classList.contains('child-north') ? 'N' : '')",
    ))
    .unwrap();
    let expected: Vec<String> = (0..pos.pits().len())
        .map(|pit| {
            pos.child_owner(pit)
                .map_or(String::new(), |s| s.letter().to_string())
        })
        .collect();
    assert_eq!(
        children, expected,
        "{variant}: the drawn children after {played:?}"
    );
    let captured = [
        page.text("document.getElementById('south-store').dataset.captured"),
        page.text("document.getElementById('north-store').dataset.captured"),
    ];
    assert_eq!(
        captured,
        [
            pos.captured(Side::South).to_string(),
            pos.captured(Side::North).to_string()
        ],
        "{variant}"
    );
    assert_eq!(drawn_position(page), pos.to_string(), "{variant}");
    // The field shows it too, unless it holds text typed and not (yet) loaded.
    if page
        .text("document.getElementById('fen').dataset.edited")
        .is_empty()
    {
        assert_eq!(position_string(page), pos.to_string(), "{variant}");
    }
    let over = page.text("document.body.dataset.state") == "over";
    assert_eq!(over, game.is_over(), "{variant} after {played:?}");
    if over {
        // The result in words, for the person playing South (or both sides, engine vs engine):
        // the final totals and the rule that ended the game.
        let [south, north] = game.score();
        let result = page.text("document.getElementById('result').textContent");
        let human = page.text("document.body.dataset.human");
        let (mine, theirs) = if human == "N" {
            (north, south)
        } else {
            (south, north)
        };
        let words = if south == north {
            format!("Draw {south}–{north}")
        } else if human.is_empty() {
            let winner = if south > north { "South" } else { "North" };
            format!("{winner} won {}–{}", south.max(north), south.min(north))
        } else if mine > theirs {
            format!("You won {mine}–{theirs}")
        } else {
            format!("You lost {mine}–{theirs}")
        };
        assert!(
            result.starts_with(&format!("{words} (")),
            "{variant}: '{result}', expected '{words} (…)'"
        );
    }
}

/// Plays a game through the page (the person's moves by clicks on legal pits, or Pass; the
/// engine's answers at 50 ms), checking the board after every move, until it ends or `plies`
/// moves are played. Returns whether it ended.
fn play(page: &mut Page, variant: Variant, base: Position, plies: usize) -> bool {
    loop {
        settled(page);
        check_board(page, variant, base);
        if page.text("document.body.dataset.state") == "over" {
            return true;
        }
        let before = moves(page).len();
        if before >= plies {
            return false;
        }
        if page.eval("!!document.getElementById('pass')") == serde_json::Value::Bool(true) {
            page.click("#pass");
        } else {
            page.click(".pit.legal");
            // A pit whose direction the mover chooses asks which way: the first offered.
            if page.eval("!!document.querySelector('.choose-direction')")
                == serde_json::Value::Bool(true)
            {
                page.click(".choose-direction");
            }
        }
        page.wait_for(
            &format!(
                "document.getElementById('moves').dataset.moves.split(' ')\
                 .filter(m => m).length > {before}"
            ),
            LONG,
            "the click plays a move",
        );
    }
}

/// The board in a new tab, with reduced motion (whole games are played without watching each
/// move sown; `a_move_is_shown_counter_by_counter` watches).
fn open(chromium: &Chromium, server: &BoardServer, width: u32, height: u32, mobile: bool) -> Page {
    let mut page = chromium.page(width, height, mobile);
    page.reduce_motion();
    page.navigate(&server.url());
    settled(&mut page);
    page.choose("movetime", "50");
    page
}

fn switch_to(page: &mut Page, variant: Variant) {
    page.choose("variant", variant.name());
    // Two games may share a board (and the shape of their position strings): the new game's
    // start position, with no move played, says the switch is done.
    page.wait_for(
        &format!(
            "document.getElementById('fen').value === '{}' && \
             document.getElementById('moves').dataset.moves === ''",
            Position::start(variant)
        ),
        LONG,
        "the game switches",
    );
    settled(page);
}

#[test]
fn whole_games_through_the_page_in_every_game() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1100, 900, false);
    for variant in Variant::ALL {
        switch_to(&mut page, variant);
        assert!(
            play(&mut page, variant, Position::start(variant), 600),
            "{variant}: the game did not end"
        );
        page.screenshot(&screenshots().join(format!("{variant}-desktop.png")));
    }
}

#[test]
fn the_page_fits_a_phone() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 390, 844, true);
    for variant in Variant::ALL {
        switch_to(&mut page, variant);
        assert_eq!(
            page.eval("document.documentElement.scrollWidth <= window.innerWidth"),
            serde_json::Value::Bool(true),
            "{variant}: the page is wider than the phone"
        );
        // Every pit is a touch target of at least 40 px (long rows stand the board upright).
        let smallest = page.eval(
            "Math.min(...[...document.querySelectorAll('.pit')].map(p => \
             Math.min(p.getBoundingClientRect().width, p.getBoundingClientRect().height)))",
        );
        assert!(
            smallest.as_f64().unwrap() >= 40.0,
            "{variant}: a pit of {smallest} px"
        );
        // Whose turn it is shows on the board: the row of the side to move.
        assert_eq!(
            page.eval(
                "document.querySelectorAll('.pit.to-move').length === \
                 document.querySelectorAll('.pit').length / 2"
            ),
            serde_json::Value::Bool(true),
            "{variant}"
        );
        play(&mut page, variant, Position::start(variant), 6);
        page.screenshot(&screenshots().join(format!("{variant}-phone.png")));
    }
}

/// A game that is not built in, of a board shape none of them has (2x5, stores sown, a chain of
/// 2s and 3s on the opponent's row, clockwise): the page learns and draws it from the engine.
const FILE_GAME: &str = "name = \"five-pit-test\"\ntitle = \"Five pits (test)\"\n\
                         pits-per-row = 5\nstart = 3\ndirection = \"clockwise\"\n\
                         capture-counts = [2, 3]\ncapture-side = \"opponent\"\n\
                         capture-chain = true\ngame-ends = \"row-empty\"\n\
                         leftover = \"row-owner\"\nno-progress-limit = 60\n";

#[test]
fn a_game_of_a_file_is_offered_drawn_and_played() {
    if !available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("board-game-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("five.toml");
    std::fs::write(&file, FILE_GAME).unwrap();
    let variant = mancala_rules::definition::register(FILE_GAME).unwrap();
    let chromium = Chromium::start();
    let server = BoardServer::start(&["--game", file.to_str().unwrap()]);
    let mut page = open(&chromium, &server, 1100, 900, false);
    switch_to(&mut page, variant);
    assert_eq!(
        page.eval("document.querySelectorAll('.pit').length"),
        serde_json::json!(10)
    );
    assert!(
        play(&mut page, variant, Position::start(variant), 400),
        "{variant}: the game did not end"
    );
    page.screenshot(&screenshots().join("five-pit-test-desktop.png"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pit_whose_direction_the_player_chooses_asks_which_way() {
    if !available() {
        return;
    }
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/catalogue/mbangbi.toml");
    let variant =
        mancala_rules::definition::register(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let chromium = Chromium::start();
    let server = BoardServer::start(&["--game", file.to_str().unwrap()]);
    let mut page = open(&chromium, &server, 1100, 900, false);
    switch_to(&mut page, variant);
    // Every pit is offered; a click on one plays nothing yet, and asks which way it sows.
    page.click(".pit.legal[data-move='C']");
    page.wait_for(
        "document.querySelectorAll('.choose-direction').length === 2",
        LONG,
        "the page asks which way",
    );
    assert!(
        moves(&mut page).is_empty(),
        "a move was played without its direction"
    );
    assert_eq!(
        page.eval("[...document.querySelectorAll('.choose-direction')].map(b => b.dataset.move)"),
        serde_json::json!(["C<", "C>"])
    );
    assert!(
        page.text("document.getElementById('turn').textContent")
            .contains("which way does C sow"),
    );
    page.screenshot(&screenshots().join("mbangbi-choose-direction-desktop.png"));
    // The answer plays that move: clockwise from `C` sows `B A` and on into North's row.
    page.click(".choose-direction[data-move='C<']");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.startsWith('C<')",
        LONG,
        "the chosen move is played",
    );
    settled(&mut page);
    check_board(&mut page, variant, Position::start(variant));
    // By keys: a pit's letter asks, `>` answers counter-clockwise.
    page.wait_for(
        "document.querySelectorAll('#moves [data-ply]').length >= 2 || \
         document.getElementById('moves').dataset.moves.split(' ').length >= 2",
        LONG,
        "the engine answers",
    );
    settled(&mut page);
    let letter = page.text("document.querySelector('.pit.legal.south').dataset.move");
    let key = |page: &mut Page, key: &str| {
        page.eval(&format!(
            "window.dispatchEvent(new KeyboardEvent('keydown', {{key: {key:?}}}))"
        ));
    };
    key(&mut page, &letter);
    page.wait_for(
        "document.querySelectorAll('.choose-direction').length === 2",
        LONG,
        "the key asks which way",
    );
    key(&mut page, ">");
    page.wait_for(
        &format!("document.getElementById('moves').dataset.moves.split(' ').includes('{letter}>')"),
        LONG,
        "the key plays the move counter-clockwise",
    );
    settled(&mut page);
    check_board(&mut page, variant, Position::start(variant));
    // And the game goes on by clicks, each direction asked for and answered.
    play(&mut page, variant, Position::start(variant), 30);
}

/// A catalogue game (`tests/data/catalogue/<file>`), registered here, and Chromium and a board
/// server that offers it.
fn catalogue_board(file: &str) -> (Variant, Chromium, BoardServer) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/catalogue")
        .join(file);
    let variant =
        mancala_rules::definition::register(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let chromium = Chromium::start();
    let server = BoardServer::start(&["--game", path.to_str().unwrap()]);
    (variant, chromium, server)
}

/// Loads the position string `text` through the position field and waits until it is shown.
fn load_and_wait(page: &mut Page, text: &str) {
    page.type_into("fen", text);
    page.click("#load");
    page.wait_for(
        &format!(
            "document.getElementById('fen').value === '{text}' && \
             document.body.dataset.state === 'idle'"
        ),
        LONG,
        "the position loads",
    );
}

/// The two sizes a catalogue game is looked at: a phone's and a desktop's (width, height,
/// mobile, the screenshots' name).
const BOTH_WIDTHS: [(u32, u32, bool, &str); 2] =
    [(390, 844, true, "phone"), (1100, 900, false, "desktop")];

/// A tab of the board at `size`, switched to `variant`, with `loaded` typed into the position
/// field (else the game's start), and checked pit by pit against `base`, the rules' position.
fn showing(
    chromium: &Chromium,
    server: &BoardServer,
    (width, height, mobile): (u32, u32, bool),
    variant: Variant,
    loaded: Option<&str>,
    base: Position,
) -> Page {
    let mut page = open(chromium, server, width, height, mobile);
    switch_to(&mut page, variant);
    if let Some(text) = loaded {
        load_and_wait(&mut page, text);
    }
    check_board(&mut page, variant, base);
    page
}

#[test]
fn a_match_of_rounds_shows_its_blocked_pits_and_plays_on() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("rio-kadalis.toml");
    // A later round: South could fill only four pits, its two leftmost are blocked.
    let later = "x-x-4-4-4-4-4-4-4-4-4-4-0-8-S-N";
    let base = Position::from_position_string(variant, later).unwrap();
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            Some(later),
            base,
        );
        assert_eq!(
            page.eval("[...document.querySelectorAll('.pit.blocked')].map(p => p.dataset.move)"),
            serde_json::json!(["A", "B"])
        );
        assert_eq!(
            page.text("document.querySelector('.pit.blocked').getAttribute('aria-label')"),
            "pit A, blocked for this round"
        );
        // A blocked pit is not offered, and a click on it plays nothing.
        page.click(".pit.blocked");
        settled(&mut page);
        assert!(
            moves(&mut page).is_empty(),
            "{name}: a blocked pit was played"
        );
        assert_eq!(
            page.eval("document.getElementById('owned-key').hidden"),
            serde_json::json!(true),
            "{name}: no key to owned pits where pits never change hands"
        );
        page.screenshot(&screenshots().join(format!("rio-kadalis-blocked-{name}.png")));
        if !mobile {
            // Played on by clicks, the board stays the rules' board, rounds and all.
            play(&mut page, variant, base, 60);
        }
    }
}

#[test]
fn a_match_of_rounds_won_shows_the_rounds_won_and_its_winner() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("sadeqa.toml");
    // South has won four rounds of five; its `E` takes North's last counter, the fifth.
    let last = "0-1-1-2-1-0-0-1-1-0-0-0-0-0-1-0-0-0-0-0-15-10-S-S-4:0";
    let base = Position::from_position_string(variant, last).unwrap();
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            Some(last),
            base,
        );
        // The rounds each has won, beside each player's name.
        assert_eq!(
            page.eval(
                "[...document.querySelectorAll('.player .name')].map(e => e.textContent).sort()"
            ),
            serde_json::json!([
                "Engine · 50 ms · North · 0 rounds won",
                "You · South · 4 rounds won"
            ]),
            "{name}"
        );
        // Sadeqa has no stores: its captures are counted beside the board.
        assert_eq!(
            page.text("document.querySelector('#south-store .what').textContent"),
            "captured",
            "{name}"
        );
        page.screenshot(&screenshots().join(format!("sadeqa-rounds-won-{name}.png")));
        if !mobile {
            page.click(".pit.legal[data-move='E']");
            page.wait_for(
                "document.body.dataset.state === 'over'",
                LONG,
                "the fifth round won ends the match",
            );
            check_board(&mut page, variant, base);
            let result = page.text("document.getElementById('result').textContent");
            assert!(
                result.starts_with("You won 33–0") || result.starts_with("South won 33–0"),
                "{result}"
            );
        }
    }
    // Huroy keeps its captures in stores (the engine lists it `with stores`).
    let (variant, chromium, server) = catalogue_board("huroy.toml");
    let mut page = open(&chromium, &server, 1100, 900, false);
    switch_to(&mut page, variant);
    settled(&mut page);
    assert_eq!(
        page.text("document.querySelector('#south-store .what').textContent"),
        "store"
    );
    assert_eq!(
        page.text("document.getElementById('player-bottom').querySelector('.name').textContent"),
        "You · South · 0 rounds won"
    );
}

#[test]
fn the_first_move_asks_which_way_and_later_moves_do_not() {
    if !available() {
        return;
    }
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/catalogue/sowopdirs.toml");
    let variant =
        mancala_rules::definition::register(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let chromium = Chromium::start();
    let server = BoardServer::start(&["--game", file.to_str().unwrap()]);
    let mut page = open(&chromium, &server, 1100, 900, false);
    switch_to(&mut page, variant);
    // The game's first move chooses its way: the page asks.
    page.click(".pit.legal[data-move='B']");
    page.wait_for(
        "document.querySelectorAll('.choose-direction').length === 2",
        LONG,
        "the page asks which way",
    );
    page.click(".choose-direction[data-move='B<']");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.startsWith('B<')",
        LONG,
        "the chosen move is played",
    );
    settled(&mut page);
    assert!(
        position_string(&mut page).ends_with("-<"),
        "South now sows clockwise"
    );
    // From then on the moves name no way, and the game plays on by clicks.
    play(&mut page, variant, Position::start(variant), 40);
    assert!(
        moves(&mut page)
            .iter()
            .skip(1)
            .all(|m| m.chosen_direction().is_none()),
        "a later move named a way"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.choose-direction').length"),
        serde_json::json!(0)
    );
}

#[test]
fn a_match_for_territory_shows_the_pits_that_changed_hands() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("namnam.toml");
    // A later round: North won seven pits, its row and South's `A`; South is to move.
    let later = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-S-NSSSSSNNNNNN";
    let base = Position::from_position_string(variant, later).unwrap();
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            Some(later),
            base,
        );
        assert_eq!(
            page.eval(
                "[...document.querySelectorAll('.pit.changed-hands')].map(p => p.dataset.move)"
            ),
            serde_json::json!(["A"])
        );
        assert!(
            page.text("document.querySelector('.pit.changed-hands').getAttribute('aria-label')")
                .contains("owned by"),
            "the pit says who owns it"
        );
        // South's row but for `A` is South's to play; `A` is not offered.
        assert_eq!(
            page.eval(
                "[...document.querySelectorAll('.pit.legal')].map(p => p.dataset.move).sort()"
            ),
            serde_json::json!(["B", "C", "D", "E", "F"])
        );
        assert_eq!(
            page.eval("document.getElementById('owned-key').hidden"),
            serde_json::json!(false),
            "the legend explains the ring"
        );
        page.click(".pit.changed-hands");
        settled(&mut page);
        assert!(
            moves(&mut page).is_empty(),
            "{name}: a pit North owns was played for South"
        );
        page.screenshot(&screenshots().join(format!("namnam-territory-{name}.png")));
        if !mobile {
            // Played on by clicks, the board stays the rules' board, owners and all.
            play(&mut page, variant, base, 60);
        }
    }
}

#[test]
fn a_first_move_that_is_not_sown_is_shown_counter_by_counter() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("gabata.toml");
    // Gabata's first move keeps its pit's counters and moves one counter on from every other
    // pit (`B>C`, …): told so, animated so, and the board is then the rules' board.
    let base = Position::start(variant);
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            None,
            base,
        );
        page.click(".pit[data-move='C']");
        settled(&mut page);
        let played = moves(&mut page);
        assert_eq!(
            played.first().map(|m| m.to_string()),
            Some("C".to_string()),
            "{name}"
        );
        check_board(&mut page, variant, base);
        page.screenshot(&screenshots().join(format!("gabata-first-move-{name}.png")));
        if !mobile {
            play(&mut page, variant, base, 20);
        }
    }
}

#[test]
fn pits_that_close_are_drawn_closed_and_never_played() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("deka.toml");
    // South's `F` makes North's `a` hold 3: `a` closes, and its counters are sown on.
    let before = "2-2-2-2-2-1-2-2-2-2-2-2-0-0-S-1";
    let base = Position::from_position_string(variant, before).unwrap();
    let closed =
        |page: &mut Page| -> Vec<String> {
            serde_json::from_value(page.eval(
                "[...document.querySelectorAll('.pit.blocked')].map(p => p.dataset.move).sort()",
            ))
            .unwrap()
        };
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            Some(before),
            base,
        );
        assert!(closed(&mut page).is_empty(), "{name}: nothing closed yet");
        // The position holds 23 of Deka's 24 counters: one has left the game.
        let left =
            |page: &mut Page| page.text("document.getElementById('out-of-game').textContent");
        assert_eq!(left(&mut page), "1", "{name}");
        page.click(".pit[data-move='F']");
        settled(&mut page);
        let played = moves(&mut page);
        assert_eq!(played.first().map(|m| m.to_string()), Some("F".to_string()));
        check_board(&mut page, variant, base);
        let mut game = Game::new(base, LastFourRule::default());
        game.play_all(&played).unwrap();
        let mut expected: Vec<String> = (0..game.position().pits().len())
            .filter(|&pit| game.position().is_blocked(pit))
            .map(|pit| Move::from_pit(pit, 6).to_string())
            .collect();
        expected.sort();
        assert!(expected.contains(&"a".to_string()), "{name}: {expected:?}");
        assert_eq!(closed(&mut page), expected, "{name}: the closed pits drawn");
        let gone = variant.rules().total() - game.position().total();
        assert_eq!(
            left(&mut page),
            gone.to_string(),
            "{name}: counters out of the game"
        );
        page.screenshot(&screenshots().join(format!("deka-closed-{name}.png")));
    }
}

#[test]
fn children_are_drawn_made_and_never_played() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("qelat-ii.toml");
    // South's `F` sows its one counter into North's `a`, which then holds 4: South's child.
    let before = "4-4-4-4-4-1-3-4-4-4-4-4-2-2-S";
    let base = Position::from_position_string(variant, before).unwrap();
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            Some(before),
            base,
        );
        assert_eq!(
            page.eval("document.getElementById('child-key').hidden"),
            serde_json::json!(true),
            "{name}: no key to children before there is one"
        );
        page.click(".pit[data-move='F']");
        settled(&mut page);
        let played = moves(&mut page);
        assert_eq!(played.first().map(|m| m.to_string()), Some("F".to_string()));
        check_board(&mut page, variant, base);
        if played.len() == 1 {
            // North to move (the engine thinks): its child-free pits only.
            assert_eq!(
                page.eval("[...document.querySelectorAll('.pit.child')].map(p => p.dataset.move)"),
                serde_json::json!(["a"])
            );
        }
        assert!(
            page.text("document.querySelector('.pit.child-south').getAttribute('aria-label')")
                .contains("child"),
            "{name}: the pit says whose child it is"
        );
        assert_eq!(
            page.eval("document.getElementById('child-key').hidden"),
            serde_json::json!(false),
            "{name}: the legend explains the ring"
        );
        page.screenshot(&screenshots().join(format!("qelat-ii-child-{name}.png")));
        if !mobile {
            // Played on by clicks, the board stays the rules' board, children and all.
            play(&mut page, variant, base, 60);
        }
    }
}

/// The text of the position field.
fn position_string(page: &mut Page) -> String {
    page.text("document.getElementById('fen').value")
}

/// The position the board shows.
fn drawn_position(page: &mut Page) -> String {
    page.text("document.getElementById('board').dataset.position")
}

#[test]
fn undo_swap_engine_vs_engine_and_position_strings() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1100, 900, false);
    let start = Position::start(Variant::MangalaII);

    // A move by click, the engine's answer, then undo: back to where the person was to move.
    page.click(".pit.legal");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 2",
        LONG,
        "the engine answers",
    );
    settled(&mut page);
    check_board(&mut page, Variant::MangalaII, start);
    page.click("#undo");
    page.wait_for(
        "document.getElementById('moves').dataset.moves === ''",
        LONG,
        "undo takes back both moves",
    );
    settled(&mut page);
    assert_eq!(position_string(&mut page), start.to_string());

    // Swap sides: the engine plays South's move, and the person is North.
    page.click("#swap");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 1 && \
         document.body.dataset.state === 'idle'",
        LONG,
        "the engine moves for South",
    );
    assert!(
        page.text("document.getElementById('turn').textContent")
            .starts_with("Your move (North)"),
        "{}",
        page.describe()
    );
    assert!(
        page.text("document.querySelector('.pit.legal').dataset.move")
            .chars()
            .all(|c| c.is_ascii_lowercase())
    );
    check_board(&mut page, Variant::MangalaII, start);

    // Engine vs engine plays on without clicks, until it is switched off.
    page.click("#auto");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length >= 6",
        LONG,
        "engine vs engine plays",
    );
    page.click("#auto");
    page.wait_for(
        "document.body.dataset.state === 'idle' && \
         document.getElementById('turn').textContent.startsWith('Your move')",
        LONG,
        "the person's turn again",
    );
    check_board(&mut page, Variant::MangalaII, start);
    assert_eq!(
        page.text("document.getElementById('auto').getAttribute('aria-pressed')"),
        "false"
    );

    // The engine's lines: as many as asked for.
    page.choose("multipv", "3");
    page.click("#new-game");
    page.wait_for(
        "document.getElementById('moves').dataset.moves === '' && document.body.dataset.state === 'idle'",
        LONG,
        "a new game",
    );
    page.click(".pit.legal");
    page.wait_for(
        "document.querySelectorAll('#lines li').length === 3",
        LONG,
        "three lines",
    );
    let line = page.text("document.querySelector('#lines li').textContent");
    assert!(
        line.starts_with("depth ") && line.contains(" for North: "),
        "{line}"
    );
    settled(&mut page);

    // A pasted position string is loaded; a bad one is refused and changes nothing.
    let endgame = "0-0-0-0-2-1-0-0-0-0-1-3-30-35-S";
    page.type_into("fen", endgame);
    page.click("#load");
    page.wait_for(
        &format!("document.getElementById('fen').value === '{endgame}' && document.body.dataset.state === 'idle'"),
        LONG,
        "the position loads",
    );
    let base = Position::from_position_string(Variant::MangalaII, endgame).unwrap();
    check_board(&mut page, Variant::MangalaII, base);
    page.type_into("fen", "7-7-7-0-0-S");
    page.click("#load");
    page.wait_for(
        "document.getElementById('message').textContent.length > 0",
        LONG,
        "the refusal",
    );
    settled(&mut page);
    assert_eq!(drawn_position(&mut page), endgame);
    // The text stays in the field, to be corrected.
    assert_eq!(position_string(&mut page), "7-7-7-0-0-S");
    let message = page.text("document.getElementById('message').textContent");
    assert!(message.contains("position"), "{message}");
    // The game from it is played to its end.
    assert!(play(&mut page, Variant::MangalaII, base, 200));
    page.screenshot(&screenshots().join("mangala-ii-endgame.png"));
}

/// Loads `text` into the position field; waits for the page to settle.
fn load(page: &mut Page, text: &str) {
    page.eval("document.getElementById('message').textContent = ''");
    page.type_into("fen", text);
    page.click("#load");
    settled(page);
}

/// What the page shows of the last move and the engine's analysis: rings, gains, lines, bar.
fn leftovers(page: &mut Page) -> serde_json::Value {
    page.eval(
        "[document.querySelectorAll('.pit.origin, .pit.sown, .pit.taken').length, \
          document.querySelectorAll('.gain').length, \
          document.querySelectorAll('#lines li').length, \
          document.getElementById('evaltext').textContent]",
    )
}

#[test]
fn loads_and_deals_that_fail_keep_the_game_and_say_why() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1100, 900, false);
    settled(&mut page);
    // A game with a move, its rings and the engine's lines.
    page.click(".pit.legal");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 2 && \
         document.body.dataset.state === 'idle'",
        LONG,
        "the engine answers",
    );
    assert_ne!(leftovers(&mut page), serde_json::json!([0, 0, 0, ""]));

    // A position string with moves: the position after them, the engine's reply, and no more.
    let loaded = "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S";
    load(&mut page, &format!("{loaded} moves A"));
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 2",
        LONG,
        "the engine's reply to the loaded position",
    );
    settled(&mut page);
    std::thread::sleep(Duration::from_millis(1500));
    let base = Position::from_position_string(Variant::MangalaII, loaded).unwrap();
    check_board(&mut page, Variant::MangalaII, base);
    assert_eq!(moves(&mut page).len(), 2, "{}", page.describe());
    assert_eq!(
        page.text("document.getElementById('message').textContent"),
        ""
    );
    let fen = position_string(&mut page);
    let shown = page.text("document.getElementById('moves').dataset.moves");

    // Refused strings: the reason is shown, and the game is the one before, still playable.
    for bad in [
        "hello",
        "6-6-6-6-6-6-6-6-6-6-6-6-0-0-s",
        "6--6-6-6-6-6-6-6-6-6-6-6-0-0-S",
        "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S moves A A",
    ] {
        load(&mut page, bad);
        let message = page.text("document.getElementById('message').textContent");
        assert!(!message.is_empty(), "'{bad}' is refused with a reason");
        // In a player's words, not the protocol's.
        assert!(
            message.starts_with("That ") && !message.contains("a board sends"),
            "'{bad}': {message}"
        );
        assert_eq!(drawn_position(&mut page), fen, "after '{bad}'");
        assert_eq!(position_string(&mut page), bad, "the text of '{bad}' stays");
        // The last move's marks stay too.
        assert!(
            page.eval("document.querySelectorAll('.pit.origin').length")
                .as_u64()
                == Some(1),
            "after '{bad}'"
        );
        assert_eq!(
            page.text("document.getElementById('moves').dataset.moves"),
            shown,
            "after '{bad}'"
        );
    }
    page.click(".pit.legal");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 4",
        LONG,
        "a move after the refusals, and the engine's reply",
    );
    settled(&mut page);
    check_board(&mut page, Variant::MangalaII, base);

    // After a Load, nothing of the game before is shown: no rings, no gains, no lines, no bar.
    let endgame = "0-0-0-0-2-1-0-0-0-0-1-3-30-35-S";
    load(&mut page, endgame);
    page.wait_for(
        &format!("document.getElementById('fen').value === '{endgame}'"),
        LONG,
        "the endgame loads",
    );
    assert_eq!(leftovers(&mut page), serde_json::json!([0, 0, 0, ""]));
    // Nor after a new game.
    page.click(".pit.legal");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length >= 2 && \
         document.body.dataset.state !== 'thinking'",
        LONG,
        "a move and the engine's reply",
    );
    page.click("#new-game");
    page.wait_for(
        "document.getElementById('moves').dataset.moves === '' && \
         document.body.dataset.state === 'idle'",
        LONG,
        "a new game",
    );
    assert_eq!(leftovers(&mut page), serde_json::json!([0, 0, 0, ""]));

    // A deal the engine cannot make (a seed beyond 64 bits) is refused, and the game stays.
    switch_to(&mut page, Variant::MangalaIV);
    let start = position_string(&mut page);
    for seed in ["18446744073709551616", "99999999999999999999", "-1", "12a"] {
        page.eval("document.getElementById('message').textContent = ''");
        page.type_into("seed", seed);
        page.click("#deal-button");
        page.wait_for(
            "document.getElementById('message').textContent.length > 0",
            LONG,
            "the refusal",
        );
        settled(&mut page);
        assert_eq!(position_string(&mut page), start, "after seed {seed}");
    }
    page.type_into("seed", "18446744073709551615");
    page.click("#deal-button");
    let dealt = Position::mangala_iv_deal(u64::MAX);
    page.wait_for(
        &format!("document.getElementById('fen').value === '{dealt}'"),
        LONG,
        "the largest seed deals",
    );
}

#[test]
fn mangala_iv_deal_and_side_choice() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1100, 900, false);
    switch_to(&mut page, Variant::MangalaIV);
    assert_eq!(page.text("document.getElementById('deal').hidden"), "false");
    page.type_into("seed", "12345");
    page.click("#deal-button");
    let dealt = Position::mangala_iv_deal(12345);
    page.wait_for(
        &format!("document.getElementById('fen').value === '{dealt}'"),
        LONG,
        "the deal",
    );
    settled(&mut page);
    page.click("#side-button");
    page.wait_for(
        "document.getElementById('side-answer').textContent.startsWith('The engine would choose ')",
        LONG,
        "the side-choice answer",
    );
    let answer = page.text("document.getElementById('side-answer').textContent");
    let choice = answer.trim_start_matches("The engine would choose ");
    assert!(
        ["south", "north", "either"]
            .iter()
            .any(|side| choice.starts_with(side)),
        "{answer}"
    );
    page.screenshot(&screenshots().join("mangala-iv-deal.png"));
    assert!(
        play(&mut page, Variant::MangalaIV, dealt, 600),
        "the dealt game ends"
    );
    // The advice played: the person takes the side advised, and the other side moves first.
    page.click("#deal-button");
    page.wait_for(
        &format!("document.getElementById('board').dataset.position === '{dealt}'"),
        LONG,
        "the deal again",
    );
    settled(&mut page);
    page.click("#side-button");
    page.wait_for(
        "!document.getElementById('side-play').hidden",
        LONG,
        "the offer to play the advice",
    );
    let take = if choice.starts_with("north") {
        "N"
    } else {
        "S"
    };
    let first = if take == "N" { "S" } else { "N" };
    let text = page.text("document.getElementById('side-answer').textContent");
    if take == "S" && choice.starts_with("south") {
        assert!(text.contains("North then moves first"), "{text}");
    }
    page.click("#side-play");
    let mut fields: Vec<String> = dealt.to_string().split('-').map(String::from).collect();
    let side_field = 2 * 7 + 2;
    fields[side_field] = first.to_string();
    let start = fields.join("-");
    page.wait_for(
        &format!("window.mancalaBoard.state.start === '{start}'"),
        LONG,
        "the advised game starts",
    );
    settled(&mut page);
    assert_eq!(page.text("document.body.dataset.human"), take);
    let base = Position::from_position_string(Variant::MangalaIV, &start).unwrap();
    check_board(&mut page, Variant::MangalaIV, base);
}

/// The process ids of the engines the board server started.
fn engines(server: &BoardServer) -> Vec<u32> {
    common::engine_children(server.pid())
}

#[test]
fn a_crashed_or_hung_engine_is_shown_and_restarted_from_the_page() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1100, 900, false);
    page.click(".pit.legal");
    settled(&mut page);
    let before = position_string(&mut page);

    // A crash: the page says so at once and offers a restart, which keeps the game.
    let crashed = engines(&server);
    assert_eq!(crashed.len(), 1);
    send_signal(crashed[0], "KILL");
    page.wait_for(
        "document.body.dataset.state === 'broken'",
        LONG,
        "the crash is shown",
    );
    let status = page.text("document.getElementById('engine-status').textContent");
    assert!(status.contains("stopped"), "{status}");
    assert_eq!(
        page.text("document.getElementById('restart').hidden"),
        "false"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.pit.legal').length"),
        0,
        "no clicks without an engine"
    );
    page.screenshot(&screenshots().join("engine-crashed.png"));
    page.click("#restart");
    settled(&mut page);
    assert_eq!(position_string(&mut page), before);
    assert_eq!(
        page.text("document.getElementById('engine-status').textContent"),
        "engine ready"
    );
    assert_eq!(
        page.text("document.getElementById('restart').hidden"),
        "true"
    );

    // A hang: the engine stops answering; the page gives up waiting and offers a restart.
    let hung = engines(&server);
    assert_eq!(hung.len(), 1);
    assert_ne!(hung, crashed);
    send_signal(hung[0], "STOP");
    page.click(".pit.legal");
    page.wait_for(
        "document.body.dataset.state === 'broken'",
        LONG,
        "the hang is shown",
    );
    let status = page.text("document.getElementById('engine-status').textContent");
    assert!(status.contains("does not answer"), "{status}");
    page.click("#restart");
    settled(&mut page);
    assert!(
        !engines(&server).contains(&hung[0]),
        "the hung engine was ended"
    );
    // The game goes on with the new engine: the person's move stands, the engine answers.
    page.click(".pit.legal");
    settled(&mut page);
    check_board(
        &mut page,
        Variant::MangalaII,
        Position::start(Variant::MangalaII),
    );
}

#[test]
fn closing_a_tab_ends_its_engine_and_the_limit_is_shown() {
    if !available() {
        return;
    }
    let chromium = Chromium::start();
    let server = BoardServer::start(&["--max-engines", "2"]);
    let first = open(&chromium, &server, 800, 700, false);
    let mut second = open(&chromium, &server, 800, 700, false);
    assert_eq!(engines(&server).len(), 2);
    // A third tab: no engine, and the page says why.
    let mut third = chromium.page(800, 700, false);
    third.navigate(&server.url());
    third.wait_for(
        "document.body.dataset.state === 'broken'",
        LONG,
        "the refusal",
    );
    let status = third.text("document.getElementById('engine-status').textContent");
    assert!(
        status.contains("all 2 boards this server allows are open"),
        "{status}"
    );
    third.screenshot(&screenshots().join("board-limit.png"));
    // Closing a tab ends its engine, and the third tab can then start one.
    first.close();
    let start = std::time::Instant::now();
    while engines(&server).len() != 1 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the closed tab's engine still runs"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    third.click("#restart");
    settled(&mut third);
    assert_eq!(engines(&server).len(), 2);
    settled(&mut second);
}

#[test]
fn another_page_cannot_frame_the_board() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = chromium.page(1100, 900, false);
    // A page of another local origin (another port on this machine) that frames the board ten
    // times.
    let frames = format!("<iframe src='{}'></iframe>", server.url()).repeat(10);
    let other = framing_site(frames);
    page.navigate(&format!("http://127.0.0.1:{other}/"));
    page.wait_for(
        "document.querySelectorAll('iframe').length === 10",
        LONG,
        "the framing page loads",
    );
    std::thread::sleep(Duration::from_secs(3));
    // The browser refused to show the board in any frame: no board was opened.
    let status = page_status(&server);
    assert_eq!(status["boards"], 0, "{status}");
    // The user's own tab still gets a board.
    let mut own = open(&chromium, &server, 1100, 900, false);
    settled(&mut own);
    assert_eq!(page_status(&server)["boards"], 1);
}

/// A site on another port of this machine that serves `html` to every request; its port.
fn framing_site(html: String) -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{html}",
                html.len()
            );
        }
    });
    port
}

/// The server's `/api/status`.
fn page_status(server: &BoardServer) -> serde_json::Value {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        stream,
        "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        server.port
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    serde_json::from_str(reply.split_once("\r\n\r\n").unwrap().1).unwrap()
}

#[test]
fn a_move_is_shown_counter_by_counter() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open_with_motion(&chromium, &server);
    switch_to(&mut page, Variant::Kalah);
    // C's four counters: D, E, F and South's store, each shown as it falls.
    page.eval(
        "window.seen = []; new MutationObserver(() => { \
           const counts = [...document.querySelectorAll('.pit')] \
             .sort((a, b) => a.dataset.pit - b.dataset.pit).map(p => p.dataset.count).join(','); \
           if (window.seen[window.seen.length - 1] !== counts) window.seen.push(counts); \
         }).observe(document.getElementById('board'), \
           { subtree: true, attributes: true, childList: true })",
    );
    page.click(".pit.legal[data-move='C']");
    page.wait_for(
        "document.getElementById('moves').dataset.moves === 'C' && \
         document.body.dataset.state === 'idle'",
        LONG,
        "the move is shown and played",
    );
    assert_eq!(
        page.text("document.getElementById('board').dataset.lastSowing"),
        "C: C:4 D E F *S again"
    );
    let seen: Vec<String> = serde_json::from_value(page.eval("window.seen")).unwrap();
    let start = "4,4,4,4,4,4,4,4,4,4,4,4";
    let steps = [
        "4,4,0,4,4,4,4,4,4,4,4,4",
        "4,4,0,5,4,4,4,4,4,4,4,4",
        "4,4,0,5,5,4,4,4,4,4,4,4",
        "4,4,0,5,5,5,4,4,4,4,4,4",
    ];
    let mut at = seen.iter().position(|s| s == start).unwrap_or(0);
    for step in steps {
        let found = seen[at..]
            .iter()
            .position(|s| s == step)
            .unwrap_or_else(|| panic!("{step} was never shown: {seen:?}"));
        at += found;
    }
    check_board(&mut page, Variant::Kalah, Position::start(Variant::Kalah));
}

/// The total of counters on the page: the pits drawn and both stores.
fn counters_drawn(page: &mut Page) -> u64 {
    page.eval(
        "[...document.querySelectorAll('.pit')].reduce((t, p) => t + Number(p.dataset.count), 0) \
         + Number(document.getElementById('south-store').dataset.captured) \
         + Number(document.getElementById('north-store').dataset.captured)",
    )
    .as_u64()
    .unwrap()
}

/// The board after a control: settled, drawn as the rules replay its moves, no error shown, the
/// engine alive, and (when it is the person's turn) a click still plays.
fn alive_after(page: &mut Page, variant: Variant, base: Position, what: &str) {
    settled(page);
    let total = base.pits().iter().map(|&c| c as u64).sum::<u64>()
        + base.captured(Side::South) as u64
        + base.captured(Side::North) as u64;
    assert_eq!(counters_drawn(page), total, "{what}: {}", page.describe());
    check_board(page, variant, base);
    assert_eq!(
        page.text("document.getElementById('message').textContent"),
        "",
        "{what}: {}",
        page.describe()
    );
    assert_eq!(
        page.text("document.getElementById('engine-status').textContent"),
        "engine ready",
        "{what}"
    );
    if page.eval("!!document.querySelector('.pit.legal')") == serde_json::Value::Bool(true) {
        let before = moves(page).len();
        page.click(".pit.legal");
        page.wait_for(
            &format!("document.getElementById('moves').dataset.moves.split(' ').filter(m => m).length > {before}"),
            LONG,
            &format!("{what}: a click still plays"),
        );
        settled(page);
        check_board(page, variant, base);
    }
}

/// Waits until the page is in `phase`: 'sowing' (a move being shown), 'thinking' (the engine
/// searching) or 'reply' (the engine's move being shown, after the person's).
fn wait_phase(page: &mut Page, phase: &str, moves_before: usize) {
    let js = match phase {
        "sowing" => "document.getElementById('board').classList.contains('sowing')".to_string(),
        "thinking" => "document.body.dataset.state === 'thinking'".to_string(),
        _ => format!(
            "document.getElementById('board').classList.contains('sowing') && \
             document.getElementById('moves').dataset.moves.split(' ').filter(m => m).length \
             === {}",
            moves_before + 1
        ),
    };
    page.wait_for(&js, LONG, phase);
}

/// The board in a new tab that shows moves counter by counter (the showing is one of the
/// moments a control may come in).
fn open_with_motion(chromium: &Chromium, server: &BoardServer) -> Page {
    let mut page = chromium.page(1100, 900, false);
    page.navigate(&server.url());
    settled(&mut page);
    page
}

/// The person plays South again (after Swap sides, or Engine vs engine).
fn person_plays_south(page: &mut Page) {
    match page.text("document.body.dataset.human").as_str() {
        "S" => return,
        "" => page.click("#auto"),
        _ => page.click("#swap"),
    }
    settled(page);
}

/// Presses `control` as a person would: Load loads `start`'s string, Engine vs engine is
/// pressed twice `gap` apart (on, then off), Restart follows a crash and is itself followed by
/// `then` while the engine restarts; any other control is clicked.
fn press(
    page: &mut Page,
    server: &BoardServer,
    control: &str,
    start: Position,
    gap: Duration,
    then: &str,
) {
    match control {
        "#load" => {
            page.type_into("fen", &start.to_string());
            page.click("#load");
        }
        "#auto" => {
            page.click("#auto");
            std::thread::sleep(gap);
            page.click("#auto");
        }
        "#restart" => {
            send_signal(engines(server)[0], "KILL");
            page.wait_for(
                "document.body.dataset.state === 'broken'",
                LONG,
                "the crash is shown",
            );
            page.click("#restart");
            std::thread::sleep(gap);
            page.click(then);
        }
        _ => page.click(control),
    }
}

#[test]
fn controls_pressed_at_any_moment_never_freeze_the_board() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open_with_motion(&chromium, &server);
    let variant = Variant::AlManqala;
    switch_to(&mut page, variant);
    page.choose("movetime", "1000");
    let start = Position::start(variant);
    // Engine vs engine twice: on then off after a while, and two quick presses.
    let controls = [
        ("#undo", 0),
        ("#new-game", 0),
        ("#load", 0),
        ("#auto", 700),
        ("#auto", 0),
        ("#swap", 0),
    ];
    for (control, gap) in controls {
        for phase in ["sowing", "thinking", "reply"] {
            let what = format!("{control} ({gap} ms) while {phase}");
            person_plays_south(&mut page);
            page.click("#new-game");
            page.wait_for(
                "document.getElementById('moves').dataset.moves === '' && \
                 document.body.dataset.state === 'idle'",
                LONG,
                "a new game",
            );
            page.click(".pit.legal[data-move='B']");
            wait_phase(&mut page, phase, 0);
            std::thread::sleep(Duration::from_millis(100));
            let gap = Duration::from_millis(gap);
            press(&mut page, &server, control, start, gap, "");
            alive_after(&mut page, variant, start, &what);
        }
    }
}

#[test]
fn a_click_at_the_moment_of_a_crash_does_not_lose_the_restart() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1100, 900, false);
    let start = Position::start(Variant::MangalaII);
    for attempt in 0..8 {
        settled(&mut page);
        let before = position_string(&mut page);
        let engine = engines(&server);
        assert_eq!(engine.len(), 1);
        let pit = page.point_of(".pit.legal");
        send_signal(engine[0], "KILL");
        // A click within milliseconds of the crash: its requests meet a dead engine (or, if the
        // crash is known by then, the click meets a board that takes none).
        if let Some(point) = pit {
            page.click_at(point);
        }
        page.wait_for(
            "document.body.dataset.state === 'broken'",
            LONG,
            "the crash is shown",
        );
        page.click("#restart");
        settled(&mut page);
        let what = format!("attempt {attempt}");
        assert_eq!(
            page.text("document.getElementById('engine-status').textContent"),
            "engine ready",
            "{what}: {}",
            page.describe()
        );
        assert_eq!(
            page.text("document.getElementById('message').textContent"),
            "",
            "{what}: the crash's message stays after the restart"
        );
        assert_eq!(position_string(&mut page), before, "{what}");
        alive_after(&mut page, Variant::MangalaII, start, &what);
    }
}

#[test]
fn the_move_list_browses_the_game_and_the_board_turns_for_north() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1280, 800, false);
    let variant = Variant::MangalaII;
    let start = Position::start(variant);
    for _ in 0..2 {
        page.click(".pit.legal");
        settled(&mut page);
    }
    let played = moves(&mut page);
    assert!(played.len() >= 4, "{played:?}");
    let live = position_string(&mut page);
    // The first move's button shows the position after it; the pits take no click meanwhile.
    page.click("#moves .move");
    let mut game = Game::new(start, LastFourRule::default());
    game.play_all(&played[..1]).unwrap();
    page.wait_for(
        &format!(
            "document.getElementById('board').dataset.position === '{}'",
            game.position()
        ),
        LONG,
        "the first move's position",
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.pit.legal').length"),
        0
    );
    assert_eq!(
        page.text("document.getElementById('viewing').hidden"),
        "false"
    );
    // The arrow keys: back to the start, forward one, the end (the live game).
    page.call(
        "Input.dispatchKeyEvent",
        serde_json::json!({"type": "keyDown", "key": "ArrowLeft", "code": "ArrowLeft"}),
    );
    page.wait_for(
        &format!("document.getElementById('board').dataset.position === '{start}'"),
        LONG,
        "the start",
    );
    page.call(
        "Input.dispatchKeyEvent",
        serde_json::json!({"type": "keyDown", "key": "End", "code": "End"}),
    );
    page.wait_for(
        &format!(
            "document.getElementById('board').dataset.position === '{live}' && \
             document.querySelectorAll('.pit.legal').length > 0"
        ),
        LONG,
        "the live game",
    );
    // A pit's letter plays it.
    let before = moves(&mut page).len();
    let letter = page.text("document.querySelector('.pit.legal').dataset.move");
    page.call(
        "Input.dispatchKeyEvent",
        serde_json::json!({"type": "keyDown", "key": letter, "text": letter}),
    );
    page.wait_for(
        &format!("document.getElementById('moves').dataset.moves.split(' ').length > {before}"),
        LONG,
        "the key plays the pit",
    );
    settled(&mut page);
    assert_eq!(moves(&mut page)[before], letter.parse().unwrap());
    check_board(&mut page, variant, start);
    // Turns are numbered: South's and North's moves side by side.
    let rows = page.eval("document.querySelectorAll('#moves .turn').length");
    assert!(rows.as_u64().unwrap() >= 2, "{rows}");
    page.screenshot(&screenshots().join("move-list-desktop.png"));

    // Playing North: the board turns, North's row at the bottom, the person's name below it.
    page.click("#swap");
    settled(&mut page);
    assert_eq!(page.text("document.body.dataset.human"), "N");
    let rows_y = page.eval(
        "[document.querySelector('.pit.north').getBoundingClientRect().y, \
          document.querySelector('.pit.south').getBoundingClientRect().y]",
    );
    assert!(
        rows_y[0].as_f64().unwrap() > rows_y[1].as_f64().unwrap(),
        "North's row is not at the bottom: {rows_y}"
    );
    assert!(
        page.text("document.querySelector('#player-bottom .name').textContent")
            .starts_with("You · North")
    );
    check_board(&mut page, variant, start);
    page.screenshot(&screenshots().join("playing-north.png"));
}

#[test]
fn the_engine_plays_on_its_clock_and_a_flag_ends_the_game() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 1280, 800, false);
    page.choose("clock", "60000+0");
    settled(&mut page);
    assert_eq!(
        page.text("document.querySelector('#player-top .clock').textContent"),
        "1:00"
    );
    page.click(".pit.legal");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 2 && \
         document.body.dataset.state === 'idle'",
        LONG,
        "the engine answers on its clock",
    );
    let engine_clock = page.text("document.querySelector('#player-top .clock').textContent");
    assert_ne!(engine_clock, "1:00", "the engine's clock did not run");
    // The person's clock runs now; when it falls, the game is over on time.
    assert_eq!(
        page.text("document.querySelector('#player-bottom .clock').classList.contains('running')"),
        "true"
    );
    page.eval("window.mancalaBoard.state.clock.left[0] = 300");
    page.wait_for(
        "document.body.dataset.state === 'over'",
        LONG,
        "the flag falls",
    );
    assert_eq!(
        page.text("document.getElementById('result').textContent"),
        "You lost on time"
    );
    assert_eq!(page.text("document.getElementById('end').hidden"), "false");
    assert_eq!(
        page.eval("document.querySelectorAll('.pit.legal').length"),
        0
    );
    page.screenshot(&screenshots().join("lost-on-time.png"));
    // Rematch: a new game, both clocks full.
    page.click("#rematch");
    page.wait_for(
        "document.getElementById('moves').dataset.moves === '' && \
         document.body.dataset.state === 'idle'",
        LONG,
        "the rematch",
    );
    assert_eq!(
        page.text("document.querySelector('#player-bottom .clock').textContent"),
        "1:00"
    );
    // Swap sides and rematch: the person is North, at the bottom, and the engine opens as South.
    page.click(".pit.legal");
    page.wait_for(
        "document.getElementById('moves').dataset.moves.split(' ').length === 2 && \
         document.body.dataset.state === 'idle'",
        LONG,
        "a move and the engine's answer",
    );
    page.eval("window.mancalaBoard.state.clock.left[0] = 300");
    page.wait_for(
        "document.body.dataset.state === 'over'",
        LONG,
        "the flag again",
    );
    page.click("#swap-rematch");
    page.wait_for(
        "document.body.dataset.human === 'N' && \
         document.getElementById('moves').dataset.moves.split(' ').filter(m => m).length === 1 \
         && document.body.dataset.state === 'idle'",
        LONG,
        "the swapped rematch, the engine's first move",
    );
    assert!(
        page.text("document.querySelector('#player-bottom .name').textContent")
            .starts_with("You · North")
    );
    check_board(
        &mut page,
        Variant::MangalaII,
        Position::start(Variant::MangalaII),
    );
}

#[test]
fn the_end_of_a_game_is_shown_on_a_phone_without_scrolling() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open(&chromium, &server, 390, 844, true);
    // Anywoli, the tallest board (upright on a phone): an endgame played to its end.
    switch_to(&mut page, Variant::Anywoli);
    let fits = "(() => { const b = document.getElementById('board').getBoundingClientRect(); \
                const s = [...document.querySelectorAll('.store')].map(e => e.getBoundingClientRect()); \
                return b.top >= 0 && b.bottom <= window.innerHeight && \
                  s.every(r => r.top >= 0 && r.bottom <= window.innerHeight); })()";
    assert_eq!(
        page.eval(fits),
        serde_json::Value::Bool(true),
        "the board is not whole on the screen"
    );
    let endgame = "0-0-0-0-0-0-0-0-0-0-1-1-0-0-0-0-0-0-0-0-0-0-1-1-45-47-S-X-X";
    load(&mut page, endgame);
    let base = Position::from_position_string(Variant::Anywoli, endgame).unwrap();
    assert!(play(&mut page, Variant::Anywoli, base, 200));
    let visible = page.eval(
        "(() => { window.scrollTo(0, 0); const r = document.getElementById('result').getBoundingClientRect(); \
         return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; })()",
    );
    assert_eq!(
        visible,
        serde_json::Value::Bool(true),
        "{}",
        page.describe()
    );
    page.screenshot(&screenshots().join("anywoli-over-phone.png"));
}

#[test]
fn controls_at_random_moments_of_every_game_and_of_restarts() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open_with_motion(&chromium, &server);
    // A fixed sequence of "random" choices (a linear congruential generator), so that a failure
    // can be replayed.
    let mut seed: u64 = 0x5eed_b0a2d;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    // Two rounds a game in the suite; `BOARD_RANDOM_ROUNDS=20` (say) for a long run.
    let rounds: u32 = std::env::var("BOARD_RANDOM_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(2);
    for variant in Variant::ALL {
        switch_to(&mut page, variant);
        let start = Position::start(variant);
        page.choose("movetime", if next(2) == 0 { "50" } else { "200" });
        for round in 0..rounds {
            person_plays_south(&mut page);
            if page.text("document.body.dataset.state") == "over" {
                page.click("#new-game");
                settled(&mut page);
            }
            if page.eval("!!document.getElementById('pass')") == serde_json::Value::Bool(true) {
                page.click("#pass");
            } else {
                page.click(".pit.legal");
            }
            let wait = next(1500);
            std::thread::sleep(Duration::from_millis(wait));
            let control =
                ["#undo", "#new-game", "#load", "#auto", "#swap", "#restart"][next(6) as usize];
            let what = format!("{variant} round {round}: {control} {wait} ms after a click");
            let gap = Duration::from_millis(next(800));
            let then = ["#undo", "#new-game", "#swap"][next(3) as usize];
            press(&mut page, &server, control, start, gap, then);
            alive_after(&mut page, variant, start, &what);
        }
    }
}

#[test]
fn a_click_shows_the_end_of_a_move_at_once() {
    let Some((chromium, server)) = browser_and_board() else {
        return;
    };
    let mut page = open_with_motion(&chromium, &server);
    switch_to(&mut page, Variant::Anywoli);
    // A's relay from the start: 30 steps, about 1.8 s shown counter by counter.
    page.eval(
        "window.sowing = []; new MutationObserver(() => { \
           const on = document.getElementById('board').classList.contains('sowing'); \
           if (on !== (window.sowing.length % 2 === 1)) window.sowing.push(performance.now()); \
         }).observe(document.getElementById('board'), { attributes: true })",
    );
    page.click(".pit.legal[data-move='A']");
    page.wait_for("window.sowing.length === 1", LONG, "the showing starts");
    std::thread::sleep(Duration::from_millis(200));
    let clicked = page.eval("performance.now()").as_f64().unwrap();
    // A pit that cannot be played takes the click: the showing ends.
    page.click(".pit[data-move='g']");
    page.wait_for("window.sowing.length >= 2", LONG, "the showing ends");
    let ended = page.eval("window.sowing[1]").as_f64().unwrap();
    assert!(
        ended - clicked < 600.0,
        "the showing went on {} ms after the click",
        ended - clicked
    );
    settled(&mut page);
    assert_eq!(moves(&mut page)[0], "A".parse().unwrap());
    check_board(
        &mut page,
        Variant::Anywoli,
        Position::start(Variant::Anywoli),
    );
    // No count covers a stone, in any pit.
    let overlaps = page.eval(
        "[...document.querySelectorAll('.pit')].filter(p => { \
           const c = p.querySelector('.count').getBoundingClientRect(); \
           return [...p.querySelectorAll('.stone')].some(s => { const r = s.getBoundingClientRect(); \
             return r.right > c.left && r.left < c.right && r.bottom > c.top && r.top < c.bottom; }); \
         }).length",
    );
    assert_eq!(overlaps, 0);
}

#[test]
fn toguz_kumalak_with_its_162_counters_is_drawn_and_played() {
    if !available() {
        return;
    }
    let (variant, chromium, server) = catalogue_board("toguz-kumalak.toml");
    // A pit of more than 127 counters, and South's child at North's `d`.
    let before = "130-1-0-1-0-1-0-2-3-0-1-0-2s-0-0-0-0-0-10-11-S";
    let base = Position::from_position_string(variant, before).unwrap();
    for (width, height, mobile, name) in BOTH_WIDTHS {
        let mut page = showing(
            &chromium,
            &server,
            (width, height, mobile),
            variant,
            Some(before),
            base,
        );
        assert_eq!(
            page.text("document.querySelector(\".pit[data-move='A'] .count\").textContent"),
            "130",
            "{name}"
        );
        // `H`'s first counter goes back into `H`, the other into `I`.
        page.click(".pit[data-move='H']");
        settled(&mut page);
        let played = moves(&mut page);
        assert_eq!(played.first().map(|m| m.to_string()), Some("H".to_string()));
        check_board(&mut page, variant, base);
        page.screenshot(&screenshots().join(format!("toguz-kumalak-{name}.png")));
    }
}
