//! The game-file format: reading ([`parse`]), checking and writing ([`write`]) a [`Rules`]
//! record as `key = value` lines, and the table of its fields.

use std::collections::BTreeMap;
use std::fmt;

// `crate::` paths: the build script reads the built-in games' files with this module too, with
// `rules_record` at its root as the library has it.
use crate::rules_record::{
    CaptureCounts, CaptureExtraMove, CaptureSide, ChildApart, ChildMaking, Children, Direction,
    DirectionRule, FirstMove, Goal, GrandSlam, Laps, Leftover, MAX_COUNTERS, MAX_MOVES, MAX_ROW,
    MoveChoice, MoveFilter, OwnEnd, PassingCaptures, RelayFrom, RoundFill, RoundStarter, Rounds,
    Rules, Start, Unfed,
};

/// What is wrong with a game file: the field (or line) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    /// The field's name, or `line N` for a line that is not a field.
    pub field: String,
    pub why: String,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.why)
    }
}

impl std::error::Error for DefinitionError {}

fn error(field: &str, why: impl Into<String>) -> DefinitionError {
    DefinitionError {
        field: field.to_string(),
        why: why.into(),
    }
}

/// A value as written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Number(u64),
    Bool(bool),
    Word(String),
    List(Vec<u64>),
}

impl Value {
    fn describe(&self) -> String {
        match self {
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Word(w) => format!("\"{w}\""),
            Value::List(l) => format!("{l:?}"),
        }
    }
}

