//! Unit tests of the Sena-Mukha rules: each rule of protocol-spec/rules/senamukha.md on a hand-built position,
//! and the fast generator against the simple reference generator.

use super::board::{Color, Kind, SIZE, Square};
use super::notation::Notation;
use super::position::{Move, Position, Rules};
use super::reference;
use crate::game::Rng;
use crate::game::testing::assert_refused;
use crate::game::{Game, NamedNotation};

/// Builds a FEN from men like `"Ka1 kk11 Pe10 rd11"` (upper case White) and the side.
fn fen_of(men: &str, side: char) -> String {
    let mut grid = [['.'; SIZE]; SIZE];
    for man in men.split_whitespace() {
        let letter = man.chars().next().unwrap();
        let sq = sq(&man[1..]);
        grid[sq.rank()][sq.file()] = letter;
    }
    let mut ranks = Vec::new();
    for rank in (0..SIZE).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for &c in &grid[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text += &empty.to_string();
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        ranks.push(text);
    }
    format!("{} {side} - - 0 1", ranks.join("/"))
}

fn position(men: &str, side: char) -> Position {
    Position::from_fen(&fen_of(men, side)).unwrap()
}

fn sq(name: &str) -> Square {
    Square::from_coords(name.chars().next().unwrap(), name[1..].parse().unwrap()).unwrap()
}

fn moves(position: &Position) -> Vec<String> {
    let mut list = Vec::new();
    position.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| format!("{m:?}")).collect();
    out.sort();
    out
}

