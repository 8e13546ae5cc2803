//! The board field of FEN-like position strings, shared by the games that use one:
//! ranks from the top down separated by `/`, runs of empty squares as numbers (two
//! digits on boards wider than 9), one letter per man.

use nom::{
    IResult, Parser,
    branch::alt,
    character::complete::{char, digit1, satisfy},
    combinator::map,
    multi::{many0, separated_list1},
};

use crate::game::PositionError;

/// One item of a rank: a run of empty squares or a letter.
#[derive(Clone, Copy)]
enum RankItem {
    Empty(usize),
    /// A run written with a leading zero (`03`), refused: FEN has no such runs.
    Padded(usize),
    Letter(char),
}

fn rank_item(input: &str) -> IResult<&str, RankItem> {
    alt((
        // A number too large for usize is still a (far too long) run.
        map(digit1, |d: &str| {
            let n = d.parse::<usize>().unwrap_or(usize::MAX);
            if d.len() > 1 && d.starts_with('0') {
                RankItem::Padded(n)
            } else {
                RankItem::Empty(n)
            }
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

/// The largest move counter accepted: far beyond any real game, small enough that
/// counting on from it can never overflow.
pub const MAX_COUNTER: u32 = 1_000_000;

/// Reads a move counter field (`what` names it in the error).
pub fn read_counter(field: &str, what: &str) -> Result<u32, PositionError> {
    let parsed: IResult<&str, &str> = digit1(field);
    match parsed {
        Ok(("", digits)) => match digits.parse::<u32>() {
            Ok(n) if n <= MAX_COUNTER => Ok(n),
            _ => Err(PositionError::syntax(format!(
                "{what} {field} is out of range (at most {MAX_COUNTER})"
            ))),
        },
        _ => Err(PositionError::syntax(format!(
            "{what} must be a number, not {field:?}"
        ))),
    }
}
