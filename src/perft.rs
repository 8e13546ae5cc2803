//! Perft: counting the leaves of the legal move tree, the first test of every move
//! generator. The last ply is counted in bulk (`count_legal_moves`), not played.
//! Perft counts the tree of legal moves only; it does not stop at the rules' other
//! ends of a game (repetition, move limits), as is the convention.

use crate::game::Game;

/// The number of leaf positions `depth` plies below `position`, by the game's own
/// perft (which is [`walk_tree`] unless the game has a faster one).
pub fn perft<G: Game>(position: &mut G, depth: u32) -> u64 {
    position.perft(depth)
}

/// The generic perft: play and undo every move, the last ply counted in bulk.
pub fn walk_tree<G: Game>(position: &mut G, depth: u32) -> u64 {
    // One move list per level, allocated once for the whole walk.
    let mut lists: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    walk(position, depth, &mut lists)
}

fn walk<G: Game>(position: &mut G, depth: u32, lists: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal_moves();
    }
    let (list, deeper) = lists.split_first_mut().expect("one list per level");
    position.legal_moves(list);
    let mut nodes = 0;
    for &mv in list.iter() {
        position.play(mv);
        nodes += walk(position, depth - 1, deeper);
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
