//! `ludus match` with real engine processes: short matches in every game, broken
//! engines that lose exactly the games they break, the SPRT, and resuming.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

fn ludus_path() -> String {
    env!("CARGO_BIN_EXE_ludus").to_string()
}

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("matches");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `ludus match` with `args` and a summary file; returns stdout and the summary.
fn run_match(args: &[&str], name: &str) -> (String, Value) {
    let summary = scratch(&format!("{name}.json"));
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .arg("match")
        .args(args)
        .arg("--summary")
        .arg(&summary)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    (stdout, json)
}

/// Cuts a match's state file back to its first game, as if the match had been
/// interrupted then.
fn interrupt_after_one_game(state: &Path) {
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    saved["results"].as_array_mut().unwrap().truncate(1);
    std::fs::write(state, saved.to_string()).unwrap();
}

/// The lines of a match's output that report a game.
fn game_lines(out: &str) -> usize {
    out.lines().filter(|l| l.starts_with("game ")).count()
}

fn tally(json: &Value) -> (u64, u64, u64) {
    let t = &json["tally"];
    (
        t["wins"].as_u64().unwrap(),
        t["draws"].as_u64().unwrap(),
        t["losses"].as_u64().unwrap(),
    )
}

#[test]
fn a_senamukha_match_with_colours_swapped_and_records_that_replay() {
    let records = scratch("senamukha.pgn");
    let ludus = ludus_path();
    let (stdout, json) = run_match(
        &[
            "--game",
            "senamukha",
            "--engine",
            &format!("cmd={ludus} name=first"),
            "--engine",
            &format!("cmd={ludus} name=second"),
            "--nodes",
            "3000",
            "--games",
            "2",
            "--max-moves",
            "80",
            "--records",
            records.to_str().unwrap(),
        ],
        "senamukha",
    );
    let (w, d, l) = tally(&json);
    assert_eq!(w + d + l, 2, "{stdout}");
    let games = json["games"].as_array().unwrap();
    assert_eq!(games[0]["seats"], serde_json::json!([0, 1]));
    assert_eq!(games[1]["seats"], serde_json::json!([1, 0]));
    assert!(
        stdout.contains("game 1 of 2: first (white) vs second (black)"),
        "{stdout}"
    );
    assert!(stdout.contains("Elo difference"), "{stdout}");
    // Every record replays with ludus's own reader to the same number of moves.
    let text = std::fs::read_to_string(&records).unwrap();
    let pgns: Vec<String> = text
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {g}"))
        .collect();
    assert_eq!(pgns.len(), 2);
    for (pgn, game) in pgns.iter().zip(games) {
        assert!(pgn.contains("[Variant \"senamukha\"]"));
        let replay = ludus::record::replay(
            <ludus::games::senamukha::Position as ludus::game::Game>::start(),
            pgn,
        )
        .unwrap();
        assert_eq!(replay.moves.len(), game["moves"].as_array().unwrap().len());
        // Every move its engine's score, for the side that moved: a score a move,
        // within what a search says (no opening here, so none is missing).
        let evals = game["evals"].as_array().unwrap();
        assert_eq!(evals.len(), replay.moves.len());
        assert!(
            evals
                .iter()
                .all(|e| e.as_i64().is_some_and(|v| v.abs() <= 100_000)),
            "{evals:?}"
        );
    }
}

#[test]
fn a_mangala_match_from_openings() {
    let ludus = ludus_path();
    let openings = data("mangala/openings.txt");
    let (_, json) = run_match(
        &[
            "--game",
            "mangala",
            "--engine",
            &ludus,
            "--engine",
            &ludus,
            "--depth",
            "3",
            "--games",
            "4",
            "--openings",
            &openings,
            "--concurrency",
            "2",
        ],
        "mangala",
    );
    let (w, d, l) = tally(&json);
    assert_eq!(w + d + l, 4);
    let games = json["games"].as_array().unwrap();
    // Openings 1 and 2, each with both colours; every game starts with its opening.
    let mut openings_used: Vec<u64> = games
        .iter()
        .map(|g| g["opening"].as_u64().unwrap())
        .collect();
    openings_used.sort();
    assert_eq!(openings_used, vec![0, 0, 1, 1]);
    for g in games {
        let first = g["moves"][0].as_str().unwrap();
        assert_eq!(first, "A");
        assert_eq!(g["ending"], "rules");
    }
}

