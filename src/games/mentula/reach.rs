//! Reach: the squares a player's pieces can ever occupy by the player's own moves.
//!
//! Opponents never block a jump (landing on one captures it), so a player's future
//! squares depend only on the player's own configuration. A player has at most one
//! piece of each of the four colours, on one of that colour's 16 squares, so a
//! configuration is a number below 17^4 (16 = no piece of that colour). Own moves are
//! reversible (jumping back over the same pivot undoes a jump), so the configurations
//! fall into connected components that share one reach. The table below is built once,
//! on first use, by union-find over all 83,521 configurations; afterwards a reach is
//! one lookup.

use std::sync::LazyLock;

use super::board::{Bitboard, PLAYERS, Square, Squares};
use super::geometry::jump;

const ABSENT: usize = 16;
const BASE: usize = 17;
const CONFIGURATIONS: usize = BASE * BASE * BASE * BASE;

/// The configuration number of a player's pieces (at most one per colour).
#[inline]
fn configuration(men: Bitboard) -> usize {
    let mut digits = [ABSENT; 4];
    for sq in Squares::new(men) {
        digits[sq.colour()] = sq.index_in_colour();
    }
    digits[0] + BASE * (digits[1] + BASE * (digits[2] + BASE * digits[3]))
}

fn pieces(mut configuration: usize) -> [Option<Square>; 4] {
    let mut out = [None; 4];
    for (colour, slot) in out.iter_mut().enumerate() {
        let digit = configuration % BASE;
        configuration /= BASE;
        if digit != ABSENT {
            *slot = Some(Square::of_colour(colour, digit));
        }
    }
    out
}

fn encode(pieces: &[Option<Square>; 4]) -> usize {
    pieces.iter().rev().fold(0, |acc, p| {
        acc * BASE + p.map_or(ABSENT, |sq| sq.index_in_colour())
    })
}

fn find(parent: &mut [u32], mut x: usize) -> usize {
    while parent[x] as usize != x {
        let grandparent = parent[parent[x] as usize];
        parent[x] = grandparent;
        x = grandparent as usize;
    }
    x
}

/// The reach of every configuration, built on first use.
static REACH: LazyLock<Vec<Bitboard>> = LazyLock::new(build_table);

/// Builds the reach of every configuration (public for the benchmark of its cost).
pub fn build_table() -> Vec<Bitboard> {
    let mut parent: Vec<u32> = (0..CONFIGURATIONS as u32).collect();
    for config in 0..CONFIGURATIONS {
        let men = pieces(config);
        for i in 0..4 {
            for j in 0..4 {
                let (Some(start), Some(pivot)) = (men[i], men[j]) else {
                    continue;
                };
                if i == j {
                    continue;
                }
                if let Some(target) = jump(start, pivot) {
                    let mut next = men;
                    next[i] = Some(target);
                    let (a, b) = (find(&mut parent, config), find(&mut parent, encode(&next)));
                    if a != b {
                        parent[a.max(b)] = a.min(b) as u32;
                    }
                }
            }
        }
    }
    let mut component_reach = vec![0u64; CONFIGURATIONS];
    for config in 0..CONFIGURATIONS {
        let squares = pieces(config)
            .iter()
            .flatten()
            .fold(0, |acc, sq| acc | sq.bit());
        let root = find(&mut parent, config);
        component_reach[root] |= squares;
    }
    (0..CONFIGURATIONS)
        .map(|config| component_reach[find(&mut parent, config)])
        .collect()
}

/// The squares the pieces `men` of one player can ever occupy by that player's moves.
/// `men` must hold at most one piece per colour.
#[inline]
pub fn reach(men: Bitboard) -> Bitboard {
    REACH[configuration(men)]
}

/// Forces the table to be built (for start-up and benchmarks).
pub fn prepare() {
    LazyLock::force(&REACH);
}

