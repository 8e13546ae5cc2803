//! The seed's three Sena-Mukha games and its side line, replayed through the record
//! reader, and records written by ludus read back.

use ludus::game::{Game, NamedNotation, OptionError};
use ludus::games::senamukha;
use ludus::games::senamukha::{Notation, Position};
use ludus::record::{self, Replay};

fn game(n: u32) -> String {
    let path = format!(
        "{}/tests/data/senamukha/game{n}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn replay(text: &str) -> Replay<Position> {
    record::replay(Position::start(), text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn game_one_ends_in_checkmate_by_black_on_move_73() {
    let r = replay(&game(1));
    assert_eq!(r.players, ["Zillions of Games", "Zillions of Games"]);
    assert_eq!(r.moves.len(), 73 * 2);
    let outcome = r.outcome().unwrap();
    assert_eq!(outcome.reason, senamukha::CHECKMATE);
    assert_eq!(outcome.verdict(Position::PLAYERS), "black wins");
}

#[test]
fn game_two_ends_in_checkmate_by_white_on_move_89() {
    let r = replay(&game(2));
    assert_eq!(r.moves.len(), 88 * 2 + 1);
    let outcome = r.outcome().unwrap();
    assert_eq!(outcome.reason, senamukha::CHECKMATE);
    assert_eq!(outcome.verdict(Position::PLAYERS), "white wins");
}

#[test]
fn game_three_ends_in_threefold_repetition_and_its_side_line_in_checkmate() {
    let r = replay(&game(3));
    assert_eq!(r.moves.len(), 60);
    let outcome = r.outcome().unwrap();
    assert_eq!(outcome.reason, senamukha::REPETITION);
    assert_eq!(outcome.verdict(Position::PLAYERS), "draw");
    assert_eq!(r.variations.len(), 1);
    let side_line = &r.variations[0];
    assert_eq!(side_line.branch_ply, 59, "replaces 30... Kf8–f9");
    assert_eq!(side_line.moves.len(), 6);
    let outcome = side_line.position.outcome().unwrap();
    assert_eq!(outcome.reason, senamukha::CHECKMATE);
    assert_eq!(outcome.verdict(Position::PLAYERS), "white wins");
    assert!(r.comments[0].starts_with("White loses a Knight by making any other move"));
}

#[test]
fn all_383_half_moves_of_the_seed_games_are_legal() {
    let total: usize = (1..=3).map(|n| replay(&game(n)).moves.len()).sum();
    assert_eq!(total, 383);
}

#[test]
fn written_records_replay_to_the_same_game_in_every_notation() {
    for n in 1..=3 {
        let original = replay(&game(n));
        for NamedNotation { notation, .. } in Position::NOTATIONS {
            let text = record::write(
                &Position::start(),
                &original.moves,
                Some("White—Black"),
                *notation,
            );
            let again = replay(&text);
            assert_eq!(again.moves, original.moves, "game {n} in {notation:?}");
            assert_eq!(again.players, ["White", "Black"]);
        }
    }
}

#[test]
fn the_long_form_record_matches_the_seed_move_for_move() {
    let original = replay(&game(1));
    let text = record::write(&Position::start(), &original.moves, None, Notation::Long);
    let seed: Vec<String> = game(1)
        .split_whitespace()
        .filter(|w| w.contains(['–', ':']))
        .map(|w| w.trim_end_matches('.').to_string())
        .collect();
    let ours: Vec<String> = text
        .split_whitespace()
        .filter(|w| w.contains(['–', ':']))
        .map(str::to_string)
        .collect();
    assert_eq!(ours, seed);
}

#[test]
fn records_without_numbers_or_header_and_with_pgn_habits_read() {
    let r = replay("Nab5 Ned7 Ned5 {a comment} Nf7 3. Kf4 Nhg9 *");
    assert_eq!(r.moves.len(), 6);
    assert_eq!(r.header, None);
    assert_eq!(r.comments, ["a comment"]);
    assert_eq!(r.stated_result.as_deref(), Some("*"));
    let r = replay("1. Na3–b5 Ne9–d7 2. Ne3–d5 ; line comment\n2... Ng9–f7");
    assert_eq!(r.moves.len(), 4);
}

#[test]
fn record_errors_name_the_move_and_why() {
    let cases = [
        (
            "1. Na3–b5 Ne9–d7 2. Ne3–d5 Ng9–f8",
            "move 2… (black) Ng9–f8",
            "g9",
        ),
        (
            "1. Na3–b5 Ne9–d7 3. Ne3–d5",
            "move 2 (white) 3.",
            "expected move number 2",
        ),
        (
            "1. Na3–b5 2. Ne9–d7",
            "move 1… (black) 2.",
            "black's move 1… is missing",
        ),
        ("1. Na3–b5 1. Ne9–d7", "move 1… (black) 1.", "write 1. …"),
        ("1. … Na3–b5", "move 1 (white) 1. …", "drop the …"),
        (
            "1. Na3–b5× Ne9–d7",
            "move 1 (white) Na3–b5×",
            "marked as winning",
        ),
        (
            "1. Na3–b5 Ne9–d7=",
            "move 1… (black) Ne9–d7=",
            "marked as drawing",
        ),
        (
            "1. Na3–b5 Ne9–d7 (1. … Ng9–f7",
            "move 2 (white)",
            "not closed",
        ),
        (
            "1. Na3–b5 Ne9–d7 )",
            "move 2 (white) )",
            "no variation is open",
        ),
        ("1. Na3–b5 - ", "move 1… (black) -", "black can move"),
        (
            "1. Na3–b5 * Ne9–d7",
            "move 1… (black) Ne9–d7",
            "already gave the result",
        ),
        (
            "1. Na3–b5 1-0 2. Nb5–c7",
            "move 1… (black) 2.",
            "already gave the result",
        ),
    ];
    for (text, turn, why) in cases {
        let err = record::replay(Position::start(), text)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(turn),
            "{text}: {err:?} should start with {turn:?}"
        );
        assert!(err.contains(why), "{text}: {err:?} lacks {why:?}");
    }
}

#[test]
fn a_stated_result_must_agree_with_the_rules() {
    // White is mated: rooks on a11 and b11 hold the a- and b-files, k1 checks.
    let fen = "rr3k5/11/11/11/11/11/11/11/11/11/K9r w - - 0 1";
    let start = Position::from_fen(fen).unwrap();
    assert!(start.outcome().is_some());
    let err = record::replay(start.clone(), "1-0")
        .unwrap_err()
        .to_string();
    assert!(err.contains("the rules give 0-1"), "{err}");
    let r = record::replay(start, "0-1").unwrap();
    assert_eq!(r.stated_result.as_deref(), Some("0-1"));
}

#[test]
fn play_after_the_end_is_refused_and_the_n_move_rule_can_end_a_game_early() {
    // Game 3 has 14 plies without capture or pawn move at its end; with n = 5 the
    // rules end it earlier, and the record going on is an error.
    let mut start = Position::start();
    start.set_rule_option("N-Move-Rule", "5").unwrap();
    let err = record::replay(start, &game(3)).unwrap_err().to_string();
    assert!(
        err.contains("the game is already over (move limit)"),
        "{err}"
    );
    // With n = 7 the main line's last move reaches 14 plies: still a draw (`=` holds),
    // but the side line's 31st move now comes after the end.
    let mut start = Position::start();
    start.set_rule_option("n-move-rule", "7").unwrap();
    let err = record::replay(start.clone(), &game(3))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("move 31 (white) 31.: the game is already over (move limit)"),
        "{err}"
    );
    start.set_rule_option("n-move-rule", "8").unwrap();
    let r = record::replay(start.clone(), &game(3)).unwrap();
    assert_eq!(r.outcome().unwrap().reason, senamukha::REPETITION);
    for bad in ["0", "-3", "soon", ""] {
        let err = start.set_rule_option("n-move-rule", bad).unwrap_err();
        assert!(
            matches!(&err, OptionError::BadValue { name, .. } if name == "n-move-rule"),
            "{bad}: {err:?}"
        );
        assert!(
            err.to_string().contains("off or a positive number"),
            "{bad}: {err}"
        );
    }
    let err = start.set_rule_option("castling", "on").unwrap_err();
    assert!(
        matches!(&err, OptionError::UnknownRule { name, known, .. }
            if name == "castling" && known == &["n-move-rule"]),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        r#"unknown rule option "castling" (senamukha has n-move-rule)"#
    );
}

#[test]
fn nested_variations_name_the_line_they_branch_from() {
    let r = replay("1. a4–a5 a8–a7 (b8–b7 2. b4–b5 (2. c4–c5)) 2. b4–b5");
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.variations.len(), 2);
    let outer = &r.variations[0];
    assert_eq!(
        (outer.parent, outer.branch_ply, outer.moves.len()),
        (None, 1, 2)
    );
    let inner = &r.variations[1];
    assert_eq!(
        (inner.parent, inner.branch_ply, inner.moves.len()),
        (Some(0), 1, 1)
    );
}

