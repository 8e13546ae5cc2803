//! Move text: reading any of the three notations and printing each of them.
//!
//! - coordinate: `c1c3`, `e10e11e` (promotion letter in lower case);
//! - long, the seed's form: `Na3–b5`, `Nj7:h6`, `g5:h6`, `e10–e11=E`, with `×` after a
//!   mating move and `=` after a move that draws (ASCII `-` and `x` are read too);
//! - SAN, as chess players write it: `Nb5`, `Nxh6`, `gxh6`, `Rbb1`, `e11=E`, `Rc4+`, `Ng6#`.
//!
//! Reading returns a [`MoveText`], a description that may leave things open (SAN omits
//! the origin); [`Position::parse_move`] resolves it against the legal moves.

use nom::{
    IResult, Parser,
    branch::alt,
    character::complete::{char, digit1, one_of, satisfy},
    combinator::{all_consuming, map_res, opt, value},
    multi::many0,
};

use super::board::{Kind, SIZE, Square};
use super::movegen;
use super::position::CHECKMATE;
use super::position::{Move, Position};
use crate::game::MoveError;

/// The move notations of Sena-Mukha.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    Coordinate,
    Long,
    San,
}

/// Which form a move text was written in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    Coordinate,
    Long,
    San,
}

/// A move as written, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug)]
struct MoveText {
    form: Form,
    /// The moving man's kind when the text says it (long and SAN forms: no letter = pawn).
    kind: Option<Kind>,
    from_file: Option<usize>,
    from_rank: Option<usize>,
    /// `Some(true)` if marked as a capture, `Some(false)` if marked as a non-capture.
    capture: Option<bool>,
    to: Square,
    promotion: Option<Kind>,
}

fn file(input: &str) -> IResult<&str, usize> {
    let (rest, c) = satisfy(|c| ('a'..='k').contains(&c)).parse(input)?;
    Ok((rest, c as usize - 'a' as usize))
}

fn rank(input: &str) -> IResult<&str, usize> {
    map_res(digit1, |d: &str| {
        let n: usize = d.parse().map_err(|_| ())?;
        if d.starts_with('0') || n == 0 || n > SIZE {
            Err(())
        } else {
            Ok(n - 1)
        }
    })
    .parse(input)
}

fn square(input: &str) -> IResult<&str, Square> {
    let (rest, (f, r)) = (file, rank).parse(input)?;
    Ok((rest, Square::new(f, r)))
}

fn piece_letter(input: &str) -> IResult<&str, Kind> {
    let (rest, c) = one_of("KERN").parse(input)?;
    Ok((rest, Kind::from_letter(c).expect("one of KERN")))
}

fn promotion_letter(input: &str) -> IResult<&str, Kind> {
    let (rest, c) = one_of("NERner").parse(input)?;
    Ok((rest, Kind::from_letter(c).expect("one of NER")))
}

/// `=E` (long and SAN forms; `E` alone is read too).
fn promotion_suffix(input: &str) -> IResult<&str, Kind> {
    let (rest, _) = opt(char('=')).parse(input)?;
    let (rest, c) = one_of("NER").parse(rest)?;
    Ok((rest, Kind::from_letter(c).expect("one of NER")))
}

/// Check, mate, draw and quality marks, which reading ignores (records check them).
fn annotations(input: &str) -> IResult<&str, ()> {
    value((), many0(one_of("+#×=!?"))).parse(input)
}

fn coordinate(input: &str) -> IResult<&str, MoveText> {
    let (rest, (from, to, promotion)) = (
        square,
        square,
        opt(alt((promotion_letter, promotion_suffix))),
    )
        .parse(input)?;
    let (rest, _) = annotations(rest)?;
    Ok((
        rest,
        MoveText {
            form: Form::Coordinate,
            kind: None,
            from_file: Some(from.file()),
            from_rank: Some(from.rank()),
            capture: None,
            to,
            promotion,
        },
    ))
}

fn long(input: &str) -> IResult<&str, MoveText> {
    let separator = alt((value(false, one_of("–-")), value(true, one_of(":x"))));
    let (rest, (kind, from, capture, to, promotion)) = (
        opt(piece_letter),
        square,
        separator,
        square,
        opt(promotion_suffix),
    )
        .parse(input)?;
    let (rest, _) = annotations(rest)?;
    Ok((
        rest,
        MoveText {
            form: Form::Long,
            kind: Some(kind.unwrap_or(Kind::Pawn)),
            from_file: Some(from.file()),
            from_rank: Some(from.rank()),
            capture: Some(capture),
            to,
            promotion,
        },
    ))
}