fn moves_from(position: &Position, from: &str) -> Vec<String> {
    moves(position)
        .into_iter()
        .filter(|m| {
            m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

fn play(position: &mut Position, text: &str) {
    let mv = position.parse_move(text).unwrap();
    position.play(mv);
}

/// Walks the tree to `depth` and checks at every node that both generators agree.
fn compare(position: &mut Position, depth: u32) {
    let mut fast = Vec::new();
    position.legal_moves(&mut fast);
    let mut fast_names: Vec<String> = fast.iter().map(|m| format!("{m:?}")).collect();
    let mut slow: Vec<String> = reference::legal_moves(position)
        .iter()
        .map(|m| format!("{m:?}"))
        .collect();
    fast_names.sort();
    slow.sort();
    assert_eq!(fast_names, slow, "at {}", position.fen());
    assert_eq!(position.count_legal(), fast.len() as u64);
    if depth == 0 {
        return;
    }
    for mv in fast {
        position.play(mv);
        compare(position, depth - 1);
        position.undo();
    }
}

/// A small deterministic random stream (xorshift), so failures are reproducible.

// ---- move generation ----

#[test]
fn perft_from_the_start_matches_the_reference_counts() {
    let mut start = Position::start();
    let expected = [1, 48, 2_304, 113_700, 5_568_223];
    for (depth, &nodes) in expected.iter().enumerate() {
        assert_eq!(
            crate::perft::perft(&mut start, depth as u32),
            nodes,
            "depth {depth}"
        );
    }
}

#[test]
fn the_reference_generator_alone_reproduces_the_counts() {
    let mut start = Position::start();
    assert_eq!(reference::perft(&mut start, 2), 2_304);
    assert_eq!(reference::perft(&mut start, 3), 113_700);
}

#[test]
fn fast_and_reference_generators_agree_to_depth_two() {
    compare(&mut Position::start(), 2);
}

#[test]
fn fast_and_reference_generators_agree_along_random_games() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..100 {
        let mut position = Position::start();
        for _ in 0..400 {
            compare(&mut position, 0);
            let mut list = Vec::new();
            position.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            position.play(list[rng.below(list.len())]);
        }
    }
}

#[test]
fn make_then_undo_restores_position_and_hash_and_the_hash_is_incremental() {
    let mut rng = Rng(42);
    for _ in 0..40 {
        let mut position = Position::start();
        let mut trail = Vec::new();
        for _ in 0..200 {
            let mut list = Vec::new();
            position.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let before = (position.fen(), position.zobrist());
            let mv = list[rng.below(list.len())];
            position.play(mv);
            assert_eq!(position.zobrist(), position.hash_from_scratch());
            position.undo();
            assert_eq!((position.fen(), position.zobrist()), before);
            position.play(mv);
            trail.push(before);
        }
        while let Some(before) = trail.pop() {
            position.undo();
            assert_eq!((position.fen(), position.zobrist()), before);
        }
        assert_eq!(position.undo(), None);
    }
}

#[test]
fn pawns_step_one_square_without_a_double_step() {
    let p = position("Ka1 kk11 Pc2", 'w');
    assert_eq!(moves_from(&p, "c2"), ["c2c3"]);
    let p = position("Ka1 kk11 pc10", 'b');
    assert_eq!(moves_from(&p, "c10"), ["c10c9"]);
}

#[test]
fn pawns_capture_diagonally_forward_only() {
    let p = position("Ka1 kk11 Pe5 nd6 rf6 nd4 nf4", 'w');
    assert_eq!(moves_from(&p, "e5"), ["e5d6", "e5e6", "e5f6"]);
    let p = position("Ka1 kk11 pe7 Pe6 Nd6 Rf6 Nd8 Nf8", 'b');
    assert_eq!(moves_from(&p, "e7"), ["e7d6", "e7f6"]);
}

#[test]
fn a_pawn_promotes_to_knight_rook_or_elephant_by_push_and_by_capture() {
    let p = position("Ka1 kb9 Pe10 rd11 rf11", 'w');
    assert_eq!(
        moves_from(&p, "e10"),
        [
            "e10d11e", "e10d11n", "e10d11r", "e10e11e", "e10e11n", "e10e11r", "e10f11e", "e10f11n",
            "e10f11r"
        ]
    );
    for (text, kind) in [
        ("e10d11n", Kind::Knight),
        ("e10d11r", Kind::Rook),
        ("e10d11e", Kind::Elephant),
        ("e10e11n", Kind::Knight),
        ("e10f11e", Kind::Elephant),
    ] {
        let mut q = p.clone();
        play(&mut q, text);
        let arrived = q.piece_at(sq(&text[3..6])).unwrap();
        assert_eq!(
            (arrived.color, arrived.kind),
            (Color::White, kind),
            "{text}"
        );
        assert_eq!(q.piece_at(sq("e10")), None);
        q.undo();
        assert_eq!(q.fen(), p.fen());
    }
    // Black promotes on rank 1, also by capture.
    let p = position("Ka11 kk11 pc2 Nb1", 'b');
    assert_eq!(
        moves_from(&p, "c2"),
        ["c2b1e", "c2b1n", "c2b1r", "c2c1e", "c2c1n", "c2c1r"]
    );
}

#[test]
fn a_pawn_cannot_stay_unpromoted_on_its_last_rank() {
    let p = position("Ka1 kk9 Pe10", 'w');
    let err = p.parse_move("e10e11").unwrap_err().to_string();
    assert!(err.contains("must promote"), "{err}");
}

#[test]
fn the_elephant_moves_or_leaps_one_or_two_squares_in_eight_directions() {
    // Surrounded by men on every adjacent square, it still leaps to the outer ring.
    let p = position("Ka1 kk11 Ef6 Pe5 Pf5 Pg5 Pe6 Pg6 Pe7 Pf7 Pg7 nd8", 'w');
    assert_eq!(
        moves_from(&p, "f6"),
        [
            "f6d4", "f6d6", "f6d8", "f6f4", "f6f8", "f6h4", "f6h6", "f6h8"
        ]
    );
}

#[test]
fn a_pinned_elephant_moves_only_along_the_pin_line() {
    let p = position("Ke1 Ee3 re9 kk11", 'w');
    assert_eq!(moves_from(&p, "e3"), ["e3e2", "e3e4", "e3e5"]);
    // Capturing the pinner is allowed when it is in reach.
    let p = position("Ke1 Ee3 re5 kk11", 'w');
    assert_eq!(moves_from(&p, "e3"), ["e3e2", "e3e4", "e3e5"]);
}

#[test]
fn a_pinned_knight_cannot_move_and_a_pinned_pawn_only_along_the_file() {
    let p = position("Ke1 Ne3 re9 kk11", 'w');
    assert!(moves_from(&p, "e3").is_empty());
    let p = position("Ke1 Pe3 re9 kk11 nd4 nf4", 'w');
    assert_eq!(moves_from(&p, "e3"), ["e3e4"]);
    let p = position("Ka4 Pc4 rk4 kk11 nd5", 'w');
    assert!(moves_from(&p, "c4").is_empty());
}

#[test]
fn a_leaping_elephant_gives_check_that_cannot_be_blocked() {
    // The elephant on e5 checks e3 over the white pawn on e4.
    let p = position("Ke3 Pe4 Pd4 Rh5 ee5 kk11", 'w');
    assert!(p.in_check());
    let all = moves(&p);
    for m in &all {
        assert!(
            m.starts_with("e3") || m.ends_with("e5"),
            "{m} neither moves the king nor captures"
        );
    }
    assert!(all.contains(&"d4e5".to_string()));
    assert!(all.contains(&"h5e5".to_string()));
    // An elephant two squares away diagonally checks over a man as well.
    let p = position("Kc3 Pd4 ee5 kk11", 'w');
    assert!(p.in_check());
}

#[test]
fn in_double_check_only_the_king_moves() {
    let p = position("Ke1 Rh3 Nb4 re9 nd3 kk11", 'w');
    assert_eq!(p.attackers(sq("e1"), Color::Black).count_ones(), 2);
    for m in moves(&p) {
        assert!(m.starts_with("e1"), "{m}");
    }
}

#[test]
fn a_king_cannot_retreat_along_the_checking_rooks_line() {
    let p = position("Ke3 re9 kk11", 'w');
    let list = moves(&p);
    assert!(!list.contains(&"e3e2".to_string()));
    assert!(list.contains(&"e3d2".to_string()));
    assert_eq!(list.len(), 6);
}

#[test]
fn the_king_steps_one_square_and_there_is_no_castling() {
    let p = position("Kf3 Re1 Rj3 kf9", 'w');
    assert_eq!(
        moves_from(&p, "f3"),
        [
            "f3e2", "f3e3", "f3e4", "f3f2", "f3f4", "f3g2", "f3g3", "f3g4"
        ]
    );
}

#[test]
fn a_king_never_moves_next_to_the_other_king() {
    let p = position("Ke5 ke7 Pa2", 'w');
    for m in moves_from(&p, "e5") {
        assert!(!m.ends_with('6'), "{m}");
    }
}

// ---- the end of the game ----

#[test]
fn checkmate_wins_for_the_side_that_gave_it() {
    let p = position("Ka1 Pa2 Pb2 rk1 kk11", 'w');
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::CHECKMATE);
    assert_eq!(outcome.winner(), Some(1));
    assert_eq!(outcome.scores, [0, 1]);
}

#[test]
fn checkmate_by_a_leaping_elephant() {
    // The elephant on a3 leaps over a2 onto a1's king: nothing can block or capture it.
    let p = position("Ka1 Pa2 Pb2 Nb1 ea3 ec3 kk11", 'w');
    assert!(p.in_check());
    assert_eq!(p.outcome().unwrap().reason, super::CHECKMATE);
}

#[test]
fn stalemate_is_a_draw() {
    let p = position("Ka1 kc2 nc1", 'w');
    assert!(!p.in_check());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::STALEMATE);
    assert_eq!(outcome.winner(), None);
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let mut p = position("Ka1 Nc3 kk11 nk9", 'w');
    for round in 0..2 {
        for text in ["c3d5", "k11j11", "d5c3", "j11k11"] {
            assert!(p.outcome().is_none(), "round {round} before {text}");
            play(&mut p, text);
        }
    }
    assert_eq!(p.occurrences(), 3);
    assert_eq!(p.outcome().unwrap().reason, super::REPETITION);
    p.undo();
    assert!(p.outcome().is_none());
}

