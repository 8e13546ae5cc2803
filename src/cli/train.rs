//! `ludus train`: a Sena-Mukha evaluation network trained on `ludus datagen` files.

use super::CliError;

#[derive(clap::Args)]
pub struct Args {
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
}

pub fn run(args: Args) -> Result<(), CliError> {
    let settings = crate::learning::train::Settings {
        hidden: args.hidden,
        output_buckets: args.output_buckets,
        epochs: args.epochs,
        batch: args.batch as usize,
        rate: args.rate,
        lambda: args.lambda,
        holdout: args.holdout,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(super::args::cores),
        init: args.init,
    };
    crate::games::train(&args.data, &args.output, &settings, &mut std::io::stderr())?;
    Ok(())
}