/// Every player's reach.
pub fn reaches(men: &[Bitboard; PLAYERS]) -> [Bitboard; PLAYERS] {
    std::array::from_fn(|p| reach(men[p]))
}

/// Whether a capture can still happen: some two players can reach a common square.
pub fn capture_possible(men: &[Bitboard; PLAYERS]) -> bool {
    let reaches = reaches(men);
    (0..PLAYERS).any(|p| ((p + 1)..PLAYERS).any(|q| reaches[p] & reaches[q] != 0))
}

/// Scores count twelfths of a square: a square shared by k players gives each 12 / k.
pub const SCORE_UNITS: i32 = 12;

/// The squares reached by exactly 1, 2, 3 and 4 of `reaches`, by adding the four
/// bitboards bit by bit.
fn reached_by_exactly(reaches: &[Bitboard; PLAYERS]) -> [Bitboard; PLAYERS] {
    let [r0, r1, r2, r3] = *reaches;
    let (low_a, carry_a) = (r0 ^ r1, r0 & r1);
    let (low_b, carry_b) = (r2 ^ r3, r2 & r3);
    let ones = low_a ^ low_b;
    let carry = low_a & low_b;
    let twos = carry_a ^ carry_b ^ carry;
    let fours = (carry_a & carry_b) | ((carry_a ^ carry_b) & carry);
    [
        ones & !twos & !fours,
        !ones & twos & !fours,
        ones & twos & !fours,
        fours,
    ]
}

/// Scores by shared squares (protocol-spec/rules/mentula.md, M8), in twelfths: the only player with pieces
/// scores 64; otherwise every square that k players can reach gives each of them 1/k.
pub fn shared_scores(men: &[Bitboard; PLAYERS]) -> [i32; PLAYERS] {
    if let Some(alone) = lone_survivor(men) {
        return alone;
    }
    let reaches = reaches(men);
    let exactly = reached_by_exactly(&reaches);
    std::array::from_fn(|p| {
        (0..PLAYERS)
            .map(|k| (reaches[p] & exactly[k]).count_ones() as i32 * SCORE_UNITS / (k as i32 + 1))
            .sum()
    })
}

/// 64 squares for the only player with pieces left (none for the others), if there is
/// one such player or none at all.
fn lone_survivor(men: &[Bitboard; PLAYERS]) -> Option<[i32; PLAYERS]> {
    let with_pieces = men.iter().filter(|&&m| m != 0).count();
    (with_pieces <= 1)
        .then(|| std::array::from_fn(|p| if men[p] != 0 { 64 * SCORE_UNITS } else { 0 }))
}

