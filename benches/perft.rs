//! Move generation speed: perft from the Sena-Mukha and Mangala II starts, the last ply
//! counted in bulk. `cargo bench` prints the time per run and the leaves per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ludus::game::Game;
use ludus::games::mangala;
use ludus::games::senamukha::Position;
use ludus::perft::perft;

fn senamukha_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("senamukha perft");
    for (depth, nodes) in [(3u32, 113_700u64), (4, 5_568_223)] {
        group.throughput(Throughput::Elements(nodes));
        group.sample_size(10);
        group.bench_function(format!("start depth {depth} (bulk)"), |b| {
            let mut position = Position::start();
            b.iter(|| assert_eq!(perft(black_box(&mut position), depth), nodes))
        });
    }
    group.finish();
}

/// Perft that plays every move of the last ply too, for the "full" figure.
fn perft_full(position: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(64);
    position.legal_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        position.play(mv);
        nodes += perft_full(position, depth - 1);
        position.undo();
    }
    nodes
}

fn senamukha_perft_full(c: &mut Criterion) {
    let mut group = c.benchmark_group("senamukha perft");
    group.throughput(Throughput::Elements(5_568_223));
    group.sample_size(10);
    group.bench_function("start depth 4 (every leaf played)", |b| {
        let mut position = Position::start();
        b.iter(|| assert_eq!(perft_full(black_box(&mut position), 4), 5_568_223))
    });
    group.finish();
}

fn mangala_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("mangala perft");
    group.throughput(Throughput::Elements(32_284_295));
    group.sample_size(10);
    group.bench_function("start depth 10 (bulk)", |b| {
        let mut position = mangala::Position::start();
        b.iter(|| assert_eq!(perft(black_box(&mut position), 10), 32_284_295))
    });
    group.finish();
}

criterion_group!(
    benches,
    senamukha_perft,
    senamukha_perft_full,
    mangala_perft
);
criterion_main!(benches);
