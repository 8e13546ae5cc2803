//! `ludus bench`: each game's bench positions ([`crate::search::Searchable::BENCH_POSITIONS`])
//! searched to its bench depth, one thread. The total node count is a signature of the search: it changes exactly when
//! the search's behaviour changes.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::games::{self, Play};
use crate::search::Limits;

/// Searches the positions of one game; returns the nodes and the time searching (the
/// endgame tables are built before, and not timed).
fn run_game<G: Play>(depth: Option<u32>, out: &mut dyn Write) -> Result<(u64, Duration), String> {
    let depth = depth.unwrap_or(G::BENCH_DEPTH);
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for fen in G::BENCH_POSITIONS {
        let mut position = G::from_fen(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
        let mut engine = G::engine(16);
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
                .map(|m| position.format_move(m, G::NOTATIONS[0].1))
                .unwrap_or_else(|| "none".into())
        )
        .map_err(|e| e.to_string())?;
    }
    Ok((nodes, searching))
}

/// Runs the bench and prints one line per position, then `Bench: <nodes>` and the speed
/// (time spent searching only).
pub fn run(depth: Option<u32>, out: &mut dyn Write) -> Result<(), String> {
    struct Bench<'a> {
        depth: Option<u32>,
        out: &'a mut dyn Write,
    }
    impl games::Visitor for Bench<'_> {
        type Output = Result<(u64, Duration), String>;
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
    writeln!(out, "Bench: {total}").map_err(|e| e.to_string())?;
    writeln!(out, "time {ms} ms, {} nodes per second", total * 1000 / ms)
        .map_err(|e| e.to_string())?;
    Ok(())
}
