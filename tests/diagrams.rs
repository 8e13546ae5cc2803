//! SVG diagrams: valid SVG (read by an XML parser), the elements a client relies on,
//! the marks, and golden files that keep each game's drawing stable. Regenerate the
//! golden files with `LUDUS_UPDATE_GOLDEN=1 cargo test --test diagrams` after a
//! deliberate change, and look at them.

mod common;

use ludus::game::{Game, Presentation};
use ludus::games::{mangala, mentula, senamukha};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    let document = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.attribute("viewBox").is_some());
    assert!(
        !svg.contains("\n\n"),
        "no blank line: the protocol sends it as one reply"
    );
    document
}

fn with_class<'a>(
    document: &'a roxmltree::Document<'a>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    document
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == class))
        })
        .collect()
}

fn squares_of(nodes: &[roxmltree::Node]) -> Vec<String> {
    let mut squares: Vec<String> = nodes
        .iter()
        .filter_map(|n| n.attribute("data-square").map(str::to_string))
        .collect();
    squares.sort();
    squares
}

/// Compares with the golden file, or writes it when asked to.
fn golden(name: &str, svg: &str) {
    golden_at(&format!("tests/data/diagrams/{name}.svg"), svg);
}

/// [`golden`] for a file anywhere in the repository.
fn golden_at(file: &str, svg: &str) {
    let name = file;
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("LUDUS_UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(std::path::Path::new(&path).parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{svg}\n")).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(svg, expected.trim_end(), "{name}: the drawing changed");
}

fn after<G: Game>(moves: &[&str]) -> (G, Option<G::Move>) {
    let mut position = G::start();
    let mut last = None;
    for text in moves {
        let mv = position.parse_move(text).unwrap();
        position.play(mv);
        last = Some(mv);
    }
    (position, last)
}

#[test]
fn senamukha_draws_every_square_and_man_and_marks_the_last_move_and_a_check() {
    let (position, last) = after::<senamukha::Position>(&["Na3-b5", "Ne9-d7"]);
    let svg = position.diagram_svg(last);
    let document = parse(&svg);
    assert_eq!(with_class(&document, "square").len(), 121);
    let men = with_class(&document, "man");
    let fen_men = position
        .fen()
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .filter(char::is_ascii_alphabetic)
        .count();
    assert_eq!(men.len(), fen_men);
    assert_eq!(with_class(&document, "elephant").len(), 6);
    // Every man is drawn by ludus's own shapes, none by a font's glyph.
    for man in &men {
        assert!(
            man.descendants().all(|n| n.tag_name().name() != "text"),
            "{:?} is drawn as text",
            man.attribute("class")
        );
        assert!(
            man.descendants()
                .any(|n| n.tag_name().name() == "path" || n.tag_name().name() == "ellipse")
        );
    }
    assert!(
        document
            .descendants()
            .any(|n| n.attribute("id") == Some("sq-k11"))
    );
    assert_eq!(squares_of(&with_class(&document, "last")), ["d7", "e9"]);
    assert!(with_class(&document, "check").is_empty());
    golden("senamukha", &svg);

    let checked = senamukha::Position::from_fen("k10/11/11/11/11/11/11/11/11/11/R9K b").unwrap();
    let document_text = checked.diagram_svg(None);
    let document = parse(&document_text);
    assert_eq!(squares_of(&with_class(&document, "check")), ["a11"]);
    assert!(with_class(&document, "last").is_empty());
}

#[test]
fn mentula_draws_four_colours_four_players_and_the_last_jump() {
    let (position, last) = after::<mentula::Position>(&["a1-b1-c1"]);
    let svg = position.diagram_svg(last);
    let document = parse(&svg);
    assert_eq!(with_class(&document, "square").len(), 64);
    for colour in ["colour-0", "colour-1", "colour-2", "colour-3"] {
        assert_eq!(with_class(&document, colour).len(), 16, "{colour}");
    }
    for player in ["white", "yellow", "red", "magenta"] {
        let men = with_class(&document, player);
        assert_eq!(men.len(), 4, "{player}");
        // Told apart without colour too: each man carries its player's initial.
        let initial = player[..1].to_uppercase();
        for man in men {
            assert_eq!(
                man.descendants()
                    .find(|n| n.has_tag_name("text"))
                    .and_then(|t| t.text()),
                Some(initial.as_str()),
                "{player}"
            );
        }
    }
    assert_eq!(squares_of(&with_class(&document, "from")), ["a1"]);
    assert_eq!(squares_of(&with_class(&document, "pivot")), ["b1"]);
    assert_eq!(squares_of(&with_class(&document, "to")), ["c1"]);
    let jumps = with_class(&document, "jump");
    assert_eq!(jumps.len(), 1, "one jump so far");
    assert_eq!(jumps[0].attribute("data-player"), Some("white"));
    // The pivot is ringed, not covered: no filled shape over the jumped man, and the
    // path runs under the men.
    let rings = with_class(&document, "jump-pivot");
    assert_eq!(squares_of(&rings), ["b1"]);
    assert!(
        rings[0]
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .all(|c| c.attribute("fill") == Some("none")),
        "{svg}"
    );
    let order: Vec<&str> = document
        .descendants()
        .filter_map(|n| n.attribute("class"))
        .filter(|c| *c == "jump" || c.starts_with("man "))
        .collect();
    assert_eq!(order[0], "jump", "the path is drawn before the men");
    golden("mentula", &svg);
}

