//! What the games on a square board of lettered files and numbered ranks share
//! (Sena-Mukha's 11x11, Mentula's 8x8): squares and their names, iteration over a
//! bitboard's squares, the board field of FEN-like position strings and text diagrams.
//!
//! The board field: ranks from the top down separated by `/`, runs of empty squares as
//! numbers (two digits on boards wider than 9), one letter per man.

use std::fmt;

use nom::{
    IResult, Parser,
    branch::alt,
    character::complete::{char, digit1, satisfy},
    combinator::map,
    multi::{many0, separated_list1},
};

use crate::game::{PositionError, quoted};

/// A square of a `SIZE` x `SIZE` board: index = rank * SIZE + file, so a1 = 0. Each
/// game names its own `Square<SIZE>` and adds what only it needs (its bitboard's bit,
/// Mentula's square colours) in its own folder.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square<const SIZE: usize>(pub u8);

impl<const SIZE: usize> Square<SIZE> {
    /// The square of index `index` (< SIZE * SIZE).
    #[inline(always)]
    pub const fn at(index: u8) -> Self {
        Square(index)
    }
    #[inline(always)]
    pub const fn new(file: usize, rank: usize) -> Self {
        Square((rank * SIZE + file) as u8)
    }
    /// File index, 0 = a.
    #[inline(always)]
    pub const fn file(self) -> usize {
        self.0 as usize % SIZE
    }
    /// Rank index, 0 = rank 1.
    #[inline(always)]
    pub const fn rank(self) -> usize {
        self.0 as usize / SIZE
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square whose name is `file` letter and 1-based `rank`, if on the board.
    pub fn from_coords(file: char, rank: u32) -> Option<Self> {
        let f = (file as u32).wrapping_sub('a' as u32) as usize;
        let r = (rank as usize).wrapping_sub(1);
        (f < SIZE && r < SIZE).then(|| Square::new(f, r))
    }
}

impl<const SIZE: usize> Square<SIZE> {
    /// Writes the square's name (`e4`, `k11`) at the end of `out`, as `Display` does,
    /// without the formatting machinery (move lists write thousands).
    pub fn push_name(&self, out: &mut String) {
        out.push((b'a' + self.file() as u8) as char);
        let rank = self.rank() + 1;
        if rank >= 10 {
            out.push((b'0' + (rank / 10) as u8) as char);
        }
        out.push((b'0' + (rank % 10) as u8) as char);
    }
}

impl<const SIZE: usize> fmt::Display for Square<SIZE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut name = String::with_capacity(3);
        self.push_name(&mut name);
        f.write_str(&name)
    }
}

impl<const SIZE: usize> fmt::Debug for Square<SIZE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A bitboard: one bit per square, bit `i` for the square of index `i`.
pub trait Bits: Copy {
    /// Takes the lowest set bit off, returning its index; `None` when none is set.
    fn pop_lowest(&mut self) -> Option<u8>;
}

macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            #[inline(always)]
            fn pop_lowest(&mut self) -> Option<u8> {
                if *self == 0 {
                    return None;
                }
                let index = self.trailing_zeros() as u8;
                *self &= *self - 1;
                Some(index)
            }
        }
    )*};
}
bits!(u64, u128);

/// Iterates over the squares of a bitboard, lowest first.
pub struct Squares<B, const SIZE: usize>(pub B);

impl<B, const SIZE: usize> Squares<B, SIZE> {
    #[inline(always)]
    pub const fn new(bits: B) -> Self {
        Squares(bits)
    }
}

impl<B: Bits, const SIZE: usize> Iterator for Squares<B, SIZE> {
    type Item = Square<SIZE>;
    #[inline(always)]
    fn next(&mut self) -> Option<Square<SIZE>> {
        self.0.pop_lowest().map(Square)
    }
}

/// A text diagram of a `size` x `size` board: ranks from the top, numbered on the
/// left; `letter_at(file, rank)` the man on a square (`.` for none); file letters
/// underneath, then `legend`.
pub fn diagram(
    size: usize,
    letter_at: impl Fn(usize, usize) -> Option<char>,
    legend: &str,
) -> String {
    let width = size.to_string().len();
    let mut out = String::new();
    for rank in (0..size).rev() {
        out.push_str(&format!("{:>width$} ", rank + 1));
        for file in 0..size {
            out.push(' ');
            out.push(letter_at(file, rank).unwrap_or('.'));
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(width + 1));
    for file in 0..size {
        out.push(' ');
        out.push((b'a' + file as u8) as char);
    }
    out.push('\n');
    out.push_str(legend);
    out
}

/// The side of a square in an SVG diagram, in user units.
pub const SVG_CELL: usize = 40;
/// The margin around an SVG board, for the coordinates.
const SVG_MARGIN: usize = 24;

/// What an SVG diagram of a square board draws: each square's class and fill, the man
/// on it (an SVG fragment drawn in a cell of [`SVG_CELL`] units with its origin at the
/// cell's top left), squares marked with a class (the last move, a king in check) and
/// anything more over the board (in board units: see [`svg_centre`]).
pub struct SvgBoard<'a> {
    /// The game, as the root element's class.
    pub game: &'a str,
    pub size: usize,
    pub square: &'a dyn Fn(usize, usize) -> (&'static str, &'static str),
    /// The man on a square: its classes and its drawing.
    pub man: &'a dyn Fn(usize, usize) -> Option<(String, String)>,
    /// Marked squares (file, rank) and the mark's class and colour.
    pub marks: Vec<(usize, usize, &'static str, &'static str)>,
    /// Drawn over the squares and their marks, under the men (a move's path).
    pub underlay: String,
    /// Drawn over everything.
    pub overlay: String,
}

