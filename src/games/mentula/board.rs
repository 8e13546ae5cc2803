//! Squares, colours and players of the 8x8 Mentula board.
//!
//! Square index = rank * 8 + file (a1 = 0, h8 = 63); a `u64` holds one bit per square.
//! A square's colour is the pair (file parity, rank parity), so there are four colours
//! and a jump never changes a piece's colour.

use std::fmt;

/// Board width and height.
pub const SIZE: usize = 8;
/// Number of squares.
pub const SQUARES: usize = SIZE * SIZE;
/// Number of players and of square colours.
pub const PLAYERS: usize = 4;

/// A set of squares.
pub type Bitboard = u64;

/// A square, 0..64.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    pub const fn new(file: usize, rank: usize) -> Square {
        Square((rank * SIZE + file) as u8)
    }
    pub const fn file(self) -> usize {
        self.0 as usize % SIZE
    }
    pub const fn rank(self) -> usize {
        self.0 as usize / SIZE
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn bit(self) -> Bitboard {
        1u64 << self.0
    }
    /// The colour, 0..4: file parity plus twice the rank parity.
    pub const fn colour(self) -> usize {
        (self.file() & 1) | (self.rank() & 1) << 1
    }
    /// The position among the 16 squares of its colour, 0..16.
    pub const fn index_in_colour(self) -> usize {
        (self.file() >> 1) | (self.rank() >> 1) << 2
    }
    /// The square of `colour` at position `index` among that colour's squares.
    pub const fn of_colour(colour: usize, index: usize) -> Square {
        Square::new(
            (index & 3) << 1 | (colour & 1),
            (index >> 2) << 1 | colour >> 1,
        )
    }
    /// The square whose name is `file` letter and 1-based `rank`, if on the board.
    pub fn from_coords(file: char, rank: u32) -> Option<Square> {
        let f = (file as u32).wrapping_sub('a' as u32) as usize;
        let r = (rank as usize).wrapping_sub(1);
        (f < SIZE && r < SIZE).then(|| Square::new(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Iterates over the squares of a bitboard, lowest first.
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(sq))
    }
}

/// Player names in turn order, as the protocol and records print them.
pub const NAMES: [&str; PLAYERS] = ["white", "yellow", "red", "magenta"];
/// The seed's capitalised names, used by the list form of positions.
pub const TITLES: [&str; PLAYERS] = ["White", "Yellow", "Red", "Magenta"];
/// Board letters of the players' pieces.
pub const LETTERS: [char; PLAYERS] = ['W', 'Y', 'R', 'M'];
/// Letters of the player to move.
pub const TO_MOVE_LETTERS: [char; PLAYERS] = ['w', 'y', 'r', 'm'];
