//! A match of rounds ([`Rules::rounds`]): how a round that has ended deals the next one. The
//! position knows which pits the round blocks and who started it; the [`super::Game`] deals the
//! next round as soon as a move ends one, so that a match is one game to everything that plays.

use std::cmp::Ordering;

use super::position::{Ending, MAX_PITS, Position};
use super::side::Side;
use super::variant::{RoundFill, RoundStarter, Rounds, Rules};

/// A round that a move ended: how, and what each player held at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    pub ending: Ending,
    /// `[South, North]`: each player's counters at the round's end (captured, and the counters
    /// left as the game's leftover rule gives them), from which the next round is filled.
    pub totals: [u32; 2],
}

impl Ending {
    /// Whether this ending is one of the history rules' (repetition, no progress, an endless
    /// move): those end a match of rounds too; every other ending ends only the round, unless
    /// a player cannot go on.
    pub const fn by_history(self) -> bool {
        matches!(
            self,
            Ending::Repetition | Ending::NoProgress | Ending::EndlessMove
        )
    }
}

impl Position {
    /// The next round's start, after this position's round ended with `totals` (`[South,
    /// North]`: what each player holds, as [`RoundEnd::totals`]) and `last_mover` made its last
    /// move. `None` when the match is over instead: the game is not played in rounds, or a
    /// player holds too few counters to go on.
    ///
    /// Each player fills their own row, the start's count a pit, from the end `round-fill` says,
    /// as far as their counters go; the rest stays in their store, and the pits they cannot fill
    /// are blocked where the game blocks them (in a match for territory every pit is dealt and
    /// the pits change hands instead: [`Position::deal_territory`]). `round-starter` says who
    /// moves first.
    pub fn next_round(&self, totals: [u32; 2], last_mover: Side) -> Option<Position> {
        let rules: &Rules = self.rules();
        let rounds = rules.rounds?;
        if rounds.wins_to_win > 0 {
            return self.next_round_won(rounds, totals, last_mover);
        }
        let need = rules.round_need(rounds);
        if totals.iter().any(|&held| held < need) || totals[0] + totals[1] != self.total() {
            return None;
        }
        let per_pit = rules.start_count(0) as u32;
        let mut next = *self;
        next.on_extra_move = false;
        next.crossed_into = 0;
        // Each round has its opening.
        next.opening = 0;
        // Where the first move chooses the directions, each round's first move does.
        next.south_direction = None;
        if rounds.only_loser_refills {
            let loser = match totals[0].cmp(&totals[1]) {
                Ordering::Equal => return None,
                Ordering::Greater => Side::North,
                Ordering::Less => Side::South,
            };
            // The winner plays on with the row the round left: none to play from ends the match.
            let n = rules.pits_per_row;
            let winner_row = loser.opponent().index() * n..loser.opponent().index() * n + n;
            if !self.pits[winner_row].iter().any(|&c| c >= rules.min_move) {
                return None;
            }
            // The loser's own counters (its store and row) fill its row: every counter stays.
            let held = self.captured[loser.index()] as u32 + self.row_total(loser);
            next.deal_row(rounds, loser, held, per_pit);
        } else {
            next.pits = [0; MAX_PITS];
            next.blocked = 0;
            // Children are a round's.
            next.children = [0; 2];
            if rounds.territory_pits_to_win > 0 {
                next.deal_territory(totals, per_pit, rounds.partial_pit_to_loser);
            } else {
                for side in Side::BOTH {
                    next.deal_row(rounds, side, totals[side.index()], per_pit);
                }
            }
        }
        // After a drawn round, as MancalaGames has it: the player to move at its end starts
        // under the winner rule, the other (the last mover, unless the last move gave another)
        // under the loser rule.
        let by_result = |winner_starts: bool| match totals[0].cmp(&totals[1]) {
            Ordering::Equal if winner_starts => self.side_to_move,
            Ordering::Equal => self.side_to_move.opponent(),
            Ordering::Greater if winner_starts => Side::South,
            Ordering::Less if !winner_starts => Side::South,
            _ => Side::North,
        };
        let starter = match rounds.starter {
            RoundStarter::Alternate => self.round_starter.opponent(),
            RoundStarter::Loser => by_result(false),
            RoundStarter::Winner => by_result(true),
            RoundStarter::LastMover => last_mover,
        };
        next.round_starter = starter;
        next.side_to_move = starter;
        Some(next)
    }
}

