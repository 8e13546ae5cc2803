//! Win/draw/loss chances through pipes in every dialect (`UCI_ShowWDL`,
//! protocol-spec/wdl.md): off by default; when on, every scored line carries `wdl`
//! summing to 1000; proven results are certain.

mod common;

use common::Process;

/// Issue 19's position: black mates in 3 (j11d11).
const PUZZLE: &str =
    "9r1/4pppp3/1N2k4r1/5n3pp/1p2K6/3p2p4/P3n1P4/1PPe4PRP/1R2NP1P3/3PP1P4/9R1 b - - 0 59";

/// The numbers after `wdl` on a line (up to the next word that is not a number).
fn wdl(line: &str) -> Option<Vec<u32>> {
    let words: Vec<&str> = line
        .split(' ')
        .map(|w| w.trim_matches(|c| c == '{' || c == '}'))
        .collect();
    let at = words.iter().position(|w| *w == "wdl")?;
    Some(
        words[at + 1..]
            .iter()
            .map_while(|w| w.parse().ok())
            .collect(),
    )
}

/// Every line with a score in `lines` has `players` chances summing to 1000.
fn assert_every_scored_line_has_chances(lines: &[String], players: usize) -> usize {
    let scored: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(" score ") || l.contains(" scores "))
        .collect();
    assert!(!scored.is_empty(), "{lines:?}");
    for line in &scored {
        let chances = wdl(line).unwrap_or_else(|| panic!("no wdl: {line}"));
        assert_eq!(chances.len(), players, "{line}");
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    }
    scored.len()
}

fn session(first: &str, ok: &str) -> Process {
    let mut engine = Process::start();
    engine.send(first);
    if !ok.is_empty() {
        engine.until(|l| l == ok);
    }
    engine
}

#[test]
fn chances_are_off_by_default_and_listed_as_an_option() {
    let mut engine = session("uci", "uciok");
    engine.send("position startpos");
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("wdl")), "{lines:?}");
    let mut engine = Process::start();
    engine.send("uci");
    let listed = engine.until(|l| l == "uciok");
    assert!(
        listed.contains(&"option name UCI_ShowWDL type check default false".to_string()),
        "{listed:?}"
    );
    let mut native = Process::start();
    native.send("list_options");
    // The list ends with an empty line.
    let listed = native.until(|l| l.is_empty());
    assert!(
        listed.iter().any(|l| l.contains("UCI_ShowWDL")),
        "{listed:?}"
    );
    // A bad value is refused and the option kept off.
    native.send("setoption name UCI_ShowWDL value maybe");
    assert!(native.line().starts_with('?'));
    native.send("go depth 2");
    let lines = native.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("wdl")), "{lines:?}");
}

