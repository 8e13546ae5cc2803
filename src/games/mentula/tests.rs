//! Unit tests of the Mentula rules, and the fast implementation against the simple one.

use super::board::{PLAYERS, Square};
use super::fen;
use super::notation::Notation;
use super::position::{Leaving, Move, Position};
use super::reference::{self, Board};
use crate::game::Rng;
use crate::game::testing::assert_refused;
use crate::game::{Game, NamedNotation, Outcome};

fn sq(name: &str) -> Square {
    Square::from_coords(name.chars().next().unwrap(), name[1..].parse().unwrap()).unwrap()
}

fn board_of(position: &Position) -> Board {
    let mut owners = [None; 64];
    for (i, owner) in owners.iter_mut().enumerate() {
        *owner = position.owner(Square::at(i as u8));
    }
    Board {
        owners,
        to_move: position.to_move(),
    }
}

fn names(moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    out.sort();
    out
}

fn play(position: &mut Position, text: &str) {
    let mv = position.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    position.play(mv);
}

// ---- moves, turns and the reference ----

#[test]
fn perft_agrees_with_the_simple_implementation_to_depth_6() {
    let mut start = Position::start();
    let board = board_of(&start);
    // Five moves each while the players' pieces are far apart.
    let expected = [1, 5, 25, 125, 625, 3_750, 22_500];
    for depth in 0..=6u32 {
        let fast = crate::perft::perft(&mut start, depth);
        assert_eq!(fast, reference::perft(&board, depth), "depth {depth}");
        assert_eq!(fast, expected[depth as usize], "depth {depth}");
    }
}

#[test]
fn fast_and_simple_implementations_agree_move_for_move_in_random_games() {
    let mut rng = Rng(0xDEC0_DE55);
    for game in 0..300 {
        let mut position = Position::start();
        let mut board = board_of(&position);
        for _ in 0..400 {
            let mut fast = Vec::new();
            position.legal_moves(&mut fast);
            let simple: Vec<Move> = board
                .moves_of(board.to_move)
                .into_iter()
                .map(|(from, pivot, to)| Move::jump(from, pivot, to))
                .collect();
            assert_eq!(
                names(&fast),
                names(&simple),
                "game {game} at {}",
                position.fen()
            );
            if position.outcome().is_some() || fast.is_empty() {
                break;
            }
            let mv = fast[rng.below(fast.len())];
            let before = (position.fen(), position.zobrist());
            position.play(mv);
            let Move::Jump(jump) = mv else {
                panic!("{mv:?} is not a jump")
            };
            board.play((jump.from, jump.pivot, jump.to));
            assert_eq!(board_of(&position), board, "game {game}");
            assert_eq!(position.zobrist(), position.hash_from_scratch());
            position.undo();
            assert_eq!((position.fen(), position.zobrist()), before);
            position.play(mv);
        }
    }
}

#[test]
fn a_jump_lands_on_the_reflection_and_captures_what_stands_there() {
    let p = Position::from_fen("8/8/8/8/4Y3/8/1W6/W7 w 0 1").unwrap();
    // a1 over b2 lands on c3; b2 over a1 would leave the board.
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    assert_eq!(names(&list), ["a1-b2-c3"]);
    // A knight's distance away: a1 over c2 lands on e3 and captures yellow there.
    let mut p = Position::from_fen("8/8/8/8/8/4Y3/2W5/W2Y4 w 0 1").unwrap();
    play(&mut p, "a1-c2xe3");
    assert_eq!(p.owner(sq("e3")), Some(0));
    assert_eq!(p.men(1).count_ones(), 1);
    assert_eq!(p.since_capture(), 0);
}

#[test]
fn players_in_statura_with_none_one_or_two_pieces_are_skipped() {
    // Yellow has no piece, Red one, Magenta two that aim off the board (a8, h1).
    let mut p = Position::from_fen("M7/8/8/4R3/8/8/1W6/WW5M w 0 1").unwrap();
    for player in 1..PLAYERS {
        assert!(!p.can_move(player), "player {player}");
    }
    play(&mut p, "a1-b2-c3");
    assert_eq!(p.to_move(), 0, "the turn comes straight back to white");
    assert_eq!(p.round(), 2);
    p.undo();
    assert_eq!((p.to_move(), p.round()), (0, 1));
    // With Red able to move, the turn passes over Yellow to Red.
    let mut p = Position::from_fen("8/8/8/3RR3/8/8/1W6/WW5M w 0 1").unwrap();
    play(&mut p, "a1-b2-c3");
    assert_eq!((p.to_move(), p.round()), (2, 1));
}

