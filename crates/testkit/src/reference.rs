//! A deliberately naive second implementation of the rules (RULES.md), written straight from the text: seeds
//! sown one at a time, every lap start kept in a list, the whole history scanned for repetition.
//! The property tests play random games on both and demand identical results.

use mancala_rules::{LastFourRule, Variant};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPosition {
    pub variant: Variant,
    pub n: usize,
    pub pits: Vec<u32>,
    pub captured: [u32; 2],
    /// 0 = South, 1 = North.
    pub side: usize,
    pub last_four: Option<usize>,
    pub first_capture: Option<usize>,
}

/// A move: `Some(pit index)` or `None` for pass.
pub type RefMove = Option<usize>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefEnding {
    BoardEmpty,
    Starvation,
    LastFour,
    Repetition,
    NoProgress,
    Endless,
    RowEmpty,
    Majority,
    TooFew,
    Immobile,
    NoLegalMove,
}

fn letter(side: usize) -> char {
    if side == 0 { 'S' } else { 'N' }
}

impl RefPosition {
    pub fn parse(variant: Variant, text: &str) -> RefPosition {
        let n = variant.rules().pits_per_row;
        let f: Vec<&str> = text.split('-').collect();
        let num = |s: &str| s.parse::<u32>().unwrap();
        let side_of = |s: &str| match s {
            "S" => Some(0),
            "N" => Some(1),
            _ => None,
        };
        RefPosition {
            variant,
            n,
            pits: f[..2 * n].iter().map(|s| num(s)).collect(),
            captured: [num(f[2 * n]), num(f[2 * n + 1])],
            side: side_of(f[2 * n + 2]).unwrap(),
            last_four: f.get(2 * n + 3).and_then(|s| side_of(s)),
            first_capture: f.get(2 * n + 4).and_then(|s| side_of(s)),
        }
    }

    pub fn to_text(&self) -> String {
        let mut s: Vec<String> = self.pits.iter().map(|c| c.to_string()).collect();
        s.push(self.captured[0].to_string());
        s.push(self.captured[1].to_string());
        s.push(letter(self.side).to_string());
        if self.variant == Variant::Anywoli {
            s.push(self.last_four.map_or('X', letter).to_string());
            s.push(self.first_capture.map_or('X', letter).to_string());
        }
        s.join("-")
    }

    fn owner(&self, pit: usize) -> usize {
        pit / self.n
    }

    fn row_sum(&self, side: usize) -> u32 {
        self.pits[side * self.n..side * self.n + self.n]
            .iter()
            .sum()
    }

    fn board(&self) -> u32 {
        self.pits.iter().sum()
    }

    /// All the counters: on the board and captured.
    fn total(&self) -> u32 {
        self.board() + self.captured[0] + self.captured[1]
    }

    fn own_end_by_count(&self) -> bool {
        self.board() == 0
            || (self.variant == Variant::Anywoli && self.board() == 4)
            || (self.variant == Variant::Kalah && (self.row_sum(0) == 0 || self.row_sum(1) == 0))
            || (self.variant == Variant::Oware && self.majority())
    }

    /// Oware: somebody has more than half of the counters, or both exactly half.
    fn majority(&self) -> bool {
        let total = self.total();
        let [s, n] = self.captured.map(|c| 2 * c);
        s > total || n > total || (s == total && n == total)
    }

    pub fn legal(&self) -> Vec<RefMove> {
        if self.own_end_by_count() {
            return vec![];
        }
        let row: Vec<usize> = (self.side * self.n..self.side * self.n + self.n)
            .filter(|&p| self.pits[p] > 0)
            .collect();
        if row.is_empty() {
            return vec![None];
        }
        let mut moves: Vec<RefMove> = if self.variant == Variant::MangalaIV {
            vec![Some(row[0])]
        } else {
            row.into_iter().map(Some).collect()
        };
        let feeds = self.variant == Variant::AlManqala || self.variant == Variant::Oware;
        if feeds && self.row_sum(1 - self.side) == 0 {
            moves.retain(|&m| {
                let mut after = self.clone();
                after.play(m);
                after.row_sum(1 - self.side) > 0
            });
        }
        moves
    }

    pub fn own_ending(&self) -> Option<RefEnding> {
        if self.board() == 0 {
            Some(RefEnding::BoardEmpty)
        } else if self.variant == Variant::Anywoli && self.board() == 4 {
            Some(RefEnding::LastFour)
        } else if self.variant == Variant::Kalah && (self.row_sum(0) == 0 || self.row_sum(1) == 0) {
            Some(RefEnding::RowEmpty)
        } else if self.variant == Variant::Oware && self.majority() {
            Some(RefEnding::Majority)
        } else if self.legal().is_empty() {
            Some(RefEnding::Starvation)
        } else {
            None
        }
    }

