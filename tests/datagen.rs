//! `ludus datagen` through its command line: the records it writes read back as
//! quiet, undecided positions with consistent results; a cut-off file resumes to the
//! same bytes; a file of other settings or no data file at all is refused. `ludus
//! train` on such a file writes a network the engine reads.

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use ludus::games::senamukha::Position;
use ludus::learning::datagen::{self, HEADER, read_file};

mod common;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("datagen");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// `ludus datagen` with small games: its success and its standard error.
fn datagen(output: &PathBuf, games: u32, seed: u32) -> (bool, String) {
    datagen_with(output, games, seed, &[])
}

/// The same with engine options (`name=value`).
fn datagen_with(output: &PathBuf, games: u32, seed: u32, options: &[&str]) -> (bool, String) {
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args([
            "datagen",
            "--nodes",
            "1000",
            "--max-plies",
            "90",
            "--concurrency",
            "1",
        ])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .args(options.iter().flat_map(|o| ["--option", o]))
        .arg("--output")
        .arg(output)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn records_are_quiet_undecided_positions_with_their_games_results() {
    let path = scratch("records.bin");
    let (ok, err) = datagen(&path, 3, 7);
    assert!(ok, "{err}");
    assert!(err.contains("datagen: 3 of 3 games"), "{err}");
    let records = read_file::<Position>(&path).unwrap();
    assert!(records.len() > 30, "{}", records.len());
    let size = datagen::record_size::<Position>();
    assert_eq!(size, 64);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len() as usize,
        HEADER + records.len() * size
    );
    let mut games = std::collections::BTreeMap::new();
    for r in &records {
        assert!(!r.position.in_check(), "{:?}", r.position);
        assert!(r.score.abs() < 1_500, "{}", r.score);
        assert!(matches!(r.result, -1..=1));
        assert!(r.index < r.count);
        // The result from White's view is the game's, the same for all its records.
        let white = if r.position.side_to_move().index() == 0 {
            r.result
        } else {
            -r.result
        };
        let game = games.entry(r.game).or_insert((white, Vec::new()));
        assert_eq!(game.0, white, "game {}", r.game);
        game.1.push((r.index, r.ply));
    }
    assert!(games.keys().all(|&g| g < 3));
    for (game, (_, plies)) in &games {
        // In order, each its game's next, plies growing.
        assert!(
            plies
                .iter()
                .enumerate()
                .all(|(i, &(index, _))| index as usize == i),
            "game {game}"
        );
        assert!(plies.windows(2).all(|w| w[0].1 < w[1].1), "game {game}");
    }
}

#[test]
fn a_cut_off_file_resumes_to_the_same_bytes_and_grows() {
    let whole = scratch("whole.bin");
    assert!(datagen(&whole, 3, 11).0);
    let bytes = std::fs::read(&whole).unwrap();
    // Cut mid-record, inside the last game: the next run removes that game and plays
    // it again, to the same bytes.
    let cut = scratch("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let (ok, err) = datagen(&cut, 3, 11);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    // A finished file played on: the games already there stay as they were.
    assert!(datagen(&cut, 4, 11).0);
    let grown = std::fs::read(&cut).unwrap();
    assert!(grown.len() > bytes.len());
    assert_eq!(&grown[..bytes.len()], &bytes[..]);
    let games: std::collections::BTreeSet<u32> = read_file::<Position>(&cut)
        .unwrap()
        .iter()
        .map(|r| r.game)
        .collect();
    assert_eq!(games.into_iter().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
}

#[test]
fn other_settings_and_other_files_are_refused() {
    let path = scratch("settings.bin");
    assert!(datagen(&path, 1, 3).0);
    let before = std::fs::read(&path).unwrap();
    let (ok, err) = datagen(&path, 2, 4);
    assert!(!ok);
    assert!(err.contains("was made with other settings"), "{err}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is left as it was"
    );
    let text = scratch("text.bin");
    std::fs::write(&text, "1 startpos\n").unwrap();
    let (ok, err) = datagen(&text, 1, 3);
    assert!(!ok);
    assert!(
        err.contains("is not a ludus datagen file here: it does not start with LUDUSDAT"),
        "{err}"
    );
}

/// With `EvalFile` and `Use NNUE` the games are played and scored with the network:
/// other records than without it. The options are part of the settings (a file made
/// with them resumes only with them), and a wrong one is refused before any game.
#[test]
fn engine_options_play_with_a_network_and_belong_to_the_settings() {
    let network = scratch("pattern.nnue");
    std::fs::write(&network, common::network_file(16)).unwrap();
    let eval_file = format!("EvalFile={}", network.display());
    let with_network = [eval_file.as_str(), "Use NNUE=true"];
    let plain = scratch("plain.bin");
    let learnt = scratch("learnt.bin");
    assert!(datagen(&plain, 1, 5).0);
    let (ok, err) = datagen_with(&learnt, 1, 5, &with_network);
    assert!(ok, "{err}");
    let (plain, learnt_bytes) = (
        std::fs::read(&plain).unwrap(),
        std::fs::read(&learnt).unwrap(),
    );
    assert_ne!(
        plain[HEADER..],
        learnt_bytes[HEADER..],
        "the network changed nothing"
    );
    assert_ne!(plain[52..56], learnt_bytes[52..56], "the options' checksum");

    let (ok, err) = datagen(&learnt, 2, 5);
    assert!(!ok);
    assert!(err.contains("was made with other settings"), "{err}");
    let (ok, err) = datagen_with(&scratch("colour.bin"), 1, 5, &["Colour=red"]);
    assert!(!ok);
    assert!(
        err.contains("senamukha has no engine option \"Colour\""),
        "{err}"
    );
    let (ok, err) = datagen_with(
        &scratch("missing.bin"),
        1,
        5,
        &["EvalFile=/nonexistent.nnue"],
    );
    assert!(!ok);
    assert!(err.contains("the file cannot be read"), "{err}");
}

#[test]
fn train_writes_a_network_the_engine_reads_and_reports_the_yardstick() {
    use ludus::games::senamukha::nnue::network::Network;
    let data = scratch("train.bin");
    let (ok, err) = datagen(&data, 8, 11);
    assert!(ok, "{err}");
    let network = scratch("trained.nnue");
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args([
            "train",
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--holdout",
            "0.3",
        ])
        .arg("--data")
        .arg(&data)
        .arg("--output")
        .arg(&network)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("train: epoch 2 of 2"), "{err}");
    let last = err.lines().last().unwrap();
    assert!(last.starts_with("train: wrote "), "{err}");
    assert!(last.contains("(16 hidden)"), "{last}");
    assert!(
        last.contains("held out against the scores 0.")
            && last.contains("(hand-written evaluation 0."),
        "{last}"
    );
    assert_eq!(Network::read(&network).unwrap().hidden(), 16);
}
