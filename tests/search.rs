//! The searches on positions with a known answer: mates from the seed's games, a
//! Mangala capture chain, a Mentula capture and escape; and the limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ludus::game::Game;
use ludus::games::{mangala, mentula, senamukha};
use ludus::search::{Limits, OptionValue, Score, Searchable};

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn best<G: Searchable>(fen: &str, limits: &Limits) -> (G, G::Move, Vec<Score>) {
    let mut position = G::from_fen(fen).unwrap();
    let mut engine = G::new_search(16);
    let result = G::think(&mut engine, &mut position, limits, &mut |_| {});
    (
        position,
        result.best_move.expect("a move"),
        result.info.scores,
    )
}

/// Whether the side to move can force checkmate within `moves` of its own moves:
/// plain minimax over the legal moves, sharing nothing with the search.
fn forces_mate(position: &mut senamukha::Position, moves: u32) -> bool {
    let mut list = Vec::new();
    position.legal_moves(&mut list);
    list.into_iter().any(|mv| {
        position.play(mv);
        let mates = match position.outcome() {
            Some(o) => o.reason == senamukha::CHECKMATE,
            None if moves > 1 => {
                let mut replies = Vec::new();
                position.legal_moves(&mut replies);
                replies.into_iter().all(|reply| {
                    position.play(reply);
                    let forced = forces_mate(position, moves - 1);
                    position.undo();
                    forced
                })
            }
            None => false,
        };
        position.undo();
        mates
    })
}

#[test]
fn the_seeds_mating_moves_are_found() {
    for (fen, seed_move) in [
        // 73... Ef6–g6× of game 1, 89. Ri10–k10× of game 2, 33. Ng4–f6× of the side line.
        (
            "11/3ppp1p3/8r2/3pkp1p2p/p3n6/2e1Pe5/7K1P1/P2P3P2P/4P6/4PP1P3/6r4 b - - 0 73",
            "f6g6",
        ),
        (
            "11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
            "i10k10",
        ),
        (
            "2e3r4/3ppppp3/nrn1n1n1nr1/ppp3ppppp/3p1n1k3/3Np6/7PE2/PPPPP1N1PPP/1RN1NKN2R1/3PPPPP3/4R6 w - - 1 33",
            "g4f6",
        ),
    ] {
        let (mut position, mv, scores) = best::<senamukha::Position>(fen, &depth(4));
        assert_eq!(scores, [Score::Mate(1)], "{fen}");
        assert_eq!(
            position.format_move(mv, senamukha::Notation::Coordinate),
            seed_move
        );
        position.play(mv);
        assert_eq!(position.outcome().unwrap().reason, senamukha::CHECKMATE);
    }
}

#[test]
fn mates_in_two_and_three_are_found_and_forced() {
    for (fen, mate_in) in [
        (
            "11/3pp3R2/3e5k1/1p1p2E1p2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 8 88",
            2,
        ),
        (
            "11/3ppp1p3/6r1r2/3pkp1p2p/p3n6/2e1Pe5/7K1P1/P2P6P/4P2P3/4PP1P3/6R4 b - - 1 72",
            2,
        ),
        (
            "2e3r4/3ppppp3/nrn1n1n1nr1/ppp3ppppp/3p1n5/3Np1k4/8E2/PPPPP1NPPPP/1RN1NKN2R1/3PPPPP3/4R6 w - - 0 32",
            2,
        ),
        (
            "11/3ppR5/3e4k2/1p1p2E1p2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 6 87",
            3,
        ),
    ] {
        let (mut position, mv, scores) = best::<senamukha::Position>(fen, &depth(2 * mate_in));
        assert_eq!(scores, [Score::Mate(2 * mate_in as i32 - 1)], "{fen}");
        position.play(mv);
        // After the engine's move, every reply still loses within the remaining moves.
        let mut replies = Vec::new();
        position.legal_moves(&mut replies);
        for reply in replies {
            position.play(reply);
            assert!(forces_mate(&mut position, mate_in - 1), "{fen}");
            position.undo();
        }
    }
}

