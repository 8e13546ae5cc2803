//! `ludus analysis`: JSON queries on standard input, JSON responses on standard output
//! (protocol-spec/analysis.md).

use crate::analysis::{self, TurnLimits};

use super::CliError;

#[derive(clap::Args)]
pub struct Args {
    /// Searches run side by side (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Depth of a turn whose query sets no limit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Nodes of a turn whose query sets no limit.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    nodes: Option<u64>,
    /// Milliseconds of a turn whose query sets no limit (with no limit at all: 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Each search's hash table, MiB (as the protocol's Hash).
    #[arg(long, default_value_t = 64, value_parser = crate::engine::parse_hash)]
    hash: usize,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let settings = analysis::Settings {
        threads: args.threads.map_or_else(super::args::cores, |t| t as usize),
        limits: TurnLimits {
            depth: args.depth,
            nodes: args.nodes,
            time_ms: args.movetime,
        },
        hash_mib: args.hash,
    };
    analysis::serve(std::io::stdin(), std::io::stdout(), settings);
    Ok(())
}
