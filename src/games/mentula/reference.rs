//! A deliberately simple second Mentula implementation, for tests only: a mailbox of
//! owners, moves by trying every ordered pair of own squares with coordinate
//! arithmetic, and the turn handed on by trying each next player in order. It shares
//! nothing with `position`, `geometry` or `reach` but the `Square` type.

use super::board::{PLAYERS, SIZE, Square};

/// A plain board: the owner of each square, and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub owners: [Option<usize>; 64],
    pub to_move: usize,
}

/// (start, pivot, target) as squares.
pub type Jump = (Square, Square, Square);

impl Board {
    pub fn moves_of(&self, player: usize) -> Vec<Jump> {
        let mut out = Vec::new();
        for s in 0..64 {
            for p in 0..64 {
                if s == p || self.owners[s] != Some(player) || self.owners[p] != Some(player) {
                    continue;
                }
                let (sf, sr) = ((s % SIZE) as i32, (s / SIZE) as i32);
                let (pf, pr) = ((p % SIZE) as i32, (p / SIZE) as i32);
                let (tf, tr) = (2 * pf - sf, 2 * pr - sr);
                if !(0..SIZE as i32).contains(&tf) || !(0..SIZE as i32).contains(&tr) {
                    continue;
                }
                let t = (tr * SIZE as i32 + tf) as usize;
                if self.owners[t] == Some(player) {
                    continue;
                }
                out.push((
                    Square::at(s as u8),
                    Square::at(p as u8),
                    Square::at(t as u8),
                ));
            }
        }
        out
    }

    /// Plays a jump and hands the turn on past players without moves.
    pub fn play(&mut self, (from, _, to): Jump) {
        let mover = self.to_move;
        self.owners[to.index()] = Some(mover);
        self.owners[from.index()] = None;
        self.to_move = (mover + 1) % PLAYERS;
        for k in 1..=PLAYERS {
            let candidate = (mover + k) % PLAYERS;
            if !self.moves_of(candidate).is_empty() {
                self.to_move = candidate;
                break;
            }
        }
    }
}

/// Perft by the simple rules (no end-of-game test: the tree of moves only).
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .moves_of(board.to_move)
        .into_iter()
        .map(|mv| {
            let mut next = board.clone();
            next.play(mv);
            perft(&next, depth - 1)
        })
        .sum()
}
