//! `ludus search`: one search of a position, its progress printed as `info` lines and
//! its answer as `bestmove`, through the same engine the protocol drives.

use std::io::Write;
use std::time::Duration;

use crate::engine::{Bounds, Engine, Event, OptionScope, SearchRequest, WorkKind};
use crate::games::Play;
use crate::games::mangala::ENDGAME_PATH;

use super::args::{EngineOptions, Line};
use super::error::Refusal;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    line: Line,
    /// Search this many plies deep.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Look for a mate in at most this many moves, searching every line to its
    /// depth (as UCI's go mate).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
    mate: Option<u32>,
    /// Transposition table size in MiB (1 to 16384, as the protocol's Hash).
    #[arg(long, default_value_t = 64, value_parser = crate::engine::parse_hash)]
    hash: usize,
    #[command(flatten)]
    options: EngineOptions,
    /// Mangala II endgame tables from this folder (`ludus endgame --write` makes
    /// them), as the EndgamePath option.
    #[arg(long, value_name = "DIR")]
    endgame_path: Option<std::path::PathBuf>,
    /// Report this many best lines (1 to 64), as the MultiPV option.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    multipv: u32,
    /// Consider only these root moves, separated by spaces (as go searchmoves).
    #[arg(long)]
    searchmoves: Option<String>,
}

/// Words separated by spaces, as a list.
fn words(text: Option<&str>) -> Vec<String> {
    text.unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect()
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.line.setup.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let mut engine = Engine::new(vec![G::NAME], OptionScope::CurrentGame, Bounds::default());
        for rule in &self.line.setup.rules {
            engine.game().set_rule(&rule.name, &rule.value)?;
        }
        engine.set_option(crate::engine::HASH.name, &self.hash.to_string())?;
        engine.set_option(crate::engine::MULTI_PV.name, &self.multipv.to_string())?;
        if let Some(dir) = &self.endgame_path {
            engine.set_option(ENDGAME_PATH.name, &dir.display().to_string())?;
        }
        for option in &self.options.options {
            engine.set_option(&option.name, &option.value)?;
        }
        engine.set_position(
            self.line.setup.fen.as_deref(),
            &words(self.line.moves.as_deref()),
        )?;
        if engine.game().is_over() {
            return Err(Refusal::GameOver.into());
        }
        engine.game().wait_until_ready();
        engine.prepare_search()?;
        let request = SearchRequest {
            depth: self.depth,
            mate: self.mate,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            searchmoves: words(self.searchmoves.as_deref()),
            ..SearchRequest::default()
        };
        let (sender, events) = std::sync::mpsc::channel();
        engine.go(request, false, WorkKind::Search, move |event| {
            let _ = sender.send(event);
        })?;
        let mut out = std::io::stdout().lock();
        for event in events {
            match event {
                Event::Info(info) => writeln!(out, "{info}")?,
                Event::Note(note) => writeln!(out, "info string {note}")?,
                Event::CurrentMove { .. } => {}
                Event::Done(done) => {
                    if let Some(verdict) = done.mate_verdict {
                        writeln!(out, "info string {verdict}")?;
                    }
                    writeln!(out, "bestmove {}", done.best.as_deref().unwrap_or("none"))?;
                    break;
                }
            }
        }
        engine.wait();
        Ok(())
    }
}
