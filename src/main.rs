//! The `ludus` command line.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use ludus::game::Game;
use ludus::games::senamukha;

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "An engine for Sena-Mukha, Mentula and Mangala II"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Senamukha,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal move tree (the last ply in bulk).
    Perft {
        #[arg(long, value_enum, default_value = "senamukha")]
        game: GameName,
        /// Start from this position instead of the usual start.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, separated by spaces, in any accepted notation.
        #[arg(long)]
        moves: Option<String>,
        #[arg(long)]
        depth: u32,
        /// One line per legal move with its count, then the total.
        #[arg(long)]
        divide: bool,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft {
            game: GameName::Senamukha,
            fen,
            moves,
            depth,
            divide,
        } => run_perft::<senamukha::Position>(fen.as_deref(), moves.as_deref(), depth, divide),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ludus: {message}");
            ExitCode::FAILURE
        }
    }
}

fn setup<G: Game>(fen: Option<&str>, moves: Option<&str>) -> Result<G, String> {
    let mut position = match fen {
        Some(text) => G::from_fen(text).map_err(|e| format!("invalid position: {e}"))?,
        None => G::start(),
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let mv = position.parse_move(text).map_err(|e| e.to_string())?;
        position.play(mv);
    }
    Ok(position)
}

fn run_perft<G: Game>(
    fen: Option<&str>,
    moves: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<(), String> {
    let mut position: G = setup(fen, moves)?;
    let canonical = G::NOTATIONS[0].1;
    let started = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, count) in ludus::perft::divide(&mut position, depth) {
            println!("{}: {count}", position.format_move(mv, canonical));
            total += count;
        }
        total
    } else {
        ludus::perft::perft(&mut position, depth)
    };
    println!("Nodes searched: {total}");
    let seconds = started.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {seconds:.3} s, {:.1} M nodes/s",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}
