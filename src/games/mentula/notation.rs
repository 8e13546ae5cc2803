//! Mentula move text.
//!
//! - full: `a1-b2-c3` (start, pivot, target), `g8-f6xe4` for a capture;
//! - short: the target alone, `c3` (one target names one move: the start is the
//!   mover's piece of the target's colour, the pivot the midpoint);
//! - compact: start and target, `a1c3`.
//!
//! In every notation a player who leaves the game (M11) is written `R` (resigned) or
//! `T` (out of time), the letters of chess.com's four-player records (PGN4).

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::tag,
    character::complete::{char, one_of, satisfy},
    combinator::{all_consuming, map_res, value},
};

use super::board::{NAMES, SIZE, Square};
use super::geometry::jump;
use super::position::{Leaving, Move, Position};
use crate::game::MoveError;

/// The move notations of Mentula.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    Full,
    Short,
    Compact,
}

/// A move as written.
#[derive(Clone, Copy, Debug)]
enum Written {
    Full {
        from: Square,
        pivot: Square,
        capture: bool,
        to: Square,
    },
    Compact {
        from: Square,
        to: Square,
    },
    Short {
        to: Square,
    },
    Leave(Leaving),
}

fn square(input: &str) -> IResult<&str, Square> {
    let (rest, file) = satisfy(|c| ('a'..='h').contains(&c)).parse(input)?;
    let (rest, rank) = map_res(satisfy(|c| c.is_ascii_digit()), |c| {
        let r = c.to_digit(10).unwrap_or(0) as usize;
        if (1..=SIZE).contains(&r) {
            Ok(r)
        } else {
            Err(())
        }
    })
    .parse(rest)?;
    Ok((rest, Square::new(file as usize - 'a' as usize, rank - 1)))
}

/// A square name alone, `a1`..`h8`.
pub(super) fn read_square(text: &str) -> Option<Square> {
    all_consuming(square).parse(text).ok().map(|(_, sq)| sq)
}

fn full(input: &str) -> IResult<&str, Written> {
    let (rest, (from, _, pivot, capture, to)) = (
        square,
        char('-'),
        square,
        alt((value(false, char('-')), value(true, one_of("x:")))),
        square,
    )
        .parse(input)?;
    Ok((
        rest,
        Written::Full {
            from,
            pivot,
            capture,
            to,
        },
    ))
}

fn compact(input: &str) -> IResult<&str, Written> {
    let (rest, (from, to)) = (square, square).parse(input)?;
    Ok((rest, Written::Compact { from, to }))
}

fn short(input: &str) -> IResult<&str, Written> {
    let (rest, to) = square(input)?;
    Ok((rest, Written::Short { to }))
}

/// How a leave is written, in every notation.
pub(super) const LEAVES: crate::game::Leaving = crate::game::Leaving {
    resign: "R",
    time: "T",
};

fn leave(input: &str) -> IResult<&str, Written> {
    alt((
        value(Written::Leave(Leaving::Resigned), tag(LEAVES.resign)),
        value(Written::Leave(Leaving::OutOfTime), tag(LEAVES.time)),
    ))
    .parse(input)
}

fn leave_text(why: Leaving) -> &'static str {
    match why {
        Leaving::Resigned => LEAVES.resign,
        Leaving::OutOfTime => LEAVES.time,
    }
}

fn read(text: &str) -> Option<Written> {
    alt((
        all_consuming(leave),
        all_consuming(full),
        all_consuming(compact),
        all_consuming(short),
    ))
    .parse(text)
    .ok()
    .map(|(_, w)| w)
}

impl Position {
    /// Reads a move in any notation and returns the legal move it names.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let written = read(text).ok_or_else(|| MoveError::Syntax {
            text: text.to_string(),
            why: "not a move in full (a1-b2-c3), short (c3) or compact (a1c3) form, nor R or T (the player leaves)".to_string(),
        })?;
        let illegal = |why: String| MoveError::Illegal {
            text: text.to_string(),
            why,
        };
        let player = self.to_move();
        let name = NAMES[player];
        let own = self.men(player);
        let mut legal = Vec::with_capacity(12);
        self.legal_moves(&mut legal);
        let to = match written {
            Written::Full { to, .. } | Written::Compact { to, .. } | Written::Short { to } => to,
            Written::Leave(why) => return Ok(Move::Leave(why)),
        };
        if own & to.bit() != 0 {
            return Err(illegal(format!("{to} holds a {name} piece")));
        }
        match written {
            Written::Short { to } => legal
                .iter()
                .copied()
                .find(|m| m.to() == Some(to))
                .ok_or_else(|| illegal(format!("no {name} piece can jump to {to}"))),
            Written::Leave(why) => Ok(Move::Leave(why)),
            Written::Compact { from, to } => {
                if own & from.bit() == 0 {
                    return Err(illegal(format!("there is no {name} piece on {from}")));
                }
                legal
                    .iter()
                    .copied()
                    .find(|m| matches!(m, Move::Jump(j) if j.from == from && j.to == to))
                    .ok_or_else(|| illegal(format!("no {name} jump from {from} lands on {to}")))
            }
            Written::Full {
                from,
                pivot,
                capture,
                to,
            } => {
                if own & from.bit() == 0 {
                    return Err(illegal(format!("there is no {name} piece on {from}")));
                }
                if own & pivot.bit() == 0 || pivot == from {
                    return Err(illegal(format!(
                        "{pivot} holds no other {name} piece to jump over"
                    )));
                }
                match jump(from, pivot) {
                    None => {
                        return Err(illegal(format!(
                            "jumping from {from} over {pivot} leaves the board"
                        )));
                    }
                    Some(target) if target != to => {
                        return Err(illegal(format!(
                            "jumping from {from} over {pivot} lands on {target}, not {to}"
                        )));
                    }
                    Some(_) => {}
                }
                let captures = self.owner(to).is_some();
                if capture && !captures {
                    return Err(illegal(format!(
                        "it is marked as a capture but {to} is empty"
                    )));
                }
                if !capture && captures {
                    return Err(illegal(format!(
                        "it captures on {to} but is written with - (use x)"
                    )));
                }
                Ok(Move::jump(from, pivot, to))
            }
        }
    }

    /// Prints a legal move.
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        let mv = match mv {
            Move::Jump(jump) => jump,
            Move::Leave(why) => return leave_text(why).to_string(),
        };
        match notation {
            Notation::Full => {
                let mark = if self.owner(mv.to).is_some() {
                    'x'
                } else {
                    '-'
                };
                format!("{}-{}{mark}{}", mv.from, mv.pivot, mv.to)
            }
            Notation::Short => mv.to.to_string(),
            Notation::Compact => format!("{}{}", mv.from, mv.to),
        }
    }
}
