//! The arguments several commands share, as clap groups that each command flattens
//! into its own, and the one reader of `NAME=VALUE` settings (rule options, engine
//! options), so that every command takes and refuses them in the same words.

use crate::game::Game;
use crate::games;
use clap::Args;
use clap::builder::PossibleValuesParser;

use super::CliError;

/// The game a command works with.
#[derive(Args)]
pub struct GameChoice {
    #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
    pub game: String,
}

/// The game and the position a command starts from.
#[derive(Args)]
pub struct Setup {
    #[command(flatten)]
    pub game: GameChoice,
    /// Start from this position instead of the usual start.
    #[arg(long)]
    pub fen: Option<String>,
    /// A rule option, as name=value (repeatable); see protocol-spec/rules/.
    #[arg(long = "rule", value_name = "NAME=VALUE", value_parser = setting)]
    pub rules: Vec<Setting>,
}

/// The position a command works on: a setup, and moves played from it.
#[derive(Args)]
pub struct Line {
    #[command(flatten)]
    pub setup: Setup,
    /// Moves to play first, separated by spaces, in any accepted notation.
    #[arg(long)]
    pub moves: Option<String>,
}

impl Line {
    /// The position the setup gives with the moves played.
    pub fn position<G: Game>(&self) -> Result<G, CliError> {
        self.setup.position(self.moves.as_deref())
    }
}

/// An option given as `NAME=VALUE` (a rule option, an engine option), the name and
/// value trimmed.
#[derive(Clone, Debug)]
pub struct Setting {
    pub name: String,
    pub value: String,
}

/// Reads a `NAME=VALUE` argument.
pub fn setting(text: &str) -> Result<Setting, SettingError> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| SettingError(text.to_string()))?;
    Ok(Setting {
        name: name.trim().to_string(),
        value: value.trim().to_string(),
    })
}

/// An argument that should be `NAME=VALUE` and is not.
#[derive(Debug)]
pub struct SettingError(String);

impl std::fmt::Display for SettingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an option is NAME=VALUE, not {:?}", self.0)
    }
}

impl std::error::Error for SettingError {}

/// Engine options for the search a command runs.
#[derive(Args)]
pub struct EngineOptions {
    /// An engine option, as name=value (repeatable); `ludus` without a command lists
    /// each game's with `list_options` (protocol-spec/protocol.md).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = setting)]
    pub options: Vec<Setting>,
}

/// How self-play games are played, for the commands that play them (datagen, wdl).
#[derive(Args)]
pub struct SelfPlay {
    /// Nodes a move.
    #[arg(long, default_value_t = 5_000)]
    pub nodes: u64,
    /// Random moves (plies) from the start before the engines play.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// The random seed: game k of a seed is the same game in every run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// A game is a draw after this many plies of the engine.
    #[arg(long, default_value_t = 600)]
    pub max_plies: usize,
    #[command(flatten)]
    pub options: EngineOptions,
}

impl SelfPlay {
    /// The games played at once.
    pub fn threads(&self) -> usize {
        self.concurrency.unwrap_or_else(cores)
    }

    /// The engine options given, as (name, value).
    pub fn named_options(&self) -> Vec<(String, String)> {
        self.options
            .options
            .iter()
            .map(|s| (s.name.clone(), s.value.clone()))
            .collect()
    }
}

/// The cores this process may use: the default number of workers (datagen, train).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One limit per search, for commands that compare searches (tree, match): a time, a
/// depth or a node count.
#[derive(Args)]
pub struct OneLimit {
    /// Milliseconds per search.
    #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub movetime: Option<u64>,
    /// Plies per search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64), conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Nodes per search.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
}

impl Setup {
    /// The position the arguments give, with its rule options set and `moves` (any
    /// notation the game reads, separated by spaces) played.
    pub fn position<G: Game>(&self, moves: Option<&str>) -> Result<G, CliError> {
        let mut position = match &self.fen {
            Some(text) => G::from_fen(text).map_err(|error| CliError::Position {
                game: G::NAME,
                error,
            })?,
            None => G::start(),
        };
        for rule in &self.rules {
            position.set_rule_option(&rule.name, &rule.value)?;
        }
        for text in moves.unwrap_or("").split_whitespace() {
            let mv = position.parse_move(text)?;
            position.play(mv);
        }
        Ok(position)
    }
}

/// The text of a record file, or of standard input for `-`.
pub fn read_record(file: &str) -> Result<String, super::CliError> {
    use super::CliError;
    if file == "-" {
        return Ok(crate::record::read_text(std::io::stdin().lock())?);
    }
    let opened =
        std::fs::File::open(file).map_err(|e| CliError::unreadable(CliError::in_file(file, e)))?;
    crate::record::read_text(opened).map_err(|e| CliError::in_file(file, e))
}
