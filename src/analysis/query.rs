//! Reading one line of `ludus analysis` input: a query, or an action on queries.
//!
//! Every field is checked before anything runs, so that a query either runs whole or
//! not at all; an error names the field (`moves[3]`, `overrideSettings.Hash`) and the
//! bound it broke. Unknown fields are reported as warnings and the rest runs.

use std::fmt;

use serde_json::{Map, Value};

use crate::engine::{Engine, GameError};

/// The most moves a query's game may have.
pub const MAX_MOVES: usize = 10_000;
/// The most turns one query may analyse.
pub const MAX_TURNS: usize = 10_000;
/// The longest `maxTime`, in milliseconds (an hour).
pub const MAX_TIME_MS: u64 = 3_600_000;
/// The most nodes a turn may be given.
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// The deepest `maxDepth`.
pub const MAX_DEPTH: u64 = 64;
/// The most lines (`multiPV`).
pub const MAX_LINES: u64 = 64;
/// The most `overrideSettings` of one query.
pub const MAX_OVERRIDES: usize = 32;
/// The longest id, in characters.
pub const MAX_ID: usize = 256;

/// The limits of one turn's search; `None` leaves a limit to the command line's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
}

/// Which root moves a turn's search may play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RootMoves {
    #[default]
    All,
    /// Only these (those legal at the turn).
    Allow(Vec<String>),
    /// All but these.
    Avoid(Vec<String>),
}

/// A checked query: everything needed to analyse its turns.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    pub id: String,
    pub game: &'static str,
    /// The position text the moves start from; `None`: the game's start.
    pub initial_position: Option<String>,
    pub moves: Vec<String>,
    /// Plies into `moves` (0: before the first move), in the order given.
    pub turns: Vec<usize>,
    pub limits: TurnLimits,
    pub lines: usize,
    pub include_wdl: bool,
    pub root_moves: RootMoves,
    /// Higher first among what waits.
    pub priority: i64,
    /// Engine options for this query only, as (name, value).
    pub overrides: Vec<(String, String)>,
    /// Seconds between the reports of a search in progress; `None`: only the final.
    pub report_every: Option<f64>,
}

/// What one input line asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Analyse(Query),
    /// Stops the running and pending turns of the queries with `target`'s id (only
    /// those at the plies `turns`, when given).
    Terminate {
        id: String,
        target: String,
        turns: Option<Vec<usize>>,
    },
    QueryVersion {
        id: String,
    },
    ClearCache {
        id: String,
    },
}

/// A field that does not belong in a query, reported and ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub field: String,
}

/// Why a line is refused: nothing of it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not a JSON object.
    NotJson(String),
    /// A field is missing or wrong; `id` when the line had one.
    Field {
        id: Option<String>,
        field: String,
        error: String,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotJson(why) => write!(f, "not a JSON object: {why}"),
            LineError::Field { field, error, .. } => write!(f, "{field}: {error}"),
        }
    }
}

/// The fields a query may have (KataGo's names where the idea is the same).
const QUERY_FIELDS: &[&str] = &[
    "id",
    "game",
    "initialPosition",
    "moves",
    "analyzeTurns",
    "maxDepth",
    "maxNodes",
    "maxTime",
    "multiPV",
    "includeWDL",
    "allowMoves",
    "avoidMoves",
    "priority",
    "overrideSettings",
    "reportDuringSearchEvery",
];

/// A list of turn numbers, each at most `high` (`what` says what bounds it), in the
/// field `field`; `None` when the field is absent.
fn turn_numbers(
    fields: &serde_json::Map<String, Value>,
    (field, high, what): (&str, usize, &str),
    fail: &dyn Fn(&str, String) -> LineError,
) -> Result<Option<Vec<usize>>, LineError> {
    let items = match fields.get(field) {
        None => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(fail(field, "a list of turn numbers".into())),
    };
    if items.len() > MAX_TURNS {
        return Err(fail(field, format!("at most {MAX_TURNS} turns")));
    }
    let mut turns = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let turn = number(item, 0, high as u64)
            .map_err(|e| fail(&format!("{field}[{k}]"), format!("{e} ({what})")))?;
        turns.push(turn as usize);
    }
    Ok(Some(turns))
}