#[test]
fn mentula_draws_every_players_last_jump_in_its_colour() {
    let moves = ["a1-b1-c1", "a7-b7-c7", "h8-g7-f6", "g1-g2-g3", "a2-b2-c2"];
    let (position, last) = after::<mentula::Position>(&moves);
    let svg = position.diagram_svg(last);
    let document = parse(&svg);
    let jumps: Vec<(String, String)> = with_class(&document, "jump")
        .iter()
        .map(|j| {
            (
                j.attribute("data-player").unwrap().to_string(),
                format!(
                    "{}-{}-{}",
                    j.attribute("data-from").unwrap(),
                    j.attribute("data-pivot").unwrap(),
                    j.attribute("data-to").unwrap()
                ),
            )
        })
        .collect();
    // Oldest first, so that the latest is drawn on top; White's latest, not its first.
    let expected = [
        ("yellow", "a7-b7-c7"),
        ("red", "h8-g7-f6"),
        ("magenta", "g1-g2-g3"),
        ("white", "a2-b2-c2"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(p, m)| (p.to_string(), m.to_string()))
        .collect();
    assert_eq!(jumps, expected);
    // Each in its player's colour.
    for jump in with_class(&document, "jump") {
        let player = jump.attribute("data-player").unwrap();
        let colour = ludus::games::descriptor("mentula")
            .unwrap()
            .seats
            .iter()
            .find(|s| s.name == player)
            .unwrap()
            .colour;
        assert!(
            jump.descendants()
                .any(|n| n.attribute("stroke") == Some(colour)),
            "{player}"
        );
    }
}

#[test]
fn mangala_draws_the_last_sowing_its_captures_and_names_the_stores() {
    // North's a after C d F captures (tests/review.rs plants the same blunder).
    let (before, _) = after::<mangala::Position>(&["C", "d", "F"]);
    let (position, last) = after::<mangala::Position>(&["C", "d", "F", "a"]);
    let svg = position.diagram_svg(last);
    let document = parse(&svg);
    let sown: Vec<(String, String)> = with_class(&document, "sown")
        .iter()
        .map(|n| {
            (
                n.attribute("data-pit").unwrap().to_string(),
                n.attribute("data-counters").unwrap().to_string(),
            )
        })
        .collect();
    let counters = before.pits()[6] as usize;
    assert_eq!(
        sown.iter()
            .map(|(_, n)| n.parse::<usize>().unwrap())
            .sum::<usize>(),
        counters,
        "every counter of a fell somewhere: {sown:?}"
    );
    assert!(
        sown.iter().any(|(pit, _)| pit == "b") && !sown.iter().any(|(pit, _)| pit == "a"),
        "from the pit after the origin on: {sown:?}"
    );
    let captured: Vec<&str> = with_class(&document, "captured")
        .iter()
        .map(|n| n.attribute("data-pit").unwrap())
        .collect();
    assert!(!captured.is_empty(), "{svg}");
    let letters = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];
    for pit in &captured {
        let index = letters.iter().position(|l| l == pit).unwrap();
        assert_eq!(position.pits()[index], 0, "{pit} was emptied");
    }
    let taken = position.captured(1) - before.captured(1);
    assert!(taken > 0);
    let names: Vec<&str> = with_class(&document, "store-name")
        .iter()
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(names, ["north", "south"]);
}

#[test]
fn mangala_draws_twelve_pits_with_their_counts_and_both_stores() {
    let (position, last) = after::<mangala::Position>(&["F", "a"]);
    let svg = position.diagram_svg(last);
    let document = parse(&svg);
    let pits = with_class(&document, "pit");
    assert_eq!(pits.len(), 12);
    for (pit, &count) in position.pits().iter().enumerate() {
        let letter = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"][pit];
        let node = document
            .descendants()
            .find(|n| n.attribute("id") == Some(&format!("pit-{letter}")))
            .unwrap();
        assert_eq!(
            node.attribute("data-count"),
            Some(count.to_string().as_str())
        );
    }
    let last: Vec<&str> = with_class(&document, "last")
        .iter()
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert_eq!(last, ["pit-a"]);
    let stores = with_class(&document, "store");
    assert_eq!(stores.len(), 2);
    golden("mangala", &svg);
}

