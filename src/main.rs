//! The `ludus` command line.

use std::process::ExitCode;
use std::time::Instant;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use std::time::Duration;

use ludus::game::Game;
use ludus::games::{self, Play};
use ludus::search::Limits;

/// The largest file of scored positions `ludus tune fit` reads (`-` reads standard
/// input instead, within the same bound).
const TUNING_FILE_LIMIT: u64 = 1 << 30;

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "An engine for Sena-Mukha, Mentula and Mangala II"
)]
struct Cli {
    /// Without a command, ludus serves its line protocol on standard input and output.
    #[command(subcommand)]
    command: Option<Command>,
}

/// The game and the position a command starts from.
#[derive(Args)]
struct Setup {
    #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
    game: String,
    /// Start from this position instead of the usual start.
    #[arg(long)]
    fen: Option<String>,
    /// A rule option, as name=value (repeatable); see protocol-spec/rules/.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
}

/// `ludus match` (see protocol-spec/command-line.md).
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct MatchArgs {
    #[command(subcommand)]
    action: Option<MatchAction>,
    #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
    game: String,
    /// An engine: its command line, or settings `cmd=... name=... proto=native|uci|ugi
    /// option.<Name>=<value>` (repeat: two engines, four for Mentula).
    #[arg(long = "engine", value_name = "ENGINE", required = true)]
    engines: Vec<String>,
    /// Clock per player: [moves/]seconds[+increment], e.g. 10+0.1 or 40/60.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<String>,
    /// Fixed time per move in milliseconds.
    #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64), conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Games to play (default: one set per opening: 2 games each, 4 for Mentula).
    #[arg(long)]
    games: Option<usize>,
    /// Openings: one a line, `startpos` or a position, optionally followed by `moves ...`.
    #[arg(long)]
    openings: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// Milliseconds an engine may overrun its clock or movetime before it loses.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    margin: u64,
    /// With --depth or --nodes: milliseconds without an answer that count as a stall.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    timeout: u64,
    /// A game still going after this many moves is adjudicated a draw (all players
    /// sharing the place).
    #[arg(long, default_value_t = 1_000)]
    max_moves: usize,
    /// Stop when decided: "elo0=0 elo1=5 alpha=0.05 beta=0.05" (two engines).
    #[arg(long)]
    sprt: Option<String>,
    /// Append every game's record to this file.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// Write a JSON summary here at the end.
    #[arg(long)]
    summary: Option<std::path::PathBuf>,
    /// Keep the match's state here after every game; an existing one is resumed.
    #[arg(long)]
    state: Option<std::path::PathBuf>,
    /// A rule option, as name=value (repeatable), for the referee and every engine.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
    /// Play only part K of N of the schedule (whole opening sets, every N-th from the
    /// K-th): the same command with 1/N to N/N on N machines plays the whole match;
    /// `ludus match merge` joins their summaries.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<ludus::tournament::Shard>,
}

fn parse_shard(text: &str) -> Result<ludus::tournament::Shard, String> {
    ludus::tournament::Shard::parse(text).map_err(|e| e.to_string())
}

/// An engine option given as `name=value`.
fn name_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .ok_or_else(|| format!("an engine option is name=value, not {text:?}"))
}

