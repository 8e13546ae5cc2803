//! Reading request lines: `[id] command [args...]`, and why a request is refused.

use std::fmt;

use crate::engine::{EngineError, GameError};
use crate::game::{quote, quoted};

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::take_till1,
    character::complete::{digit1, space0, space1},
    combinator::{eof, opt},
    multi::separated_list0,
    sequence::terminated,
};

/// One request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The id's digits as sent (`007` stays `007`), echoed in the reply.
    pub id: Option<String>,
    /// The command name, lower case.
    pub command: String,
    /// The command name as written, for a reply that names it.
    pub written: String,
    pub args: Vec<String>,
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c == ' ' || c == '\t').parse(input)
}

/// An id: digits, however many, followed by a space or the end of the line.
fn id(input: &str) -> IResult<&str, &str> {
    terminated(digit1, alt((space1, eof))).parse(input)
}

/// Reads a request from a line (without its line ending). `None` for a blank line and
/// for an id alone (see [`lone_id`]).
pub fn parse(line: &str) -> Option<Request> {
    let parsed: IResult<&str, (Option<&str>, Vec<&str>)> =
        (space0, opt(id), separated_list0(space1, word), space0)
            .map(|(_, id, words, _)| (id, words))
            .parse(line);
    let (_, (id, words)) = parsed.ok()?;
    let (command, args) = words.split_first()?;
    Some(Request {
        id: id.map(String::from),
        command: command.to_ascii_lowercase(),
        written: command.to_string(),
        args: args.iter().map(|s| s.to_string()).collect(),
    })
}

/// Why a request was refused: its own form, or the engine's refusal of what it asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestError {
    /// The engine refused.
    Engine(EngineError),
    /// The request is not in its command's form; the text says what the form is.
    Usage(String),
    UnknownCommand(String),
    /// A word that is not one of those the command takes.
    NotOneOf {
        what: &'static str,
        takes: &'static str,
        text: String,
    },
    /// A number from `least` to `most` is missing (`text` none) or is not one.
    Number {
        what: &'static str,
        least: u64,
        most: u64,
        text: Option<String>,
    },
    /// An id and nothing else.
    IdWithoutCommand,
    /// A line that is no request (too long, not UTF-8): why.
    Unreadable(String),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Engine(e) => e.fmt(f),
            RequestError::Usage(text) | RequestError::Unreadable(text) => f.write_str(text),
            RequestError::UnknownCommand(name) => write!(f, "unknown command: {}", quoted(name)),
            RequestError::NotOneOf { what, takes, text } => {
                write!(f, "{what} takes {takes}, not {}", quote(text))
            }
            RequestError::Number {
                what, text: None, ..
            } => write!(f, "{what} is missing"),
            RequestError::Number {
                what,
                least,
                most,
                text: Some(text),
            } => write!(
                f,
                "{what} must be a number from {least} to {most}, not {}",
                quote(text)
            ),
            RequestError::IdWithoutCommand => f.write_str("the request has an id but no command"),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<EngineError> for RequestError {
    fn from(e: EngineError) -> Self {
        RequestError::Engine(e)
    }
}

impl From<GameError> for RequestError {
    fn from(e: GameError) -> Self {
        RequestError::Engine(e.into())
    }
}

/// The deepest count (`perft`, `divide`, UCI's `go perft`).
pub const MAX_COUNT_DEPTH: u32 = 64;

/// Reads a number from `least` to `most`.
pub fn number(
    what: &'static str,
    text: Option<&str>,
    least: u64,
    most: u64,
) -> Result<u64, RequestError> {
    let refused = |text: Option<&str>| RequestError::Number {
        what,
        least,
        most,
        text: text.map(String::from),
    };
    let text = text.ok_or_else(|| refused(None))?;
    text.parse::<u64>()
        .ok()
        .filter(|n| (least..=most).contains(n))
        .ok_or_else(|| refused(Some(text)))
}

/// Reads the depth of a count, `least` to [`MAX_COUNT_DEPTH`]: every dialect words its
/// refusal this way.
pub fn count_depth(text: Option<&str>, least: u32) -> Result<u32, RequestError> {
    number(
        "the depth",
        text,
        u64::from(least),
        u64::from(MAX_COUNT_DEPTH),
    )
    .map(|d| d as u32)
}

/// The words of a line (runs of characters other than spaces and tabs).
pub fn words(line: &str) -> Vec<String> {
    let parsed: IResult<&str, Vec<&str>> = (space0, separated_list0(space1, word), space0)
        .map(|(_, words, _)| words)
        .parse(line);
    parsed
        .map(|(_, words)| words.into_iter().map(String::from).collect())
        .unwrap_or_default()
}

/// The arguments of `setoption name <name> [value <value>]`: the name and the value
/// (empty when there is none); both may contain spaces. `None` without `name`.
pub fn option_setting(args: &[String]) -> Option<(String, String)> {
    if !args.first()?.eq_ignore_ascii_case("name") {
        return None;
    }
    let value_at = args
        .iter()
        .position(|a| a.eq_ignore_ascii_case("value"))
        .unwrap_or(args.len());
    let name = args[1..value_at].join(" ");
    let value = args.get(value_at + 1..).unwrap_or_default().join(" ");
    (!name.is_empty()).then_some((name, value))
}

/// The arguments of `position startpos|fen <position> [moves ...]`: the position
/// (`None`: the start) and the moves.
pub fn position_setup(args: &[String]) -> Result<(Option<String>, &[String]), RequestError> {
    let (setup, moves) = match args.iter().position(|a| a == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    match setup.first().map(String::as_str) {
        Some("startpos") if setup.len() == 1 => Ok((None, moves)),
        Some("fen") if setup.len() > 1 => Ok((Some(setup[1..].join(" ")), moves)),
        _ => Err(RequestError::Usage(
            "position takes startpos or fen <position>, then moves ...".into(),
        )),
    }
}

/// The id of a line that holds an id and nothing else (`5 `), which deserves an error
/// naming the id rather than silence.
pub fn lone_id(line: &str) -> Option<&str> {
    let parsed: IResult<&str, &str> = (space0, id, space0).map(|(_, id, _)| id).parse(line);
    match parsed {
        Ok(("", id)) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_commands_and_arguments() {
        assert_eq!(
            parse("12 position\tfen  x y"),
            Some(Request {
                id: Some("12".into()),
                command: "position".into(),
                written: "position".into(),
                args: vec!["fen".into(), "x".into(), "y".into()],
            })
        );
        assert_eq!(parse("  PING 5 ").unwrap().command, "ping");
        assert_eq!(parse("  PING 5 ").unwrap().written, "PING");
        assert_eq!(parse("").map(|r| r.command), None);
        assert_eq!(parse(" \t ").map(|r| r.command), None);
        // A number alone is an id without a command; ids are kept as sent.
        assert_eq!(parse("42"), None);
        assert_eq!(lone_id(" 42 "), Some("42"));
        assert_eq!(parse("007 name").unwrap().id.as_deref(), Some("007"));
        let long = "123456789012345678901234567890 name";
        assert_eq!(parse(long).unwrap().id.unwrap().len(), 30);
        assert_eq!(words(" go\twtime  5 "), vec!["go", "wtime", "5"]);
        assert!(words("  ").is_empty());
    }
}
