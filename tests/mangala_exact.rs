//! The Mangala II search against exact values: an independent brute-force minimax that
//! knows passes (a player whose row is empty is skipped and the mover moves again) and
//! proves the final margin of small positions, compared with the engine's score and move
//! with and without the endgame tables; the positions of issue 18 with their exact values.

use ludus::game::{Game, splitmix64};
use ludus::games::mangala::{self, Position};
use ludus::search::{Limits, OptionValue, PROVEN_WIN, Score, Searchable};

/// What the brute force proves about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    /// The final margin (totals, mover's view) lies within `lower..=upper`.
    lower: i32,
    upper: i32,
}

impl Bounds {
    /// The bounds of the position after `mover`'s move, seen by `mover`: negated only
    /// if the other player is to move there (when the opponent passes, they are the
    /// mover's own).
    fn seen_by(self, mover: usize, after: &Position) -> Bounds {
        if after.to_move() == mover {
            self
        } else {
            Bounds {
                lower: -self.upper,
                upper: -self.lower,
            }
        }
    }
}

/// Plain minimax over the rules for `horizon` plies, sharing nothing with the search:
/// a finished game is worth its final margin; beyond the horizon only the counters on
/// the board bound the margin (at worst the opponent gets them all, at best the mover).
/// After a move, the value is negated only if the other player is to move (see
/// [`Bounds::seen_by`]). `passes` counts the moves in
/// the tree after which the same player moved again.
fn brute_force(position: &mut Position, horizon: u32, passes: &mut u64) -> Bounds {
    let us = position.to_move();
    if let Some(outcome) = position.outcome() {
        let margin = outcome.scores[us] - outcome.scores[1 - us];
        return Bounds {
            lower: margin,
            upper: margin,
        };
    }
    if horizon == 0 {
        let so_far = position.captured(us) as i32 - position.captured(1 - us) as i32;
        let on_board: i32 = position.pits().iter().map(|&c| c as i32).sum();
        return Bounds {
            lower: so_far - on_board,
            upper: so_far + on_board,
        };
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut best = Bounds {
        lower: i32::MIN,
        upper: i32::MIN,
    };
    for mv in moves {
        position.play(mv);
        if position.to_move() == us {
            *passes += 1;
        }
        let seen = brute_force(position, horizon - 1, passes).seen_by(us, position);
        position.undo();
        best.lower = best.lower.max(seen.lower);
        best.upper = best.upper.max(seen.upper);
    }
    best
}

/// The score the engine reports for a proven final margin.
fn proven_score(margin: i32) -> Score {
    Score::Centi(match margin.signum() {
        1 => PROVEN_WIN + margin,
        -1 => -PROVEN_WIN + margin,
        _ => 0,
    })
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A random position with 2 to `most` counters on the board, the captures split at
/// random, either player to move; `None` when the mover could not move.
fn random_position(seed: &mut u64, most: u64) -> Option<Position> {
    let mut draw = |n: u64| {
        let (s, x) = splitmix64(*seed);
        *seed = s;
        x % n
    };
    let counters = 2 + draw(most - 1);
    let mut pits = [0u8; 12];
    // Counters in a few pits, as endgames have them.
    let used = 1 + draw(6);
    let chosen: Vec<usize> = (0..used).map(|_| draw(12) as usize).collect();
    for _ in 0..counters {
        pits[chosen[draw(used) as usize]] += 1;
    }
    let captured = 72 - counters;
    let south = draw(captured + 1);
    let side = if draw(2) == 0 { "S" } else { "N" };
    let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let fen = format!(
        "{}/{} {side} {south} {}",
        row(&pits[..6]),
        row(&pits[6..]),
        captured - south
    );
    let position = Position::from_fen(&fen).ok()?;
    position.can_move(position.to_move()).then_some(position)
}

/// The engine's score and move on random positions whose value the brute force proves
/// within `horizon` plies with a pass in the tree; `endgame_counters` sets the tables
/// (0: none). Returns how many positions were compared.
fn compare_with_brute_force(
    endgame_counters: u32,
    horizon: u32,
    wanted: usize,
    seed: u64,
) -> usize {
    let mut engine = Position::new_search(1);
    Position::set_engine_option(
        &mut engine,
        "Endgame Counters",
        &OptionValue::Number(endgame_counters),
    )
    .unwrap();
    let mut seed = seed;
    let mut compared = 0;
    let mut tries = 0;
    while compared < wanted {
        tries += 1;
        assert!(tries < 200 * wanted, "too few positions qualify");
        let Some(mut position) = random_position(&mut seed, 10) else {
            continue;
        };
        let mut passes = 0;
        let exact = brute_force(&mut position, horizon, &mut passes);
        if exact.lower != exact.upper || passes == 0 {
            continue;
        }
        let fen = position.fen();
        Position::clear(&mut engine);
        Position::wait_until_ready(&mut engine, &position);
        let result = Position::think(&mut engine, &mut position, &depth(horizon), &mut |_| {});
        assert_eq!(
            result.info.scores,
            vec![proven_score(exact.lower)],
            "{fen}: the score (exact margin {})",
            exact.lower
        );
        // The move keeps the value: after it, the brute force proves the same margin
        // (looking further if the tables let the engine see beyond the horizon: a
        // table line may take a dozen plies more before it leaves its level).
        let mv = result.best_move.expect("a move");
        let us = position.to_move();
        position.play(mv);
        let mut ignored = 0;
        let kept = (horizon - 1..horizon + 16).find(|&h| {
            let after = brute_force(&mut position, h, &mut ignored).seen_by(us, &position);
            assert!(
                after.upper >= exact.lower,
                "{fen}: {mv:?} gives the value away"
            );
            after.lower == exact.lower
        });
        assert!(
            kept.is_some(),
            "{fen}: {mv:?} is not proven to keep the value"
        );
        compared += 1;
    }
    compared
}

#[test]
fn the_search_finds_the_exact_value_where_passes_occur_without_tables() {
    assert_eq!(compare_with_brute_force(0, 8, 1000, 18), 1000);
}

#[test]
fn the_search_finds_the_exact_value_where_passes_occur_with_tables() {
    // Tables of up to 4 counters: positions with more are searched down to them.
    assert_eq!(compare_with_brute_force(4, 8, 1000, 1818), 1000);
}

/// The engine's score and move for `fen` searched to `depth` with the tables of up to
/// `endgame_counters` counters.
fn search(fen: &str, endgame_counters: u32, d: u32) -> (Score, String) {
    let mut position = Position::from_fen(fen).unwrap();
    let mut engine = Position::new_search(16);
    Position::set_engine_option(
        &mut engine,
        "Endgame Counters",
        &OptionValue::Number(endgame_counters),
    )
    .unwrap();
    Position::wait_until_ready(&mut engine, &position);
    let result = Position::think(&mut engine, &mut position, &depth(d), &mut |_| {});
    let mv = position.format_move(result.best_move.unwrap(), mangala::Notation::Letter);
    (result.info.scores[0], mv)
}

#[test]
fn the_positions_of_issue_18_get_their_exact_values() {
    // Values from an independent retrograde solver (issue 18); default tables (14).
    for (fen, d, exact) in [
        ("1,0,0,0,0,0/2,2,1,3,5,2 N 36 20", 4, 0),
        ("1,0,0,0,0,0/2,2,1,3,5,2 N 38 18", 6, -4),
        ("6,2,2,1,2,2/1,0,0,0,0,0 S 18 38", 6, -4),
        ("4,5,5,0,0,1/1,0,0,0,0,0 S 36 20", 3, 28),
    ] {
        let (score, mv) = search(fen, 14, d);
        assert_eq!(score, proven_score(exact), "{fen}: {mv}");
    }
    // A move that empties North's row lets South move again: `d` there loses by 8.
    let (_, mv) = search("1,0,0,0,0,0/2,2,1,3,5,2 N 36 20", 14, 4);
    assert_ne!(mv, "d");
    // North has 67 of 72: South has lost, whatever the odd count left on the board.
    let (score, _) = search("1,0,2,0,0,1/0,0,0,0,0,1 S 0 67", 14, 4);
    assert!(
        matches!(score, Score::Centi(v) if v <= -PROVEN_WIN),
        "{score:?}"
    );
    // Without tables the search proves the margin of -20 itself.
    assert_eq!(
        search("1,0,2,0,0,1/0,0,0,0,0,2 S 20 46", 0, 12).0,
        proven_score(-20)
    );
}

/// The table files of up to 10 counters, read through `EndgamePath`, against the brute
/// force: on random positions whose value it proves, the engine's score from the files
/// (the root is covered, so it is the files' value) is that value.
#[test]
fn the_table_files_agree_with_the_brute_force() {
    let dir = std::env::temp_dir().join(format!("ludus-exact-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    mangala::endgame::build_into(&dir, 10, false, 2, &mut std::io::sink()).unwrap();
    let mut engine = Position::new_search(1);
    let path = OptionValue::Path(Some(dir.clone()));
    Position::set_engine_option(&mut engine, "EndgamePath", &path).unwrap();
    let mut seed = 2026;
    let mut compared = 0;
    while compared < 300 {
        let Some(mut position) = random_position(&mut seed, 10) else {
            continue;
        };
        let on_board: u32 = position.pits().iter().map(|&c| c as u32).sum();
        if on_board % 2 == 1 {
            continue;
        }
        let exact = brute_force(&mut position, 10, &mut 0);
        if exact.lower != exact.upper {
            continue;
        }
        let result = Position::think(&mut engine, &mut position, &depth(1), &mut |_| {});
        assert_eq!(
            result.info.scores,
            vec![proven_score(exact.lower)],
            "{}",
            position.fen()
        );
        compared += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
