//! Perft: counting the leaves of the legal move tree, the first test of every move
//! generator. The last ply is counted in bulk (`count_legal_moves`), not played.

use crate::game::Game;

/// The number of leaf positions `depth` plies below `position`.
pub fn perft<G: Game>(position: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal_moves();
    }
    let mut moves = Vec::with_capacity(64);
    position.legal_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        position.play(mv);
        nodes += perft(position, depth - 1);
        position.undo();
    }
    nodes
}

/// Perft of every legal move separately, in generation order.
pub fn divide<G: Game>(position: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            position.play(mv);
            let n = perft(position, depth.saturating_sub(1));
            position.undo();
            (mv, n)
        })
        .collect()
}
