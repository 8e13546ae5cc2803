//! `ludus bench`: fixed positions of all three games searched to a fixed depth, one
//! thread. The total node count is a signature of the search: it changes exactly when
//! the search's behaviour changes.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::games::{mangala, mentula, senamukha};
use crate::search::{Limits, Searchable};

/// Sena-Mukha positions: the start, an opening, and the positions before the mating
/// moves of the seed's first two games and of the side line of its third.
const SENAMUKHA: &[&str] = &[
    senamukha::fen::START,
    "3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/2Nn7/11/11/PPPPP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 3 2",
    "11/3ppp1p3/8r2/3pkp1p2p/p3n6/2e1Pe5/7K1P1/P2P3P2P/4P6/4PP1P3/6r4 b - - 0 73",
    "11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
    "2e3r4/3ppppp3/nrn1n1n1nr1/ppp3ppppp/3p1n1k3/3Np6/7PE2/PPPPP1N1PPP/1RN1NKN2R1/3PPPPP3/4R6 w - - 1 33",
];

const MANGALA: &[&str] = &[
    "6,6,6,6,6,6/6,6,6,6,6,6 S 0 0",
    "9,8,0,8,7,0/0,9,9,2,9,9 S 0 2",
    "3,0,5,1,0,2/4,1,0,7,2,1 N 24 22",
];

const MENTULA: &[&str] = &[
    "YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 1",
    "Y7/Y5RR/1Y3R2/1Y6/4R1M1/2W3M1/1W5M/1W5M w 1 3",
];

/// Searches the positions of one game; returns the nodes and the time searching (the
/// endgame tables are built before, and not timed).
fn run_game<G: Searchable>(
    positions: &[&str],
    depth: u32,
    out: &mut dyn Write,
) -> Result<(u64, Duration), String> {
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for fen in positions {
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
    let runs = [
        run_game::<senamukha::Position>(SENAMUKHA, depth.unwrap_or(7), out)?,
        run_game::<mangala::Position>(MANGALA, depth.unwrap_or(12), out)?,
        run_game::<mentula::Position>(MENTULA, depth.unwrap_or(5), out)?,
    ];
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
