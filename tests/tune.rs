//! `ludus tune`: the self-play data generator and the fit of the evaluation's weights,
//! through the command line.

use assert_cmd::Command;

fn ludus() -> Command {
    Command::cargo_bin("ludus").unwrap()
}

/// The output of a command that must have succeeded (else its standard error).
fn succeeded(out: std::process::Output) -> std::process::Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A file of this process's own in the temporary directory.
fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ludus-tune-{}-{name}", std::process::id()))
}

/// Short self-play games give labelled positions that read back as positions; the fit
/// of a few epochs writes a weights file of every term, held-out error logged.
#[test]
fn generate_then_fit_writes_a_weights_file() {
    let out = ludus()
        .args([
            "tune",
            "generate",
            "--games",
            "3",
            "--nodes",
            "300",
            "--max-plies",
            "80",
        ])
        .args(["--seed", "5", "--concurrency", "2"])
        .output()
        .unwrap();
    let out = succeeded(out);
    let data = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = data.lines().collect();
    assert!(lines.len() > 20, "only {} positions", lines.len());
    for line in &lines {
        let (result, _) = line.split_once(' ').unwrap();
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
    }
    for line in lines.iter().step_by(lines.len() / 3) {
        let (_, fen) = line.split_once(' ').unwrap();
        ludus()
            .args(["perft", "--depth", "1", "--fen", fen])
            .assert()
            .success();
    }
    let file = scratch("positions.txt");
    std::fs::write(&file, &data).unwrap();
    let out = ludus()
        .args(["tune", "fit", "--epochs", "20", "--l2", "0.01"])
        .arg(&file)
        .output()
        .unwrap();
    let out = succeeded(out);
    let source = String::from_utf8(out.stdout).unwrap();
    assert!(source.contains("pub const WEIGHTS: [Value; super::eval::TERMS] = ["));
    for term in [
        "// material: pawn knight elephant rook king",
        "// safe_check",
        "// tempo",
    ] {
        assert!(source.contains(term), "{term} missing:\n{source}");
    }
    let log = String::from_utf8(out.stderr).unwrap();
    assert!(log.contains("held-out positions"), "{log}");
    std::fs::remove_file(&file).ok();
}

/// The same seed gives the same games, position for position.
#[test]
fn generation_is_reproducible_from_its_seed() {
    let run = || {
        ludus()
            .args([
                "tune",
                "generate",
                "--games",
                "1",
                "--nodes",
                "200",
                "--max-plies",
                "40",
            ])
            .args(["--seed", "9"])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run(), run());
}

#[test]
fn bad_data_is_refused_with_its_line_number() {
    let file = scratch("bad.txt");
    std::fs::write(&file, "1 11/11/11/11/11/11/11/11/11/11/11 w - - 0 1\n").unwrap();
    let out = ludus().args(["tune", "fit"]).arg(&file).output().unwrap();
    assert!(!out.status.success());
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(error.contains("line 1:"), "{error}");
    std::fs::write(&file, "win startpos\n").unwrap();
    let out = ludus().args(["tune", "fit"]).arg(&file).output().unwrap();
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("line 1: result \"win\" is not 1, 0.5 or 0"),
        "{error}"
    );
    std::fs::remove_file(&file).ok();
}

/// Only evaluations that are linear in their weights can be tuned.
#[test]
fn a_game_without_a_tunable_evaluation_says_so() {
    let out = ludus()
        .args(["tune", "generate", "--game", "mentula", "--games", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("mentula's evaluation cannot be tuned"),
        "{error}"
    );
}