#[test]
fn a_mentula_match_puts_every_engine_in_every_seat() {
    let ludus = ludus_path();
    let (stdout, json) = run_match(
        &[
            "--game", "mentula", "--engine", &ludus, "--engine", &ludus, "--engine", &ludus,
            "--engine", &ludus, "--nodes", "1500", "--games", "4",
        ],
        "mentula",
    );
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for seat in 0..4 {
        let mut engines: Vec<u64> = games
            .iter()
            .map(|g| g["seats"][seat].as_u64().unwrap())
            .collect();
        engines.sort();
        assert_eq!(engines, vec![0, 1, 2, 3]);
    }
    // Places of a game always add up to 1 + 2 + 3 + 4.
    for g in games {
        let sum: f64 = g["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .sum();
        assert!((sum - 10.0).abs() < 1e-9, "{g}");
    }
    let standings = json["standings"].as_array().unwrap();
    assert!(standings.iter().all(|s| s["games"] == 4));
    assert!(stdout.contains("avg place"), "{stdout}");
}

#[test]
fn broken_engines_lose_exactly_the_games_they_break() {
    let ludus = ludus_path();
    let broken = data("engines/broken.sh");
    for (mode, reason) in [
        ("illegal", "illegal move \"z9z9\""),
        ("exits", "crashed: exited"),
        ("silent", "lost on time"),
        // Lines without pause do not stop its clock.
        ("chatty", "lost on time (stalled: bestmove did not come"),
        ("garbage", "malformed reply: \"bestmove\""),
        // Not a crash: the odd byte is replaced and the move judged.
        ("latin1", "illegal move \"z9z9\""),
    ] {
        let (stdout, json) = run_match(
            &[
                "--engine",
                &format!("cmd=\"{broken} {mode}\" name={mode}"),
                "--engine",
                &format!("cmd={ludus} name=ludus"),
                "--tc",
                "1+0.05",
                "--margin",
                "50",
                "--games",
                "2",
            ],
            &format!("broken-{mode}"),
        );
        assert_eq!(tally(&json), (0, 0, 2), "{mode}: {stdout}");
        for g in json["games"].as_array().unwrap() {
            let seat = g["forfeit"].as_u64().expect("a forfeit") as usize;
            assert_eq!(g["seats"][seat], 0, "{mode}: the broken engine forfeits");
            assert!(
                g["reason"].as_str().unwrap().contains(reason),
                "{mode}: {}",
                g["reason"]
            );
        }
        assert_eq!(json["forfeits"], serde_json::json!([2, 0]), "{mode}");
        if mode == "silent" {
            assert_eq!(json["clocks"][0]["time_losses"], 2, "{stdout}");
            // Its clock ran out: the least it had left is none.
            for g in json["games"].as_array().unwrap() {
                let seat = g["forfeit"].as_u64().unwrap() as usize;
                assert_eq!(g["clocks"][seat]["lowest_left_ms"], 0, "{g}");
            }
            assert!(
                stdout.contains("silent: made no move on the clock, 2 lost on time"),
                "{stdout}"
            );
        }
    }
}

#[test]
fn a_match_on_the_clock_reports_how_each_engine_used_it() {
    let ludus = ludus_path();
    let (stdout, json) = run_match(
        &[
            "--game",
            "mangala",
            "--engine",
            &format!("cmd={ludus} name=a"),
            "--engine",
            &format!("cmd={ludus} name=b"),
            "--tc",
            "2+0.05",
            "--games",
            "2",
        ],
        "clock-use",
    );
    for g in json["games"].as_array().unwrap() {
        let clocks = g["clocks"].as_array().expect("clocks per seat");
        assert_eq!(clocks.len(), 2);
        let plies = g["moves"].as_array().unwrap().len() as u64;
        let moves: u64 = clocks.iter().map(|c| c["moves"].as_u64().unwrap()).sum();
        assert_eq!(moves, plies, "every move counted once");
        for c in clocks {
            let (used, had) = (
                c["used_ms"].as_u64().unwrap(),
                c["had_ms"].as_u64().unwrap(),
            );
            let moves = c["moves"].as_u64().unwrap();
            // The time it had is the base plus an increment a move.
            assert_eq!(had, 2_000 + 50 * moves, "{c}");
            assert!(
                used <= had && c["longest_ms"].as_u64().unwrap() <= used,
                "{c}"
            );
            assert!(c["lowest_left_ms"].as_u64().unwrap() <= 2_000, "{c}");
        }
    }
    for name in ["a", "b"] {
        assert!(
            stdout.lines().any(
                |l| l.starts_with(&format!("{name}: used ")) && l.ends_with(", 0 lost on time")
            ),
            "{stdout}"
        );
    }
    assert_eq!(json["clocks"].as_array().unwrap().len(), 2);
}

#[test]
fn time_odds_give_each_engine_its_own_clock_and_say_so() {
    let ludus = ludus_path();
    let records = scratch("time-odds.txt");
    let (_, json) = run_match(
        &[
            "--engine",
            &format!("cmd={ludus} name=quick tc=1+0.01"),
            "--engine",
            &format!("cmd={ludus} name=slow"),
            "--tc",
            "3+0.03",
            "--games",
            "2",
            "--max-moves",
            "40",
            "--records",
            records.to_str().unwrap(),
        ],
        "time-odds",
    );
    for g in json["games"].as_array().unwrap() {
        let seats: Vec<u64> = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        for (clock, engine) in g["clocks"].as_array().unwrap().iter().zip(&seats) {
            let moves = clock["moves"].as_u64().unwrap();
            // The time it had: its own base plus its own increment a move.
            let (base, increment) = if *engine == 0 {
                (1_000, 10)
            } else {
                (3_000, 30)
            };
            assert_eq!(
                clock["had_ms"].as_u64().unwrap(),
                base + increment * moves,
                "{g}"
            );
        }
    }
    assert_eq!(
        json["config"]["engines"][0]["tc"]["Clock"]["base"]["secs"],
        1
    );
    assert!(json["config"]["engines"][1].get("tc").is_none());
    let text = std::fs::read_to_string(&records).unwrap();
    assert!(text.contains("[WhiteTimeControl \"1+0.01\"]"), "{text}");
    assert!(text.contains("[BlackTimeControl \"3+0.03\"]"), "{text}");
    assert!(text.contains("[WhiteTimeControl \"3+0.03\"]"), "{text}");
    // A clock that cannot be read is refused before the match.
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args([
            "match",
            "--engine",
            &format!("cmd={ludus} tc=fast"),
            "--engine",
            &ludus,
        ])
        .args(["--tc", "1+0.01", "--games", "2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("tc"),
        "{out:?}"
    );
}

#[test]
fn a_broken_engine_in_four_player_games_takes_the_last_place_alone() {
    let ludus = ludus_path();
    let broken = data("engines/broken.sh");
    let (_, json) = run_match(
        &[
            "--game",
            "mentula",
            "--engine",
            &format!("cmd=\"{broken} exits\" name=broken"),
            "--engine",
            &ludus,
            "--engine",
            &ludus,
            "--engine",
            &ludus,
            "--nodes",
            "1000",
            "--games",
            "4",
        ],
        "broken-mentula",
    );
    for g in json["games"].as_array().unwrap() {
        let seat = g["forfeit"].as_u64().unwrap() as usize;
        assert_eq!(g["seats"][seat], 0);
        let places: Vec<f64> = g["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .collect();
        for (s, p) in places.iter().enumerate() {
            assert_eq!(*p, if s == seat { 4.0 } else { 2.0 }, "{g}");
        }
    }
}

#[test]
fn the_sprt_stops_a_match_between_deep_and_shallow() {
    let ludus = ludus_path();
    let (stdout, json) = run_match(
        &[
            "--game",
            "mangala",
            "--engine",
            &format!("cmd={ludus} name=deep depth=7"),
            "--engine",
            &format!("cmd={ludus} name=shallow depth=1"),
            "--depth",
            "1",
            "--games",
            "72",
            "--openings",
            &data("mangala/openings.txt"),
            "--sprt",
            "elo0=0 elo1=100 alpha=0.05 beta=0.05",
        ],
        "sprt",
    );
    assert_eq!(json["sprt"]["verdict"], "H1", "{stdout}");
    let played = json["games_played"].as_u64().unwrap();
    assert!(played < 72, "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
}

#[test]
fn an_interrupted_match_resumes_from_its_state_file() {
    let ludus = ludus_path();
    let state = scratch("state.json");
    let args = |games: &str| -> Vec<String> {
        [
            "--game", "mangala", "--engine", &ludus, "--engine", &ludus, "--depth", "2", "--games",
            games, "--state",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([state.display().to_string()])
        .collect()
    };
    let run = |args: &[String]| {
        let out = Command::cargo_bin("ludus")
            .unwrap()
            .arg("match")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (ok, first) = run(&args("2"));
    assert!(ok, "{first}");
    // Cut the state back to one game, as if the match had been interrupted.
    interrupt_after_one_game(&state);
    let (ok, second) = run(&args("2"));
    assert!(ok, "{second}");
    assert!(
        second.contains("resuming: 1 games already played"),
        "{second}"
    );
    assert_eq!(game_lines(&second), 1, "{second}");
    // More games extend the match.
    let (ok, third) = run(&args("4"));
    assert!(ok, "{third}");
    assert!(
        third.contains("resuming: 2 games already played"),
        "{third}"
    );
    assert_eq!(game_lines(&third), 2, "{third}");
    // Another match (other limits) refuses the state file.
    let mut other = args("4");
    let at = other.iter().position(|a| a == "2").unwrap();
    other[at] = "3".to_string();
    let (ok, fourth) = run(&other);
    assert!(!ok, "{fourth}");
}

#[test]
fn engines_speaking_uci_and_ugi_play_a_match() {
    let ludus = ludus_path();
    let (stdout, json) = run_match(
        &[
            "--game",
            "senamukha",
            "--engine",
            &format!("cmd={ludus} proto=uci name=uci option.Hash=8"),
            "--engine",
            &format!("cmd={ludus} proto=ugi name=ugi"),
            "--tc",
            "2+0.02",
            "--games",
            "2",
            "--max-moves",
            "30",
        ],
        "dialects",
    );
    let (w, d, l) = tally(&json);
    assert_eq!(w + d + l, 2, "{stdout}");
    assert_eq!(json["forfeits"], serde_json::json!([0, 0]), "{stdout}");
}

#[test]
fn engines_that_ponder_play_a_match_and_their_ponder_moves_are_hit() {
    // One engine pondering in each dialect, on the clock: every game is played out,
    // no move forfeited, and the engines were told `ponderhit` (the reply they
    // expected came) as well as `stop` (another came).
    let ludus = ludus_path();
    let summary = scratch("ponder.json");
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args([
            "match",
            "--game",
            "senamukha",
            "--tc",
            "2+0.05",
            "--games",
            "2",
        ])
        .args(["--max-moves", "40", "--summary"])
        .arg(&summary)
        .arg("--engine")
        .arg(format!("cmd={ludus} name=native ponder=on option.Hash=8"))
        .arg("--engine")
        .arg(format!(
            "cmd={ludus} name=uci proto=uci ponder=on option.Hash=8"
        ))
        .env("RUST_LOG", "debug")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let (w, d, l) = tally(&json);
    assert_eq!(w + d + l, 2);
    assert_eq!(json["forfeits"], serde_json::json!([0, 0]));
    for engine in ["native", "uci"] {
        assert!(
            stderr.contains(&format!("{engine} < ponderhit")),
            "{engine}"
        );
        assert!(
            stderr.contains(&format!("{engine} < go ponder ")),
            "{engine}"
        );
    }
    assert!(stderr.contains(" < stop"));
}

#[test]
fn an_engine_that_refuses_its_options_stops_the_match_before_it_starts() {
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args(["match", "--game", "mangala", "--depth", "1", "--engine"])
        .arg(format!("cmd={} option.Colour=blue", ludus_path()))
        .arg("--engine")
        .arg(ludus_path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("engine ludus-1: malformed reply: \"? unknown option \\\"Colour\\\" (mangala has Hash, Threads, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, Skill Level, Skill Seed, Endgame Counters, EndgamePath, skip-origin, ply-limit)"),
        "{stderr}"
    );
}

#[test]
fn a_move_sent_when_none_was_asked_for_is_a_fault() {
    let (stdout, json) = run_match(
        &[
            "--engine",
            &format!("cmd=\"{} twice\" name=twice", data("engines/broken.sh")),
            "--engine",
            &ludus_path(),
            "--nodes",
            "1000",
            "--games",
            "1",
        ],
        "twice",
    );
    let game = &json["games"][0];
    assert_eq!(game["forfeit"], 0, "{stdout}");
    assert!(
        game["reason"]
            .as_str()
            .unwrap()
            .contains("\"bestmove i3h5\" when no move was asked for"),
        "{stdout}"
    );
    // Its one legal move was played before.
    assert_eq!(game["moves"][0], "i3h5");
}

#[test]
fn native_engines_with_a_large_hash_lose_no_game_on_time() {
    // The table is taken when Hash is set, before the clock runs (issue 12: it was taken
    // inside the first move's 50 ms).
    let ludus = ludus_path();
    let (stdout, json) = run_match(
        &[
            "--engine",
            &format!("cmd={ludus} name=a option.Hash=1024"),
            "--engine",
            &format!("cmd={ludus} name=b option.Hash=1024"),
            "--movetime",
            "50",
            "--games",
            "2",
            "--max-moves",
            "16",
        ],
        "large-hash",
    );
    assert_eq!(json["forfeits"], serde_json::json!([0, 0]), "{stdout}");
    assert_eq!(tally(&json), (0, 2, 0), "{stdout}");
}

/// `ludus match ... | head -1`: once its reader has gone the match starts no more
/// games, and it ends quietly with the status a shell gives SIGPIPE (141).
#[test]
fn a_match_whose_output_closes_stops_with_141() {
    use std::io::BufRead;
    let state = scratch("output-closed.state");
    let mut child = Command::cargo_bin("ludus")
        .unwrap()
        .args([
            "match", "--game", "mangala", "--depth", "1", "--games", "400",
        ])
        .args(["--engine", &ludus_path(), "--engine", &ludus_path()])
        .arg("--state")
        .arg(&state)
        .env("RUST_LOG", "off")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("game "), "{first}");
    // The reader has gone (dropped above).
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(141));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let played = saved["results"].as_array().unwrap().len();
    assert!((1..400).contains(&played), "{played} games played");
}

/// Runs `ludus match merge` with `args`; returns whether it succeeded, stdout and stderr.
fn merge(args: &[&Path]) -> (bool, String, String) {
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .arg("match")
        .arg("merge")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The games of a summary as (index, opening, seats, moves), in schedule order.
fn games_of(json: &Value) -> Vec<(u64, u64, Value, Value)> {
    let mut games: Vec<_> = json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["index"].as_u64().unwrap(),
                g["opening"].as_u64().unwrap(),
                g["seats"].clone(),
                g["moves"].clone(),
            )
        })
        .collect();
    games.sort_by_key(|g| g.0);
    games
}

#[test]
fn three_shards_merged_are_the_match_played_whole() {
    let ludus = ludus_path();
    let openings = data("mangala/openings.txt");
    // Node limits, and one engine without tables: every game is the same wherever it
    // is played, and the engines differ.
    let other = format!("cmd={ludus} name=tableless \"option.Endgame Counters\"=0");
    let base = [
        "--game",
        "mangala",
        "--engine",
        &ludus,
        "--engine",
        &other,
        "--nodes",
        "2000",
        "--openings",
        &openings,
        "--games",
        "12",
    ];
    let whole_records = scratch("whole.records");
    let whole_records_text = whole_records.display().to_string();
    let mut whole_args = base.to_vec();
    whole_args.extend(["--records", &whole_records_text]);
    let (whole_out, whole) = run_match(&whole_args, "whole");
    let mut paths = Vec::new();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let records = scratch(&format!("shard-{k}.records"));
        let mut args = base.to_vec();
        args.extend(["--shard", &shard]);
        let records_text = records.display().to_string();
        args.extend(["--records", &records_text]);
        let (_, json) = run_match(&args, &format!("shard-{k}"));
        assert_eq!(json["shard"], serde_json::json!({"index": k, "count": 3}));
        parts.push(json);
        paths.push(scratch(&format!("shard-{k}.json.kept")));
        std::fs::copy(scratch_path(&format!("shard-{k}.json")), &paths[k - 1]).unwrap();
    }
    // Each shard plays whole pairs of its own; together, every game once.
    let mut indices: Vec<u64> = parts
        .iter()
        .flat_map(|p| games_of(p).into_iter().map(|g| g.0))
        .collect();
    for part in &parts {
        let own: Vec<u64> = games_of(part).iter().map(|g| g.0).collect();
        assert_eq!(own.len(), 4, "{own:?}");
        assert!(
            own.chunks(2).all(|pair| pair[0] / 2 == pair[1] / 2),
            "{own:?}"
        );
    }
    indices.sort_unstable();
    assert_eq!(indices, (0..12).collect::<Vec<_>>());
    // Merged (in any order): the same games, openings, seats and moves, the same totals.
    let merged_summary = scratch("merged.json");
    let merged_records = scratch("merged.records");
    let (ok, out, err) = merge(&[
        &paths[2],
        &paths[0],
        &paths[1],
        Path::new("--summary"),
        &merged_summary,
        Path::new("--records"),
        &merged_records,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("merged 12 games from shards 1, 2, 3 of 3\n"),
        "{out}"
    );
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(&merged_summary).unwrap()).unwrap();
    assert_eq!(games_of(&merged), games_of(&whole));
    assert_eq!(tally(&merged), tally(&whole));
    assert_eq!(merged["pentanomial"], whole["pentanomial"]);
    assert_eq!(merged["shards"], serde_json::json!([1, 2, 3]));
    // The report is the whole match's, line for line.
    let report = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("game ") && !l.starts_with("merged "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(report(&out), report(&whole_out));
    // The records in schedule order, as the whole match wrote them.
    assert_eq!(
        std::fs::read_to_string(&merged_records).unwrap(),
        std::fs::read_to_string(&whole_records).unwrap()
    );
    // Two shards only: merged, with the missing one named.
    let (ok, out, _) = merge(&[&paths[0], &paths[2]]);
    assert!(ok);
    assert!(
        out.starts_with("merged 8 games from shards 1, 3 of 3 (missing: 2)"),
        "{out}"
    );
    // A shard twice, and a summary of another match, are refused by name.
    let (ok, _, err) = merge(&[&paths[0], &paths[1], &paths[0]]);
    assert!(!ok);
    assert!(err.contains("shard 1/3 is given twice"), "{err}");
    let foreign = scratch("foreign.json");
    let mut changed = parts[1].clone();
    changed["config"]["engines"][1]["options"] = serde_json::json!([]);
    std::fs::write(&foreign, changed.to_string()).unwrap();
    let (ok, _, err) = merge(&[&paths[0], &foreign]);
    assert!(!ok);
    assert!(
        err.contains("is from another match") && err.contains("its engines differ"),
        "{err}"
    );
    let unsharded = scratch("whole.json.kept");
    std::fs::write(&unsharded, whole.to_string()).unwrap();
    let (ok, _, err) = merge(&[&paths[0], &unsharded]);
    assert!(!ok);
    assert!(err.contains("shard counts differ"), "{err}");
}

/// The path `scratch` gives, without removing what is there.
fn scratch_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("matches")
        .join(name)
}

#[test]
fn an_interrupted_shard_resumes_and_completes() {
    let ludus = ludus_path();
    let state = scratch("shard.state");
    let shard = |part: &str| {
        Command::cargo_bin("ludus")
            .unwrap()
            .arg("match")
            .args(["--game", "mangala", "--engine", &ludus, "--engine", &ludus])
            .args(["--depth", "2", "--games", "8", "--shard", part, "--state"])
            .arg(&state)
            .output()
            .unwrap()
    };
    let run = || {
        let out = shard("2/2");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let first = run();
    let played: Vec<&str> = first.lines().filter(|l| l.starts_with("game ")).collect();
    // Shard 2 of 2 of 8 games: the second and fourth pairs.
    assert_eq!(played.len(), 4, "{first}");
    for (line, n) in played.iter().zip([3, 4, 7, 8]) {
        assert!(line.starts_with(&format!("game {n} of 8")), "{first}");
    }
    // Cut back to one game, as if interrupted: the rest is played, and only the rest.
    interrupt_after_one_game(&state);
    let second = run();
    assert!(
        second.contains("resuming: 1 games already played"),
        "{second}"
    );
    assert_eq!(game_lines(&second), 3, "{second}");
    // Another shard of the same match refuses this shard's state.
    let out = shard("1/2");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("belongs to another match"));
}

// Hostile files and engines (issue 61): what is not a regular file, what is damaged or
// too large, engines that write without end, exit under their helpers, or leave helpers
// behind.

/// A fresh, empty folder of one test's own.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch_path(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a folder holds: every name, its kind and, for a file, its bytes.
fn listing(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let kind = e.file_type().unwrap();
            let bytes = if kind.is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (
                e.file_name().to_string_lossy().to_string(),
                format!("{kind:?}"),
                bytes,
            )
        })
        .collect();
    entries.sort();
    entries
}

