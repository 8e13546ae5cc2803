//! Bad input never panics: random and mutated positions, moves and records are either
//! read or refused with an error.

use ludus::game::Game;
use ludus::game::Rng;
use ludus::games::senamukha::Position;
use ludus::games::{mangala, mentula};
use ludus::record;

const ALPHABET: &[char] = &[
    'a', 'e', 'k', 'l', 'z', 'K', 'E', 'R', 'N', 'P', 'Q', 'n', 'p', 'r', '0', '1', '2', '9', '/',
    ' ', '-', '–', '—', ':', 'x', '×', '=', '+', '#', '.', '…', '(', ')', '{', '}', ';', '\n',
    '\t', 'é', '\u{0}',
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let c = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars[i] = c;
            }
            1 if !chars.is_empty() => {
                chars.remove(rng.below(chars.len()));
            }
            _ => chars.insert(rng.below(chars.len() + 1), c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_fens_are_read_or_refused_and_what_is_read_round_trips() {
    let mut rng = Rng(99);
    let start = Position::start().fen();
    for _ in 0..20_000 {
        let text = mutate(&mut rng, &start);
        if let Ok(position) = Position::from_fen(&text) {
            let again = Position::from_fen(&position.fen()).unwrap();
            assert_eq!(again.fen(), position.fen());
        }
    }
}

#[test]
fn random_move_text_is_read_or_refused() {
    let mut rng = Rng(7);
    let position = Position::start();
    let seeds = [
        "Na3–b5",
        "e10e11e",
        "Rbb1",
        "gxh6",
        "e11=E",
        "Kf8–f9=",
        "a3b5",
    ];
    for _ in 0..20_000 {
        let seed = seeds[rng.below(seeds.len())];
        let text = mutate(&mut rng, seed);
        if let Ok(mv) = position.parse_move(&text) {
            let mut copy = position.clone();
            copy.play(mv);
        }
    }
}

#[test]
fn mutated_records_are_read_or_refused() {
    let mut rng = Rng(3);
    let path = format!(
        "{}/tests/data/senamukha/game3.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    for _ in 0..300 {
        let _ = record::replay(Position::start(), &mutate(&mut rng, &text));
    }
}

/// Mutated positions, moves and records of any game are read or refused, and what is
/// read round-trips.
fn survives_garbage<G: Game>(seed: u64, records: &[&str]) {
    let mut rng = Rng(seed);
    let start = G::start();
    let fen = start.fen();
    for _ in 0..5_000 {
        let text = mutate(&mut rng, &fen);
        if let Ok(position) = G::from_fen(&text) {
            assert_eq!(G::from_fen(&position.fen()).unwrap().fen(), position.fen());
        }
    }
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    for _ in 0..5_000 {
        let mv = moves[rng.below(moves.len())];
        let notation = G::NOTATIONS[rng.below(G::NOTATIONS.len())].notation;
        let text = mutate(&mut rng, &start.format_move(mv, notation));
        if let Ok(mv) = start.parse_move(&text) {
            let mut copy = start.clone();
            copy.play(mv);
        }
    }
    for _ in 0..300 {
        let record = records[rng.below(records.len())];
        let _ = record::replay(start.clone(), &mutate(&mut rng, record));
    }
}

#[test]
fn mutated_mentula_list_positions_are_read_or_refused() {
    let mut rng = Rng(31);
    let list = "White (to play): a1, a2, b1, b2, Yellow: a7, a8, b7, b8, Red: g7, g8, h7, h8, Magenta: g1, g2, h1, h2.";
    for _ in 0..20_000 {
        if let Ok(p) = mentula::Position::from_fen(&mutate(&mut rng, list)) {
            assert_eq!(
                mentula::Position::from_fen(&p.fen()).unwrap().fen(),
                p.fen()
            );
        }
    }
}

#[test]
fn mentula_survives_garbage() {
    survives_garbage::<mentula::Position>(
        17,
        &[
            "1. a1-b2-c3 b8-b7-b6 h8-g7-f6 g1-g2-g3 2. a2-c3-e4 b7-b6-b5 g8-f6xe4 g2-g3-g4",
            "1. c3 b6 f6 g3 2. e4 b5 e4 g4",
            "White (to play): a1, a2, b1, b2, Yellow: a7, a8, b7, b8.",
        ],
    );
}

#[test]
fn mangala_survives_garbage() {
    survives_garbage::<mangala::Position>(23, &["1. C d 2. F a", "1. 3 4 2. 6 1 3. - a"]);
}

#[test]
fn senamukha_survives_garbage() {
    survives_garbage::<Position>(29, &["1. Na3–b5 Ne9–d7 2. Ne3–d5 (2. Nb5–c7) Ng9–f7"]);
}
