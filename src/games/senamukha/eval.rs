//! Evaluation of Sena-Mukha positions, in centipawns from the side to move's view.
//!
//! Terms: material, piece placement on the 11x11 board, mobility, king safety, pawn
//! structure and promotion threats. Every weight is in [`WEIGHTS`], ready for tuning.
//!
//! Material follows the game's author: an Elephant is "similar to a Rook in strength",
//! a Knight is worth 3 pawns as in chess, and each patti's officers (Elephant, Rook,
//! three Knights) come to about 21 pawns: 5 + 5 + 3 x 3 + the King's army share. So
//! pawn 100, Knight 300, Elephant 500, Rook 500.

use super::attacks;
use super::board::{Bitboard, Color, FULL, Kind, SIZE, SQUARES, Square, Squares, east, west};
use super::position::{Move, Position};
use crate::search::two_player::{Searcher, TwoPlayerGame};
use crate::search::{Info, Limits, MATE, MemoryError, SearchResult, Value};

/// All the weights of the evaluation.
pub struct Weights {
    /// Material by kind: pawn, knight, elephant, rook, king (unused).
    pub material: [Value; 5],
    /// Per step nearer the centre (Manhattan distance), by kind.
    pub centre: [Value; 5],
    /// Per square a man attacks that is not its own side's, by kind (knights: the
    /// squares the side's knights attack together).
    pub mobility: [Value; 5],
    /// Pawn bonus by ranks still to go to promotion (index 0 never occurs).
    pub pawn_advance: [Value; SIZE],
    /// Extra for a passed pawn, by ranks still to go.
    pub passed: [Value; SIZE],
    pub doubled: Value,
    pub isolated: Value,
    /// Per own man next to the king, while the enemy still has officers.
    pub king_shelter: Value,
    /// Per square next to the king that the enemy attacks.
    pub king_attacked: Value,
    /// For the side to move.
    pub tempo: Value,
}

pub const WEIGHTS: Weights = Weights {
    material: [100, 300, 500, 500, 0],
    centre: [0, 4, 3, 1, 0],
    mobility: [0, 3, 2, 2, 0],
    pawn_advance: [0, 90, 55, 30, 15, 8, 4, 0, 0, 0, 0],
    passed: [0, 120, 80, 50, 30, 15, 10, 5, 5, 5, 5],
    doubled: -15,
    isolated: -10,
    king_shelter: 6,
    king_attacked: -8,
    tempo: 10,
};