/// What `ludus match` does besides playing.
#[derive(Subcommand)]
enum MatchAction {
    /// Joins the JSON summaries of a match's shards (`--shard K/N`) into one result:
    /// the report of the whole match, its summary and its records in schedule order.
    Merge {
        /// The shards' summaries (`--summary` of each shard).
        #[arg(required = true)]
        summaries: Vec<std::path::PathBuf>,
        /// Write the merged JSON summary here.
        #[arg(long)]
        summary: Option<std::path::PathBuf>,
        /// Write every game's record here, in schedule order.
        #[arg(long)]
        records: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal move tree (the last ply in bulk).
    Perft {
        #[command(flatten)]
        setup: Setup,
        /// Moves to play first, separated by spaces, in any accepted notation.
        #[arg(long)]
        moves: Option<String>,
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// One line per legal move with its count, then the total.
        #[arg(long)]
        divide: bool,
    },
    /// Searches a position and prints the progress (info lines) and the best move.
    Search {
        #[command(flatten)]
        setup: Setup,
        /// Moves to play first, separated by spaces, in any accepted notation.
        #[arg(long)]
        moves: Option<String>,
        /// Search this many plies deep.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search for this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Search this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        /// Look for a mate in at most this many moves, searching every line to its
        /// depth (as UCI's go mate).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
        mate: Option<u32>,
        /// Transposition table size in MiB (1 to 16384, as the protocol's Hash).
        #[arg(long, default_value_t = 64, value_parser = ludus::engine::parse_hash)]
        hash: usize,
        /// An engine option, as name=value (repeatable): Sena-Mukha's EvalFile and Use
        /// NNUE, Mentula's Algorithm (brs, paranoid, mcts), Mangala II's Endgame
        /// Counters and EndgamePath.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Mangala II endgame tables from this folder (`ludus endgame --write` makes
        /// them), as the EndgamePath option.
        #[arg(long, value_name = "DIR")]
        endgame_path: Option<std::path::PathBuf>,
        /// Report this many best lines (1 to 64), as the MultiPV option.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
        multipv: u32,
        /// Consider only these root moves, separated by spaces (as go searchmoves).
        #[arg(long)]
        searchmoves: Option<String>,
    },
    /// Searches fixed positions of all three games to a fixed depth and prints the
    /// total nodes (a signature of the search) and the speed.
    Bench {
        /// The depth of every search, 1 to 12 (default: each game's own).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: Option<u32>,
    },
    /// Measures the search tree: from the start and the first openings of a file, the
    /// nodes and time to each depth, the marginal cost of a ply, the move ordering's
    /// first-move cutoffs and the table's hits (protocol-spec/command-line.md).
    Tree {
        #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
        game: String,
        /// An openings file (as `ludus match --openings`): its first --count lines are
        /// searched after the start position.
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// How many openings of the file.
        #[arg(long, default_value_t = 8)]
        count: usize,
        /// Milliseconds per position (the default: 4000, unless --depth or --nodes).
        #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
        movetime: Option<u64>,
        /// Search each position this many plies deep.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64), conflicts_with = "nodes")]
        depth: Option<u32>,
        /// Search each position this many nodes.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        #[arg(long, default_value_t = 64, value_parser = ludus::engine::parse_hash)]
        hash: usize,
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
    },
    /// Builds the Mangala II endgame tables and prints, per counters on the board, the
    /// positions, how many have an exact value, the sweeps and the time taken; or
    /// checks table files (--verify).
    Endgame {
        /// Build the tables for positions with up to this many counters on the board
        /// (above 24 only with --write: the levels below are then read from files).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=28), required_unless_present = "verify")]
        counters: Option<u32>,
        /// Check every position of the table files in this folder against its moves
        /// (the minimax equations and progress), instead of building.
        #[arg(long, value_name = "DIR", conflicts_with_all = ["counters", "write"])]
        verify: Option<std::path::PathBuf>,
        /// For the rule option skip-origin=on.
        #[arg(long)]
        skip_origin: bool,
        /// Build into this folder, a file a level (protocol-spec/mangala.md): levels
        /// already there are read, not built again.
        #[arg(long, value_name = "DIR")]
        write: Option<std::path::PathBuf>,
    },
    /// Plays a match between engines (two, or four for Mentula), refereed by ludus.
    Match(Box<MatchArgs>),
    /// Draws a position as SVG (the last of --moves marked).
    Diagram {
        #[command(flatten)]
        setup: Setup,
        /// Moves to play first, separated by spaces, in any accepted notation.
        #[arg(long)]
        moves: Option<String>,
        /// Something more to draw (repeatable): Mentula's reach.
        #[arg(long = "layer", value_name = "LAYER")]
        layers: Vec<String>,
    },
    /// Plays self-play games of Sena-Mukha from random openings and appends their quiet
    /// positions, each with the search's score and the game's result, to a binary file
    /// for training an evaluation (protocol-spec/datagen.md); resumes a cut-off run.
    Datagen {
        /// The data file: created, or resumed when it holds games of these settings.
        #[arg(long)]
        output: std::path::PathBuf,
        /// Games to play in all (the file's games count).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Nodes a move.
        #[arg(long, default_value_t = 5_000)]
        nodes: u64,
        /// Also at most this depth a move.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Random moves (plies) from the start before the engines play.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// The random seed: game k of a seed is the same game in every run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (default: one per core).
        #[arg(long)]
        concurrency: Option<usize>,
        /// A game is a draw after this many plies of the engine.
        #[arg(long, default_value_t = 600)]
        max_plies: usize,
        /// An engine option, as name=value (repeatable): `EvalFile=NET` with `Use
        /// NNUE=true` plays and scores with a network.
        #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
        options: Vec<(String, String)>,
    },
    /// Trains a Sena-Mukha evaluation network on `ludus datagen` files and writes it
    /// (protocol-spec/command-line.md).
    Train {
        /// A data file of `ludus datagen` (repeatable).
        #[arg(long = "data", required = true)]
        data: Vec<std::path::PathBuf>,
        /// The network file to write.
        #[arg(long)]
        output: std::path::PathBuf,
        /// The hidden layer's size: a multiple of 16 from 16 to 2048.
        #[arg(long, default_value_t = 256)]
        hidden: usize,
        /// Output buckets (1 to 16), chosen by the number of men on the board: 8 cuts
        /// 1 to 64 men into eighths.
        #[arg(long, default_value_t = 1)]
        output_buckets: usize,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 10)]
        epochs: usize,
        /// Positions a step.
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
        batch: u64,
        /// Adam's rate at the start (it falls along a cosine to a hundredth of it).
        #[arg(long, default_value_t = 0.001)]
        rate: f32,
        /// The search score's share of the target; the rest is the game's result.
        #[arg(long, default_value_t = 1.0)]
        lambda: f32,
        /// The share of the games held out to measure the loss on.
        #[arg(long, default_value_t = 0.05)]
        holdout: f64,
        /// The random seed of the first weights, the held-out games and the order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: one per core); the network does not depend on them.
        #[arg(long)]
        threads: Option<usize>,
        /// A network file to start from instead of random weights: training goes on
        /// from it (its hidden size must be --hidden's).
        #[arg(long)]
        init: Option<std::path::PathBuf>,
    },
    /// Prints random openings for `ludus match --openings`: distinct lines of random
    /// legal moves from the start.
    Openings {
        #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
        game: String,
        /// Moves (plies) in each opening.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// How many openings.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// The random seed: the same seed gives the same openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Serves the board: a page for all three games, each browser tab an engine session
    /// of the native protocol over a WebSocket (protocol-spec/serve.md).
    Serve {
        /// The address to listen on; beyond loopback anyone who reaches it can play.
        #[arg(long, default_value = "127.0.0.1:8080", value_parser = listen_address)]
        listen: std::net::SocketAddr,
        /// Sessions (open tabs) at once.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
        sessions: u64,
        /// Seconds after which a session's search (or count) is stopped.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
        think_limit: u64,
        /// The largest Hash a session may set, in MiB.
        #[arg(long, default_value_t = 256, value_parser = ludus::engine::parse_hash)]
        hash_limit: usize,
        /// The largest endgame table a session may have built (Mangala II's Endgame
        /// Counters; the tables are shared by all sessions).
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=24))]
        table_limit: u32,
        /// Mangala II endgame tables from this folder (made by `ludus endgame --write`),
        /// for every session: the EndgamePath option, which sessions may not change.
        #[arg(long, value_name = "DIR")]
        endgame_path: Option<std::path::PathBuf>,
        /// Connections one address may have open at once (of the server's 128), so
        /// that one address cannot take every place.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=ludus::web::MAX_CONNECTIONS as u64))]
        peer_connections: u64,
        /// Sessions one address may have open at once [default: all of them when
        /// listening on loopback, where every tab comes from one address; else half].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        peer_sessions: Option<u64>,
        /// Seconds after which a session with no request and no work is closed, to
        /// free its place (at least the think limit).
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86400))]
        idle_limit: u64,
    },
    /// Tunes the evaluation's weights to game results (Texel's method): `generate`
    /// plays self-play games and prints their quiet positions with results, `fit` fits
    /// the weights to them and prints the weights' source file.
    Tune {
        #[command(subcommand)]
        action: Tune,
    },
    /// Replays a game record and prints its moves, final position and result.
    Replay {
        #[command(flatten)]
        setup: Setup,
        /// The record file, or - for standard input.
        file: String,
    },
}