#[test]
fn the_protocol_and_the_command_line_give_the_same_svg() {
    let mut engine = common::Process::start();
    engine.send("1 game mangala");
    engine.send("2 play F");
    engine.send("3 diagram svg");
    engine.send("4 diagram png");
    let lines = engine.until(|l| l.starts_with("?4"));
    // A reply of several lines starts on the line after its `=`.
    let start = lines.iter().position(|l| l == "=3").unwrap() + 1;
    let end = lines.iter().position(|l| l == "</svg>").unwrap();
    let svg = lines[start..=end].join("\n");
    assert_eq!(
        lines.last().unwrap(),
        "?4 diagram takes text or svg, not \"png\""
    );
    let (position, last) = after::<mangala::Position>(&["F"]);
    assert_eq!(svg, position.diagram_svg(last));
    engine.send("quit");
    engine.exits_within(std::time::Duration::from_secs(2));

    let output = assert_cmd::Command::cargo_bin("ludus")
        .unwrap()
        .args(["diagram", "--game", "mangala", "--moves", "F"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap().trim_end(), svg);
}

/// The score the reach layer shows, in twelfths: each reached square split among the
/// players on its `data-players`.
fn scores_drawn(document: &roxmltree::Document) -> [i32; 4] {
    let mut scores = [0; 4];
    for group in with_class(document, "reach") {
        let players: Vec<&str> = group
            .attribute("data-players")
            .unwrap()
            .split(' ')
            .collect();
        assert_eq!(
            group.attribute("class").unwrap().contains("shared"),
            players.len() > 1,
            "a square is outlined exactly when it is shared"
        );
        assert_eq!(
            group
                .children()
                .filter(|c| c.has_tag_name("circle"))
                .count(),
            players.len(),
            "a dot for each player"
        );
        for player in players {
            let p = ["white", "yellow", "red", "magenta"]
                .iter()
                .position(|n| *n == player)
                .unwrap();
            scores[p] += 12 / group.attribute("data-players").unwrap().split(' ').count() as i32;
        }
    }
    scores
}

#[test]
fn mentula_shows_each_players_reach_on_request_and_it_adds_up_to_the_scores() {
    for fen in [
        // The rules' (M8) free figure against a lone man: 48 squares and 1.
        "8/8/8/3WR3/3WW3/8/8/8 w 1 1",
        // a3 shared by three players, the rest of the a-file by two.
        "8/8/Y7/Y7/8/R7/W7/W7 w 1 1",
        "startpos",
    ] {
        let position = if fen == "startpos" {
            mentula::Position::start()
        } else {
            mentula::Position::from_fen(fen).unwrap()
        };
        let svg = position.diagram_svg_with(None, &["reach"]);
        let document = parse(&svg);
        let scores = position.scores();
        assert_eq!(scores_drawn(&document), scores, "{fen}");
        assert_eq!(
            position.diagram_svg_with(None, &[]),
            position.diagram_svg(None),
            "no layer asked, none drawn"
        );
        if fen.starts_with("8/8/Y7") {
            let shared = with_class(&document, "shared");
            let three: Vec<_> = shared
                .into_iter()
                .filter(|g| g.attribute("data-players") == Some("white yellow red"))
                .collect();
            assert_eq!(squares_of(&three), ["a3"]);
            golden("mentula-reach", &svg);
        }
    }
}

/// The figures of protocol-spec/mentula.md, which redraw the seed's lost diagrams: each
/// is what `ludus diagram` draws today (renew them with `LUDUS_UPDATE_GOLDEN=1`).
#[test]
fn the_figures_of_the_mentula_spec_are_what_ludus_draws() {
    let figures: [(&str, &[&str]); 5] = [
        ("start", &[]),
        (
            "moves",
            &["--moves", "a1-b2-c3 b8-b7-b6 h8-g7-f6 g1-g2-g3 a2-c3-e4"],
        ),
        (
            "capture",
            &[
                "--moves",
                "a1-b2-c3 b8-b7-b6 h8-g7-f6 g1-g2-g3 a2-c3-e4 b7-b6-b5 g8-f6xe4 g2-g3-g4",
            ],
        ),
        ("statura", &["--fen", "M6M/8/8/4Y3/3W4/8/8/M6M w 0 1"]),
        (
            "score-48-1",
            &["--fen", "8/8/8/3WR3/3WW3/8/8/8 w 0 1", "--layer", "reach"],
        ),
    ];
    for (name, args) in figures {
        let output = assert_cmd::Command::cargo_bin("ludus")
            .unwrap()
            .args(["diagram", "--game", "mentula"])
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{name}");
        let svg = String::from_utf8(output.stdout).unwrap();
        let svg = svg.trim_end();
        parse(svg);
        golden_at(&format!("protocol-spec/figures/mentula-{name}.svg"), svg);
    }
}
