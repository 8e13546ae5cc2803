//! Attack tables, all computed at compile time.
//!
//! Only the Rook slides. Its attacks come from one table of 11-square line attacks
//! indexed by the position on the line and the occupancy of the 9 inner squares:
//! ranks read that occupancy straight from the board, files read it from a second
//! occupancy kept in file-major order ("rotated"), and a spread table turns the
//! 11-bit result back into a file of the board.

use super::board::{Bitboard, Color, SIZE, SQUARES, Square};

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && rank >= 0 && file < SIZE as i32 && rank < SIZE as i32
}

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; SQUARES] {
    let mut table = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % SIZE) as i32, (sq / SIZE) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if on_board(nf, nr) {
                table[sq] |= 1u128 << (nr as usize * SIZE + nf as usize);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// Wazir + Ferz + Dabbaba + Alfil: one or two squares along each king direction.
const ELEPHANT_STEPS: [(i32, i32); 16] = {
    let mut steps = [(0, 0); 16];
    let mut i = 0;
    while i < 8 {
        let (df, dr) = KING_STEPS[i];
        steps[2 * i] = (df, dr);
        steps[2 * i + 1] = (2 * df, 2 * dr);
        i += 1;
    }
    steps
};

pub static KNIGHT: [Bitboard; SQUARES] = leaper_table(&KNIGHT_STEPS);
pub static KING: [Bitboard; SQUARES] = leaper_table(&KING_STEPS);
pub static ELEPHANT: [Bitboard; SQUARES] = leaper_table(&ELEPHANT_STEPS);
/// `PAWN[c][sq]`: the squares a pawn of colour `c` on `sq` attacks. Read the other way
/// round, `PAWN[c][sq]` holds the squares from which an enemy pawn attacks a `c` man on `sq`.
pub static PAWN: [[Bitboard; SQUARES]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// `LINE[p][inner]`: the attacked squares (11-bit mask) of a slider at position `p`
/// on a line of 11 squares whose inner squares 1..=9 have occupancy `inner`.
static LINE: [[u16; 512]; SIZE] = {
    let mut table = [[0u16; 512]; SIZE];
    let mut p = 0;
    while p < SIZE {
        let mut inner = 0;
        while inner < 512 {
            let occ = (inner as u32) << 1;
            let mut att = 0u16;
            let mut q = p as i32 + 1;
            while q < SIZE as i32 {
                att |= 1 << q;
                if occ & (1 << q) != 0 {
                    break;
                }
                q += 1;
            }
            q = p as i32 - 1;
            while q >= 0 {
                att |= 1 << q;
                if occ & (1 << q) != 0 {
                    break;
                }
                q -= 1;
            }
            table[p][inner] = att;
            inner += 1;
        }
        p += 1;
    }
    table
};

/// `SPREAD[m]`: bit `i` of the 11-bit mask `m` moved to square `i * 11` (file a).
static SPREAD: [Bitboard; 1 << SIZE] = {
    let mut table = [0u128; 1 << SIZE];
    let mut m = 0;
    while m < (1 << SIZE) {
        let mut i = 0;
        while i < SIZE {
            if m & (1 << i) != 0 {
                table[m] |= 1u128 << (i * SIZE);
            }
            i += 1;
        }
        m += 1;
    }
    table
};

/// The bit of a square in the file-major ("rotated") occupancy.
#[inline(always)]
pub const fn rotated_bit(sq: Square) -> Bitboard {
    1u128 << (sq.file() * SIZE + sq.rank())
}

/// Squares a rook on `sq` attacks, given the occupancy in both orders.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard, occ_rotated: Bitboard) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    let rank_inner = ((occ >> (rank * SIZE)) as usize >> 1) & 511;
    let along_rank = (LINE[file][rank_inner] as u128) << (rank * SIZE);
    let file_inner = ((occ_rotated >> (file * SIZE)) as usize >> 1) & 511;
    let along_file = SPREAD[LINE[rank][file_inner] as usize] << file;
    along_rank | along_file
}

/// The squares strictly between two squares on one rank or file; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a.0 < b.0 { (a, b) } else { (b, a) };
    let span = (hi.bit() - lo.bit()) ^ lo.bit();
    if lo.rank() == hi.rank() {
        span
    } else if lo.file() == hi.file() {
        span & super::board::FILES[lo.file()]
    } else {
        0
    }
}

/// The rank and file through `sq`, without `sq`: where a rook could pin or check from.
pub fn rook_lines(sq: Square) -> Bitboard {
    (super::board::rank_mask(sq.rank()) | super::board::FILES[sq.file()]) & !sq.bit()
}

/// Squares attacked by pawns of `color` standing on `pawns`.
#[inline(always)]
pub fn pawn_set(color: Color, pawns: Bitboard) -> Bitboard {
    use super::board::{east, north, south, west};
    match color {
        Color::White => north(east(pawns) | west(pawns)),
        Color::Black => south(east(pawns) | west(pawns)),
    }
}

/// Squares attacked by knights standing on `knights`.
#[inline(always)]
pub fn knight_set(knights: Bitboard) -> Bitboard {
    use super::board::{east, north, south, west};
    let e1 = east(knights);
    let w1 = west(knights);
    let e2 = east(e1);
    let w2 = west(w1);
    let one = e1 | w1;
    let two = e2 | w2;
    north(north(one)) | south(south(one)) | north(two) | south(two)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::senamukha::board::Squares;

    fn sq(name: &str) -> Square {
        Square::from_coords(name.chars().next().unwrap(), name[1..].parse().unwrap()).unwrap()
    }

    fn names(b: Bitboard) -> Vec<String> {
        Squares::new(b).map(|s| s.to_string()).collect()
    }

    #[test]
    fn elephant_has_sixteen_targets_in_the_middle_and_fewer_at_the_edge() {
        assert_eq!(ELEPHANT[sq("f6").index()].count_ones(), 16);
        assert_eq!(ELEPHANT[sq("a1").index()].count_ones(), 6);
        assert_eq!(
            names(ELEPHANT[sq("a1").index()]),
            ["b1", "c1", "a2", "b2", "a3", "c3"]
        );
    }

    #[test]
    fn knight_table_and_knight_set_agree_on_every_square() {
        for s in 0..SQUARES {
            let s = Square::at(s as u8);
            assert_eq!(KNIGHT[s.index()], knight_set(s.bit()), "{s}");
        }
    }

    #[test]
    fn rook_stops_at_blockers_in_all_four_directions() {
        let occ = sq("f9").bit() | sq("f2").bit() | sq("b6").bit() | sq("k6").bit();
        let mut rot = 0;
        for s in Squares::new(occ) {
            rot |= rotated_bit(s);
        }
        let att = rook(sq("f6"), occ, rot);
        assert_eq!(
            names(att),
            [
                "f2", "f3", "f4", "f5", "b6", "c6", "d6", "e6", "g6", "h6", "i6", "j6", "k6", "f7",
                "f8", "f9"
            ]
        );
    }

    #[test]
    fn between_is_empty_off_lines_and_exclusive_of_ends() {
        assert_eq!(names(between(sq("a1"), sq("a4"))), ["a2", "a3"]);
        assert_eq!(names(between(sq("k3"), sq("h3"))), ["i3", "j3"]);
        assert_eq!(between(sq("a1"), sq("b3")), 0);
        assert_eq!(between(sq("k1"), sq("a2")), 0);
    }
}