/// Scores by exclusive squares (the option `scoring=exclusive`, the earlier ruling), in
/// twelfths: the only player with pieces scores 64; otherwise each player scores the
/// squares of its reach that no other player can reach.
pub fn exclusive_scores(men: &[Bitboard; PLAYERS]) -> [i32; PLAYERS] {
    if let Some(alone) = lone_survivor(men) {
        return alone;
    }
    let reaches = reaches(men);
    std::array::from_fn(|p| {
        let others = (0..PLAYERS)
            .filter(|&q| q != p)
            .fold(0, |acc, q| acc | reaches[q]);
        (reaches[p] & !others).count_ones() as i32 * SCORE_UNITS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn men(names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| {
                Square::from_coords(n.chars().next().unwrap(), n[1..].parse().unwrap())
                    .unwrap()
                    .bit()
            })
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn the_reach_examples_of_the_rules_hold() {
        assert_eq!(reach(men("a1 a2 b1 b2")).count_ones(), 64);
        assert_eq!(reach(men("g7 g8 h7 h8")).count_ones(), 64);
        assert_eq!(reach(men("d4 e4 d5")).count_ones(), 48);
        assert_eq!(
            reach(men("a1 a2 b1")),
            men("a1 a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1")
        );
        // Two pieces reach the squares of one line, in steps of their distance.
        assert_eq!(reach(men("a1 a2")), men("a1 a2 a3 a4 a5 a6 a7 a8"));
        assert_eq!(reach(men("a1 b2")), men("a1 b2 c3 d4 e5 f6 g7 h8"));
        assert_eq!(reach(men("a1 c2")), men("a1 c2 e3 g4"));
        assert_eq!(reach(men("a1 h8")), men("a1 h8"));
        assert_eq!(reach(men("e5")), men("e5"));
        assert_eq!(reach(0), 0);
    }

    #[test]
    fn the_configuration_numbering_is_a_bijection() {
        for config in 0..CONFIGURATIONS {
            assert_eq!(encode(&pieces(config)), config);
            let squares = pieces(config).iter().flatten().fold(0, |a, s| a | s.bit());
            assert_eq!(configuration(squares), config);
        }
    }

    const U: i32 = SCORE_UNITS;

    #[test]
    fn scores_follow_the_seed_examples_under_both_rulings() {
        let mut board = [0; PLAYERS];
        board[0] = men("a1 a2 b1 b2");
        assert_eq!(shared_scores(&board), [64 * U, 0, 0, 0]);
        assert_eq!(exclusive_scores(&board), [64 * U, 0, 0, 0]);
        // A free three-piece figure against a lone piece on its missing colour.
        board[0] = men("d4 e4 d5");
        board[2] = men("e5");
        assert_eq!(shared_scores(&board), [48 * U, 0, U, 0]);
        assert_eq!(exclusive_scores(&board), [48 * U, 0, U, 0]);
        assert!(!capture_possible(&board));
        board[1] = men("b2");
        assert!(capture_possible(&board), "b2 is in white's reach");
    }

    #[test]
    fn a_shared_square_is_split_among_those_who_reach_it() {
        // The start: four domas each reach all 64 squares, so each scores 16.
        let start = [
            men("a1 a2 b1 b2"),
            men("a7 a8 b7 b8"),
            men("g7 g8 h7 h8"),
            men("g1 g2 h1 h2"),
        ];
        assert_eq!(shared_scores(&start), [16 * U; 4]);
        assert_eq!(exclusive_scores(&start), [0; 4]);
        // White a1 a2 and yellow a5 a6 each reach the a-file; red's lone a3 reaches a3.
        let board = [men("a1 a2"), men("a5 a6"), men("a3"), 0];
        // a3 is shared by three (4 twelfths each); a1 a2 a4..a8 by white and yellow.
        assert_eq!(
            shared_scores(&board),
            [7 * U / 2 + U / 3, 7 * U / 2 + U / 3, U / 3, 0]
        );
        assert_eq!(exclusive_scores(&board), [0, 0, 0, 0]);
        // A naive count agrees on random boards.
        let mut rng = crate::game::Rng(0x5_4A2E);
        for _ in 0..2_000 {
            let mut board: [Bitboard; PLAYERS] = [0; PLAYERS];
            for _ in 0..8 {
                let player = rng.below(PLAYERS);
                if board[player].count_ones() < 4 {
                    let sq = 1u64 << rng.below(64);
                    if board.iter().all(|&m| m & sq == 0) {
                        board[player] |= sq;
                    }
                }
            }
            let reaches = reaches(&board);
            let naive: [i32; PLAYERS] = if board.iter().filter(|&&m| m != 0).count() <= 1 {
                std::array::from_fn(|p| if board[p] != 0 { 64 * U } else { 0 })
            } else {
                std::array::from_fn(|p| {
                    (0..64)
                        .filter(|&sq| reaches[p] >> sq & 1 == 1)
                        .map(|sq| {
                            let k = reaches.iter().filter(|&&r| r >> sq & 1 == 1).count();
                            U / k as i32
                        })
                        .sum()
                })
            };
            assert_eq!(shared_scores(&board), naive, "{board:?}");
        }
    }
}
