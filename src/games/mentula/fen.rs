//! Mentula positions as text, in two forms.
//!
//! The FEN-like form: the board (ranks 8 down to 1, letters `W Y R M`, digits for
//! empty runs), the player to move (`w y r m`), then the moves since the last capture
//! and the round number:
//! `YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 1`. The two counters may be left out together.
//!
//! The seed's list form:
//! `White (to play): a1, a2, b1, b2, Yellow: a7, a8, b7, b8, Red: g7, g8, h7, h8,
//! Magenta: g1, g2, h1, h2.` Any player may be the one "to play"; a player without
//! pieces may be left out or listed empty. Its counters are 0 and 1.

use nom::{
    IResult, Parser,
    bytes::complete::{tag, tag_no_case},
    character::complete::{char, digit1, multispace0, satisfy},
    combinator::{all_consuming, opt, recognize},
    multi::{many0, separated_list0},
    sequence::{pair, preceded, terminated},
};

use super::board::{
    Bitboard, LETTERS, NAMES, PLAYERS, SIZE, Square, Squares, TITLES, TO_MOVE_LETTERS,
};
use super::position::Position;
use crate::game::{PositionError, quoted};
use crate::square_board::{read_board, read_counter, write_board};

/// The usual start.
pub const START: &str = "YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 1";

/// Reads either form: a text that starts with a player's name, or has a colon (which
/// the FEN-like form never has), is the list form (`White (to play): a1`), so that a
/// misspelt entry or an unknown player is named.
pub fn parse(text: &str) -> Result<Position, PositionError> {
    let first_word: String = text
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    if text.contains(':') || TITLES.iter().any(|t| t.eq_ignore_ascii_case(&first_word)) {
        parse_list(text)
    } else {
        parse_fen(text)
    }
}

fn parse_fen(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::empty());
    }
    if !matches!(fields.len(), 2 | 4) {
        return Err(PositionError::syntax(format!(
            "a position has 2 or 4 fields (board, player to move, moves since the last capture, round), not {}",
            fields.len()
        )));
    }
    let placed = read_board(fields[0], SIZE, SIZE, |c| LETTERS.contains(&c))?;
    let mut men = [0; PLAYERS];
    for man in placed {
        let player = LETTERS
            .iter()
            .position(|&l| l == man.letter)
            .expect("known");
        men[player] |= Square::new(man.file, man.rank).bit();
    }
    let to_move = match fields[1].chars().collect::<Vec<_>>().as_slice() {
        [c] if TO_MOVE_LETTERS.contains(c) => TO_MOVE_LETTERS.iter().position(|l| l == c).unwrap(),
        _ => {
            return Err(PositionError::syntax(format!(
                "the player to move must be w, y, r or m, not {:?}",
                quoted(fields[1])
            )));
        }
    };
    let (since_capture, round) = if fields.len() == 4 {
        let round = read_counter(fields[3], "round number")?;
        if round == 0 {
            return Err(PositionError::syntax("round number must be at least 1"));
        }
        (
            read_counter(fields[2], "moves since the last capture")?,
            round,
        )
    } else {
        (0, 1)
    };
    validate(men, to_move, since_capture, round)
}

/// Checks what every position must satisfy and builds it.
fn validate(
    men: [Bitboard; PLAYERS],
    to_move: usize,
    since_capture: u32,
    round: u32,
) -> Result<Position, PositionError> {
    // No game reaches an empty board: a capture leaves the capturer's men.
    if men.iter().all(|&own| own == 0) {
        return Err(PositionError::impossible("the board has no men"));
    }
    for (player, &own) in men.iter().enumerate() {
        if own.count_ones() > 4 {
            return Err(PositionError::impossible(format!(
                "{} has {} pieces, at most 4",
                NAMES[player],
                own.count_ones()
            )));
        }
        let mut by_colour: [Option<Square>; 4] = [None; 4];
        for sq in Squares::new(own) {
            if let Some(other) = by_colour[sq.colour()] {
                return Err(PositionError::impossible(format!(
                    "{} has two pieces on one colour ({other} and {sq})",
                    NAMES[player]
                )));
            }
            by_colour[sq.colour()] = Some(sq);
        }
    }
    let position = Position::from_parts(men, to_move, since_capture, round);
    if !position.can_move(to_move)
        && (0..PLAYERS).any(|p| position.can_move(p))
        && position.outcome().is_none()
    {
        return Err(PositionError::impossible(format!(
            "{} is to move but has no move (statura) while others can move and the game goes on",
            NAMES[to_move]
        )));
    }
    Ok(position)
}