impl Position {
    /// A match of rounds won's next round ([`Rounds::wins_to_win`]): the round's winner (more
    /// counters in `totals`) scores a round; the match is over once it has the wins to win, or
    /// the next round is the game's start again (turned round after a round South started: a
    /// start that differs between the rows is dealt as for the player who did not start the
    /// last round, as MancalaGames deals it), with the rounds won so far. After a drawn
    /// round the player who did not start it starts the next, whatever `round-starter` says
    /// (MancalaGames' rule).
    fn next_round_won(
        &self,
        rounds: Rounds,
        totals: [u32; 2],
        last_mover: Side,
    ) -> Option<Position> {
        let winner = match totals[0].cmp(&totals[1]) {
            Ordering::Greater => Some(Side::South),
            Ordering::Less => Some(Side::North),
            Ordering::Equal => None,
        };
        let mut wins = self.round_wins();
        if let Some(winner) = winner {
            wins[winner.index()] += 1;
            if wins[winner.index()] >= rounds.wins_to_win {
                return None;
            }
        }
        // A game dealt at random deals each round at random, from a seed that the round's end
        // gives (the same end, the same deal: every program that plays the match agrees).
        let random = self.rules().random_start;
        let mut next = if random {
            Position::random_deal(self.variant, self.deal_seed())
        } else {
            Position::start(self.variant)
        };
        // A start that differs between the rows is dealt as for the player who did not start
        // the round that ended: turned round (the rows swapped) after a round South started.
        if self.round_starter == Side::South && !random {
            let n = self.rules().pits_per_row;
            let (south, north) = next.pits[..2 * n].split_at_mut(n);
            south.swap_with_slice(north);
        }
        let starter = match (rounds.starter, winner) {
            (RoundStarter::Alternate, _) | (_, None) => self.round_starter.opponent(),
            (RoundStarter::Loser, Some(winner)) => winner.opponent(),
            (RoundStarter::Winner, Some(winner)) => winner,
            (RoundStarter::LastMover, _) => last_mover,
        };
        next.marks = wins;
        next.round_starter = starter;
        next.side_to_move = starter;
        Some(next)
    }

    /// The seed of the next round's random deal: the FNV-1a hash of this position's string
    /// (the round's end, with the rounds won before it).
    fn deal_seed(&self) -> u64 {
        self.to_string()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
                (hash ^ byte as u64).wrapping_mul(0x100_0000_01b3)
            })
    }

    /// Fills `side`'s row for the next round from the `held` counters it holds (captured and on
    /// its row), from the end `round-fill` says, as far as they go, the rest in its store; the
    /// pits left are blocked where the rounds block pits (and unblocked where they are filled).
    fn deal_row(&mut self, rounds: Rounds, side: Side, held: u32, per_pit: u32) {
        let n = self.rules().pits_per_row;
        let filled = (held / per_pit).min(n as u32) as usize;
        self.captured[side.index()] = (held - filled as u32 * per_pit) as u8;
        let first = side.index() * n;
        for k in 0..n {
            let pit = match rounds.fill {
                RoundFill::FromLeft => first + k,
                RoundFill::FromRight => first + n - 1 - k,
                RoundFill::FromBoardLeft => match side {
                    Side::South => first + k,
                    Side::North => first + n - 1 - k,
                },
                RoundFill::OutsideIn => {
                    // The k-th place from the board's left end (as South sees it) inwards,
                    // alternating ends; South's row runs left to right, North's right to left.
                    let from_left = if k % 2 == 0 { k / 2 } else { n - 1 - k / 2 };
                    match side {
                        Side::South => from_left,
                        Side::North => 2 * n - 1 - from_left,
                    }
                }
            };
            self.blocked &= !(1 << pit);
            if k < filled {
                self.pits[pit] = per_pit as u8;
            } else {
                self.pits[pit] = 0;
                if rounds.blocks {
                    self.blocked |= 1 << pit;
                }
            }
        }
    }

    /// A match for territory's next round: the start's count in every pit, nothing captured, and
    /// the round's winner owning as many pits as its counters fill (one more where the rest is
    /// over half a pit, unless the partly filled pit goes to the loser), counter-clockwise from
    /// its row's first pit; after a drawn round each player owns its row.
    fn deal_territory(&mut self, totals: [u32; 2], per_pit: u32, partial_to_loser: bool) {
        let len = self.rules().pit_count();
        let n = self.rules().pits_per_row;
        let (winner, owned) = match totals[0].cmp(&totals[1]) {
            Ordering::Equal => (Side::North, n),
            order => {
                let winner = if order == Ordering::Greater {
                    Side::South
                } else {
                    Side::North
                };
                let held = totals[winner.index()];
                let over_half = held % per_pit > per_pit / 2 && !partial_to_loser;
                let filled = held / per_pit + over_half as u32;
                (winner, (filled as usize).min(len))
            }
        };
        self.captured = [0, 0];
        self.pits[..len].fill(per_pit as u8);
        self.north_owned = 0;
        let first = winner.index() * n;
        for k in 0..len {
            let owner = if k < owned { winner } else { winner.opponent() };
            if owner == Side::North {
                self.north_owned |= 1 << ((first + k) % len);
            }
        }
    }
}
