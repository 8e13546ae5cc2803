//! The protocol soak: many ludus processes at once, each sent a random mix of native
//! requests (searches, counts, stops racing them, bad input) in random bursts. Every
//! request must get exactly one reply, in the order sent (`ping` may be answered beside
//! a search, `stop` ahead of requests waiting for the work it stops, and `isready` is
//! answered by an unframed `readyok`), every accepted `go`
//! exactly one `bestmove`, and every process must end cleanly without a panic.
//!
//! `cargo test --test soak` runs a small form; the full one is
//! `LUDUS_SOAK_PROCESSES=64 LUDUS_SOAK_REQUESTS=2000 cargo test --release --test soak`.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use ludus::game::Rng;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random request (without its id).
fn request(rng: &mut Rng) -> String {
    let pick = |rng: &mut Rng, items: &[&str]| items[rng.below(items.len())].to_string();
    match rng.below(20) {
        0 => format!(
            "game {}",
            pick(rng, &["senamukha", "mentula", "mangala", "chess"])
        ),
        1 => "newgame".into(),
        2 => pick(
            rng,
            &[
                "position startpos",
                "position startpos moves i3h5 c9d7",
                "position startpos moves A",
                "position startpos moves a1-b1-c1",
                "position fen 9r1/4pppp3/1N2k4r1/5n3pp/1p2K6/3p2p4/P3n1P4/1PPe4PRP/1R2NP1P3/3PP1P4/9R1 b - - 0 59",
                "position fen 6,6,6,6,6,6/6,6,6,6,6,6 N 0 0",
                "position fen nonsense",
            ],
        ),
        3 | 4 => format!(
            "go {}",
            pick(
                rng,
                &[
                    "depth 1",
                    "depth 3",
                    "nodes 500",
                    "movetime 5",
                    "movetime 30",
                    "infinite",
                    "mate 2",
                    "time white 50 time black 50 time south 50 time north 50",
                    "depth 99",
                ]
            )
        ),
        5 | 6 => "stop".into(),
        7 => "isready".into(),
        8 => format!("ping {}", rng.below(1000)),
        9 => pick(rng, &["fen", "status", "to_move", "show", "record"]),
        10 => pick(
            rng,
            &["legal_moves", "legal_moves san", "legal_moves fancy"],
        ),
        11 => format!("perft {}", rng.below(4)),
        12 => format!("divide {}", 1 + rng.below(2)),
        13 => format!("genmove depth {}", 1 + rng.below(2)),
        14 => format!("setoption name Hash value {}", rng.below(20)),
        15 => format!("undo {}", rng.below(3)),
        16 => pick(rng, &["play i3h5", "play A", "play a1-b1-c1", "play zz"]),
        17 => "load_record 1. Na3–b5 Na9–b7".into(),
        18 => pick(
            rng,
            &["bogus", "", "setoption name", "go depth", "perft -1"],
        ),
        _ => "list_options".into(),
    }
}

/// One process: sends `count` random requests in bursts, then `quit`, and checks
/// what came back.
fn soak_one(seed: u64, count: usize) {
    let mut rng = Rng(seed);
    let mut child = Command::cargo_bin("ludus")
        .unwrap()
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = Vec::new();
    for id in 1..=count {
        let text = request(&mut rng);
        lines.push((id, text.clone()));
        if stdin
            .write_all(format!("{id} {text}\n").as_bytes())
            .is_err()
        {
            break;
        }
        // Bursts: most requests arrive together, some after a pause, so that stops
        // and searches race.
        if rng.below(8) == 0 {
            stdin.flush().unwrap();
            std::thread::sleep(Duration::from_millis(rng.below(6) as u64));
        }
    }
    let quit = count + 1;
    stdin
        .write_all(format!("{quit} quit\n").as_bytes())
        .unwrap();
    drop(stdin);
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "seed {seed}: {status}\n{err}");
    assert!(!err.contains("panicked"), "seed {seed}: {err}");

    // The replies' ids in order, and what was unsolicited.
    let mut replied = Vec::new();
    let mut goes_accepted = 0;
    let (mut bestmoves, mut readyoks) = (0, 0);
    let mut expect_reply_line = true;
    for line in out.lines() {
        if line.is_empty() {
            expect_reply_line = true;
            continue;
        }
        if expect_reply_line && (line.starts_with('=') || line.starts_with('?')) {
            let id: usize = line[1..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap_or_else(|_| panic!("seed {seed}: a reply without an id: {line:?}"));
            if line.starts_with('=') && lines.get(id - 1).is_some_and(|(_, t)| t.starts_with("go "))
            {
                goes_accepted += 1;
            }
            replied.push(id);
            expect_reply_line = false;
            continue;
        }
        if line.starts_with("bestmove ") {
            bestmoves += 1;
        } else if line == "readyok" {
            readyoks += 1;
        }
    }
    let is = |id: usize, prefix: &str| {
        lines
            .get(id - 1)
            .is_some_and(|(_, t)| t.starts_with(prefix))
    };
    let expected: Vec<usize> = (1..=quit).filter(|&id| !is(id, "isready")).collect();
    let mut once = replied.clone();
    once.sort_unstable();
    assert_eq!(once, expected, "seed {seed}: one reply per request");
    // `stop` acts at once on running work, ahead of the requests waiting behind it.
    let in_turn: Vec<usize> = replied
        .iter()
        .copied()
        .filter(|&id| !is(id, "ping") && !is(id, "stop"))
        .collect();
    assert!(
        in_turn.windows(2).all(|w| w[0] < w[1]),
        "seed {seed}: replies in the order sent: {in_turn:?}"
    );
    let sent = |prefix: &str| lines.iter().filter(|(_, t)| t.starts_with(prefix)).count();
    assert_eq!(readyoks, sent("isready"), "seed {seed}");
    assert_eq!(bestmoves, goes_accepted, "seed {seed}: one bestmove per go");
}

#[test]
fn many_processes_answer_every_request_once_and_in_order() {
    let processes = setting("LUDUS_SOAK_PROCESSES", 4);
    let requests = setting("LUDUS_SOAK_REQUESTS", 150);
    let workers: Vec<_> = (0..processes)
        .map(|p| std::thread::spawn(move || soak_one(0x50A6_0000 + p as u64 + 1, requests)))
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
}
