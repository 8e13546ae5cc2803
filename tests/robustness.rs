//! Bad input never panics: random and mutated positions, moves and records are either
//! read or refused with an error.

use ludus::game::Game;
use ludus::games::senamukha::Position;
use ludus::record;

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

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
