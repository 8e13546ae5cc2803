//! The daemon through pipes: start-up to the first reply, and `stop` to `bestmove`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

fn spawn() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the ludus binary")
}

fn protocol(c: &mut Criterion) {
    let mut group = c.benchmark_group("protocol");
    group.sample_size(20);
    group.bench_function("start-up to the first reply", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let started = Instant::now();
                let mut child = spawn();
                let mut stdin = child.stdin.take().unwrap();
                stdin.write_all(b"name\n").unwrap();
                let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
                let first = lines.next().unwrap().unwrap();
                total += started.elapsed();
                assert_eq!(first, "= ludus");
                drop(stdin);
                child.wait().unwrap();
            }
            total
        })
    });
    group.bench_function("stop to bestmove (Sena-Mukha, infinite search)", |b| {
        b.iter_custom(|iterations| {
            let mut child = spawn();
            let mut stdin = child.stdin.take().unwrap();
            let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                stdin.write_all(b"go infinite\n").unwrap();
                assert_eq!(lines.next().unwrap().unwrap(), "=");
                assert_eq!(lines.next().unwrap().unwrap(), "");
                std::thread::sleep(Duration::from_millis(30));
                let stopped = Instant::now();
                stdin.write_all(b"stop\n").unwrap();
                stdin.flush().unwrap();
                loop {
                    let line = lines.next().unwrap().unwrap();
                    if line.starts_with("bestmove ") {
                        total += stopped.elapsed();
                        break;
                    }
                }
                // The stop's own reply.
                assert_eq!(lines.next().unwrap().unwrap(), "=");
                assert_eq!(lines.next().unwrap().unwrap(), "");
            }
            drop(stdin);
            child.wait().unwrap();
            total
        })
    });
    group.finish();
}

criterion_group!(benches, protocol);
criterion_main!(benches);
