//! Game records in the seed's style, for every game.
//!
//! ```text
//! Zillions of Games—Zillions of Games 1. Na3–b5
//! Ne9–d7 2. Ne3–d5 Ng9–f7 ... 30. Ne7–g6
//! Kf8–f9=. White loses a Knight ... (30. … Kf8–g7 31. Ei3–i5 ... 33. Ng4–f6×).
//! ```
//!
//! A record is an optional header (the text before the first move number, unless it
//! reads as moves; player names separated by an em dash), then turns: move numbers
//! `N.` that open round N, `N. …` / `N...` that resume a round at a later player, moves
//! in any notation the game reads, `-` for a turn the rules skip, results (`1-0`,
//! `0-1`, `1/2-1/2`, `*`), `{comments}`, `; comments` and `(variations)`.
//!
//! Marks after a move are claims that replay checks: `×` or `#` say the move wins the
//! game on the spot, `=` that it draws. Once the game is over (or a result is written)
//! the rest is commentary: free prose, in which parenthesised text that starts with a
//! move number is a variation replacing the last move played.
//!
//! ```
//! use ludus::game::Game;
//! use ludus::games::senamukha::{Notation, Position};
//!
//! let replay = ludus::record::replay(Position::start(), "1. Na3–b5 Na9–b7").unwrap();
//! assert_eq!(replay.moves.len(), 2);
//! let written = ludus::record::write(&Position::start(), &replay.moves, None, Notation::Long);
//! assert_eq!(written, "1. Na3–b5 Na9–b7\n");
//! ```

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::take_while,
    bytes::complete::{tag, take_till1, take_until},
    character::complete::{char, digit1, not_line_ending},
    combinator::{map, map_res, opt, value},
    sequence::{delimited, preceded, terminated},
};

use std::fmt;

use crate::game::{Game, MoveError, Outcome};

/// One lexical item of a record.
#[derive(Clone, Debug, PartialEq)]
enum Token<'a> {
    /// `N.` (`resumed` false) or `N. …` / `N...` (`resumed` true).
    Number {
        round: u32,
        resumed: bool,
    },
    /// A skipped turn.
    Skip,
    Result(&'a str),
    Comment(&'a str),
    Open,
    Close,
    /// A move with the annotation marks that followed it.
    Move {
        text: &'a str,
        marks: &'a str,
    },
}

const MARKS: &[char] = &['+', '#', '×', '=', '!', '?'];

/// Variations nested deeper than this are refused (they would only exhaust the stack).
const MAX_NESTING: usize = 32;

/// Any whitespace, Unicode included (a no-break space separates like a space).
fn space0(input: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(input)
}

fn continuation(input: &str) -> IResult<&str, ()> {
    value((), preceded(space0, alt((tag("…"), tag("..."), tag(".."))))).parse(input)
}

fn number(input: &str) -> IResult<&str, Token<'_>> {
    map(
        (
            map_res(digit1, |d: &str| {
                if d.starts_with('0') {
                    Err(())
                } else {
                    d.parse::<u32>().map_err(|_| ())
                }
            }),
            char('.'),
            opt(continuation),
        ),
        |(round, _, resumed)| Token::Number {
            round,
            resumed: resumed.is_some(),
        },
    )
    .parse(input)
}

fn end_of_word(input: &str) -> IResult<&str, ()> {
    match input.chars().next() {
        None => Ok((input, ())),
        Some(c) if c.is_whitespace() || "(){}.".contains(c) => Ok((input, ())),
        Some(_) => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

fn result(input: &str) -> IResult<&str, Token<'_>> {
    map(
        terminated(
            alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"), tag("½-½"), tag("*"))),
            end_of_word,
        ),
        Token::Result,
    )
    .parse(input)
}

fn comment(input: &str) -> IResult<&str, Token<'_>> {
    alt((
        map(
            delimited(char('{'), take_until("}"), char('}')),
            Token::Comment,
        ),
        map(preceded(char(';'), not_line_ending), Token::Comment),
    ))
    .parse(input)
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c.is_whitespace() || "(){};".contains(c)).parse(input)
}