#[test]
fn the_doma_sequence_of_chapter_four() {
    // One player alone on the board: the game is over by (a), but the moves are legal.
    let mut p = Position::from_fen("8/3W4/5W2/8/4W3/4W3/8/8 w 0 1").unwrap();
    for text in ["e3-e4-e5", "f6-e5-d4", "d7-e5-f3", "f3-e4-d5"] {
        play(&mut p, text);
        assert_eq!(p.to_move(), 0);
    }
    let doma = ["d4", "e4", "d5", "e5"]
        .iter()
        .fold(0, |a, s| a | sq(s).bit());
    assert_eq!(p.men(0), doma);
}

// ---- the end of the game ----

/// Scores count twelfths of a square.
const U: i32 = super::reach::SCORE_UNITS;

#[test]
fn shared_squares_give_16_each_at_the_start_and_fractions_where_three_meet() {
    let mut p = Position::start();
    assert_eq!(p.scores(), [16 * U; 4]);
    // Every ending says who stands better: here the capture limit after one move.
    p.set_rule_option("capture-limit", "1").unwrap();
    let mv = p.parse_move("a1-b1-c1").unwrap();
    p.play(mv);
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::CAPTURE_LIMIT);
    assert_eq!(outcome.scores.iter().sum::<i32>(), 64 * U);
    // The earlier ruling gave everybody 0 while the figures overlap.
    p.set_rule_option("scoring", "exclusive").unwrap();
    assert_eq!(p.outcome().unwrap().scores, [0; 4]);

    // White a1 a2 and yellow a5 a6 each reach the a-file; red's lone a3 reaches a3,
    // which all three share: white and yellow 7 * 1/2 + 1/3, red 1/3.
    let p = Position::from_fen("8/8/Y7/Y7/8/R7/W7/W7 w").unwrap();
    assert_eq!(p.scores(), [46, 46, 4, 0]);
    let outcome = Outcome {
        reason: super::REPETITION,
        scores: p.scores().to_vec(),
    };
    assert_eq!(
        Position::describe_outcome(&outcome),
        "white and yellow share first place (threefold repetition; white 3.83, yellow 3.83, red 0.33, magenta 0; ranking white = yellow > red > magenta)"
    );
    // Exact ties: no rounding decides a place.
    assert_eq!(outcome.ranking(), [vec![0, 1], vec![2], vec![3]]);
}

#[test]
fn a_lone_survivor_with_two_pieces_scores_64() {
    let p = Position::from_fen("8/8/8/8/8/8/8/W6W y").unwrap();
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::LAST_PLAYER);
    assert_eq!(outcome.scores, [64 * U, 0, 0, 0]);
    assert_eq!(outcome.winner(), Some(0));
}

#[test]
fn one_player_left_scores_64() {
    let p = Position::from_fen("8/8/8/8/8/8/WW6/WW6 w 0 1").unwrap();
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::LAST_PLAYER);
    assert_eq!(outcome.scores, [64 * U, 0, 0, 0]);
    assert_eq!(
        Position::describe_outcome(&outcome),
        "white wins (one player left; white 64, yellow 0, red 0, magenta 0; ranking white > yellow = red = magenta)"
    );
}

#[test]
fn nobody_able_to_move_ends_the_game() {
    let p = Position::from_fen("R7/8/8/8/8/8/8/W6Y w 0 1").unwrap();
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::NO_MOVES);
    assert_eq!(outcome.scores, [U, U, U, 0]);
    assert_eq!(
        outcome.verdict(Position::PLAYERS),
        "white and yellow and red share first place"
    );
}