fn san(input: &str) -> IResult<&str, MoveText> {
    let (rest, kind) = opt(piece_letter).parse(input)?;
    // The origin hints come before the target; try the longest reading first so that
    // `Rb1b10` keeps its file and rank, and `Rb10` falls through to a bare target.
    let capture_mark = || opt(value(true, one_of("x:")));
    let (rest, (from_file, from_rank, capture, to)) = alt((
        (file, rank, capture_mark(), square).map(|(f, r, c, t)| (Some(f), Some(r), c, t)),
        (file, capture_mark(), square).map(|(f, c, t)| (Some(f), None, c, t)),
        (rank, capture_mark(), square).map(|(r, c, t)| (None, Some(r), c, t)),
        (capture_mark(), square).map(|(c, t)| (None, None, c, t)),
    ))
    .parse(rest)?;
    let (rest, promotion) = opt(promotion_suffix).parse(rest)?;
    let (rest, _) = annotations(rest)?;
    Ok((
        rest,
        MoveText {
            form: Form::San,
            kind: Some(kind.unwrap_or(Kind::Pawn)),
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        },
    ))
}

fn read(text: &str) -> Option<MoveText> {
    alt((
        all_consuming(coordinate),
        all_consuming(long),
        all_consuming(san),
    ))
    .parse(text)
    .ok()
    .map(|(_, m)| m)
}

fn article(kind: Kind) -> &'static str {
    if kind == Kind::Elephant { "an" } else { "a" }
}

