//! `ludus datagen`: self-play training data for Sena-Mukha's network
//! (protocol-spec/datagen.md).

use std::time::Instant;

use super::CliError;
use super::args::SelfPlay;

#[derive(clap::Args)]
pub struct Args {
    /// The data file: created, or resumed when it holds games of these settings.
    #[arg(long)]
    output: std::path::PathBuf,
    /// Games to play in all (the file's games count).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Also at most this depth a move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// `--option EvalFile=NET` with `Use NNUE=true` plays and scores with a network.
    #[command(flatten)]
    play: SelfPlay,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let settings = crate::learning::datagen::Settings {
        games: args.games,
        nodes: Some(args.play.nodes),
        depth: args.depth,
        opening_plies: args.play.plies,
        seed: args.play.seed,
        concurrency: args.play.threads(),
        max_plies: args.play.max_plies,
        options: args.play.named_options(),
    };
    let started = Instant::now();
    let positions = crate::games::datagen(&settings, &args.output, &mut std::io::stderr())?;
    eprintln!(
        "{positions} positions in {} ({:.1} s)",
        args.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
