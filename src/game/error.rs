//! The refusals every game shares: a position, a move or an option that could not be
//! read or is not allowed, and a choice the game does not offer. One type per fault,
//! each with one wording, so that every front end refuses the same way.

use std::fmt;

use super::text::{in_words, quoted};

/// What kind of fault made a position text unacceptable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionFault {
    /// There is no text at all.
    Empty,
    /// The text is not in the game's position format (fields, letters, numbers).
    Syntax,
    /// The text is well formed, but no game can be in that position: a missing king,
    /// a pawn on its last rank, the wrong number of counters.
    Impossible,
}

/// A position that could not be read: what kind of fault, and a text that names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub fault: PositionFault,
    pub detail: String,
}

impl PositionError {
    /// The text is not in the position format.
    pub fn syntax(detail: impl Into<String>) -> Self {
        PositionError {
            fault: PositionFault::Syntax,
            detail: detail.into(),
        }
    }

    /// The text is well formed but describes a position the rules forbid.
    pub fn impossible(detail: impl Into<String>) -> Self {
        PositionError {
            fault: PositionFault::Impossible,
            detail: detail.into(),
        }
    }

    /// The text is empty.
    pub fn empty() -> Self {
        PositionError {
            fault: PositionFault::Empty,
            detail: "empty position".to_string(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for PositionError {}

/// A rule or engine option that could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The game has no rule option of that name; `known` are the ones it has.
    UnknownRule {
        game: &'static str,
        name: String,
        known: Vec<&'static str>,
    },
    /// The game's engine has no option of that name.
    UnknownEngine { game: &'static str, name: String },
    /// The option does not take that value; `takes` says what it does take.
    BadValue {
        name: String,
        value: String,
        takes: String,
    },
    /// The value names something that cannot be used (a folder of files): `why`.
    Unusable {
        name: String,
        value: String,
        why: String,
    },
}

impl OptionError {
    /// The value is not one `name` takes.
    pub fn bad_value(name: &str, value: &str, takes: impl Into<String>) -> Self {
        OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            takes: takes.into(),
        }
    }

    /// `value` of `name` names something that cannot be used, for the reason `why`.
    pub fn unusable(name: &str, value: &str, why: impl fmt::Display) -> Self {
        OptionError::Unusable {
            name: name.to_string(),
            value: value.to_string(),
            why: why.to_string(),
        }
    }

    /// `game` has no rule option `name` among `options`.
    pub fn unknown_rule<G: super::Game>(name: &str) -> Self {
        OptionError::UnknownRule {
            game: G::NAME,
            name: name.to_string(),
            known: G::RULE_OPTIONS.iter().map(|o| o.name).collect(),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownRule { game, name, known } => write!(
                f,
                "unknown rule option {:?} ({game} has {})",
                quoted(name),
                in_words(known)
            ),
            OptionError::UnknownEngine { game, name } => {
                write!(f, "{game} has no engine option {:?}", quoted(name))
            }
            OptionError::BadValue { name, value, takes } => {
                write!(f, "{name} takes {takes}, not {:?}", quoted(value))
            }
            OptionError::Unusable { name, value, why } => {
                write!(f, "{name} {:?} cannot be used: {why}", quoted(value))
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A move that could not be read or is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in any notation the game accepts.
    Syntax { text: String, why: String },
    /// The text reads as a move, but no legal move matches it.
    Illegal { text: String, why: String },
    /// The text matches more than one legal move.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
    /// The game is already over.
    GameOver { text: String },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, why } => {
                write!(f, "unreadable move: {} ({why})", quoted(text))
            }
            MoveError::Illegal { text, why } => {
                write!(f, "illegal move: {} ({why})", quoted(text))
            }
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move: {} (could be {})",
                    quoted(text),
                    candidates.join(", ")
                )
            }
            MoveError::GameOver { text } => {
                write!(f, "illegal move: {} (the game is over)", quoted(text))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// A choice the game does not offer: a diagram layer, a position form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    /// What was chosen: `diagram layer`, `position form`.
    pub kind: &'static str,
    pub game: &'static str,
    /// As asked, [`quoted`].
    pub name: String,
    /// What the game offers.
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = if self.known.is_empty() {
            "none".to_string()
        } else {
            self.known.join(", ")
        };
        write!(
            f,
            "unknown {} {:?} ({} has {known})",
            self.kind,
            quoted(&self.name),
            self.game
        )
    }
}

impl std::error::Error for UnknownChoice {}
