//! The real XBoard (Debian's package) runs a two-game match in two-machine mode, ludus
//! against ludus, under a virtual display; the saved PGN must name the variant, every
//! move must be legal for ludus's own rules, and each result must be what the moves
//! lead to. Needs xboard, xvfb-run and ImageMagick: ignored by default, run by CI
//! (`.ci/run` installs them) and by hand with
//! `cargo test --release --test xboard -- --ignored`.

use std::path::PathBuf;
use std::process::Command;

use ludus::game::Game;
use ludus::games::senamukha;

#[test]
#[ignore = "needs xboard, xvfb-run and imagemagick; CI runs it"]
fn xboard_plays_a_match_between_two_ludus_engines() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xboard-match");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("adapters/xboard/two-machines.sh");
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x1024x24"])
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .arg(&out)
        .arg("2")
        .status()
        .expect("xvfb-run runs (Debian packages xvfb, xboard, imagemagick)");
    assert!(status.success(), "the match failed; see {}", out.display());

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
