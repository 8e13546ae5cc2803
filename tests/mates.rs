//! Mates: the search reports the shortest one, `mate` limits search exhaustively for a
//! mate within a bound, and a forced move gets a score in every dialect.

mod common;

use common::Process;
use ludus::game::Game;
use ludus::games::{mangala, senamukha};
use ludus::record;
use ludus::search::{Limits, Score, Searchable};

/// Issue 19's position: the only mate in 3 is j11d11; j9i9 mates in 4.
const PUZZLE: &str =
    "9r1/4pppp3/1N2k4r1/5n3pp/1p2K6/3p2p4/P3n1P4/1PPe4PRP/1R2NP1P3/3PP1P4/9R1 b - - 0 59";

/// Independent of the search: whether the side to move can force checkmate within
/// `moves` of its moves, by plain recursion over the legal moves.
fn mates_within(p: &mut senamukha::Position, moves: u32) -> bool {
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    list.into_iter().any(|mv| {
        p.play(mv);
        let wins = match p.outcome() {
            Some(outcome) => outcome.reason == senamukha::CHECKMATE,
            None => moves > 1 && every_reply_is_mated(p, moves - 1),
        };
        p.undo();
        wins
    })
}

fn every_reply_is_mated(p: &mut senamukha::Position, moves: u32) -> bool {
    let mut replies = Vec::new();
    p.legal_moves(&mut replies);
    replies.into_iter().all(|reply| {
        p.play(reply);
        let mated = mates_within(p, moves);
        p.undo();
        mated
    })
}

/// The shortest forced mate in moves, up to `at_most`.
fn shortest_mate(fen: &str, at_most: u32) -> Option<u32> {
    let mut p = senamukha::Position::from_fen(fen).unwrap();
    (1..=at_most).find(|&n| mates_within(&mut p, n))
}

fn search(fen: &str, limits: Limits) -> (Option<String>, Score, u32) {
    let mut position = senamukha::Position::from_fen(fen).unwrap();
    let mut engine = senamukha::Position::new_search(16);
    let result = senamukha::Position::think(&mut engine, &mut position, &limits, &mut |_| {});
    let best = result
        .best_move
        .map(|m| position.format_move(m, senamukha::Position::NOTATIONS[0].notation));
    (best, result.info.scores[0], result.info.depth)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn mate_limit(moves: u32) -> Limits {
    Limits {
        mate: Some(moves),
        ..Limits::default()
    }
}

/// Positions 1, 3, 5 and 7 plies before the checkmates that end the seed games, with
/// the winner to move.
fn seed_mates() -> Vec<String> {
    let mut fens = Vec::new();
    for n in [1, 2] {
        let path = format!(
            "{}/tests/data/senamukha/game{n}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let replay = record::replay(senamukha::Position::start(), &text).unwrap();
        for back in [1, 3, 5, 7] {
            let mut p = senamukha::Position::start();
            for &mv in &replay.moves[..replay.moves.len() - back] {
                p.play(mv);
            }
            fens.push(p.fen());
        }
    }
    fens
}

#[test]
fn the_search_reports_the_shortest_mate_not_the_first_it_sees() {
    assert_eq!(shortest_mate(PUZZLE, 3), Some(3));
    // The selective search reaches the mate at a higher nominal depth than a full-width
    // one (16 here, where the plain search of b2c1216 needed 10): depths are not plies
    // searched in full.
    let (best, score, _) = search(PUZZLE, depth(18));
    assert_eq!(best.as_deref(), Some("j11d11"));
    assert_eq!(score, Score::Mate(5));

    let mut distances = Vec::new();
    for fen in seed_mates() {
        let shortest = shortest_mate(&fen, 4).expect("the game's own line mates");
        distances.push(shortest);
        let (best, score, _) = search(&fen, depth(12));
        assert_eq!(score, Score::Mate(2 * shortest as i32 - 1), "{fen}");
        // The move given keeps the mate that short.
        let mut p = senamukha::Position::from_fen(&fen).unwrap();
        let mv = p.parse_move(&best.unwrap()).unwrap();
        p.play(mv);
        let keeps = p
            .outcome()
            .is_some_and(|o| o.reason == senamukha::CHECKMATE)
            || every_reply_is_mated(&mut p, shortest - 1);
        assert!(keeps, "{fen}");
    }
    // The seed's lines hold mates of several lengths, not only mates in one.
    assert!(distances.iter().any(|&d| d >= 3), "{distances:?}");
}

#[test]
fn a_mate_limit_finds_a_mate_within_it_or_proves_there_is_none() {
    let (best, score, _) = search(PUZZLE, mate_limit(3));
    assert_eq!(best.as_deref(), Some("j11d11"));
    assert_eq!(score, Score::Mate(5));
    // No mate in 2: the exhaustive search runs to its full depth and finds none.
    let (_, score, reached) = search(PUZZLE, mate_limit(2));
    assert!(matches!(score, Score::Centi(_)), "{score:?}");
    assert_eq!(reached, 3);
    // A depth limit below the bound ends it first.
    let (_, _, reached) = search(
        PUZZLE,
        Limits {
            depth: Some(2),
            ..mate_limit(3)
        },
    );
    assert_eq!(reached, 2);
    for fen in seed_mates() {
        let shortest = shortest_mate(&fen, 4).unwrap();
        let (_, score, _) = search(&fen, mate_limit(shortest));
        assert_eq!(score, Score::Mate(2 * shortest as i32 - 1), "{fen}");
        if shortest > 1 {
            // Check extensions may find a longer mate, never one within the bound.
            let bound = 2 * (shortest as i32 - 1) - 1;
            let (_, score, reached) = search(&fen, mate_limit(shortest - 1));
            assert!(
                !matches!(score, Score::Mate(n) if n > 0 && n <= bound),
                "{fen}: {score:?}"
            );
            assert_eq!(reached, bound as u32, "{fen}");
        }
    }
}

#[test]
fn uci_and_the_native_protocol_take_go_mate_and_say_what_they_found() {
    let mut engine = Process::start();
    engine.send("uci");
    engine.until(|l| l == "uciok");
    engine.send(&format!("position fen {PUZZLE}"));
    engine.send("go mate 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("bestmove j11d11"),
        "{lines:?}"
    );
    // UCI counts mates in moves.
    assert!(
        lines.iter().any(|l| l.contains(" score mate 3 ")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"info string mate in 3 moves (5 plies) found".to_string()),
        "{lines:?}"
    );
    engine.send("go mate 2");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.contains(
            &"info string no mate in 2 moves: every line to 3 plies searched".to_string()
        ),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(" score mate ")),
        "{lines:?}"
    );
    engine.send("go mate 2 depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.contains(
            &"info string no mate in 2 moves found before the search ended; none is ruled out"
                .to_string()
        ),
        "{lines:?}"
    );
    engine.send("quit");
    engine.exits_within(std::time::Duration::from_secs(2));

    let mut engine = Process::start();
    engine.send(&format!("1 position fen {PUZZLE}"));
    assert_eq!(engine.until(|l| l.is_empty()), ["=1", ""]);
    engine.send("2 go mate 3");
    assert_eq!(engine.until(|l| l.is_empty()), ["=2", ""]);
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("bestmove j11d11"),
        "{lines:?}"
    );
    // The native protocol counts plies.
    assert!(
        lines.iter().any(|l| l.contains(" score mate 5 ")),
        "{lines:?}"
    );
    assert!(lines.contains(&"info string mate in 3 moves (5 plies) found".to_string()));
    engine.send("3 go mate 0");
    assert_eq!(
        engine.until(|l| l.is_empty()),
        ["?3 mate is out of range: 0 (1 to 32 moves)", ""]
    );
    engine.send("quit");
    engine.exits_within(std::time::Duration::from_secs(2));
}