#[derive(Subcommand)]
enum Tune {
    /// Plays self-play games from random openings and prints every quiet position, one
    /// a line: the first player's result (1, 0.5 or 0), a space, the position.
    Generate {
        #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
        game: String,
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// Random moves (plies) from the start before the engine plays.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// The random seed of the openings: the same seed gives the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, one thread each.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// A game this many plies long is a draw.
        #[arg(long, default_value_t = 600)]
        max_plies: usize,
    },
    /// Fits the weights to positions from `generate` (a file, or - for standard input)
    /// and prints the source file of the fitted weights; the errors go to stderr.
    Fit {
        #[arg(long, default_value = games::DEFAULT, value_parser = PossibleValuesParser::new(games::NAMES))]
        game: String,
        file: String,
        /// Steps of the fit over the whole set.
        #[arg(long, default_value_t = 500)]
        epochs: usize,
        /// The step size, in centi-units.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// The penalty on each weight's squared distance from where it starts (per 100
        /// centi-units): larger keeps weights the games do not decide where they are.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        ludus::protocol::serve(std::io::stdin(), std::io::stdout());
        return ExitCode::SUCCESS;
    };
    if !matches!(command, Command::Match(_)) {
        quiet_when_output_closes();
    }
    if let Command::Endgame {
        counters,
        verify,
        skip_origin,
        write,
    } = command
    {
        let report = match (verify, counters) {
            (Some(dir), _) => games::endgame_verify(&dir, skip_origin).map_err(|e| e.to_string()),
            (None, Some(counters))
                if counters as usize > games::ENDGAME_IN_MEMORY && write.is_none() =>
            {
                Err(format!(
                    "--counters {counters} needs --write DIR: above {} counters the tables \
                     are built into files",
                    games::ENDGAME_IN_MEMORY
                ))
            }
            (None, Some(counters)) => {
                games::endgame_report(counters as usize, skip_origin, write.as_deref())
                    .map_err(|e| e.to_string())
            }
            (None, None) => Err("--counters or --verify is needed".to_string()),
        };
        return match report {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("ludus: {message}");
                ExitCode::FAILURE
            }
        };
    }
    if let Command::Datagen {
        output,
        games: count,
        nodes,
        depth,
        plies,
        seed,
        concurrency,
        max_plies,
        options,
    } = command
    {
        let settings = ludus::search::datagen::Settings {
            games: count,
            nodes: Some(nodes),
            depth,
            opening_plies: plies,
            seed,
            concurrency: concurrency
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            max_plies,
            options,
        };
        let started = Instant::now();
        return match games::datagen(&settings, &output, &mut std::io::stderr()) {
            Ok(positions) => {
                eprintln!(
                    "{positions} positions in {} ({:.1} s)",
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("ludus: {message}");
                ExitCode::FAILURE
            }
        };
    }
    if let Command::Train {
        data,
        output,
        hidden,
        output_buckets,
        epochs,
        batch,
        rate,
        lambda,
        holdout,
        seed,
        threads,
        init,
    } = command
    {
        let settings = games::senamukha::nnue::train::Settings {
            hidden,
            output_buckets,
            epochs,
            batch: batch as usize,
            rate,
            lambda,
            holdout,
            seed,
            threads: threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            init,
        };
        return match games::train(&data, &output, &settings, &mut std::io::stderr()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("ludus: {message}");
                ExitCode::FAILURE
            }
        };
    }
    if let Command::Serve {
        listen,
        sessions,
        think_limit,
        hash_limit,
        table_limit,
        endgame_path,
        peer_connections,
        peer_sessions,
        idle_limit,
    } = command
    {
        let options = ludus::web::Options {
            listen,
            sessions: sessions as usize,
            work_limit: std::time::Duration::from_secs(think_limit),
            hash_mib: hash_limit,
            table_limit,
            fixed_paths: endgame_path
                .map(|dir| vec![("EndgamePath".to_string(), dir.display().to_string())])
                .unwrap_or_default(),
            peer_connections: peer_connections as usize,
            peer_sessions: peer_sessions.map(|n| n as usize),
            idle_limit: std::time::Duration::from_secs(idle_limit),
        };
        let ready = |address: std::net::SocketAddr| {
            println!("ludus serves the board at http://{address}/");
            let _ = std::io::Write::flush(&mut std::io::stdout());
        };
        return match ludus::web::run(options, ready) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("ludus: {message}");
                ExitCode::FAILURE
            }
        };
    }
    if let Command::Match(args) = command {
        if let Some(MatchAction::Merge {
            summaries,
            summary,
            records,
        }) = args.action
        {
            return match merge_match(&summaries, summary, records) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("ludus: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        struct Match(MatchArgs);
        impl games::Visitor for Match {
            type Output = Result<(), String>;
            fn visit<G: Play>(self) -> Self::Output {
                run_match::<G>(self.0)
            }
        }
        let game = args.game.clone();
        let result = games::visit(&game, Match(*args)).expect("clap accepts games only");
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            // As a shell reports a command ended by SIGPIPE: 128 + 13.
            Err(message) if message == ludus::tournament::OUTPUT_CLOSED => ExitCode::from(141),
            Err(message) => {
                eprintln!("ludus: {message}");
                ExitCode::FAILURE
            }
        };
    }
    let game = match &command {
        Command::Perft { setup, .. }
        | Command::Replay { setup, .. }
        | Command::Search { setup, .. }
        | Command::Diagram { setup, .. } => setup.game.clone(),
        Command::Openings { game, .. }
        | Command::Tree { game, .. }
        | Command::Tune {
            action: Tune::Generate { game, .. } | Tune::Fit { game, .. },
        } => game.clone(),
        // The bench covers every game; any game type can run it.
        Command::Bench { .. }
        | Command::Endgame { .. }
        | Command::Datagen { .. }
        | Command::Train { .. }
        | Command::Match(_)
        | Command::Serve { .. } => games::DEFAULT.to_string(),
    };
    struct Run(Command);
    impl games::Visitor for Run {
        type Output = Result<(), String>;
        fn visit<G: Play>(self) -> Self::Output {
            run::<G>(self.0)
        }
    }
    let result = games::visit(&game, Run(command)).expect("clap accepts games only");
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ludus: {message}");
            ExitCode::FAILURE
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

fn run<G: Play>(command: Command) -> Result<(), String> {
    match command {
        Command::Search {
            setup: Setup { fen, rules, .. },
            moves,
            depth,
            movetime,
            nodes,
            mate,
            hash,
            options,
            endgame_path,
            multipv,
            searchmoves,
        } => {
            use ludus::engine::{Bounds, Engine, Event, OptionScope, SearchRequest, WorkKind};
            let mut engine =
                Engine::new(vec![G::NAME], OptionScope::CurrentGame, Bounds::default());
            let setting = |text: &str, what: &str| -> Result<(String, String), String> {
                text.split_once('=')
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| format!("{what} is name=value, not {text:?}"))
            };
            for rule in &rules {
                let (name, value) = setting(rule, "a rule option")?;
                engine
                    .table()
                    .set_rule(&name, &value)
                    .map_err(|e| e.to_string())?;
            }
            engine
                .set_option("Hash", &hash.to_string())
                .map_err(|e| e.to_string())?;
            engine
                .set_option("MultiPV", &multipv.to_string())
                .map_err(|e| e.to_string())?;
            let endgame_path = endgame_path.map(|dir| format!("EndgamePath={}", dir.display()));
            for option in endgame_path.iter().chain(&options) {
                let (name, value) = setting(option, "an engine option")?;
                engine
                    .set_option(&name, &value)
                    .map_err(|e| e.to_string())?;
            }
            let moves: Vec<String> = moves
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
            engine
                .set_position(fen.as_deref(), &moves)
                .map_err(|e| e.to_string())?;
            if engine.table().is_over() {
                return Err("the game is over: there is nothing to search".to_string());
            }
            engine.table().wait_until_ready();
            engine.prepare_search().map_err(|e| e.to_string())?;
            let request = SearchRequest {
                depth,
                mate,
                nodes,
                movetime: movetime.map(Duration::from_millis),
                searchmoves: searchmoves
                    .as_deref()
                    .unwrap_or("")
                    .split_whitespace()
                    .map(String::from)
                    .collect(),
                ..SearchRequest::default()
            };
            let (sender, events) = std::sync::mpsc::channel();
            engine
                .go(request, false, WorkKind::Search, move |event| {
                    let _ = sender.send(event);
                })
                .map_err(|e| e.to_string())?;
            for event in events {
                match event {
                    Event::Info(info) => println!("{info}"),
                    Event::Note(note) => println!("info string {note}"),
                    Event::CurrentMove { .. } => {}
                    Event::Done(done) => {
                        if let Some(verdict) = done.mate_verdict {
                            println!("info string {verdict}");
                        }
                        println!("bestmove {}", done.best.as_deref().unwrap_or("none"));
                        break;
                    }
                }
            }
            engine.wait();
            Ok(())
        }
        Command::Bench { depth } => {
            ludus::bench::run(depth, &mut std::io::stdout()).map_err(|e| e.to_string())
        }
        Command::Tree {
            openings,
            count,
            movetime,
            depth,
            nodes,
            hash,
            threads,
            ..
        } => {
            let mut lines = vec!["startpos".to_string()];
            if let Some(path) = openings {
                let text = ludus::files::read_text(&path, ludus::tournament::OPENINGS_LIMIT)
                    .map_err(|e| e.to_string())?;
                let file =
                    ludus::tournament::read_openings::<G>(&text).map_err(|e| e.to_string())?;
                lines.extend(file.into_iter().take(count));
            }
            let movetime = (depth.is_none() && nodes.is_none()).then(|| movetime.unwrap_or(4000));
            let run = ludus::bench::TreeRun {
                openings: lines,
                limits: Limits {
                    depth,
                    nodes,
                    movetime: movetime.map(Duration::from_millis),
                    ..Limits::default()
                },
                hash_mib: hash,
                threads: threads as usize,
            };
            ludus::bench::tree::<G>(&run, &mut std::io::stdout()).map_err(|e| e.to_string())
        }
        Command::Endgame { .. }
        | Command::Datagen { .. }
        | Command::Train { .. }
        | Command::Match(_)
        | Command::Serve { .. } => Ok(()),
        Command::Perft {
            setup: Setup { fen, rules, .. },
            moves,
            depth,
            divide,
        } => run_perft::<G>(fen.as_deref(), &rules, moves.as_deref(), depth, divide),
        Command::Replay {
            setup: Setup { fen, rules, .. },
            file,
        } => run_replay::<G>(fen.as_deref(), &rules, &file),
        Command::Diagram {
            setup: Setup { fen, rules, .. },
            moves,
            layers,
        } => {
            let mut position: G = set_up(fen.as_deref(), &rules, moves.as_deref())?;
            let last = position.undo();
            if let Some(mv) = last {
                position.play(mv);
            }
            let drawn = ludus::game::diagram_layers::<G>(&layers).map_err(|e| e.to_string())?;
            println!("{}", position.diagram_svg_with(last, &drawn));
            Ok(())
        }
        Command::Tune { action } => run_tune::<G>(action),
        Command::Openings {
            plies, count, seed, ..
        } => {
            let openings = ludus::tournament::random_openings::<G>(plies, count, seed);
            // Fewer than asked would pass for a whole file: nothing is printed.
            if openings.len() < count {
                return Err(format!(
                    "cannot make {count} distinct openings of {plies} plies: {} found in \
                     {} random games ({} ends sooner, or has fewer such lines)",
                    openings.len(),
                    count.saturating_mul(ludus::tournament::OPENING_TRIES),
                    G::NAME
                ));
            }
            for line in openings {
                println!("{line}");
            }
            Ok(())
        }
    }
}

