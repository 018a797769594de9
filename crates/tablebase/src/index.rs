//! A perfect index of the boards of one layer: every way of putting `n` counters into `P` pits,
//! ranked in lexicographic order of the counts (the first pit's count counting most). The rank
//! of a board is a sum of binomial coefficients (stars and bars), so a layer needs no table of
//! its positions, and the boards of a range of ranks are visited by a successor function.

/// Compositions of `r` counters into `m` pits: `C(r + m - 1, m - 1)`, for `r` up to
/// [`Ranking::MAX_COUNTERS`].
pub struct Ranking {
    pits: usize,
    /// `ways[m][r]`: the number of compositions of `r` into `m` parts. Ranking is the
    /// generator's inner loop: each pit reads one column, fixed-size so that it needs no
    /// index arithmetic beyond an offset.
    ways: Vec<[u64; Ranking::MAX_COUNTERS + 1]>,
}

impl Ranking {
    /// Counters a layer may hold.
    pub const MAX_COUNTERS: usize = 98;

    /// The ranking of boards of `pits` pits (at most 24).
    pub fn new(pits: usize) -> Ranking {
        // ways(r, m) = ways(r, m - 1) (the first pit empty) + ways(r - 1, m) (one more in it).
        let mut ways = vec![[0u64; Self::MAX_COUNTERS + 1]; pits + 1];
        ways[0][0] = 1;
        for r in 0..=Self::MAX_COUNTERS {
            for m in 1..=pits {
                let above = if r > 0 { ways[m][r - 1] } else { 0 };
                ways[m][r] = ways[m - 1][r].saturating_add(above);
            }
        }
        Ranking { pits, ways }
    }

    /// Compositions of `r` counters into `m` pits.
    #[inline]
    fn ways(&self, r: usize, m: usize) -> u64 {
        self.ways[m][r]
    }

    /// The number of boards with `n` counters (saturating at `u64::MAX`).
    pub fn layer_size(&self, n: usize) -> u64 {
        self.ways(n, self.pits)
    }

    /// The rank of `board` among the boards with as many counters.
    #[inline]
    pub fn rank(&self, board: &[u8]) -> u64 {
        debug_assert_eq!(board.len(), self.pits);
        let mut left: usize = board.iter().map(|&c| c as usize).sum();
        let mut rank = 0;
        // Pit i has m = pits - i pits from it on: columns pits down to 2.
        for (&count, column) in board[..self.pits - 1]
            .iter()
            .zip(self.ways[2..=self.pits].iter().rev())
        {
            // Boards whose pit i holds fewer: ways(left, m) - ways(left - count, m).
            rank += column[left] - column[left - count as usize];
            left -= count as usize;
        }
        rank
    }

    /// The board of rank `rank` among those with `n` counters.
    pub fn unrank(&self, n: usize, mut rank: u64, board: &mut [u8]) {
        let mut left = n;
        let (last, leading) = board[..self.pits]
            .split_last_mut()
            .expect("a board has pits");
        for (i, pit) in leading.iter_mut().enumerate() {
            let m = self.pits - i;
            // The largest count c with ways(left, m) - ways(left - c, m) <= rank.
            let mut count = 0;
            while count < left && self.ways(left, m) - self.ways(left - count - 1, m) <= rank {
                count += 1;
            }
            rank -= self.ways(left, m) - self.ways(left - count, m);
            *pit = count as u8;
            left -= count;
        }
        *last = left as u8;
    }

    /// Turns `board` into the board of the next rank; false after the last.
    #[inline]
    pub fn next(board: &mut [u8]) -> bool {
        let last = board.len() - 1;
        // The rightmost pit before the last with counters after it can take one more.
        let mut tail = board[last] as u32;
        let mut i = last;
        while i > 0 {
            i -= 1;
            if tail > 0 {
                board[i] += 1;
                for pit in board[i + 1..last].iter_mut() {
                    *pit = 0;
                }
                board[last] = (tail - 1) as u8;
                return true;
            }
            tail += board[i] as u32;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_every_board_once_in_order() {
        for (pits, n) in [(2, 5), (4, 3), (12, 4), (14, 3), (24, 2), (3, 0)] {
            let ranking = Ranking::new(pits);
            let size = ranking.layer_size(n);
            let mut board = vec![0u8; pits];
            board[pits - 1] = n as u8;
            let mut expected = 0;
            loop {
                assert_eq!(ranking.rank(&board), expected, "{board:?}");
                let mut unranked = vec![0u8; pits];
                ranking.unrank(n, expected, &mut unranked);
                assert_eq!(unranked, board);
                expected += 1;
                if !Ranking::next(&mut board) {
                    break;
                }
            }
            assert_eq!(expected, size, "{pits} pits, {n} counters");
        }
    }

    #[test]
    fn layer_sizes_are_binomials() {
        assert_eq!(Ranking::new(12).layer_size(20), 84_672_315); // C(31, 11)
        assert_eq!(Ranking::new(14).layer_size(16), 67_863_915); // C(29, 13)
        assert_eq!(Ranking::new(24).layer_size(8), 7_888_725); // C(31, 23)
    }
}
