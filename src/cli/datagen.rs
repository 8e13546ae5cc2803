//! `ludus datagen`: self-play training data for Sena-Mukha's network
//! (protocol-spec/datagen.md).

use std::time::Instant;

use super::CliError;
use super::args::EngineOptions;

#[derive(clap::Args)]
pub struct Args {
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
    /// `EvalFile=NET` with `Use NNUE=true` plays and scores with a network.
    #[command(flatten)]
    options: EngineOptions,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let settings = ludus::learning::datagen::Settings {
        games: args.games,
        nodes: Some(args.nodes),
        depth: args.depth,
        opening_plies: args.plies,
        seed: args.seed,
        concurrency: args.concurrency.unwrap_or_else(super::args::cores),
        max_plies: args.max_plies,
        options: args
            .options
            .options
            .into_iter()
            .map(|s| (s.name, s.value))
            .collect(),
    };
    let started = Instant::now();
    let positions = ludus::games::datagen(&settings, &args.output, &mut std::io::stderr())?;
    eprintln!(
        "{positions} positions in {} ({:.1} s)",
        args.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
