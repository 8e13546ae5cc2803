//! Squares, pieces and 121-square bitboards of the 11x11 Sena-Mukha board.
//!
//! Square index = rank * 11 + file, so a1 = 0, k1 = 10, a2 = 11, k11 = 120, and a
//! `u128` holds one bit per square with 7 bits to spare. The spare bits are kept
//! zero: every shift toward higher ranks is masked with [`FULL`].

/// Board width and height.
pub const SIZE: usize = 11;
/// Number of squares.
pub const SQUARES: usize = SIZE * SIZE;

/// A set of squares.
pub type Bitboard = u128;

/// All 121 squares.
pub const FULL: Bitboard = (1u128 << SQUARES) - 1;

/// The squares of file `f` (0 = a).
pub const fn file_mask(f: usize) -> Bitboard {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1u128 << (r * SIZE + f);
        r += 1;
    }
    m
}

/// The squares of rank `r` (0 = rank 1).
pub const fn rank_mask(r: usize) -> Bitboard {
    ((1u128 << SIZE) - 1) << (r * SIZE)
}

/// Every file's squares, for use at run time (`file_mask` loops).
pub static FILES: [Bitboard; SIZE] = {
    let mut table = [0u128; SIZE];
    let mut f = 0;
    while f < SIZE {
        table[f] = file_mask(f);
        f += 1;
    }
    table
};

pub const FILE_A: Bitboard = file_mask(0);
pub const FILE_K: Bitboard = file_mask(SIZE - 1);
pub const NOT_FILE_A: Bitboard = FULL & !FILE_A;
pub const NOT_FILE_K: Bitboard = FULL & !FILE_K;

/// A square, 0..121 (see [`crate::square_board::Square`]).
pub type Square = crate::square_board::Square<SIZE>;

impl Square {
    pub const fn bit(self) -> Bitboard {
        1u128 << self.0
    }
}

/// Iterates over the squares of a bitboard, lowest first.
pub type Squares = crate::square_board::Squares<Bitboard, SIZE>;

/// The two sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// The five kinds of men.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 0,
    Knight = 1,
    Elephant = 2,
    Rook = 3,
    King = 4,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Elephant,
        Kind::Rook,
        Kind::King,
    ];
    /// What a pawn may promote to.
    pub const PROMOTIONS: [Kind; 3] = [Kind::Knight, Kind::Elephant, Kind::Rook];

    pub const fn index(self) -> usize {
        self as usize
    }
    /// Upper-case letter as in FEN for White and in move text.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Elephant => 'E',
            Kind::Rook => 'R',
            Kind::King => 'K',
        }
    }
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Elephant => "elephant",
            Kind::Rook => "rook",
            Kind::King => "king",
        }
    }
}

/// A man of one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    /// FEN letter: upper case for White, lower case for Black.
    pub fn fen_letter(self) -> char {
        match self.color {
            Color::White => self.kind.letter(),
            Color::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }
    /// Index 0..10 used by hashing: colour-major.
    pub const fn index(self) -> usize {
        self.color as usize * 5 + self.kind as usize
    }
}

/// Shifts a set one rank up (toward rank 11), dropping what leaves the board.
#[inline(always)]
pub const fn north(b: Bitboard) -> Bitboard {
    (b << SIZE) & FULL
}
/// Shifts a set one rank down.
#[inline(always)]
pub const fn south(b: Bitboard) -> Bitboard {
    b >> SIZE
}
/// Shifts a set one file right (toward k), dropping file-k squares.
#[inline(always)]
pub const fn east(b: Bitboard) -> Bitboard {
    (b & NOT_FILE_K) << 1
}
/// Shifts a set one file left (toward a), dropping file-a squares.
#[inline(always)]
pub const fn west(b: Bitboard) -> Bitboard {
    (b & NOT_FILE_A) >> 1
}
