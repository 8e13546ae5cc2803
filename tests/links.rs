//! The documents' references hold: every relative link of the README, protocol-spec/,
//! benches/ and adapters/ points at a file that exists (and at a heading of it, when it
//! names one), and every path to a document that the code and the documents mention
//! (`protocol-spec/rules/mentula.md`, ...) exists.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    for dir in ["protocol-spec", "benches", "adapters"] {
        files(&root().join(dir), "md", &mut out);
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped but hyphens,
/// spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of `text` outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    prose(text)
        .into_iter()
        .filter(|line| line.starts_with('#'))
        .map(|line| anchor(line.trim_start_matches('#')))
        .collect()
}

/// The targets of the inline links `[text](target)` outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_points_at_a_file_and_heading_that_exist() {
    let mut broken = Vec::new();
    for document in documents() {
        let text = std::fs::read_to_string(&document).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, heading) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                document.clone()
            } else {
                document.parent().unwrap().join(path)
            };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", document.display()));
                continue;
            }
            if !heading.is_empty() && target.is_file() {
                let text = std::fs::read_to_string(&target).unwrap();
                if !anchors(&text).iter().any(|a| a == heading) {
                    broken.push(format!("{}: {link}: no such heading", document.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn every_document_the_code_and_the_documents_name_exists() {
    let mut texts = documents();
    files(&root().join("src"), "rs", &mut texts);
    files(&root().join("tests"), "rs", &mut texts);
    let mut missing = Vec::new();
    for file in texts {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices("protocol-spec/") {
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "/._-".contains(*c))
                .collect();
            let path = path.trim_end_matches('.');
            if path.ends_with(".md") && !root().join(path).exists() {
                missing.push(format!("{}: {path}", file.display()));
            }
        }
        // The rules once named a file the repository never had.
        if file.extension().is_some_and(|e| e == "rs" || e == "md")
            && !file.ends_with("links.rs")
            && text.contains("RULES.md")
        {
            missing.push(format!("{}: RULES.md", file.display()));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}