/// The centre of square (file, rank) in an SVG diagram of a `size` board.
pub fn svg_centre(size: usize, file: usize, rank: usize) -> (usize, usize) {
    (
        SVG_MARGIN + file * SVG_CELL + SVG_CELL / 2,
        SVG_MARGIN + (size - 1 - rank) * SVG_CELL + SVG_CELL / 2,
    )
}

/// The name of square (file, rank): `a1`.
fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl SvgBoard<'_> {
    /// The SVG document: one line per element and no blank line, so that the
    /// protocol can send it as a reply. Squares are `rect`s with the id `sq-<name>`
    /// and the classes `square` and their own; men are groups of class `man` with a
    /// `data-square`; marks are `rect`s of class `mark` and the mark's own.
    pub fn render(&self) -> String {
        let size = self.size;
        let side = 2 * SVG_MARGIN + size * SVG_CELL;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" width=\"{side}\" height=\"{side}\" class=\"board {}\">\n",
            self.game
        );
        out.push_str(&format!(
            "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"{side}\" height=\"{side}\" fill=\"#5b4636\"/>\n"
        ));
        let corner = |file: usize, rank: usize| {
            (
                SVG_MARGIN + file * SVG_CELL,
                SVG_MARGIN + (size - 1 - rank) * SVG_CELL,
            )
        };
        for rank in (0..size).rev() {
            for file in 0..size {
                let (x, y) = corner(file, rank);
                let (class, fill) = (self.square)(file, rank);
                out.push_str(&format!(
                    "<rect id=\"sq-{}\" class=\"square {class}\" x=\"{x}\" y=\"{y}\" width=\"{SVG_CELL}\" height=\"{SVG_CELL}\" fill=\"{fill}\"/>\n",
                    square_name(file, rank)
                ));
            }
        }
        for &(file, rank, class, colour) in &self.marks {
            let (x, y) = corner(file, rank);
            out.push_str(&format!(
                "<rect class=\"mark {class}\" data-square=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{SVG_CELL}\" height=\"{SVG_CELL}\" fill=\"{colour}\" fill-opacity=\"0.45\"/>\n",
                square_name(file, rank)
            ));
        }
        out.push_str(&self.underlay);
        for i in 0..size {
            let letter = (b'a' + i as u8) as char;
            let (x, _) = svg_centre(size, i, 0);
            let (_, y) = svg_centre(size, 0, i);
            out.push_str(&format!(
                "<text class=\"coordinate\" x=\"{x}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\" fill=\"#f4ead8\">{letter}</text>\n",
                side - 7
            ));
            out.push_str(&format!(
                "<text class=\"coordinate\" x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\" fill=\"#f4ead8\">{}</text>\n",
                SVG_MARGIN / 2,
                y + 5,
                i + 1
            ));
        }
        for rank in (0..size).rev() {
            for file in 0..size {
                if let Some((class, drawing)) = (self.man)(file, rank) {
                    let (x, y) = corner(file, rank);
                    out.push_str(&format!(
                        "<g class=\"man {class}\" data-square=\"{}\" transform=\"translate({x} {y})\">{drawing}</g>\n",
                        square_name(file, rank)
                    ));
                }
            }
        }
        out.push_str(&self.overlay);
        out.push_str("</svg>");
        out
    }
}

/// One item of a rank: a run of empty squares or a letter.
#[derive(Clone, Copy)]
enum RankItem<'a> {
    Empty(usize),
    /// A run written with a leading zero (`03`), refused: FEN has no such runs.
    Padded(usize),
    /// A run beyond any board (more digits than a count holds), refused as written.
    Huge(&'a str),
    Letter(char),
}

fn rank_item(input: &str) -> IResult<&str, RankItem<'_>> {
    alt((
        map(digit1, |d: &str| match d.parse::<usize>() {
            Ok(n) if has_leading_zero(d) => RankItem::Padded(n),
            Ok(n) => RankItem::Empty(n),
            Err(_) => RankItem::Huge(d),
        }),
        map(satisfy(|c| c.is_ascii_alphabetic()), RankItem::Letter),
    ))
    .parse(input)
}

/// A man read from the board field: file and rank (0-based, rank 0 at the bottom) and
/// its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub file: usize,
    pub rank: usize,
    pub letter: char,
}

