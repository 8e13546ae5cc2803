//! How much of real Mangala II games the endgame table files cover: for each game of a
//! records file (`ludus match --records`), whether it reaches the tables' counters,
//! whether every position from there has an exact value (the engine's play is then
//! perfect), and how many of the moves played there kept the value (were perfect
//! without the tables).
//!
//! cargo run --release --example mangala_endgame_coverage -- DIR RECORDS

use ludus::game::Game;
use ludus::games::mangala::{Position, endgame};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, records] = args.as_slice() else {
        return Err("usage: mangala_endgame_coverage DIR RECORDS".into());
    };
    let (table, refused) = endgame::open_dir(std::path::Path::new(dir), false)?;
    if let Some(e) = refused {
        eprintln!("{e}");
    }
    let covered = table.max_counters();
    let text = std::fs::read_to_string(records)?;
    let (mut games, mut reached, mut exact, mut moves, mut kept) = (0, 0, 0, 0, 0);
    let mut by_end = std::collections::BTreeMap::<String, usize>::new();
    // Per counters on the board: moves played, and those that kept the value.
    let mut by_counters = std::collections::BTreeMap::<usize, (usize, usize)>::new();
    for record in split_records(&text) {
        let replay = ludus::record::replay(Position::start(), record)?;
        games += 1;
        let mut position = Position::start();
        let mut entered = false;
        let mut all_exact = true;
        for &mv in &replay.moves {
            let on_board: usize = position.pits().iter().map(|&c| c as usize).sum();
            if on_board <= covered {
                entered = true;
                let mover = position.to_move();
                let value = table.probe(position.pits(), mover).and_then(|b| b.exact());
                let Some(value) = value else {
                    all_exact = false;
                    position.play(mv);
                    continue;
                };
                let before = gain(&position, mover);
                position.play(mv);
                let after = table
                    .probe(position.pits(), position.to_move())
                    .and_then(|b| b.exact());
                let board_empty = position.pits().iter().all(|&c| c == 0);
                let through = match after {
                    _ if board_empty => Some(0),
                    Some(v) if position.to_move() == mover => Some(v),
                    Some(v) => Some(-v),
                    None => None,
                };
                let keeps = through.is_some_and(|v| gain(&position, mover) - before + v == value);
                moves += 1;
                kept += usize::from(keeps);
                let at = by_counters.entry(on_board).or_default();
                at.0 += 1;
                at.1 += usize::from(keeps);
            } else {
                position.play(mv);
            }
        }
        if entered {
            reached += 1;
            exact += usize::from(all_exact);
        }
        let end = match position.outcome() {
            Some(outcome) => outcome.reason.to_string(),
            None => "adjudicated".to_string(),
        };
        *by_end.entry(end).or_default() += 1;
    }
    println!("games: {games}; endings: {by_end:?}");
    println!(
        "reached {covered} counters or fewer: {reached} ({:.1} %); every position from there exact: {exact} ({:.1} % of all games)",
        100.0 * reached as f64 / games.max(1) as f64,
        100.0 * exact as f64 / games.max(1) as f64
    );
    println!(
        "moves played from there: {moves}, of which kept the exact value: {kept} ({:.1} %)",
        100.0 * kept as f64 / moves.max(1) as f64
    );
    println!("counters  moves  kept the value");
    for (n, (moves, kept)) in by_counters.iter().rev() {
        println!(
            "{n:>8} {moves:>6} {kept:>6} ({:.1} %)",
            100.0 * *kept as f64 / *moves as f64
        );
    }
    Ok(())
}

/// `mover`'s captures minus the opponent's.
fn gain(position: &Position, mover: usize) -> i32 {
    position.captured(mover) as i32 - position.captured(1 - mover) as i32
}

/// The records of a file: each starts at a line naming its players (`A—B`).
fn split_records(text: &str) -> Vec<&str> {
    let starts: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain([0])
        .filter(|&i| text[i..].lines().next().is_some_and(|l| l.contains('—')))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| &text[s..starts.get(k + 1).copied().unwrap_or(text.len())])
        .collect()
}
