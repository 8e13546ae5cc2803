//! `ludus bench`: fixed positions of every game searched to a fixed depth; the total
//! nodes are the search's signature (`Bench:` in commit messages).

use super::CliError;

#[derive(clap::Args)]
pub struct Args {
    /// The depth of every search, 1 to 12 (default: each game's own).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
    depth: Option<u32>,
}

pub fn run(args: Args) -> Result<(), CliError> {
    Ok(crate::bench::run(args.depth, &mut std::io::stdout())?)
}
