//! The rooms of the `ludus` command line: one file per command, each with its
//! arguments (a clap `Args` struct) and its `run`; [`args`] holds the argument groups
//! that several commands share and the one `NAME=VALUE` reader; [`error`] the one
//! error every command returns, which knows its exit code. [`main`] parses and
//! dispatches, for the `ludus` binary and for the Python package, which runs the same
//! command line in-process.

use clap::{Parser, Subcommand};

pub mod analysis;
pub mod args;
pub mod bench;
pub mod datagen;
pub mod diagram;
pub mod endgame;
pub mod error;
pub mod r#match;
pub mod openings;
pub mod perft;
pub mod protocol;
pub mod replay;
pub mod review;
pub mod search;
pub mod serve;
pub mod train;
pub mod tree;
pub mod tune;
pub mod wdl;

pub use error::CliError;

/// Runs the command line `args` (the program's name first) to its end: the exit
/// status. Logs go to stderr (`RUST_LOG`, default `info`).
pub fn main(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    // A second call in one process (the Python package's tests) keeps the first logger.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .try_init();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0, mistakes to stderr with 2.
            let _ = e.print();
            return e.exit_code() as u8;
        }
    };
    let Some(command) = cli.command else {
        protocol::run();
        return 0;
    };
    if !matches!(command, Command::Match(_)) {
        quiet_when_output_closes();
    }
    let result = match command {
        Command::Perft(args) => for_game(args),
        Command::Search(args) => for_game(*args),
        Command::Bench(args) => bench::run(args),
        Command::Analysis(args) => analysis::run(args),
        Command::Review(args) => for_game(args),
        Command::Tree(args) => for_game(args),
        Command::Endgame(args) => endgame::run(args),
        Command::Match(args) => r#match::run(*args),
        Command::Diagram(args) => for_game(args),
        Command::Datagen(args) => datagen::run(args),
        Command::Train(args) => train::run(args),
        Command::Openings(args) => for_game(args),
        Command::Serve(args) => serve::run(args),
        Command::Tune { action } => for_game(action),
        Command::Replay(args) => for_game(args),
        Command::Wdl(args) => for_game(args),
    };
    match result {
        Ok(()) => 0,
        Err(error) => {
            if !error.is_quiet() {
                eprintln!("ludus: {error}");
            }
            error.exit_code()
        }
    }
}

/// A subcommand whose output is closed (`ludus perft ... | head -1`) ends quietly, as
/// Unix tools do, by the default action of SIGPIPE, which Rust's runtime ignores (it
/// would then panic at the next write). Not for `ludus match`, which writes to its
/// engines: a broken engine must not end the referee.
fn quiet_when_output_closes() {
    // SAFETY: restoring a signal's default action has no preconditions; it is done
    // before any other thread runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "An engine for Sena-Mukha, Mentula and Mangala II"
)]
pub struct Cli {
    /// Without a command, ludus serves its line protocol on standard input and output.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Counts the leaves of the legal move tree (the last ply in bulk).
    Perft(perft::Args),
    /// Searches a position and prints the progress (info lines) and the best move.
    Search(Box<search::Args>),
    /// Searches fixed positions of all three games to a fixed depth and prints the
    /// total nodes (a signature of the search) and the speed.
    Bench(bench::Args),
    /// Analyses positions for scripts: one JSON query a line on standard input, one
    /// JSON response a line per analysed turn (protocol-spec/analysis.md).
    Analysis(analysis::Args),
    /// Reviews a game record: every move's loss of its player's chance, marks
    /// (inaccuracy, mistake, blunder) and each player's accuracy (protocol-spec/analysis.md).
    Review(review::Args),
    /// Measures the search tree: from the start and the first openings of a file, the
    /// nodes and time to each depth, the marginal cost of a ply, the move ordering's
    /// first-move cutoffs and the table's hits (protocol-spec/command-line.md).
    Tree(tree::Args),
    /// Builds the Mangala II endgame tables and prints, per counters on the board, the
    /// positions, how many have an exact value, the sweeps and the time taken; or
    /// checks table files (--verify).
    Endgame(endgame::Args),
    /// Plays a match between engines (two, or four for Mentula), refereed by ludus.
    Match(Box<r#match::Args>),
    /// Draws a position as SVG (the last of --moves marked).
    Diagram(diagram::Args),
    /// Plays self-play games of Sena-Mukha from random openings and appends their quiet
    /// positions, each with the search's score and the game's result, to a binary file
    /// for training an evaluation (protocol-spec/datagen.md); resumes a cut-off run.
    Datagen(datagen::Args),
    /// Trains a Sena-Mukha evaluation network on `ludus datagen` files and writes it
    /// (protocol-spec/command-line.md).
    Train(train::Args),
    /// Prints random openings for `ludus match --openings`: distinct lines of random
    /// legal moves from the start.
    Openings(openings::Args),
    /// Serves the board: a page for all three games, each browser tab an engine session
    /// of the native protocol over a WebSocket (protocol-spec/serve.md).
    Serve(serve::Args),
    /// Tunes the evaluation's weights to game results (Texel's method): `generate`
    /// plays self-play games and prints their quiet positions with results, `fit` fits
    /// the weights to them and prints the weights' source file.
    Tune {
        #[command(subcommand)]
        action: tune::Action,
    },
    /// Replays a game record and prints its moves, final position and result.
    Replay(replay::Args),
    /// Fits a game's win/draw/loss model (UCI_ShowWDL) to self-play games, or to
    /// `ludus datagen` files, and prints it with its calibration on held-out games.
    Wdl(wdl::Args),
}

/// A command that works with one game's types: [`for_game`] runs it with the game its
/// arguments name.
pub trait GameCommand {
    /// The game's name, as the arguments give it.
    fn game(&self) -> &str;
    fn run<G: crate::games::Play>(self) -> Result<(), CliError>;
}

/// Runs `command` with the position type of the game it names.
pub fn for_game(command: impl GameCommand) -> Result<(), CliError> {
    let game = command.game().to_string();
    struct Visit<C>(C);
    impl<C: GameCommand> crate::games::Visitor for Visit<C> {
        type Output = Result<(), CliError>;
        fn visit<G: crate::games::Play>(self) -> Self::Output {
            self.0.run::<G>()
        }
    }
    crate::games::visit(&game, Visit(command)).unwrap_or(Err(CliError::UnknownGame(game)))
}
