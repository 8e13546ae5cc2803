//! Unit tests of the Mangala II rules on hand-checked positions, and the fast
//! implementation against the simple one.

use super::position::{Move, PITS, Position, sow};
use super::reference::{self, Board};
use super::text::{self, Notation};
use crate::game::Rng;
use crate::game::testing::assert_refused;
use crate::game::{Game, NamedNotation};

fn position(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn board_of(p: &Position) -> Board {
    Board {
        pits: p.pits().iter().map(|&c| c as u32).collect(),
        captured: [p.captured(0), p.captured(1)],
        to_move: p.to_move(),
    }
}

fn play(p: &mut Position, text: &str) {
    let mv = Game::parse_move(p, text).unwrap_or_else(|e| panic!("{e}"));
    p.play(mv);
}

/// Sows `origin` on `pits` (A..F, a..f) and returns the pits and the counters taken.
fn sown(pits: [u8; PITS], origin: char, skip_origin: bool) -> ([u8; PITS], u8) {
    let mut pits = pits;
    let origin = text::pit_letter_index(origin).unwrap();
    let taken = sow(&mut pits, origin, skip_origin);
    (pits, taken)
}

#[test]
fn a_capture_chain_runs_back_across_both_rows() {
    // E (3) sows F a b, making 2, 4, 6: all three are taken, then E is the origin.
    let (pits, taken) = sown([10, 10, 10, 10, 3, 1, 3, 5, 5, 5, 5, 5], 'E', false);
    assert_eq!(pits, [10, 10, 10, 10, 0, 0, 0, 0, 5, 5, 5, 5]);
    assert_eq!(taken, 12);
    // A pit of 3 breaks the run: b (6) and a (4) are taken, F (3) and what lies behind stay.
    let (pits, taken) = sown([10, 10, 10, 1, 3, 2, 3, 5, 5, 5, 5, 5], 'E', false);
    assert_eq!(pits, [10, 10, 10, 1, 0, 3, 0, 0, 5, 5, 5, 5]);
    assert_eq!(taken, 10);
    // The last counter must make 2, 4 or 6: 3 there means no capture at all.
    let (pits, taken) = sown([10, 10, 10, 10, 3, 1, 3, 2, 5, 5, 5, 5], 'E', false);
    assert_eq!(pits, [10, 10, 10, 10, 0, 2, 4, 3, 5, 5, 5, 5]);
    assert_eq!(taken, 0);
}

#[test]
fn the_capture_run_stops_before_the_origin() {
    // 25 from A: two laps (every pit +2, A included) and one more into B. B makes 4 and
    // is taken; A holds 2 but is the origin, so the run stops there.
    let (pits, taken) = sown([25, 1, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4], 'A', false);
    assert_eq!(pits, [2, 0, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6]);
    assert_eq!(taken, 4);
}

#[test]
fn laps_of_12_24_and_35_counters_with_and_without_skipping_the_origin() {
    let base = [0, 3, 3, 3, 3, 3, 5, 5, 5, 5, 5, 5];
    // 12: one counter into every pit, the last into the origin itself (1: no capture).
    let mut pits = base;
    pits[0] = 12;
    assert_eq!(
        sown(pits, 'A', false),
        ([1, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 6], 0)
    );
    // Skipping the origin, the 12th counter goes on into B, which makes 5.
    assert_eq!(
        sown(pits, 'A', true),
        ([0, 5, 4, 4, 4, 4, 6, 6, 6, 6, 6, 6], 0)
    );
    // 24: two laps, the last counter again in the origin, which now holds 2 and is taken;
    // f behind it holds 7, so the run ends there.
    pits[0] = 24;
    assert_eq!(
        sown(pits, 'A', false),
        ([0, 5, 5, 5, 5, 5, 7, 7, 7, 7, 7, 7], 2)
    );
    // Skipping: 11 pits a lap, 2 laps and 2 more (B, C); C makes 6 and B 6: taken; then
    // the origin stops the run.
    assert_eq!(
        sown(pits, 'A', true),
        ([0, 0, 0, 5, 5, 5, 7, 7, 7, 7, 7, 7], 12)
    );
    // 35: two laps and 11 more, ending in f (5 + 3 = 8: no capture).
    pits[0] = 35;
    assert_eq!(
        sown(pits, 'A', false),
        ([2, 6, 6, 6, 6, 6, 8, 8, 8, 8, 8, 8], 0)
    );
    // Skipping: three laps of 11 and 2 more (B, C): B and C make 7.
    assert_eq!(
        sown(pits, 'A', true),
        ([0, 7, 7, 6, 6, 6, 8, 8, 8, 8, 8, 8], 0)
    );
}

#[test]
fn the_last_counter_in_the_origin_is_captured_and_the_run_goes_on_behind_it() {
    // 24 from C: C gets 2 (taken), then B (2+2 = 4) and A (0+2 = 2) behind it are taken,
    // then f (5+2 = 7) stops the run.
    let (pits, taken) = sown([0, 2, 24, 1, 1, 1, 1, 1, 1, 1, 1, 5], 'C', false);
    assert_eq!(pits, [0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 7]);
    assert_eq!(taken, 2 + 4 + 2);
}

#[test]
fn a_player_with_an_empty_row_passes_on_either_side() {
    // North's row stays empty after South's move: North passes, South moves again.
    let mut p = position("1,0,0,0,0,0/0,0,0,0,0,0 S 40 31");
    play(&mut p, "A");
    assert_eq!((p.to_move(), p.round()), (0, 2));
    let mut p = position("0,0,0,0,0,0/1,0,0,0,0,0 N 31 40");
    play(&mut p, "a");
    assert_eq!((p.to_move(), p.round()), (1, 2));
    // Counters back in North's row: North moves again.
    let mut p = position("0,0,0,0,0,1/0,0,0,0,0,0 S 40 31");
    play(&mut p, "F");
    assert_eq!(p.to_move(), 1);
    // Records write the pass as -.
    let start = position("1,0,0,0,0,0/0,0,0,0,0,0 S 40 31");
    let r = crate::record::replay(start.clone(), "1. A - 2. B -").unwrap();
    assert_eq!(r.moves.len(), 2);
    let err = crate::record::replay(start.clone(), "1. A - 2. - ")
        .unwrap_err()
        .to_string();
    assert!(err.contains("south can move"), "{err}");
    let written = crate::record::write(&start, &r.moves, None, Notation::Letter);
    // Written after the position tag that names the start.
    assert_eq!(
        written.trim(),
        format!("[Position \"{}\"]\n1. A - 2. B", start.fen())
    );
}

#[test]
fn the_board_emptied_ends_the_game_with_37_to_win_and_36_all_a_draw() {
    let mut p = position("0,0,0,0,0,1/1,0,0,0,0,0 S 35 35");
    play(&mut p, "F");
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::BOARD_EMPTY);
    assert_eq!(outcome.scores, [37, 35]);
    assert_eq!(
        Position::describe_outcome(&outcome),
        "south wins (all pits empty; south 37, north 35)"
    );
    let mut p = position("0,0,0,0,0,1/1,0,0,0,0,0 S 34 36");
    play(&mut p, "F");
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.scores, [36, 36]);
    assert_eq!(outcome.verdict(Position::PLAYERS), "draw");
}

