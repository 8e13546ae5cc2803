//! `ludus bench`: each game's bench positions ([`crate::search::Searchable::BENCH_POSITIONS`])
//! searched to its bench depth, one thread. The total node count is a signature of the search: it changes exactly when
//! the search's behaviour changes.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::game::PositionError;
use crate::games::{self, Play};
use crate::search::{Limits, MemoryError};
use crate::tournament::OpeningError;

/// Why a bench or a tree measurement stopped.
#[derive(Debug)]
pub enum BenchError {
    /// A bench position of the game's own list does not read.
    Position {
        fen: &'static str,
        error: PositionError,
    },
    Opening(OpeningError),
    Memory(MemoryError),
    Write(std::io::Error),
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Position { fen, error } => write!(f, "bench position {fen}: {error}"),
            BenchError::Opening(e) => e.fmt(f),
            BenchError::Memory(e) => e.fmt(f),
            BenchError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BenchError {}

impl From<std::io::Error> for BenchError {
    fn from(e: std::io::Error) -> Self {
        BenchError::Write(e)
    }
}

/// Searches the positions of one game; returns the nodes and the time searching (the
/// endgame tables are built before, and not timed).
fn run_game<G: Play>(
    depth: Option<u32>,
    out: &mut dyn Write,
) -> Result<(u64, Duration), BenchError> {
    let depth = depth.unwrap_or(G::BENCH_DEPTH);
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for fen in G::BENCH_POSITIONS {
        let mut position = G::from_fen(fen).map_err(|error| BenchError::Position { fen, error })?;
        let mut engine = G::new_search(16);
        G::wait_until_ready(&mut engine, &position);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let started = Instant::now();
        let result = G::think(&mut engine, &mut position, &limits, &mut |_| {});
        searching += started.elapsed();
        nodes += result.info.nodes;
        writeln!(
            out,
            "{} {fen}: {} nodes, best {}",
            G::NAME,
            result.info.nodes,
            result
                .best_move
                .map(|m| position.format_move(m, G::NOTATIONS[0].notation))
                .unwrap_or_else(|| "none".into())
        )?;
    }
    Ok((nodes, searching))
}

/// Runs the bench and prints one line per position, then `Bench: <nodes>` and the speed
/// (time spent searching only).
pub fn run(depth: Option<u32>, out: &mut dyn Write) -> Result<(), BenchError> {
    struct Bench<'a> {
        depth: Option<u32>,
        out: &'a mut dyn Write,
    }
    impl games::Visitor for Bench<'_> {
        type Output = Result<(u64, Duration), BenchError>;
        fn visit<G: Play>(self) -> Self::Output {
            run_game::<G>(self.depth, self.out)
        }
    }
    let mut runs = Vec::new();
    for name in games::NAMES {
        runs.push(
            games::visit(
                name,
                Bench {
                    depth,
                    out: &mut *out,
                },
            )
            .expect("a game")?,
        );
    }
    let total: u64 = runs.iter().map(|r| r.0).sum();
    let ms = runs
        .iter()
        .map(|r| r.1)
        .sum::<Duration>()
        .as_millis()
        .max(1) as u64;
    writeln!(out, "Bench: {total}")?;
    writeln!(out, "time {ms} ms, {} nodes per second", total * 1000 / ms)?;
    Ok(())
}

/// What `ludus tree` searches: positions, each to a limit, on one engine per position.
pub struct TreeRun {
    /// Opening lines (`startpos`, a position, either with `moves ...`).
    pub openings: Vec<String>,
    pub limits: Limits,
    pub hash_mib: usize,
    pub threads: usize,
}

/// One position's iterations: (depth, nodes so far, milliseconds so far).
type Iterations = Vec<(u32, u64, u64)>;

