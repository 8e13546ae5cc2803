//! The model-based test of the protocol in every phase (fuzz/src/model.rs), in the
//! bounded form every `cargo test` runs: random scripts in each dialect, each driven
//! through idle, searching, pondering, analysing, counting and `genmove` with every
//! command of its dialect at random moments. `fuzz/run protocol_model` runs it at
//! length under libFuzzer; `LUDUS_MODEL_RUNS=N` runs N scripts per dialect here.

#[path = "../fuzz/src/model.rs"]
mod model;

use ludus::game::Rng;
use model::{Dialect, Figures};

fn runs() -> usize {
    std::env::var("LUDUS_MODEL_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6)
}

fn drive(dialect: Dialect, seed: u64) {
    let mut rng = Rng(seed);
    let mut all = Figures::default();
    let runs = runs();
    for _ in 0..runs {
        let bytes: Vec<u8> = (0..48).map(|_| rng.below(256) as u8).collect();
        let figures = model::run(dialect, &bytes);
        all.requests += figures.requests;
        all.stops += figures.stops;
        all.pairs.extend(figures.pairs);
        all.phases.extend(figures.phases);
        all.longest_stop = all.longest_stop.max(figures.longest_stop);
    }
    // The figures of the closing note: `cargo test --test model -- --nocapture`.
    println!(
        "{dialect:?}: {runs} runs, {} requests, {} phases, {} (phase, command) pairs, \
         {} stops, the longest {:?}; panics 0, order violations 0",
        all.requests,
        all.phases.len(),
        all.pairs.len(),
        all.stops,
        all.longest_stop
    );
    assert!(all.phases.len() >= 3, "{dialect:?} reached too few phases");
}

/// One test for the four dialects, in turn: the model counts every panic of the
/// process, so no other test may run beside it.
#[test]
fn the_protocol_in_every_phase_of_every_dialect() {
    drive(Dialect::Native, 1);
    drive(Dialect::Uci, 2);
    drive(Dialect::Ugi, 3);
    drive(Dialect::Cecp, 4);
}
