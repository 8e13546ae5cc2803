//! What the search learns from its cutoffs, for move ordering and reductions: a
//! history of quiet moves by their `history_index`, continuation histories by the
//! move before them (one and two plies back), counter moves, and the killers. A
//! cutoff rewards its move and penalises the quiet moves tried before it.

use super::PIECE_TO_SIZE;
use super::threads::Thread;
/// The continuation index of no move (the root, a null move).
pub(super) const NO_PIECE_TO: usize = usize::MAX;
/// History scores stay within this bound, approached by gravity: each update moves a
/// score toward the bound by a share of the remaining distance.
const HISTORY_MAX: i32 = 16_384;

impl<M: Copy> Thread<M> {
    /// A quiet move cut off at `ply`: the histories reward it (`best`: its history
    /// slot and continuation index) and penalise the quiet moves tried before it, by
    /// gravity toward [`HISTORY_MAX`]; it becomes the counter move of the move before.
    pub(super) fn reward_quiet(
        &mut self,
        ply: usize,
        best: (usize, usize),
        packed: u32,
        others: &[(usize, usize)],
        depth: i32,
    ) {
        let bonus = (depth * depth * 16).min(1_600);
        let previous = [1, 2].map(|back| self.previous_move(ply, back));
        if let Some(p) = previous[0] {
            self.counters[p] = packed;
        }
        let mut update = |(slot, piece_to): (usize, usize), bonus: i32| {
            let h = &mut self.history[slot];
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
            for p in previous.iter().flatten() {
                let c = &mut self.continuation[p * PIECE_TO_SIZE + piece_to];
                let v = i32::from(*c);
                *c = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
            }
        };
        update(best, bonus);
        for &other in others {
            update(other, -bonus);
        }
    }

    /// The continuation index of the move made `back` plies above `ply` in the line
    /// being searched; `None` above the root, for a null move, or where the search is
    /// not selective.
    pub(super) fn previous_move(&self, ply: usize, back: usize) -> Option<usize> {
        ply.checked_sub(back)
            .map(|p| self.frames[p].piece_to)
            .filter(|&p| p != NO_PIECE_TO)
    }

    /// The continuation histories' scores of a quiet move `piece_to` at `ply`: after
    /// the opponent's last move and after the mover's own move before it.
    pub(super) fn continuation(&self, ply: usize, piece_to: usize) -> (i32, i32) {
        let at = |back: usize| {
            self.previous_move(ply, back).map_or(0, |prev| {
                i32::from(self.continuation[prev * PIECE_TO_SIZE + piece_to])
            })
        };
        (at(1), at(2))
    }
}
