//! `ludus perft`: counts the leaves of the legal move tree.

use std::io::Write;
use std::time::Instant;

use crate::games::Play;

use super::args::Line;
use super::error::Refusal;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    line: Line,
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// One line per legal move with its count, then the total.
    #[arg(long)]
    divide: bool,
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.line.setup.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let depth = self.depth;
        if self.divide && depth == 0 {
            return Err(Refusal::DivideAtDepthZero.into());
        }
        let mut position: G = self.line.position()?;
        let canonical = G::NOTATIONS[0].notation;
        let started = Instant::now();
        let mut out = std::io::stdout().lock();
        let total = if self.divide {
            let mut total = 0;
            for (mv, count) in crate::perft::divide(&mut position, depth) {
                writeln!(out, "{}: {count}", position.format_move(mv, canonical))?;
                total += count;
            }
            total
        } else {
            crate::perft::perft(&mut position, depth)
        };
        writeln!(out, "Nodes searched: {total}")?;
        let seconds = started.elapsed().as_secs_f64();
        log::info!(
            "perft {depth}: {total} nodes in {seconds:.3} s, {:.1} M nodes/s",
            total as f64 / seconds.max(1e-9) / 1e6
        );
        Ok(())
    }
}
