//! `ludus review`: a game record reviewed move by move, on `ludus analysis`
//! (protocol-spec/analysis.md, "Review").

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::analysis::review::{self, Mark};
use crate::analysis::{self, TurnLimits};
use crate::game::Game;
use crate::games::Play;
use serde_json::{Value, json};

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

/// What `ludus analysis` writes, kept in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.setup.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        if !self.setup.rules.is_empty() {
            return Err(super::error::Refusal::ReviewRules.into());
        }
        let file = &self.file;
        let start: G = self.setup.position(None)?;
        let text = super::args::read_record(file)?;
        let replay = crate::record::replay(start.clone(), &text)?;
        let canonical = G::NOTATIONS[0].notation;
        // Every position of the game: before each move, and the last.
        let mut positions = vec![start.clone()];
        let mut moves = Vec::new();
        for &mv in &replay.moves {
            let mut next = positions.last().expect("one at least").clone();
            moves.push(next.format_move(mv, canonical));
            next.play(mv);
            positions.push(next);
        }
        let nodes = match (self.depth, self.nodes, self.movetime) {
            (None, None, None) => Some(DEFAULT_NODES),
            (_, nodes, _) => nodes,
        };
        let query = json!({"id": "review", "game": G::NAME, "initialPosition": start.fen(),
            "moves": moves, "analyzeTurns": (0..positions.len()).collect::<Vec<_>>(),
            "includeWDL": true});
        let captured = Captured::default();
        let settings = analysis::Settings {
            threads: self.threads.map_or_else(super::args::cores, |t| t as usize),
            limits: TurnLimits {
                depth: self.depth,
                nodes,
                time_ms: self.movetime,
            },
            hash_mib: 64,
        };
        let input = std::io::Cursor::new(format!("{query}\n").into_bytes());
        analysis::serve(input, captured.clone(), settings);
        let output = String::from_utf8_lossy(&captured.0.lock().unwrap_or_else(|e| e.into_inner()))
            .into_owned();
        let mut turns: Vec<Value> = vec![Value::Null; positions.len()];
        for line in output.lines() {
            let response: Value = serde_json::from_str(line)?;
            if let Some(error) = response["error"].as_str() {
                log::warn!("turn {}: {error}", response["turnNumber"]);
            }
            if let Some(turn) = response["turnNumber"].as_u64() {
                turns[turn as usize] = response;
            }
        }
        let reviewed = judge(&positions, &moves, &turns);
        let mut out = std::io::stdout().lock();
        if self.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&reviewed)?)?;
        } else {
            write!(out, "{}", annotated(&start, &replay.moves, &reviewed))?;
        }
        Ok(())
    }
}

/// Each player's chance at each position, in turn order: from the analysis, or the
/// game's result at its end.
fn chances<G: Game>(position: &G, turn: &Value) -> Option<Vec<f64>> {
    if let Some(outcome) = position.outcome() {
        let leaders = outcome.leaders();
        return Some(
            (0..G::PLAYERS.len())
                .map(|p| {
                    if leaders.contains(&p) {
                        1.0 / leaders.len() as f64
                    } else {
                        0.0
                    }
                })
                .collect(),
        );
    }
    let wdl: Vec<u64> = turn["rootInfo"]["wdl"]
        .as_array()?
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    if G::PLAYERS.len() == 2 {
        Some(review::two_player_chances(&wdl, position.to_move()))
    } else {
        Some(wdl.iter().map(|&c| c as f64 / 1000.0).collect())
    }
}