/// `PLACED[color][kind][sq]`: material plus placement (centre, pawn advance) of a man.
static PLACED: [[[Value; SQUARES]; 5]; 2] = {
    let w = &WEIGHTS;
    let mut table = [[[0; SQUARES]; 5]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 5 {
            let mut sq = 0;
            while sq < SQUARES {
                let (f, r) = ((sq % SIZE) as i32, (sq / SIZE) as i32);
                let c = (SIZE / 2) as i32;
                let centre = 10 - ((f - c).abs() + (r - c).abs());
                let to_go = if color == 0 { SIZE as i32 - 1 - r } else { r } as usize;
                table[color][kind][sq] = w.material[kind]
                    + w.centre[kind] * centre
                    + if kind == 0 { w.pawn_advance[to_go] } else { 0 };
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
};

/// Officers' material (no pawns, no king) at the start, per side.
const START_OFFICERS: Value = 3 * 500 + 3 * 500 + 9 * 300;

fn centre_distance(sq: Square) -> i32 {
    let c = (SIZE / 2) as i32;
    (sq.file() as i32 - c).abs() + (sq.rank() as i32 - c).abs()
}

/// Ranks a pawn of `color` on `sq` still has to go.
fn to_go(color: Color, sq: Square) -> usize {
    match color {
        Color::White => SIZE - 1 - sq.rank(),
        Color::Black => sq.rank(),
    }
}

/// Every square on or above a square of `b` (toward rank 11).
fn north_fill(mut b: Bitboard) -> Bitboard {
    b |= b << SIZE;
    b |= b << (2 * SIZE);
    b |= b << (4 * SIZE);
    b |= b << (8 * SIZE);
    b & FULL
}

/// Every square on or below a square of `b` (toward rank 1).
fn south_fill(mut b: Bitboard) -> Bitboard {
    b |= b >> SIZE;
    b |= b >> (2 * SIZE);
    b |= b >> (4 * SIZE);
    b |= b >> (8 * SIZE);
    b
}

/// Pawns moved one step backwards (from `color`'s view).
fn pawn_step_back(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => pawns >> SIZE,
        Color::Black => (pawns << SIZE) & FULL,
    }
}

/// One side's terms that do not depend on the enemy's attacks, and what the side
/// attacks (for the enemy king's safety).
struct SideTerms {
    score: Value,
    attacks: Bitboard,
    officers: Value,
}

fn side_terms(position: &Position, us: Color) -> SideTerms {
    let w = &WEIGHTS;
    let them = us.other();
    let own = position.side_men(us);
    let occ = position.occupied();
    let rot = position.occupied_rotated();
    let pawns = position.men(us, Kind::Pawn);
    let mut attacks = attacks::pawn_set(us, pawns) | attacks::KING[position.king(us).index()];
    let placed = &PLACED[us.index()];
    let mut score = 0;
    let mut officers = 0;
    // Knights: placement, and the squares they control together.
    let knights = position.men(us, Kind::Knight);
    for sq in Squares::new(knights) {
        score += placed[Kind::Knight.index()][sq.index()];
    }
    officers += w.material[Kind::Knight.index()] * knights.count_ones() as Value;
    let knight_reach = attacks::knight_set(knights);
    attacks |= knight_reach;
    score += w.mobility[Kind::Knight.index()] * (knight_reach & !own).count_ones() as Value;
    for kind in [Kind::Elephant, Kind::Rook] {
        let k = kind.index();
        for sq in Squares::new(position.men(us, kind)) {
            officers += w.material[k];
            score += placed[k][sq.index()];
            let reach = if kind == Kind::Elephant {
                attacks::ELEPHANT[sq.index()]
            } else {
                attacks::rook(sq, occ, rot)
            };
            attacks |= reach;
            score += w.mobility[k] * (reach & !own).count_ones() as Value;
        }
    }
    // Pawn structure in bulk: files filled up and down the board.
    let their_pawns = position.men(them, Kind::Pawn);
    for sq in Squares::new(pawns) {
        score += placed[0][sq.index()];
    }
    let behind_fill: fn(Bitboard) -> Bitboard = match us {
        Color::White => south_fill,
        Color::Black => north_fill,
    };
    let enemy_front = their_pawns | east(their_pawns) | west(their_pawns);
    // Squares behind an enemy pawn's file or capture squares: a pawn there meets an
    // enemy pawn on its way; a pawn elsewhere is passed.
    let contested = behind_fill(pawn_step_back(us, enemy_front));
    for sq in Squares::new(pawns & !contested) {
        score += w.passed[to_go(us, sq)];
    }
    let own_files = north_fill(pawns) | south_fill(pawns);
    let isolated = pawns & !(east(own_files) | west(own_files));
    let doubled = pawns & behind_fill(pawn_step_back(us, pawns));
    score +=
        w.isolated * isolated.count_ones() as Value + w.doubled * doubled.count_ones() as Value;
    SideTerms {
        score,
        attacks,
        officers,
    }
}

/// The king's terms: sheltered and unattacked while the enemy has officers, central
/// once they are gone.
fn king_terms(position: &Position, us: Color, enemy: &SideTerms) -> Value {
    let w = &WEIGHTS;
    let king = position.king(us);
    let ring = attacks::KING[king.index()];
    let danger = enemy.officers * 64 / START_OFFICERS;
    (w.king_shelter * (ring & position.side_men(us)).count_ones() as Value
        + w.king_attacked * (ring & enemy.attacks).count_ones() as Value)
        * danger
        / 64
        + (64 - danger).max(0) * (10 - centre_distance(king)) * 2 / 64
}

fn officers(position: &Position, color: Color) -> Value {
    [Kind::Knight, Kind::Elephant, Kind::Rook]
        .iter()
        .map(|&k| WEIGHTS.material[k.index()] * position.men(color, k).count_ones() as Value)
        .sum()
}

/// The evaluation from the side to move's view.
pub fn evaluate(position: &Position) -> Value {
    let us = position.side_to_move();
    let them = us.other();
    let ours = side_terms(position, us);
    let theirs = side_terms(position, them);
    ours.score + king_terms(position, us, &theirs)
        - theirs.score
        - king_terms(position, them, &ours)
        + WEIGHTS.tempo
}

impl TwoPlayerGame for Position {
    fn evaluate(&self) -> Value {
        evaluate(self)
    }

    fn rule_end(&self, _ply: u32) -> Option<Value> {
        let n_move = self
            .rules()
            .n_move_rule
            .is_some_and(|n| u64::from(self.halfmove_clock()) >= 2 * u64::from(n));
        // Inside the search a first repetition already counts as the draw it leads to.
        (self.bare_kings() || n_move || self.occurrences() >= 2).then_some(0)
    }

    fn no_moves_value(&self, ply: u32) -> Value {
        if Position::in_check(self) {
            -(MATE - ply as Value)
        } else {
            0
        }
    }

    fn is_tactical(&self, mv: Self::Move) -> bool {
        mv.promotion().is_some() || self.piece_at(mv.to()).is_some()
    }

    fn tactical_order(&self, mv: Self::Move) -> i32 {
        let victim = self
            .piece_at(mv.to())
            .map_or(0, |p| WEIGHTS.material[p.kind.index()]);
        let promotion = mv.promotion().map_or(0, |k| WEIGHTS.material[k.index()]);
        let attacker = self
            .piece_at(mv.from())
            .map_or(0, |p| p.kind.index() as i32);
        (victim + promotion) * 8 - attacker
    }

    fn tactical_moves(&self, out: &mut Vec<Self::Move>) {
        Position::tactical_moves(self, out)
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn null_move_allowed(&self) -> bool {
        // Zugzwang is a danger when a side has only king and pawns.
        let us = self.side_to_move();
        officers(self, us) > 0 && !Position::in_check(self)
    }

    fn play_null(&mut self) {
        Position::play_null(self)
    }

    fn undo_null(&mut self) {
        Position::undo_null(self)
    }

    const SELECTIVE: bool = true;

    fn exchange_at_least(&self, mv: Self::Move, threshold: Value) -> bool {
        super::exchange::at_least(self, mv, threshold)
    }

    fn expected_moves_left(&self) -> u32 {
        // Games between engines last 150 to 340 plies; fewer are left as the officers
        // come off.
        let officers = officers(self, Color::White) + officers(self, Color::Black);
        (40 + 40 * officers / (2 * START_OFFICERS)) as u32
    }

    fn pack(mv: Self::Move) -> u32 {
        mv.bits() as u32 + 1
    }

    fn history_index(&self, mv: Self::Move) -> usize {
        (mv.bits() & 0x3fff) as usize | self.side_to_move().index() << 14
    }
}

/// Sena-Mukha is searched by the two-player alpha-beta.
impl crate::search::Searchable for Position {
    type Engine = Searcher<Move>;
    /// The start, an opening, and the positions before the mating moves of the seed's
    /// first two games and of the side line of its third.
    const BENCH_POSITIONS: &'static [&'static str] = &[
        super::fen::START,
        "3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/2Nn7/11/11/PPPPP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 3 2",
        "11/3ppp1p3/8r2/3pkp1p2p/p3n6/2e1Pe5/7K1P1/P2P3P2P/4P6/4PP1P3/6r4 b - - 0 73",
        "11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
        "2e3r4/3ppppp3/nrn1n1n1nr1/ppp3ppppp/3p1n1k3/3Np6/7PE2/PPPPP1N1PPP/1RN1NKN2R1/3PPPPP3/4R6 w - - 1 33",
    ];
    const BENCH_DEPTH: u32 = 7;
    fn engine(hash_mib: usize) -> Self::Engine {
        Searcher::new(hash_mib)
    }
    fn prepare(engine: &mut Self::Engine) -> Result<(), MemoryError> {
        engine.prepare()
    }
    fn clear(engine: &mut Self::Engine) {
        engine.clear()
    }
    fn set_threads(engine: &mut Self::Engine, threads: usize) {
        engine.set_threads(threads)
    }
    fn think(
        engine: &mut Self::Engine,
        position: &mut Self,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<Move> {
        engine.search(position, limits, report)
    }
}