/// Every field: its name, the values it takes, and the rule it sets (for the message about an
/// unknown field, and for RULES.md's table, which [`fields_table`] makes).
pub const FIELDS: [(&str, &str, &str); 80] = [
    (
        "name",
        "lower-case letters, digits and `-`",
        "the game's name in the protocol (`variant <name>`)",
    ),
    ("title", "1 to 64 characters", "the game's name for people"),
    ("pits-per-row", "2 to 12", "the pits of each player's row"),
    (
        "start",
        "a count, or a list of one count a pit",
        "the counters of the start position, in pit-number order (at most 255 in all)",
    ),
    (
        "random-start",
        "`true`, `false`",
        "the start is dealt at random (`position random <seed>`): at least two counters a pit \
         where there are enough, the rest one at a time into random pits; `start` is then the \
         equal deal of the same counters",
    ),
    (
        "any-total",
        "`true`, `false`",
        "position strings may hold any number of counters (Kalah with 3 to 6 a pit)",
    ),
    (
        "moves",
        "`\"any-pit\"`, `\"leftmost\"`, `\"either-row\"`",
        "which pits may be played: any non-empty pit of one's row; only the leftmost (a game \
         without choice); or any non-empty pit of either row (the rows belong to nobody: \
         `game-ends` board-empty or majority, and no rule that asks whose row a pit is in)",
    ),
    (
        "min-move",
        "a number of counters, 1 or more",
        "the fewest counters a pit must hold to be moved; a player with no such pit passes \
         (or, with `mover-row-empty`, the game ends), and no such pit on the board ends the game",
    ),
    (
        "move-filter",
        "`\"every\"`, `\"ends-away-or-empty\"`, `\"single-into-empty\"`, `\"one-only-if-all\"`, \
         `\"two-only-if-all\"`, `\"ones-only-if-all-into-empty\"`",
        "which of those pits may be played: every one; one whose hand, sown one lap, ends in the \
         opponent's row, a store or an own empty pit (a hand longer than a row always may); a \
         single counter only into an empty pit, and no pit whose next place is a store; a pit of \
         1 (of 2) only when every playable pit holds as many; or both of the first and the last \
         rules for single counters. A player with counters and no playable pit passes, or with \
         `mover-row-empty` the game ends",
    ),
    (
        "direction",
        "`\"counter-clockwise\"`, `\"clockwise\"`",
        "the direction of sowing",
    ),
    (
        "direction-by",
        "`\"fixed\"`, `\"hand-parity\"`, `\"row-halves\"`, `\"first-move\"`",
        "whether every move sows in `direction`; or a hand of an odd count counter-clockwise and \
         an even one clockwise; or the left half of each row (as its owner sees it) clockwise \
         and the right half counter-clockwise (rows of an even length); or the first move (of \
         the game, of each round) names its direction (`C>`, `C<`), its player sows that way \
         from then on and the other player the other way, moves naming none (position strings \
         then end with `>` where South sows counter-clockwise, `<` \
         clockwise, `X` before the first move)",
    ),
    (
        "sow-own-store",
        "`true`, `false`",
        "the mover's store is in the sowing ring, after the mover's last pit (the opponent's \
         store is skipped)",
    ),
    (
        "store-at-right",
        "`true`, `false`",
        "with `sow-own-store`: each player's store is at the right end of their row whatever the \
         direction (a clockwise hand reaches it after the opponent's row); else it is where the \
         mover's sowing leaves their row",
    ),
    (
        "skip-origin",
        "`true`, `false`",
        "a hand that comes round skips the pit it was lifted from",
    ),
    (
        "laps",
        "`\"single\"`, `\"relay\"`, `\"relay-with-opposite\"`, `\"relay-fours\"`",
        "one lap; relay sowing, where a lap whose last counter makes a pit hold more than one \
         that no capture takes is lifted and sown on, the last lap capturing as a single lap \
         does; relay sowing that ends in a capture of `capture-counts` with the opposite pits \
         (Mangala IV); or Anywoli's relay, where a pit that becomes 4 is taken",
    ),
    (
        "lap-limit",
        "a number of laps, 0 for none",
        "with `laps = \"relay\"`: a move that would sow more laps than this ends the game as \
         an endless move (without it, only a move that comes round to a lap start it made \
         before does)",
    ),
    (
        "relay-from",
        "`\"landing\"`, `\"next-pit\"`",
        "with `laps = \"relay\"`: a lap that goes on lifts its landing pit; or the pit after it, \
         if that holds counters (else the move ends there)",
    ),
    (
        "passing-captures",
        "`\"off\"`, `\"to-owner\"`, `\"to-owner-last-too\"`, `\"to-mover\"`, \
         `\"to-mover-in-own-row\"`, `\"to-mover-in-opponent-row\"`",
        "captures while a hand is sown: a pit that a counter before the last makes hold one of \
         `capture-counts` (on `capture-side`) is taken at once, by its owner (the last counter's \
         pit too, with `to-owner-last-too`) or by the mover (in any row, the mover's or the \
         opponent's)",
    ),
    (
        "store-one-per-lap",
        "`true`, `false`",
        "every lap first puts one counter of its hand into the mover's store (a capture), then \
         sows the rest",
    ),
    (
        "relay-counts",
        "a list of counts, e.g. `[6]` (`[]`: any count of 2 or more)",
        "with `laps = \"relay\"`: the counts a lap's landing pit must hold for the lap to relay",
    ),
    (
        "relay-side",
        "`\"any\"`, `\"own\"`, `\"opponent\"`",
        "with `laps = \"relay\"`: whose row a lap's landing pit must be in for the lap to relay",
    ),
    (
        "capture-counts",
        "a list of counts, e.g. `[2, 4, 6]`",
        "the counts that a last counter makes in a pit to capture it",
    ),
    (
        "capture-side",
        "`\"any\"`, `\"own\"`, `\"opponent\"`",
        "whose pits a one-lap capture may take",
    ),
    (
        "capture-chain",
        "`true`, `false`",
        "the pits before a captured one (against the sowing) are judged too, while they qualify",
    ),
    (
        "chain-stops-at-origin",
        "`true`, `false`",
        "a capture chain ends at the pit its lap was sown from (else it goes on past it)",
    ),
    (
        "capture-empty-opposite",
        "`true`, `false`",
        "a last counter in one of one's own empty pits takes itself and the counters of the pit \
         facing it, if that holds any (Kalah's capture)",
    ),
    (
        "capture-takes-own",
        "`true`, `false`",
        "with `capture-empty-opposite`: the last counter is taken too (else it stays in its pit)",
    ),
    (
        "capture-past-empty",
        "`true`, `false`",
        "the end of a move captures past an empty pit: where the pit after the last one is \
         empty, the pit after that is taken (on `capture-side`; with `capture-chain`, again from \
         there on, in the sowing direction); a one-lap move needs its last pit to have held \
         counters before, and `capture-counts` then serve only captures in passing",
    ),
    (
        "past-empty-takes-facing",
        "`true`, `false`",
        "with `capture-past-empty`: a move that captured so also takes the pit facing the first \
         pit it took, if that holds counters (and is on `capture-side`)",
    ),
    (
        "grand-slam",
        "`\"captures\"`, `\"captures-nothing\"`, `\"captures-nothing-if-held\"`, \
         `\"leaves-leftmost\"`, `\"leaves-rightmost\"`, `\"movers-row-to-opponent\"`, \
         `\"captures-and-moves-again\"`",
        "what a move that would take every counter of the opponent's row does: it captures; it \
         captures nothing; it captures nothing if that row held counters before the move; if \
         that row held counters before the move, it takes all but the first pit holding \
         counters from the mover's left (right), unless that is the only one; it captures, \
         and the mover's own row then goes to the opponent, if that row held counters before \
         the move; or it captures, and the mover moves again, if that row held counters before \
         the move (with `must-feed`, a move that leaves the opponent counters, or the game \
         ends as `unfed` says; one-lap games without `capture-extra-move` or children). With \
         `capture-empty-opposite` (whose capture takes one pit), all but the two that leave a \
         pit",
    ),
    (
        "extra-turn-in-store",
        "`true`, `false`",
        "a last counter in one's own store gives another move (needs `sow-own-store`)",
    ),
    (
        "capture-extra-move",
        "`\"no\"`, `\"always\"`, `\"once\"`",
        "a move whose end captured counters (not only in passing) gives another move: never, \
         always, or only if the move was not itself an extra move (one extra move in a row; \
         the position string then says whether the side to move is on one)",
    ),
    (
        "sweep-at-most",
        "a number of counters, 0 for none",
        "after a move's captures, when from 1 to this many counters are left on the board on \
         `capture-side` (the whole board with `capture-empty-opposite`), the mover takes every \
         counter on the board; not after a move that gave another move by its last counter in \
         the store",
    ),
    (
        "must-feed",
        "`true`, `false`",
        "when the opponent's row is empty, a move must put counters in it if any move can",
    ),
    (
        "unfed",
        "`\"starved-player-takes-all\"`, `\"mover-takes-all\"`, `\"as-leftover\"`, \
         `\"any-move\"`",
        "with `must-feed`, when no move can feed: who takes the counters left (the game ends): \
         the starved player, the player to move, or as `leftover` says; or the game goes on, \
         any move allowed (`any-move`: the starved player then passes, or the game ends as \
         `game-ends` says)",
    ),
    (
        "game-ends",
        "`\"board-empty\"`, `\"last-four\"`, `\"row-empty\"`, `\"majority\"`, \
         `\"mover-row-empty\"`, `\"either-row-empty\"`",
        "the game's own end: an empty board; four counters left (Anywoli); either row empty, \
         each player taking their own row; more than half of the counters captured; the player \
         to move without a counter in their row (no pass); or either row empty (no pass: the \
         player to move has none, or a move emptied its mover's row); in the last two the \
         counters left go as `leftover` says",
    ),
    (
        "majority-ends",
        "`true`, `false`",
        "besides `game-ends`, the game ends as soon as a player has captured more than half of \
         the counters, or both half (the counters left count for nobody)",
    ),
    (
        "ends-below",
        "a number of counters, 0 for none",
        "the game ends once fewer counters than this (but some) are left on the board, too few \
         for any capture; they go as `leftover` says",
    ),
    (
        "leftover",
        "`\"split-evenly\"`, `\"row-owner\"`, `\"last-four-receiver\"`, `\"nobody\"`, \
         `\"split-odd-to-trailing\"`, `\"last-mover\"`",
        "who gets the counters on the board when the history rules end the game (or \
         `ends-below`, `mover-row-empty` or `either-row-empty`): half each, each row's to its \
         owner, the last four's receiver, nobody, half each with an odd one to the player who \
         has captured fewer (North when level), or the player who moved last (where a move may \
         give another, the move that ends the game gives them to its mover at once; at an end \
         by the history rules, the player not to move)",
    ),
    (
        "no-progress-limit",
        "a number of moves, 0 for none",
        "moves in a row without a capture that end the game (the no-progress rule)",
    ),
    (
        "stores",
        "`true`, `false`",
        "captured counters are drawn in stores on the board",
    ),
    (
        "rounds",
        "`true`, `false`",
        "a match of rounds: an end that is not a history rule's ends the round; each player fills \
         their own row again from the counters they hold (captured, and given by `leftover`), \
         the start's count a pit, the rest staying in their store, and plays on, until a round \
         leaves a player too few for `round-pits-to-go-on` pits (needs the same start count in \
         every pit, and a `leftover` that gives every counter to a player)",
    ),
    (
        "round-fill",
        "`\"from-left\"`, `\"from-right\"`, `\"from-board-left\"`, `\"outside-in\"`",
        "with `rounds`: where a player's row is filled first: from their left end, from their \
         right end (as they face the board), from the board's left end as South sees it \
         (South's left, North's right), or from both ends of the board inwards, \
         alternately, beginning at the end where South's leftmost and North's rightmost pits are",
    ),
    (
        "round-starter",
        "`\"alternate\"`, `\"loser\"`, `\"winner\"`, `\"last-mover\"`",
        "with `rounds`: who moves first in a new round: who did not start the last one, the \
         player with fewer (more) counters at its end (after a drawn round: who is not (is) to \
         move at its end, as MancalaGames has it), or who made its last move",
    ),
    (
        "round-blocks",
        "`true`, `false`",
        "with `rounds`: the pits a player cannot fill are blocked for the round (nobody sows \
         into or plays them); else they are only empty",
    ),
    (
        "round-pits-to-go-on",
        "a number of pits, from 1",
        "with `rounds`: the match ends when a round leaves a player fewer counters than this \
         many pits take; with `majority-ends`, a round ends the match as soon as a player has \
         captured more than the counters less that many",
    ),
    (
        "goal",
        "`\"most-counters\"`, `\"clear-own-row\"`, `\"deprive\"`, `\"immobilize\"`",
        "what the players play for: the most counters; to empty one's own row first (both \
         empty: the mover wins); to leave the opponent without counters or, to move, without a \
         move; or to leave the player to move without a move. The three last are won outright: \
         the winner's final total is every counter (half each in a draw), and an end the goal \
         does not name (the history rules) goes to the player with fewer counters in their row \
         (to clear) or more (to deprive or immobilize)",
    ),
    (
        "lap-captures",
        "`true`, `false`",
        "with `laps = \"relay\"`: the end captures are tried at the end of every lap and decide \
         whether the move goes on: with `capture-past-empty`, a lap whose last pit held counters \
         captures past the empty pit after it (if it can) and goes on from its last pit; with \
         `capture-empty-opposite`, a lap ending in an empty pit takes the pit facing it and goes \
         on from its last pit only if that took counters (and in either case only if the last \
         pit still holds counters); with neither, a lap whose last pit holds one of \
         `capture-counts` (on `capture-side`) captures as a move's end would and goes on from \
         the pit after its last pit, unless that is empty",
    ),
    (
        "capture-takes-own-alone",
        "`true`, `false`",
        "with `capture-empty-opposite` and `capture-takes-own`: the last counter in one's own \
         empty pit is taken even when the pit facing it is empty",
    ),
    (
        "capture-empty-either-row",
        "`true`, `false`",
        "with `capture-empty-opposite`: the last counter may fall into an empty pit of either row, \
         and the pit facing it is taken even when it is one's own (else only one's own empty pits \
         capture)",
    ),
    (
        "chain-either-row",
        "`true`, `false`",
        "with `capture-chain` and a `capture-side` of one row: only the last pit must be on that \
         side; the pits of the chain before it may be in either row",
    ),
    (
        "single-counter-captures",
        "`true`, `false`",
        "one lap: `false`, a move of a single counter captures nothing at its end",
    ),
    (
        "single-counter-takes-facing",
        "`true`, `false`",
        "one lap: a move of a single counter first takes the counters of the pit facing the one \
         it is lifted from, then is sown and captures as any move",
    ),
    (
        "opening-from-rightmost",
        "`true`, `false`",
        "the game begins with South's move from the rightmost pit of its row, made for it (its \
         captures too): the start position (`position startpos`) is the position after it, \
         North to move (not with `random-start` or `rounds`)",
    ),
    (
        "chosen-direction-pits",
        "a list of places in a row, 1 for its owner's leftmost pit",
        "the pits at these places of each row sow in the direction the mover chooses: two moves \
         each, the letter and `>` (counter-clockwise, towards the row's next letter) or `<` \
         (clockwise), of one's own row or, with `moves = \"either-row\"`, of both; other pits \
         sow as `direction` and `direction-by` say (one lap or relay laps, every move filter, no \
         store sown, no grand-slam rule, and at most 32 moves in all)",
    ),
    (
        "no-crossing-back",
        "`true`, `false`",
        "a single counter moved over an end of the board (from a row's end pit into the other \
         row's end pit beside it) may not be moved straight back: the next move may not play \
         that pit while it holds that one counter; position strings then end with that pit's \
         letter, or `X` for none",
    ),
    (
        "territory-pits-to-win",
        "a number of pits, 0 for none",
        "with `rounds`: a match for territory, won by the player who can fill this many pits \
         (more than a row's, at most the board's). Who owns a pit changes from round to round: a \
         player plays, feeds and is given the leftover of the pits they own. Each round is dealt \
         the start's count in every pit; the round's winner owns as many pits as its counters \
         fill (one more where the rest is over half a pit), counter-clockwise from its row's \
         first pit, the other the rest (after a drawn round each owns its row). With W the \
         counters that fill one pit fewer than this and the last over half, the match ends after \
         a round that leaves a player fewer than the total less W plus half a pit, and with \
         `majority-ends` as soon as a player has captured more than W. Position \
         strings add, after the round's starter, the owner of each pit (`S` or `N`, in pit \
         order). `round-fill`, `round-blocks` and `round-pits-to-go-on` do not apply",
    ),
    (
        "territory-partial-pit-to-loser",
        "`true`, `false`",
        "with `territory-pits-to-win`: the pit the round's winner can only partly fill goes to \
         the loser (not to the winner where over half of it is filled); W is then the counters \
         that fill every pit to win, and a round ends the match once it leaves a player fewer \
         than the total less W plus one",
    ),
    (
        "empty-landing-gives-store",
        "`true`, `false`",
        "a last counter into an empty pit on `capture-side` gives the mover's store to the \
         opponent, where it holds counters (a \"passive capture\"); the end's other captures \
         are tried only when it does not. Captured counters then change hands: the game has no \
         tables, and its keys hold the captured totals",
    ),
    (
        "round-only-loser-refills",
        "`true`, `false`",
        "with `rounds`: only the round's loser fills their row again (from their store and row, \
         from the end `round-fill` says); the winner plays on with the row, blocked pits and \
         store the round left them. A drawn round ends the match, and so does a round whose \
         winner has no move on the board it left",
    ),
    (
        "child-count",
        "a count, 0 for none",
        "children: a move's last counter (not in the store) that makes a pit on `child-side` \
         hold this many makes the pit the mover's child, before any capture (a move that makes \
         one captures nothing). Nobody moves from a child, and nothing captures it; sowing \
         fills it as any pit, and its counters are its owner's (at the end, and for a \
         majority). A relay move stops where it would make one, and where a lap ends in a \
         child. The end by `ends-below` needs no child on the board; a row's counters, and the \
         counters left that `leftover` shares, leave out the children's. Position strings mark \
         a child's count `s` or `n` (South's, North's: `5n`). No tables",
    ),
    (
        "child-made-by",
        "`\"count\"`, `\"one-each\"`, `\"facing-pair\"`",
        "with `child-count`: a pit made to hold the count; the same, by a player who has no \
         child yet (one each at most); or a last counter into an empty pit whose facing pit \
         holds the count, which makes both pits the mover's",
    ),
    (
        "child-side",
        "`\"any\"`, `\"own\"`, `\"opponent\"`",
        "with `child-count`: whose pit (by its owner) the last counter must fall into to make \
         a child",
    ),
    (
        "child-landing-takes",
        "a count, 0 for none",
        "with `child-count`: a last counter into a child of the opponent takes this many \
         counters from it (all it holds, where fewer), a capture",
    ),
    (
        "sowing-ring",
        "`\"board\"`, `\"own-row\"`",
        "the ring a hand is sown round: the whole board, or each player's own row only (with \
         the player's store after the row's last pit in the sowing, where `sow-own-store`): the \
         rows are two rings, and only captures reach across. With `own-row`: laps `single` or \
         `relay`, moves from one's own row, one direction, no feeding rule, no captures in \
         passing, children or rounds",
    ),
    (
        "no-capture-moves",
        "a number of moves, 0 for none",
        "the first this many moves of the game (of each round) capture nothing: no capture at \
         a move's end or in passing, no sweep, and a relay lap goes on where a capture would \
         have ended it. A pass counts as a move, but only a sown move ends this opening. \
         Position strings then end with the moves played so far, up to the opening's length \
         (the most of this, `first-move` and `fixed-direction-moves`)",
    ),
    (
        "first-move",
        "`\"sown\"`, `\"one-from-every-other\"`",
        "the first move of the game (of each round): sown as any; or not sown: its pit keeps \
         its counters, and from the pit after it on, round the board, every other pit gives \
         one counter (if it holds one) to the pit after it, the last of them to the pit facing \
         the move's pit, where the move then captures as a last counter there would (laps \
         `single` or `relay`, one direction, no store sown)",
    ),
    (
        "fixed-direction-moves",
        "a number of moves, 0 for none",
        "with `chosen-direction-pits`: the first this many moves of the game (of each round) \
         sow in `direction` from every pit (one move a pit, named without a direction)",
    ),
    (
        "capture-chain-most",
        "a number of pits, 0 for none",
        "with `capture-chain`: a chain takes at most this many pits, the last counter's among \
         them (laps `single` or `relay`, no capture past an empty pit)",
    ),
    (
        "sweep-taker",
        "`\"mover\"`, `\"round-starter\"`",
        "with `sweep-at-most`: who takes the counters swept: the mover, or (in a match of \
         rounds) the player who started the round",
    ),
    (
        "lap-captures-sown-on",
        "`true`, `false` (`false`)",
        "with `lap-captures` and `capture-empty-opposite`: the counters a lap's capture takes \
         are not the mover's: they go into the lap's last pit, which is lifted with them and \
         sown on",
    ),
    (
        "relay-needs-opponent-counters",
        "`true`, `false` (`false`)",
        "with `laps = \"relay\"`: a lap goes on only while the opponent's row holds counters; \
         else the move ends there, with the captures of its last pit",
    ),
    (
        "closes-pits-at",
        "a number of counters from 2, 0 for none",
        "with `laps = \"relay\"`: a lap that ends in an opponent's pit, leaving this many \
         counters there, closes the pit (written `x`): the lap goes on with its counters, and \
         the pit stays closed for the rest of the game. Its owner's sowing passes it by; each \
         counter the other player's sowing would drop in it leaves the game, and a last one so \
         ends the move. A position may then hold fewer counters than the start (laps from the \
         landing pit; no rounds, stores sown, skipped origin, children or sowing round one's \
         own row)",
    ),
    (
        "closing-spares-right-pits",
        "`true`, `false` (`false`)",
        "with `closes-pits-at`: the right-hand pit of each row, as its owner sees it, never \
         closes",
    ),
    (
        "capture-every-count",
        "`true`, `false` (`false`)",
        "with `capture-counts` and `capture-side = \"opponent\"`: a move whose last counter \
         falls in the opponent's row, or in the mover's right-hand pit (as the mover sees it), \
         takes every pit of the opponent's row holding a capture count, not the last counter's \
         pit alone; elsewhere it takes nothing (laps `single`, no other capture rule, grand \
         slams that capture, no territory)",
    ),
    (
        "child-barred-places",
        "a list of places in a row, 1 for its owner's leftmost pit",
        "with `child-count`: no child is made in the pits at these places of either row",
    ),
    (
        "child-apart",
        "`\"anywhere\"`, `\"same-letter\"`, `\"facing\"`",
        "with `child-count`: no child is made where the other row's pit of the same letter \
         (`C` and `c`), or the pit facing it, is a child",
    ),
    (
        "origin-keeps-one",
        "`true`, `false`",
        "a move sows its first counter back into its own pit, and the rest from the next pit \
         on; a pit of a single counter sows it into the next pit (laps `single`, no captures \
         in passing, no counter of each lap to the store, no skipped origin, direction \
         `fixed` or the player's, no move filter that looks at the last pit)",
    ),
    (
        "rounds-to-win",
        "a number of rounds, 0 for none",
        "with `rounds`: a match of rounds won. Every round is dealt as the first (the game's \
         start); its winner (the player holding more counters at its end, or the one the goal \
         makes the winner) scores a round, and the first to score this many wins the match. A \
         start that differs between the rows is turned round (the rows swapped) after a round \
         South started; a game dealt at random (`random-start`) deals each round at random, \
         from a seed its round's end gives. After a drawn round the player who did not start \
         it starts the next. \
         A history rule's end ends the match, won by the player with more rounds (the round it \
         ended counted as any other). Position strings \
         add, after the round's starter, the rounds each player has won (`South:North`, as \
         `2:1`). `round-fill`, `round-blocks`, `round-pits-to-go-on` and territory do not apply",
    ),
    (
        "singles-take-facing",
        "`true`, `false`",
        "before a move is sown, every pit of the mover's row that holds a single counter (the \
         moved pit too) takes the pit facing it into the mover's store (laps `single`, not with \
         children, territory or either row's moves)",
    ),
];