/// Black's king on a11 has one move, a10 (the rook holds the b-file).
const FORCED_SENAMUKHA: &str = "k10/11/11/11/11/11/11/11/11/11/1R8K b - - 0 1";
/// Yellow's one move (found by random play).
const FORCED_MENTULA: &str = "2RR4/5RR1/Y7/1Y6/2W5/1W2MM2/1W1YMM2/W7 y 8 7";

/// The `info` lines and the last line up to the one that starts with `last`.
fn thinking(engine: &mut Process, last: &str) -> Vec<String> {
    engine.until(|l| l.starts_with(last))
}

#[test]
fn a_forced_move_gets_a_score_in_every_dialect() {
    // Native, all three games, under a clock.
    let forced_mangala = {
        // A position with one pit to play, found by the rules: South's only men in F.
        let fen = "0,0,0,0,0,3/1,2,3,4,5,6 S 24 24";
        let p = mangala::Position::from_fen(fen).unwrap();
        assert_eq!(p.count_legal_moves(), 1);
        fen
    };
    for (game, fen, clock, score) in [
        ("senamukha", FORCED_SENAMUKHA, "time black 60000", " score "),
        ("mentula", FORCED_MENTULA, "time yellow 60000", " scores "),
        ("mangala", forced_mangala, "time south 60000", " score "),
    ] {
        let mut engine = Process::start();
        engine.send(&format!("1 game {game}"));
        engine.send(&format!("2 position fen {fen}"));
        engine.send(&format!("3 go {clock}"));
        let lines = thinking(&mut engine, "bestmove");
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(!infos.is_empty(), "{game}: {lines:?}");
        assert!(infos.iter().all(|l| l.contains(score)), "{game}: {lines:?}");
        engine.send("quit");
        engine.exits_within(std::time::Duration::from_secs(2));
    }

    // UCI (Sena-Mukha) and UGI (Mangala II).
    for (hello, setup, fen, clock) in [
        ("uci", "", FORCED_SENAMUKHA, "wtime 60000 btime 60000"),
        (
            "ugi",
            "setoption name UGI_Variant value mangala",
            forced_mangala,
            "p1time 60000 p2time 60000",
        ),
    ] {
        let mut engine = Process::start();
        engine.send(hello);
        engine.until(|l| l == format!("{hello}ok"));
        if !setup.is_empty() {
            engine.send(setup);
        }
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!("go {clock}"));
        let lines = thinking(&mut engine, "bestmove");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth") && l.contains(" score cp ")),
            "{hello}: {lines:?}"
        );
        engine.send("quit");
        engine.exits_within(std::time::Duration::from_secs(2));
    }

    // CECP: thinking output (`ply score time nodes pv`) before the move.
    let mut engine = Process::start();
    for line in ["xboard", "protover 2", "new", "variant senamukha", "post"] {
        engine.send(line);
    }
    engine.send(&format!("setboard {FORCED_SENAMUKHA}"));
    engine.send("level 0 1 0");
    engine.send("go");
    let lines = thinking(&mut engine, "move ");
    assert_eq!(lines.last().unwrap(), "move a11a10");
    let thought = lines.iter().any(|l| {
        let fields: Vec<&str> = l.split(' ').collect();
        fields.len() >= 5 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok())
    });
    assert!(thought, "{lines:?}");
    engine.send("quit");
    engine.exits_within(std::time::Duration::from_secs(2));
}
