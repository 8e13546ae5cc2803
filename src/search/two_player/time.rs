//! How much of the clock an iterative deepening uses: the budget (`limits.rs`) sets the
//! optimum time, and this scales it by how settled the search looks, as Stockfish's
//! time manager does with its best-move instability and falling-eval factors.

use crate::search::{MATE_BOUND, Value};

/// How settled an iterative deepening is, for how much of the clock it uses: the best
/// move changing and the score falling below the last search's stretch the time, a
/// best move that has stood for many iterations shrinks it.
pub(super) struct TimeScale {
    /// Changes of the best move, each iteration's halving the older ones.
    changes: f64,
    /// The last iteration at which the best move changed.
    changed_at: u32,
    depth: u32,
    reference: Option<Value>,
    /// The score of the last iteration (for the side that searched).
    pub(super) last_value: Option<Value>,
}

impl TimeScale {
    /// Before the first iteration; `reference` is the score the last search ended with.
    pub(super) fn new(reference: Option<Value>) -> TimeScale {
        TimeScale {
            changes: 0.0,
            changed_at: 0,
            depth: 0,
            reference,
            last_value: None,
        }
    }

    /// Takes in an iteration of `depth` plies that scored `value`, and whether its best
    /// move differs from the last iteration's.
    pub(super) fn iteration(&mut self, depth: u32, value: Value, best_changed: bool) {
        self.changes /= 2.0;
        if best_changed && depth > 1 {
            self.changes += 1.0;
            self.changed_at = depth;
        }
        self.depth = depth;
        self.last_value = Some(value);
    }

    /// The factor on the optimum time.
    pub(super) fn scale(&self) -> f64 {
        let instability = 1.0 + self.changes;
        let falling = match (self.reference, self.last_value) {
            (Some(before), Some(now)) if before.abs() < MATE_BOUND && now.abs() < MATE_BOUND => {
                (1.0 + f64::from(before - now) / 200.0).clamp(0.7, 1.5)
            }
            _ => 1.0,
        };
        let settled = if self.depth >= self.changed_at + 8 {
            0.75
        } else {
            1.0
        };
        (instability * falling * settled).clamp(0.5, 2.5)
    }
}