/// Reads one line: the request and the warnings of fields it ignores.
pub fn read(line: &str) -> Result<(Request, Vec<Warning>), LineError> {
    let value: Value = serde_json::from_str(line).map_err(|e| LineError::NotJson(e.to_string()))?;
    let Value::Object(fields) = value else {
        return Err(LineError::NotJson("a JSON value that is no object".into()));
    };
    let id = match fields.get("id") {
        Some(Value::String(id)) if id.chars().count() <= MAX_ID => id.clone(),
        Some(Value::String(_)) => {
            return Err(refused(None, "id", format!("at most {MAX_ID} characters")));
        }
        Some(_) => return Err(refused(None, "id", "must be a string".into())),
        None => return Err(refused(None, "id", "is required".into())),
    };
    let fail = |field: &str, error: String| refused(Some(id.clone()), field, error);
    if let Some(action) = fields.get("action") {
        let request = match action.as_str() {
            Some("terminate") => match fields.get("terminateId") {
                Some(Value::String(target)) => Request::Terminate {
                    id: id.clone(),
                    target: target.clone(),
                    turns: turn_numbers(
                        &fields,
                        ("turnNumbers", MAX_MOVES, "the most moves"),
                        &fail,
                    )?,
                },
                _ => return Err(fail("terminateId", "the id (a string) to terminate".into())),
            },
            Some("query_version") => Request::QueryVersion { id: id.clone() },
            Some("clear_cache") => Request::ClearCache { id: id.clone() },
            _ => {
                return Err(fail(
                    "action",
                    "one of terminate, query_version, clear_cache".into(),
                ));
            }
        };
        let known = ["id", "action", "terminateId", "turnNumbers"];
        return Ok((request, unknown_fields(&fields, &known)));
    }
    let query = read_query(id, &fields)?;
    Ok((
        Request::Analyse(query),
        unknown_fields(&fields, QUERY_FIELDS),
    ))
}

fn refused(id: Option<String>, field: &str, error: String) -> LineError {
    LineError::Field {
        id,
        field: field.to_string(),
        error,
    }
}

fn unknown_fields(fields: &Map<String, Value>, known: &[&str]) -> Vec<Warning> {
    fields
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .map(|k| Warning { field: k.clone() })
        .collect()
}

/// A whole number in `low..=high`, or the error naming the range.
fn number(value: &Value, low: u64, high: u64) -> Result<u64, String> {
    value
        .as_u64()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| format!("a whole number from {low} to {high}"))
}

fn strings(value: &Value, field: &str, most: usize) -> Result<Vec<String>, (String, String)> {
    let Value::Array(items) = value else {
        return Err((field.to_string(), "a list of strings".into()));
    };
    if items.len() > most {
        return Err((field.to_string(), format!("at most {most} entries")));
    }
    items
        .iter()
        .enumerate()
        .map(|(k, item)| {
            item.as_str()
                .map(String::from)
                .ok_or_else(|| (format!("{field}[{k}]"), "a string".into()))
        })
        .collect()
}