/// The words of a game file's first moves (read and written by the same table).
const FIRST_MOVES: [(&str, FirstMove); 2] = [
    ("sown", FirstMove::Sown),
    ("one-from-every-other", FirstMove::OneFromEveryOther),
];

/// The longest opening a game file may count ([`Rules::opening_moves`]).
const MAX_OPENING_MOVES: u64 = 16;

/// The words of a game file's sowing rings (read and written by the same table).
const SOWING_RINGS: [(&str, bool); 2] = [("board", false), ("own-row", true)];

/// The words of a game file's `ChildMaking` values (read and written by the same table).
const CHILD_MAKINGS: [(&str, ChildMaking); 3] = [
    ("count", ChildMaking::Count),
    ("one-each", ChildMaking::OneEach),
    ("facing-pair", ChildMaking::FacingPair),
];

/// The words of a game file's `ChildApart` values (read and written by the same table).
const CHILD_APARTS: [(&str, ChildApart); 3] = [
    ("anywhere", ChildApart::Anywhere),
    ("same-letter", ChildApart::SameLetter),
    ("facing", ChildApart::Facing),
];

/// The words of a game file's `RoundFill` values (read and written by the same table).
const ROUND_FILLS: [(&str, RoundFill); 4] = [
    ("from-left", RoundFill::FromLeft),
    ("from-right", RoundFill::FromRight),
    ("from-board-left", RoundFill::FromBoardLeft),
    ("outside-in", RoundFill::OutsideIn),
];

/// The words of a game file's `RoundStarter` values (read and written by the same table).
const ROUND_STARTERS: [(&str, RoundStarter); 4] = [
    ("alternate", RoundStarter::Alternate),
    ("loser", RoundStarter::Loser),
    ("winner", RoundStarter::Winner),
    ("last-mover", RoundStarter::LastMover),
];

/// The words of a game file's `MoveChoice` values (read and written by the same table).
const MOVE_CHOICES: [(&str, MoveChoice); 3] = [
    ("any-pit", MoveChoice::AnyPit),
    ("leftmost", MoveChoice::Leftmost),
    ("either-row", MoveChoice::EitherRow),
];

/// The words of a game file's `MoveFilter` values (read and written by the same table).
const MOVE_FILTERS: [(&str, MoveFilter); 6] = [
    ("every", MoveFilter::Every),
    ("ends-away-or-empty", MoveFilter::EndsAwayOrEmpty),
    ("single-into-empty", MoveFilter::SingleIntoEmpty),
    ("one-only-if-all", MoveFilter::CountOnlyIfAll(1)),
    ("two-only-if-all", MoveFilter::CountOnlyIfAll(2)),
    (
        "ones-only-if-all-into-empty",
        MoveFilter::SinglesOnlyIfAllIntoEmpty,
    ),
];

/// The words of a game file's `Direction` values (read and written by the same table).
const DIRECTIONS: [(&str, Direction); 2] = [
    ("counter-clockwise", Direction::CounterClockwise),
    ("clockwise", Direction::Clockwise),
];

/// The words of a game file's `DirectionRule` values (read and written by the same table).
const DIRECTION_RULES: [(&str, DirectionRule); 4] = [
    ("fixed", DirectionRule::Fixed),
    ("hand-parity", DirectionRule::HandParity),
    ("row-halves", DirectionRule::RowHalves),
    ("first-move", DirectionRule::FirstMoveChooses),
];

/// The words of a game file's `RelayFrom` values (read and written by the same table).
const RELAY_FROMS: [(&str, RelayFrom); 2] = [
    ("landing", RelayFrom::Landing),
    ("next-pit", RelayFrom::NextPit),
];

/// The words of a game file's `PassingCaptures` values (read and written by the same table).
const PASSING_CAPTURES: [(&str, PassingCaptures); 6] = [
    ("off", PassingCaptures::Off),
    ("to-owner", PassingCaptures::ToOwner),
    ("to-owner-last-too", PassingCaptures::ToOwnerLastToo),
    ("to-mover", PassingCaptures::ToMover),
    ("to-mover-in-own-row", PassingCaptures::ToMoverInOwnRow),
    (
        "to-mover-in-opponent-row",
        PassingCaptures::ToMoverInOpponentRow,
    ),
];

/// The words of a game file's `CaptureSide` values (read and written by the same table).
const SIDES: [(&str, CaptureSide); 3] = [
    ("any", CaptureSide::Any),
    ("own", CaptureSide::Own),
    ("opponent", CaptureSide::Opponent),
];

/// The words of a game file's `GrandSlam` values (read and written by the same table).
/// The words of a game file's `Goal` values (read and written by the same table).
const GOALS: [(&str, Goal); 4] = [
    ("most-counters", Goal::MostCounters),
    ("clear-own-row", Goal::ClearOwnRow),
    ("deprive", Goal::Deprive),
    ("immobilize", Goal::Immobilize),
];

/// The words of a game file's `CaptureExtraMove` values (read and written by the same table).
const CAPTURE_EXTRA_MOVES: [(&str, CaptureExtraMove); 3] = [
    ("no", CaptureExtraMove::No),
    ("always", CaptureExtraMove::Always),
    ("once", CaptureExtraMove::Once),
];

const GRAND_SLAMS: [(&str, GrandSlam); 7] = [
    ("captures", GrandSlam::Captures),
    ("captures-nothing", GrandSlam::CapturesNothing),
    ("captures-nothing-if-held", GrandSlam::CapturesNothingIfHeld),
    ("leaves-leftmost", GrandSlam::LeavesLeftmost),
    ("leaves-rightmost", GrandSlam::LeavesRightmost),
    ("movers-row-to-opponent", GrandSlam::MoversRowToOpponent),
    ("captures-and-moves-again", GrandSlam::CapturesAndMovesAgain),
];

/// The words of a game file's `Unfed` values (read and written by the same table).
const UNFEDS: [(&str, Unfed); 4] = [
    ("starved-player-takes-all", Unfed::StarvedPlayerTakesAll),
    ("mover-takes-all", Unfed::MoverTakesAll),
    ("as-leftover", Unfed::AsLeftover),
    ("any-move", Unfed::AnyMove),
];

/// The words of a game file's `OwnEnd` values (read and written by the same table).
const OWN_ENDS: [(&str, OwnEnd); 6] = [
    ("board-empty", OwnEnd::EmptyBoard),
    ("last-four", OwnEnd::LastFour),
    ("row-empty", OwnEnd::RowEmpty),
    ("majority", OwnEnd::Majority),
    ("mover-row-empty", OwnEnd::MoverRowEmpty),
    ("either-row-empty", OwnEnd::EitherRowEmpty),
];

/// The words of a game file's `Leftover` values (read and written by the same table).
const LEFTOVERS: [(&str, Leftover); 6] = [
    ("split-evenly", Leftover::SplitEvenly),
    ("row-owner", Leftover::RowOwner),
    ("last-four-receiver", Leftover::LastFourReceiver),
    ("nobody", Leftover::Nobody),
    ("split-odd-to-trailing", Leftover::SplitOddToTrailing),
    ("last-mover", Leftover::LastMover),
];
/// The word of `value` in its table.
fn name_of<T: PartialEq>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(name, _)| name)
}

/// RULES.md's table of the fields: name, values with the default of a file that leaves the
/// field out, and the rule.
pub fn fields_table() -> String {
    let minimal = parse("name = \"x\"\npits-per-row = 6\nstart = 4\n").expect("a valid file");
    let defaults = write(&minimal);
    let mut table = String::new();
    for (key, values, rule) in FIELDS {
        let default = match key {
            "name" | "pits-per-row" | "start" => "required".to_string(),
            "title" => "the name".to_string(),
            "stores" => "`sow-own-store`".to_string(),
            _ => defaults
                .lines()
                .filter_map(|line| line.split_once(" = "))
                .find(|(field, _)| *field == key)
                .map(|(_, value)| format!("`{value}`"))
                .unwrap_or_default(),
        };
        table += &format!("| `{key}` | {values} ({default}) | {rule} |\n");
    }
    table
}

/// The `key = value` fields of `text`, checked for form only.
fn fields(text: &str) -> Result<BTreeMap<String, Value>, DefinitionError> {
    let mut fields = BTreeMap::new();
    for (number, raw) in text.lines().enumerate() {
        let place = format!("line {}", number + 1);
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            return Err(error(
                &place,
                "sections are not used: a game file is 'key = value' lines",
            ));
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(error(&place, format!("'{line}' is not 'key = value'")));
        };
        let key = key.trim();
        if !FIELDS.iter().any(|(known, _, _)| *known == key) {
            let known: Vec<&str> = FIELDS.iter().map(|(k, _, _)| *k).collect();
            return Err(error(
                key,
                format!("unknown field (the fields are {})", known.join(", ")),
            ));
        }
        let value = parse_value(value.trim()).map_err(|why| error(key, why))?;
        if fields.insert(key.to_string(), value).is_some() {
            return Err(error(key, "given twice"));
        }
    }
    Ok(fields)
}

