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
            "invalid senamukha position: rank 8 has 12 files",
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
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
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
            let args = shell_words(args);
            let args: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
            // `ludus` in a command line (a match's engines) is this build.
            let bin = std::path::Path::new(env!("CARGO_BIN_EXE_ludus"));
            let path =
                std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
                    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
                ))
                .unwrap();
            let out = ludus()
                .env("RUST_LOG", "warn")
                .env("PATH", path)
                .args(&args)
                .write_stdin(input)
                .output()
                .unwrap();
            let got =
                String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
            let got: Vec<String> = got.lines().map(without_timing).collect();
            let expected: Vec<String> = expected.into_iter().map(without_timing).collect();
            assert_eq!(got, expected, "$ {command}");
            checked += 1;
        }
    }
    assert!(checked >= 4);
}

#[test]
fn mentula_perft_and_divide_in_full_notation() {
    ludus()
        .args(["perft", "--game", "mentula", "--depth", "6"])
        .assert()
        .success()
        .stdout("Nodes searched: 22500\n");
    ludus()
        .args(["perft", "--game", "mentula", "--depth", "1", "--divide"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("a1-b2-c3: 1\n")
                .and(predicate::str::ends_with("Nodes searched: 5\n")),
        );
}

#[test]
fn mentula_replay_of_the_seed_record_in_both_forms() {
    let dir = format!("{}/tests/data/mentula", env!("CARGO_MANIFEST_DIR"));
    let full = ludus()
        .args([
            "replay",
            "--game",
            "mentula",
            &format!("{dir}/seed-full.txt"),
        ])
        .output()
        .unwrap();
    let short = ludus()
        .args([
            "replay",
            "--game",
            "mentula",
            &format!("{dir}/seed-short.txt"),
        ])
        .output()
        .unwrap();
    assert!(full.status.success() && short.status.success());
    assert_eq!(full.stdout, short.stdout);
    let text = String::from_utf8(full.stdout).unwrap();
    assert!(text.starts_with("a1-b2-c3\nb8-b7-b6\n"));
    assert!(text.contains("g8-f6xe4\n"));
    assert!(text.ends_with(
        "position: Y7/Y5RR/1Y3R2/1Y6/4R1M1/2W3M1/1W5M/1W5M w 1 3\nresult: ongoing (no result)\n"
    ));
}

#[test]
fn mentula_replay_to_the_end_prints_the_four_scores() {
    ludus()
        .args([
            "replay",
            "--game",
            "mentula",
            "--fen",
            "8/8/8/8/8/4Y3/2W5/W7 w 0 1",
            "-",
        ])
        .write_stdin("1. a1-c2xe3")
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "result: white wins (one player left; white 64, yellow 0, red 0, magenta 0; ranking white > yellow = red = magenta)\n",
        ));
    ludus()
        .args([
            "replay",
            "--game",
            "mentula",
            "--rule",
            "capture-limit=2",
            "-",
        ])
        .write_stdin("1. c3 b6 f6 g3")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "move 1… (red) f6: the game is already over (move limit)",
        ));
}

/// Splits a command line as a shell would for the simple cases the spec uses: words
/// separated by spaces, double quotes keeping spaces inside one word.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[test]
fn mangala_perft_and_replay() {
    ludus()
        .args(["perft", "--game", "mangala", "--depth", "8"])
        .assert()
        .success()
        .stdout("Nodes searched: 1106575\n");
    ludus()
        .args(["perft", "--game", "mangala", "--depth", "1", "--divide"])
        .assert()
        .success()
        .stdout("A: 1\nB: 1\nC: 1\nD: 1\nE: 1\nF: 1\nNodes searched: 6\n");
    let file = format!(
        "{}/tests/data/mangala/opening.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    ludus()
        .args(["replay", "--game", "mangala", &file])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("C\nd\nF\na\nposition: ")
                .and(predicate::str::ends_with("result: ongoing (no result)\n")),
        );
}

