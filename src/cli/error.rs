//! The one error of the command line: each command's typed errors convert into it
//! with `?`, it prints as `ludus: <message>` on standard error, and it knows the exit
//! code its kind of failure ends the process with.

use std::fmt;
use std::path::PathBuf;

use crate::game::{MoveError, OptionError, PositionError, UnknownChoice};
use crate::games::mangala::endgame::{TableFileError, VerifyError};
use crate::learning::train::TrainError;
use crate::record::{ReadError, RecordError};
use crate::tournament::{ClockError, MatchError, MergeError, OpeningError, SpecError, SprtError};

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// A game name clap let through but the registry does not know (cannot happen
    /// while both read [`crate::games::NAMES`]).
    UnknownGame(String),
    /// `--fen` is not a position of the game.
    Position {
        game: &'static str,
        error: PositionError,
    },
    /// A refusal of the command itself: its arguments do not fit together, or there
    /// is nothing to do.
    Refused(Refusal),
    /// A file named on the command line failed, with the file it concerns.
    In { path: String, error: Box<CliError> },
    /// A file could not be read (the error names it).
    Unreadable(Box<CliError>),
    /// A file could not be written.
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A typed error of the library's, as its own type (the exit code looks into
    /// it).
    Failed(Box<dyn std::error::Error>),
}

/// What a command refuses of its own accord.
#[derive(Debug)]
pub enum Refusal {
    /// `ludus search` of a finished game.
    GameOver,
    /// `ludus perft --divide --depth 0`.
    DivideAtDepthZero,
    /// `ludus endgame` with neither `--counters` nor `--verify`.
    NoEndgameWork,
    /// `ludus endgame --counters N` beyond what is built in memory, without `--write`.
    TablesNeedFiles { counters: u32, in_memory: usize },
    /// `ludus match` without a limit.
    NoMatchLimit,
    /// `ludus match merge` of summaries of a game ludus does not play.
    MergedUnknownGame(String),
    /// `ludus openings` could not find as many distinct openings as asked.
    TooFewOpenings {
        count: usize,
        plies: usize,
        found: usize,
        tries: usize,
        game: &'static str,
    },
    /// `ludus tune` of a game whose evaluation has no tunable terms.
    NotTunable(&'static str),
    /// `ludus tune fit -` with more on standard input than is read.
    InputTooLarge(u64),
    /// `ludus tune fit` or `ludus wdl` with too few positions.
    TooFewSamples { file: String, count: usize },
    /// `ludus wdl --data` for a game without `ludus datagen` files.
    NoDataFiles(&'static str),
    /// `ludus review --rule`: the analysis plays the default rules.
    ReviewRules,
    /// `ludus wdl --matches` found no scored move of a finished two-player game.
    NoScoredMoves,
    /// `ludus wdl --matches` given the summary of another game's match.
    SummaryOfOtherGame { found: String, wanted: &'static str },
}

impl CliError {
    /// The exit code the process ends with: 141 when the output was closed (as a
    /// shell reports a command ended by SIGPIPE: 128 + 13), else 1.
    pub fn exit_code(&self) -> u8 {
        // 141: as a shell reports a process ended by SIGPIPE.
        if self.is_quiet() { 141 } else { 1 }
    }

    /// Whether the failure is worth a message: not when the output was closed, the
    /// reader having gone.
    pub fn is_quiet(&self) -> bool {
        match self {
            CliError::Failed(error) => matches!(
                error.downcast_ref::<MatchError>(),
                Some(MatchError::OutputClosed)
            ),
            _ => false,
        }
    }

    /// A file that could not be read, for `error`.
    pub fn unreadable(error: impl Into<CliError>) -> CliError {
        CliError::Unreadable(Box::new(error.into()))
    }

    /// The error, as concerning the file `path`.
    pub fn in_file(path: impl fmt::Display, error: impl Into<CliError>) -> CliError {
        CliError::In {
            path: path.to_string(),
            error: Box::new(error.into()),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::UnknownGame(name) => write!(f, "ludus does not play {name:?}"),
            CliError::Position { game, error } => write!(f, "invalid {game} position: {error}"),
            CliError::Refused(refusal) => refusal.fmt(f),
            CliError::In { path, error } => write!(f, "{path}: {error}"),
            CliError::Unreadable(error) => write!(f, "cannot read {error}"),
            CliError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            CliError::Failed(error) => error.fmt(f),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver => f.write_str("the game is over: there is nothing to search"),
            Refusal::DivideAtDepthZero => f.write_str("--divide needs a depth of at least 1"),
            Refusal::NoEndgameWork => f.write_str("--counters or --verify is needed"),
            Refusal::TablesNeedFiles {
                counters,
                in_memory,
            } => write!(
                f,
                "--counters {counters} needs --write DIR: above {in_memory} counters the \
                 tables are built into files"
            ),
            Refusal::NoMatchLimit => {
                f.write_str("a match needs --tc, --movetime, --depth or --nodes")
            }
            Refusal::MergedUnknownGame(game) => write!(
                f,
                "the summaries are of {game:?}, which ludus does not play"
            ),
            Refusal::TooFewOpenings {
                count,
                plies,
                found,
                tries,
                game,
            } => write!(
                f,
                "cannot make {count} distinct openings of {plies} plies: {found} found in \
                 {tries} random games ({game} ends sooner, or has fewer such lines)"
            ),
            Refusal::NotTunable(game) => write!(f, "{game}'s evaluation cannot be tuned"),
            Refusal::InputTooLarge(limit) => write!(
                f,
                "standard input holds more than {limit} bytes, the most read"
            ),
            Refusal::TooFewSamples { file, count } => write!(
                f,
                "{file} holds {count} positions; the fit needs 10 or more"
            ),
            Refusal::ReviewRules => f.write_str(
                "review analyses with the game's default rules: --rule is not taken",
            ),
            Refusal::NoScoredMoves => f.write_str(
                "the summaries hold no scored move of a two-player game that ended by its rules or the move limit (the `evals` that `ludus match` keeps)",
            ),
            Refusal::SummaryOfOtherGame { found, wanted } => {
                write!(f, "this is a match of {found}, not of {wanted}")
            }
            Refusal::NoDataFiles(game) => write!(
                f,
                "--data reads `ludus datagen` files, which {game} has none of: leave it out to fit self-play games"
            ),
        }
    }
}

impl std::error::Error for CliError {}

impl From<Refusal> for CliError {
    fn from(refusal: Refusal) -> CliError {
        CliError::Refused(refusal)
    }
}

/// `From` each typed error of the library, so that a command's `?` converts it.
macro_rules! from_errors {
    ($($error:ty),+ $(,)?) => {
        $(
            impl From<$error> for CliError {
                fn from(error: $error) -> CliError {
                    CliError::Failed(Box::new(error))
                }
            }
        )+
    };
}

from_errors!(
    crate::engine::EngineError,
    crate::engine::GameError,
    OptionError,
    MoveError,
    UnknownChoice,
    crate::files::FileError,
    std::io::Error,
    serde_json::Error,
    ReadError,
    RecordError,
    crate::bench::BenchError,
    crate::web::ServeError,
    MatchError,
    MergeError,
    SpecError,
    SprtError,
    ClockError,
    OpeningError,
    TableFileError,
    VerifyError,
    crate::learning::datagen::DatagenError,
    TrainError,
    crate::learning::tuning::SampleError,
);