fn run_tune<G: Play>(action: Tune) -> Result<(), String> {
    use ludus::search::tuning;
    let terms = G::tuning().ok_or_else(|| format!("{}'s evaluation cannot be tuned", G::NAME))?;
    match action {
        Tune::Generate {
            games,
            nodes,
            plies,
            seed,
            concurrency,
            max_plies,
            ..
        } => {
            let settings = tuning::Generate {
                games,
                nodes,
                opening_plies: plies,
                seed,
                concurrency,
                max_plies,
            };
            let started = Instant::now();
            let count = tuning::generate::<G>(&settings, &mut std::io::stdout())
                .map_err(|e| e.to_string())?;
            log::info!(
                "{count} positions from {games} games in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Tune::Fit {
            file,
            epochs,
            rate,
            l2,
            ..
        } => {
            let text = if file == "-" {
                let text = std::io::read_to_string(std::io::Read::take(
                    std::io::stdin(),
                    TUNING_FILE_LIMIT + 1,
                ))
                .map_err(|e| e.to_string())?;
                if text.len() as u64 > TUNING_FILE_LIMIT {
                    return Err(format!(
                        "standard input holds more than {TUNING_FILE_LIMIT} bytes, the most read"
                    ));
                }
                text
            } else {
                ludus::files::read_text(file.as_ref(), TUNING_FILE_LIMIT)
                    .map_err(|e| format!("cannot read {e}"))?
            };
            let samples = tuning::read_samples::<G>(&text).map_err(|e| format!("{file}: {e}"))?;
            if samples.len() < 10 {
                return Err(format!(
                    "{file} holds {} positions; the fit needs 10 or more",
                    samples.len()
                ));
            }
            // The last tenth (whole games, as generate writes them) is held out: its
            // error tells whether the fit learnt the games or the positions.
            let (train, held) = samples.split_at(samples.len() - samples.len() / 10);
            let settings = tuning::FitSettings { epochs, rate, l2 };
            let fit = tuning::fit(
                train,
                terms.weights,
                terms.frozen,
                &settings,
                &mut |epoch, error| {
                    log::info!("epoch {epoch}: error {error:.6}");
                },
            );
            let start: Vec<f64> = terms.weights.iter().map(|&w| f64::from(w)).collect();
            log::info!(
                "held-out positions ({}): error {:.6} before, {:.6} after",
                held.len(),
                tuning::error(held, &start, tuning::fit_scale(held, &start)),
                tuning::error(held, &fit.weights, fit.k)
            );
            let rounded: Vec<_> = fit
                .weights
                .iter()
                .map(|w| w.round() as ludus::search::Value)
                .collect();
            log::info!(
                "{} positions fitted, K {:.3}, error {:.6} before, {:.6} after",
                train.len(),
                fit.k,
                fit.error_before,
                fit.error_after
            );
            for ((name, &old), &new) in terms.names.iter().zip(terms.weights).zip(&rounded) {
                if old != new {
                    log::info!("{name}: {old} -> {new}");
                }
            }
            print!("{}", (terms.source)(&rounded));
            Ok(())
        }
    }
}

fn run_match<G: Game>(args: MatchArgs) -> Result<(), String> {
    use ludus::tournament::{self, EngineSpec, Settings, Sprt, TimeControl};
    let engines = args
        .engines
        .iter()
        .enumerate()
        .map(|(i, text)| EngineSpec::parse(text, i))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let time_control = match (&args.tc, args.movetime, args.depth, args.nodes) {
        (Some(tc), ..) => TimeControl::parse_clock(tc).map_err(|e| e.to_string())?,
        (_, Some(ms), ..) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (_, _, Some(d), _) => TimeControl::Depth(d),
        (_, _, _, Some(n)) => TimeControl::Nodes(n),
        _ => return Err("a match needs --tc, --movetime, --depth or --nodes".into()),
    };
    let openings = match &args.openings {
        Some(path) => {
            let text = ludus::files::read_text(path.as_ref(), tournament::OPENINGS_LIMIT).map_err(
                |error| {
                    tournament::MatchError::File {
                        option: "--openings",
                        error,
                    }
                    .to_string()
                },
            )?;
            tournament::read_openings::<G>(&text).map_err(|e| e.to_string())?
        }
        None => vec!["startpos".to_string()],
    };
    let rules = args
        .rules
        .iter()
        .map(|r| {
            r.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("a rule option is name=value, not {r:?}"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let players = G::PLAYERS.len();
    let config = tournament::MatchConfig {
        engines,
        settings: Settings {
            time_control,
            margin: Duration::from_millis(args.margin),
            stall: Duration::from_millis(args.timeout),
            max_plies: args.max_moves,
        },
        games: args.games.unwrap_or(players * openings.len()),
        openings,
        concurrency: args.concurrency as usize,
        sprt: args
            .sprt
            .as_deref()
            .map(Sprt::parse)
            .transpose()
            .map_err(|e| e.to_string())?,
        rules,
        shard: args.shard,
        records: args.records,
        summary: args.summary,
        state: args.state,
    };
    tournament::run::<G>(config, &mut std::io::stdout())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `ludus match merge`: the shards' summaries read, merged, reported, written.
fn merge_match(
    paths: &[std::path::PathBuf],
    summary: Option<std::path::PathBuf>,
    records: Option<std::path::PathBuf>,
) -> Result<(), String> {
    use ludus::tournament::{self, MatchError};
    let refused = |option, error| MatchError::File { option, error }.to_string();
    // The files written are checked before anything is read or printed.
    for (option, path) in [("--summary", &summary), ("--records", &records)] {
        if let Some(path) = path {
            ludus::files::check_writable(path).map_err(|e| refused(option, e))?;
        }
    }
    let texts = paths
        .iter()
        .map(|path| {
            ludus::files::read_text(path, tournament::STATE_LIMIT)
                .map(|text| (path.clone(), text))
                .map_err(|e| refused("a summary", e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let merged = tournament::merge(&texts).map_err(|e| e.to_string())?;
    let report = tournament::report(&merged.config, &merged.results, &merged.game);
    let missing: Vec<String> = (1..=merged.count)
        .filter(|k| !merged.shards.contains(k))
        .map(|k| k.to_string())
        .collect();
    println!(
        "merged {} games from shards {} of {}{}",
        merged.results.len(),
        merged
            .shards
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        merged.count,
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        }
    );
    println!("{}", report.lines.join("\n"));
    if let Some(path) = summary {
        let mut json = report.json;
        json["config"] = serde_json::json!(merged.config);
        json["shards"] = serde_json::json!(merged.shards);
        json["shard_count"] = serde_json::json!(merged.count);
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = records {
        struct Records<'a>(&'a tournament::Merged);
        impl games::Visitor for Records<'_> {
            type Output = String;
            fn visit<G: Play>(self) -> String {
                self.0
                    .results
                    .iter()
                    .map(|r| tournament::game_record::<G>(r, &self.0.config))
                    .collect()
            }
        }
        let text = games::visit(&merged.game, Records(&merged)).ok_or_else(|| {
            format!(
                "the summaries are of {:?}, which ludus does not play",
                merged.game
            )
        })?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn set_up<G: Game>(fen: Option<&str>, rules: &[String], moves: Option<&str>) -> Result<G, String> {
    let mut position = match fen {
        Some(text) => {
            G::from_fen(text).map_err(|e| format!("invalid {} position: {e}", G::NAME))?
        }
        None => G::start(),
    };
    for rule in rules {
        let (name, value) = rule
            .split_once('=')
            .ok_or_else(|| format!("--rule takes NAME=VALUE, not {rule:?}"))?;
        position
            .set_rule_option(name.trim(), value)
            .map_err(|e| e.to_string())?;
    }
    for text in moves.unwrap_or("").split_whitespace() {
        let mv = position.parse_move(text).map_err(|e| e.to_string())?;
        position.play(mv);
    }
    Ok(position)
}

fn run_perft<G: Game>(
    fen: Option<&str>,
    rules: &[String],
    moves: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<(), String> {
    if divide && depth == 0 {
        return Err("--divide needs a depth of at least 1".to_string());
    }
    let mut position: G = set_up(fen, rules, moves)?;
    let canonical = G::NOTATIONS[0].notation;
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

fn run_replay<G: Game>(fen: Option<&str>, rules: &[String], file: &str) -> Result<(), String> {
    let start: G = set_up(fen, rules, None)?;
    let text = if file == "-" {
        ludus::record::read_text(std::io::stdin().lock()).map_err(|e| e.to_string())?
    } else {
        let opened = std::fs::File::open(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        ludus::record::read_text(opened).map_err(|e| format!("{file}: {e}"))?
    };
    let replay = ludus::record::replay(start.clone(), &text).map_err(|e| e.to_string())?;
    let canonical = G::NOTATIONS[0].notation;
    let mut position = start;
    for &mv in &replay.moves {
        println!("{}", position.format_move(mv, canonical));
        position.play(mv);
    }
    println!("position: {}", replay.position.fen());
    let result = match (replay.outcome(), &replay.stated_result) {
        (Some(outcome), _) => G::describe_outcome(&outcome),
        (None, Some(stated)) => match stated.as_str() {
            "1-0" => format!("{} wins (stated in the record)", G::PLAYERS[0]),
            "0-1" => format!("{} wins (stated in the record)", G::PLAYERS[1]),
            "1/2-1/2" | "½-½" => "draw (stated in the record)".to_string(),
            _ => "ongoing (no result)".to_string(),
        },
        (None, None) => "ongoing (no result)".to_string(),
    };
    println!("result: {result}");
    Ok(())
}

/// Reads `--listen`: `HOST:PORT`, the host a name (`localhost`) or an address; a name
/// is resolved here, and its first address is the one listened on.
fn listen_address(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let wrong = || format!("{text:?} is not HOST:PORT (such as 127.0.0.1:8080 or localhost:8080)");
    if let Ok(address) = text.parse() {
        return Ok(address);
    }
    if !text.contains(':') {
        return Err(wrong());
    }
    text.to_socket_addrs()
        .map_err(|e| format!("{}: {e}", wrong()))?
        .next()
        .ok_or_else(wrong)
}
