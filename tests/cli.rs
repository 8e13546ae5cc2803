//! The `ludus` command line through pipes: perft and replay.

use assert_cmd::Command;
use predicates::prelude::*;

fn ludus() -> Command {
    Command::cargo_bin("ludus").unwrap()
}

fn data(name: &str) -> String {
    format!("{}/tests/data/senamukha/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn perft_prints_the_total_alone() {
    ludus()
        .args(["perft", "--game", "senamukha", "--depth", "3"])
        .assert()
        .success()
        .stdout("Nodes searched: 113700\n");
}

#[test]
fn perft_divide_prints_one_line_per_move_then_the_total() {
    let out = ludus()
        .args(["perft", "--game", "senamukha", "--depth", "2", "--divide"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 49);
    assert_eq!(lines[48], "Nodes searched: 2304");
    let mut sum = 0;
    for line in &lines[..48] {
        let (mv, count) = line.split_once(": ").unwrap();
        assert!(
            mv.len() >= 4 && mv.chars().all(|c| c.is_ascii_alphanumeric()),
            "{line}"
        );
        sum += count.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 2304);
    assert!(lines.contains(&"a3b5: 48"));
}

#[test]
fn perft_from_a_fen_after_moves_in_mixed_notation() {
    ludus()
        .args([
            "perft",
            "--fen",
            "3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 w - - 0 1",
            "--moves",
            "Na3–b5 e9d7 Ned5",
            "--depth",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Nodes searched: "));
}

#[test]
fn perft_refuses_a_bad_fen_or_move_and_says_why() {
    ludus()
        .args([
            "perft",
            "--fen",
            "k10/11/11/12/11/11/11/11/11/11/10K w",
            "--depth",
            "1",
        ])
        .assert()
        .failure()
        .stdout("")
        .stderr(predicate::str::contains(
            "invalid position: rank 8 has 12 files",
        ));
    ludus()
        .args(["perft", "--moves", "Na3–b6", "--depth", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "illegal move: Na3–b6 (a knight on a3 cannot reach b6)",
        ));
}

#[test]
fn replay_prints_moves_position_and_result() {
    let out = ludus()
        .args(["replay", "--game", "senamukha", &data("game1.txt")])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 146 + 2);
    assert_eq!(lines[0], "a3b5");
    assert_eq!(lines[145], "f6g6");
    assert!(lines[146].starts_with("position: ") && lines[146].ends_with(" w - - 1 74"));
    assert_eq!(lines[147], "result: black wins (checkmate)");
}

#[test]
fn replay_reports_each_seed_result() {
    for (file, result) in [
        ("game2.txt", "result: white wins (checkmate)\n"),
        ("game3.txt", "result: draw (threefold repetition)\n"),
    ] {
        ludus()
            .args(["replay", &data(file)])
            .assert()
            .success()
            .stdout(predicate::str::ends_with(result));
    }
}

#[test]
fn replay_reads_standard_input() {
    ludus()
        .args(["replay", "-"])
        .write_stdin("1. Na3–b5 Ne9–d7 2. Nb5–c7")
        .assert()
        .success()
        .stdout("a3b5\ne9d7\nb5c7\nposition: 3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/2Nn7/11/11/PPPPP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 3 2\nresult: ongoing (no result)\n");
}

#[test]
fn replay_of_a_bad_record_names_the_move_and_fails() {
    ludus()
        .args(["replay", "-"])
        .write_stdin("1. Na3–b5 Ne9–d7 2. Ne3–d5 Ng9–f8")
        .assert()
        .failure()
        .stdout("")
        .stderr(predicate::str::contains(
            "move 2… (black) Ng9–f8: illegal move",
        ));
    ludus()
        .args(["replay", "/nonexistent/record.txt"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot read /nonexistent/record.txt",
        ));
}

/// Every `$ ludus ...` transcript in protocol-spec/ is what the engine really prints.
#[test]
fn the_transcripts_in_the_spec_are_true() {
    let dir = format!("{}/protocol-spec", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(command) = line.strip_prefix("$ ") else {
                continue;
            };
            let expected: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("```") && !l.starts_with("$ "))
                .copied()
                .collect();
            let (input, args) = match command.split_once(" | ") {
                Some((echo, rest)) => (
                    echo.strip_prefix("echo \"")
                        .unwrap()
                        .strip_suffix('"')
                        .unwrap(),
                    rest,
                ),
                None => ("", command),
            };
            let args: Vec<&str> = args.split_whitespace().skip(1).collect();
            let out = ludus()
                .env("RUST_LOG", "warn")
                .args(&args)
                .write_stdin(input)
                .output()
                .unwrap();
            let got =
                String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
            assert_eq!(got.lines().collect::<Vec<_>>(), expected, "$ {command}");
            checked += 1;
        }
    }
    assert!(checked >= 2);
}
