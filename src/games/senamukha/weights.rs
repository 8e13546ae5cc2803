//! The evaluation's weights, in the order of `eval::LAYOUT`, as `ludus tune fit` writes them
//! (README, "Tuning the evaluation").

use crate::search::Value;

#[rustfmt::skip]
pub const WEIGHTS: [Value; super::eval::TERMS] = [
    // material: pawn knight elephant rook king
    100, 300, 500, 500, 0,
    // centre: pawn knight elephant rook king
    0, 4, 3, 1, 0,
    // mobility: pawn knight elephant rook king
    0, 3, 2, 2, 0,
    // pawn_advance: by ranks to go 0..=10
    0, 90, 55, 30, 15, 8, 4, 0, 0, 0, 0,
    // passed: by ranks to go 0..=10
    0, 120, 80, 50, 30, 15, 10, 5, 5, 5, 5,
    // doubled
    -15,
    // isolated
    -10,
    // rook_open_file
    15,
    // rook_half_open_file
    8,
    // threat_by_pawn
    30,
    // hanging
    10,
    // king_shelter
    6,
    // king_attacked
    -8,
    // pawn_shield
    6,
    // king_open_file
    -10,
    // king_zone_attacker: pawn knight elephant rook king
    -2, -6, -6, -8, 0,
    // king_attackers_squared
    -2,
    // safe_check: pawn knight elephant rook king
    0, -12, -12, -15, 0,
    // king_centre_endgame
    2,
    // tempo
    10,
];