/// Reads a board field of `ranks` ranks of `files` squares; `known` says which letters
/// stand for men. The error names the rank and what was wrong with it.
pub fn read_board(
    field: &str,
    ranks: usize,
    files: usize,
    known: impl Fn(char) -> bool,
) -> Result<Vec<Placed>, PositionError> {
    let parsed: IResult<&str, Vec<Vec<RankItem>>> =
        separated_list1(char('/'), many0(rank_item)).parse(field);
    let (rest, rows) = parsed.map_err(|_| PositionError::syntax("unreadable board field"))?;
    if let Some(c) = rest.chars().next() {
        return Err(PositionError::syntax(format!(
            "unexpected character {c:?} in the board field"
        )));
    }
    if rows.len() != ranks {
        return Err(PositionError::syntax(format!(
            "the board has {} ranks, expected {ranks}",
            rows.len()
        )));
    }
    let mut men = Vec::new();
    for (i, items) in rows.iter().enumerate() {
        let rank = ranks - 1 - i;
        let mut file: usize = 0;
        for &item in items {
            match item {
                RankItem::Empty(0) => {
                    return Err(PositionError::syntax(format!(
                        "rank {} has an empty run of 0",
                        rank + 1
                    )));
                }
                RankItem::Padded(n) => {
                    return Err(PositionError::syntax(format!(
                        "rank {} has an empty run written with a leading zero (for {n})",
                        rank + 1
                    )));
                }
                RankItem::Huge(digits) => {
                    return Err(PositionError::syntax(format!(
                        "rank {} has a run of {} empty squares, expected {files} files",
                        rank + 1,
                        quoted(digits)
                    )));
                }
                // Saturating: an absurd run must give a width error, not wrap around.
                RankItem::Empty(n) => file = file.saturating_add(n),
                RankItem::Letter(letter) => {
                    if !known(letter) {
                        return Err(PositionError::syntax(format!(
                            "unknown piece letter {letter:?} on rank {}",
                            rank + 1
                        )));
                    }
                    if file < files {
                        men.push(Placed { file, rank, letter });
                    }
                    file = file.saturating_add(1);
                }
            }
        }
        if file != files {
            return Err(PositionError::syntax(format!(
                "rank {} has {file} files, expected {files}",
                rank + 1
            )));
        }
    }
    Ok(men)
}

/// Writes a board field; `letter_at(file, rank)` gives the man on a square.
pub fn write_board(
    ranks: usize,
    files: usize,
    letter_at: impl Fn(usize, usize) -> Option<char>,
) -> String {
    let mut out = String::with_capacity(ranks * (files + 1));
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..files {
            match letter_at(file, rank) {
                None => empty += 1,
                Some(letter) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(letter);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Whether a number is written with a leading zero (`06`), which every position
/// format refuses: a number has one spelling.
pub fn has_leading_zero(digits: &str) -> bool {
    digits.len() > 1 && digits.starts_with('0')
}

/// The largest move counter accepted: far beyond any real game, small enough that
/// counting on from it can never overflow.
pub const MAX_COUNTER: u32 = 1_000_000;

/// Reads a move counter field (`what` names it in the error).
pub fn read_counter(field: &str, what: &str) -> Result<u32, PositionError> {
    let parsed: IResult<&str, &str> = digit1(field);
    match parsed {
        Ok(("", digits)) if has_leading_zero(digits) => Err(PositionError::syntax(format!(
            "{what} is written with a leading zero: {}",
            quoted(digits)
        ))),
        Ok(("", digits)) => match digits.parse::<u32>() {
            Ok(n) if n <= MAX_COUNTER => Ok(n),
            _ => Err(PositionError::syntax(format!(
                "{what} {} is out of range (at most {MAX_COUNTER})",
                quoted(field)
            ))),
        },
        _ => Err(PositionError::syntax(format!(
            "{what} must be a number, not {:?}",
            quoted(field)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagram_numbers_ranks_right_aligned_and_letters_files() {
        let board = diagram(
            10,
            |file, rank| (file == rank).then_some('x'),
            "x: the diagonal",
        );
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines.len(), 12);
        assert_eq!(lines[0], "10  . . . . . . . . . x");
        assert_eq!(lines[9], " 1  x . . . . . . . . .");
        assert_eq!(lines[10], "    a b c d e f g h i j");
        assert_eq!(lines[11], "x: the diagonal");
    }

    #[test]
    fn squares_are_named_and_read_back_and_iterated_lowest_first() {
        type S = Square<11>;
        assert_eq!(S::new(10, 10).to_string(), "k11");
        assert_eq!(S::from_coords('k', 11), Some(S::new(10, 10)));
        assert_eq!(S::from_coords('l', 1), None);
        assert_eq!(S::from_coords('a', 0), None);
        let found: Vec<String> = Squares::<u128, 11>::new(1 | 1 << 120)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(found, ["a1", "k11"]);
    }
}