#[test]
fn no_possible_capture_ends_the_game_with_scores_by_reach_or_by_pieces() {
    // A free three-piece figure and a lone piece on its missing colour: 48 to 1.
    let mut p = Position::from_fen("8/8/8/3WR3/3WW3/8/8/8 w 0 1").unwrap();
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::NO_CAPTURES);
    assert_eq!(outcome.scores, [48 * U, 0, U, 0]);
    assert_eq!(outcome.ranking(), [vec![0], vec![2], vec![1, 3]]);
    assert_eq!(
        Position::describe_outcome(&outcome),
        "white wins (no capture possible; white 48, yellow 0, red 1, magenta 0; ranking white > red > yellow = magenta)"
    );
    p.set_rule_option("scoring", "pieces").unwrap();
    assert_eq!(p.outcome().unwrap().scores, [3 * U, 0, U, 0]);
    p.set_rule_option("scoring", "exclusive").unwrap();
    assert_eq!(p.outcome().unwrap().scores, [48 * U, 0, U, 0]);
    assert!(p.set_rule_option("scoring", "reach").is_err());
    // While reaches meet, the game goes on.
    let p = Position::from_fen("8/8/8/3W4/3WW3/8/8/7R w 0 1").unwrap();
    assert!(p.outcome().is_none());
}

#[test]
fn the_third_occurrence_of_a_position_ends_the_game() {
    let mut p = Position::from_fen("8/8/8/8/8/8/YY4RR/WW4MM w 0 1").unwrap();
    // Each player shuttles one piece out and back: every round brings the start back.
    let texts = [
        "a1c1", "a2c2", "h2f2", "h1f1", "c1a1", "c2a2", "f2h2", "f1h1",
    ];
    for round in 0..2 {
        for text in texts {
            assert!(p.outcome().is_none(), "round {round} before {text}");
            play(&mut p, text);
        }
    }
    assert_eq!(p.occurrences(), 3);
    assert_eq!(p.outcome().unwrap().reason, super::REPETITION);
}

#[test]
fn the_capture_limit_ends_the_game_and_is_an_option() {
    let mut p = Position::from_fen("8/8/8/8/8/8/YY4RR/WW4MM w 199 60").unwrap();
    assert!(p.outcome().is_none());
    play(&mut p, "a1c1");
    assert_eq!(p.outcome().unwrap().reason, super::CAPTURE_LIMIT);
    p.set_rule_option("capture-limit", "off").unwrap();
    assert!(p.outcome().is_none());
    p.set_rule_option("Capture-Limit", "150").unwrap();
    assert_eq!(p.outcome().unwrap().reason, super::CAPTURE_LIMIT);
    assert!(p.set_rule_option("capture-limit", "0").is_err());
    assert!(p.set_rule_option("scoring", "squares").is_err());
    assert!(p.set_rule_option("torus", "on").is_err());
}

// ---- positions ----

#[test]
fn both_position_forms_round_trip_and_agree() {
    let start = Position::start();
    assert_eq!(start.fen(), fen::START);
    let list = "White (to play): a1, a2, b1, b2, Yellow: a7, a8, b7, b8, Red: g7, g8, h7, h8, Magenta: g1, g2, h1, h2.";
    assert_eq!(fen::format_list(&start), list);
    assert_eq!(Position::from_fen(list).unwrap().fen(), fen::START);
    let other = "Red (to play): d4, d5, Yellow: c5, c6, Magenta: , White: e4, f4, e5.";
    let p = Position::from_fen(other).unwrap();
    assert_eq!(p.to_move(), 2);
    assert_eq!(p.men(3), 0);
    assert_eq!(
        fen::format_list(&p),
        "White: e4, e5, f4, Yellow: c5, c6, Red (to play): d4, d5."
    );
    for text in [
        "8/8/8/3WR3/3WW3/8/8/8 w 0 1",
        "YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM r 17 9",
    ] {
        assert_eq!(Position::from_fen(text).unwrap().fen(), text);
    }
}

