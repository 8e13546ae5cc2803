//! Move generation speed: perft from the Sena-Mukha start, the last ply counted in bulk.
//! `cargo bench` prints the time per run; nodes per second = nodes / time.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ludus::game::Game;
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

criterion_group!(benches, senamukha_perft);
criterion_main!(benches);
