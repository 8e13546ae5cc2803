//! Evaluation of Mangala II positions, in centi-counters from the side to move's view,
//! and what alpha-beta needs to search the game.
//!
//! Terms: the capture difference (what is already won), the counters in each row (they
//! go to the row's owner if the game ends by repetition or the ply limit, and they are
//! the owner's to sow), and exposed pits: pits holding 1, 3 or 5, which one more counter
//! turns into a capture for whoever lands there. All weights are in [`WEIGHTS`].

use super::position::{Move, PITS, Position, row, sow};
use crate::search::two_player::TwoPlayerGame;
use crate::search::{MATE, Value};

pub struct Weights {
    /// Per counter captured.
    pub captured: Value,
    /// Per counter in one's own row.
    pub in_row: Value,
    /// Per exposed pit (1, 3 or 5 counters) in one's own row.
    pub exposed: Value,
    /// For the side to move.
    pub tempo: Value,
}

pub const WEIGHTS: Weights = Weights {
    captured: 100,
    in_row: 12,
    exposed: -15,
    tempo: 5,
};

fn row_terms(pits: &[u8; PITS], player: usize) -> Value {
    let w = &WEIGHTS;
    pits[row(player)]
        .iter()
        .map(|&c| w.in_row * c as Value + if matches!(c, 1 | 3 | 5) { w.exposed } else { 0 })
        .sum()
}

/// The evaluation from the side to move's view.
pub fn evaluate(position: &Position) -> Value {
    let us = position.to_move();
    let them = 1 - us;
    let pits = position.pits();
    WEIGHTS.captured * (position.captured(us) as Value - position.captured(them) as Value)
        + row_terms(pits, us)
        - row_terms(pits, them)
        + WEIGHTS.tempo
}

/// The value of a finished game with these totals, from `us`'s view.
fn final_value(ours: i32, theirs: i32, ply: u32) -> Value {
    match ours.cmp(&theirs) {
        std::cmp::Ordering::Greater => MATE - ply as Value,
        std::cmp::Ordering::Less => -(MATE - ply as Value),
        std::cmp::Ordering::Equal => 0,
    }
}

impl TwoPlayerGame for Position {
    fn evaluate(&self) -> Value {
        evaluate(self)
    }

    fn rule_end(&self, ply: u32) -> Option<Value> {
        // A first repetition inside the search is taken as the end it leads to.
        let limit = self
            .rules()
            .ply_limit
            .is_some_and(|l| self.state().plies >= l);
        if !(limit || self.occurrences() >= 2) {
            return None;
        }
        let us = self.to_move();
        let total = |p: usize| {
            self.captured(p) as i32 + self.pits()[row(p)].iter().map(|&c| c as i32).sum::<i32>()
        };
        Some(final_value(total(us), total(1 - us), ply))
    }

    fn no_moves_value(&self, ply: u32) -> Value {
        // Only an empty board leaves the player to move without a move.
        let us = self.to_move();
        final_value(self.captured(us) as i32, self.captured(1 - us) as i32, ply)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.tactical_order(mv) > 0
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let mut pits = *self.pits();
        sow(&mut pits, mv.0 as usize, self.rules().skip_origin) as i32
    }

    fn proven_bounds(&self) -> Option<(Value, Value)> {
        super::engine::proven_bounds(self)
    }

    fn pack(mv: Move) -> u32 {
        mv.0 as u32 + 1
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.0 as usize + PITS * self.to_move()
    }
}
