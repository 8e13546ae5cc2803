//! The real XBoard (Debian's package) under a virtual display: a two-game match in
//! two-machine mode, ludus against ludus, where the saved PGN must name the variant,
//! every move must be legal for ludus's own rules, and each result must be what the
//! moves lead to; and analysis mode, where XBoard must read ludus's thinking lines
//! and answer its periodic `.` requests with `stat01`. Needs xboard, xvfb-run and ImageMagick: ignored by default, run by CI
//! (`.ci/run` installs them) and by hand with
//! `cargo test --release --test xboard -- --ignored`.

use std::path::PathBuf;
use std::process::Command;

use ludus::game::Game;
use ludus::games::senamukha;

/// Runs a script of adapters/xboard/ with ludus under a virtual display; its output
/// directory (in the target's temporary directory) is returned.
fn under_xvfb(script: &str, out: &str, argument: &str) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(out);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("adapters/xboard")
        .join(script);
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x1024x24"])
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .arg(&out)
        .arg(argument)
        .status()
        .expect("xvfb-run runs (Debian packages xvfb, xboard, imagemagick, x11-utils)");
    assert!(
        status.success(),
        "{} failed; see {}",
        script.display(),
        out.display()
    );
    out
}

#[test]
#[ignore = "needs xboard, xvfb-run and imagemagick; CI runs it"]
fn xboard_plays_a_match_between_two_ludus_engines() {
    let out = under_xvfb("two-machines.sh", "xboard-match", "2");

    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("the games were saved");
    let games: Vec<&str> = pgn
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert_eq!(games.len(), 2, "{pgn}");
    for game in games {
        let text = format!("[Event {game}");
        assert!(text.contains("[Variant \"senamukha\"]"), "{text}");
        let replay = ludus::record::replay(senamukha::Position::start(), &text)
            .unwrap_or_else(|e| panic!("XBoard's record does not replay: {e}\n{text}"));
        assert!(replay.moves.len() >= 2, "{text}");
        let stated = replay.stated_result.clone().expect("a result");
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&stated.as_str()),
            "{stated}"
        );
        // A game XBoard ended on the board ended by ludus's rules the same way.
        if let Some(outcome) = replay.outcome() {
            assert_eq!(ludus::record::two_player_result(&outcome), stated, "{text}");
        }
    }
    assert!(out.join("board.png").exists(), "no screenshot");
}

#[test]
#[ignore = "needs xboard, xvfb-run, xwininfo and imagemagick; CI runs it"]
fn xboard_shows_ludus_analysing_in_analysis_mode() {
    let out = under_xvfb("analysis.sh", "xboard-analysis", "4");

    // XBoard's log: `>first` what it sent, `<first` what it read from ludus.
    let log = std::fs::read_to_string(out.join("xboard.debug")).expect("XBoard's log");
    let read: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split_once(" <first : ").map(|(_, text)| text))
        .collect();
    assert!(
        log.lines().any(|l| l.ends_with(">first : analyze")),
        "{log}"
    );
    // Thinking lines `depth score time nodes pv`, deepening, every pv legal from the
    // start position.
    let thinking: Vec<Vec<&str>> = read
        .iter()
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .filter(|w| w.len() > 4 && w[..4].iter().all(|n| n.parse::<i64>().is_ok()))
        .collect();
    assert!(thinking.len() >= 8, "{read:?}");
    let depths: Vec<u32> = thinking.iter().map(|w| w[0].parse().unwrap()).collect();
    assert!(depths.windows(2).all(|d| d[0] <= d[1]), "{depths:?}");
    assert!(*depths.last().unwrap() >= 8, "{depths:?}");
    for line in &thinking {
        let mut position = senamukha::Position::start();
        for text in &line[4..] {
            let mv = position
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text} in {line:?}: {e}"));
            position.play(mv);
        }
    }
    // XBoard asks `.` every few seconds in analysis; each is answered.
    let asked = log.lines().filter(|l| l.ends_with(">first : .")).count();
    let told = read.iter().filter(|l| l.starts_with("stat01: ")).count();
    assert!(
        told >= 1 && told <= asked,
        "{asked} asked, {told} told:\n{log}"
    );
    assert!(out.join("analysis.png").exists(), "no screenshot");
}
