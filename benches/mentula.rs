//! Mentula: the reach table's one-time build, a reach lookup, and the scores of a
//! position (four reaches).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ludus::game::Game;
use ludus::games::mentula::{Position, reach};

fn mentula_reach(c: &mut Criterion) {
    let mut group = c.benchmark_group("mentula reach");
    group.sample_size(10);
    group.bench_function("build the table (once per process)", |b| {
        b.iter(|| black_box(reach::build_table()))
    });
    reach::prepare();
    let position =
        Position::from_fen("8/2Y5/1Y2R3/3WR3/3WW3/2M5/1M6/8 w 0 1").expect("a valid position");
    group.sample_size(100);
    group.bench_function("reach of one player", |b| {
        b.iter(|| black_box(reach::reach(black_box(position.men(0)))))
    });
    group.bench_function("scores of a position", |b| {
        b.iter(|| black_box(reach::shared_scores(black_box(position.all_men()))))
    });
    group.bench_function("outcome of the start position", |b| {
        let start = Position::start();
        b.iter(|| black_box(black_box(&start).outcome()))
    });
    group.finish();
}

criterion_group!(benches, mentula_reach);
criterion_main!(benches);