/// The line up to a `#` that is not inside a quoted word (game files, and the engine's weights
/// files, which use the same lines).
pub fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (at, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..at],
            _ => {}
        }
    }
    line
}

fn parse_value(text: &str) -> Result<Value, String> {
    let number = |t: &str| {
        let t = t.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            t.parse::<u64>().map_err(|_| format!("{t} is too large"))
        } else {
            Err(format!("'{t}' is not a non-negative whole number"))
        }
    };
    match text {
        "true" => Ok(Value::Bool(true)),
        "false" => Ok(Value::Bool(false)),
        _ if text.starts_with('"') => {
            let inner = text
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .filter(|t| !t.contains('"'))
                .ok_or("a word in double quotes must end with one")?;
            Ok(Value::Word(inner.to_string()))
        }
        _ if text.starts_with('[') => {
            let inner = text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .ok_or("a list must end with ']'")?;
            if inner.trim().is_empty() {
                return Ok(Value::List(Vec::new()));
            }
            inner
                .split(',')
                .map(number)
                .collect::<Result<Vec<u64>, String>>()
                .map(Value::List)
        }
        _ => number(text).map(Value::Number),
    }
}

/// The fields of one file, taken one by one.
struct Fields(BTreeMap<String, Value>);

impl Fields {
    fn take(&mut self, key: &str) -> Option<Value> {
        self.0.remove(key)
    }

    fn bool(&mut self, key: &str, default: bool) -> Result<bool, DefinitionError> {
        match self.take(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(b),
            Some(other) => Err(error(
                key,
                format!("{} is not true or false", other.describe()),
            )),
        }
    }

    fn number(&mut self, key: &str, default: Option<u64>) -> Result<u64, DefinitionError> {
        match self.take(key) {
            None => default.ok_or_else(|| error(key, "missing (every game file gives it)")),
            Some(Value::Number(n)) => Ok(n),
            Some(other) => Err(error(
                key,
                format!("{} is not a whole number", other.describe()),
            )),
        }
    }

    fn word(&mut self, key: &str) -> Result<Option<String>, DefinitionError> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Word(w)) => Ok(Some(w)),
            Some(other) => Err(error(
                key,
                format!("{} is not a word in double quotes", other.describe()),
            )),
        }
    }

    /// One of `choices` (word, value), or `default`.
    fn choice<T: Copy>(
        &mut self,
        key: &str,
        choices: &[(&str, T)],
        default: T,
    ) -> Result<T, DefinitionError> {
        let Some(word) = self.word(key)? else {
            return Ok(default);
        };
        choices
            .iter()
            .find(|(name, _)| *name == word)
            .map(|&(_, value)| value)
            .ok_or_else(|| {
                let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                error(
                    key,
                    format!("\"{word}\" is not one of {}", names.join(", ")),
                )
            })
    }
}

/// Leaks `text` for the life of the process: a game's name lives as long as its positions.
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A list of counts (each 1 to [`MAX_COUNTERS`]) as a set; an absent field is the empty set.
fn counts_field(f: &mut Fields, key: &str) -> Result<CaptureCounts, DefinitionError> {
    let counts: Vec<u64> = match f.take(key) {
        None => Vec::new(),
        Some(Value::List(counts)) => counts,
        Some(other) => {
            return Err(error(
                key,
                format!("{} is not a list of counts", other.describe()),
            ));
        }
    };
    if let Some(&bad) = counts.iter().find(|&&c| c == 0 || c > MAX_COUNTERS as u64) {
        return Err(error(
            key,
            format!("{bad} is not a count from 1 to {MAX_COUNTERS}"),
        ));
    }
    let counts: Vec<u8> = counts.iter().map(|&c| c as u8).collect();
    Ok(CaptureCounts::of(&counts))
}

/// A list of places in a row of `n` pits (1 for its owner's leftmost) as a bit each (bit
/// `p - 1` for place `p`); an absent field is no place.
fn places_field(f: &mut Fields, key: &str, n: usize) -> Result<u16, DefinitionError> {
    match f.take(key) {
        None => Ok(0),
        Some(Value::List(places)) => {
            let mut bits = 0u16;
            for &place in &places {
                if place == 0 || place > n as u64 {
                    return Err(error(
                        key,
                        format!("{place} is not a place in a row of {n} pits"),
                    ));
                }
                bits |= 1 << (place - 1);
            }
            Ok(bits)
        }
        Some(other) => Err(error(
            key,
            format!("{} is not a list of places", other.describe()),
        )),
    }
}

