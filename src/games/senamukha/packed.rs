//! A Sena-Mukha position in 49 bytes, for training data (`ludus datagen`,
//! protocol-spec/datagen.md): the occupied squares as a 121-bit set, the men on them
//! four bits each, the side to move.
//!
//! - bytes 0..16: the occupied squares, bit `i` for square `i` (a1 = 0, k1 = 10,
//!   a2 = 11, ..., k11 = 120), little-endian;
//! - bytes 16..48: a nibble per occupied square in square order, the low nibble of a
//!   byte first: the kind (0 pawn, 1 knight, 2 elephant, 3 rook, 4 king) plus 8 for
//!   Black; unused nibbles are 0. A side starts with 31 men, so 64 nibbles are room
//!   enough (no move adds a man);
//! - byte 48: the side to move, 0 White, 1 Black.
//!
//! The move counters are not kept: an evaluation does not read them.

use super::board::{Color, Kind, SQUARES, Square};
use super::position::Position;
use crate::game::PositionError;

/// The bytes of a packed position.
pub const PACKED: usize = 49;

/// The most men a packed position holds.
const MEN: usize = 64;

/// Packs `position` (which holds at most 64 men, as every Sena-Mukha position does).
pub fn pack(position: &Position) -> [u8; PACKED] {
    let mut out = [0u8; PACKED];
    let mut occupied: u128 = 0;
    let mut man = 0;
    for index in 0..SQUARES {
        let Some(piece) = position.piece_at(Square::at(index as u8)) else {
            continue;
        };
        occupied |= 1u128 << index;
        let code = piece.kind.index() as u8 | if piece.color == Color::Black { 8 } else { 0 };
        out[16 + man / 2] |= code << (4 * (man % 2));
        man += 1;
        debug_assert!(man <= MEN);
    }
    out[..16].copy_from_slice(&occupied.to_le_bytes());
    out[48] = position.side_to_move().index() as u8;
    out
}

/// Reads a packed position back; what no position can be (an unknown man, a bit past
/// the board, more than 64 men, a bad side, no king) is refused.
pub fn unpack(bytes: &[u8]) -> Result<Position, PositionError> {
    if bytes.len() != PACKED {
        return Err(PositionError::syntax(format!(
            "a packed position is {PACKED} bytes, not {}",
            bytes.len()
        )));
    }
    let occupied = u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes"));
    if occupied >> SQUARES != 0 {
        return Err(PositionError::syntax(
            "a man beyond the board's 121 squares",
        ));
    }
    if occupied.count_ones() as usize > MEN {
        return Err(PositionError::syntax("more than 64 men"));
    }
    let side = match bytes[48] {
        0 => 'w',
        1 => 'b',
        other => return Err(PositionError::syntax(format!("side to move {other}"))),
    };
    // Through the position format, whose reader checks what a position must be.
    let mut board = [None; SQUARES];
    for (man, index) in (0..SQUARES).filter(|&i| occupied >> i & 1 == 1).enumerate() {
        let code = bytes[16 + man / 2] >> (4 * (man % 2)) & 0xF;
        let kind = Kind::ALL
            .get(usize::from(code & 7))
            .ok_or_else(|| PositionError::syntax(format!("man code {code}")))?;
        let letter = kind.letter();
        board[index] = Some(if code & 8 == 0 {
            letter
        } else {
            letter.to_ascii_lowercase()
        });
    }
    let size = super::board::SIZE;
    let ranks =
        crate::square_board::write_board(size, size, |file, rank| board[rank * size + file]);
    super::fen::parse(&format!("{ranks} {side}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Rng};

    #[test]
    fn positions_of_random_games_pack_and_unpack_to_themselves() {
        let mut rng = Rng(0xDA7A_6E11);
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..30 {
            let mut position = Position::start();
            for _ in 0..300 {
                let packed = pack(&position);
                let back = unpack(&packed).unwrap();
                // The board and the side; the counters are not packed.
                let board = |p: &Position| {
                    let fen = p.fen();
                    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
                };
                assert_eq!(board(&back), board(&position));
                assert_eq!(pack(&back), packed);
                checked += 1;
                if position.outcome().is_some() {
                    break;
                }
                position.legal_moves(&mut moves);
                position.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 3_000, "{checked}");
    }

    #[test]
    fn what_is_no_position_is_refused() {
        let start = pack(&Position::start());
        let mut beyond = start;
        beyond[15] |= 0x80;
        assert!(
            unpack(&beyond)
                .unwrap_err()
                .to_string()
                .contains("beyond the board")
        );
        let mut man = start;
        man[16] = 0x07;
        assert!(unpack(&man).unwrap_err().to_string().contains("man code 7"));
        let mut side = start;
        side[48] = 2;
        assert!(
            unpack(&side)
                .unwrap_err()
                .to_string()
                .contains("side to move 2")
        );
        assert!(unpack(&start[..48]).is_err());
        // No kings: the position format's own check.
        let mut no_kings = [0u8; PACKED];
        no_kings[0] = 1;
        assert!(unpack(&no_kings).is_err());
    }
}