/// Makes `path` a character device (as /dev/zero: reads give zero bytes without end)
/// where the test may (as root), else a FIFO; returns what a refusal calls it. Never
/// /dev/zero itself: a runner that renamed over its state would replace it.
fn device(path: &Path) -> &'static str {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mknod and mkfifo with a valid C string.
    unsafe {
        if libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o600, libc::makedev(1, 5)) == 0 {
            return "a character device";
        }
        assert_eq!(libc::mkfifo(c.as_ptr(), 0o600), 0);
    }
    "a FIFO"
}

/// How a command ran: whether it succeeded, its output, and the most memory it and the
/// processes it waited for held at once (KiB).
struct Ran {
    ok: bool,
    stdout: String,
    stderr: String,
    peak_kib: i64,
}

/// Runs `command`, killed (and the test failed) if it runs past `limit`.
// The child is reaped by `wait4`, which gives its peak memory too.
#[allow(clippy::zombie_processes)]
fn run_within(mut command: Command, limit: std::time::Duration) -> Ran {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = command
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            pipe.read_to_end(&mut text).unwrap();
            String::from_utf8_lossy(&text).to_string()
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    let pid = child.id() as libc::pid_t;
    let start = std::time::Instant::now();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4 on this test's own child, with pointers to locals.
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{command:?} ran past {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Ran {
        ok: libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        peak_kib: usage.ru_maxrss,
    }
}

/// Runs `command`, which must fail within a minute with `says` on standard error.
fn refused(command: Command, says: &str) -> Ran {
    let ran = run_within(command, std::time::Duration::from_secs(60));
    assert!(
        !ran.ok && ran.stderr.contains(says),
        "{}{}",
        ran.stdout,
        ran.stderr
    );
    ran
}

/// A quick Mangala II match between two ludus engines, with `extra` arguments.
fn quick_match(extra: &[&std::ffi::OsStr]) -> Command {
    let mut command = Command::cargo_bin("ludus").unwrap();
    command
        .args(["match", "--game", "mangala", "--depth", "1", "--games", "2"])
        .args(["--engine", &ludus_path(), "--engine", &ludus_path()])
        .args(extra);
    command
}

#[test]
fn match_files_that_are_not_regular_or_are_damaged_are_refused_before_the_first_game() {
    let dir = scratch_dir("hostile-files");
    let dev = dir.join("dev");
    let dev_kind = device(&dev);
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("inside"), "kept").unwrap();
    let bad_utf8 = dir.join("bad-utf8.state");
    std::fs::write(&bad_utf8, b"{\"game\": \"mangala\xff\"}").unwrap();
    let bad_json = dir.join("bad-json.state");
    std::fs::write(&bad_json, "{\"game\": ").unwrap();
    let wrong_shape = dir.join("wrong-shape.state");
    std::fs::write(&wrong_shape, "{\"game\": \"mangala\", \"results\": []}").unwrap();
    let nowhere = PathBuf::from("/nonexistent/x.json");
    let before = listing(&dir);
    let folder_before = listing(&folder);
    let not_regular = |kind: &str| format!("is {kind}, not a regular file");
    let cases: Vec<(&str, &Path, String)> = vec![
        ("--state", &dev, not_regular(dev_kind)),
        ("--state", &folder, not_regular("a folder")),
        (
            "--state",
            &bad_utf8,
            "is not UTF-8 text (byte 17 is not)".into(),
        ),
        ("--state", &bad_json, "EOF while parsing".into()),
        ("--state", &wrong_shape, "missing field `config`".into()),
        ("--summary", &dev, not_regular(dev_kind)),
        ("--summary", &folder, not_regular("a folder")),
        ("--summary", &nowhere, "its folder does not exist".into()),
        ("--records", &dev, not_regular(dev_kind)),
        ("--records", &folder, not_regular("a folder")),
    ];
    for (option, path, why) in cases {
        let ran = run_within(
            quick_match(&[option.as_ref(), path.as_ref()]),
            std::time::Duration::from_secs(60),
        );
        let case = format!("{option} {}: {}{}", path.display(), ran.stdout, ran.stderr);
        assert!(!ran.ok, "{case}");
        assert_eq!(game_lines(&ran.stdout), 0, "refused before a game: {case}");
        assert!(ran.stderr.contains(&path.display().to_string()), "{case}");
        assert!(ran.stderr.contains(&why), "{case}");
        // Not a byte of a device read into memory.
        assert!(
            ran.peak_kib < 128 * 1024,
            "peak {} KiB: {case}",
            ran.peak_kib
        );
        // Nothing on disk changed: the same names, kinds and bytes, no `.partial`.
        assert_eq!(listing(&dir), before, "{case}");
        assert_eq!(listing(&folder), folder_before, "{case}");
    }
}