#[test]
fn two_threads_find_the_mates_and_play_them() {
    for (fen, mate_in) in [
        (
            "11/3pp3R2/3e5k1/1p1p2E1p2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 8 88",
            2,
        ),
        (
            "11/3ppR5/3e4k2/1p1p2E1p2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 6 87",
            3,
        ),
    ] {
        let mut position = senamukha::Position::from_fen(fen).unwrap();
        let mut two = senamukha::Position::new_search(16);
        senamukha::Position::set_threads(&mut two, 2);
        let mut reports = 0;
        let result =
            senamukha::Position::think(&mut two, &mut position, &depth(8), &mut |_| reports += 1);
        assert_eq!(result.info.scores, [Score::Mate(2 * mate_in - 1)], "{fen}");
        assert_eq!(result.info.depth, 8);
        assert_eq!(
            reports, 8,
            "only the main thread reports, once an iteration"
        );
        position.play(result.best_move.unwrap());
        let mut replies = Vec::new();
        position.legal_moves(&mut replies);
        for reply in replies {
            position.play(reply);
            assert!(forces_mate(&mut position, mate_in as u32 - 1), "{fen}");
            position.undo();
        }
    }
}

#[test]
fn mangala_takes_the_longest_capture_chain() {
    // A (10 counters) ends in e and takes e d c b a F E: 6+6+6+6+4+2+4 = 34; E takes 12;
    // B ends in f and takes f e d c b a F E: 6+6+6+6+6+4+2+4 = 40, which empties North's
    // row: North passes and South moves again, with the game already won (40 of 72).
    let fen = "10,10,10,10,3,1/3,5,5,5,5,5 S 0 0";
    let (mut position, mv, scores) = best::<mangala::Position>(fen, &depth(6));
    assert_eq!(position.format_move(mv, mangala::Notation::Letter), "B");
    assert!(matches!(scores[0], Score::Centi(v) if v > ludus::search::PROVEN_WIN));
    position.play(mv);
    assert_eq!(position.captured(0), 40);
    assert_eq!(position.to_move(), 0, "North passes");
}

#[test]
fn mangala_endgames_are_searched_to_the_end() {
    // Without the tables (7 counters: an odd count, which they never cover anyway).
    // E captures and leads to a proven win (Mangala II scores are final margins).
    let mut position = mangala::Position::from_fen("0,0,0,0,2,1/1,3,0,0,0,0 S 33 32").unwrap();
    let mut engine = mangala::Position::new_search(16);
    mangala::Position::set_engine_option(&mut engine, "Endgame Counters", &OptionValue::Number(0))
        .unwrap();
    let result = mangala::Position::think(&mut engine, &mut position, &depth(30), &mut |_| {});
    let scores = result.info.scores;
    assert!(
        matches!(scores[0], Score::Centi(v) if v > ludus::search::PROVEN_WIN),
        "{scores:?}"
    );
    assert_eq!(result.best_move, Some(mangala::Move(4)));
}

/// The mover's final margin (totals, mover's view) that the table proves for `position`.
fn proven_margin(table: &mangala::endgame::Table, position: &mangala::Position) -> i32 {
    let us = position.to_move();
    let bounds = table.probe(position.pits(), us).expect("covered");
    let value = bounds.exact().expect("exact");
    position.captured(us) as i32 - position.captured(1 - us) as i32 + value
}

#[test]
fn mangala_endgames_are_played_from_the_table_keeping_their_value() {
    let table = mangala::endgame::Table::build(10, false, 2).unwrap();
    let mut engine = mangala::Position::new_search(16);
    mangala::Position::set_engine_option(&mut engine, "Endgame Counters", &OptionValue::Number(10))
        .unwrap();
    let mut seed = 99u64;
    let mut played = 0;
    while played < 40 {
        // Ten counters spread at random, the captures split at random.
        let mut pits = [0u8; 12];
        for _ in 0..10 {
            let (s, draw) = ludus::game::splitmix64(seed);
            seed = s;
            pits[(draw % 12) as usize] += 1;
        }
        let (s, draw) = ludus::game::splitmix64(seed);
        seed = s;
        let south = (draw % 63) as u8;
        let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let side = if draw % 2 == 0 { "S" } else { "N" };
        let fen = format!(
            "{}/{} {side} {south} {}",
            row(&pits[..6]),
            row(&pits[6..]),
            62 - south
        );
        let Ok(mut position) = mangala::Position::from_fen(&fen) else {
            continue; // the mover's row is empty
        };
        if !position.can_move(position.to_move()) {
            continue;
        }
        mangala::Position::wait_until_ready(&mut engine, &position);
        let margin = proven_margin(&table, &position);
        // Reported as a proven result, above every evaluation, at any depth.
        let expected = match margin.signum() {
            1 => Score::Centi(ludus::search::PROVEN_WIN + margin),
            -1 => Score::Centi(-ludus::search::PROVEN_WIN + margin),
            _ => Score::Centi(0),
        };
        let mut result = None;
        for d in [1, 4, 9] {
            let found =
                mangala::Position::think(&mut engine, &mut position, &depth(d), &mut |_| {});
            assert_eq!(found.info.scores, vec![expected], "{fen} at depth {d}");
            result = Some(found);
        }
        let result = result.unwrap();
        let mover = position.to_move();
        position.play(result.best_move.unwrap());
        let after = match position.outcome() {
            Some(o) => o.scores[mover] - o.scores[1 - mover],
            None if position.to_move() == mover => proven_margin(&table, &position),
            None => -proven_margin(&table, &position),
        };
        assert_eq!(after, margin, "{fen}: the move gives the value away");
        played += 1;
    }
}

