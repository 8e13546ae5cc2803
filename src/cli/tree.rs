//! `ludus tree`: the search tree measured from the start and the first openings of a
//! file (protocol-spec/command-line.md).

use std::time::Duration;

use crate::games::Play;
use crate::search::Limits;

use super::args::{GameChoice, OneLimit};
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameChoice,
    /// An openings file (as `ludus match --openings`): its first --count lines are
    /// searched after the start position.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// How many openings of the file.
    #[arg(long, default_value_t = 8)]
    count: usize,
    /// Each position's limit (the default: 4000 milliseconds).
    #[command(flatten)]
    limit: OneLimit,
    #[arg(long, default_value_t = 64, value_parser = crate::engine::parse_hash)]
    hash: usize,
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let mut lines = vec!["startpos".to_string()];
        if let Some(path) = &self.openings {
            let text = crate::files::read_text(path, crate::tournament::OPENINGS_LIMIT)?;
            let file = crate::tournament::read_openings::<G>(&text)?;
            lines.extend(file.into_iter().take(self.count));
        }
        let OneLimit {
            movetime,
            depth,
            nodes,
        } = self.limit;
        let movetime = (depth.is_none() && nodes.is_none()).then(|| movetime.unwrap_or(4000));
        let run = crate::bench::TreeRun {
            openings: lines,
            limits: Limits {
                depth,
                nodes,
                movetime: movetime.map(Duration::from_millis),
                ..Limits::default()
            },
            hash_mib: self.hash,
            threads: self.threads as usize,
        };
        Ok(crate::bench::tree::<G>(&run, &mut std::io::stdout())?)
    }
}
