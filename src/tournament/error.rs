//! Why a match could not be set up or finished: mistakes in the command (engines,
//! openings, the SPRT, the clock), engines that cannot start, files that cannot be
//! read or written. A game an engine breaks is no error: it is a forfeit.

use std::fmt;
use std::path::PathBuf;

use crate::files::{FileError, shown};
use crate::game::{MoveError, OptionError, PositionError};

/// A mistake in one `--engine` argument (engines counted from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub engine: usize,
    pub problem: SpecProblem,
}

/// What is wrong with an `--engine` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecProblem {
    /// The command line cannot be split into words.
    Split {
        value: String,
        why: String,
    },
    EmptyName,
    /// A setting's value is not one it takes; `takes` says what it takes.
    Value {
        key: &'static str,
        takes: &'static str,
        value: String,
    },
    UnknownSetting(String),
    NoCommand,
    DepthAndNodes,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine {}: ", self.engine)?;
        match &self.problem {
            SpecProblem::Split { value, why } => write!(f, "cannot split {value:?}: {why}"),
            SpecProblem::EmptyName => f.write_str("an empty name"),
            SpecProblem::Value { key, takes, value } => {
                write!(f, "{key} takes {takes}, not {value:?}")
            }
            SpecProblem::UnknownSetting(key) => write!(
                f,
                "unknown setting {key:?} (cmd, name, proto, depth, nodes, ponder, option.<name>)"
            ),
            SpecProblem::NoCommand => f.write_str("no command"),
            SpecProblem::DepthAndNodes => f.write_str("depth or nodes, not both"),
        }
    }
}

/// An engine's program that could not be started.
#[derive(Debug)]
pub struct StartError {
    pub command: String,
    pub error: std::io::Error,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot start {}: {}", self.command, self.error)
    }
}

/// Why an opening line cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    Position(PositionError),
    Rule(OptionError),
    Move(MoveError),
    GameOver,
    /// In an openings file: the line (from 1) and why.
    Line {
        line: usize,
        error: Box<OpeningError>,
    },
    /// The openings file has none.
    Empty,
    /// A game names an opening (from 0) the match does not have.
    NoSuchOpening(usize),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Position(e) => e.fmt(f),
            OpeningError::Rule(e) => e.fmt(f),
            OpeningError::Move(e) => e.fmt(f),
            OpeningError::GameOver => f.write_str("the game is over after the opening"),
            OpeningError::Line { line, error } => write!(f, "opening on line {line}: {error}"),
            OpeningError::Empty => f.write_str("the openings file holds no opening"),
            OpeningError::NoSuchOpening(n) => {
                write!(f, "the match has no opening {}", n + 1)
            }
        }
    }
}

/// Why the SPRT's settings were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    NotNameValue(String),
    UnknownSetting(String),
    NotANumber {
        key: String,
        value: String,
    },
    Missing,
    /// elo0 < elo1 and alpha, beta in (0, 0.5) do not hold.
    OutOfRange,
    NotPositive,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotNameValue(word) => {
                write!(f, "the SPRT takes name=value words, not {word:?}")
            }
            SprtError::UnknownSetting(key) => {
                write!(f, "unknown SPRT setting {key:?} (elo0, elo1, alpha, beta)")
            }
            SprtError::NotANumber { key, value } => {
                write!(f, "{key} takes a number, not {value:?}")
            }
            SprtError::Missing => f.write_str("the SPRT needs elo0, elo1, alpha and beta"),
            SprtError::OutOfRange => {
                f.write_str("the SPRT needs elo0 < elo1 and alpha, beta in (0, 0.5)")
            }
            SprtError::NotPositive => f.write_str("the SPRT needs alpha and beta above 0"),
        }
    }
}

/// A time control that is not `[moves/]seconds[+increment]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockError(pub String);

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a time control is [moves/]seconds[+increment], not {:?}",
            self.0
        )
    }
}

/// Why a match stopped before it was played out.
#[derive(Debug)]
pub enum MatchError {
    /// The game takes `wanted` engines.
    EngineCount {
        game: &'static str,
        wanted: usize,
        given: usize,
    },
    NoGames,
    SprtNeedsTwo,
    Opening {
        opening: String,
        error: OpeningError,
    },
    /// An engine that cannot start or refuses its setup (its name and why).
    Engine {
        name: String,
        why: String,
    },
    /// A file the match reads or writes (`option` names it) that cannot serve.
    File {
        option: &'static str,
        error: FileError,
    },
    /// A state file that is damaged: it is left as it is.
    StateUnreadable {
        path: PathBuf,
        why: String,
    },
    StateOfAnotherMatch(PathBuf),
    Write {
        path: PathBuf,
        why: String,
    },
    /// The standard output was closed by its reader: the command ends quietly.
    OutputClosed,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::EngineCount {
                game,
                wanted,
                given,
            } => write!(f, "{game} takes {wanted} engines, not {given}"),
            MatchError::NoGames => f.write_str("a match needs at least one game"),
            MatchError::SprtNeedsTwo => f.write_str("the SPRT needs two engines"),
            MatchError::Opening { opening, error } => write!(f, "opening {opening:?}: {error}"),
            MatchError::Engine { name, why } => write!(f, "engine {name}: {why}"),
            MatchError::File { option, error } => write!(f, "cannot use {option}: {error}"),
            MatchError::StateUnreadable { path, why } => write!(
                f,
                "the state file {} is damaged ({why}); it is left as it is: remove it or \
                 name another",
                shown(path)
            ),
            MatchError::StateOfAnotherMatch(path) => write!(
                f,
                "the state file {} belongs to another match; remove it or name another",
                shown(path)
            ),
            MatchError::Write { path, why } => write!(f, "cannot write {}: {why}", shown(path)),
            MatchError::OutputClosed => f.write_str("the output was closed"),
        }
    }
}

impl std::error::Error for SpecError {}
impl std::error::Error for StartError {}
impl std::error::Error for OpeningError {}
impl std::error::Error for SprtError {}
impl std::error::Error for ClockError {}
impl std::error::Error for MatchError {}