fn move_token(input: &str) -> IResult<&str, Token<'_>> {
    let (rest, raw) = word(input)?;
    // A period closes the sentence after a final move ("Ef6–g6×."); moves never end in one.
    let raw = raw.trim_end_matches('.');
    let text = raw.trim_end_matches(MARKS);
    let marks = &raw[text.len()..];
    if text.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((rest, Token::Move { text, marks }))
}

fn token(input: &str) -> IResult<&str, Token<'_>> {
    preceded(
        space0,
        alt((
            number,
            result,
            comment,
            value(Token::Open, char('(')),
            value(Token::Close, char(')')),
            value(Token::Skip, terminated(char('-'), end_of_word)),
            move_token,
        )),
    )
    .parse(input)
}

/// The most bytes a record file may have: thousands of times the longest game, and a
/// bound on the memory a reader of records takes.
pub const MAX_RECORD_BYTES: usize = 8 << 20;
/// The longest line a record may have.
pub const MAX_RECORD_LINE: usize = 1 << 20;

/// Reads a record's text from `input`, line by line, refusing one longer than
/// [`MAX_RECORD_BYTES`] or with a line longer than [`MAX_RECORD_LINE`] as soon as it
/// sees it (it never reads more than that), or one that is not UTF-8.
pub fn read_text(input: impl std::io::Read) -> Result<String, ReadError> {
    use std::io::{BufRead, Read};
    let mut reader = std::io::BufReader::new(input.take(MAX_RECORD_BYTES as u64 + 1));
    let mut text = Vec::new();
    for number in 1.. {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take(MAX_RECORD_LINE as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(ReadError::Io)?;
        if read == 0 {
            break;
        }
        let content = line.strip_suffix(b"\n").unwrap_or(&line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.len() > MAX_RECORD_LINE {
            return Err(ReadError::LineTooLong { line: number });
        }
        text.extend_from_slice(&line);
        if text.len() > MAX_RECORD_BYTES {
            return Err(ReadError::TooLong);
        }
    }
    String::from_utf8(text).map_err(|e| ReadError::NotUtf8 {
        at: e.utf8_error().valid_up_to(),
    })
}

/// Why a record's text could not be read.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// A line (from 1) longer than [`MAX_RECORD_LINE`].
    LineTooLong {
        line: usize,
    },
    /// More than [`MAX_RECORD_BYTES`].
    TooLong,
    /// Not UTF-8, from this byte on.
    NotUtf8 {
        at: usize,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the record: {e}"),
            ReadError::LineTooLong { line } => write!(
                f,
                "line {line} of the record is longer than {MAX_RECORD_LINE} bytes"
            ),
            ReadError::TooLong => write!(f, "the record is longer than {MAX_RECORD_BYTES} bytes"),
            ReadError::NotUtf8 { at } => write!(f, "the record is not UTF-8 (at byte {at})"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Why a move number does not fit where the record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumberProblem {
    /// The player's move of the round is missing before the next round.
    Missing { player: &'static str, round: u32 },
    /// Another number was due.
    Expected(u32),
    /// `N. …` where the player to move opens the round.
    OpensRound(&'static str),
    /// `N.` where the player to move is inside the round.
    InsideRound { player: &'static str, round: u32 },
}

impl fmt::Display for NumberProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberProblem::Missing { player, round } => {
                write!(f, "{player}'s move {round}… is missing")
            }
            NumberProblem::Expected(round) => write!(f, "expected move number {round}"),
            NumberProblem::OpensRound(player) => {
                write!(
                    f,
                    "it is {player}'s turn, which opens the round: drop the …"
                )
            }
            NumberProblem::InsideRound { player, round } => {
                write!(
                    f,
                    "it is {player}'s turn inside the round: write {round}. …"
                )
            }
        }
    }
}

/// Where a record went wrong: the turn, the text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The turn as a reader would name it, e.g. `30… (black)`.
    pub turn: String,
    pub text: String,
    pub why: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // No turn: the fault is in the position tag, before any move.
        if self.turn.is_empty() {
            return write!(
                f,
                "the position tag {}: {}",
                crate::game::quoted(&self.text),
                self.why
            );
        }
        if self.text.is_empty() {
            write!(f, "move {}: {}", self.turn, self.why)
        } else {
            write!(
                f,
                "move {} {}: {}",
                self.turn,
                crate::game::quoted(&self.text),
                self.why
            )
        }
    }
}

impl std::error::Error for RecordError {}

/// A line of play that replaced the last move of the line it branches from.
#[derive(Clone, Debug)]
pub struct Variation<G: Game> {
    /// The line it branches from: `None` for the main line, `Some(i)` for
    /// `variations[i]` (variations inside variations).
    pub parent: Option<usize>,
    /// How many moves of that line were played before the variation's first move.
    pub branch_ply: usize,
    pub moves: Vec<G::Move>,
    pub position: G,
}

/// A replayed record.
#[derive(Clone, Debug)]
pub struct Replay<G: Game> {
    pub header: Option<String>,
    /// The players named in the header, in turn order (split at em dashes).
    pub players: Vec<String>,
    pub moves: Vec<G::Move>,
    /// The position after the last move.
    pub position: G,
    /// A result token written in the record (`1-0`, ...), if any.
    pub stated_result: Option<String>,
    pub comments: Vec<String>,
    pub variations: Vec<Variation<G>>,
}

impl<G: Game> Replay<G> {
    /// The outcome by the rules, if the game ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }
}

/// Turn bookkeeping: which round and which seat the next turn token belongs to.
struct Cursor {
    round: u32,
    seat: usize,
}

impl Cursor {
    fn name<G: Game>(&self) -> String {
        let ellipsis = if self.seat == 0 { "" } else { "…" };
        format!("{}{ellipsis} ({})", self.round, G::PLAYERS[self.seat])
    }
    fn advance<G: Game>(&mut self) {
        self.seat += 1;
        if self.seat == G::PLAYERS.len() {
            self.seat = 0;
            self.round += 1;
        }
    }
}

/// Replays a line of tokens from `position` until the game ends, a result is read, a
/// `)` closes the line (for variations) or the text runs out. Returns the rest.
struct LineReader<'t, G: Game> {
    position: G,
    moves: Vec<G::Move>,
    cursor: Cursor,
    stated_result: Option<String>,
    comments: Vec<String>,
    variations: Vec<Variation<G>>,
    rest: &'t str,
    /// A position before each move, for variations branching from the last move.
    before_last: Option<(G, Cursor)>,
    /// Whether the record writes `-` for skipped turns; if it does, every skipped turn
    /// must be written, and if not, skipped turns are passed over silently.
    marks_skips: bool,
    /// How many variations enclose this line.
    nesting: usize,
    /// Whether a `-` was read (then the record is read again, requiring every skip).
    skips_seen: bool,
}

impl<'t, G: Game> LineReader<'t, G> {
    fn new(position: G, rest: &'t str) -> Self {
        let cursor = Cursor {
            round: position.round_number(),
            seat: position.to_move(),
        };
        LineReader {
            position,
            moves: Vec::new(),
            cursor,
            stated_result: None,
            comments: Vec::new(),
            variations: Vec::new(),
            rest,
            before_last: None,
            marks_skips: false,
            nesting: 0,
            skips_seen: false,
        }
    }

    fn error(&self, text: &str, why: impl Into<String>) -> RecordError {
        RecordError {
            turn: self.cursor.name::<G>(),
            text: text.to_string(),
            why: why.into(),
        }
    }

    /// Reads the line; `nested` is true inside parentheses.
    fn read(&mut self, nested: bool) -> Result<(), RecordError> {
        loop {
            if self.stated_result.is_some() {
                return self.read_commentary(nested);
            }
            if self.position.outcome().is_some() {
                // Comments and a result may still follow the last move; then prose.
                loop {
                    match token(self.rest) {
                        Ok((rest, Token::Comment(text))) => {
                            self.rest = rest;
                            self.comments.push(text.trim().to_string());
                        }
                        Ok((rest, Token::Result(text))) => {
                            self.rest = rest;
                            self.result(text)?;
                            break;
                        }
                        _ => break,
                    }
                }
                return self.read_commentary(nested);
            }
            let Ok((rest, token)) = token(self.rest) else {
                if self.rest.trim().is_empty() {
                    return if nested {
                        Err(self.error("", "a variation is not closed with )"))
                    } else {
                        Ok(())
                    };
                }
                return Err(self.error(self.rest.trim(), "unreadable text"));
            };
            self.rest = rest;
            match token {
                Token::Number { round, resumed } => {
                    if let Err(e) = self.number(round, resumed) {
                        // A move written as a number and closing a sentence ("… 6 1.")
                        // looks like a move number; play it if it is a move here.
                        let text = round.to_string();
                        if resumed || self.position.parse_move(&text).is_err() {
                            return Err(e);
                        }
                        self.play(&text, "")?;
                    }
                }
                Token::Skip => {
                    self.skips_seen = true;
                    if self.position.to_move() == self.cursor.seat
                        || self.position.can_move(self.cursor.seat)
                    {
                        return Err(self.error(
                            "-",
                            format!(
                                "{} can move, so the turn is not skipped",
                                G::PLAYERS[self.cursor.seat]
                            ),
                        ));
                    }
                    self.cursor.advance::<G>();
                }
                Token::Result(text) => self.result(text)?,
                Token::Comment(text) => self.comments.push(text.trim().to_string()),
                Token::Open => self.variation()?,
                Token::Close if nested => return Ok(()),
                Token::Close => return Err(self.error(")", "no variation is open")),
                Token::Move { text, marks } => self.play(text, marks)?,
            }
        }
    }

    fn number(&mut self, round: u32, resumed: bool) -> Result<(), RecordError> {
        let written = format!("{round}.{}", if resumed { " …" } else { "" });
        let saved = Cursor {
            round: self.cursor.round,
            seat: self.cursor.seat,
        };
        let checked = self.check_number(round, resumed);
        if checked.is_err() {
            self.cursor = saved;
        }
        checked.map_err(|why| self.error(&written, why.to_string()))
    }

    /// Moves the cursor to where a move number puts it, or says why it cannot.
    fn check_number(&mut self, round: u32, resumed: bool) -> Result<(), NumberProblem> {
        let to_move = self.position.to_move();
        // Without skip marks, the seats of players the rules skip pass silently: up to
        // the end of the round, or for `N. …` up to the player to move.
        if !self.marks_skips {
            for _ in 0..G::PLAYERS.len() {
                if self.cursor.seat == to_move || (!resumed && self.cursor.seat == 0) {
                    break;
                }
                self.cursor.advance::<G>();
            }
        }
        // A record may open the first round at the first seat when the position starts
        // later in it because the earlier players cannot move.
        if self.moves.is_empty()
            && !resumed
            && round == self.cursor.round
            && self.before_last.is_none()
            && (0..self.cursor.seat).all(|seat| !self.position.can_move(seat))
        {
            self.cursor.seat = 0;
        }
        if round != self.cursor.round {
            return Err(
                if !resumed && self.cursor.seat != 0 && round == self.cursor.round + 1 {
                    NumberProblem::Missing {
                        player: G::PLAYERS[self.cursor.seat],
                        round: self.cursor.round,
                    }
                } else {
                    NumberProblem::Expected(self.cursor.round)
                },
            );
        }
        if resumed == (self.cursor.seat == 0) {
            return Err(if resumed {
                NumberProblem::OpensRound(G::PLAYERS[0])
            } else {
                NumberProblem::InsideRound {
                    player: G::PLAYERS[self.cursor.seat],
                    round,
                }
            });
        }
        Ok(())
    }

    fn result(&mut self, text: &str) -> Result<(), RecordError> {
        if G::PLAYERS.len() != 2 && text != "*" {
            return Err(self.error(
                text,
                format!(
                    "{text} is a two-player result; a {}-player record ends with * or with the end the rules give",
                    G::PLAYERS.len()
                ),
            ));
        }
        if let Some(outcome) = self.position.outcome() {
            let by_rules = two_player_result(&outcome);
            let written = ResultToken::read(text).map(ResultToken::text);
            if written.is_some_and(|written| written != by_rules) {
                return Err(self.error(text, format!("the rules give {by_rules}")));
            }
        }
        self.stated_result = Some(text.to_string());
        Ok(())
    }

    fn play(&mut self, text: &str, marks: &str) -> Result<(), RecordError> {
        while self.position.to_move() != self.cursor.seat {
            if self.marks_skips {
                return Err(self.error(
                    text,
                    format!(
                        "{}'s turn is skipped here: write - for it",
                        G::PLAYERS[self.cursor.seat]
                    ),
                ));
            }
            self.cursor.advance::<G>();
        }
        let mv = self
            .position
            .parse_move(text)
            .map_err(|e: MoveError| self.error(text, e.to_string()))?;
        let before = (
            self.position.clone(),
            Cursor {
                round: self.cursor.round,
                seat: self.cursor.seat,
            },
        );
        let mover = self.position.to_move();
        self.position.play(mv);
        self.moves.push(mv);
        let outcome = self.position.outcome();
        if marks.contains(['×', '#']) && outcome.as_ref().and_then(Outcome::winner) != Some(mover)
        {
            return Err(self.error(
                &format!("{text}{marks}"),
                "it is marked as winning the game, but the game goes on",
            ));
        }
        if marks.contains('=') && outcome.as_ref().is_none_or(|o| o.winner().is_some()) {
            return Err(self.error(
                &format!("{text}{marks}"),
                "it is marked as drawing the game, but the rules do not end the game in a draw here",
            ));
        }
        self.before_last = Some(before);
        self.cursor.advance::<G>();
        Ok(())
    }

    /// A `(` in the line: a variation replacing the last move played.
    fn variation(&mut self) -> Result<(), RecordError> {
        let Some((start, cursor)) = &self.before_last else {
            return Err(self.error("(", "a variation needs a move before it to replace"));
        };
        if self.nesting >= MAX_NESTING {
            return Err(self.error(
                "(",
                format!("variations are nested more than {MAX_NESTING} deep"),
            ));
        }
        let mut branch = LineReader::new(start.clone(), self.rest);
        branch.marks_skips = self.marks_skips;
        branch.nesting = self.nesting + 1;
        branch.cursor = Cursor {
            round: cursor.round,
            seat: cursor.seat,
        };
        branch.read(true)?;
        if branch.moves.is_empty() {
            return Err(self.error("(", "the variation holds no move"));
        }
        self.rest = branch.rest;
        self.skips_seen |= branch.skips_seen;
        self.comments.extend(branch.comments);
        // The branch comes first; its own variations follow, their parents renumbered.
        let base = self.variations.len();
        self.variations.push(Variation {
            parent: None,
            branch_ply: self.moves.len() - 1,
            moves: branch.moves,
            position: branch.position,
        });
        for mut inner in branch.variations {
            inner.parent = Some(inner.parent.map_or(base, |i| base + 1 + i));
            self.variations.push(inner);
        }
        Ok(())
    }

    /// After the end: prose, with variations in parentheses that start with a move number.
    fn read_commentary(&mut self, nested: bool) -> Result<(), RecordError> {
        self.refuse_play_after_the_end()?;
        let mut prose = String::new();
        while let Some(c) = self.rest.chars().next() {
            match c {
                '(' => {
                    let inside = self.rest[1..].trim_start();
                    if number(inside).is_ok() {
                        self.rest = &self.rest[1..];
                        self.variation()?;
                        prose.push_str(" (…)");
                        continue;
                    }
                    prose.push(c);
                }
                ')' if nested => {
                    self.rest = &self.rest[1..];
                    self.finish_prose(&prose);
                    return Ok(());
                }
                '{' | ';' => {
                    if let Ok((rest, Token::Comment(text))) = comment(self.rest) {
                        self.rest = rest;
                        prose.push_str(text);
                        continue;
                    }
                    prose.push(c);
                }
                _ => prose.push(c),
            }
            self.rest = &self.rest[c.len_utf8()..];
        }
        self.finish_prose(&prose);
        if nested {
            return Err(self.error("", "a variation is not closed with )"));
        }
        Ok(())
    }

    /// Prose may follow the end of a game, but play may not: a move number or a move
    /// right after the end means the record goes on past it.
    fn refuse_play_after_the_end(&self) -> Result<(), RecordError> {
        let why = match self.position.outcome() {
            Some(outcome) => format!("the game is already over ({})", outcome.reason),
            None => "the record already gave the result".to_string(),
        };
        match token(self.rest) {
            Ok((_, Token::Number { round, resumed })) => {
                Err(self.error(&format!("{round}.{}", if resumed { " …" } else { "" }), why))
            }
            Ok((_, Token::Skip)) => Err(self.error("-", why)),
            // A word that reads as a move is play only if the text ends there or goes
            // on with more play: "A quick finish." is prose even where A is a move.
            Ok((rest, Token::Move { text, .. })) => match self.position.parse_move(text) {
                Err(MoveError::Syntax { .. }) => Ok(()),
                _ => {
                    let more_play = match token(rest) {
                        Err(_) => rest.trim().is_empty(),
                        Ok((_, Token::Number { .. } | Token::Skip | Token::Result(_))) => true,
                        Ok((_, Token::Move { text: next, .. })) => !matches!(
                            self.position.parse_move(next),
                            Err(MoveError::Syntax { .. })
                        ),
                        Ok(_) => false,
                    };
                    if more_play {
                        Err(self.error(text, why))
                    } else {
                        Ok(())
                    }
                }
            },
            _ => Ok(()),
        }
    }

    fn finish_prose(&mut self, prose: &str) {
        let prose = prose.trim().trim_start_matches('.').trim();
        if !prose.is_empty() {
            self.comments
                .push(prose.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
}

/// The result of a two-player game as records (and CECP) write it: the one place
/// that writes and reads `1-0`, `0-1` and `1/2-1/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultToken {
    FirstWins,
    SecondWins,
    Draw,
}

impl ResultToken {
    /// The token of a game won by `winner` (`None`: drawn).
    pub fn of(winner: Option<crate::game::Player>) -> ResultToken {
        match winner {
            Some(0) => ResultToken::FirstWins,
            Some(_) => ResultToken::SecondWins,
            None => ResultToken::Draw,
        }
    }

    /// The token as written.
    pub fn text(self) -> &'static str {
        match self {
            ResultToken::FirstWins => "1-0",
            ResultToken::SecondWins => "0-1",
            ResultToken::Draw => "1/2-1/2",
        }
    }

    /// Reads a token, `½-½` as well as `1/2-1/2`; `None` for anything else (`*`).
    pub fn read(text: &str) -> Option<ResultToken> {
        match text {
            "1-0" => Some(ResultToken::FirstWins),
            "0-1" => Some(ResultToken::SecondWins),
            "1/2-1/2" | "½-½" => Some(ResultToken::Draw),
            _ => None,
        }
    }
}

/// `1-0`, `0-1` or `1/2-1/2` for a two-player outcome.
pub fn two_player_result(outcome: &Outcome) -> &'static str {
    ResultToken::of(outcome.winner()).text()
}

/// Splits off the header: the text before the move number that opens the game. That
/// number is the start position's round, written as a whole word and followed by a
/// move of the start position (or a skip or continuation); failing such a pair, the
/// first word that is that number. A record that starts with a move has no header.
fn split_header<'t, G: Game>(start: &G, text: &'t str) -> (Option<&'t str>, &'t str) {
    // Each word with its byte offset.
    let mut located: Vec<(usize, &str)> = Vec::new();
    let mut word_start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), word_start) {
            (true, Some(at)) => {
                located.push((at, &text[at..i]));
                word_start = None;
            }
            (false, None) => word_start = Some(i),
            _ => {}
        }
    }
    if let Some(at) = word_start {
        located.push((at, &text[at..]));
    }
    let is_move = |w: &str| start.parse_move(w.trim_end_matches(MARKS)).is_ok();
    let opens_game = |w: &str| match number(w) {
        Ok(("", Token::Number { round, .. })) => round == start.round_number(),
        _ => false,
    };
    match located.first() {
        None => return (None, text),
        Some(&(_, first)) if is_move(first) || opens_game(first) => return (None, text),
        _ => {}
    }
    let strong = located.iter().enumerate().find(|&(k, &(_, w))| {
        opens_game(w)
            && located.get(k + 1).is_some_and(|&(_, next)| {
                next == "-" || next.starts_with('…') || next.starts_with("..") || is_move(next)
            })
    });
    let weak = || {
        located
            .iter()
            .enumerate()
            .find(|&(_, &(_, w))| opens_game(w))
    };
    match strong.or_else(weak) {
        Some((_, &(at, _))) => {
            let header = text[..at].trim();
            ((!header.is_empty()).then_some(header), &text[at..])
        }
        None => (None, text),
    }
}