/// Prints the FEN-like form with both counters.
pub fn format(position: &Position) -> String {
    let board = write_board(SIZE, SIZE, |file, rank| {
        position.owner(Square::new(file, rank)).map(|p| LETTERS[p])
    });
    format!(
        "{board} {} {} {}",
        TO_MOVE_LETTERS[position.to_move()],
        position.since_capture(),
        position.round()
    )
}

/// One entry of the list form: a player, whether marked to play, and its squares.
struct Entry<'a> {
    title: &'a str,
    to_play: bool,
    squares: Vec<&'a str>,
}

fn square_name(input: &str) -> IResult<&str, &str> {
    recognize(pair(satisfy(|c| c.is_ascii_alphabetic()), digit1)).parse(input)
}

fn entry(input: &str) -> IResult<&str, Entry<'_>> {
    let (rest, title) = recognize(many0(satisfy(|c| c.is_alphabetic()))).parse(input)?;
    let (rest, to_play) = opt(preceded(multispace0, tag_no_case("(to play)"))).parse(rest)?;
    let (rest, _) = preceded(multispace0, char(':')).parse(rest)?;
    let (rest, squares) = separated_list0(
        (multispace0, char(','), multispace0),
        preceded(multispace0, square_name),
    )
    .parse(rest)?;
    Ok((
        rest,
        Entry {
            title,
            to_play: to_play.is_some(),
            squares,
        },
    ))
}

fn list(input: &str) -> IResult<&str, Vec<Entry<'_>>> {
    all_consuming(terminated(
        separated_list0(
            (multispace0, opt(char(',')), multispace0),
            preceded(multispace0, entry),
        ),
        (multispace0, opt(tag(".")), multispace0),
    ))
    .parse(input)
}

fn parse_list(text: &str) -> Result<Position, PositionError> {
    let (_, entries) = list(text.trim()).map_err(|_| {
        PositionError::syntax("unreadable list position: expected entries like `White (to play): a1, a2,` ending in `.`")
    })?;
    let mut men = [0; PLAYERS];
    let mut listed = [false; PLAYERS];
    let mut to_move = None;
    for entry in entries {
        let player = TITLES
            .iter()
            .position(|t| t.eq_ignore_ascii_case(entry.title))
            .ok_or_else(|| {
                PositionError::syntax(format!(
                    "unknown player {:?} (White, Yellow, Red or Magenta)",
                    quoted(entry.title)
                ))
            })?;
        if listed[player] {
            return Err(PositionError::syntax(format!(
                "{} is listed twice",
                TITLES[player]
            )));
        }
        listed[player] = true;
        if entry.to_play {
            if let Some(other) = to_move {
                return Err(PositionError::syntax(format!(
                    "both {} and {} are marked (to play)",
                    TITLES[other], TITLES[player]
                )));
            }
            to_move = Some(player);
        }
        for name in entry.squares {
            let sq = super::notation::read_square(name).ok_or_else(|| {
                PositionError::syntax(format!("{} is not a square of the board", quoted(name)))
            })?;
            if let Some(owner) = (0..PLAYERS).find(|&p| men[p] & sq.bit() != 0) {
                return Err(PositionError::syntax(if owner == player {
                    format!("{sq} is listed twice for {}", TITLES[player])
                } else {
                    format!(
                        "{sq} is listed for both {} and {}",
                        TITLES[owner], TITLES[player]
                    )
                }));
            }
            men[player] |= sq.bit();
        }
    }
    let to_move = to_move.ok_or_else(|| PositionError::syntax("no player is marked (to play)"))?;
    validate(men, to_move, 0, 1)
}

/// Prints the seed's list form: every player with pieces, and the player to move.
pub fn format_list(position: &Position) -> String {
    let mut parts = Vec::new();
    for (player, title) in TITLES.iter().enumerate() {
        let own = position.men(player);
        if own == 0 && player != position.to_move() {
            continue;
        }
        let marker = if player == position.to_move() {
            " (to play)"
        } else {
            ""
        };
        // The seed lists squares file by file: a1, a2, b1, b2.
        let mut sorted: Vec<Square> = Squares::new(own).collect();
        sorted.sort_by_key(|s| (s.file(), s.rank()));
        let squares: Vec<String> = sorted.iter().map(|s| s.to_string()).collect();
        let squares = if squares.is_empty() {
            String::new()
        } else {
            format!(" {}", squares.join(", "))
        };
        parts.push(format!("{title}{marker}:{squares}"));
    }
    format!("{}.", parts.join(", "))
}