impl Position {
    /// Reads a move in any accepted notation and returns the legal move it names.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let written = read(text).ok_or_else(|| MoveError::Syntax {
            text: text.to_string(),
            why: "not a move in coordinate, long or SAN form".to_string(),
        })?;
        let illegal = |why: String| MoveError::Illegal {
            text: text.to_string(),
            why,
        };
        let mut legal = Vec::with_capacity(64);
        self.legal_moves(&mut legal);
        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.to() == written.to
                    && written.from_file.is_none_or(|f| f == m.from().file())
                    && written.from_rank.is_none_or(|r| r == m.from().rank())
                    && written
                        .kind
                        .is_none_or(|k| self.piece_at(m.from()).is_some_and(|p| p.kind == k))
                    && (m.promotion().is_none()
                        || written.promotion.is_none()
                        || m.promotion() == written.promotion)
                    // In SAN a pawn capture always names the pawn's file.
                    && !(written.form == Form::San
                        && written.from_file.is_none()
                        && self.piece_at(m.from()).is_some_and(|p| p.kind == Kind::Pawn)
                        && self.piece_at(m.to()).is_some())
            })
            .collect();
        let promoting = candidates.iter().any(|m| m.promotion().is_some());
        if promoting && written.promotion.is_none() {
            return Err(illegal(format!(
                "a pawn reaching rank {} must promote: add N, E or R",
                written.to.rank() + 1
            )));
        }
        if !promoting && written.promotion.is_some() && !candidates.is_empty() {
            return Err(illegal(
                "only a pawn reaching the last rank promotes".to_string(),
            ));
        }
        match candidates.as_slice() {
            [] => Err(illegal(self.why_not(&written))),
            [mv] => {
                let captures = self.piece_at(mv.to()).is_some();
                match written.capture {
                    Some(true) if !captures => Err(illegal(format!(
                        "it is marked as a capture but {} is empty",
                        mv.to()
                    ))),
                    Some(false) if captures && written.form == Form::Long => Err(illegal(format!(
                        "it captures on {} but is written as a plain move (use : for a capture)",
                        mv.to()
                    ))),
                    _ => Ok(*mv),
                }
            }
            several => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: several
                    .iter()
                    .map(|&m| self.format_move(m, Notation::Long))
                    .collect(),
            }),
        }
    }

    /// Explains why no legal move matches a written move.
    fn why_not(&self, written: &MoveText) -> String {
        let side = self.side_to_move();
        let to = written.to;
        let own_man_on_target = self.piece_at(to).is_some_and(|p| p.color == side);
        let (Some(f), Some(r)) = (written.from_file, written.from_rank) else {
            if own_man_on_target {
                return format!("{to} holds a {} man", side.name());
            }
            let kind = written.kind.unwrap_or(Kind::Pawn);
            if kind == Kind::Pawn && written.from_file.is_none() && self.piece_at(to).is_some() {
                return format!(
                    "a pawn capture names the pawn's file, as in {}x{to}",
                    (b'a'
                        + if to.file() > 0 {
                            to.file() as u8 - 1
                        } else {
                            1
                        }) as char
                );
            }
            return format!("no {} {} can move to {to}", side.name(), kind.name());
        };
        let from = Square::new(f, r);
        let Some(piece) = self.piece_at(from) else {
            return format!("there is no man on {from}");
        };
        if piece.color != side {
            return format!(
                "{from} holds a {} {}, and it is {}'s turn",
                piece.color.name(),
                piece.kind.name(),
                side.name()
            );
        }
        if let Some(k) = written.kind
            && k != piece.kind
        {
            return format!(
                "{from} holds {} {}, not {} {}",
                article(piece.kind),
                piece.kind.name(),
                article(k),
                k.name()
            );
        }
        if own_man_on_target {
            return format!("{to} holds a {} man", side.name());
        }
        if movegen::reaches(self, from, to) {
            format!("it would leave the {} king in check", side.name())
        } else {
            format!(
                "{} {} on {from} cannot reach {to}",
                article(piece.kind),
                piece.kind.name()
            )
        }
    }

    /// Writes a legal move in the given notation at the end of `out`; the canonical
    /// (coordinate) notation without any string of its own.
    pub fn write_move(&self, mv: Move, notation: Notation, out: &mut String) {
        if notation == Notation::Coordinate {
            mv.from().push_name(out);
            mv.to().push_name(out);
            if let Some(k) = mv.promotion() {
                out.push(k.letter().to_ascii_lowercase());
            }
        } else {
            out.push_str(&self.format_move(mv, notation));
        }
    }

    /// Prints a legal move in the given notation.
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        let (from, to) = (mv.from(), mv.to());
        let kind = self.piece_at(from).map_or(Kind::Pawn, |p| p.kind);
        let captures = self.piece_at(to).is_some();
        let mut out = String::with_capacity(12);
        match notation {
            Notation::Coordinate => {
                self.write_move(mv, notation, &mut out);
                return out;
            }
            Notation::Long => {
                if kind != Kind::Pawn {
                    out.push(kind.letter());
                }
                out.push_str(&format!("{from}{}{to}", if captures { ':' } else { '–' }));
            }
            Notation::San => {
                if kind == Kind::Pawn {
                    if captures {
                        out.push((b'a' + from.file() as u8) as char);
                    }
                } else {
                    out.push(kind.letter());
                    out.push_str(&self.san_disambiguation(mv, kind));
                }
                if captures {
                    out.push('x');
                }
                out.push_str(&to.to_string());
            }
        }
        if let Some(k) = mv.promotion() {
            out.push('=');
            out.push(k.letter());
        }
        let mut after = self.clone();
        after.play(mv);
        let outcome = after.outcome();
        match notation {
            Notation::Long => match outcome.map(|o| o.reason) {
                Some(CHECKMATE) => out.push('×'),
                Some(_) => out.push('='),
                None => {}
            },
            _ => {
                if outcome.is_some_and(|o| o.reason == CHECKMATE) {
                    out.push('#');
                } else if after.in_check() {
                    out.push('+');
                }
            }
        }
        out
    }

    /// The least origin hint that tells `mv` apart from other moves of the same kind
    /// to the same square: nothing, the file, the rank, or both (the rules of chess).
    fn san_disambiguation(&self, mv: Move, kind: Kind) -> String {
        let mut legal = Vec::with_capacity(64);
        self.legal_moves(&mut legal);
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|m| {
                m.to() == mv.to()
                    && m.from() != mv.from()
                    && self.piece_at(m.from()).is_some_and(|p| p.kind == kind)
            })
            .map(|m| m.from())
            .collect();
        let from = mv.from();
        let file = ((b'a' + from.file() as u8) as char).to_string();
        let rank = (from.rank() + 1).to_string();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|s| s.file() != from.file()) {
            file
        } else if rivals.iter().all(|s| s.rank() != from.rank()) {
            rank
        } else {
            file + &rank
        }
    }
}