#[test]
fn mentula_captures_and_escapes() {
    let (position, mv, scores) =
        best::<mentula::Position>("8/8/8/8/8/4R3/2W5/W6R w 0 1", &depth(3));
    assert_eq!(
        position.format_move(mv, mentula::Notation::Full),
        "a1-c2xe3"
    );
    assert_eq!(scores.len(), 4);
    // Red threatens c3 (e3 over d3); c3 escapes to a1, where nothing can reach it.
    let (position, mv, _) = best::<mentula::Position>("8/8/8/8/8/2WRR3/1W6/8 w 0 1", &depth(4));
    assert_eq!(
        position.format_move(mv, mentula::Notation::Full),
        "c3-b2-a1"
    );
}

#[test]
fn every_mentula_search_takes_the_capture() {
    use ludus::search::multi_player::{Algorithm, Searcher};
    for algorithm in Algorithm::ALL {
        let mut searcher = Searcher::new(algorithm);
        let mut position = mentula::Position::from_fen("8/8/8/8/8/4R3/2W5/W6R w 0 1").unwrap();
        // Monte Carlo: depth 3 stands for 3,000 iterations.
        let result = searcher.search(&mut position, &depth(3), |_| {});
        let mv = result.best_move.unwrap();
        assert_eq!(
            position.format_move(mv, mentula::Notation::Full),
            "a1-c2xe3",
            "{algorithm:?}"
        );
    }
}

#[test]
fn monte_carlo_escapes_the_threat() {
    use ludus::search::multi_player::{Algorithm, Searcher};
    // Red threatens c3 (e3 over d3); c3 escapes to a1.
    let mut searcher = Searcher::new(Algorithm::MonteCarlo);
    let mut position = mentula::Position::from_fen("8/8/8/8/8/2WRR3/1W6/8 w 0 1").unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let result = searcher.search(&mut position, &limits, |_| {});
    let mv = result.best_move.unwrap();
    assert_eq!(
        position.format_move(mv, mentula::Notation::Full),
        "c3-b2-a1"
    );
    assert_eq!(result.info.nodes, 20_000);
}

#[test]
fn monte_carlo_keeps_its_tree_within_hash() {
    use ludus::search::multi_player::{Algorithm, Searcher};
    // 1 MiB holds some ten thousand nodes: 60,000 simulations fill it, and the search
    // goes on in the full tree, still playing a move.
    let mut searcher = Searcher::with_memory(Algorithm::MonteCarlo, 1);
    let mut position = mentula::Position::start();
    let limits = Limits {
        nodes: Some(60_000),
        ..Limits::default()
    };
    let mut fill = Vec::new();
    let result = searcher.search(&mut position, &limits, |info| fill.push(info.hashfull));
    assert!(result.best_move.is_some());
    assert_eq!(result.info.nodes, 60_000);
    let last = fill.last().copied().flatten().unwrap();
    assert!((990..=1000).contains(&last), "hashfull {last}");
    // With the default 64 MiB, the same search fills a small part.
    let mut roomy = Searcher::with_memory(Algorithm::MonteCarlo, 64);
    let mut fill = Vec::new();
    roomy.search(&mut position, &limits, |info| fill.push(info.hashfull));
    assert!(fill.last().copied().flatten().unwrap() < 100);
}

#[test]
fn node_limits_and_the_stop_flag_end_a_search_with_a_move() {
    let mut position = senamukha::Position::start();
    let mut engine = senamukha::Position::new_search(16);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let result = senamukha::Position::think(&mut engine, &mut position, &limits, &mut |_| {});
    assert!(result.best_move.is_some());
    assert!(result.info.nodes < 20_000 + 1_000, "{}", result.info.nodes);
    assert_eq!(
        position.fen(),
        senamukha::Position::start().fen(),
        "the position is given back"
    );

    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        infinite: true,
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    let stopper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let result = senamukha::Position::think(&mut engine, &mut position, &limits, &mut |_| {});
    stopper.join().unwrap();
    assert!(result.best_move.is_some());
    assert_eq!(position.fen(), senamukha::Position::start().fen());
}
