//! `ludus review` through the command line (protocol-spec/analysis.md, "Review"):
//! planted blunders are marked, the annotated record reads again, the JSON has every
//! move and every player.

use assert_cmd::cargo::CommandCargoExt;
use ludus::game::Game;
use ludus::games::{mangala, senamukha};
use serde_json::Value;

/// Game 1 of the seeds, its first `plies` moves in the canonical notation.
fn seed_game(plies: usize) -> Vec<String> {
    let path = format!(
        "{}/tests/data/senamukha/game1.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let replay = ludus::record::replay(senamukha::Position::start(), &text).unwrap();
    let mut position = senamukha::Position::start();
    let notation = senamukha::Position::NOTATIONS[0].notation;
    replay.moves[..plies]
        .iter()
        .map(|&mv| {
            let text = position.format_move(mv, notation);
            position.play(mv);
            text
        })
        .collect()
}

fn review(game: &str, moves: &[String], json: bool) -> String {
    let dir = std::env::temp_dir().join(format!("ludus-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{game}-{}.txt", moves.len()));
    std::fs::write(&file, moves.join(" ")).unwrap();
    let mut args = vec![
        "review",
        "--game",
        game,
        "--nodes",
        "20000",
        "--threads",
        "2",
    ];
    if json {
        args.push("--json");
    }
    let out = std::process::Command::cargo_bin("ludus")
        .unwrap()
        .args(&args)
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The review's entry of ply `ply` (from 1).
fn judged(review: &Value, ply: usize) -> &Value {
    &review["moves"][ply - 1]
}

#[test]
fn a_move_that_allows_mate_in_one_is_a_blunder() {
    let mut moves = seed_game(126);
    moves.extend(["e4g4".to_string(), "f6h6".to_string()]);
    let review: Value = serde_json::from_str(&review("senamukha", &moves, true)).unwrap();
    let planted = judged(&review, 127);
    assert_eq!(planted["move"], "e4g4");
    assert_eq!(planted["mark"], "blunder", "{planted}");
    assert_eq!(planted["chanceAfter"], 0.0, "{planted}");
    assert_ne!(planted["best"], "e4g4");
    assert_eq!(review["moves"].as_array().unwrap().len(), 128);
    let white = &review["players"][0];
    assert_eq!(white["player"], "white");
    assert!(white["blunders"].as_u64().unwrap() >= 1, "{white}");
}

#[test]
fn a_hung_rook_is_a_blunder_and_the_annotated_record_reads_again() {
    let mut moves = seed_game(33);
    moves.extend(["e9e8".to_string(), "h7j9".to_string()]);
    let review: Value = serde_json::from_str(&review("senamukha", &moves, true)).unwrap();
    let planted = judged(&review, 34);
    assert_eq!(
        (planted["move"].as_str(), planted["player"].as_str()),
        (Some("e9e8"), Some("black"))
    );
    assert_eq!(planted["mark"], "blunder", "{planted}");
    assert!(planted["loss"].as_f64().unwrap() >= 15.0, "{planted}");
    // The text: the record with comments, which reads back to the same game.
    let text = review_text(&moves);
    assert!(text.contains("{blunder: "), "{text}");
    let replay = ludus::record::replay(senamukha::Position::start(), &text).unwrap();
    assert_eq!(replay.moves.len(), moves.len());
}

fn review_text(moves: &[String]) -> String {
    review("senamukha", moves, false)
}

#[test]
fn a_mangala_move_that_gives_away_a_large_capture_is_a_blunder() {
    let mut moves: Vec<String> = vec!["C".into(), "d".into()];
    moves.extend(["F".to_string(), "a".to_string()]);
    let review: Value = serde_json::from_str(&review("mangala", &moves, true)).unwrap();
    let planted = judged(&review, 3);
    assert_eq!(planted["move"], "F");
    assert_eq!(planted["player"], "south");
    assert_eq!(planted["mark"], "blunder", "{planted}");
    let players = review["players"].as_array().unwrap();
    assert_eq!(players.len(), mangala::Position::PLAYERS.len());
    assert!(players[0]["blunders"].as_u64().unwrap() >= 1, "{players:?}");
}

/// The second opening of the Mentula openings file: twelve plies after which White
/// can capture a man of Magenta's on d2.
fn mentula_opening() -> Vec<String> {
    let path = format!(
        "{}/tests/data/mentula/openings.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let line = text
        .lines()
        .filter(|l| l.starts_with("startpos"))
        .nth(1)
        .unwrap();
    line.split_whitespace().skip(2).map(String::from).collect()
}

#[test]
fn a_mentula_move_that_passes_up_a_capture_costs_the_movers_own_chance() {
    let mut moves = mentula_opening();
    assert_eq!(moves.len(), 12);
    moves.push("b1-b2-b3".into());
    let reviewed: Value = serde_json::from_str(&review("mentula", &moves, true)).unwrap();
    let planted = judged(&reviewed, 13);
    assert_eq!(planted["player"], "white");
    assert_eq!(planted["best"], "b2-c2xd2", "{planted}");
    assert_eq!(planted["mark"], "blunder", "{planted}");
    // The loss is the mover's own chance of first place, before less after.
    let (before, after) = (
        planted["chanceBefore"].as_f64().unwrap(),
        planted["chanceAfter"].as_f64().unwrap(),
    );
    let loss = planted["loss"].as_f64().unwrap();
    assert!((before - after - loss).abs() < 0.11, "{planted}");
    assert_eq!(
        planted["scoreBefore"]["scores"].as_array().unwrap().len(),
        4
    );
    let players = reviewed["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    assert!(players[0]["blunders"].as_u64().unwrap() >= 1, "{players:?}");
    // The capture itself gives nothing away.
    moves.pop();
    moves.push("b2-c2xd2".into());
    let captured: Value = serde_json::from_str(&review("mentula", &moves, true)).unwrap();
    assert!(judged(&captured, 13)["mark"].is_null(), "{captured}");
}

#[test]
fn a_record_with_a_position_tag_is_reviewed_from_that_position() {
    let mut position = mangala::Position::start();
    for text in ["C", "d"] {
        let mv = position.parse_move(text).unwrap();
        position.play(mv);
    }
    let moves = vec![
        format!("[Position \"{}\"]", position.fen()),
        "F".to_string(),
        "a".to_string(),
    ];
    let reviewed: Value = serde_json::from_str(&review("mangala", &moves, true)).unwrap();
    assert_eq!(reviewed["moves"].as_array().unwrap().len(), 2, "{reviewed}");
    let planted = judged(&reviewed, 1);
    assert_eq!(planted["move"], "F");
    assert_eq!(planted["mark"], "blunder", "{planted}");
}
