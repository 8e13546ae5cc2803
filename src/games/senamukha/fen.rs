//! FEN for the 11x11 board: ranks 11 down to 1 separated by `/`, empty runs as
//! numbers up to 11 (so two digits occur), letters K E R N P (upper case White),
//! then the side to move, and optionally `- -` (no castling, no en passant in this
//! game) and the two move counters.
//!
//! Accepted forms: `<board> <side>`, `<board> <side> - -`,
//! `<board> <side> - - <halfmove clock> <fullmove number>`. Printed form: all six fields.

use nom::{
    IResult, Parser,
    branch::alt,
    character::complete::{char, digit1, satisfy},
    combinator::{map, map_res},
    multi::{many0, separated_list1},
};

use super::board::{Color, Kind, Piece, SIZE, Square};
use super::position::Position;
use crate::game::PositionError;

/// The start position.
pub const START: &str = "3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 w - - 0 1";

/// One item of a rank: a run of empty squares or a letter.
#[derive(Clone, Copy)]
enum RankItem {
    Empty(usize),
    Letter(char),
}

fn rank_item(input: &str) -> IResult<&str, RankItem> {
    alt((
        map_res(digit1, |d: &str| d.parse::<usize>().map(RankItem::Empty)),
        map(satisfy(|c| c.is_ascii_alphabetic()), RankItem::Letter),
    ))
    .parse(input)
}

fn placement(input: &str) -> IResult<&str, Vec<Vec<RankItem>>> {
    separated_list1(char('/'), many0(rank_item)).parse(input)
}

fn error(text: impl Into<String>) -> PositionError {
    PositionError(text.into())
}

/// The largest move counter accepted: far beyond any real game, small enough that
/// counting on from it can never overflow.
const MAX_COUNTER: u32 = 1_000_000;

fn parse_counter(field: &str, what: &str) -> Result<u32, PositionError> {
    let parsed: IResult<&str, &str> = digit1(field);
    match parsed {
        Ok(("", digits)) => match digits.parse::<u32>() {
            Ok(n) if n <= MAX_COUNTER => Ok(n),
            _ => Err(error(format!(
                "{what} {field} is out of range (at most {MAX_COUNTER})"
            ))),
        },
        _ => Err(error(format!("{what} must be a number, not {field:?}"))),
    }
}

/// Reads a FEN and checks that the position is one the game can reach or set up.
pub fn parse(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(error("empty position"));
    }
    if !matches!(fields.len(), 2 | 4 | 6) {
        return Err(error(format!(
            "a position has 2, 4 or 6 fields (board, side, castling, en passant, halfmove clock, fullmove number), not {}",
            fields.len()
        )));
    }
    let mut position = Position::empty();

    let (rest, ranks) = placement(fields[0]).map_err(|_| error("unreadable board field"))?;
    if let Some(c) = rest.chars().next() {
        return Err(error(format!(
            "unexpected character {c:?} in the board field"
        )));
    }
    if ranks.len() != SIZE {
        return Err(error(format!(
            "the board has {} ranks, expected {SIZE}",
            ranks.len()
        )));
    }
    let mut kings = [0; 2];
    for (i, items) in ranks.iter().enumerate() {
        let rank = SIZE - 1 - i;
        let mut file = 0;
        for &item in items {
            match item {
                RankItem::Empty(0) => {
                    return Err(error(format!("rank {} has an empty run of 0", rank + 1)));
                }
                RankItem::Empty(n) => file += n,
                RankItem::Letter(c) => {
                    let kind = Kind::from_letter(c).ok_or_else(|| {
                        error(format!("unknown piece letter {c:?} on rank {}", rank + 1))
                    })?;
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    if file < SIZE {
                        let sq = Square::new(file, rank);
                        if kind == Kind::Pawn {
                            let last = if color == Color::White { SIZE - 1 } else { 0 };
                            if rank == last {
                                return Err(error(format!(
                                    "{} pawn on {sq}, its last rank",
                                    color.name()
                                )));
                            }
                        }
                        if kind == Kind::King {
                            kings[color.index()] += 1;
                        }
                        position.put(sq, Piece { color, kind });
                    }
                    file += 1;
                }
            }
        }
        if file != SIZE {
            return Err(error(format!(
                "rank {} has {file} files, expected {SIZE}",
                rank + 1
            )));
        }
    }
    for color in [Color::White, Color::Black] {
        match kings[color.index()] {
            1 => {}
            0 => return Err(error(format!("{} has no king", color.name()))),
            n => return Err(error(format!("{} has {n} kings", color.name()))),
        }
    }

    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(error(format!("side to move must be w or b, not {other:?}")));
        }
    };
    position.set_side(side);
    if fields.len() >= 4 {
        if fields[2] != "-" {
            return Err(error(format!(
                "castling field must be -, not {:?} (there is no castling)",
                fields[2]
            )));
        }
        if fields[3] != "-" {
            return Err(error(format!(
                "en passant field must be -, not {:?} (there is no en passant)",
                fields[3]
            )));
        }
    }
    if fields.len() == 6 {
        let halfmove = parse_counter(fields[4], "halfmove clock")?;
        let fullmove = parse_counter(fields[5], "fullmove number")?;
        if fullmove == 0 {
            return Err(error("fullmove number must be at least 1"));
        }
        position.set_counters(halfmove, fullmove);
    }
    position.finish_setup();

    if position.attackers(position.king(side.other()), side) != 0 {
        return Err(error(format!(
            "{} is in check but it is {}'s turn",
            side.other().name(),
            side.name()
        )));
    }
    Ok(position)
}

/// Prints a position as a six-field FEN.
pub fn format(position: &Position) -> String {
    let mut out = String::with_capacity(96);
    for rank in (0..SIZE).rev() {
        let mut empty = 0;
        for file in 0..SIZE {
            match position.piece_at(Square::new(file, rank)) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece.fen_letter());
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
    let side = match position.side_to_move() {
        Color::White => 'w',
        Color::Black => 'b',
    };
    out.push_str(&format!(
        " {side} - - {} {}",
        position.halfmove_clock(),
        position.fullmove_number()
    ));
    out
}