/// Reads a game file into its rules, checked for consistency and for rules the engine
/// implements.
pub fn parse(text: &str) -> Result<Rules, DefinitionError> {
    let mut f = Fields(fields(text)?);
    let name = f
        .word("name")?
        .ok_or_else(|| error("name", "missing (every game file gives it)"))?;
    if name.is_empty()
        || name.len() > 32
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(error(
            "name",
            format!("\"{name}\" is not 1 to 32 lower-case letters, digits and '-'"),
        ));
    }
    let title = f.word("title")?.unwrap_or_else(|| name.clone());
    if title.is_empty() || title.len() > 64 || title.chars().any(char::is_control) {
        return Err(error("title", "1 to 64 characters on one line"));
    }
    let n = f.number("pits-per-row", None)?;
    if !(2..=MAX_ROW as u64).contains(&n) {
        return Err(error(
            "pits-per-row",
            format!("{n} pits a row is not in 2 to {MAX_ROW}"),
        ));
    }
    let n = n as usize;
    let start = match f.take("start") {
        None => return Err(error("start", "missing (every game file gives it)")),
        Some(Value::Number(count)) => Start::Uniform(count.min(255) as u8),
        Some(Value::List(counts)) => {
            if counts.len() != 2 * n {
                return Err(error(
                    "start",
                    format!("{} counts for {} pits", counts.len(), 2 * n),
                ));
            }
            let counts: Vec<u8> = counts.iter().map(|&c| c.min(255) as u8).collect();
            Start::Pattern(Box::leak(counts.into_boxed_slice()))
        }
        Some(other) => {
            return Err(error(
                "start",
                format!("{} is neither a count nor a list", other.describe()),
            ));
        }
    };
    let random_start = f.bool("random-start", false)?;
    let any_total = f.bool("any-total", false)?;
    let move_choice = f.choice("moves", &MOVE_CHOICES, MoveChoice::AnyPit)?;
    let min_move = f.number("min-move", Some(1))?;
    if !(1..=MAX_COUNTERS as u64).contains(&min_move) {
        return Err(error(
            "min-move",
            format!("{min_move} is not from 1 to {MAX_COUNTERS}"),
        ));
    }
    let move_filter = f.choice("move-filter", &MOVE_FILTERS, MoveFilter::Every)?;
    let direction = f.choice("direction", &DIRECTIONS, Direction::CounterClockwise)?;
    let direction_rule = f.choice("direction-by", &DIRECTION_RULES, DirectionRule::Fixed)?;
    let sow_own_store = f.bool("sow-own-store", false)?;
    let store_at_right = f.bool("store-at-right", false)?;
    let skip_origin = f.bool("skip-origin", false)?;
    #[derive(Clone, Copy, PartialEq)]
    enum LapKind {
        Single,
        Relay,
        RelayWithOpposite,
        RelayFours,
    }
    let lap_kind = f.choice(
        "laps",
        &[
            ("single", LapKind::Single),
            ("relay", LapKind::Relay),
            ("relay-with-opposite", LapKind::RelayWithOpposite),
            ("relay-fours", LapKind::RelayFours),
        ],
        LapKind::Single,
    )?;
    let lap_limit = f.number("lap-limit", Some(0))?;
    if lap_limit > u16::MAX as u64 {
        return Err(error(
            "lap-limit",
            format!("{lap_limit} is more than {}", u16::MAX),
        ));
    }
    let relay_from = f.choice("relay-from", &RELAY_FROMS, RelayFrom::Landing)?;
    let passing_captures = f.choice("passing-captures", &PASSING_CAPTURES, PassingCaptures::Off)?;
    let store_one_per_lap = f.bool("store-one-per-lap", false)?;
    let relay_counts = counts_field(&mut f, "relay-counts")?;
    let relay_side = f.choice("relay-side", &SIDES, CaptureSide::Any)?;
    let lap_captures = f.bool("lap-captures", false)?;
    let lap_captures_sown_on = f.bool("lap-captures-sown-on", false)?;
    let relay_needs_opponent_counters = f.bool("relay-needs-opponent-counters", false)?;
    let captures = counts_field(&mut f, "capture-counts")?;
    let capture_side = f.choice("capture-side", &SIDES, CaptureSide::Any)?;
    let capture_chain = f.bool("capture-chain", false)?;
    let chain_stops_at_origin = f.bool("chain-stops-at-origin", true)?;
    let capture_empty_opposite = f.bool("capture-empty-opposite", false)?;
    let capture_takes_own = f.bool("capture-takes-own", true)?;
    let takes_own_alone = f.bool("capture-takes-own-alone", false)?;
    let empty_either_row = f.bool("capture-empty-either-row", false)?;
    let chain_either_row = f.bool("chain-either-row", false)?;
    let single_counter_captures = f.bool("single-counter-captures", true)?;
    let single_counter_takes_facing = f.bool("single-counter-takes-facing", false)?;
    let opening_from_rightmost = f.bool("opening-from-rightmost", false)?;
    let no_crossing_back = f.bool("no-crossing-back", false)?;
    let chosen_direction_pits = places_field(&mut f, "chosen-direction-pits", n)?;
    let capture_past_empty = f.bool("capture-past-empty", false)?;
    let past_empty_takes_facing = f.bool("past-empty-takes-facing", false)?;
    let empty_landing_gives_store = f.bool("empty-landing-gives-store", false)?;
    let grand_slam = f.choice("grand-slam", &GRAND_SLAMS, GrandSlam::Captures)?;
    let extra_turn_in_store = f.bool("extra-turn-in-store", false)?;
    let capture_extra_move = f.choice(
        "capture-extra-move",
        &CAPTURE_EXTRA_MOVES,
        CaptureExtraMove::No,
    )?;
    let sweep_at_most = f.number("sweep-at-most", Some(0))?;
    if sweep_at_most > MAX_COUNTERS as u64 {
        return Err(error(
            "sweep-at-most",
            format!("{sweep_at_most} is more than {MAX_COUNTERS}"),
        ));
    }
    let must_feed = f.bool("must-feed", false)?;
    let unfed = f.choice("unfed", &UNFEDS, Unfed::StarvedPlayerTakesAll)?;
    let own_end = f.choice("game-ends", &OWN_ENDS, OwnEnd::EmptyBoard)?;
    let goal = f.choice("goal", &GOALS, Goal::MostCounters)?;
    let leftover = f.choice("leftover", &LEFTOVERS, Leftover::SplitEvenly)?;
    let majority_ends = f.bool("majority-ends", false)?;
    let ends_below = f.number("ends-below", Some(0))?;
    if ends_below > MAX_COUNTERS as u64 {
        return Err(error(
            "ends-below",
            format!("{ends_below} is more than {MAX_COUNTERS}"),
        ));
    }
    let limit = f.number("no-progress-limit", Some(100))?;
    if limit > u16::MAX as u64 {
        return Err(error(
            "no-progress-limit",
            format!("{limit} is more than {}", u16::MAX),
        ));
    }
    let stores = f.bool("stores", sow_own_store)?;
    let in_rounds = f.bool("rounds", false)?;
    let round_fill = f.choice("round-fill", &ROUND_FILLS, RoundFill::FromLeft)?;
    let round_starter = f.choice("round-starter", &ROUND_STARTERS, RoundStarter::Alternate)?;
    let round_blocks = f.bool("round-blocks", false)?;
    let pits_to_go_on = f.number("round-pits-to-go-on", Some(1))?;
    if !(1..=n as u64).contains(&pits_to_go_on) {
        return Err(error(
            "round-pits-to-go-on",
            format!("{pits_to_go_on} is not from 1 to the {n} pits of a row"),
        ));
    }
    let territory_pits_to_win = f.number("territory-pits-to-win", Some(0))?;
    if territory_pits_to_win != 0 && !(n as u64 + 1..=2 * n as u64).contains(&territory_pits_to_win)
    {
        return Err(error(
            "territory-pits-to-win",
            format!(
                "{territory_pits_to_win} is not from {} to the {} pits of the board",
                n + 1,
                2 * n
            ),
        ));
    }
    let partial_pit_to_loser = f.bool("territory-partial-pit-to-loser", false)?;
    let only_loser_refills = f.bool("round-only-loser-refills", false)?;
    let wins_to_win = f.number("rounds-to-win", Some(0))?;
    if wins_to_win > u8::MAX as u64 {
        return Err(error(
            "rounds-to-win",
            format!("{wins_to_win} is more than {}", u8::MAX),
        ));
    }
    let child_count = f.number("child-count", Some(0))?;
    let child_made_by = f.choice("child-made-by", &CHILD_MAKINGS, ChildMaking::Count)?;
    let child_side = f.choice("child-side", &SIDES, CaptureSide::Any)?;
    let child_landing_takes = f.number("child-landing-takes", Some(0))?;
    let own_row_ring = f.choice("sowing-ring", &SOWING_RINGS, false)?;
    let no_capture_moves = f.number("no-capture-moves", Some(0))?;
    let first_move = f.choice("first-move", &FIRST_MOVES, FirstMove::Sown)?;
    let fixed_direction_moves = f.number("fixed-direction-moves", Some(0))?;
    let closes_pits_at = f.number("closes-pits-at", Some(0))?;
    let closing_spares_right_pits = f.bool("closing-spares-right-pits", false)?;
    let capture_every_count = f.bool("capture-every-count", false)?;
    let child_barred_places = places_field(&mut f, "child-barred-places", n)?;
    let child_apart = f.choice("child-apart", &CHILD_APARTS, ChildApart::Anywhere)?;
    let origin_keeps_one = f.bool("origin-keeps-one", false)?;
    let singles_take_facing = f.bool("singles-take-facing", false)?;
    if closes_pits_at == 1 || closes_pits_at > MAX_COUNTERS as u64 {
        return Err(error(
            "closes-pits-at",
            format!(
                "{closes_pits_at}: a pit closes at 2 to {MAX_COUNTERS} counters (a lap that \
                 leaves one ends the move)"
            ),
        ));
    }
    let chain_most = f.number("capture-chain-most", Some(0))?;
    let sweep_to_round_starter = f.choice(
        "sweep-taker",
        &[("mover", false), ("round-starter", true)],
        false,
    )?;
    if chain_most > (2 * MAX_ROW) as u64 {
        return Err(error(
            "capture-chain-most",
            format!(
                "{chain_most} is more than the {} pits of any board",
                2 * MAX_ROW
            ),
        ));
    }
    for (field, moves) in [
        ("no-capture-moves", no_capture_moves),
        ("fixed-direction-moves", fixed_direction_moves),
    ] {
        if moves > MAX_OPENING_MOVES {
            return Err(error(
                field,
                format!("{moves} is more than {MAX_OPENING_MOVES} moves"),
            ));
        }
    }
    if child_count > MAX_COUNTERS as u64 {
        return Err(error(
            "child-count",
            format!("{child_count} is more than {MAX_COUNTERS}"),
        ));
    }
    if child_landing_takes > MAX_COUNTERS as u64 {
        return Err(error(
            "child-landing-takes",
            format!("{child_landing_takes} is more than {MAX_COUNTERS}"),
        ));
    }
    if child_count == 0 {
        let unused = [
            ("child-made-by", child_made_by != ChildMaking::Count),
            ("child-side", child_side != CaptureSide::Any),
            ("child-landing-takes", child_landing_takes != 0),
            ("child-barred-places", child_barred_places != 0),
            ("child-apart", child_apart != ChildApart::Anywhere),
        ];
        if let Some((field, _)) = unused.iter().find(|(_, set)| *set) {
            return Err(error(field, "needs child-count"));
        }
    }
    let children = (child_count > 0).then_some(Children {
        count: child_count as u8,
        made_by: child_made_by,
        side: child_side,
        landing_takes: child_landing_takes as u8,
        barred_places: child_barred_places,
        apart: child_apart,
    });
    if partial_pit_to_loser && territory_pits_to_win == 0 {
        return Err(error(
            "territory-partial-pit-to-loser",
            "needs territory-pits-to-win",
        ));
    }
    let rounds = Rounds {
        fill: round_fill,
        starter: round_starter,
        blocks: round_blocks,
        pits_to_go_on: pits_to_go_on as u8,
        territory_pits_to_win: territory_pits_to_win as u8,
        partial_pit_to_loser,
        only_loser_refills,
        wins_to_win: wins_to_win as u8,
    };
    if !in_rounds {
        let unused = [
            ("round-fill", round_fill != RoundFill::FromLeft),
            ("round-starter", round_starter != RoundStarter::Alternate),
            ("round-blocks", round_blocks),
            ("round-pits-to-go-on", pits_to_go_on != 1),
            ("territory-pits-to-win", territory_pits_to_win != 0),
            ("round-only-loser-refills", only_loser_refills),
            ("rounds-to-win", wins_to_win != 0),
        ];
        if let Some((field, _)) = unused.iter().find(|(_, set)| *set) {
            return Err(error(field, "needs rounds = true"));
        }
    }
    let laps = match lap_kind {
        LapKind::Single => Laps::Single { captures },
        LapKind::Relay => Laps::Relay { captures },
        LapKind::RelayWithOpposite => Laps::RelayWithOpposite { captures },
        LapKind::RelayFours => Laps::RelayFours,
    };
    let rules = Rules {
        name: leak(name),
        title: leak(title),
        pits_per_row: n,
        start,
        random_start,
        opening_from_rightmost,
        chosen_direction_pits,
        chain_direction: None,
        no_crossing_back,
        any_total,
        move_choice,
        min_move: min_move as u8,
        move_filter,
        direction,
        direction_rule,
        sow_own_store,
        store_at_right,
        skip_origin,
        laps,
        lap_limit: lap_limit as u16,
        relay_from,
        passing_captures,
        store_one_per_lap,
        relay_counts,
        relay_side,
        lap_captures,
        lap_captures_sown_on,
        relay_needs_opponent_counters,
        capture_side,
        capture_chain,
        chain_stops_at_origin,
        capture_empty_opposite,
        capture_takes_own,
        takes_own_alone,
        empty_either_row,
        chain_either_row,
        single_counter_captures,
        single_counter_takes_facing,
        capture_past_empty,
        past_empty_takes_facing,
        empty_landing_gives_store,
        grand_slam,
        extra_turn_in_store,
        capture_extra_move,
        sweep_at_most: sweep_at_most as u8,
        must_feed,
        unfed,
        own_end,
        leftover,
        majority_ends,
        ends_below: ends_below as u8,
        no_progress_limit: (limit > 0).then_some(limit as u16),
        stores,
        rounds: in_rounds.then_some(rounds),
        goal,
        children,
        own_row_ring,
        no_capture_moves: no_capture_moves as u8,
        first_move,
        fixed_direction_moves: fixed_direction_moves as u8,
        closes_pits_at: closes_pits_at as u8,
        closing_spares_right_pits,
        capture_every_count,
        origin_keeps_one,
        singles_take_facing,
        chain_most: chain_most as u8,
        sweep_to_round_starter,
    };
    check(&rules)?;
    Ok(rules)
}

/// The first of `fields` whose rule is in use (a field name and whether the record uses it).
fn first_in_use<'a>(fields: &[(&'a str, bool)]) -> Option<&'a str> {
    fields.iter().find(|(_, on)| *on).map(|(field, _)| *field)
}

/// The first field whose rule needs the direction of a pit's sowing before its move is chosen
/// (or a kind of laps that has no chosen direction), which a direction the mover chooses cannot
/// go with.
fn needs_direction_before_move(rules: &Rules) -> Option<&'static str> {
    first_in_use(&[
        (
            "laps",
            !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
        ),
        ("moves", rules.move_choice == MoveChoice::Leftmost),
        ("move-filter", rules.move_filter != MoveFilter::Every),
        ("sow-own-store", rules.sow_own_store),
        ("grand-slam", rules.grand_slam != GrandSlam::Captures),
    ])
}

