//! `ludus match`: a match between engines refereed by ludus, and `ludus match merge`,
//! which joins the summaries of a match played in shards (protocol-spec/command-line.md).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use crate::games::{self, Play};
use crate::tournament::{self, EngineSpec, MatchError, Settings, Sprt, TimeControl};

use super::args::{GameChoice, OneLimit, Setting, setting};
use super::error::Refusal;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    #[command(flatten)]
    game: GameChoice,
    /// An engine: its command line, or settings `cmd=... name=... proto=native|uci|ugi
    /// tc=... option.<Name>=<value>` (repeat: two engines, four for Mentula).
    #[arg(long = "engine", value_name = "ENGINE", required = true)]
    engines: Vec<String>,
    /// Clock per player: [moves/]seconds[+increment], e.g. 10+0.1 or 40/60.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<String>,
    /// A fixed limit per move instead of a clock.
    #[command(flatten)]
    limit: OneLimit,
    /// Games to play (default: one set per opening: 2 games each, 4 for Mentula).
    #[arg(long)]
    games: Option<usize>,
    /// Openings: one a line, `startpos` or a position, optionally followed by `moves ...`.
    #[arg(long)]
    openings: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// Milliseconds an engine may overrun its clock or movetime before it loses.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    margin: u64,
    /// With --depth or --nodes: milliseconds without an answer that count as a stall.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    timeout: u64,
    /// A game still going after this many moves is adjudicated a draw (all players
    /// sharing the place).
    #[arg(long, default_value_t = 1_000)]
    max_moves: usize,
    /// Stop when decided: "elo0=0 elo1=5 alpha=0.05 beta=0.05" (two engines).
    #[arg(long)]
    sprt: Option<String>,
    /// Append every game's record to this file.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Write a JSON summary here at the end.
    #[arg(long)]
    summary: Option<PathBuf>,
    /// Keep the match's state here after every game; an existing one is resumed.
    #[arg(long)]
    state: Option<PathBuf>,
    /// A rule option, as name=value (repeatable), for the referee and every engine.
    #[arg(long = "rule", value_name = "NAME=VALUE", value_parser = setting)]
    rules: Vec<Setting>,
    /// Play only part K of N of the schedule (whole opening sets, every N-th from the
    /// K-th): the same command with 1/N to N/N on N machines plays the whole match;
    /// `ludus match merge` joins their summaries.
    #[arg(long, value_name = "K/N", value_parser = tournament::Shard::parse)]
    shard: Option<tournament::Shard>,
}

/// What `ludus match` does besides playing.
#[derive(clap::Subcommand)]
enum Action {
    /// Joins the JSON summaries of a match's shards (`--shard K/N`) into one result:
    /// the report of the whole match, its summary and its records in schedule order.
    Merge {
        /// The shards' summaries (`--summary` of each shard).
        #[arg(required = true)]
        summaries: Vec<PathBuf>,
        /// Write the merged JSON summary here.
        #[arg(long)]
        summary: Option<PathBuf>,
        /// Write every game's record here, in schedule order.
        #[arg(long)]
        records: Option<PathBuf>,
    },
}

pub fn run(args: Args) -> Result<(), CliError> {
    if let Some(Action::Merge {
        summaries,
        summary,
        records,
    }) = args.action
    {
        return merge(&summaries, summary, records);
    }
    super::for_game(args)
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let engines = self
            .engines
            .iter()
            .enumerate()
            .map(|(i, text)| EngineSpec::parse(text, i))
            .collect::<Result<Vec<_>, _>>()?;
        let OneLimit {
            movetime,
            depth,
            nodes,
        } = self.limit;
        let time_control = match (&self.tc, movetime, depth, nodes) {
            (Some(tc), ..) => TimeControl::parse_clock(tc)?,
            (_, Some(ms), ..) => TimeControl::MoveTime(Duration::from_millis(ms)),
            (_, _, Some(d), _) => TimeControl::Depth(d),
            (_, _, _, Some(n)) => TimeControl::Nodes(n),
            _ => return Err(Refusal::NoMatchLimit.into()),
        };
        let openings = match &self.openings {
            Some(path) => {
                let text = crate::files::read_text(path.as_ref(), tournament::OPENINGS_LIMIT)
                    .map_err(|error| MatchError::File {
                        option: "--openings",
                        error,
                    })?;
                tournament::read_openings::<G>(&text)?
            }
            None => vec!["startpos".to_string()],
        };
        let players = G::PLAYERS.len();
        let config = tournament::MatchConfig {
            engines,
            settings: Settings {
                time_control,
                margin: Duration::from_millis(self.margin),
                stall: Duration::from_millis(self.timeout),
                max_plies: self.max_moves,
            },
            games: self.games.unwrap_or(players * openings.len()),
            openings,
            concurrency: self.concurrency as usize,
            sprt: self.sprt.as_deref().map(Sprt::parse).transpose()?,
            rules: self.rules.into_iter().map(|s| (s.name, s.value)).collect(),
            shard: self.shard,
            records: self.records,
            summary: self.summary,
            state: self.state,
        };
        tournament::run::<G>(config, &mut std::io::stdout())?;
        Ok(())
    }
}

/// `ludus match merge`: the shards' summaries read, merged, reported, written.
fn merge(
    paths: &[PathBuf],
    summary: Option<PathBuf>,
    records: Option<PathBuf>,
) -> Result<(), CliError> {
    let refused = |option, error| MatchError::File { option, error };
    // The files written are checked before anything is read or printed.
    for (option, path) in [("--summary", &summary), ("--records", &records)] {
        if let Some(path) = path {
            crate::files::check_writable(path).map_err(|e| refused(option, e))?;
        }
    }
    let texts = paths
        .iter()
        .map(|path| {
            crate::files::read_text(path, tournament::STATE_LIMIT)
                .map(|text| (path.clone(), text))
                .map_err(|e| refused("a summary", e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let merged = tournament::merge(&texts)?;
    let report = tournament::report(&merged.config, &merged.results, &merged.game);
    let listed = |shards: &mut dyn Iterator<Item = usize>| {
        shards.map(|k| k.to_string()).collect::<Vec<_>>().join(", ")
    };
    let missing = listed(&mut (1..=merged.count).filter(|k| !merged.shards.contains(k)));
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "merged {} games from shards {} of {}{}",
        merged.results.len(),
        listed(&mut merged.shards.iter().copied()),
        merged.count,
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {missing})")
        }
    )?;
    writeln!(out, "{}", report.lines.join("\n"))?;
    if let Some(path) = summary {
        let mut json = report.json;
        json["config"] = serde_json::json!(merged.config);
        json["shards"] = serde_json::json!(merged.shards);
        json["shard_count"] = serde_json::json!(merged.count);
        let text = serde_json::to_string_pretty(&json)?;
        std::fs::write(&path, text).map_err(|error| CliError::Write { path, error })?;
    }
    if let Some(path) = records {
        struct Records<'a>(&'a tournament::Merged);
        impl games::Visitor for Records<'_> {
            type Output = String;
            fn visit<G: Play>(self) -> String {
                self.0
                    .results
                    .iter()
                    .map(|r| tournament::game_record::<G>(r, &self.0.config))
                    .collect()
            }
        }
        let text = games::visit(&merged.game, Records(&merged))
            .ok_or_else(|| Refusal::MergedUnknownGame(merged.game.clone()))?;
        std::fs::write(&path, text).map_err(|error| CliError::Write { path, error })?;
    }
    Ok(())
}
