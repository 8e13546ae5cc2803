//! FEN for the 11x11 board: ranks 11 down to 1 separated by `/`, empty runs as
//! numbers up to 11 (so two digits occur), letters K E R N P (upper case White),
//! then the side to move, and optionally `- -` (no castling, no en passant in this
//! game) and the two move counters.
//!
//! Accepted forms: `<board> <side>`, `<board> <side> - -`,
//! `<board> <side> - - <halfmove clock> <fullmove number>`. Printed form: all six fields.

use super::board::{Color, Kind, Piece, SIZE, Square};
use super::position::Position;
use crate::game::{PositionError, quoted};
use crate::square_board::{read_board, read_counter, write_board};

/// The start position.
pub const START: &str = "3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 w - - 0 1";

/// Reads a FEN and checks that the position is one the game can reach or set up.
pub fn parse(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::empty());
    }
    if !matches!(fields.len(), 2 | 4 | 6) {
        return Err(PositionError::syntax(format!(
            "a position has 2, 4 or 6 fields (board, side, castling, en passant, halfmove clock, fullmove number), not {}",
            fields.len()
        )));
    }
    let mut position = Position::empty();

    let men = read_board(fields[0], SIZE, SIZE, |c| Kind::from_letter(c).is_some())?;
    let mut kings = [0; 2];
    for man in men {
        let kind = Kind::from_letter(man.letter).expect("a known letter");
        let color = if man.letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let sq = Square::new(man.file, man.rank);
        let last = if color == Color::White { SIZE - 1 } else { 0 };
        if kind == Kind::Pawn && man.rank == last {
            return Err(PositionError::impossible(format!(
                "{} pawn on {sq}, its last rank",
                color.name()
            )));
        }
        if kind == Kind::King {
            kings[color.index()] += 1;
        }
        position.put(sq, Piece { color, kind });
    }
    for color in [Color::White, Color::Black] {
        match kings[color.index()] {
            1 => {}
            0 => {
                return Err(PositionError::impossible(format!(
                    "{} has no king",
                    color.name()
                )));
            }
            n => {
                return Err(PositionError::impossible(format!(
                    "{} has {n} kings",
                    color.name()
                )));
            }
        }
    }

    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(PositionError::syntax(format!(
                "the player to move must be w or b, not {:?}",
                quoted(other)
            )));
        }
    };
    position.set_side(side);
    if fields.len() >= 4 {
        if fields[2] != "-" {
            return Err(PositionError::syntax(format!(
                "castling field must be -, not {:?} (there is no castling)",
                quoted(fields[2])
            )));
        }
        if fields[3] != "-" {
            return Err(PositionError::syntax(format!(
                "en passant field must be -, not {:?} (there is no en passant)",
                quoted(fields[3])
            )));
        }
    }
    if fields.len() == 6 {
        let halfmove = read_counter(fields[4], "halfmove clock")?;
        let fullmove = read_counter(fields[5], "fullmove number")?;
        if fullmove == 0 {
            return Err(PositionError::syntax("fullmove number must be at least 1"));
        }
        position.set_counters(halfmove, fullmove);
    }
    position.finish_setup();

    if position.attackers(position.king(side.other()), side) != 0 {
        return Err(PositionError::impossible(format!(
            "{} is in check but it is {}'s turn",
            side.other().name(),
            side.name()
        )));
    }
    Ok(position)
}

/// Prints a position as a six-field FEN.
pub fn format(position: &Position) -> String {
    let mut out = write_board(SIZE, SIZE, |file, rank| {
        position
            .piece_at(Square::new(file, rank))
            .map(Piece::fen_letter)
    });
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