#[test]
fn bad_positions_are_refused_with_the_reason() {
    let cases = [
        ("", "empty"),
        ("8/8/8/8/8/8/WW4MM/WW4MM", "2 or 4 fields"),
        ("8/8/8/8/8/8/8/WW4MM/WW4MM w", "9 ranks"),
        ("8/8/8/8/8/8/WW5MM/WW4MM w", "rank 2 has 9 files"),
        ("8/8/8/8/8/8/WW4MM/WQ4MM w", "unknown piece letter 'Q'"),
        ("8/8/8/8/8/8/WW4MM/WW4MM x", "w, y, r or m"),
        (
            "8/8/8/8/8/8/WW4MM/WW4MM w 0 0",
            "round number must be at least 1",
        ),
        (
            "8/8/8/8/8/8/WW4MM/WW4MM w x 1",
            "moves since the last capture",
        ),
        (
            "8/8/8/8/8/8/WW4MM/W1W3MM w",
            "two pieces on one colour (a1 and c1)",
        ),
        (
            "8/8/8/8/8/8/WWW3MM/WW4MM w",
            "white has 5 pieces, at most 4",
        ),
        (
            "8/8/8/8/8/2W5/8/W5MM w",
            "two pieces on one colour (a1 and c3)",
        ),
        (
            "8/8/8/8/8/8/5YMM/W5MM w",
            "white is to move but has no move (statura)",
        ),
        (
            "White (to play): a1, a2, Green: b1.",
            "unknown player \"Green\"",
        ),
        ("White (to play): a1, White: a2.", "White is listed twice"),
        (
            "White (to play): a1, a2, Red (to play): g7, g8.",
            "both White and Red are marked",
        ),
        (
            "White: a1, a2, Red: g7, g8.",
            "no player is marked (to play)",
        ),
        ("White (to play): a1, a9.", "a9 is not a square"),
        (
            "White (to play): a1, a2, Red: a1, g8.",
            "a1 is listed for both White and Red",
        ),
        ("White (to play) a1, a2.", "unreadable list position"),
        ("White (to play): a01, a2.", "a01 is not a square"),
        ("White (to play): a1, a1.", "a1 is listed twice for White"),
    ];
    assert_refused::<Position>(&cases, &["one colour", "at most 4", "(statura)"]);
}

// ---- notation ----

#[test]
fn the_seed_record_in_full_and_short_form_gives_one_position() {
    let full = "1. a1-b2-c3 b8-b7-b6 h8-g7-f6 g1-g2-g3 2. a2-c3-e4 b7-b6-b5 g8-f6xe4 g2-g3-g4";
    let short = "1. c3 b6 f6 g3 2. e4 b5 e4 g4";
    let a = crate::record::replay(Position::start(), full).unwrap();
    let b = crate::record::replay(Position::start(), short).unwrap();
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.position.fen(), b.position.fen());
    assert_eq!(
        a.position.fen(),
        "Y7/Y5RR/1Y3R2/1Y6/4R1M1/2W3M1/1W5M/1W5M w 1 3"
    );
    let written = crate::record::write(&Position::start(), &a.moves, None, Notation::Full);
    assert_eq!(
        written.split_whitespace().collect::<Vec<_>>().join(" "),
        full
    );
}

#[test]
fn every_legal_move_round_trips_through_every_notation() {
    let mut rng = Rng(5);
    let mut p = Position::start();
    for _ in 0..300 {
        let mut list = Vec::new();
        p.legal_moves(&mut list);
        if list.is_empty() || p.outcome().is_some() {
            break;
        }
        for &mv in &list {
            for NamedNotation { notation, .. } in Position::NOTATIONS {
                let text = p.format_move(mv, *notation);
                assert_eq!(p.parse_move(&text), Ok(mv), "{text}");
            }
        }
        p.play(list[rng.below(list.len())]);
    }
}

#[test]
fn bad_moves_say_what_is_wrong() {
    let mut p = Position::start();
    for text in [
        "a1-b2-c3", "b8-b7-b6", "h8-g7-f6", "g1-g2-g3", "a2-c3-e4", "b7-b6-b5",
    ] {
        play(&mut p, text);
    }
    let cases = [
        (
            "g8-f6-e4",
            "it captures on e4 but is written with - (use x)",
        ),
        ("g7-f6xe5", "marked as a capture but e5 is empty"),
        ("g7-f6xe4", "jumping from g7 over f6 lands on e5, not e4"),
        ("a1-b2-c3", "there is no red piece on a1"),
        ("g8-a1-a1", "a1 holds no other red piece"),
        ("h8-g8-f8", "there is no red piece on h8"),
        ("g8-g7xg6", "marked as a capture but g6 is empty"),
        ("a5", "no red piece can jump to a5"),
        ("g8c4", "no red jump from g8 lands on c4"),
        ("g7", "g7 holds a red piece"),
        ("i9", "not a move"),
        ("a1-b2", "not a move"),
    ];
    for (text, needle) in cases {
        let err = p.parse_move(text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err:?} lacks {needle:?}");
    }
}

