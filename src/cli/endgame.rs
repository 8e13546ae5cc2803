//! `ludus endgame`: builds the Mangala II endgame tables, or checks table files.

use std::io::Write;

use crate::games;

use super::CliError;
use super::error::Refusal;

#[derive(clap::Args)]
pub struct Args {
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
}

pub fn run(args: Args) -> Result<(), CliError> {
    let report = match (args.verify, args.counters) {
        (Some(dir), _) => games::endgame_verify(&dir, args.skip_origin)?,
        (None, Some(counters))
            if counters as usize > games::ENDGAME_IN_MEMORY && args.write.is_none() =>
        {
            return Err(Refusal::TablesNeedFiles {
                counters,
                in_memory: games::ENDGAME_IN_MEMORY,
            }
            .into());
        }
        (None, Some(counters)) => {
            games::endgame_report(counters as usize, args.skip_origin, args.write.as_deref())?
        }
        (None, None) => return Err(Refusal::NoEndgameWork.into()),
    };
    write!(std::io::stdout().lock(), "{report}")?;
    Ok(())
}
