//! Reading request lines: `[id] command [args...]`.

use nom::{
    IResult, Parser,
    bytes::complete::take_till1,
    character::complete::{digit1, space0, space1},
    combinator::{map_res, opt},
    multi::separated_list0,
    sequence::terminated,
};

/// One request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: Option<u64>,
    /// The command name, lower case.
    pub command: String,
    pub args: Vec<String>,
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c == ' ' || c == '\t').parse(input)
}

fn id(input: &str) -> IResult<&str, u64> {
    terminated(map_res(digit1, str::parse::<u64>), space1).parse(input)
}

/// Reads a request from a line (without its line ending). `None` for a blank line.
pub fn parse(line: &str) -> Option<Request> {
    let parsed: IResult<&str, (Option<u64>, Vec<&str>)> =
        (space0, opt(id), separated_list0(space1, word), space0)
            .map(|(_, id, words, _)| (id, words))
            .parse(line);
    let (_, (id, words)) = parsed.ok()?;
    let (command, args) = words.split_first()?;
    Some(Request {
        id,
        command: command.to_ascii_lowercase(),
        args: args.iter().map(|s| s.to_string()).collect(),
    })
}

/// The id of a line that holds an id and nothing else (`5 `), which deserves an error
/// naming the id rather than silence.
pub fn lone_id(line: &str) -> Option<u64> {
    let parsed: IResult<&str, u64> = (space0, id, space0).map(|(_, id, _)| id).parse(line);
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
                id: Some(12),
                command: "position".into(),
                args: vec!["fen".into(), "x".into(), "y".into()],
            })
        );
        assert_eq!(parse("  PING 5 ").unwrap().command, "ping");
        assert_eq!(parse("").map(|r| r.command), None);
        assert_eq!(parse(" \t ").map(|r| r.command), None);
        // A number alone is a command, not an id.
        assert_eq!(parse("42").unwrap().command, "42");
    }
}