#[test]
fn uci_gives_chances_on_every_line_and_certainty_for_a_mate() {
    let mut engine = session("uci", "uciok");
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("setoption name MultiPV value 2");
    engine.send(&format!("position fen {PUZZLE}"));
    engine.send("go mate 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_every_scored_line_has_chances(&lines, 3);
    let mate = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score mate 3 "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!(wdl(mate), Some(vec![1000, 0, 0]), "{mate}");
    // The side mated: certain loss.
    engine.send("setoption name MultiPV value 1");
    engine.send(&format!("position fen {PUZZLE} moves j11d11"));
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert!(last.contains(" score mate -"), "{last}");
    assert_eq!(wdl(last), Some(vec![0, 0, 1000]), "{last}");
    // An even position is neither won nor lost for sure.
    engine.send("position startpos");
    engine.send("go depth 5");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_every_scored_line_has_chances(&lines, 3);
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    let chances = wdl(last).unwrap();
    assert!(chances.iter().all(|&c| c < 1000), "{last}");
}

#[test]
fn ugi_and_native_mangala_are_exact_where_the_tables_prove_the_value() {
    let dir = common::table_files("wdl-tables", 6);
    let mut engine = session("ugi", "ugiok");
    engine.send("setoption name UGI_Variant value mangala");
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send(&format!(
        "setoption name EndgamePath value {}",
        dir.display()
    ));
    // A proven draw, and a proven loss for the mover.
    for (fen, expected) in [
        ("1,0,0,0,0,1/1,0,0,0,0,1 S 34 34", vec![0, 1000, 0]),
        ("0,0,0,0,0,2/2,0,0,0,0,0 S 34 34", vec![0, 0, 1000]),
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 6");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        assert_every_scored_line_has_chances(&lines, 3);
        let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
        assert_eq!(wdl(last), Some(expected), "{fen}: {last}");
    }
    // Without the tables the same draw is only likely.
    let mut native = Process::start();
    native.send("game mangala");
    native.send("setoption name UCI_ShowWDL value on");
    native.send("setoption name Endgame Counters value 0");
    native.send("position fen 1,0,0,0,0,1/1,0,0,0,0,1 S 34 34");
    native.send("go depth 6");
    let lines = native.until(|l| l.starts_with("bestmove"));
    assert_every_scored_line_has_chances(&lines, 3);
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert_ne!(wdl(last), Some(vec![0, 1000, 0]), "{last}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mentula_gives_each_player_a_chance_of_first_place() {
    for algorithm in ["mcts", "brs"] {
        let mut engine = Process::start();
        engine.send("game mentula");
        engine.send("setoption name UCI_ShowWDL value true");
        engine.send(&format!("setoption name Algorithm value {algorithm}"));
        engine.send("setoption name MultiPV value 2");
        engine.send("go depth 2");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        assert!(assert_every_scored_line_has_chances(&lines, 4) >= 2);
    }
}

#[test]
fn cecp_shows_the_chances_after_the_line() {
    let mut engine = Process::start();
    engine.send("xboard");
    engine.send("protover 2");
    let features = engine.until(|l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"UCI_ShowWDL -check 0\""),
        "{features:?}"
    );
    engine.send("new");
    engine.send("post");
    engine.send("option UCI_ShowWDL=1");
    engine.send("sd 4");
    engine.send("go");
    let lines = engine.until(|l| l.starts_with("move "));
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for line in thinking {
        assert!(line.ends_with('}'), "{line}");
        let chances = wdl(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    }
}

fn ludus(args: &[&str]) -> std::process::Output {
    use assert_cmd::cargo::CommandCargoExt;
    std::process::Command::cargo_bin("ludus")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

/// `ludus wdl` fits a game's model to self-play and prints it as source, with the
/// calibration table of the held-out games.
#[test]
fn the_fit_prints_the_model_and_its_calibration() {
    let out = ludus(&[
        "wdl",
        "--game",
        "mangala",
        "--games",
        "10",
        "--nodes",
        "300",
        "--steps",
        "50",
        "--concurrency",
        "1",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("LogisticModel {"), "{text}");
    assert!(text.contains("held-out positions of 2 games"), "{text}");
    assert!(text.contains("Brier score"), "{text}");
}

/// `ludus wdl --matches` measures the built-in model on a match's games (their
/// engines' scores, kept in the summary), refuses another game's summary and names a
/// file that is no summary.
#[test]
fn the_calibration_is_measured_on_a_matchs_games() {
    let dir = std::env::temp_dir().join(format!("ludus-wdl-matches-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let summary = dir.join("m.json");
    let bin = assert_cmd::cargo::cargo_bin("ludus");
    let first = format!("cmd={} name=a", bin.display());
    let second = format!("cmd={} name=b depth=2", bin.display());
    let played = ludus(&[
        "match",
        "--game",
        "mangala",
        "--engine",
        &first,
        "--engine",
        &second,
        "--games",
        "4",
        "--depth",
        "3",
        "--concurrency",
        "1",
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{played:?}");
    let out = ludus(&[
        "wdl",
        "--game",
        "mangala",
        "--matches",
        summary.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let head = text.lines().next().unwrap();
    let positions: usize = head
        .strip_prefix("the built-in model on ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    // Every move after the opening was scored (at most the 4 games' moves).
    assert!(positions > 20, "{text}");
    assert!(head.contains("positions of 4 games"), "{head}");
    assert!(text.contains("Brier score"), "{text}");

    let other = ludus(&[
        "wdl",
        "--game",
        "senamukha",
        "--matches",
        summary.to_str().unwrap(),
    ]);
    assert!(!other.status.success());
    let error = String::from_utf8(other.stderr).unwrap();
    assert!(
        error.contains("a match of mangala, not of senamukha"),
        "{error}"
    );

    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"game\": 3}").unwrap();
    let bad = ludus(&[
        "wdl",
        "--game",
        "mangala",
        "--matches",
        junk.to_str().unwrap(),
    ]);
    assert!(!bad.status.success());
    let error = String::from_utf8(bad.stderr).unwrap();
    assert!(error.contains("junk.json"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}
