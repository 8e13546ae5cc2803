//! Mangala II positions and moves as text.
//!
//! Position: `A,B,C,D,E,F/a,b,c,d,e,f <S|N> <captured by South> <captured by North>`,
//! South's pits from South's left, then North's from North's left; the start is
//! `6,6,6,6,6,6/6,6,6,6,6,6 S 0 0`.
//!
//! Moves: the letter of the pit sown (`A`..`F` for South, `a`..`f` for North), or its
//! number `1`..`6` counted from the mover's left.

use nom::{
    IResult, Parser,
    bytes::complete::take_while1,
    character::complete::{char, one_of},
    combinator::all_consuming,
    multi::separated_list1,
    sequence::separated_pair,
};

use super::position::{COUNTERS, Move, NORTH, PITS, Position, ROW, SOUTH, row};
use crate::game::{MoveError, PositionError, quoted};
use crate::square_board::has_leading_zero;

/// The start position.
pub const START: &str = "6,6,6,6,6,6/6,6,6,6,6,6 S 0 0";

/// The name of a pit: `A`..`F`, `a`..`f`.
pub fn pit_letter(pit: usize) -> char {
    if pit < ROW {
        (b'A' + pit as u8) as char
    } else {
        (b'a' + (pit - ROW) as u8) as char
    }
}

/// The pit named by a letter.
pub fn pit_letter_index(letter: char) -> Option<usize> {
    match letter {
        'A'..='F' => Some(letter as usize - 'A' as usize),
        'a'..='f' => Some(ROW + letter as usize - 'a' as usize),
        _ => None,
    }
}

type Rows<'a> = (Vec<&'a str>, Vec<&'a str>);

fn rows(input: &str) -> IResult<&str, Rows<'_>> {
    let row = || separated_list1(char(','), take_while1(|c: char| c != ',' && c != '/'));
    all_consuming(separated_pair(row(), char('/'), row())).parse(input)
}

fn number(text: &str, what: &str) -> Result<u32, PositionError> {
    if has_leading_zero(text) && text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::syntax(format!(
            "{what} is written with a leading zero: {}",
            quoted(text)
        )));
    }
    match text.parse::<u32>() {
        Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) && n <= COUNTERS => Ok(n),
        _ if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => {
            Err(PositionError::impossible(format!(
                "{what} holds {}, more than the {COUNTERS} counters of the game",
                quoted(text)
            )))
        }
        _ => Err(PositionError::syntax(format!(
            "{what} must be a number, not {:?}",
            quoted(text)
        ))),
    }
}

/// Reads a position.
pub fn parse(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::empty());
    }
    if fields.len() != 4 {
        return Err(PositionError::syntax(format!(
            "a position has 4 fields (pits, player to move, captured by South, captured by North), not {}",
            fields.len()
        )));
    }
    let (_, (south, north)) = rows(fields[0])
        .map_err(|_| PositionError::syntax("the pits must be written A,B,C,D,E,F/a,b,c,d,e,f"))?;
    let mut pits = [0u8; PITS];
    for (player, counts) in [(SOUTH, &south), (NORTH, &north)] {
        let name = ["south", "north"][player];
        if counts.len() != ROW {
            return Err(PositionError::syntax(format!(
                "{name}'s row has {} pits, expected {ROW}",
                counts.len()
            )));
        }
        for (i, text) in counts.iter().enumerate() {
            let pit = row(player).start + i;
            pits[pit] = number(text, &format!("pit {}", pit_letter(pit)))? as u8;
        }
    }
    let to_move = match fields[1] {
        "S" => SOUTH,
        "N" => NORTH,
        other => {
            return Err(PositionError::syntax(format!(
                "the player to move must be S or N, not {:?}",
                quoted(other)
            )));
        }
    };
    let south_captured = number(fields[2], "South's capture count")?;
    let north_captured = number(fields[3], "North's capture count")?;
    let on_board: u32 = pits.iter().map(|&c| c as u32).sum();
    if on_board + south_captured + north_captured != COUNTERS {
        return Err(PositionError::impossible(format!(
            "the pits hold {on_board} and the captures {}: {} counters, expected {COUNTERS}",
            south_captured + north_captured,
            on_board + south_captured + north_captured
        )));
    }
    let position =
        Position::from_parts(pits, [south_captured as u8, north_captured as u8], to_move);
    let other = 1 - to_move;
    if !position.can_move(to_move) && position.can_move(other) {
        let names = ["south", "north"];
        return Err(PositionError::impossible(format!(
            "{} is to move but its row is empty while {} can move",
            names[to_move], names[other]
        )));
    }
    Ok(position)
}

/// Prints a position.
pub fn format_position(position: &Position) -> String {
    let pits = position.pits();
    let row_text = |player: usize| {
        pits[row(player)]
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}/{} {} {} {}",
        row_text(SOUTH),
        row_text(NORTH),
        ["S", "N"][position.to_move()],
        position.captured(SOUTH),
        position.captured(NORTH)
    )
}

/// The move notations of Mangala II.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    /// The pit's letter: `A`..`F`, `a`..`f`.
    Letter,
    /// The pit's number from the mover's left: `1`..`6`.
    Number,
}

impl Position {
    /// Reads a move: a pit letter or a number from the mover's left.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        parse_move(self, text)
    }

    /// Prints a move (the position does not change how).
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        format_move(mv, notation)
    }
}

/// Reads a move: a pit letter or a number from the mover's left.
fn parse_move(position: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let mover = position.to_move();
    let names = ["south", "north"];
    let illegal = |why: String| MoveError::Illegal {
        text: text.to_string(),
        why,
    };
    let read: IResult<&str, char> = all_consuming(one_of("ABCDEFabcdef123456")).parse(text);
    let Ok((_, c)) = read else {
        return Err(MoveError::Syntax {
            text: text.to_string(),
            why: "a move is one pit letter (A-F, a-f) or number (1-6)".to_string(),
        });
    };
    let pit = match c.to_digit(10) {
        Some(n) => row(mover).start + n as usize - 1,
        None => pit_letter_index(c).expect("a pit letter"),
    };
    if !row(mover).contains(&pit) {
        let own = if mover == SOUTH { "A to F" } else { "a to f" };
        return Err(illegal(format!(
            "pit {} is {}'s; {} sows {own}",
            pit_letter(pit),
            names[1 - mover],
            names[mover]
        )));
    }
    if position.pits()[pit] == 0 {
        return Err(illegal(format!("pit {} is empty", pit_letter(pit))));
    }
    Ok(Move(pit as u8))
}

/// Prints a move.
fn format_move(mv: Move, notation: Notation) -> String {
    let pit = mv.0 as usize;
    match notation {
        Notation::Letter => pit_letter(pit).to_string(),
        Notation::Number => (pit % ROW + 1).to_string(),
    }
}
