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

/// The options of this issue sent while the engine works (an infinite search, a
/// pondering search, a count) are served in their turn: the work runs on as it
/// started, `isready` is still answered at once beside a search, and the next search
/// plays weakened and shows its chances.
#[test]
fn options_sent_while_the_engine_works_apply_to_the_next_search() {
    let options = [
        "setoption name UCI_ShowWDL value true",
        "setoption name Skill Level value 2",
        "setoption name Skill Seed value 7",
    ];
    let next_search_is_weakened = |engine: &mut Process| {
        engine.send("position startpos");
        engine.send("go depth 6");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let (nodes, _) = nodes_and_move(&lines);
        // Level 2's budget, some hundred nodes, not a depth-6 search's thousands.
        assert!(nodes < 1_000, "{nodes}: {lines:?}");
        assert!(
            lines
                .iter()
                .filter(|l| l.contains(" score "))
                .all(|l| l.contains(" wdl ")),
            "{lines:?}"
        );
    };
    let untouched = |lines: &[String]| {
        assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
        let (nodes, _) = nodes_and_move(lines);
        assert!(nodes > 5_000, "the running search was weakened: {lines:?}");
    };

    // An infinite search, stopped; a pondering search, hit.
    let while_searching = |setup: &[&str], end: &str| {
        let mut engine = uci();
        for line in setup {
            engine.send(line);
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        for option in options {
            engine.send(option);
        }
        engine.send("isready");
        let mut lines = engine.until(|l| l == "readyok");
        engine.send(end);
        lines.extend(engine.until(|l| l.starts_with("bestmove")));
        untouched(&lines);
        next_search_is_weakened(&mut engine);
    };
    while_searching(&["position startpos", "go infinite"], "stop");
    let ponder = "go ponder wtime 3000 btime 3000";
    let setup = [
        "setoption name Ponder value true",
        "position startpos moves e4e5",
        ponder,
    ];
    while_searching(&setup, "ponderhit");

    // A count (native): the options wait for its reply, then take effect.
    let mut engine = Process::start();
    engine.send("1 perft 6");
    for (k, option) in options.iter().enumerate() {
        engine.send(&format!("{} {option}", k + 2));
    }
    engine.send("9 stop");
    let replies = engine.until(|l| l.starts_with("=9"));
    let count = replies
        .iter()
        .position(|l| l.starts_with("?1 ") || l.starts_with("=1"));
    let first_option = replies.iter().position(|l| l == "=2");
    assert!(count.is_some() && count < first_option, "{replies:?}");
    engine.send("10 go depth 6");
    let lines = engine.until(|l| l.starts_with("bestmove") || l.starts_with("=10 "));
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty(), "{lines:?}");
    assert!(scored.iter().all(|l| l.contains(" wdl ")), "{lines:?}");
}

/// A weakened search with MultiPV 2 shows two labelled lines, and reports the line it
/// plays last as line 1, so that a GUI's first line is the move played.
#[test]
fn the_line_played_is_reported_last_as_line_one() {
    let mut engine = uci();
    engine.send("setoption name MultiPV value 2");
    engine.send("setoption name Skill Level value 0");
    let mut differed = false;
    for seed in 1..=12 {
        engine.send(&format!("setoption name Skill Seed value {seed}"));
        engine.send("position startpos");
        engine.send("go depth 4");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
        let info: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
        assert!(info.iter().all(|l| l.contains(" multipv ")), "{lines:?}");
        assert!(info.iter().all(|l| !l.contains(" multipv 3 ")), "{lines:?}");
        let line_one: Vec<&&String> = info.iter().filter(|l| l.contains(" multipv 1 ")).collect();
        let last = line_one.last().unwrap();
        assert!(last.contains(&format!(" pv {best}")), "{lines:?}");
        // The played line came after the search's own line 1: the pick differed.
        differed |= line_one.len() >= 2
            && !line_one[line_one.len() - 2].contains(&format!(" pv {best}"))
            && *info.last().unwrap() == **last;
    }
    // Level 0 plays a move other than the search's best now and then.
    assert!(differed);
}
