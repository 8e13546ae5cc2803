//! A deliberately simple second Mangala II implementation, for tests only: sowing one
//! counter at a time, the capture run walked pit by pit, the pass decided by looking at
//! the rows. It shares nothing with `position` but the rules' text.

/// Pits in sowing order (South A..F, North a..f), captures, player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub pits: Vec<u32>,
    pub captured: [u32; 2],
    pub to_move: usize,
}

impl Board {
    pub fn moves(&self) -> Vec<usize> {
        let first = self.to_move * 6;
        (first..first + 6).filter(|&p| self.pits[p] > 0).collect()
    }

    pub fn play(&mut self, origin: usize, skip_origin: bool) {
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let mut pit = origin;
        while hand > 0 {
            pit = (pit + 1) % 12;
            if skip_origin && pit == origin {
                continue;
            }
            self.pits[pit] += 1;
            hand -= 1;
        }
        // The last pit, then backwards while 2, 4 or 6, never taking the origin again.
        let mut first = true;
        loop {
            if !first && pit == origin {
                break;
            }
            first = false;
            let n = self.pits[pit];
            if n == 2 || n == 4 || n == 6 {
                self.captured[self.to_move] += n;
                self.pits[pit] = 0;
                pit = (pit + 11) % 12;
            } else {
                break;
            }
        }
        // The opponent moves next unless its row is empty and ours is not (a pass).
        let other = 1 - self.to_move;
        let other_has = self.pits[other * 6..other * 6 + 6].iter().any(|&c| c > 0);
        let board_empty = self.pits.iter().all(|&c| c == 0);
        if other_has || board_empty {
            self.to_move = other;
        }
    }
}

/// Perft by the simple rules.
pub fn perft(board: &Board, depth: u32, skip_origin: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .moves()
        .into_iter()
        .map(|m| {
            let mut next = board.clone();
            next.play(m, skip_origin);
            perft(&next, depth - 1, skip_origin)
        })
        .sum()
}
