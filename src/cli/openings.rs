//! `ludus openings`: random openings for `ludus match --openings`.

use std::io::Write;

use crate::games::Play;

use super::args::GameChoice;
use super::error::Refusal;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameChoice,
    /// Moves (plies) in each opening.
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// How many openings.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// The random seed: the same seed gives the same openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let Args {
            plies, count, seed, ..
        } = self;
        let openings = crate::tournament::random_openings::<G>(plies, count, seed);
        // Fewer than asked would pass for a whole file: nothing is printed.
        if openings.len() < count {
            return Err(Refusal::TooFewOpenings {
                count,
                plies,
                found: openings.len(),
                tries: count.saturating_mul(crate::tournament::OPENING_TRIES),
                game: G::NAME,
            }
            .into());
        }
        let mut out = std::io::stdout().lock();
        for line in openings {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}