#[test]
fn a_capture_or_pawn_move_starts_repetition_counting_afresh() {
    let mut p = position("Ka1 Nc3 Pa5 kk11 nk9", 'w');
    for text in [
        "c3d5", "k11j11", "d5c3", "j11k11", "a5a6", "k11j11", "c3d5", "j11k11",
    ] {
        play(&mut p, text);
    }
    assert_eq!(p.occurrences(), 1);
}

#[test]
fn bare_kings_draw_also_after_the_last_capture() {
    let p = position("Ka1 kk11", 'w');
    assert_eq!(p.outcome().unwrap().reason, super::BARE_KINGS);
    let mut p = position("Ka1 pb2 kk11", 'w');
    assert!(p.outcome().is_none());
    play(&mut p, "a1b2");
    assert_eq!(p.outcome().unwrap().reason, super::BARE_KINGS);
    // A king and one other man is not a draw by material.
    assert!(position("Ka1 kk11 nk9", 'w').outcome().is_none());
}

#[test]
fn the_n_move_rule_is_off_by_default_and_counts_plies_when_on() {
    let mut p = position("Ka1 Nc3 kk11 nk9", 'w');
    for text in ["c3d5", "k11j11", "d5b6", "j11k11"] {
        play(&mut p, text);
    }
    assert!(p.outcome().is_none());
    p.set_rules(Rules {
        n_move_rule: Some(2),
    });
    assert_eq!(p.outcome().unwrap().reason, super::N_MOVE_RULE);
    p.undo();
    assert!(p.outcome().is_none());
}