#[test]
fn an_openings_file_that_is_a_device_or_too_large_is_refused() {
    refused(
        quick_match(&["--openings".as_ref(), "/dev/zero".as_ref()]),
        "cannot use --openings: /dev/zero is a character device, not a regular file",
    );
    let large = scratch("large.openings");
    std::fs::write(&large, "# a comment\n".repeat(1_500_000)).unwrap();
    refused(
        quick_match(&["--openings".as_ref(), large.as_ref()]),
        "holds more than 16 MiB",
    );
}

/// Runs a match of two games (`command`, its summary written to `summary`) that the
/// first engine must lose both, each with a reason that holds `reason`.
fn first_engine_forfeits_both(command: Command, summary: &Path, reason: &str) -> Ran {
    let ran = run_within(command, std::time::Duration::from_secs(120));
    assert!(ran.ok, "{}{}", ran.stdout, ran.stderr);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(summary).unwrap()).unwrap();
    assert_eq!(
        json["forfeits"],
        serde_json::json!([2, 0]),
        "{}",
        ran.stdout
    );
    for g in json["games"].as_array().unwrap() {
        assert!(g["reason"].as_str().unwrap().contains(reason), "{g}");
    }
    ran
}

#[test]
fn an_engine_that_writes_without_end_loses_its_games_in_bounded_memory() {
    let summary = scratch("flood.json");
    let mut command = Command::cargo_bin("ludus").unwrap();
    command
        .arg("match")
        .args([
            "--engine",
            &format!("cmd=\"{} flood\" name=flood", data("engines/broken.sh")),
        ])
        .args(["--engine", &ludus_path(), "--nodes", "1000", "--games", "2"])
        .arg("--summary")
        .arg(&summary);
    let ran = first_engine_forfeits_both(command, &summary, "a line longer than 1 MiB");
    assert!(ran.peak_kib < 256 * 1024, "peak {} KiB", ran.peak_kib);
    // An engine that floods from its first line stops the match before it starts.
    let mut command = Command::cargo_bin("ludus").unwrap();
    command
        .args(["match", "--depth", "1", "--engine", "cat /dev/zero"])
        .args(["--engine", &ludus_path()]);
    let ran = refused(
        command,
        "engine cat-1: malformed reply: a line longer than 1 MiB",
    );
    assert!(ran.peak_kib < 256 * 1024, "peak {} KiB", ran.peak_kib);
}