#[test]
fn hostile_records_are_refused_cleanly() {
    let deep = format!("1. a4–a5 {}{}", "(a4–a5 ".repeat(4000), ")".repeat(4000));
    let err = record::replay(Position::start(), &deep)
        .unwrap_err()
        .to_string();
    assert!(err.contains("nested more than 32 deep"), "{err}");
    let unclosed = format!("1. a4–a5 {}", "(a4–a5 ".repeat(4000));
    assert!(record::replay(Position::start(), &unclosed).is_err());
    let err = record::replay(Position::start(), "1. Na3–b5 ( )")
        .unwrap_err()
        .to_string();
    assert!(err.contains("holds no move"), "{err}");
    let err = record::replay(Position::start(), "01. Na3–b5")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unreadable move: 01"), "{err}");
}

#[test]
fn results_comments_and_spaces_after_the_last_move() {
    let mut text = game(3);
    text = text.replace("Kf8–f9=.", "Kf8–f9= {a draw} ½-½.");
    let r = replay(&text);
    assert_eq!(r.stated_result.as_deref(), Some("½-½"));
    assert_eq!(r.comments[0], "a draw");
    let r = replay("1.\u{a0}Na3–b5\u{a0}Ne9–d7");
    assert_eq!(r.moves.len(), 2);
}