#[test]
fn search_prints_info_lines_then_the_best_move() {
    let out = ludus()
        .args([
            "search",
            "--game",
            "senamukha",
            "--fen",
            "11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
            "--depth",
            "3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("info depth 1 seldepth "), "{text}");
    assert!(lines[0].contains(" score mate 1 nodes "), "{text}");
    assert!(lines[0].contains(" pv i10k10"), "{text}");
    assert_eq!(*lines.last().unwrap(), "bestmove i10k10");
    for game in ["mangala", "mentula"] {
        let out = ludus()
            .args(["search", "--game", game, "--depth", "2"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.lines().last().unwrap().starts_with("bestmove "),
            "{game}: {text}"
        );
    }
    // Mentula reports one score for each player.
    let out = ludus()
        .args(["search", "--game", "mentula", "--depth", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let scores = text
        .split(" scores ")
        .nth(1)
        .unwrap()
        .split(" nodes")
        .next()
        .unwrap();
    assert_eq!(scores.split_whitespace().count(), 4, "{text}");
}

#[test]
fn search_refuses_finished_games_and_bad_limits() {
    ludus()
        .args([
            "search",
            "--fen",
            "k10/11/11/11/11/11/11/11/11/11/10K w",
            "--depth",
            "2",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("the game is over"));
    ludus()
        .args(["search", "--depth", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--depth"));
    ludus()
        .args(["perft", "--game", "mangala", "--depth", "200000"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--depth"));
}

#[test]
fn bench_prints_a_deterministic_signature() {
    let run = || {
        let out = ludus().args(["bench", "2"]).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run();
    let signature = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("Bench: "))
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    assert!(signature(&first) > 0);
    assert_eq!(signature(&first), signature(&run()));
    assert!(first.lines().any(|l| l.ends_with("nodes per second")));
}

/// An `info` line with its clock readings (nps, time) blanked: they differ run to run.
fn without_timing(line: &str) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    if words.first() == Some(&"info") {
        for i in 1..words.len() {
            if matches!(words[i - 1], "nps" | "time") {
                words[i] = "…";
            }
        }
    }
    words.join(" ")
}

#[test]
fn search_takes_engine_options() {
    ludus()
        .args([
            "search",
            "--game",
            "mentula",
            "--option",
            "algorithm=MCTS",
            "--nodes",
            "3000",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes 3000"))
        .stdout(predicate::str::contains("bestmove "));
    ludus()
        .args([
            "search",
            "--game",
            "mentula",
            "--option",
            "Algorithm=minimax",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "Algorithm takes brs, paranoid, mcts, not \"minimax\"",
        ));
}

/// `ludus tree` to a fixed depth: one row per iteration with growing node counts, the
/// summary of each position and of all, and the same numbers on a second run.
#[test]
fn tree_reports_each_depth_and_is_repeatable_at_a_fixed_depth() {
    let run = || {
        let out = ludus()
            .args(["tree", "--depth", "4", "--count", "1", "--openings"])
            .arg(data("openings.txt"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // Everything but the milliseconds.
    let untimed = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                if f.len() >= 3 && f[0].parse::<u32>().is_ok() {
                    format!("{} {} {}", f[0], f[1], f.get(3).unwrap_or(&""))
                } else {
                    l.to_string()
                }
            })
            .collect()
    };
    let text = run();
    assert_eq!(
        untimed(&text),
        untimed(&run()),
        "a fixed-depth tree is the same every time"
    );
    let positions: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert_eq!(positions.len(), 2, "{text}");
    assert_eq!(positions[0], "position 1: startpos");
    for block in text.split("position ").skip(1) {
        let nodes: Vec<u64> = block
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f.len() >= 3 && f[0].parse::<u32>().is_ok()).then(|| f[1].parse().unwrap())
            })
            .collect();
        assert_eq!(nodes.len(), 4, "{block}");
        assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{block}");
        assert!(block.contains("reached depth 4; last 4 plies "), "{block}");
    }
    let summary = text.lines().last().unwrap();
    assert!(
        summary.starts_with("Tree: 2 positions, ")
            && summary.contains(" nodes, mean depth 4.00 (least 4, most 4)"),
        "{summary}"
    );
    assert!(summary.contains("first-move cutoffs") && summary.contains("table hits"));
}

/// `ludus replay` reads at most a bounded record: an endless input is refused at its
/// first too-long line, a too-long record once it passes the bound; neither is read
/// into memory whole.
#[test]
fn replay_refuses_endless_and_oversized_input_without_reading_it_all() {
    let out = ludus().args(["replay", "/dev/zero"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!(
            "ludus: /dev/zero: line 1 of the record is longer than {} bytes",
            ludus::record::MAX_RECORD_LINE
        )
    );
    let long: String =
        "1. Na3–b5 Ne9–d7 { a comment }\n".repeat(ludus::record::MAX_RECORD_BYTES / 30);
    ludus()
        .args(["replay", "-"])
        .write_stdin(long)
        .assert()
        .failure()
        .stderr(format!(
            "ludus: the record is longer than {} bytes\n",
            ludus::record::MAX_RECORD_BYTES
        ));
}

/// A record's unreadable move is quoted as the protocol quotes moves: cut after 40
/// characters and with control characters escaped, so that no terminal sequence of the
/// input reaches the terminal.
#[test]
fn replay_quotes_a_bad_move_cut_and_escaped() {
    let record = format!("1. {}\u{1b}[2J e4\n", "x".repeat(200));
    let out = ludus()
        .args(["replay", "-"])
        .write_stdin(record)
        .output()
        .unwrap();
    let message = String::from_utf8(out.stderr).unwrap();
    assert!(
        message.starts_with("ludus: move 1 (white) xxxx"),
        "{message}"
    );
    assert!(
        !message.trim_end().chars().any(char::is_control),
        "{message:?}"
    );
    assert!(message.chars().count() < 200, "{message}");
    let out = ludus()
        .args(["replay", "-"])
        .write_stdin("1. e\u{1b}[31m4\n")
        .output()
        .unwrap();
    let message = String::from_utf8(out.stderr).unwrap();
    assert!(message.contains("e\\u{1b}[31m4"), "{message:?}");
}

/// The bench's depth is bounded: a search of depth 100 would run for months.
#[test]
fn bench_takes_a_depth_from_1_to_12() {
    for depth in ["0", "13", "100"] {
        ludus()
            .args(["bench", depth])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is not in 1..=12"));
    }
}

/// Above 24 counters the tables are built only into files (the levels below are then
/// read from them, not held in memory); the refusal says so and the range is named.
#[test]
fn endgame_above_the_memory_limit_needs_a_folder() {
    ludus()
        .args(["endgame", "--counters", "26"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--counters 26 needs --write DIR: above 24 counters the tables are built into files",
        ));
    ludus()
        .args(["endgame", "--counters", "30", "--write", "unused"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("30 is not in 1..=28"));
}
