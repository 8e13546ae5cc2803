//! Squares, colours and players of the 8x8 Mentula board.
//!
//! Square index = rank * 8 + file (a1 = 0, h8 = 63); a `u64` holds one bit per square.
//! A square's colour is the pair (file parity, rank parity), so there are four colours
//! and a jump never changes a piece's colour.

use crate::game::{Seat, seat_names};

/// Board width and height.
pub const SIZE: usize = 8;
/// Number of squares.
pub const SQUARES: usize = SIZE * SIZE;
/// Number of players and of square colours.
pub const PLAYERS: usize = 4;

/// A set of squares.
pub type Bitboard = u64;

/// A square, 0..64 (see [`crate::square_board::Square`]).
pub type Square = crate::square_board::Square<SIZE>;

impl Square {
    pub const fn bit(self) -> Bitboard {
        1u64 << self.0
    }
    pub const fn colour(self) -> usize {
        (self.file() & 1) | (self.rank() & 1) << 1
    }
    pub const fn index_in_colour(self) -> usize {
        (self.file() >> 1) | (self.rank() >> 1) << 2
    }
    pub const fn of_colour(colour: usize, index: usize) -> Square {
        Square::new(
            (index & 3) << 1 | (colour & 1),
            (index >> 2) << 1 | colour >> 1,
        )
    }
}

/// Iterates over the squares of a bitboard, lowest first.
pub type Squares = crate::square_board::Squares<Bitboard, SIZE>;

/// The players in turn order, each with the colour its men are drawn in.
pub const SEATS: [Seat; PLAYERS] = [
    Seat {
        name: "white",
        colour: "#ffffff",
    },
    Seat {
        name: "yellow",
        colour: "#f2c919",
    },
    Seat {
        name: "red",
        colour: "#d62828",
    },
    Seat {
        name: "magenta",
        colour: "#b0198a",
    },
];
/// Player names in turn order, as the protocol and records print them.
pub const NAMES: [&str; PLAYERS] = seat_names(&SEATS);
/// The seed's capitalised names, used by the list form of positions.
pub const TITLES: [&str; PLAYERS] = ["White", "Yellow", "Red", "Magenta"];
/// Board letters of the players' pieces.
pub const LETTERS: [char; PLAYERS] = ['W', 'Y', 'R', 'M'];
/// Letters of the player to move.
pub const TO_MOVE_LETTERS: [char; PLAYERS] = ['w', 'y', 'r', 'm'];