/// The processes whose ids `pids` lists (one a line) that are still alive (a zombie is
/// not), after they had up to two seconds to die.
fn survivors(pids: &Path) -> Vec<String> {
    let listed = std::fs::read_to_string(pids).unwrap_or_default();
    let alive = || -> Vec<String> {
        listed
            .lines()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .is_ok_and(|stat| !stat.rsplit(") ").next().unwrap().starts_with('Z'))
            })
            .map(str::to_string)
            .collect()
    };
    let start = std::time::Instant::now();
    while !alive().is_empty() && start.elapsed() < std::time::Duration::from_secs(2) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let left = alive();
    for pid in &left {
        // Not left to linger for the rest of the run.
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    left
}

/// Writes an executable shell script.
fn script(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A wrapper script that starts a helper (its pid written to the file given back)
/// and then runs ludus in its place.
fn wrapper_script(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let pids = dir.join("pids");
    let wrapper = dir.join("wrapper.sh");
    script(
        &wrapper,
        &format!(
            "#!/bin/sh\nsleep 1000 &\necho $! >> '{}'\nexec '{}'\n",
            pids.display(),
            ludus_path()
        ),
    );
    (pids, wrapper)
}

#[test]
fn a_wrapper_scripts_helpers_do_not_outlive_the_match() {
    let (pids, wrapper) = wrapper_script("wrapper");
    let mut command = Command::cargo_bin("ludus").unwrap();
    command
        .args(["match", "--game", "mangala", "--depth", "1", "--games", "2"])
        .arg("--engine")
        .arg(&wrapper)
        .arg("--engine")
        .arg(&wrapper);
    let ran = run_within(command, std::time::Duration::from_secs(60));
    assert!(ran.ok, "{}{}", ran.stdout, ran.stderr);
    let started = std::fs::read_to_string(&pids).unwrap().lines().count();
    // Each engine once for the check before the match, once for its games.
    assert!(started >= 4, "{started} helpers");
    assert_eq!(survivors(&pids), Vec::<String>::new());
}

#[test]
fn a_match_ended_by_a_signal_takes_its_engines_groups_with_it() {
    for signal in ["TERM", "INT"] {
        let (pids, wrapper) = wrapper_script(&format!("signalled-{signal}"));
        let mut child = Command::cargo_bin("ludus")
            .unwrap()
            .args([
                "match",
                "--game",
                "senamukha",
                "--tc",
                "60+1",
                "--games",
                "2",
            ])
            .arg("--engine")
            .arg(&wrapper)
            .arg("--engine")
            .arg(&wrapper)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Both engines of the first game are up (and the ones checked before it).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::fs::read_to_string(&pids).map_or(0, |t| t.lines().count()) < 4 {
            assert!(
                std::time::Instant::now() < deadline,
                "the engines did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(!status.success(), "{signal}: {status:?}");
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert_eq!(survivors(&pids), Vec::<String>::new(), "{signal}");
    }
}

#[test]
fn an_engine_that_exits_while_a_helper_holds_its_output_has_crashed() {
    // A helper that only holds the output, and one that writes on without pause.
    for (name, helper) in [("quiet", "sleep 1000"), ("chatty", "yes 'info string x'")] {
        let dir = scratch_dir(&format!("orphan-{name}"));
        let pids = dir.join("pids");
        let orphan = dir.join("orphan.sh");
        script(
            &orphan,
            &format!(
                "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    \
                 go*) {helper} & echo $! >> '{}'; exit 3 ;;\n    quit*) exit 0 ;;\n    \
                 *) printf '=\\n\\n' ;;\n  esac\ndone\n",
                pids.display()
            ),
        );
        let summary = dir.join("summary.json");
        let mut command = Command::cargo_bin("ludus").unwrap();
        command
            .args(["match", "--game", "mangala", "--nodes", "1000"])
            .args(["--timeout", "10000", "--games", "2", "--engine"])
            .arg(format!("cmd={} name=orphan", orphan.display()))
            .args(["--engine", &ludus_path(), "--summary"])
            .arg(&summary);
        let start = std::time::Instant::now();
        first_engine_forfeits_both(command, &summary, "crashed: exited (exit status: 3) while");
        // Noticed at once, not after the 10 s the engine had to answer.
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "{name}"
        );
        assert_eq!(survivors(&pids), Vec::<String>::new(), "{name}");
    }
}

/// `ludus openings` makes the openings `ludus match --openings` reads: when it cannot
/// make as many as asked, it says so and fails, rather than printing fewer.
#[test]
fn openings_that_cannot_be_made_are_refused() {
    let openings = |plies: &str, count: &str| {
        let mut command = Command::cargo_bin("ludus").unwrap();
        command.args([
            "openings", "--game", "mangala", "--plies", plies, "--count", count,
        ]);
        command
    };
    let ran = refused(
        openings("100000", "3"),
        "cannot make 3 distinct openings of 100000 plies",
    );
    assert!(ran.stdout.is_empty());
    let ran = run_within(openings("4", "3"), std::time::Duration::from_secs(60));
    assert!(ran.ok);
    assert_eq!(ran.stdout.lines().count(), 3);
}

#[test]
fn merge_refuses_what_is_not_a_summary_before_it_writes() {
    let dir = scratch_dir("merge-hostile");
    let summary = dir.join("summary.json");
    let ran = run_within(
        quick_match(&["--summary".as_ref(), summary.as_ref()]),
        std::time::Duration::from_secs(60),
    );
    assert!(ran.ok, "{}", ran.stderr);
    let merge = |args: &[&Path]| {
        let mut command = Command::cargo_bin("ludus").unwrap();
        command.args(["match", "merge"]).args(args);
        command
    };
    // A device is not read; an output that cannot be written is refused first.
    refused(
        merge(&[Path::new("/dev/zero")]),
        "/dev/zero is a character device, not a regular file",
    );
    let ran = refused(
        merge(&[
            &summary,
            Path::new("--summary"),
            Path::new("/nonexistent/x.json"),
        ]),
        "cannot use --summary: /nonexistent/x.json cannot be written",
    );
    assert!(ran.stdout.is_empty(), "{}", ran.stdout);
    // A game that does not fit its match is refused, not a panic.
    let mut forged: Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    forged["games"][0]["seats"] = serde_json::json!([0, 7]);
    let forged_path = dir.join("forged.json");
    std::fs::write(&forged_path, forged.to_string()).unwrap();
    refused(merge(&[&forged_path]), "game 1 does not fit the match");
}