// ---- FEN ----

#[test]
fn fen_round_trips() {
    for fen in [
        super::fen::START,
        "11/3pp5R/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 b - - 2 89",
        "k10/11/11/11/11/11/11/11/11/11/10K w - - 0 1",
        "10k/4P6/11/11/11/11/11/11/11/11/K10 w - - 99 140",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
    }
    // The short forms read, and print in full.
    let short = "k10/11/11/11/11/11/11/11/11/11/10K w";
    assert_eq!(
        Position::from_fen(short).unwrap().fen(),
        "k10/11/11/11/11/11/11/11/11/11/10K w - - 0 1"
    );
}

#[test]
fn bad_fens_are_refused_with_the_reason() {
    let cases = [
        ("", "empty"),
        ("k10/11/11/11/11/11/11/11/11/10K w", "10 ranks"),
        ("k10/11/11/11/11/11/11/11/11/11/11/10K w", "12 ranks"),
        (
            "k10/11/11/12/11/11/11/11/11/11/10K w",
            "rank 8 has 12 files",
        ),
        (
            "k10/11/11/10/11/11/11/11/11/11/10K w",
            "rank 8 has 10 files",
        ),
        (
            "k10/11/11/5Q5/11/11/11/11/11/11/10K w",
            "unknown piece letter 'Q' on rank 8",
        ),
        ("11/11/11/11/11/11/11/11/11/11/10K w", "black has no king"),
        ("k9k/11/11/11/11/11/11/11/11/11/10K w", "black has 2 kings"),
        ("k10/11/11/11/11/11/11/11/11/11/11 w", "white has no king"),
        ("k3P6/11/11/11/11/11/11/11/11/11/10K w", "white pawn on e11"),
        ("k10/11/11/11/11/11/11/11/11/11/4p5K w", "black pawn on e1"),
        (
            "k10/11/11/11/11/11/11/11/11/11/R9K w",
            "black is in check but it is white's turn",
        ),
        (
            "k10/11/11/11/11/11/11/11/11/11/10K x",
            "the player to move must be w or b",
        ),
        ("k10/11/11/11/11/11/11/11/11/11/10K w KQ -", "castling"),
        ("k10/11/11/11/11/11/11/11/11/11/10K w - e3", "en passant"),
        (
            "k10/11/11/11/11/11/11/11/11/11/10K w - - x 1",
            "halfmove clock",
        ),
        (
            "k10/11/11/11/11/11/11/11/11/11/10K w - - 0 0",
            "fullmove number",
        ),
        (
            "k10/11/11/11/11/11/11/11/11/11/10K w - ",
            "2, 4 or 6 fields",
        ),
        (
            "k10/11/11/11/1?9/11/11/11/11/11/10K w",
            "unexpected character '?'",
        ),
        ("k10/11/11/11/0k10/11/11/11/11/11/10K w", "empty run of 0"),
    ];
    assert_refused::<Position>(&cases, &["no king", "2 kings", "pawn on", "is in check"]);
}

// ---- notation ----

#[test]
fn one_move_in_every_notation_and_spelling() {
    let start = Position::start();
    let expected = Move::new(sq("a3"), sq("b5"), None);
    for text in [
        "a3b5",
        "Na3–b5",
        "Na3-b5",
        "Nab5",
        "Na3b5",
        "Nab5!?",
        "Na3–b5+",
    ] {
        assert_eq!(start.parse_move(text), Ok(expected), "{text}");
    }
    assert_eq!(start.format_move(expected, Notation::Coordinate), "a3b5");
    assert_eq!(start.format_move(expected, Notation::Long), "Na3–b5");
    // The knight on c3 reaches b5 too, so SAN names the file.
    assert_eq!(start.format_move(expected, Notation::San), "Nab5");
    let err = start.parse_move("Nb5").unwrap_err().to_string();
    assert!(err.contains("ambiguous"), "{err}");
    let err = start.parse_move("N3b5").unwrap_err().to_string();
    assert!(err.contains("ambiguous"), "{err}");
}