#[test]
fn records_mark_skipped_turns_with_a_dash_or_not_at_all() {
    // Yellow has no piece and Red one: both are skipped every round.
    let start = Position::from_fen("8/8/8/4R3/8/8/1W6/WW4MM w 0 1").unwrap();
    let marked = "1. a1-b2-c3 - - h1-g1-f1 2. b1-b2-b3";
    let r = crate::record::replay(start.clone(), marked).unwrap();
    assert_eq!(r.moves.len(), 3);
    let unmarked = "1. c3 f1 2. b3";
    let r2 = crate::record::replay(start.clone(), unmarked).unwrap();
    assert_eq!(r2.moves, r.moves);
    let written = crate::record::write(&start, &r.moves, None, Notation::Full);
    assert_eq!(
        written.trim(),
        format!("[Position \"{}\"]\n{marked}", start.fen())
    );
    let cases = [
        (
            "1. a1-b2-c3 - h1-g1-f1",
            "move 1… (red) h1-g1-f1",
            "red's turn is skipped here: write - for it",
        ),
        (
            "1. a1-b2-c3 - - - 2. b3",
            "move 1… (magenta) -",
            "magenta can move",
        ),
        ("1. - a1-b2-c3", "move 1 (white) -", "white can move"),
        (
            "1. c3 - - f1 3. b3",
            "move 2 (white) 3.",
            "expected move number 2",
        ),
    ];
    for (text, turn, why) in cases {
        let err = crate::record::replay(start.clone(), text)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(turn),
            "{text}: {err:?} should start with {turn:?}"
        );
        assert!(err.contains(why), "{text}: {err:?} lacks {why:?}");
    }
    // A position that starts at Red's turn is resumed with `1. …` when White could move...
    let from_red = Position::from_fen("8/8/8/8/8/8/WW4RR/WW4RR r 0 1").unwrap();
    let r = crate::record::replay(from_red.clone(), "1. … h1-g1-f1 - 2. a1-b1-c1").unwrap();
    assert_eq!(r.moves.len(), 2);
    let r = crate::record::replay(from_red.clone(), "1. … h1-g1-f1 2. a1-b1-c1").unwrap();
    assert_eq!(r.moves.len(), 2);
    let err = crate::record::replay(from_red, "1. - - h1-g1-f1 - 2. a1-b1-c1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("write 1. …"), "{err}");
    // ... and may open the round at White's seat when White and Yellow cannot move.
    let lone = Position::from_fen("8/8/8/8/8/8/W5RR/6RR r 0 1").unwrap();
    let marked = crate::record::replay(lone.clone(), "1. - - h1-g1-f1 - 2. - - f1-g1-h1").unwrap();
    let unmarked = crate::record::replay(lone.clone(), "1. h1-g1-f1 2. f1-g1-h1").unwrap();
    let resumed = crate::record::replay(lone, "1. … h1-g1-f1 2. … f1-g1-h1").unwrap();
    assert_eq!(marked.moves, unmarked.moves);
    assert_eq!(marked.moves, resumed.moves);
}

#[test]
fn dashes_in_comments_and_prose_do_not_make_a_record_mark_skips() {
    let start = Position::from_fen("6RR/6RR/8/8/7Y/8/WW4MM/WW4MM w 0 1").unwrap();
    let r = crate::record::replay(start.clone(), "1. c3 {White - Red} f6 g3 2. e4").unwrap();
    assert_eq!(r.moves.len(), 4);
    let err = crate::record::replay(start, "1. c3 f6 g3 1-0")
        .unwrap_err()
        .to_string();
    assert!(err.contains("two-player result"), "{err}");
}

#[test]
fn finished_games_may_be_set_up_with_a_player_in_statura_to_move() {
    // Over by (c): no capture possible; over by (a): one player left.
    for text in [
        "White (to play): e5, Red: d4, e4, d5.",
        "Yellow (to play):, White: a1, a2, b1, b2.",
    ] {
        let p = Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(p.outcome().is_some(), "{text}");
    }
}

