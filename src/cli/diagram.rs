//! `ludus diagram`: a position drawn as SVG.

use std::io::Write;

use crate::games::Play;

use super::args::Line;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    line: Line,
    /// Something more to draw (repeatable): Mentula's reach.
    #[arg(long = "layer", value_name = "LAYER")]
    layers: Vec<String>,
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.line.setup.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let mut position: G = self.line.position()?;
        // The last move is marked: taken back to learn it, then played again.
        let last = position.undo();
        if let Some(mv) = last {
            position.play(mv);
        }
        let drawn = crate::game::diagram_layers::<G>(&self.layers)?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", position.diagram_svg_with(last, &drawn))?;
        Ok(())
    }
}
