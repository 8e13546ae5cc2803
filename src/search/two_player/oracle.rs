//! Proven values from outside the search: the game's engine may hand the search an
//! oracle (an endgame table), and every node it settles becomes a leaf. The search
//! knows no oracle of its own, so that it stays free of any one game.

use super::TwoPlayerGame;
use crate::search::Value;

/// Proven bounds on the value of a position for the side to move (an endgame table's,
/// or what the rules alone prove); equal bounds are the exact value. Handed to
/// [`super::Searcher::search_with`] by the game's engine: the search knows no oracle
/// itself.
pub type Oracle<'a, G> = &'a (dyn Fn(&G) -> Option<(Value, Value)> + Sync);

/// The value of a node whose proven bounds settle it within `alpha..beta`.
pub(super) fn proven_cutoff<G: TwoPlayerGame>(
    position: &G,
    oracle: Option<Oracle<'_, G>>,
    alpha: Value,
    beta: Value,
) -> Option<Value> {
    let (lower, upper) = oracle?(position)?;
    if lower == upper || lower >= beta {
        Some(lower)
    } else if upper <= alpha {
        Some(upper)
    } else {
        None
    }
}