/// Rules M1 and M2 (protocol-spec/rules/mentula.md): the usual start, White to play,
/// each player's corner block holding one man of each of the four square colours.
#[test]
fn the_usual_start_has_four_corner_blocks_of_four_colours_and_white_to_play() {
    let p = Position::start();
    assert_eq!(p.to_move(), 0);
    let blocks = [
        ["a1", "a2", "b1", "b2"],
        ["a7", "a8", "b7", "b8"],
        ["g7", "g8", "h7", "h8"],
        ["g1", "g2", "h1", "h2"],
    ];
    for (player, block) in blocks.iter().enumerate() {
        let mut colours = std::collections::HashSet::new();
        for name in block {
            let square = sq(name);
            assert_eq!(p.owner(square), Some(player), "{name}");
            colours.insert((square.file() % 2, square.rank() % 2));
        }
        assert_eq!(colours.len(), 4, "player {player}");
        assert_eq!(p.men(player).count_ones(), 4, "player {player}");
    }
}

// ---- leaving the game (M11) ----

#[test]
fn a_player_who_leaves_takes_its_men_off_and_the_others_play_on() {
    let mut p = Position::start();
    play(&mut p, "a1-b2-c3");
    play(&mut p, "b8-b7-b6");
    let before = (p.fen(), p.zobrist());
    // Red resigns on its turn: its men go, Magenta moves next, the game goes on.
    play(&mut p, "R");
    assert_eq!(p.men(2), 0);
    assert_eq!(p.to_move(), 3);
    assert!(p.outcome().is_none());
    assert_eq!(p.zobrist(), p.hash_from_scratch());
    assert_eq!(p.since_capture(), 0);
    // Red, without men, is in statura from now on: its turns are passed over.
    play(&mut p, "g1-g2-g3");
    play(&mut p, "a2-c3-e4");
    play(&mut p, "a8-b7-c6");
    assert_eq!(p.to_move(), 3, "red's turn is passed over");
    // Taken back, the leave gives Red its men and its turn again.
    for _ in 0..4 {
        p.undo();
    }
    assert_eq!((p.fen(), p.zobrist()), before);
}

#[test]
fn leaving_is_never_a_legal_move_and_is_written_r_or_t_in_every_notation() {
    let p = Position::start();
    let mut legal = Vec::new();
    p.legal_moves(&mut legal);
    assert!(legal.iter().all(|m| matches!(m, Move::Jump(_))));
    for NamedNotation { notation, .. } in Position::NOTATIONS {
        for (text, why) in [("R", Leaving::Resigned), ("T", Leaving::OutOfTime)] {
            let mv = p.parse_move(text).unwrap();
            assert_eq!(mv, Move::Leave(why));
            assert_eq!(p.format_move(mv, *notation), text);
        }
    }
    assert!(p.parse_move("r").is_err());
    // A finished game has nobody left to leave.
    let done = Position::from_fen("8/8/8/8/8/8/WW6/WW6 w 0 1").unwrap();
    assert!(matches!(
        Game::parse_move(&done, "R"),
        Err(crate::game::MoveError::GameOver { .. })
    ));
}

#[test]
fn players_who_leave_score_nothing_and_the_last_one_left_scores_64() {
    let mut p = Position::start();
    play(&mut p, "R");
    play(&mut p, "T");
    assert!(p.outcome().is_none());
    assert_eq!(p.to_move(), 2);
    play(&mut p, "h8-g7-f6");
    let outcome = {
        play(&mut p, "R");
        p.outcome().expect("one player left")
    };
    assert_eq!(outcome.reason, super::LAST_PLAYER);
    assert_eq!(outcome.scores, [0, 0, 64 * U, 0]);
    // Two players left when two leave: the leavers share the last places, ranked by
    // the squares the others reach as any player without men is.
    let mut q = Position::start();
    play(&mut q, "a1-b2-c3");
    play(&mut q, "R");
    play(&mut q, "h8-g7-f6");
    play(&mut q, "T");
    let scores = q.scores();
    assert_eq!((scores[1], scores[3]), (0, 0));
    assert_eq!(scores[0] + scores[2], 64 * U);
}