/// The geometric mean of the last `plies` iterations' node ratios (each iteration's
/// total nodes over the one before): the marginal cost of a ply.
fn marginal_cost(iterations: &Iterations, plies: usize) -> Option<f64> {
    let ratios: Vec<f64> = iterations
        .windows(2)
        .map(|w| w[1].1 as f64 / w[0].1.max(1) as f64)
        .collect();
    let last = &ratios[ratios.len().saturating_sub(plies)..];
    (!last.is_empty()).then(|| (last.iter().map(|r| r.ln()).sum::<f64>() / last.len() as f64).exp())
}

/// `ludus tree`: for each position, the nodes and time to each depth, the marginal cost
/// of the last four plies, how often the first move cut off and at which index moves
/// cut off on average, and how often the table knew the position; then the means over
/// the positions. The node counts are the search's signature for a fixed depth; the
/// depths reached within a time are what a player sees.
pub fn tree<G: Play>(run: &TreeRun, out: &mut dyn Write) -> Result<(), BenchError> {
    let mut depths = Vec::new();
    let mut costs = Vec::new();
    let mut total = crate::search::TreeStats::default();
    let mut nodes_total = 0;
    for (index, line) in run.openings.iter().enumerate() {
        let mut position: G =
            crate::tournament::opening_position(line).map_err(BenchError::Opening)?;
        let mut engine = G::new_search(run.hash_mib);
        G::set_threads(&mut engine, run.threads);
        G::prepare(&mut engine).map_err(BenchError::Memory)?;
        G::wait_until_ready(&mut engine, &position);
        let mut iterations: Iterations = Vec::new();
        G::think(&mut engine, &mut position, &run.limits, &mut |info| {
            iterations.push((info.depth, info.nodes, info.time_ms));
        });
        writeln!(out, "position {}: {line}", index + 1)?;
        writeln!(out, "  depth        nodes   time ms  x nodes")?;
        let mut previous = None;
        for &(depth, nodes, ms) in &iterations {
            let ratio = previous.map_or(String::new(), |p: u64| {
                format!("{:.2}", nodes as f64 / p.max(1) as f64)
            });
            writeln!(out, "  {depth:>5} {nodes:>12} {ms:>9} {ratio:>8}")?;
            previous = Some(nodes);
        }
        let reached = iterations.last().map_or(0, |i| i.0);
        nodes_total += iterations.last().map_or(0, |i| i.1);
        depths.push(reached);
        let cost = marginal_cost(&iterations, 4);
        if let Some(c) = cost {
            costs.push(c);
        }
        let stats = G::tree_stats(&engine).unwrap_or_default();
        total.interior += stats.interior;
        total.cutoffs += stats.cutoffs;
        total.first_move_cutoffs += stats.first_move_cutoffs;
        total.cutoff_index_sum += stats.cutoff_index_sum;
        total.table_probes += stats.table_probes;
        total.table_hits += stats.table_hits;
        writeln!(
            out,
            "  reached depth {reached}; last 4 plies {} a ply; first-move cutoffs {:.1} %, mean cutoff index {:.2}, table hits {:.1} %, table full {} permille",
            cost.map_or("-".to_string(), |c| format!("{c:.2} x")),
            stats.first_move_rate(),
            stats.mean_cutoff_index(),
            stats.table_hit_rate(),
            stats.hashfull
        )?;
    }
    let n = depths.len().max(1) as f64;
    let mean_depth = depths.iter().sum::<u32>() as f64 / n;
    let mean_cost = (costs.iter().map(|c| c.ln()).sum::<f64>() / costs.len().max(1) as f64).exp();
    writeln!(
        out,
        "Tree: {} positions, {nodes_total} nodes, mean depth {mean_depth:.2} (least {}, most {}), marginal cost {mean_cost:.2} x nodes a ply, first-move cutoffs {:.1} %, mean cutoff index {:.2}, table hits {:.1} %",
        depths.len(),
        depths.iter().min().unwrap_or(&0),
        depths.iter().max().unwrap_or(&0),
        total.first_move_rate(),
        total.mean_cutoff_index(),
        total.table_hit_rate()
    )?;
    Ok(())
}