/// Refuses a record that is inconsistent or asks for what the engine does not implement, naming
/// the field.
pub fn check(rules: &Rules) -> Result<(), DefinitionError> {
    let total = rules.total();
    if total == 0 || total > MAX_COUNTERS {
        return Err(error(
            "start",
            format!("{total} counters in all is not from 1 to {MAX_COUNTERS}"),
        ));
    }
    if rules.most_moves() > MAX_MOVES {
        return Err(error(
            "chosen-direction-pits",
            format!(
                "{} moves (two for a pit whose direction is chosen, of either row) are more than \
                 the {MAX_MOVES} a position may have",
                rules.most_moves()
            ),
        ));
    }
    let single = matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. });
    let one_lap_only = [
        ("sow-own-store", rules.sow_own_store),
        ("skip-origin", rules.skip_origin),
        ("capture-empty-opposite", rules.capture_empty_opposite),
        ("extra-turn-in-store", rules.extra_turn_in_store),
        ("grand-slam", rules.grand_slam != GrandSlam::Captures),
        ("capture-side", rules.capture_side != CaptureSide::Any),
    ];
    if !single && let Some(field) = first_in_use(&one_lap_only) {
        return Err(error(
            field,
            "is implemented for games whose last lap captures as one lap does (laps = \"single\" or \"relay\")",
        ));
    }
    match rules.laps {
        Laps::RelayWithOpposite { captures } if captures.is_empty() => {
            return Err(error(
                "capture-counts",
                "a relay-with-opposite game needs the counts that end a relay in a capture",
            ));
        }
        // A landing pit holding one ends the move before any capture: a relay whose only count
        // is 1 never captures, and its endless moves can cycle for longer than play can follow.
        Laps::RelayWithOpposite { captures } if captures.counts().iter().all(|&c| c < 2) => {
            return Err(error(
                "capture-counts",
                "a relay-with-opposite game needs a count of 2 or more (a landing pit holding one \
                 ends the move: 1 never captures)",
            ));
        }
        Laps::RelayWithOpposite { .. } if !rules.capture_chain => {
            return Err(error(
                "capture-chain",
                "relay-with-opposite captures always chain: set it true",
            ));
        }
        Laps::RelayFours
            if rules.own_end != OwnEnd::LastFour
                || rules.leftover != Leftover::LastFourReceiver =>
        {
            return Err(error(
                "laps",
                "relay-fours is implemented with game-ends = \"last-four\" and leftover = \
                 \"last-four-receiver\" only",
            ));
        }
        Laps::RelayFours if !total.is_multiple_of(4) => {
            return Err(error(
                "start",
                format!("a relay-fours game needs a multiple of 4 counters, not {total}"),
            ));
        }
        Laps::Single { captures } | Laps::Relay { captures }
            if rules.capture_empty_opposite && !captures.is_empty() =>
        {
            return Err(error(
                "capture-empty-opposite",
                "is a capture rule of its own: the engine plays either it or capture-counts, \
                 not both",
            ));
        }
        _ => {}
    }
    if !matches!(rules.laps, Laps::RelayFours)
        && (rules.own_end == OwnEnd::LastFour || rules.leftover == Leftover::LastFourReceiver)
    {
        return Err(error(
            if rules.own_end == OwnEnd::LastFour {
                "game-ends"
            } else {
                "leftover"
            },
            "the last four and their receiver are implemented for relay-fours games only",
        ));
    }
    if rules.passing_captures != PassingCaptures::Off {
        match rules.laps {
            Laps::Single { captures } | Laps::Relay { captures } if !captures.is_empty() => {}
            _ => {
                return Err(error(
                    "passing-captures",
                    "needs laps = \"single\" or \"relay\" and the capture-counts it takes",
                ));
            }
        }
    }
    let middle_chosen = rules.direction_chosen_at(rules.pits_per_row / 2);
    if rules.direction_rule == DirectionRule::RowHalves
        && !rules.pits_per_row.is_multiple_of(2)
        && !middle_chosen
    {
        return Err(error(
            "direction-by",
            "\"row-halves\" needs rows of an even length, or the middle pit in \
             chosen-direction-pits (it would have no direction)",
        ));
    }
    if rules.tracks_directions() {
        let clash = [
            ("moves", rules.move_choice == MoveChoice::EitherRow),
            ("chosen-direction-pits", rules.chosen_direction_pits != 0),
            ("no-crossing-back", rules.no_crossing_back),
            ("opening-from-rightmost", rules.opening_from_rightmost),
        ];
        if let Some(field) = needs_direction_before_move(rules).or(first_in_use(&clash)) {
            return Err(error(
                field,
                "is not implemented with direction-by = \"first-move\" (a rule that needs the \
                 direction of a pit's sowing before its move is chosen)",
            ));
        }
    }
    if rules.chosen_direction_pits != 0
        && let Some(field) = needs_direction_before_move(rules)
    {
        return Err(error(
            field,
            "is not implemented with chosen-direction-pits (a rule that needs the direction of a \
             pit's sowing before its move is chosen)",
        ));
    }
    if rules.direction_rule != DirectionRule::Fixed
        && !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. })
    {
        return Err(error(
            "direction-by",
            "is implemented for laps = \"single\" or \"relay\" only",
        ));
    }
    if rules.opening_from_rightmost {
        let clash = [
            ("random-start", rules.random_start),
            ("rounds", rules.rounds.is_some()),
            ("moves", rules.move_choice == MoveChoice::Leftmost),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                field,
                "is not implemented with opening-from-rightmost (a start made by a move)",
            ));
        }
        if rules.start_count(rules.pits_per_row - 1) == 0 {
            return Err(error(
                "opening-from-rightmost",
                "South's rightmost pit is empty at the start: there is no move to make",
            ));
        }
    }
    if rules.move_choice == MoveChoice::EitherRow {
        // Rules that ask whose row a pit is in have no meaning where the rows belong to nobody.
        let by_row = [
            (
                "game-ends",
                !matches!(rules.own_end, OwnEnd::EmptyBoard | OwnEnd::Majority),
            ),
            ("goal", rules.goal != Goal::MostCounters),
            ("must-feed", rules.must_feed),
            ("move-filter", rules.move_filter != MoveFilter::Every),
            ("sow-own-store", rules.sow_own_store),
            ("capture-side", rules.capture_side != CaptureSide::Any),
            (
                "capture-empty-opposite",
                rules.capture_empty_opposite && !rules.empty_either_row,
            ),
            ("grand-slam", rules.grand_slam != GrandSlam::Captures),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            ("relay-side", rules.relay_side != CaptureSide::Any),
            ("rounds", rules.rounds.is_some()),
            ("leftover", rules.leftover == Leftover::RowOwner),
        ];
        if let Some(field) = first_in_use(&by_row) {
            return Err(error(
                field,
                "asks whose row a pit is in, which moves = \"either-row\" leaves to nobody",
            ));
        }
    }
    if let Some(rounds) = rules.rounds.filter(|_| rules.territory()) {
        // Rules that ask whose row a pit is in, where the pits a player owns change hands, or
        // that deal a round otherwise than territory does.
        let by_row = [
            ("random-start", rules.random_start),
            ("any-total", rules.any_total),
            ("opening-from-rightmost", rules.opening_from_rightmost),
            ("moves", rules.move_choice != MoveChoice::AnyPit),
            ("min-move", rules.min_move > 1),
            ("move-filter", rules.move_filter != MoveFilter::Every),
            ("chosen-direction-pits", rules.chosen_direction_pits != 0),
            (
                "direction-by",
                matches!(
                    rules.direction_rule,
                    DirectionRule::RowHalves | DirectionRule::FirstMoveChooses
                ),
            ),
            ("sow-own-store", rules.sow_own_store),
            ("capture-side", rules.capture_side != CaptureSide::Any),
            ("relay-side", rules.relay_side != CaptureSide::Any),
            ("capture-empty-opposite", rules.capture_empty_opposite),
            ("grand-slam", rules.grand_slam != GrandSlam::Captures),
            ("game-ends", rules.own_end == OwnEnd::RowEmpty),
            ("goal", rules.goal != Goal::MostCounters),
            ("no-crossing-back", rules.no_crossing_back),
            ("round-fill", rounds.fill != RoundFill::FromLeft),
            ("round-blocks", rounds.blocks),
            ("round-pits-to-go-on", rounds.pits_to_go_on != 1),
            ("round-only-loser-refills", rounds.only_loser_refills),
        ];
        if let Some(field) = first_in_use(&by_row) {
            return Err(error(
                field,
                "is not a rule of a match for territory (territory-pits-to-win), where the pits \
                 a player owns change from round to round",
            ));
        }
    }
    let relay = matches!(rules.laps, Laps::Relay { .. });
    for (field, used) in [
        ("lap-limit", rules.lap_limit != 0),
        ("relay-counts", !rules.relay_counts.is_empty()),
        ("relay-side", rules.relay_side != CaptureSide::Any),
        ("relay-from", rules.relay_from != RelayFrom::Landing),
    ] {
        if used && !relay {
            return Err(error(field, "is implemented for laps = \"relay\" only"));
        }
    }
    if rules.extra_turn_in_store && !rules.sow_own_store {
        return Err(error(
            "extra-turn-in-store",
            "needs sow-own-store = true (a last counter can fall in the store only if the store \
             is sown)",
        ));
    }
    if rules.own_end == OwnEnd::Majority && rules.any_total {
        return Err(error(
            "game-ends",
            "\"majority\" needs a fixed number of counters (any-total = false)",
        ));
    }
    if rules.majority_ends && rules.any_total {
        return Err(error(
            "majority-ends",
            "needs a fixed number of counters (any-total = false)",
        ));
    }
    if rules.random_start && (!matches!(rules.start, Start::Uniform(_)) || rules.any_total) {
        return Err(error(
            "random-start",
            "needs the same start count in every pit, and the game's own total (a random deal \
             shares out that total)",
        ));
    }
    if rules.empty_landing_gives_store {
        let clash = [
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
            ("capture-empty-opposite", rules.capture_empty_opposite),
            ("capture-past-empty", rules.capture_past_empty),
            ("lap-captures", rules.lap_captures),
            (
                "capture-extra-move",
                rules.capture_extra_move != CaptureExtraMove::No,
            ),
            ("sweep-at-most", rules.sweep_at_most > 0),
            ("goal", rules.eliminates()),
            ("rounds", rules.rounds.is_some()),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                "empty-landing-gives-store",
                format!(
                    "is implemented for laps \"single\" or \"relay\", without other \
                     captures of an empty landing, captures at every lap, another move or a \
                     sweep after a capture, a goal or rounds (here: {field})"
                ),
            ));
        }
    }
    if rules.has_children() {
        let clash = [
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
            ("moves", rules.move_choice != MoveChoice::AnyPit),
            ("relay-from", rules.relay_from != RelayFrom::Landing),
            ("relay-counts", !rules.relay_counts.is_empty()),
            ("relay-side", rules.relay_side != CaptureSide::Any),
            ("lap-captures", rules.lap_captures),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            ("store-one-per-lap", rules.store_one_per_lap),
            ("capture-past-empty", rules.capture_past_empty),
            ("empty-landing-gives-store", rules.empty_landing_gives_store),
            ("grand-slam", rules.grand_slam != GrandSlam::Captures),
            ("sweep-at-most", rules.sweep_at_most > 0),
            (
                "single-counter-takes-facing",
                rules.single_counter_takes_facing,
            ),
            ("goal", rules.eliminates()),
            (
                "round-only-loser-refills",
                rules.rounds.is_some_and(|r| r.only_loser_refills),
            ),
            ("game-ends", matches!(rules.own_end, OwnEnd::LastFour)),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                "child-count",
                format!(
                    "children are implemented for laps \"single\" or \"relay\" (relaying from \
                     the landing pit, any count, either row), moves from one's own row, and the \
                     captures of counts and of an empty landing's facing pit (here: {field})"
                ),
            ));
        }
    }
    if rules.grand_slam == GrandSlam::CapturesAndMovesAgain {
        let why = if !matches!(rules.laps, Laps::Single { .. }) {
            Some("is implemented for laps = \"single\" only")
        } else if rules.capture_extra_move != CaptureExtraMove::No {
            Some("is a rule of its own besides capture-extra-move (which move gives another)")
        } else if rules.children.is_some() {
            Some("is not a rule of games with children")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(error(
                "grand-slam",
                format!("= \"captures-and-moves-again\" {why}"),
            ));
        }
    }
    if rules.capture_empty_opposite
        && matches!(
            rules.grand_slam,
            GrandSlam::LeavesLeftmost | GrandSlam::LeavesRightmost
        )
    {
        return Err(error(
            "grand-slam",
            "a grand slam that leaves a pit is not a rule of capture-empty-opposite (whose \
             capture takes one pit)",
        ));
    }
    if rules.own_row_ring {
        let clash = [
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
            ("moves", rules.move_choice != MoveChoice::AnyPit),
            ("move-filter", rules.move_filter != MoveFilter::Every),
            ("direction-by", rules.direction_rule != DirectionRule::Fixed),
            ("chosen-direction-pits", rules.chosen_direction_pits != 0),
            ("no-crossing-back", rules.no_crossing_back),
            ("must-feed", rules.must_feed),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            ("child-count", rules.has_children()),
            ("rounds", rules.rounds.is_some()),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                "sowing-ring",
                format!(
                    "\"own-row\" is implemented for laps \"single\" or \"relay\", moves from \
                     one's own row in one direction, without a feeding rule, captures in passing, children or rounds (here: \
                     {field})"
                ),
            ));
        }
    }
    if rules.past_empty_takes_facing && !rules.capture_past_empty {
        return Err(error(
            "past-empty-takes-facing",
            "needs capture-past-empty = true",
        ));
    }
    if rules.capture_past_empty {
        let clash = [
            ("capture-empty-opposite", rules.capture_empty_opposite),
            ("sow-own-store", rules.sow_own_store),
            ("grand-slam", rules.grand_slam != GrandSlam::Captures),
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                field,
                "is implemented without capture-past-empty (a capture past an empty pit is a \
                 capture rule of its own, for one-lap or relay moves that sow no store)",
            ));
        }
    }
    if let Some(rounds) = rules.rounds.filter(|r| r.wins_to_win > 0) {
        // Every round is dealt as the first: nothing is filled from what a round left.
        let other_matches = [
            ("territory-pits-to-win", rounds.territory_pits_to_win != 0),
            ("round-fill", rounds.fill != RoundFill::FromLeft),
            ("round-blocks", rounds.blocks),
            ("round-pits-to-go-on", rounds.pits_to_go_on != 1),
            ("round-only-loser-refills", rounds.only_loser_refills),
            ("any-total", rules.any_total),
            // (The position keeps the rounds won where the four holders would be.)
            ("game-ends", rules.own_end == OwnEnd::LastFour),
            ("leftover", rules.leftover == Leftover::LastFourReceiver),
        ];
        if let Some(field) = first_in_use(&other_matches) {
            return Err(error(
                field,
                "is not a rule of a match of rounds won (rounds-to-win), whose every round is \
                 dealt as the game's start",
            ));
        }
        if !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }) {
            return Err(error(
                "rounds",
                "is implemented for laps = \"single\" or \"relay\" only",
            ));
        }
    } else if rules.rounds.is_some() {
        if !matches!(rules.start, Start::Uniform(_)) || rules.any_total {
            return Err(error(
                "rounds",
                "needs the same start count in every pit, and the game's own total (each round \
                 is filled at that count)",
            ));
        }
        if !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }) {
            return Err(error(
                "rounds",
                "is implemented for laps = \"single\" or \"relay\" only",
            ));
        }
        if !matches!(
            rules.leftover,
            Leftover::RowOwner | Leftover::LastMover | Leftover::SplitOddToTrailing
        ) {
            return Err(error(
                "leftover",
                "a match of rounds needs every counter left to go to a player (\"row-owner\", \
                 \"last-mover\" or \"split-odd-to-trailing\"): the next round is filled from them",
            ));
        }
    }
    if rules.rounds.is_some_and(|r| r.only_loser_refills)
        && (rules.leftover != Leftover::RowOwner
            || rules.must_feed && !matches!(rules.unfed, Unfed::AsLeftover | Unfed::AnyMove))
    {
        return Err(error(
            "round-only-loser-refills",
            "needs leftover = \"row-owner\" (and, with must-feed, an unfed rule that gives no \
             counters): the winner keeps its row, the loser fills its own from its store and row",
        ));
    }
    if rules.capture_extra_move != CaptureExtraMove::No || rules.sweep_at_most > 0 {
        let field = if rules.sweep_at_most > 0 {
            "sweep-at-most"
        } else {
            "capture-extra-move"
        };
        if !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }) {
            return Err(error(
                field,
                "is implemented for laps = \"single\" or \"relay\" only",
            ));
        }
        if rules.sweep_at_most > 0 && rules.grand_slam != GrandSlam::Captures {
            return Err(error(
                "sweep-at-most",
                "is implemented with grand-slam = \"captures\" only (whether a sweep is a grand \
                 slam is a rule of its own)",
            ));
        }
    }
    if rules.chain_either_row
        && (!rules.capture_chain
            || rules.capture_side == CaptureSide::Any
            || rules.capture_empty_opposite
            || rules.capture_past_empty
            || rules.passing_captures != PassingCaptures::Off)
    {
        return Err(error(
            "chain-either-row",
            "needs capture-chain = true and a capture-side of one row, for the captures of a \
             count at the end of a move",
        ));
    }
    let single_rules = [
        ("single-counter-captures", !rules.single_counter_captures),
        (
            "single-counter-takes-facing",
            rules.single_counter_takes_facing,
        ),
    ];
    if let Some(field) = first_in_use(&single_rules)
        && (!matches!(rules.laps, Laps::Single { .. })
            || rules.passing_captures != PassingCaptures::Off
            || rules.store_one_per_lap
            || rules.blocks_pits())
    {
        return Err(error(
            field,
            "is implemented for laps = \"single\" without captures in passing, a counter to \
             the store per lap or pits blocked in rounds",
        ));
    }
    if rules.singles_take_facing {
        let clash = [
            ("laps", !matches!(rules.laps, Laps::Single { .. })),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            ("store-one-per-lap", rules.store_one_per_lap),
            ("first-move", rules.first_move != FirstMove::Sown),
            ("child-count", rules.children.is_some()),
            ("territory-pits-to-win", rules.territory()),
            ("moves", rules.move_choice == MoveChoice::EitherRow),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                field,
                "is not implemented with singles-take-facing (implemented for laps = \"single\", \
                 without captures in passing, a counter to the store per lap, another first \
                 move, children, territory or moves of either row)",
            ));
        }
    }
    if rules.empty_either_row && !rules.capture_empty_opposite {
        return Err(error(
            "capture-empty-either-row",
            "needs capture-empty-opposite = true",
        ));
    }
    if rules.takes_own_alone
        && (rules.empty_either_row
            || !rules.capture_empty_opposite
            || !rules.capture_takes_own
            || rules.capture_extra_move != CaptureExtraMove::No)
    {
        return Err(error(
            "capture-takes-own-alone",
            "needs capture-empty-opposite and capture-takes-own, and no capture-extra-move (a \
             counter taken alone is not a capture that gives another move)",
        ));
    }
    if rules.lap_captures_sown_on && !(rules.lap_captures && rules.capture_empty_opposite) {
        return Err(error(
            "lap-captures-sown-on",
            "needs lap-captures and capture-empty-opposite",
        ));
    }
    if rules.capture_every_count {
        let captures = match rules.laps {
            Laps::Single { captures } => captures,
            _ => CaptureCounts::NONE,
        };
        let clash = [
            ("laps", !matches!(rules.laps, Laps::Single { .. })),
            ("capture-counts", captures.is_empty()),
            ("capture-side", rules.capture_side != CaptureSide::Opponent),
            ("capture-empty-opposite", rules.capture_empty_opposite),
            ("capture-chain", rules.capture_chain),
            ("capture-past-empty", rules.capture_past_empty),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            (
                "single-counter-takes-facing",
                rules.single_counter_takes_facing,
            ),
            ("empty-landing-gives-store", rules.empty_landing_gives_store),
            ("grand-slam", rules.grand_slam != GrandSlam::Captures),
            ("children", rules.children.is_some()),
            ("territory-pits-to-win", rules.territory()),
        ];
        if let Some((field, _)) = clash.iter().find(|(_, on)| *on) {
            return Err(error(
                "capture-every-count",
                format!("does not go with {field} (as it is in this file)"),
            ));
        }
    }
    if rules.origin_keeps_one {
        let clash = [
            ("laps", !matches!(rules.laps, Laps::Single { .. })),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            ("store-one-per-lap", rules.store_one_per_lap),
            ("skip-origin", rules.skip_origin),
            (
                "direction-by",
                rules.direction_rule == DirectionRule::HandParity,
            ),
            (
                "move-filter",
                !matches!(
                    rules.move_filter,
                    MoveFilter::Every | MoveFilter::CountOnlyIfAll(_)
                ),
            ),
        ];
        if let Some((field, _)) = clash.iter().find(|(_, on)| *on) {
            return Err(error(
                "origin-keeps-one",
                format!("does not go with {field} (as it is in this file)"),
            ));
        }
    }
    if rules.closing_spares_right_pits && rules.closes_pits_at == 0 {
        return Err(error("closing-spares-right-pits", "needs closes-pits-at"));
    }
    if rules.closes_pits_at > 0 {
        let clash = [
            ("laps", !relay),
            ("relay-from", rules.relay_from != RelayFrom::Landing),
            ("rounds", rules.rounds.is_some()),
            ("sow-own-store", rules.sow_own_store),
            ("skip-origin", rules.skip_origin),
            ("children", rules.children.is_some()),
            ("sowing-ring", rules.own_row_ring),
        ];
        if let Some((field, _)) = clash.iter().find(|(_, on)| *on) {
            return Err(error(
                "closes-pits-at",
                format!("cannot be combined with {field}"),
            ));
        }
    }
    if rules.relay_needs_opponent_counters && !relay {
        return Err(error(
            "relay-needs-opponent-counters",
            "needs laps = \"relay\"",
        ));
    }
    if rules.lap_captures {
        let by_count = !rules.capture_past_empty && !rules.capture_empty_opposite;
        let clash = [
            ("laps", !relay),
            ("relay-from", rules.relay_from != RelayFrom::Landing),
            ("relay-counts", !rules.relay_counts.is_empty()),
            ("relay-side", rules.relay_side != CaptureSide::Any),
            ("sow-own-store", rules.sow_own_store),
            ("grand-slam", rules.grand_slam != GrandSlam::Captures),
            ("sweep-at-most", rules.sweep_at_most > 0),
            (
                "capture-extra-move",
                rules.capture_extra_move != CaptureExtraMove::No,
            ),
            (
                "capture-takes-own",
                rules.capture_empty_opposite && rules.capture_takes_own,
            ),
            (
                "capture-counts",
                if rules.capture_past_empty || rules.capture_empty_opposite {
                    rules.capture_past_empty && rules.capture_empty_opposite
                } else {
                    match rules.laps {
                        Laps::Relay { captures } => captures.is_empty(),
                        _ => true,
                    }
                },
            ),
            // (A capture by count at the end of every lap is the move's only capture.)
            ("capture-every-count", by_count && rules.capture_every_count),
            (
                "passing-captures",
                by_count && rules.passing_captures != PassingCaptures::Off,
            ),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                field,
                "does not go with lap-captures, which is implemented for relay laps from the \
                 landing pit with capture-past-empty, with capture-empty-opposite leaving the \
                 last counter, or with the capture of capture-counts, and no other rule on the \
                 end of a move",
            ));
        }
    }
    if rules.eliminates() {
        let clash = [
            // (A match of rounds won plays each round for the goal.)
            ("rounds", rules.rounds.is_some() && rules.wins_to_win() == 0),
            ("majority-ends", rules.majority_ends),
            ("ends-below", rules.ends_below > 0),
            ("must-feed", rules.must_feed),
            // (A player to move without a pit of min-move counters has no move: to deprive or
            // immobilize, that loses.)
            (
                "min-move",
                rules.min_move > 1 && rules.goal == Goal::ClearOwnRow,
            ),
            (
                "game-ends",
                !matches!(rules.own_end, OwnEnd::EmptyBoard | OwnEnd::MoverRowEmpty),
            ),
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                field,
                "is implemented for the most counters as the goal only (a goal to clear, \
                 deprive or immobilize ends the game itself; `game-ends` then only says whether \
                 a player without a move passes: \"board-empty\" or \"mover-row-empty\")",
            ));
        }
        if rules.goal == Goal::Immobilize && rules.has_extra_moves() {
            return Err(error(
                "goal",
                "\"immobilize\" is implemented for games without extra moves only (the goal \
                 judges the mover's opponent, who is not always the player to move then)",
            ));
        }
    }
    if rules.claims_leftover_at_end() && rules.rounds.is_some() {
        return Err(error(
            "leftover",
            "\"last-mover\" in a match of rounds is implemented for games without extra turns \
             only",
        ));
    }
    if rules.sweep_to_round_starter
        && (rules.sweep_at_most == 0
            || rules.rounds.is_none()
            || rules.single_counter_takes_facing
            || rules.claims_leftover_at_end())
    {
        return Err(error(
            "sweep-taker",
            "\"round-starter\" needs sweep-at-most and rounds = true, and is implemented \
             without single-counter-takes-facing or the last mover's leftover",
        ));
    }
    if rules.chain_most > 0 {
        let clash = [
            ("capture-chain", !rules.capture_chain),
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
            ("capture-past-empty", rules.capture_past_empty),
            ("capture-empty-opposite", rules.capture_empty_opposite),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                "capture-chain-most",
                format!(
                    "needs capture-chain = true, laps \"single\" or \"relay\" and captures of \
                     counts (here: {field})"
                ),
            ));
        }
    }
    check_opening(rules)
}