fn judge<G: Game>(positions: &[G], moves: &[String], turns: &[Value]) -> Value {
    let chances: Vec<Option<Vec<f64>>> = positions
        .iter()
        .zip(turns)
        .map(|(p, t)| chances(p, t))
        .collect();
    let players = G::PLAYERS.len();
    let mut accuracies: Vec<Vec<f64>> = vec![Vec::new(); players];
    let mut losses: Vec<Vec<f64>> = vec![Vec::new(); players];
    let mut marks: Vec<[u32; 3]> = vec![[0; 3]; players];
    let mut judged = Vec::new();
    let mut legal = Vec::new();
    for (ply, played) in moves.iter().enumerate() {
        let position = &positions[ply];
        let player = position.to_move();
        position.legal_moves(&mut legal);
        let turn = &turns[ply];
        let best = turn["moveInfos"][0]["move"].as_str().map(String::from);
        let (before, after) = match (&chances[ply], &chances[ply + 1]) {
            (Some(b), Some(a)) => (b[player], a[player]),
            _ => (f64::NAN, f64::NAN),
        };
        // The engine's own choice gives nothing away: a drop then is the next
        // search seeing further, not the move's fault.
        let loss = if best.as_deref() == Some(played.as_str()) || before.is_nan() {
            0.0
        } else {
            (100.0 * (before - after)).max(0.0)
        };
        let mark = review::mark(loss, legal.len() == 1);
        let accuracy = review::move_accuracy(loss);
        accuracies[player].push(accuracy);
        losses[player].push(loss);
        if let Some(m) = mark {
            marks[player][m as usize] += 1;
        }
        let round = |x: f64| (x * 10.0).round() / 10.0;
        judged.push(json!({
            "ply": ply + 1,
            "player": G::PLAYERS[player],
            "move": played,
            "best": best,
            "bestLine": turn["moveInfos"][0]["pv"],
            "scoreBefore": turn["rootInfo"].get("scoreCp").or(turn["rootInfo"].get("mate")).or(turn["rootInfo"].get("scores")),
            "chanceBefore": if before.is_nan() { Value::Null } else { json!(round(100.0 * before)) },
            "chanceAfter": if after.is_nan() { Value::Null } else { json!(round(100.0 * after)) },
            "loss": round(loss),
            "mark": mark,
            "accuracy": round(accuracy),
        }));
    }
    let summary: Vec<Value> = (0..players)
        .map(|p| {
            let n = losses[p].len().max(1) as f64;
            json!({
                "player": G::PLAYERS[p],
                "moves": losses[p].len(),
                "accuracy": (review::player_accuracy(&accuracies[p]) * 10.0).round() / 10.0,
                "averageLoss": (losses[p].iter().sum::<f64>() / n * 10.0).round() / 10.0,
                "inaccuracies": marks[p][Mark::Inaccuracy as usize],
                "mistakes": marks[p][Mark::Mistake as usize],
                "blunders": marks[p][Mark::Blunder as usize],
            })
        })
        .collect();
    json!({"game": G::NAME, "moves": judged, "players": summary})
}

/// The record with the marks and the better moves as comments, the players' summary
/// before it as comment lines: a record ludus reads again.
fn annotated<G: Game>(start: &G, moves: &[G::Move], reviewed: &Value) -> String {
    let comments: Vec<Option<String>> = reviewed["moves"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|m| {
                    let mark = m["mark"].as_str()?;
                    let line: Vec<&str> = m["bestLine"]
                        .as_array()
                        .map(|pv| pv.iter().take(6).filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    Some(format!(
                        "{mark}: -{} points ({} -> {} %); best {}",
                        m["loss"],
                        m["chanceBefore"],
                        m["chanceAfter"],
                        line.join(" ")
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let header: String = reviewed["players"]
        .as_array()
        .map(|players| {
            players
                .iter()
                .map(|p| {
                    format!(
                        "; {}: accuracy {}, average loss {} points, {} inaccuracies, {} mistakes, {} blunders\n",
                        p["player"].as_str().unwrap_or(""),
                        p["accuracy"],
                        p["averageLoss"],
                        p["inaccuracies"],
                        p["mistakes"],
                        p["blunders"]
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    crate::record::write_with_comments(
        start,
        moves,
        Some(header.trim_end()),
        G::NOTATIONS[0].notation,
        &comments,
    )
}
