//! The network's inputs: which man stands on which square, as each side sees the board.
//!
//! A side's view turns the board so that the side plays up the board from the bottom
//! (Black's view is the board turned half round: Black's setup is White's, turned), and
//! mirrors it left to right when the side's own king stands right of the f-file (the
//! rules are the same in the mirror, so a position and its mirror are worth the same).
//! The king's square in that view picks one of [`BUCKETS`] sets of inputs, so that the
//! worth of a man on a square can depend on where its own king is. An input is then a
//! man's side (own or enemy), kind and square in the view: 1,210 inputs a bucket.

use super::super::board::{Color, Kind, SIZE, SQUARES, Square, Squares};
use super::super::position::Position;

/// The kinds of men: pawn, knight, elephant, rook, king.
const KINDS: usize = 5;
/// The inputs of one king bucket: own and enemy men of each kind on each square.
pub const PER_BUCKET: usize = 2 * KINDS * SQUARES;
/// The king buckets of a view (see [`bucket`]).
pub const BUCKETS: usize = 4;
/// The views a side can have: each bucket, mirrored or not.
pub const VIEWS: usize = 2 * BUCKETS;
/// Every input of one view.
pub const INPUTS: usize = BUCKETS * PER_BUCKET;
/// The most inputs active at once: every man on the board (31 a side at most).
pub const MAX_ACTIVE: usize = 64;

/// The bucket of a king on `file`, `rank` of a side's view (the file on the left half,
/// a to f, after mirroring): at home (the first three ranks) in the centre (files d to
/// f) or on a wing (a to c), stepped out (ranks 4 and 5), or in the field.
const fn bucket(file: usize, rank: usize) -> usize {
    match rank {
        0..=2 if file >= 3 => 0,
        0..=2 => 1,
        3..=4 => 2,
        _ => 3,
    }
}

/// How one side sees a position: which way the board is turned and mirrored, and its
/// king's bucket. It changes only when that side's king moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct View {
    side: Color,
    mirrored: bool,
    bucket: u8,
}

impl View {
    /// `side`'s view of `position`.
    pub fn of(position: &Position, side: Color) -> View {
        View::with_king(side, position.king(side))
    }

    /// `side`'s view when its king stands on `king`.
    pub fn with_king(side: Color, king: Square) -> View {
        let turned = turn(king.index(), side);
        let (file, rank) = (turned % SIZE, turned / SIZE);
        let mirrored = file > SIZE / 2;
        let file = if mirrored { SIZE - 1 - file } else { file };
        View {
            side,
            mirrored,
            bucket: bucket(file, rank) as u8,
        }
    }

    /// The side whose view this is.
    pub fn side(self) -> Color {
        self.side
    }

    /// Which of a side's [`VIEWS`] views this is (its bucket, mirrored or not).
    pub fn slot(self) -> usize {
        2 * self.bucket as usize + usize::from(self.mirrored)
    }

    /// The input of a man of `color` and `kind` on `square`, in this view.
    #[inline]
    pub fn input(self, color: Color, kind: Kind, square: Square) -> usize {
        let mut at = turn(square.index(), self.side);
        if self.mirrored {
            at = at - at % SIZE + (SIZE - 1 - at % SIZE);
        }
        let enemy = usize::from(color != self.side);
        self.bucket as usize * PER_BUCKET + (enemy * KINDS + kind.index()) * SQUARES + at
    }

    /// Every input active in `position` for this view, in no particular order.
    pub fn inputs(self, position: &Position, out: &mut Vec<u16>) {
        out.clear();
        self.append_inputs(position, out);
    }

    /// [`View::inputs`], appended to `out`.
    pub fn append_inputs(self, position: &Position, out: &mut Vec<u16>) {
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for square in Squares::new(position.men(color, kind)) {
                    out.push(self.input(color, kind, square) as u16);
                }
            }
        }
    }
}

/// Square index `index` as `side` sees it: Black's view is the board turned half round.
#[inline]
fn turn(index: usize, side: Color) -> usize {
    match side {
        Color::White => index,
        Color::Black => SQUARES - 1 - index,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn the_start_looks_the_same_to_both_sides() {
        // Black's setup is White's turned half round, so each side sees the same men.
        let start = Position::start();
        let mut white = Vec::new();
        let mut black = Vec::new();
        View::of(&start, Color::White).inputs(&start, &mut white);
        View::of(&start, Color::Black).inputs(&start, &mut black);
        white.sort();
        black.sort();
        assert_eq!(white, black);
        assert_eq!(white.len(), 62);
    }

    #[test]
    fn a_king_right_of_the_f_file_mirrors_the_view() {
        let left = Position::from_fen("11/11/11/11/11/11/11/11/11/11/K9k w - - 0 1").unwrap();
        let right = Position::from_fen("11/11/11/11/11/11/11/11/11/11/k9K w - - 0 1").unwrap();
        let mut a = Vec::new();
        let mut b = Vec::new();
        View::of(&left, Color::White).inputs(&left, &mut a);
        View::of(&right, Color::White).inputs(&right, &mut b);
        a.sort();
        b.sort();
        assert_eq!(a, b, "the mirrored position has the same inputs");
        // The king on the f-file is not mirrored: e1 and g1 differ.
        let e = Square::new(4, 0);
        let g = Square::new(6, 0);
        let view = View::with_king(Color::White, Square::new(5, 0));
        assert_ne!(
            view.input(Color::White, Kind::Rook, e),
            view.input(Color::White, Kind::Rook, g)
        );
    }

    #[test]
    fn every_input_is_in_range_and_distinct() {
        let start = Position::start();
        for side in [Color::White, Color::Black] {
            let mut inputs = Vec::new();
            View::of(&start, side).inputs(&start, &mut inputs);
            assert!(inputs.iter().all(|&i| (i as usize) < INPUTS));
            let mut unique = inputs.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), inputs.len());
        }
    }

    #[test]
    fn the_king_picks_the_bucket() {
        let home = View::with_king(Color::White, Square::new(5, 2));
        let wing = View::with_king(Color::White, Square::new(1, 0));
        let out = View::with_king(Color::White, Square::new(5, 4));
        let field = View::with_king(Color::White, Square::new(5, 7));
        let buckets: Vec<u8> = [home, wing, out, field].iter().map(|v| v.bucket).collect();
        assert_eq!(buckets, vec![0, 1, 2, 3]);
        // Black's king on f9 is at home, as White's on f3.
        assert_eq!(View::with_king(Color::Black, Square::new(5, 8)).bucket, 0);
    }
}