#[test]
fn the_ply_limit_ends_the_game_and_the_rows_go_to_their_owners() {
    let mut p = Position::start();
    p.set_rule_option("ply-limit", "3").unwrap();
    for text in ["C", "d", "F"] {
        assert!(p.outcome().is_none());
        play(&mut p, text);
    }
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.reason, super::PLY_LIMIT);
    let s = p.state();
    let south: i32 = s.pits[0..6].iter().map(|&c| c as i32).sum::<i32>() + s.captured[0] as i32;
    let north: i32 = s.pits[6..12].iter().map(|&c| c as i32).sum::<i32>() + s.captured[1] as i32;
    assert_eq!(outcome.scores, [south, north]);
    assert_eq!(south + north, 72);
    p.set_rule_option("ply-limit", "off").unwrap();
    assert!(p.outcome().is_none());
}

#[test]
fn the_third_occurrence_ends_the_game_scored_like_the_ply_limit() {
    // Random games repeat often; take the first that does and check it by brute force.
    let mut rng = Rng(11);
    let mut found = 0;
    for _ in 0..200 {
        let mut p = Position::start();
        p.set_rule_option("ply-limit", "off").unwrap();
        let mut seen = vec![(p.pits().to_vec(), p.to_move())];
        while p.outcome().is_none() {
            let mut list = Vec::new();
            p.legal_moves(&mut list);
            p.play(list[rng.below(list.len())]);
            seen.push((p.pits().to_vec(), p.to_move()));
        }
        let outcome = p.outcome().unwrap();
        let now = seen.last().unwrap();
        let count = seen.iter().filter(|s| *s == now).count();
        if outcome.reason == super::REPETITION {
            assert_eq!(count, 3);
            let s = p.state();
            let south = s.pits[0..6].iter().map(|&c| c as i32).sum::<i32>() + s.captured[0] as i32;
            assert_eq!(outcome.scores[0], south);
            assert_eq!(outcome.scores[0] + outcome.scores[1], 72);
            found += 1;
        } else {
            assert!(count < 3);
        }
    }
    assert!(found > 20, "only {found} repetitions in 200 random games");
}

