//! A deliberately simple second move generator, for tests only: it walks the
//! mailbox with step lists, plays every pseudo-legal move and keeps those after
//! which no enemy man attacks the mover's king (found by scanning outward from the
//! king). It shares no code with `movegen` or `attacks`.

use super::board::{Color, Kind, SIZE, Square};
use super::position::{Move, Position};

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// All steps (df, dr) with both parts in -2..=2 that satisfy `keep`.
fn steps(keep: impl Fn(i32, i32) -> bool) -> Vec<(i32, i32)> {
    (-2..=2)
        .flat_map(|df| (-2..=2).map(move |dr| (df, dr)))
        .filter(|&(df, dr)| keep(df, dr))
        .collect()
}

fn knight_steps() -> Vec<(i32, i32)> {
    steps(|df, dr| (df * dr).abs() == 2)
}

fn king_steps() -> Vec<(i32, i32)> {
    steps(|df, dr| df.abs().max(dr.abs()) == 1)
}

/// One or two squares along a rank, file or diagonal.
fn elephant_steps() -> Vec<(i32, i32)> {
    steps(|df, dr| (df, dr) != (0, 0) && (df == 0 || dr == 0 || df.abs() == dr.abs()))
}

fn offset(sq: Square, (df, dr): (i32, i32)) -> Option<Square> {
    let f = sq.file() as i32 + df;
    let r = sq.rank() as i32 + dr;
    (0..SIZE as i32)
        .contains(&f)
        .then_some(())
        .filter(|_| (0..SIZE as i32).contains(&r))
        .map(|_| Square::new(f as usize, r as usize))
}

/// Whether a man of `by` attacks `target`.
fn attacked(position: &Position, target: Square, by: Color) -> bool {
    let is = |sq: Option<Square>, kind: Kind| {
        sq.and_then(|s| position.piece_at(s))
            .is_some_and(|p| p.color == by && p.kind == kind)
    };
    if knight_steps()
        .into_iter()
        .any(|d| is(offset(target, d), Kind::Knight))
        || king_steps()
            .into_iter()
            .any(|d| is(offset(target, d), Kind::King))
        || elephant_steps()
            .into_iter()
            .any(|d| is(offset(target, d), Kind::Elephant))
    {
        return true;
    }
    // A pawn of `by` attacks diagonally forward, so it stands diagonally behind.
    let back = if by == Color::White { -1 } else { 1 };
    if [(-1, back), (1, back)]
        .iter()
        .any(|&d| is(offset(target, d), Kind::Pawn))
    {
        return true;
    }
    for &d in &ORTHOGONAL {
        let mut sq = target;
        while let Some(next) = offset(sq, d) {
            if let Some(p) = position.piece_at(next) {
                if p.color == by && p.kind == Kind::Rook {
                    return true;
                }
                break;
            }
            sq = next;
        }
    }
    false
}

/// All legal moves, the slow way.
pub fn legal_moves(position: &Position) -> Vec<Move> {
    let us = position.side_to_move();
    let mut pseudo = Vec::new();
    for i in 0..SIZE * SIZE {
        let from = Square::at(i as u8);
        let Some(piece) = position.piece_at(from) else {
            continue;
        };
        if piece.color != us {
            continue;
        }
        let free_or_enemy = |sq: Square| position.piece_at(sq).is_none_or(|p| p.color != us);
        let mut targets = Vec::new();
        match piece.kind {
            Kind::Knight => {
                targets.extend(knight_steps().into_iter().filter_map(|d| offset(from, d)))
            }
            Kind::King => targets.extend(king_steps().into_iter().filter_map(|d| offset(from, d))),
            Kind::Elephant => {
                targets.extend(elephant_steps().into_iter().filter_map(|d| offset(from, d)))
            }
            Kind::Rook => {
                for &d in &ORTHOGONAL {
                    let mut sq = from;
                    while let Some(next) = offset(sq, d) {
                        targets.push(next);
                        if position.piece_at(next).is_some() {
                            break;
                        }
                        sq = next;
                    }
                }
            }
            Kind::Pawn => {
                let fwd = if us == Color::White { 1 } else { -1 };
                if let Some(sq) = offset(from, (0, fwd))
                    && position.piece_at(sq).is_none()
                {
                    targets.push(sq);
                }
                for df in [-1, 1] {
                    if let Some(sq) = offset(from, (df, fwd))
                        && position.piece_at(sq).is_some_and(|p| p.color != us)
                    {
                        targets.push(sq);
                    }
                }
            }
        }
        for to in targets.into_iter().filter(|&s| free_or_enemy(s)) {
            let last = if us == Color::White { SIZE - 1 } else { 0 };
            if piece.kind == Kind::Pawn && to.rank() == last {
                for k in Kind::PROMOTIONS {
                    pseudo.push(Move::new(from, to, Some(k)));
                }
            } else {
                pseudo.push(Move::new(from, to, None));
            }
        }
    }
    let mut scratch = position.clone();
    pseudo
        .into_iter()
        .filter(|&mv| {
            scratch.play(mv);
            let safe = !attacked(&scratch, scratch.king(us), us.other());
            scratch.undo();
            safe
        })
        .collect()
}

/// Perft with the slow generator (no bulk counting).
pub fn perft(position: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for mv in legal_moves(position) {
        position.play(mv);
        nodes += perft(position, depth - 1);
        position.undo();
    }
    nodes
}