#[test]
fn captures_and_pawn_captures_in_each_form() {
    // Game 1 after 8... Nk9–j7 9. Nk3–j5: knights on j7 and f7 can both take h6.
    let mut p = Position::start();
    for text in "Na3–b5 Ne9–d7 Ne3–d5 Ng9–f7 Kf3–f4 Nh11–g9 Ng3–f5 Kf9–e9 Nd1–e3 e8–e7 g4–g5 Nd7–f8 Nf5–h6 Nf8–g6 Kf4–g3 Nk9–j7 Nk3–j5".split(' ') {
        play(&mut p, text);
    }
    let mv = p.parse_move("Nj7:h6").unwrap();
    assert_eq!(p.parse_move("Njxh6"), Ok(mv));
    assert_eq!(p.parse_move("j7h6"), Ok(mv));
    assert_eq!(p.parse_move("Nj7xh6"), Ok(mv));
    assert_eq!(p.format_move(mv, Notation::San), "Njxh6");
    assert_eq!(p.format_move(mv, Notation::Long), "Nj7:h6");
    let err = p.parse_move("Nxh6").unwrap_err().to_string();
    assert!(
        err.contains("ambiguous") && err.contains("Nj7:h6") && err.contains("Nf7:h6"),
        "{err}"
    );
    play(&mut p, "Nj7:h6");
    play(&mut p, "Nj5:h6");
    play(&mut p, "Nf7:h6");
    let mv = p.parse_move("g5:h6").unwrap();
    assert_eq!(p.format_move(mv, Notation::San), "gxh6");
    assert_eq!(p.parse_move("gxh6"), Ok(mv));
    assert_eq!(p.parse_move("g5xh6"), Ok(mv));
}

#[test]
fn san_disambiguates_by_file_then_rank_then_both() {
    let p = position("Kk1 Rb5 Re1 kk11", 'w');
    let b = p.parse_move("b5b1").unwrap();
    let e = p.parse_move("e1b1").unwrap();
    assert_eq!(p.format_move(b, Notation::San), "Rbb1");
    assert_eq!(p.format_move(e, Notation::San), "Reb1");
    let p = position("Kk1 Rb5 Rb2 kk11", 'w');
    let mv = p.parse_move("b5b4").unwrap();
    assert_eq!(p.format_move(mv, Notation::San), "R5b4");
    assert_eq!(p.parse_move("R5b4"), Ok(mv));
    let p = position("Kk1 Na2 Na4 Ne2 kk11", 'w');
    let mv = p.parse_move("a2c3").unwrap();
    assert_eq!(p.format_move(mv, Notation::San), "Na2c3");
    assert_eq!(
        p.format_move(p.parse_move("a4c3").unwrap(), Notation::San),
        "N4c3"
    );
    assert_eq!(
        p.format_move(p.parse_move("e2c3").unwrap(), Notation::San),
        "Nec3"
    );
    // Two-digit ranks: b10 is a target, not the hint "b1" and a stray 0.
    let p = position("Kk1 Rb1 Rb11 ka5", 'w');
    assert_eq!(
        p.format_move(p.parse_move("b11b10").unwrap(), Notation::San),
        "R11b10"
    );
    assert_eq!(p.parse_move("R11b10"), p.parse_move("b11b10"));
    let err = p.parse_move("Rb10").unwrap_err().to_string();
    assert!(err.contains("ambiguous"), "{err}");
    let p = position("Kk1 Rb1 ka5", 'w');
    let mv = p.parse_move("Rb10").unwrap();
    assert_eq!(mv, p.parse_move("b1b10").unwrap());
    assert_eq!(p.format_move(mv, Notation::San), "Rb10");
}

