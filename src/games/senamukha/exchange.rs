//! Static exchange evaluation: what the sequence of captures a move starts on its
//! target square wins or loses, each side recapturing with its least valuable man
//! while that pays, and either side free to stop.
//!
//! On this board only the Rook slides, so only Rooks are uncovered behind a capturing
//! man (an x-ray along a rank or file); the Elephant and the Knight leap and are never
//! blocked. A pawn that captures onto its last rank promotes on the spot, and is then
//! worth the best of the three pieces it may become. Pins are not looked at.

use super::attacks;
use super::board::{Bitboard, Color, Kind, SIZE, Square, Squares};
use super::position::{Move, Position};
use crate::search::Value;

fn value(kind: Kind) -> Value {
    match kind {
        // The king can be "captured" only as the last man of an exchange: a large value
        // makes a recapture of it never pay.
        Kind::King => 20_000,
        kind => super::eval::material(kind),
    }
}

/// The best man a pawn promotes to.
const PROMOTED: Kind = Kind::Rook;

fn last_rank(color: Color) -> usize {
    match color {
        Color::White => SIZE - 1,
        Color::Black => 0,
    }
}

/// Every man of either side attacking `sq` with the board occupied by `occ`
/// (`rot`: the same occupancy file-major).
fn attackers(position: &Position, sq: Square, occ: Bitboard, rot: Bitboard) -> Bitboard {
    let i = sq.index();
    let kind = |k: Kind| position.men(Color::White, k) | position.men(Color::Black, k);
    ((attacks::KNIGHT[i] & kind(Kind::Knight))
        | (attacks::ELEPHANT[i] & kind(Kind::Elephant))
        | (attacks::KING[i] & kind(Kind::King))
        | (attacks::PAWN[Color::Black.index()][i] & position.men(Color::White, Kind::Pawn))
        | (attacks::PAWN[Color::White.index()][i] & position.men(Color::Black, Kind::Pawn))
        | (attacks::rook(sq, occ, rot) & kind(Kind::Rook)))
        & occ
}

/// What the exchange `mv` starts on its target square gains for its mover, both
/// sides capturing with their least valuable man and stopping when that pays better.
pub fn gain(position: &Position, mv: Move) -> Value {
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = position.piece_at(from) else {
        return 0;
    };
    // gains[d]: what the side making the d-th capture wins if the other side takes
    // back no more; the list is folded from the end.
    let mut gains = [0 as Value; 40];
    gains[0] = position.piece_at(to).map_or(0, |p| value(p.kind));
    let mut at_stake = mover.kind;
    if let Some(promotion) = mv.promotion() {
        gains[0] += value(promotion) - value(Kind::Pawn);
        at_stake = promotion;
    }
    let mut occ = (position.occupied() & !from.bit()) | to.bit();
    let mut rot =
        (position.occupied_rotated() & !attacks::rotated_bit(from)) | attacks::rotated_bit(to);
    let rooks = position.men(Color::White, Kind::Rook) | position.men(Color::Black, Kind::Rook);
    let mut all = attackers(position, to, occ, rot) & !from.bit();
    let mut side = mover.color.other();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let candidates = all & occ & position.side_men(side);
        // The least valuable attacker of `side`.
        let Some((kind, sq)) = Kind::ALL.iter().find_map(|&k| {
            Squares::new(candidates & position.men(side, k))
                .next()
                .map(|sq| (k, sq))
        }) else {
            break;
        };
        occ &= !sq.bit();
        rot &= !attacks::rotated_bit(sq);
        // A Rook behind the capturing man on the line joins in.
        all |= attacks::rook(to, occ, rot) & rooks;
        all &= occ;
        if kind == Kind::King && all & position.side_men(side.other()) != 0 {
            // The king may not take a guarded man.
            break;
        }
        let (arriving, promotion) = if kind == Kind::Pawn && to.rank() == last_rank(side) {
            (PROMOTED, value(PROMOTED) - value(Kind::Pawn))
        } else {
            (kind, 0)
        };
        depth += 1;
        gains[depth] = value(at_stake) + promotion - gains[depth - 1];
        at_stake = arriving;
        side = side.other();
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether the exchange `mv` starts gains at least `threshold` for its mover (the
/// search's pruning asks only this; the full value is cheap enough on this board).
pub fn at_least(position: &Position, mv: Move, threshold: Value) -> bool {
    gain(position, mv) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn gain_of(fen: &str, mv: &str) -> Value {
        let position = Position::from_fen(fen).unwrap();
        let mv = position.parse_move(mv).unwrap();
        gain(&position, mv)
    }

    #[test]
    fn a_capture_wins_the_victim_unless_it_is_defended() {
        // The rook takes a pawn that a pawn defends (Black's pawns take downwards).
        let fen = "10k/11/3p7/4p6/11/11/4R6/11/11/11/K10 w - - 0 1";
        assert_eq!(gain_of(fen, "e5e8"), 100 - 500);
        // Undefended, it is a pawn won.
        let fen = "10k/11/11/4p6/11/11/4R6/11/11/11/K10 w - - 0 1";
        assert_eq!(gain_of(fen, "e5e8"), 100);
        // A quiet move onto a square a pawn attacks loses the man.
        let fen = "10k/11/3p7/11/11/11/4R6/11/11/11/K10 w - - 0 1";
        assert_eq!(gain_of(fen, "e5e8"), -500);
    }

    #[test]
    fn a_rook_behind_the_capturing_rook_joins_the_exchange() {
        // Rxe8 Rxe8 Rxe8: the rook on e1 sees e8 once the one on e2 has gone.
        let fen = "10k/4r6/11/4p6/11/11/11/11/11/4R6/K3R6 w - - 0 1";
        assert_eq!(gain_of(fen, "e2e8"), 100);
    }

    #[test]
    fn the_elephant_leaps_into_the_exchange_and_the_pawn_behind_it_recaptures() {
        // Exe5 over the pawn on d4; fxe5 dxe5: a knight and a pawn for the Elephant.
        let fen = "10k/11/11/11/11/5p5/4n6/3P7/2E8/11/K10 w - - 0 1";
        assert_eq!(gain_of(fen, "c3e5"), 300 + 100 - 500);
    }

    #[test]
    fn a_pawn_capturing_onto_the_last_rank_promotes_in_the_exchange() {
        // cxd11=R wins the knight and promotes; Rxd11 takes the new rook back.
        let fen = "3nr5k/2P8/11/11/11/11/11/11/11/11/K10 w - - 0 1";
        assert_eq!(gain_of(fen, "c10d11r"), 300 + 400 - 500);
        // Promoting to a knight, less is won and less is lost: the same balance.
        assert_eq!(gain_of(fen, "c10d11n"), 300 + 200 - 300);
    }

    #[test]
    fn the_king_takes_back_only_an_undefended_man() {
        // ...Rxe6: the king on e5 takes the rook back.
        let fen = "10k/11/11/11/11/4P5r/4K6/11/11/11/11 b - - 0 1";
        assert_eq!(gain_of(fen, "k6e6"), 100 - 500);
        // With a black pawn on f7 guarding e6, the king may not: a pawn won.
        let fen = "10k/11/11/11/5p5/4P5r/4K6/11/11/11/11 b - - 0 1";
        assert_eq!(gain_of(fen, "k6e6"), 100);
        let position = Position::from_fen(fen).unwrap();
        let mv = position.parse_move("k6e6").unwrap();
        assert!(at_least(&position, mv, 100) && !at_least(&position, mv, 101));
    }
}
