//! The `ludus` command line: parses the arguments and hands the command to its room in
//! [`cli`], one file per command.

use std::process::ExitCode;

use clap::Parser;

mod cli;

use cli::{Cli, Command};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .init();
    let Some(command) = Cli::parse().command else {
        cli::protocol::run();
        return ExitCode::SUCCESS;
    };
    if !matches!(command, Command::Match(_)) {
        quiet_when_output_closes();
    }
    let result = match command {
        Command::Perft(args) => cli::for_game(args),
        Command::Search(args) => cli::for_game(*args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Analysis(args) => cli::analysis::run(args),
        Command::Review(args) => cli::for_game(args),
        Command::Tree(args) => cli::for_game(args),
        Command::Endgame(args) => cli::endgame::run(args),
        Command::Match(args) => cli::r#match::run(*args),
        Command::Diagram(args) => cli::for_game(args),
        Command::Datagen(args) => cli::datagen::run(args),
        Command::Train(args) => cli::train::run(args),
        Command::Openings(args) => cli::for_game(args),
        Command::Serve(args) => cli::serve::run(args),
        Command::Tune { action } => cli::for_game(action),
        Command::Replay(args) => cli::for_game(args),
        Command::Wdl(args) => cli::for_game(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
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