/// The word that opens a record's position tag: `[Position "<position>"]`, before
/// everything else, names the position the record starts from.
const POSITION_TAG: &str = "[Position \"";

/// Splits off a record's position tag: the position it names (with the game's default
/// rules), and the rest of the record.
pub fn tagged_start<G: Game>(text: &str) -> Result<(Option<G>, &str), RecordError> {
    let tagged: IResult<&str, &str> = preceded(
        take_while(char::is_whitespace),
        delimited(tag(POSITION_TAG), take_until("\"]"), tag("\"]")),
    )
    .parse(text);
    let Ok((rest, position)) = tagged else {
        return Ok((None, text));
    };
    let position = position.trim();
    let start = G::from_fen(position).map_err(|e| RecordError {
        turn: String::new(),
        text: position.to_string(),
        why: e.to_string(),
    })?;
    Ok((Some(start), rest))
}

/// Replays a record from its position tag's position if it has one (with the game's
/// default rules: a caller with rules of its own reads the tag with [`tagged_start`]
/// and passes the rest), else from `start`.
pub fn replay<G: Game>(start: G, text: &str) -> Result<Replay<G>, RecordError> {
    let (tagged, text) = tagged_start::<G>(text)?;
    let start = tagged.unwrap_or(start);
    let (header, body) = split_header(&start, text);
    let mut reader = LineReader::new(start.clone(), body);
    reader.read(false)?;
    if reader.skips_seen {
        // The record writes skipped turns: read it again requiring every one of them.
        reader = LineReader::new(start, body);
        reader.marks_skips = true;
        reader.read(false)?;
    }
    let players = header
        .map(|h| {
            h.split('—')
                .map(|name| name.trim().to_string())
                .filter(|name| !name.is_empty())
                .collect()
        })
        .unwrap_or_default();
    Ok(Replay {
        header: header.map(str::to_string),
        players,
        moves: reader.moves,
        position: reader.position,
        stated_result: reader.stated_result,
        comments: reader.comments,
        variations: reader.variations,
    })
}

