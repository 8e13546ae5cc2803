//! `ludus replay`: a game record read, replayed and reported.

use std::io::Write;

use crate::games::Play;
use crate::record::ResultToken;

use super::args::Setup;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    setup: Setup,
    /// The record file, or - for standard input.
    file: String,
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.setup.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let file = &self.file;
        let start: G = self.setup.position(None)?;
        let text = super::args::read_record(file)?;
        let replay = crate::record::replay(start.clone(), &text)?;
        let canonical = G::NOTATIONS[0].notation;
        let mut position = start;
        let mut out = std::io::stdout().lock();
        for &mv in &replay.moves {
            writeln!(out, "{}", position.format_move(mv, canonical))?;
            position.play(mv);
        }
        writeln!(out, "position: {}", replay.position.fen())?;
        let result = match (replay.outcome(), &replay.stated_result) {
            (Some(outcome), _) => G::describe_outcome(&outcome),
            (None, Some(stated)) => match ResultToken::read(stated) {
                Some(ResultToken::FirstWins) => {
                    format!("{} wins (stated in the record)", G::PLAYERS[0])
                }
                Some(ResultToken::SecondWins) => {
                    format!("{} wins (stated in the record)", G::PLAYERS[1])
                }
                Some(ResultToken::Draw) => "draw (stated in the record)".to_string(),
                None => "ongoing (no result)".to_string(),
            },
            (None, None) => "ongoing (no result)".to_string(),
        };
        writeln!(out, "result: {result}")?;
        Ok(())
    }
}
