//! The jump: where a piece lands when it jumps over another.
//!
//! Everything else asks [`jump`], so another board (a torus, say) only needs a new
//! table here. On the plane the target is the point reflection of the start through
//! the pivot, `2 x pivot - start`, if that is on the board.

use super::board::{SIZE, SQUARES, Square};

const OFF_BOARD: u8 = u8::MAX;

/// `JUMPS[start][pivot]`: the target square, or `OFF_BOARD`.
static JUMPS: [[u8; SQUARES]; SQUARES] = {
    let mut table = [[OFF_BOARD; SQUARES]; SQUARES];
    let mut start = 0;
    while start < SQUARES {
        let mut pivot = 0;
        while pivot < SQUARES {
            if pivot != start {
                let file = 2 * (pivot % SIZE) as i32 - (start % SIZE) as i32;
                let rank = 2 * (pivot / SIZE) as i32 - (start / SIZE) as i32;
                if file >= 0 && rank >= 0 && file < SIZE as i32 && rank < SIZE as i32 {
                    table[start][pivot] = (rank as usize * SIZE + file as usize) as u8;
                }
            }
            pivot += 1;
        }
        start += 1;
    }
    table
};

/// Where a piece on `start` lands when it jumps over the piece on `pivot`.
#[inline(always)]
pub fn jump(start: Square, pivot: Square) -> Option<Square> {
    let target = JUMPS[start.index()][pivot.index()];
    (target != OFF_BOARD).then_some(Square::at(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::from_coords(name.chars().next().unwrap(), name[1..].parse().unwrap()).unwrap()
    }

    #[test]
    fn the_target_is_the_reflection_through_the_pivot_at_any_distance() {
        assert_eq!(jump(sq("a1"), sq("b2")), Some(sq("c3")));
        assert_eq!(jump(sq("a1"), sq("c2")), Some(sq("e3")));
        assert_eq!(jump(sq("g8"), sq("f6")), Some(sq("e4")));
        assert_eq!(jump(sq("a1"), sq("d4")), Some(sq("g7")));
        assert_eq!(jump(sq("b1"), sq("a1")), None);
        assert_eq!(jump(sq("a1"), sq("h8")), None);
        assert_eq!(jump(sq("a1"), sq("a1")), None);
    }

    #[test]
    fn a_jump_keeps_the_colour_and_can_be_undone() {
        for s in 0..SQUARES as u8 {
            for p in 0..SQUARES as u8 {
                if let Some(t) = jump(Square::at(s), Square::at(p)) {
                    assert_eq!(t.colour(), Square::at(s).colour());
                    assert_eq!(jump(t, Square::at(p)), Some(Square::at(s)));
                }
            }
        }
    }
}