/// Writes a game as a record in the seed's style: the header line, then numbered
/// rounds in `notation`, wrapped at 72 columns.
pub fn write<G: Game>(
    start: &G,
    moves: &[G::Move],
    header: Option<&str>,
    notation: G::Notation,
) -> String {
    write_with_comments(start, moves, header, notation, &[])
}

/// [`write`], with `comments[k]` (when there is one) as a `{comment}` after move k
/// (a `}` in it written as `)`, so that the comment ends where it should).
pub fn write_with_comments<G: Game>(
    start: &G,
    moves: &[G::Move],
    header: Option<&str>,
    notation: G::Notation,
    comments: &[Option<String>],
) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut position = start.clone();
    let mut round = position.round_number();
    let mut seat = position.to_move();
    let mut first = true;
    for (k, &mv) in moves.iter().enumerate() {
        while position.to_move() != seat {
            if seat == 0 {
                words.push(format!("{round}."));
            }
            words.push("-".to_string());
            seat = (seat + 1) % G::PLAYERS.len();
            if seat == 0 {
                round += 1;
            }
            first = false;
        }
        if seat == 0 {
            words.push(format!("{round}."));
        } else if first {
            words.push(format!("{round}. …"));
        }
        first = false;
        words.push(position.format_move(mv, notation));
        if let Some(Some(comment)) = comments.get(k) {
            words.push(format!("{{{}}}", comment.replace('}', ")")));
        }
        position.play(mv);
        seat = (seat + 1) % G::PLAYERS.len();
        if seat == 0 {
            round += 1;
        }
    }
    let mut out = String::new();
    // A game that starts elsewhere than the start position says where.
    if start.fen() != G::start().fen() {
        out.push_str(&format!("{POSITION_TAG}{}\"]\n", start.fen()));
    }
    if let Some(h) = header {
        out.push_str(h);
        out.push('\n');
    }
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > 72 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
