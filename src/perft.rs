//! Perft: counting the leaves of the legal move tree, the first test of every move
//! generator. The last ply is counted in bulk (`count_legal_moves`), not played.
//! Perft counts the tree of legal moves only; it does not stop at the rules' other
//! ends of a game (repetition, move limits), as is the convention.
//!
//! ```
//! use ludus::game::Game;
//! use ludus::games::mentula::Position;
//!
//! let mut start = Position::start();
//! assert_eq!(ludus::perft::perft(&mut start, 1), start.count_legal_moves());
//! let below: u64 = ludus::perft::divide(&mut start, 2).iter().map(|(_, n)| n).sum();
//! assert_eq!(below, ludus::perft::perft(&mut start, 2));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;

/// Subtrees this shallow are counted whole by the game's own perft before a stoppable
/// count looks at its stop flag again (a few milliseconds at most).
const UNSTOPPABLE_DEPTH: u32 = 3;

/// The number of leaf positions `depth` plies below `position`, by the game's own
/// perft (which is [`crate::game::walk_tree`] unless the game has a faster one).
pub fn perft<G: Game>(position: &mut G, depth: u32) -> u64 {
    position.perft(depth)
}

/// Perft of every legal move separately, in generation order.
pub fn divide<G: Game>(position: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    divide_until(position, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`perft`] that gives up when `stop` is set: `None` then. The flag is looked at
/// between subtrees of [`UNSTOPPABLE_DEPTH`] plies, which the game's own (fast) perft
/// counts whole.
pub fn perft_until<G: Game>(position: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNSTOPPABLE_DEPTH {
        return (!stop.load(Ordering::Relaxed)).then(|| position.perft(depth));
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut nodes = 0;
    for mv in moves {
        position.play(mv);
        let counted = perft_until(position, depth - 1, stop);
        position.undo();
        nodes += counted?;
    }
    Some(nodes)
}

/// [`divide`] that gives up when `stop` is set (see [`perft_until`]).
pub fn divide_until<G: Game>(
    position: &mut G,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(G::Move, u64)>> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            position.play(mv);
            let n = perft_until(position, depth.saturating_sub(1), stop);
            position.undo();
            Some((mv, n?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::senamukha::Position;

    #[test]
    fn a_stoppable_count_counts_what_perft_counts_and_gives_up_when_stopped() {
        let going = AtomicBool::new(false);
        let mut position = Position::start();
        assert_eq!(perft_until(&mut position, 4, &going), Some(5_568_223));
        let divided = divide_until(&mut position, 4, &going).unwrap();
        assert_eq!(divided, divide(&mut position, 4));
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&mut position, 5, &stopped), None);
        assert_eq!(divide_until(&mut position, 5, &stopped), None);
        assert_eq!(
            position.fen(),
            Position::start().fen(),
            "the position is as it was"
        );
    }
}
