//! Reading request lines: `[id] command [args...]`.

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

/// The deepest count (`perft`, `divide`, UCI's `go perft`).
pub const MAX_COUNT_DEPTH: u32 = 64;

/// Reads the depth of a count, `least` to [`MAX_COUNT_DEPTH`]: every dialect words its
/// refusal this way.
pub fn count_depth(text: Option<&str>, least: u32) -> Result<u32, String> {
    let text = text.ok_or("the depth is missing")?;
    text.parse::<u32>()
        .ok()
        .filter(|d| (least..=MAX_COUNT_DEPTH).contains(d))
        .ok_or_else(|| {
            format!(
                "the depth must be a number from {least} to {MAX_COUNT_DEPTH}, not {:?}",
                crate::game::quoted(text)
            )
        })
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
pub fn position_setup(args: &[String]) -> Result<(Option<String>, &[String]), String> {
    let (setup, moves) = match args.iter().position(|a| a == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    match setup.first().map(String::as_str) {
        Some("startpos") if setup.len() == 1 => Ok((None, moves)),
        Some("fen") if setup.len() > 1 => Ok((Some(setup[1..].join(" ")), moves)),
        _ => Err("position takes startpos or fen <position>, then moves ...".into()),
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