    /// Plays a legal move; returns (captured anything, endless).
    pub fn play(&mut self, mv: RefMove) -> (bool, bool) {
        let before = self.captured;
        let mut endless = false;
        let mut extra = false;
        if let Some(origin) = mv {
            match self.variant {
                Variant::MangalaII => self.single_lap(origin, &[2, 4, 6]),
                Variant::AlManqala => self.single_lap(origin, &[2, 4]),
                Variant::MangalaIV | Variant::Anywoli => {
                    let (e, x) = self.relay(origin);
                    endless = e;
                    extra = x;
                }
                Variant::Kalah => extra = self.kalah(origin),
                Variant::Oware => self.oware(origin),
                other => panic!("the reference plays the built-in games only, not {other}"),
            }
        }
        if !extra {
            self.side = 1 - self.side;
        }
        (self.captured != before, endless)
    }

    fn len(&self) -> usize {
        2 * self.n
    }

    fn single_lap(&mut self, origin: usize, set: &[u32]) {
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let mut pit = origin;
        while hand > 0 {
            pit = (pit + 1) % self.len();
            self.pits[pit] += 1;
            hand -= 1;
        }
        let landing = pit;
        let mut j = landing;
        loop {
            if !set.contains(&self.pits[j]) {
                break;
            }
            self.captured[self.side] += self.pits[j];
            self.pits[j] = 0;
            j = (j + self.len() - 1) % self.len();
            if j == origin || j == landing {
                break;
            }
        }
    }

    /// Kalah (RULES.md section 9), a seed at a time around the mover's ring: the mover's pits,
    /// the mover's store, the opponent's pits. Returns whether the mover moves again.
    fn kalah(&mut self, origin: usize) -> bool {
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let own_last = self.side * self.n + self.n - 1;
        let opponent_first = (1 - self.side) * self.n;
        // None: the store.
        let mut at: Option<usize> = Some(origin);
        while hand > 0 {
            at = match at {
                Some(p) if p == own_last => None,
                Some(p) => Some((p + 1) % self.len()),
                None => Some(opponent_first),
            };
            match at {
                Some(p) => self.pits[p] += 1,
                None => self.captured[self.side] += 1,
            }
            hand -= 1;
        }
        let Some(last) = at else {
            return true;
        };
        let facing = self.len() - 1 - last;
        if self.owner(last) == self.side && self.pits[last] == 1 && self.pits[facing] > 0 {
            self.captured[self.side] += 1 + self.pits[facing];
            self.pits[last] = 0;
            self.pits[facing] = 0;
        }
        false
    }

    /// Oware abapa (RULES.md section 9): the origin skipped on a lap; 2s and 3s of the opponent's
    /// row taken backwards; a move that would take the whole opposing row takes nothing.
    fn oware(&mut self, origin: usize) {
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let mut pit = origin;
        while hand > 0 {
            pit = (pit + 1) % self.len();
            if pit == origin {
                continue;
            }
            self.pits[pit] += 1;
            hand -= 1;
        }
        let opponent = 1 - self.side;
        let mut after = self.clone();
        let mut taken = 0;
        let mut j = pit;
        while after.owner(j) == opponent && (after.pits[j] == 2 || after.pits[j] == 3) {
            taken += after.pits[j];
            after.pits[j] = 0;
            j = (j + self.len() - 1) % self.len();
        }
        if taken > 0 && after.row_sum(opponent) > 0 {
            after.captured[self.side] += taken;
            *self = after;
        }
    }

