//! Why the engine refused a request: one variant per kind of refusal, carrying what was
//! wrong; `Display` gives the message every front end prints. A refused request
//! changes nothing.

use std::fmt;
use std::time::Duration;

use super::any_game::GameError;
use crate::game::{MoveError, OptionError, quote, quoted};

/// A refusal at the engine's boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The game refused: a position, a move, an undo, a notation, a record, a rule
    /// option's value, the hash table's memory.
    Game(GameError),
    /// A search limit could not be read or used.
    Limit(LimitError),
    /// No option of that name; `game`: the game whose options `known` are (`None`:
    /// the options of every game served).
    UnknownOption {
        name: String,
        game: Option<&'static str>,
        known: Vec<&'static str>,
    },
    /// An option's value is not one it takes.
    OptionValue(OptionError),
    /// A value the option takes, but above what this session may use.
    AboveSessionLimit {
        name: &'static str,
        /// The largest value allowed, with its unit.
        limit: String,
        value: String,
    },
    /// An option naming files on the machine that serves the session, which only the
    /// server sets.
    ServerFiles { name: String },
    /// No game of that name is served here.
    UnknownGame {
        name: String,
        served: Vec<&'static str>,
    },
    /// The request needs a game that is not over.
    GameOver,
    /// `ponderhit` without a search that ponders.
    NotPondering,
    /// A search asked to play its move was stopped while it pondered (before
    /// `ponderhit`): the reply it pondered on did not come, so it played nothing.
    PonderStopped,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Game(e) => e.fmt(f),
            EngineError::Limit(e) => e.fmt(f),
            EngineError::UnknownOption { name, game, known } => {
                write!(f, "unknown option {}", quote(name))?;
                match game {
                    Some(game) => write!(f, " ({game} has {})", known.join(", ")),
                    None => write!(f, " (the options are {})", known.join(", ")),
                }
            }
            EngineError::OptionValue(e) => e.fmt(f),
            EngineError::AboveSessionLimit { name, limit, value } => write!(
                f,
                "{name} is at most {limit} in this session, not {}",
                quoted(value)
            ),
            EngineError::ServerFiles { name } => write!(
                f,
                "{} names files on the server, which only the server sets in this session",
                quote(name)
            ),
            EngineError::UnknownGame { name, served } => {
                write!(f, "unknown game {} ({})", quote(name), served.join(", "))
            }
            EngineError::GameOver => f.write_str("the game is over"),
            EngineError::NotPondering => f.write_str("ponderhit: no search is pondering"),
            EngineError::PonderStopped => {
                f.write_str("stopped while pondering, before ponderhit: no move played")
            }
        }
    }
}

impl std::error::Error for EngineError {}

impl From<GameError> for EngineError {
    fn from(e: GameError) -> Self {
        EngineError::Game(e)
    }
}

impl From<LimitError> for EngineError {
    fn from(e: LimitError) -> Self {
        EngineError::Limit(e)
    }
}

impl From<OptionError> for EngineError {
    fn from(e: OptionError) -> Self {
        EngineError::OptionValue(e)
    }
}

/// Why a search limit was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitError {
    /// The limit's number is missing; `unit` names what it counts (may be empty).
    Missing { what: String, unit: &'static str },
    /// The limit takes a number, not `text`.
    NotANumber {
        what: String,
        text: String,
        unit: &'static str,
    },
    /// A number outside `min..=max`; `why` says which side for numbers that do not
    /// fit at all (`negative`, `too large`).
    OutOfRange {
        what: String,
        text: String,
        why: Option<&'static str>,
        min: u64,
        max: u64,
        unit: &'static str,
    },
    /// `time` or `inc` without a player.
    MissingPlayer { what: String },
    /// `go notation` naming no notation.
    MissingNotation,
    /// `time` or `inc` naming no player of the game.
    UnknownPlayer {
        what: String,
        text: String,
        players: &'static [&'static str],
    },
    /// A word that is no limit.
    Unknown(String),
    /// A move of `searchmoves` that is not a legal move here.
    SearchMove { text: String, error: MoveError },
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let of = |unit: &str| {
            if unit.is_empty() {
                String::new()
            } else {
                format!(" of {unit}")
            }
        };
        match self {
            LimitError::Missing { what, unit } => write!(f, "{what} needs a number{}", of(unit)),
            LimitError::NotANumber { what, text, unit } => {
                write!(f, "{what} needs a number{}, not {}", of(unit), quote(text))
            }
            LimitError::OutOfRange {
                what,
                text,
                why,
                min,
                max,
                unit,
            } => {
                write!(f, "{what} is out of range")?;
                if let Some(why) = why {
                    write!(f, " ({why})")?;
                }
                let per = if unit.is_empty() {
                    String::new()
                } else {
                    format!(" {unit}")
                };
                write!(f, ": {} ({min} to {max}{per})", quoted(text))
            }
            LimitError::MissingPlayer { what } => write!(f, "{what} needs a player"),
            LimitError::MissingNotation => {
                f.write_str("notation needs the name of one of the game's notations")
            }
            LimitError::UnknownPlayer {
                what,
                text,
                players,
            } => write!(
                f,
                "{what} names a player of this game ({}), not {}",
                players.join(", "),
                quote(text)
            ),
            LimitError::Unknown(word) => write!(f, "unknown go limit {}", quote(word)),
            LimitError::SearchMove { text, error } => {
                write!(f, "searchmoves {}: {error}", quoted(text))
            }
        }
    }
}

impl std::error::Error for LimitError {}

/// Work stopped by the session's limit on work, as `stop` would have stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitReached(pub Duration);

impl fmt::Display for LimitReached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stopped at this session's limit of {} s on a search or count",
            self.0.as_secs_f64()
        )
    }
}

/// A count (`perft`, `divide`) stopped before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountStopped {
    /// Set when the session's limit stopped it (not a `stop` sent).
    pub at_limit: Option<LimitReached>,
}

impl fmt::Display for CountStopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at_limit {
            Some(limit) => write!(f, "{limit}, before the count was complete"),
            None => f.write_str("stopped before the count was complete"),
        }
    }
}
