//! Strength levels through pipes (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`,
//! `Skill Seed`; protocol-spec/levels.md): listed in every dialect, bad values refused
//! with the range, an Elo kept until the limit is switched on, weakened searches small
//! and repeatable with a seed, and levels in `ludus match` specs.

mod common;

use common::Process;

/// The last `info` line's node count, and the best move, of a search's output.
fn nodes_and_move(lines: &[String]) -> (u64, String) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && l.contains(" nodes "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let words: Vec<&str> = info.split(' ').collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    (words[at + 1].parse().unwrap(), best)
}

fn uci() -> Process {
    let mut engine = Process::start();
    engine.send("uci");
    engine.until(|l| l == "uciok");
    engine
}

#[test]
fn the_options_are_listed_in_every_dialect() {
    let mut engine = Process::start();
    engine.send("uci");
    let listed = engine.until(|l| l == "uciok");
    for option in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 500 min 500 max 3000",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Skill Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(listed.contains(&option.to_string()), "{option}: {listed:?}");
    }
    let mut engine = Process::start();
    engine.send("xboard");
    engine.send("protover 2");
    let features = engine.until(|l| l.contains("done=1"));
    for feature in [
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"UCI_Elo -spin 500 500 3000\"",
        "feature option=\"Skill Level -spin 20 0 20\"",
    ] {
        assert!(
            features.contains(&feature.to_string()),
            "{feature}: {features:?}"
        );
    }
}

#[test]
fn values_out_of_range_are_refused_with_the_range_and_change_nothing() {
    let mut engine = uci();
    engine.send("setoption name UCI_Elo value 100");
    assert_eq!(
        engine.line(),
        "info string error: UCI_Elo takes 500 to 3000, not \"100\""
    );
    engine.send("setoption name Skill Level value 21");
    assert_eq!(
        engine.line(),
        "info string error: Skill Level takes 0 to 20, not \"21\""
    );
    // Nothing was set: a full-strength search, as deep as asked.
    engine.send("position startpos");
    engine.send("go depth 5");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
}

#[test]
fn an_elo_waits_for_the_limit_and_a_low_one_searches_little() {
    let mut engine = uci();
    engine.send("setoption name UCI_Elo value 500");
    engine.send("position startpos");
    engine.send("go depth 4");
    let (full, _) = nodes_and_move(&engine.until(|l| l.starts_with("bestmove")));
    // Stored, not used: the limit is off.
    assert!(full > 300, "{full}");
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let (weak, _) = nodes_and_move(&lines);
    assert!(weak < full, "{weak} >= {full}");
    // The lines the client asked for (one), not the four the level looks at.
    assert!(lines.iter().all(|l| !l.contains(" multipv ")), "{lines:?}");
    // An Elo above full strength plays at full strength, and says so.
    engine.send("setoption name UCI_Elo value 3000");
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string UCI_Elo 3000 is at or above the full strength")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
}

/// Plays `plies` moves from the start against itself at `level` with `seed`, through
/// the native protocol; returns the moves.
fn self_play(game: &str, level: u32, seed: u32, plies: usize) -> Vec<String> {
    let mut engine = Process::start();
    engine.send(&format!("game {game}"));
    engine.send(&format!("setoption name Skill Level value {level}"));
    engine.send(&format!("setoption name Skill Seed value {seed}"));
    let mut moves = Vec::new();
    for _ in 0..plies {
        engine.send("go nodes 100000");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
        if best == "(none)" {
            break;
        }
        engine.send(&format!("play {best}"));
        moves.push(best);
    }
    moves
}

#[test]
fn a_seed_repeats_a_game_and_another_seed_varies_it_in_every_game() {
    for game in ["senamukha", "mangala", "mentula"] {
        let first = self_play(game, 2, 42, 8);
        assert_eq!(first.len(), 8, "{game}: {first:?}");
        assert_eq!(self_play(game, 2, 42, 8), first, "{game}");
        let others: Vec<Vec<String>> = (1..=4).map(|seed| self_play(game, 2, seed, 8)).collect();
        assert!(others.iter().any(|g| *g != first), "{game}: {others:?}");
    }
}

#[test]
fn levels_are_engine_options_of_a_match() {
    use assert_cmd::Command;
    let ludus = assert_cmd::cargo::cargo_bin("ludus").display().to_string();
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args(["match", "--game", "mangala", "--depth", "6", "--games", "2"])
        .arg("--engine")
        .arg(format!(
            "cmd={ludus} name=level0 \"option.Skill Level\"=0 \"option.Skill Seed\"=7"
        ))
        .arg("--engine")
        .arg(format!(
            "cmd={ludus} name=elo \"option.UCI_LimitStrength\"=true option.UCI_Elo=900"
        ))
        .env("RUST_LOG", "warn")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{stdout}"
    );
    // A level out of range is refused before any game.
    let refused = Command::cargo_bin("ludus")
        .unwrap()
        .args(["match", "--game", "mangala", "--depth", "2", "--games", "2"])
        .arg("--engine")
        .arg(format!("cmd={ludus} \"option.Skill Level\"=25"))
        .arg("--engine")
        .arg(&ludus)
        .env("RUST_LOG", "warn")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("Skill Level takes 0 to 20"), "{stderr}");
}
