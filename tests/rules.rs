//! The rules of protocol-spec/rules/ name, for every rule, the tests that fail if the
//! rule is broken: every rule names one, and every test named exists.

use std::path::Path;

fn sources(dir: &Path, text: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, text);
        } else if path.extension().is_some_and(|e| e == "rs") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The test names a rules text cites: backticked snake_case words of three or more parts.
fn cited(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.split('_').count() >= 3
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        })
        .collect()
}

#[test]
fn every_rule_names_its_tests_and_they_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    sources(&root.join("src"), &mut code);
    sources(&root.join("tests"), &mut code);
    for game in ["senamukha", "mentula", "mangala"] {
        let text =
            std::fs::read_to_string(root.join(format!("protocol-spec/rules/{game}.md"))).unwrap();
        // Each rule runs from its `**X1.` to the next rule or heading.
        let mut rules = 0;
        for block in text.split("\n**").skip(1) {
            let label = block.split('.').next().unwrap();
            if label.len() < 2 || !label.chars().skip(1).all(|c| c.is_ascii_digit()) {
                continue;
            }
            rules += 1;
            let body = block.split("\n#").next().unwrap();
            assert!(!cited(body).is_empty(), "{game} {label} names no test");
        }
        assert!(rules >= 9, "{game}: {rules} rules");
        for name in cited(&text) {
            assert!(
                code.contains(&format!("fn {name}(")),
                "{game}: the test {name} does not exist"
            );
        }
    }
}