/// The rules of a game's opening ([`Rules::opening_moves`]) and what they are implemented with.
fn check_opening(rules: &Rules) -> Result<(), DefinitionError> {
    if rules.opening_moves() == 0 {
        return Ok(());
    }
    if rules.opening_from_rightmost {
        return Err(error(
            "opening-from-rightmost",
            "a move made for South is not counted by the opening's rules (no-capture-moves, \
             first-move, fixed-direction-moves)",
        ));
    }
    if rules.no_capture_moves > 0 {
        let clash = [
            ("store-one-per-lap", rules.store_one_per_lap),
            ("lap-captures", rules.lap_captures),
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
            ("child-count", rules.has_children()),
            ("first-move", rules.first_move != FirstMove::Sown),
            ("fixed-direction-moves", rules.fixed_direction_moves > 0),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                "no-capture-moves",
                format!(
                    "is implemented for captures at a move's end and in passing, with laps \
                     \"single\" or \"relay\", without children or the other opening rules \
                     (here: {field})"
                ),
            ));
        }
    }
    if rules.first_move != FirstMove::Sown {
        let clash = [
            (
                "laps",
                !matches!(rules.laps, Laps::Single { .. } | Laps::Relay { .. }),
            ),
            ("sow-own-store", rules.sow_own_store),
            ("skip-origin", rules.skip_origin),
            ("sowing-ring", rules.own_row_ring),
            ("moves", rules.move_choice != MoveChoice::AnyPit),
            ("direction-by", rules.direction_rule != DirectionRule::Fixed),
            ("chosen-direction-pits", rules.chosen_direction_pits != 0),
            ("round-blocks", rules.blocks_pits()),
            (
                "passing-captures",
                rules.passing_captures != PassingCaptures::Off,
            ),
            ("store-one-per-lap", rules.store_one_per_lap),
            ("no-crossing-back", rules.no_crossing_back),
        ];
        if let Some(field) = first_in_use(&clash) {
            return Err(error(
                "first-move",
                format!(
                    "\"one-from-every-other\" is implemented for laps \"single\" or \"relay\" on \
                     the ring of the board's pits, moves from one's own pits in one direction \
                     (here: {field})"
                ),
            ));
        }
    }
    if rules.fixed_direction_moves > 0 && rules.chosen_direction_pits == 0 {
        return Err(error(
            "fixed-direction-moves",
            "needs chosen-direction-pits",
        ));
    }
    Ok(())
}

