//! The README's examples run, so that they cannot go stale: every `cargo run --release
//! -- ...` line of its shell blocks (but `serve`, which serves until stopped) runs with
//! the built binary and succeeds, and the match it shows gives the result it shows.
//! (Its session is piped by `tests/pipes.rs`.)

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The lines of the README's fenced blocks of `kind` (`sh`, or `` for plain ones).
fn blocks(text: &str, kind: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // Inside a block: its lines, if it is of the kind asked for.
    let mut current: Option<Option<Vec<String>>> = None;
    for line in text.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim() == kind).then(Vec::new)),
            (Some(lines), Some(_)) => {
                if let Some(lines) = lines.take() {
                    out.push(lines);
                }
                current = None;
            }
            (Some(Some(lines)), None) => lines.push(line.to_string()),
            _ => {}
        }
    }
    out
}

fn shell(command: &str) -> std::process::Output {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme");
    std::fs::create_dir_all(&dir).unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_ludus"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("RUST_LOG", "off")
        .output()
        .unwrap()
}

#[test]
fn the_readme_command_lines_run() {
    let text = readme();
    let mut ran = 0;
    for block in blocks(&text, "sh") {
        for line in block {
            let command = line.split(" # ").next().unwrap().trim().to_string();
            if !command.contains("cargo run --release -- ") {
                continue;
            }
            if command.contains(" -- serve") {
                continue;
            }
            let data = concat!(env!("CARGO_MANIFEST_DIR"), "/");
            let command = command
                .replacen("cargo run --release -- ", "ludus ", 1)
                .replace(" tests/data/", &format!(" {data}tests/data/"));
            let out = shell(&command);
            assert!(
                out.status.success(),
                "{command}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.stdout.is_empty() || command.contains('>'), "{command}");
            ran += 1;
        }
    }
    assert!(ran >= 5, "{ran} commands");
}

#[test]
fn the_readme_match_gives_the_result_it_shows() {
    let text = readme();
    let block = blocks(&text, "")
        .into_iter()
        .find(|b| b.iter().any(|l| l.starts_with("$ ludus match")))
        .expect("a match example");
    let start = block
        .iter()
        .position(|l| l.starts_with("$ ludus match"))
        .unwrap();
    let mut command = block[start].trim_start_matches("$ ").to_string();
    let mut next = start + 1;
    while command.ends_with('\\') {
        command.pop();
        command.push_str(block[next].trim());
        command.push(' ');
        next += 1;
    }
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    let command = command.replace(" tests/data/", &format!(" {data}tests/data/"));
    let out = shell(&command);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    for shown in block[next..].iter().filter(|l| *l != "...") {
        assert!(
            stdout.contains(shown.as_str()),
            "{shown:?} not in:\n{stdout}"
        );
    }
}