#[test]
fn perft_agrees_with_the_simple_implementation() {
    for skip in [false, true] {
        let mut start = Position::start();
        start
            .set_rule_option("skip-origin", if skip { "on" } else { "off" })
            .unwrap();
        let board = board_of(&start);
        for depth in 0..=6 {
            assert_eq!(
                crate::perft::perft(&mut start, depth),
                reference::perft(&board, depth, skip),
                "depth {depth}, skip {skip}"
            );
        }
    }
    assert_eq!(crate::perft::perft(&mut Position::start(), 1), 6);
    // The copying walk and the generic play-and-undo walk agree.
    let mut p = Position::start();
    assert_eq!(crate::game::walk_tree(&mut p, 7), Position::perft(&p, 7));
    assert_eq!(crate::perft::perft(&mut p, 8), 1_106_575);
}

#[test]
fn fast_and_simple_implementations_agree_on_random_games() {
    let mut rng = Rng(0xABCD);
    for game in 0..400 {
        let skip = game % 2 == 1;
        let mut p = Position::start();
        p.set_rule_option("skip-origin", if skip { "on" } else { "off" })
            .unwrap();
        let mut board = board_of(&p);
        for _ in 0..300 {
            let mut list = Vec::new();
            p.legal_moves(&mut list);
            let simple: Vec<Move> = board.moves().into_iter().map(|m| Move(m as u8)).collect();
            assert_eq!(list, simple, "game {game}");
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            let before = p.fen();
            p.play(mv);
            board.play(mv.0 as usize, skip);
            assert_eq!(
                board_of(&p),
                board,
                "game {game} after {mv:?} from {before}"
            );
            p.undo();
            assert_eq!(p.fen(), before);
            p.play(mv);
        }
    }
}

#[test]
fn positions_round_trip_and_bad_ones_are_refused() {
    for text in [
        text::START,
        "0,0,0,0,0,1/1,0,0,0,0,0 S 35 35",
        "12,0,3,0,0,1/7,0,0,2,0,11 N 20 16",
    ] {
        assert_eq!(position(text).fen(), text);
    }
    let cases = [
        ("6,6,6,6,6,6/6,6,6,6,6,6 S 0", "4 fields"),
        ("6,6,6,6,6/6,6,6,6,6,6 S 0 6", "south's row has 5 pits"),
        ("6,6,6,6,6,6/6,6,6,6,6,6,0 S 0 0", "north's row has 7 pits"),
        ("6,6,6,6,6,6-6,6,6,6,6,6 S 0 0", "A,B,C,D,E,F/a,b,c,d,e,f"),
        ("6,6,x,6,6,6/6,6,6,6,6,6 S 0 0", "pit C must be a number"),
        ("6,6,6,6,6,6/6,6,6,-6,6,6 S 0 0", "pit d must be a number"),
        ("6,6,6,6,6,6/6,6,6,6,6,6 S 0 1", "73 counters, expected 72"),
        ("6,6,6,6,6,6/6,6,6,6,6,6 W 0 0", "S or N"),
        (
            "6,6,6,6,6,6/6,6,6,6,6,6 S x 0",
            "South's capture count must be a number",
        ),
        (
            "6,6,6,6,6,6/6,6,6,6,6,999 S 0 0",
            "more than the 72 counters",
        ),
        (
            "0,0,0,0,0,0/6,6,6,6,6,6 S 20 16",
            "south is to move but its row is empty",
        ),
    ];
    assert_refused::<Position>(&cases, &["expected 72", "more than the 72", "row is empty"]);
    // The board emptied is a finished game, not an error.
    assert!(
        position("0,0,0,0,0,0/0,0,0,0,0,0 S 36 36")
            .outcome()
            .is_some()
    );
}