#[test]
fn headers_with_brackets_numbers_and_semicolons() {
    for (text, header) in [
        ("Alice (White)—Bob 1. Na3–b5", "Alice (White)—Bob"),
        ("Alice; Bob 1. Na3–b5", "Alice; Bob"),
        (
            "Zillions of Games 2.0—Bob 1. Na3–b5",
            "Zillions of Games 2.0—Bob",
        ),
        ("Round 2. Alice—Bob 1. Na3–b5", "Round 2. Alice—Bob"),
        ("A\u{a0}Zillions—B 1. Na3–b5", "A\u{a0}Zillions—B"),
    ] {
        let r = replay(text);
        assert_eq!(r.header.as_deref(), Some(header), "{text}");
        assert_eq!(r.moves.len(), 1, "{text}");
    }
    let r = replay("Alice (White)—Bob 1. Na3–b5");
    assert_eq!(r.players, ["Alice (White)", "Bob"]);
}

#[test]
fn a_record_of_a_set_position_carries_it_in_its_position_tag() {
    let start = Position::from_fen("k10/4P6/11/11/11/11/11/11/11/11/10K b - - 0 1").unwrap();
    let mut position = start.clone();
    let moves: Vec<_> = ["a11b11", "e10e11r"]
        .iter()
        .map(|text| {
            let mv = position.parse_move(text).unwrap();
            position.play(mv);
            mv
        })
        .collect();
    let text = record::write(&start, &moves, None, Notation::Long);
    assert!(
        text.starts_with("[Position \"k10/4P6/11/11/11/11/11/11/11/11/10K b - - 0 1\"]\n1. … "),
        "{text}"
    );
    // Read back from the tag's position, whatever start the reader is given.
    let again = replay(&text);
    assert_eq!(again.moves, moves);
    assert_eq!(again.position.fen(), position.fen());
    // The start position needs no tag; a tag that is no position is refused by name.
    let plain = record::write(&Position::start(), &[], None, Notation::Long);
    assert!(!plain.contains("[Position"), "{plain}");
    let Err(refused) = record::replay(Position::start(), "[Position \"k10/11\"] 1. … a11b11")
    else {
        panic!("a bad tag is refused");
    };
    assert!(
        refused.to_string().starts_with("the position tag k10/11: "),
        "{refused}"
    );
}
