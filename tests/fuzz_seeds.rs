//! The fuzz targets' properties (fuzz/src/lib.rs) on their committed seeds and on a few
//! thousand mutations of them: the bounded form of `fuzz/run` that every `cargo test`
//! runs, without libFuzzer.

#[path = "../fuzz/src/lib.rs"]
mod properties;

use ludus::game::Rng;

/// The seeds of a target, as bytes.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = format!("{}/fuzz/seeds/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let seeds: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(!seeds.is_empty(), "{target} has seeds");
    seeds
}

/// `seed` with a few random edits: bytes changed, inserted, removed, or a run of
/// another seed spliced in, as libFuzzer's simplest mutations do.
fn mutate(seed: &[u8], others: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    const BYTES: &[u8] = b" -./0123456789:;=abcdefghknprswxyzABEFKNPRSWY\n\xe2\x80\x93()";
    let mut data = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        // The leading selector bytes stay: each seed keeps its game.
        let at = 2.min(data.len()) + rng.below(data.len().saturating_sub(1).max(1));
        let at = at.min(data.len());
        match rng.below(4) {
            0 if at < data.len() => data[at] = BYTES[rng.below(BYTES.len())],
            1 => data.insert(at, BYTES[rng.below(BYTES.len())]),
            2 if at < data.len() => {
                data.remove(at);
            }
            _ => {
                let other = &others[rng.below(others.len())];
                let from = rng.below(other.len().max(1));
                let len = rng.below(16).min(other.len() - from.min(other.len()));
                data.splice(at..at, other[from..from + len].iter().copied());
            }
        }
    }
    data
}

/// Runs `check` on every seed and on `mutations` mutations.
fn exercise(target: &str, mutations: usize, check: impl Fn(&[u8])) {
    let seeds = seeds(target);
    let mut rng = Rng(0xF022_5EED ^ target.len() as u64);
    for seed in &seeds {
        check(seed);
    }
    for _ in 0..mutations {
        let seed = &seeds[rng.below(seeds.len())];
        check(&mutate(seed, &seeds, &mut rng));
    }
}

#[test]
fn positions_read_back_as_printed_and_play_every_move_back() {
    exercise("position", 20_000, |data| {
        if let Some((game, text)) = properties::split(data) {
            properties::check_position(game, text);
        }
    });
}

#[test]
fn moves_that_read_are_legal_and_print_back_in_every_notation() {
    exercise("moves", 20_000, |data| {
        if let Some((&seed, rest)) = data.split_first()
            && let Some((game, text)) = properties::split(rest)
        {
            properties::check_move(game, seed, text);
        }
    });
}

#[test]
fn records_that_replay_are_written_back_in_every_notation() {
    exercise("record", 3_000, |data| {
        if let Some((game, text)) = properties::split(data) {
            properties::check_record(game, text);
        }
    });
}

#[test]
fn smoke_engine_specifications_and_openings_files_never_panic() {
    exercise("match_setup", 20_000, |data| {
        if let Some((game, text)) = properties::split(data) {
            properties::check_match_setup(game, text);
        }
    });
}

#[test]
fn a_native_request_gets_one_reply_and_a_refused_one_changes_nothing() {
    exercise("native_protocol", 1_000, |data| {
        if let Some((game, text)) = properties::split(data) {
            properties::check_native_request(game, text);
        }
    });
}

#[test]
fn every_uci_search_gets_one_bestmove() {
    exercise("uci_protocol", 100, |data| {
        if let Ok(text) = std::str::from_utf8(data) {
            properties::check_uci_lines("uci", text);
        }
    });
}

#[test]
fn every_ugi_search_gets_one_bestmove() {
    exercise("ugi_protocol", 100, |data| {
        if let Ok(text) = std::str::from_utf8(data) {
            properties::check_uci_lines("ugi", text);
        }
    });
}

#[test]
fn every_cecp_ping_gets_its_pong_in_order_after_the_moves() {
    exercise("cecp_protocol", 200, |data| {
        if let Ok(text) = std::str::from_utf8(data) {
            properties::check_cecp_lines(text);
        }
    });
}