#[test]
fn moves_by_letter_or_number_and_their_errors() {
    let mut p = Position::start();
    assert_eq!(Game::parse_move(&p, "C"), Ok(Move(2)));
    assert_eq!(Game::parse_move(&p, "3"), Ok(Move(2)));
    play(&mut p, "C");
    assert_eq!(Game::parse_move(&p, "d"), Ok(Move(9)));
    assert_eq!(Game::parse_move(&p, "4"), Ok(Move(9)));
    assert_eq!(p.format_move(Move(9), Notation::Letter), "d");
    assert_eq!(p.format_move(Move(9), Notation::Number), "4");
    for (text, needle) in [
        ("C", "pit C is south's; north sows a to f"),
        ("7", "unreadable move"),
        ("Cd", "unreadable move"),
        ("", "unreadable move"),
    ] {
        let err = Game::parse_move(&p, text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err:?} lacks {needle:?}");
    }
    let p = position("0,0,0,0,0,1/1,0,0,0,0,0 S 35 35");
    let err = Game::parse_move(&p, "A").unwrap_err().to_string();
    assert!(err.contains("pit A is empty"), "{err}");
}

#[test]
fn a_record_replays_with_two_plies_a_move() {
    let r = crate::record::replay(Position::start(), "1. C d 2. F a").unwrap();
    assert_eq!(r.moves.len(), 4);
    let again = crate::record::replay(Position::start(), "1. 3 4 2. 6 1").unwrap();
    assert_eq!(again.moves, r.moves);
}

#[test]
fn written_records_of_whole_games_replay_with_their_passes() {
    let mut rng = Rng(77);
    let mut passes = 0;
    for _ in 0..100 {
        let start = Position::start();
        let mut p = start.clone();
        let mut moves = Vec::new();
        while p.outcome().is_none() {
            let mut list = Vec::new();
            p.legal_moves(&mut list);
            let mv = list[rng.below(list.len())];
            let mover = p.to_move();
            p.play(mv);
            moves.push(mv);
            if p.to_move() == mover && p.outcome().is_none() {
                passes += 1;
            }
        }
        for NamedNotation { notation, .. } in Position::NOTATIONS {
            let text = crate::record::write(&start, &moves, None, *notation);
            let r = crate::record::replay(start.clone(), &text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(r.moves, moves);
            assert_eq!(r.outcome(), p.outcome());
        }
    }
    assert!(passes > 0, "no game had a pass");
}

#[test]
fn record_edge_cases_numbers_prose_and_dashes() {
    // A number move closing a sentence is a move, not a move number.
    let r = crate::record::replay(Position::start(), "1. 3 4 2. 6 1.").unwrap();
    assert_eq!(r.moves.len(), 4);
    // Prose after the end may begin with a word that is also a pit letter.
    let start = position("0,0,0,1,0,1/0,0,0,0,0,0 S 70 0");
    let r = crate::record::replay(start.clone(), "1. D - 2. E 1-0 A quick finish.").unwrap();
    assert_eq!(r.comments, ["A quick finish."]);
    let r =
        crate::record::replay(start.clone(), "1. D 2. E 1-0 South wins - a quick end.").unwrap();
    assert_eq!(r.moves.len(), 2);
    // Play after the end is still refused.
    let err = crate::record::replay(start, "1. D - 2. E - 3. F")
        .unwrap_err()
        .to_string();
    assert!(err.contains("already over"), "{err}");
    // A dash stands only for a pass the rules force.
    let north = position("6,6,6,6,6,6/6,6,6,6,6,6 N 0 0");
    let err = crate::record::replay(north.clone(), "1. - d 2. A")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("write 1. …") || err.contains("south can move"),
        "{err}"
    );
    assert_eq!(
        crate::record::replay(north, "1. … d 2. A")
            .unwrap()
            .moves
            .len(),
        2
    );
    // Skipped first seat in an unmarked record: `N. …` resumes at the player to move.
    let r = crate::record::replay(position("0,0,0,0,0,0/0,0,1,0,0,1 N 70 0"), "1. … c 2. … d");
    assert_eq!(r.unwrap().moves.len(), 2);
}

/// Rules G1 and G2 (protocol-spec/rules/mangala.md): six counters in every pit, 72 in
/// all, none captured, South to move first.
#[test]
fn the_start_has_six_counters_in_every_pit_and_south_moves_first() {
    let p = Position::start();
    assert_eq!(p.pits(), &[6; PITS]);
    assert_eq!(p.pits().iter().map(|&c| u32::from(c)).sum::<u32>(), 72);
    assert_eq!((p.captured(0), p.captured(1)), (0, 0));
    assert_eq!(p.to_move(), 0);
    assert_eq!(p.fen(), "6,6,6,6,6,6/6,6,6,6,6,6 S 0 0");
}