    /// Returns (endless, extra turn).
    fn relay(&mut self, first_origin: usize) -> (bool, bool) {
        let mut starts: Vec<(usize, Vec<u32>)> = Vec::new();
        let mut origin = first_origin;
        loop {
            if starts.iter().any(|(o, p)| *o == origin && *p == self.pits) {
                return (true, false);
            }
            starts.push((origin, self.pits.clone()));
            let mut hand = self.pits[origin];
            self.pits[origin] = 0;
            let mut pit = origin;
            while hand > 0 {
                pit = if self.variant == Variant::MangalaIV {
                    (pit + self.len() - 1) % self.len()
                } else {
                    (pit + 1) % self.len()
                };
                self.pits[pit] += 1;
                hand -= 1;
                if self.variant == Variant::Anywoli && hand > 0 && self.pits[pit] == 4 {
                    let owner = self.owner(pit);
                    self.captured[owner] += 4;
                    self.pits[pit] = 0;
                    self.last_four = Some(owner);
                }
            }
            let c = self.pits[pit];
            if self.variant == Variant::MangalaIV {
                match c {
                    1 => return (false, false),
                    2 | 4 => {
                        let last = self.len() - 1;
                        let mut j = pit;
                        loop {
                            self.captured[self.side] += self.pits[j] + self.pits[last - j];
                            self.pits[j] = 0;
                            self.pits[last - j] = 0;
                            j = (j + 1) % self.len();
                            if j == origin || j == pit || !(self.pits[j] == 2 || self.pits[j] == 4)
                            {
                                break;
                            }
                        }
                        return (false, false);
                    }
                    _ => origin = pit,
                }
            } else {
                match c {
                    1 => return (false, false),
                    4 => {
                        self.captured[self.side] += 4;
                        self.pits[pit] = 0;
                        self.last_four = Some(self.side);
                        if self.first_capture.is_none() {
                            self.first_capture = Some(self.side);
                        }
                        return (false, true);
                    }
                    _ => origin = pit,
                }
            }
        }
    }

    /// Perft as RULES.md, "The engine's choices" defines it; an endless move is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                let (_, endless) = child.play(mv);
                if endless && depth > 1 {
                    0
                } else {
                    child.perft(depth - 1)
                }
            })
            .sum()
    }

    pub fn final_totals(&self, ending: RefEnding, rule: LastFourRule) -> [u32; 2] {
        let mut t = self.captured;
        let b = self.board();
        let split = |t: &mut [u32; 2]| {
            t[0] += b / 2;
            t[1] += b / 2;
        };
        let give = |t: &mut [u32; 2], to: Option<usize>| match to {
            Some(s) => t[s] += b,
            None => split(t),
        };
        match ending {
            RefEnding::BoardEmpty | RefEnding::Majority => {}
            RefEnding::RowEmpty => {
                t[0] += self.row_sum(0);
                t[1] += self.row_sum(1);
            }
            RefEnding::Starvation if self.variant == Variant::Oware => {
                give(&mut t, Some(self.side))
            }
            RefEnding::Starvation => give(&mut t, Some(1 - self.side)),
            RefEnding::LastFour => give(
                &mut t,
                match rule {
                    LastFourRule::MostRecentFour => self.last_four,
                    LastFourRule::FirstCapture => self.first_capture,
                },
            ),
            _ => match self.variant {
                Variant::MangalaII | Variant::AlManqala => split(&mut t),
                Variant::MangalaIV | Variant::Kalah | Variant::Oware => {
                    t[0] += self.row_sum(0);
                    t[1] += self.row_sum(1);
                }
                Variant::Anywoli => give(&mut t, self.last_four),
                other => panic!("the reference plays the built-in games only, not {other}"),
            },
        }
        t
    }
}

/// A game with its whole history, scanned in full for repetition.
#[derive(Clone, Debug)]
pub struct RefGame {
    pub history: Vec<RefPosition>,
    pub quiet: u32,
    pub ending: Option<RefEnding>,
}

impl RefGame {
    pub fn new(base: RefPosition) -> RefGame {
        let ending = base.own_ending();
        RefGame {
            history: vec![base],
            quiet: 0,
            ending,
        }
    }

    pub fn current(&self) -> &RefPosition {
        self.history.last().unwrap()
    }

    pub fn legal(&self) -> Vec<RefMove> {
        if self.ending.is_some() {
            vec![]
        } else {
            self.current().legal()
        }
    }

    pub fn play(&mut self, mv: RefMove) {
        let mut next = self.current().clone();
        let (captured, endless) = next.play(mv);
        self.quiet = if captured { 0 } else { self.quiet + 1 };
        let seen = self.history.iter().filter(|p| **p == next).count() + 1;
        self.ending = next
            .own_ending()
            .or(if endless {
                Some(RefEnding::Endless)
            } else {
                None
            })
            .or(if seen >= 3 {
                Some(RefEnding::Repetition)
            } else {
                None
            })
            .or(
                if self.quiet >= 100 && !matches!(next.variant, Variant::Kalah | Variant::Oware) {
                    Some(RefEnding::NoProgress)
                } else {
                    None
                },
            );
        self.history.push(next);
    }
}
