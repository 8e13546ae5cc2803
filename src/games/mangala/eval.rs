//! Evaluation of Mangala II positions, in centi-counters from the side to move's view,
//! and what alpha-beta needs to search the game.
//!
//! Terms: the capture difference (what is already won), the counters in each row (they
//! go to the row's owner if the game ends by repetition or the ply limit, and they are
//! the owner's to sow), and exposed pits: pits holding 1, 3 or 5, which one more counter
//! turns into a capture for whoever lands there. All weights are in [`WEIGHTS`].
//!
//! Every value the search sees is on one scale, the final margin's: a finished game,
//! a repetition or the ply limit inside the tree, and a position the endgame tables
//! settle are all worth [`proven_value`] of the mover's final margin (so a win by a
//! margin of `m` is `PROVEN_WIN + m`, whatever ended it). The evaluation itself stays
//! within what the counters still on the board allow: once one side is sure to win,
//! because the other could not catch up even with every counter left, its value is a
//! proven win with the estimated margin.

use super::position::{Move, PITS, Position, row, sow};
use crate::search::two_player::TwoPlayerGame;
use crate::search::wdl::LogisticModel;
use crate::search::{PROVEN_WIN, Value};

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

/// The win/draw/loss model of the search's scores (`UCI_ShowWDL`) by the share of
/// the counters still on the board, fitted by `ludus wdl --game mangala --games 5000
/// --nodes 5000 --concurrency 1` on the 129,414 undecided positions of 4,000 of its
/// self-play games; on the 1,000 games held out, Brier skill 0.318 against the base
/// rates (protocol-spec/wdl.md, benches/README.md). Proven values (the tables, a
/// margin the counters left cannot undo) are certain and bypass it. The material is
/// held to 0.15 and up (11 counters), as the fit was: below, nearly every position
/// is the endgame tables', and the fit has too few to shape the curves.
pub const WDL_MODEL: LogisticModel = LogisticModel {
    a: [-63.776, 289.070, -321.367, 258.618],
    b: [-275.717, -15.701, 705.261, -81.442],
    compress: 400.0,
    x_range: (0.150, 1.000),
};

fn row_terms(pits: &[u8; PITS], player: usize) -> Value {
    let w = &WEIGHTS;
    pits[row(player)]
        .iter()
        .map(|&c| w.in_row * c as Value + if matches!(c, 1 | 3 | 5) { w.exposed } else { 0 })
        .sum()
}

/// The heuristic estimate from the side to move's view, unbounded by the rules.
fn estimate(position: &Position) -> Value {
    let us = position.to_move();
    let them = 1 - us;
    let pits = position.pits();
    WEIGHTS.captured * (position.captured(us) as Value - position.captured(them) as Value)
        + row_terms(pits, us)
        - row_terms(pits, them)
        + WEIGHTS.tempo
}

/// The evaluation from the side to move's view, within the bounds that the counters
/// left on the board set on the final margin (see the module's introduction).
pub fn evaluate(position: &Position) -> Value {
    let (lower, upper) = margin_bounds(position);
    let estimate = estimate(position);
    if lower > 0 || upper < 0 {
        proven_value((estimate / WEIGHTS.captured).clamp(lower, upper))
    } else {
        estimate.clamp(proven_value(lower), proven_value(upper))
    }
}

/// The value of a proven final margin `margin` (totals, mover's view): wins above
/// every evaluation, larger margins better; a draw is 0.
pub fn proven_value(margin: i32) -> Value {
    match margin.signum() {
        1 => PROVEN_WIN + margin,
        -1 => -PROVEN_WIN + margin,
        _ => 0,
    }
}

/// The least and the greatest final margin (totals, mover's view) still possible: at
/// worst the opponent takes every counter left on the board, at best the mover does.
pub fn margin_bounds(position: &Position) -> (i32, i32) {
    let us = position.to_move();
    let so_far = position.captured(us) as i32 - position.captured(1 - us) as i32;
    let on_board: i32 = position.pits().iter().map(|&c| c as i32).sum();
    (so_far - on_board, so_far + on_board)
}

/// The value of a finished game with these totals, from `us`'s view.
fn final_value(ours: i32, theirs: i32) -> Value {
    proven_value(ours - theirs)
}

impl TwoPlayerGame for Position {
    fn evaluate(&mut self) -> Value {
        evaluate(self)
    }

    fn rule_end(&self, _ply: u32) -> Option<Value> {
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
        Some(final_value(total(us), total(1 - us)))
    }

    fn no_moves_value(&self, _ply: u32) -> Value {
        // Only an empty board leaves the player to move without a move.
        let us = self.to_move();
        final_value(self.captured(us) as i32, self.captured(1 - us) as i32)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.tactical_order(mv) > 0
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let mut pits = *self.pits();
        sow(&mut pits, mv.0 as usize, self.rules().skip_origin) as i32
    }

    fn pack(mv: Move) -> u32 {
        mv.0 as u32 + 1
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.0 as usize + PITS * self.to_move()
    }
}
