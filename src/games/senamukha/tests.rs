//! Unit tests of the Sena-Mukha rules against the simple reference generator.

use super::position::{Move, Position};
use super::reference;
use crate::game::Game;

fn sorted(mut moves: Vec<Move>) -> Vec<String> {
    let mut out: Vec<String> = moves.drain(..).map(|m| format!("{m:?}")).collect();
    out.sort();
    out
}

/// Walks the tree to `depth` and checks at every node that both generators agree.
fn compare(position: &mut Position, depth: u32) {
    let mut fast = Vec::new();
    position.legal_moves(&mut fast);
    let slow = reference::legal_moves(position);
    assert_eq!(sorted(fast.clone()), sorted(slow), "at {}", position.fen());
    assert_eq!(position.count_legal(), fast.len() as u64);
    if depth == 0 {
        return;
    }
    for mv in fast {
        position.play(mv);
        compare(position, depth - 1);
        position.undo();
    }
}

#[test]
fn fast_and_reference_generators_agree_to_depth_3() {
    compare(&mut Position::start(), 3);
}
