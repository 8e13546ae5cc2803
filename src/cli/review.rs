//! `ludus review`: a game record reviewed move by move, on `ludus analysis`
//! (protocol-spec/analysis.md, "Review").

use std::io::Write;

use crate::analysis::review::{self, Review};
use crate::analysis::{self, TurnLimits};
use crate::game::Game;
use crate::games::Play;

use super::args::Setup;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    setup: Setup,
    /// Plies of each position's search.
    #[arg(long, conflicts_with_all = ["nodes", "movetime"], value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Nodes of each position's search (the default limit: 100,000).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    nodes: Option<u64>,
    /// Milliseconds of each position's search.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Searches side by side (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// The review as JSON, for scripts.
    #[arg(long)]
    json: bool,
    /// The record file, or - for standard input.
    file: String,
}

/// The default limit of each position's search.
const DEFAULT_NODES: u64 = 100_000;

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.setup.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        if !self.setup.rules.is_empty() {
            return Err(super::error::Refusal::ReviewRules.into());
        }
        let start: G = self.setup.position(None)?;
        let text = super::args::read_record(&self.file)?;
        let (start, moves) = review::replay(start, &text)?;
        let nodes = match (self.depth, self.nodes, self.movetime) {
            (None, None, None) => Some(DEFAULT_NODES),
            (_, nodes, _) => nodes,
        };
        let settings = analysis::Settings {
            threads: self.threads.map_or_else(super::args::cores, |t| t as usize),
            limits: TurnLimits {
                depth: self.depth,
                nodes,
                time_ms: self.movetime,
            },
            hash_mib: 64,
        };
        let reviewed = review::review(&start, &moves, &settings, None);
        let mut out = std::io::stdout().lock();
        if self.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&reviewed)?)?;
        } else {
            write!(out, "{}", annotated(&start, &moves, &reviewed))?;
        }
        Ok(())
    }
}

/// The record with the marks and the better moves as comments, the players' summary
/// before it as comment lines: a record ludus reads again.
fn annotated<G: Game>(start: &G, moves: &[G::Move], reviewed: &Review) -> String {
    let comments: Vec<Option<String>> = reviewed
        .moves
        .iter()
        .map(|m| {
            let mark = m.mark?;
            let line: Vec<&str> = m.best_line.iter().take(6).map(String::as_str).collect();
            let chance = |c: Option<f64>| c.map_or_else(|| "?".to_string(), |c| c.to_string());
            Some(format!(
                "{mark}: -{} points ({} -> {} %); best {}",
                m.loss,
                chance(m.chance_before),
                chance(m.chance_after),
                line.join(" ")
            ))
        })
        .collect();
    let header: String = reviewed
        .players
        .iter()
        .map(|p| {
            format!(
                "; {}: accuracy {}, average loss {} points, {} inaccuracies, {} mistakes, {} blunders\n",
                p.player, p.accuracy, p.average_loss, p.inaccuracies, p.mistakes, p.blunders
            )
        })
        .collect();
    crate::record::write_with_comments(
        start,
        moves,
        Some(header.trim_end()),
        G::NOTATIONS[0].notation,
        &comments,
    )
}