#[test]
fn promotions_in_every_form() {
    let p = position("Ka1 ka9 Pe10 rd11", 'w');
    let push = Move::new(sq("e10"), sq("e11"), Some(Kind::Elephant));
    for text in ["e10e11e", "e10–e11=E", "e11=E", "e11E", "e10-e11=E"] {
        assert_eq!(p.parse_move(text), Ok(push), "{text}");
    }
    assert_eq!(p.format_move(push, Notation::Coordinate), "e10e11e");
    assert_eq!(p.format_move(push, Notation::Long), "e10–e11=E");
    assert_eq!(p.format_move(push, Notation::San), "e11=E");
    let take = Move::new(sq("e10"), sq("d11"), Some(Kind::Rook));
    for text in ["e10d11r", "e10:d11=R", "exd11=R", "e10xd11=R"] {
        assert_eq!(p.parse_move(text), Ok(take), "{text}");
    }
    assert_eq!(p.format_move(take, Notation::Long), "e10:d11=R");
    assert_eq!(p.format_move(take, Notation::San), "exd11=R");
}

#[test]
fn printing_marks_mate_and_draw_as_the_seed_and_san_do() {
    let p = position("Ka1 Pa2 Pb2 rk2 kk11", 'b');
    let mate = p.parse_move("k2k1").unwrap();
    assert_eq!(p.format_move(mate, Notation::Long), "Rk2–k1×");
    assert_eq!(p.format_move(mate, Notation::San), "Rk1#");
    // Capturing the last man leaves bare kings: a draw, marked `=` in the seed's form.
    let p = position("Ka1 pb2 kk11", 'w');
    let mv = p.parse_move("Kxb2").unwrap();
    assert_eq!(p.format_move(mv, Notation::Long), "Ka1:b2=");
}

#[test]
fn every_legal_move_round_trips_through_every_notation() {
    let mut rng = Rng(7);
    let mut p = Position::start();
    for _ in 0..120 {
        let mut list = Vec::new();
        p.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        for &mv in &list {
            for NamedNotation { notation, .. } in Position::NOTATIONS {
                let text = p.format_move(mv, *notation);
                let back = p
                    .parse_move(&text)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back, mv, "{text}");
                assert_eq!(p.format_move(back, *notation), text);
            }
        }
        p.play(list[rng.below(list.len())]);
    }
}

#[test]
fn unreadable_and_illegal_moves_say_what_is_wrong() {
    let p = Position::start();
    let cases = [
        ("e12e13", "unreadable move"),
        ("hello", "unreadable move"),
        ("z1z2", "unreadable move"),
        ("a5a6", "there is no man on a5"),
        ("e9e7", "e9 holds a black knight, and it is white's turn"),
        ("Ea3–b5", "a3 holds a knight, not an elephant"),
        ("Na3–c4", "c4 holds a white man"),
        ("Na3–a5", "a knight on a3 cannot reach a5"),
        ("Nc6", "no white knight can move to c6"),
        ("Na3:b5", "marked as a capture but b5 is empty"),
        ("a3b5n", "only a pawn reaching the last rank promotes"),
    ];
    for (text, needle) in cases {
        let err = p.parse_move(text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err:?} lacks {needle:?}");
    }
    // A move that exposes the king.
    let p = position("Ke1 Ne3 re9 kk11", 'w');
    let err = p.parse_move("e3c4").unwrap_err().to_string();
    assert!(err.contains("would leave the white king in check"), "{err}");
}

#[test]
fn moves_are_refused_once_the_game_is_over() {
    let p = position("Ka1 Pa2 Pb2 rk1 kk11", 'w');
    let err = Game::parse_move(&p, "a2a3").unwrap_err().to_string();
    assert!(err.contains("the game is over"), "{err}");
}

#[test]
fn absurd_empty_runs_are_refused_not_wrapped() {
    for fen in [
        "18446744073709551615K11/11/11/11/11/11/11/11/11/11/k10 w",
        "k18446744073709551615R10/11/11/11/11/11/11/11/11/11/K10 w",
        "1K18446744073709551615/11/11/11/11/11/11/11/11/11/k10 w",
        "99999999999999999999999K/11/11/11/11/11/11/11/11/11/k10 w",
    ] {
        let err = Position::from_fen(fen).unwrap_err().to_string();
        assert!(err.contains("rank 11"), "{fen}: {err}");
    }
}

#[test]
fn san_pawn_captures_must_name_the_file() {
    let p = position("Ka1 kk11 Pd4 ne5", 'w');
    let err = p.parse_move("e5").unwrap_err().to_string();
    assert!(
        err.contains("a pawn capture names the pawn's file"),
        "{err}"
    );
    assert_eq!(p.parse_move("dxe5"), p.parse_move("d4e5"));
    assert_eq!(p.parse_move("de5"), p.parse_move("d4e5"));
}
