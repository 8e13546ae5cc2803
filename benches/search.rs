//! Search speed for each game (nodes per second at a fixed depth) and stop latency
//! (the time from setting the stop flag to the search returning).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ludus::game::Game;
use ludus::games::{mangala, mentula, senamukha};
use ludus::search::{Limits, Searchable};

fn nodes_at_depth<G: Searchable>(fen: &str, depth: u32) -> u64 {
    let mut position = G::from_fen(fen).unwrap();
    let mut engine = G::new_search(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    G::think(&mut engine, &mut position, &limits, &mut |_| {})
        .info
        .nodes
}

fn speed<G: Searchable>(c: &mut Criterion, fen: &str, depth: u32) {
    let nodes = nodes_at_depth::<G>(fen, depth);
    let mut group = c.benchmark_group(format!("{} search", G::NAME));
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("depth {depth} ({nodes} nodes)"), |b| {
        b.iter(|| nodes_at_depth::<G>(fen, depth))
    });
    group.finish();
}

fn search_speed(c: &mut Criterion) {
    speed::<senamukha::Position>(c, &senamukha::Position::start().fen(), 8);
    speed::<mangala::Position>(c, "6,6,6,6,6,6/6,6,6,6,6,6 S 0 0", 12);
    speed::<mentula::Position>(c, "YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 1", 5);
}

/// The time from `stop` to the search's return, for an infinite search already 20 ms
/// under way.
fn stop_latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("stop latency");
    group.sample_size(20);
    group.bench_function("senamukha, infinite search", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let stop = Arc::new(AtomicBool::new(false));
                let flag = stop.clone();
                let search = std::thread::spawn(move || {
                    let mut position = senamukha::Position::start();
                    let mut engine = senamukha::Position::new_search(16);
                    let limits = Limits {
                        infinite: true,
                        stop: Some(flag),
                        ..Limits::default()
                    };
                    senamukha::Position::think(&mut engine, &mut position, &limits, &mut |_| {});
                    Instant::now()
                });
                std::thread::sleep(Duration::from_millis(20));
                let stopped_at = Instant::now();
                stop.store(true, Ordering::Relaxed);
                let returned_at = search.join().unwrap();
                total += returned_at.duration_since(stopped_at);
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, search_speed, stop_latency);
criterion_main!(benches);