/// The game file of `rules`: every field, in the order of [`FIELDS`], which [`parse`] reads back
/// to the same rules.
pub fn write(rules: &Rules) -> String {
    let word = |w: &str| format!("\"{w}\"");
    let start = match rules.start {
        Start::Uniform(count) => count.to_string(),
        Start::Pattern(counts) => format!("{counts:?}"),
    };
    let (laps, captures) = match rules.laps {
        Laps::Single { captures } => ("single", captures),
        Laps::Relay { captures } => ("relay", captures),
        Laps::RelayWithOpposite { captures } => ("relay-with-opposite", captures),
        Laps::RelayFours => ("relay-fours", CaptureCounts::NONE),
    };
    let rounds = rules.rounds.unwrap_or(Rounds {
        fill: RoundFill::FromLeft,
        starter: RoundStarter::Alternate,
        blocks: false,
        pits_to_go_on: 1,
        territory_pits_to_win: 0,
        partial_pit_to_loser: false,
        only_loser_refills: false,
        wins_to_win: 0,
    });
    let values: [String; 80] = [
        word(rules.name),
        word(rules.title),
        rules.pits_per_row.to_string(),
        start,
        rules.random_start.to_string(),
        rules.any_total.to_string(),
        word(name_of(&MOVE_CHOICES, rules.move_choice)),
        rules.min_move.to_string(),
        word(name_of(&MOVE_FILTERS, rules.move_filter)),
        word(name_of(&DIRECTIONS, rules.direction)),
        word(name_of(&DIRECTION_RULES, rules.direction_rule)),
        rules.sow_own_store.to_string(),
        rules.store_at_right.to_string(),
        rules.skip_origin.to_string(),
        word(laps),
        rules.lap_limit.to_string(),
        word(name_of(&RELAY_FROMS, rules.relay_from)),
        word(name_of(&PASSING_CAPTURES, rules.passing_captures)),
        rules.store_one_per_lap.to_string(),
        format!("{:?}", rules.relay_counts.counts()),
        word(name_of(&SIDES, rules.relay_side)),
        format!("{:?}", captures.counts()),
        word(name_of(&SIDES, rules.capture_side)),
        rules.capture_chain.to_string(),
        rules.chain_stops_at_origin.to_string(),
        rules.capture_empty_opposite.to_string(),
        rules.capture_takes_own.to_string(),
        rules.capture_past_empty.to_string(),
        rules.past_empty_takes_facing.to_string(),
        word(name_of(&GRAND_SLAMS, rules.grand_slam)),
        rules.extra_turn_in_store.to_string(),
        word(name_of(&CAPTURE_EXTRA_MOVES, rules.capture_extra_move)),
        rules.sweep_at_most.to_string(),
        rules.must_feed.to_string(),
        word(name_of(&UNFEDS, rules.unfed)),
        word(name_of(&OWN_ENDS, rules.own_end)),
        rules.majority_ends.to_string(),
        rules.ends_below.to_string(),
        word(name_of(&LEFTOVERS, rules.leftover)),
        rules.no_progress_limit.unwrap_or(0).to_string(),
        rules.stores.to_string(),
        rules.rounds.is_some().to_string(),
        word(name_of(&ROUND_FILLS, rounds.fill)),
        word(name_of(&ROUND_STARTERS, rounds.starter)),
        rounds.blocks.to_string(),
        rounds.pits_to_go_on.to_string(),
        word(name_of(&GOALS, rules.goal)),
        rules.lap_captures.to_string(),
        rules.takes_own_alone.to_string(),
        rules.empty_either_row.to_string(),
        rules.chain_either_row.to_string(),
        rules.single_counter_captures.to_string(),
        rules.single_counter_takes_facing.to_string(),
        rules.opening_from_rightmost.to_string(),
        format!(
            "{:?}",
            (1..=rules.pits_per_row)
                .filter(|&place| rules.chosen_direction_pits >> (place - 1) & 1 != 0)
                .collect::<Vec<_>>()
        ),
        rules.no_crossing_back.to_string(),
        rounds.territory_pits_to_win.to_string(),
        rounds.partial_pit_to_loser.to_string(),
        rules.empty_landing_gives_store.to_string(),
        rounds.only_loser_refills.to_string(),
        rules.children.map_or(0, |c| c.count).to_string(),
        word(name_of(
            &CHILD_MAKINGS,
            rules.children.map_or(ChildMaking::Count, |c| c.made_by),
        )),
        word(name_of(
            &SIDES,
            rules.children.map_or(CaptureSide::Any, |c| c.side),
        )),
        rules.children.map_or(0, |c| c.landing_takes).to_string(),
        word(name_of(&SOWING_RINGS, rules.own_row_ring)),
        rules.no_capture_moves.to_string(),
        word(name_of(&FIRST_MOVES, rules.first_move)),
        rules.fixed_direction_moves.to_string(),
        rules.chain_most.to_string(),
        word(if rules.sweep_to_round_starter {
            "round-starter"
        } else {
            "mover"
        }),
        rules.lap_captures_sown_on.to_string(),
        rules.relay_needs_opponent_counters.to_string(),
        rules.closes_pits_at.to_string(),
        rules.closing_spares_right_pits.to_string(),
        rules.capture_every_count.to_string(),
        format!(
            "{:?}",
            (1..=rules.pits_per_row)
                .filter(|&place| {
                    rules.children.map_or(0, |c| c.barred_places) >> (place - 1) & 1 != 0
                })
                .collect::<Vec<_>>()
        ),
        word(name_of(
            &CHILD_APARTS,
            rules.children.map_or(ChildApart::Anywhere, |c| c.apart),
        )),
        rules.origin_keeps_one.to_string(),
        rounds.wins_to_win.to_string(),
        rules.singles_take_facing.to_string(),
    ];
    FIELDS
        .iter()
        .zip(values)
        .map(|((key, _, _), value)| format!("{key} = {value}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::{BUILT_IN_FILES, BUILT_IN_RULES};

    /// The constants `build.rs` wrote are the rules its files say.
    #[test]
    fn the_built_in_files_describe_the_compiled_games() {
        for ((file, text), compiled) in BUILT_IN_FILES.iter().zip(BUILT_IN_RULES) {
            let parsed = parse(text).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(&parsed, compiled, "{file}");
            assert_eq!(*file, format!("{}.toml", compiled.name));
        }
    }

    #[test]
    fn a_written_game_reads_back_the_same() {
        for compiled in BUILT_IN_RULES {
            assert_eq!(&parse(&write(compiled)).unwrap(), compiled);
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let base = "name = \"g\"\npits-per-row = 6\nstart = 4\n";
        for (extra, field, why) in [
            ("colour = 3\n", "colour", "unknown field"),
            ("moves = \"random\"\n", "moves", "is not one of"),
            ("start = 4\n", "start", "given twice"),
            ("laps = \"relay-fours\"\n", "laps", "last-four"),
            (
                "extra-turn-in-store = true\n",
                "extra-turn-in-store",
                "sow-own-store",
            ),
            (
                "capture-counts = [2]\ncapture-empty-opposite = true\n",
                "capture-empty-opposite",
                "not both",
            ),
            ("capture-counts = [0]\n", "capture-counts", "not a count"),
            (
                "game-ends = \"majority\"\nany-total = true\n",
                "game-ends",
                "fixed number",
            ),
            (
                "leftover = \"last-four-receiver\"\n",
                "leftover",
                "relay-fours",
            ),
            ("must-feed = 1\n", "must-feed", "not true or false"),
            ("[rules]\n", "line 4", "sections"),
            ("stores\n", "line 4", "not 'key = value'"),
            ("title = \"unended\n", "title", "double quotes"),
        ] {
            let text = format!("{base}{extra}");
            let e = parse(&text).unwrap_err();
            assert_eq!(e.field, field, "{text}: {e}");
            assert!(e.why.contains(why), "{text}: {e}");
        }
        for (text, field) in [
            ("pits-per-row = 6\nstart = 4\n", "name"),
            ("name = \"Big Game\"\npits-per-row = 6\nstart = 4\n", "name"),
            ("name = \"g\"\nstart = 4\n", "pits-per-row"),
            ("name = \"g\"\npits-per-row = 6\n", "start"),
            ("name = \"g\"\npits-per-row = 6\nstart = 22\n", "start"),
            (
                "name = \"g\"\npits-per-row = 2\nstart = [1, 2, 3]\n",
                "start",
            ),
        ] {
            assert_eq!(parse(text).unwrap_err().field, field, "{text}");
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let rules = parse(
            "# a game\n\nname = \"g\" # its name\npits-per-row = 6\nstart = [1,1,1,1,1,1, \
             2,2,2,2,2,2]\ntitle = \"G # one\"\n",
        )
        .unwrap();
        assert_eq!(rules.title, "G # one");
        assert_eq!(rules.total(), 18);
        assert_eq!(rules.start_count(7), 2);
    }
}