fn read_query(id: String, fields: &Map<String, Value>) -> Result<Query, LineError> {
    let fail = |field: &str, error: String| refused(Some(id.clone()), field, error);
    let fail_at = |(field, error): (String, String)| refused(Some(id.clone()), &field, error);
    let game = match fields.get("game") {
        None => crate::games::NAMES[0],
        Some(Value::String(name)) => crate::games::NAMES
            .iter()
            .copied()
            .find(|g| g.eq_ignore_ascii_case(name))
            .ok_or_else(|| fail("game", format!("one of {}", crate::games::NAMES.join(", "))))?,
        Some(_) => return Err(fail("game", "a string".into())),
    };
    let initial_position = match fields.get("initialPosition") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => return Err(fail("initialPosition", "a position text (a string)".into())),
    };
    let moves = match fields.get("moves") {
        None => Vec::new(),
        Some(v) => strings(v, "moves", MAX_MOVES).map_err(fail_at)?,
    };
    // The moves are played now, so that a bad one is named before anything runs.
    let mut table = crate::engine::new_game(game, 1).expect("a game of the registry");
    match table.set_position(initial_position.as_deref(), &moves) {
        Ok(()) => {}
        Err(GameError::ListedMove { index, error }) => {
            return Err(fail(&format!("moves[{}]", index - 1), error.to_string()));
        }
        Err(e) => return Err(fail("initialPosition", e.to_string())),
    }
    let turns = turn_numbers(
        fields,
        ("analyzeTurns", moves.len(), "the moves' count"),
        &fail,
    )?
    .unwrap_or_else(|| vec![moves.len()]);
    let limit = |field: &str, high: u64| -> Result<Option<u64>, LineError> {
        fields
            .get(field)
            .map(|v| number(v, 1, high).map_err(|e| fail(field, e)))
            .transpose()
    };
    let limits = TurnLimits {
        depth: limit("maxDepth", MAX_DEPTH)?.map(|d| d as u32),
        nodes: limit("maxNodes", MAX_NODES)?,
        time_ms: limit("maxTime", MAX_TIME_MS)?,
    };
    let lines = limit("multiPV", MAX_LINES)?.unwrap_or(1) as usize;
    let include_wdl = match fields.get("includeWDL") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(fail("includeWDL", "true or false".into())),
    };
    let root_moves = match (fields.get("allowMoves"), fields.get("avoidMoves")) {
        (Some(_), Some(_)) => {
            return Err(fail(
                "avoidMoves",
                "not with allowMoves: one or the other".into(),
            ));
        }
        (Some(v), None) => {
            let allowed = strings(v, "allowMoves", MAX_MOVES).map_err(fail_at)?;
            if allowed.is_empty() {
                return Err(fail("allowMoves", "at least one move".into()));
            }
            RootMoves::Allow(allowed)
        }
        (None, Some(v)) => RootMoves::Avoid(strings(v, "avoidMoves", MAX_MOVES).map_err(fail_at)?),
        (None, None) => RootMoves::All,
    };
    let priority = match fields.get("priority") {
        None => 0,
        Some(v) => v
            .as_i64()
            .ok_or_else(|| fail("priority", "a whole number".into()))?,
    };
    let overrides = match fields.get("overrideSettings") {
        None => Vec::new(),
        Some(Value::Object(settings)) => {
            if settings.len() > MAX_OVERRIDES {
                let most = format!("at most {MAX_OVERRIDES} settings");
                return Err(fail("overrideSettings", most));
            }
            let mut overrides = Vec::new();
            for (name, value) in settings {
                let field = format!("overrideSettings.{name}");
                let value = match value {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    _ => return Err(fail(&field, "a string, number or true/false".into())),
                };
                Engine::check_option(game, name, &value)
                    .map_err(|e| fail(&field, e.to_string()))?;
                overrides.push((name.clone(), value));
            }
            overrides
        }
        Some(_) => {
            return Err(fail(
                "overrideSettings",
                "an object of option values".into(),
            ));
        }
    };
    let report_every = match fields.get("reportDuringSearchEvery") {
        None => None,
        Some(v) => Some(
            v.as_f64()
                .filter(|s| (0.01..=3600.0).contains(s))
                .ok_or_else(|| {
                    fail(
                        "reportDuringSearchEvery",
                        "seconds, from 0.01 to 3600".into(),
                    )
                })?,
        ),
    };
    Ok(Query {
        id,
        game,
        initial_position,
        moves,
        turns,
        limits,
        lines,
        include_wdl,
        root_moves,
        priority,
        overrides,
        report_every,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: &str) -> (Option<String>, String, String) {
        match read(line).unwrap_err() {
            LineError::Field { id, field, error } => (id, field, error),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_query_is_read_with_its_defaults() {
        let (request, warnings) =
            read(r#"{"id": "a", "game": "mangala", "moves": ["A", "b"], "extra": 1}"#).unwrap();
        let Request::Analyse(query) = request else {
            panic!("{request:?}")
        };
        assert_eq!(query.game, "mangala");
        assert_eq!(query.turns, vec![2]);
        assert_eq!(query.lines, 1);
        assert_eq!(query.root_moves, RootMoves::All);
        assert_eq!(
            warnings,
            vec![Warning {
                field: "extra".into()
            }]
        );
    }

    #[test]
    fn bad_fields_are_named_with_their_bounds() {
        let (id, field, _) = error(r#"{"id": "q", "moves": ["e4e5", "zz"]}"#);
        assert_eq!((id.as_deref(), field.as_str()), (Some("q"), "moves[1]"));
        let (_, field, why) = error(r#"{"id": "q", "moves": ["e4e5"], "analyzeTurns": [0, 2]}"#);
        assert_eq!(field, "analyzeTurns[1]");
        assert!(why.contains("0 to 1"), "{why}");
        let (_, field, why) = error(r#"{"id": "q", "maxTime": 0}"#);
        assert_eq!(field, "maxTime");
        assert!(why.contains("1 to 3600000"), "{why}");
        let (_, field, _) = error(r#"{"id": "q", "overrideSettings": {"Hash": "x"}}"#);
        assert_eq!(field, "overrideSettings.Hash");
        let (id, field, _) = error(r#"{"moves": []}"#);
        assert_eq!((id, field.as_str()), (None, "id"));
        assert!(matches!(read("[1, 2"), Err(LineError::NotJson(_))));
    }

    #[test]
    fn actions_are_read() {
        let (request, _) =
            read(r#"{"id": "t", "action": "terminate", "terminateId": "a"}"#).unwrap();
        assert_eq!(
            request,
            Request::Terminate {
                id: "t".into(),
                target: "a".into(),
                turns: None
            }
        );
        let line =
            r#"{"id": "t", "action": "terminate", "terminateId": "a", "turnNumbers": [3, 1]}"#;
        let (request, warnings) = read(line).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(
            request,
            Request::Terminate {
                id: "t".into(),
                target: "a".into(),
                turns: Some(vec![3, 1])
            }
        );
        let line = r#"{"id": "t", "action": "terminate", "terminateId": "a", "turnNumbers": [-1]}"#;
        let (_, field, _) = error(line);
        assert_eq!(field, "turnNumbers[0]");
        let (_, field, _) = error(r#"{"id": "t", "action": "explode"}"#);
        assert_eq!(field, "action");
    }
}
