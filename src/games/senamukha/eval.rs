//! Evaluation of Sena-Mukha positions, in centipawns from the side to move's view.
//!
//! Terms: material and placement, mobility per kind, pawn structure and passed pawns by
//! the ranks they still have to go on eleven, rooks on open files, threats (officers
//! attacked by pawns, men attacked and not defended), and king safety while the enemy
//! has officers: the men around the king, the pawns in front of it, files open toward
//! it, the enemy men that attack its zone (by kind, and their number squared) and the
//! squares from which an enemy man could give a check that we do not guard.
//!
//! The evaluation is linear in its weights ([`LAYOUT`], values in `weights.rs`), so one
//! walk over the position serves both the search (a [`Sum`]) and the tuner (the counts
//! of every term, [`features`]); `ludus tune` fits the weights to game results.
//!
//! The starting weights followed the game's author: an Elephant is "similar to a Rook
//! in strength", a Knight is worth 3 pawns as in chess.

use super::attacks;
use super::board::{
    Bitboard, Color, FILES, FULL, Kind, SIZE, SQUARES, Square, Squares, east, north, south, west,
};
use super::position::{Move, Position};
pub use super::weights::WEIGHTS;
use crate::search::two_player::TwoPlayerGame;
use crate::search::wdl::LogisticModel;
use crate::search::{MATE, Value};

/// The evaluation's terms: a name and how many weights it has, in the order of
/// [`WEIGHTS`]. Terms indexed by kind run pawn, knight, elephant, rook, king.
pub const LAYOUT: &[(&str, usize)] = &[
    ("material", 5),
    ("centre", 5),
    ("mobility", 5),
    ("pawn_advance", SIZE),
    ("passed", SIZE),
    ("doubled", 1),
    ("isolated", 1),
    ("rook_open_file", 1),
    ("rook_half_open_file", 1),
    ("threat_by_pawn", 1),
    ("hanging", 1),
    ("king_shelter", 1),
    ("king_attacked", 1),
    ("pawn_shield", 1),
    ("king_open_file", 1),
    ("king_zone_attacker", 5),
    ("king_attackers_squared", 1),
    ("safe_check", 5),
    ("king_centre_endgame", 1),
    ("tempo", 1),
];

/// How many weights the evaluation has.
pub const TERMS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < LAYOUT.len() {
        n += LAYOUT[i].1;
        i += 1;
    }
    n
};

/// Where the term `name` starts in [`WEIGHTS`].
const fn offset(name: &str) -> usize {
    let mut at = 0;
    let mut i = 0;
    while i < LAYOUT.len() {
        if const_eq(LAYOUT[i].0, name) {
            return at;
        }
        at += LAYOUT[i].1;
        i += 1;
    }
    panic!("no such term");
}

const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const MATERIAL: usize = offset("material");
const CENTRE: usize = offset("centre");
const MOBILITY: usize = offset("mobility");
const PAWN_ADVANCE: usize = offset("pawn_advance");
const PASSED: usize = offset("passed");
const DOUBLED: usize = offset("doubled");
const ISOLATED: usize = offset("isolated");
const ROOK_OPEN_FILE: usize = offset("rook_open_file");
const ROOK_HALF_OPEN_FILE: usize = offset("rook_half_open_file");
const THREAT_BY_PAWN: usize = offset("threat_by_pawn");
const HANGING: usize = offset("hanging");
const KING_SHELTER: usize = offset("king_shelter");
const KING_ATTACKED: usize = offset("king_attacked");
const PAWN_SHIELD: usize = offset("pawn_shield");
const KING_OPEN_FILE: usize = offset("king_open_file");
const KING_ZONE_ATTACKER: usize = offset("king_zone_attacker");
const KING_ATTACKERS_SQUARED: usize = offset("king_attackers_squared");
const SAFE_CHECK: usize = offset("safe_check");
const KING_CENTRE_ENDGAME: usize = offset("king_centre_endgame");
const TEMPO: usize = offset("tempo");

/// Weights the tuner leaves alone: the pawn (the unit) and the king's material and
/// placement, which never differ between positions.
pub const FROZEN: &[usize] = &[
    MATERIAL,
    MATERIAL + 4,
    CENTRE,
    CENTRE + 4,
    MOBILITY,
    MOBILITY + 4,
];

/// The material of a man of `kind` (the king: none).
pub fn material(kind: Kind) -> Value {
    WEIGHTS[MATERIAL + kind.index()]
}

/// The win/draw/loss model of the search's scores (`UCI_ShowWDL`), fitted by `ludus
/// wdl --game senamukha --data d5.bin --steps 1500` on 290,546 positions of the first
/// 1,810 or so self-play games of `ludus datagen --games 100000 --nodes 8000 --seed 5`
/// (the third network, built in; protocol-spec/wdl.md); on the 362 games held out
/// (every fifth), Brier skill 0.289 against the base rates (benches/README.md).
pub const WDL_MODEL: LogisticModel = LogisticModel {
    a: [-883.661, 1984.319, -1376.734, 389.239],
    b: [254.536, -265.408, 104.353, 126.259],
    compress: 250.0,
    x_range: (0.050, 1.000),
};

/// The material on the board, the WDL model's measure of the game's phase: pawns 1,
/// knights 3, elephants and rooks 5 each, both sides, as a share of the start's 144.
pub fn wdl_material(position: &Position) -> f64 {
    let units = [
        (Kind::Pawn, 1),
        (Kind::Knight, 3),
        (Kind::Elephant, 5),
        (Kind::Rook, 5),
    ];
    let total: u32 = [Color::White, Color::Black]
        .iter()
        .flat_map(|&c| units.iter().map(move |&(k, u)| (c, k, u)))
        .map(|(c, k, u)| u * position.men(c, k).count_ones())
        .sum();
    f64::from(total) / 144.0
}

/// How far a man on `sq` stands from the edge: 10 at the centre, 0 in a corner.
const fn centrality(sq: usize) -> Value {
    let (f, r) = ((sq % SIZE) as i32, (sq / SIZE) as i32);
    let c = (SIZE / 2) as i32;
    10 - ((f - c).abs() + (r - c).abs())
}

/// Ranks a pawn of colour index `color` on square index `sq` still has to go.
const fn ranks_to_go(color: usize, sq: usize) -> usize {
    let r = sq / SIZE;
    if color == 0 { SIZE - 1 - r } else { r }
}

/// `PLACED[color][kind][sq]`: material plus placement (centre, pawn advance) of a man,
/// the sum of its three terms, looked up at once by the search.
static PLACED: [[[Value; SQUARES]; 5]; 2] = {
    let w = &WEIGHTS;
    let mut table = [[[0; SQUARES]; 5]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 5 {
            let mut sq = 0;
            while sq < SQUARES {
                table[color][kind][sq] = w[MATERIAL + kind]
                    + w[CENTRE + kind] * centrality(sq)
                    + if kind == 0 {
                        w[PAWN_ADVANCE + ranks_to_go(color, sq)]
                    } else {
                        0
                    };
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
};

/// What the evaluation's walk feeds its terms to.
trait Sink {
    /// From now on, terms count for `color` (White's terms add, Black's subtract).
    fn side(&mut self, color: Color);
    /// From now on, terms count `scale` 64ths (king safety fades with the enemy's
    /// officers); 64 is whole.
    fn scale(&mut self, scale: Value);
    /// `count` times the weight `term`.
    fn add(&mut self, term: usize, count: Value);
    /// A man's material and placement.
    fn place(&mut self, color: Color, kind: Kind, sq: Square);
}

/// The search's sink: the evaluation itself, from White's view, in 64ths.
struct Sum {
    sign: Value,
    scale: Value,
    total: Value,
}

impl Sink for Sum {
    #[inline(always)]
    fn side(&mut self, color: Color) {
        self.sign = if color == Color::White { 1 } else { -1 };
    }
    #[inline(always)]
    fn scale(&mut self, scale: Value) {
        self.scale = scale;
    }
    #[inline(always)]
    fn add(&mut self, term: usize, count: Value) {
        self.total += self.sign * self.scale * WEIGHTS[term] * count;
    }
    #[inline(always)]
    fn place(&mut self, color: Color, kind: Kind, sq: Square) {
        self.total += self.sign * 64 * PLACED[color.index()][kind.index()][sq.index()];
    }
}

/// The tuner's sink: how often each term counts, from White's view.
struct Counts {
    sign: f64,
    scale: f64,
    counts: [f64; TERMS],
}

impl Sink for Counts {
    fn side(&mut self, color: Color) {
        self.sign = if color == Color::White { 1.0 } else { -1.0 };
    }
    fn scale(&mut self, scale: Value) {
        self.scale = f64::from(scale) / 64.0;
    }
    fn add(&mut self, term: usize, count: Value) {
        self.counts[term] += self.sign * self.scale * f64::from(count);
    }
    fn place(&mut self, color: Color, kind: Kind, sq: Square) {
        let k = kind.index();
        self.add(MATERIAL + k, 1);
        self.add(CENTRE + k, centrality(sq.index()));
        if kind == Kind::Pawn {
            self.add(PAWN_ADVANCE + ranks_to_go(color.index(), sq.index()), 1);
        }
    }
}

/// Officers' weight in the game's phase (fixed, not tuned): king safety counts in
/// full while the enemy keeps all its officers and fades as they come off.
const PHASE: [Value; 5] = [0, 300, 500, 500, 0];
/// Officers' phase weight at the start, per side.
const START_OFFICERS: Value = 3 * 500 + 3 * 500 + 9 * 300;

/// What one side's men attack, by kind and together, and their mobility.
struct SideAttacks {
    by_kind: [Bitboard; 5],
    all: Bitboard,
    /// Squares attacked that the side's own men do not stand on, by kind.
    mobility: [Value; 5],
    /// Men attacking the enemy king's zone, by kind.
    zone_attackers: [Value; 5],
}

/// The squares around the king of `color` that its safety looks at: the ring and the
/// squares in front of it.
fn king_zone(position: &Position, color: Color) -> Bitboard {
    let king = position.king(color);
    let ring = attacks::KING[king.index()];
    ring | king.bit() | forward(color, ring)
}

fn side_attacks(position: &Position, us: Color) -> SideAttacks {
    let zone = king_zone(position, us.other());
    let mut zone_attackers = [0; 5];
    let own = position.side_men(us);
    let occ = position.occupied();
    let rot = position.occupied_rotated();
    let mut by_kind = [0; 5];
    let mut mobility = [0; 5];
    by_kind[Kind::Pawn.index()] = attacks::pawn_set(us, position.men(us, Kind::Pawn));
    by_kind[Kind::Knight.index()] = attacks::knight_set(position.men(us, Kind::Knight));
    mobility[Kind::Knight.index()] = (by_kind[Kind::Knight.index()] & !own).count_ones() as Value;
    for kind in [Kind::Elephant, Kind::Rook] {
        let k = kind.index();
        for sq in Squares::new(position.men(us, kind)) {
            let reach = if kind == Kind::Elephant {
                attacks::ELEPHANT[sq.index()]
            } else {
                attacks::rook(sq, occ, rot)
            };
            by_kind[k] |= reach;
            mobility[k] += (reach & !own).count_ones() as Value;
            zone_attackers[k] += Value::from(reach & zone != 0);
        }
    }
    // Leaps are symmetric: a knight attacks the zone exactly when it stands on a square
    // a knight leaps to from the zone; a pawn, where an enemy pawn would attack from.
    let count = |set: Bitboard| set.count_ones() as Value;
    zone_attackers[Kind::Knight.index()] =
        count(position.men(us, Kind::Knight) & attacks::knight_set(zone));
    zone_attackers[Kind::Pawn.index()] =
        count(position.men(us, Kind::Pawn) & attacks::pawn_set(us.other(), zone));
    by_kind[Kind::King.index()] = attacks::KING[position.king(us).index()];
    SideAttacks {
        all: by_kind.iter().fold(0, |a, &b| a | b),
        by_kind,
        mobility,
        zone_attackers,
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

/// A set moved one rank forward (from `color`'s view).
fn forward(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::White => north(b),
        Color::Black => south(b),
    }
}

/// The officers of `color` by their phase weight, at most the start's.
fn phase_officers(position: &Position, color: Color) -> Value {
    [Kind::Knight, Kind::Elephant, Kind::Rook]
        .iter()
        .map(|&k| PHASE[k.index()] * position.men(color, k).count_ones() as Value)
        .sum::<Value>()
        .min(START_OFFICERS)
}

/// One side's terms: its men, pawns, rooks, threats against the enemy, and its own
/// king's safety against the enemy's men.
fn side_terms(
    position: &Position,
    us: Color,
    ours: &SideAttacks,
    theirs: &SideAttacks,
    sink: &mut impl Sink,
) {
    let them = us.other();
    sink.side(us);
    sink.scale(64);
    let own = position.side_men(us);
    let enemy = position.side_men(them);
    let pawns = position.men(us, Kind::Pawn);
    let their_pawns = position.men(them, Kind::Pawn);
    for kind in [Kind::Pawn, Kind::Knight, Kind::Elephant, Kind::Rook] {
        for sq in Squares::new(position.men(us, kind)) {
            sink.place(us, kind, sq);
        }
        sink.add(MOBILITY + kind.index(), ours.mobility[kind.index()]);
    }
    // Pawn structure in bulk: files filled up and down the board.
    let behind_fill: fn(Bitboard) -> Bitboard = match us {
        Color::White => south_fill,
        Color::Black => north_fill,
    };
    let back = |b: Bitboard| forward(them, b);
    let enemy_front = their_pawns | east(their_pawns) | west(their_pawns);
    // Squares behind an enemy pawn's file or capture squares: a pawn there meets an
    // enemy pawn on its way; a pawn elsewhere is passed.
    let contested = behind_fill(back(enemy_front));
    for sq in Squares::new(pawns & !contested) {
        sink.add(PASSED + ranks_to_go(us.index(), sq.index()), 1);
    }
    let own_files = north_fill(pawns) | south_fill(pawns);
    let isolated = pawns & !(east(own_files) | west(own_files));
    let doubled = pawns & behind_fill(back(pawns));
    sink.add(ISOLATED, isolated.count_ones() as Value);
    sink.add(DOUBLED, doubled.count_ones() as Value);
    for sq in Squares::new(position.men(us, Kind::Rook)) {
        let file = FILES[sq.file()];
        if file & pawns == 0 {
            let term = if file & their_pawns == 0 {
                ROOK_OPEN_FILE
            } else {
                ROOK_HALF_OPEN_FILE
            };
            sink.add(term, 1);
        }
    }
    // Threats: enemy officers our pawns attack; enemy men we attack and they do not defend.
    let their_officers = enemy & !their_pawns & !position.men(them, Kind::King);
    sink.add(
        THREAT_BY_PAWN,
        (ours.by_kind[Kind::Pawn.index()] & their_officers).count_ones() as Value,
    );
    let hanging = enemy & !position.men(them, Kind::King) & ours.all & !theirs.all;
    sink.add(HANGING, hanging.count_ones() as Value);
    // Our king: sheltered while the enemy has officers, central once they are gone.
    let king = position.king(us);
    let danger = phase_officers(position, them) * 64 / START_OFFICERS;
    sink.scale(danger);
    let ring = attacks::KING[king.index()];
    sink.add(KING_SHELTER, (ring & own).count_ones() as Value);
    sink.add(KING_ATTACKED, (ring & theirs.all).count_ones() as Value);
    let beside = king.bit() | east(king.bit()) | west(king.bit());
    let shield = forward(us, beside) | forward(us, forward(us, beside));
    sink.add(PAWN_SHIELD, (shield & pawns).count_ones() as Value);
    if position.men(them, Kind::Rook) != 0 {
        let files = king.file().saturating_sub(1)..=(king.file() + 1).min(SIZE - 1);
        let open = files.filter(|&f| FILES[f] & pawns == 0).count();
        sink.add(KING_OPEN_FILE, open as Value);
    }
    let mut attackers = 0;
    for kind in [Kind::Pawn, Kind::Knight, Kind::Elephant, Kind::Rook] {
        let n = theirs.zone_attackers[kind.index()];
        sink.add(KING_ZONE_ATTACKER + kind.index(), n);
        attackers += n;
    }
    sink.add(KING_ATTACKERS_SQUARED, attackers * attackers);
    // Safe checks: squares from which an enemy man could check, which it reaches and
    // we do not guard.
    let unguarded = !enemy & !ours.all;
    let checks = [
        (Kind::Knight, attacks::KNIGHT[king.index()]),
        (Kind::Elephant, attacks::ELEPHANT[king.index()]),
        (
            Kind::Rook,
            attacks::rook(king, position.occupied(), position.occupied_rotated()),
        ),
    ];
    for (kind, from) in checks {
        let safe = from & theirs.by_kind[kind.index()] & unguarded;
        sink.add(SAFE_CHECK + kind.index(), safe.count_ones() as Value);
    }
    sink.scale(64 - danger);
    sink.add(KING_CENTRE_ENDGAME, centrality(king.index()));
    sink.scale(64);
}

/// The walk over the position that feeds every term to `sink`.
fn walk(position: &Position, sink: &mut impl Sink) {
    let white = side_attacks(position, Color::White);
    let black = side_attacks(position, Color::Black);
    side_terms(position, Color::White, &white, &black, sink);
    side_terms(position, Color::Black, &black, &white, sink);
    sink.side(position.side_to_move());
    sink.add(TEMPO, 1);
}

/// Whether `color` can force mate: a side with only knights (two at most) beside its
/// king cannot, as in chess; pawns may promote, and a Rook or Elephant mates with the king.
fn can_force_mate(position: &Position, color: Color) -> bool {
    let men = position.side_men(color) & !position.men(color, Kind::King);
    men & !position.men(color, Kind::Knight) != 0 || men.count_ones() > 2
}

/// Neither side can force mate: the game is a draw in all but name, and every
/// position of it is worth 0 (so the search takes a repetition rather than
/// shuffling on toward a mate that cannot come).
fn dead_drawn(position: &Position) -> bool {
    !can_force_mate(position, Color::White) && !can_force_mate(position, Color::Black)
}

/// The evaluation from the side to move's view.
pub fn evaluate(position: &Position) -> Value {
    if dead_drawn(position) {
        return 0;
    }
    let mut sum = Sum {
        sign: 1,
        scale: 64,
        total: 0,
    };
    walk(position, &mut sum);
    let white = sum.total / 64;
    match position.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// How often each term of [`LAYOUT`] counts in `position`, from White's view: the
/// evaluation from White's view is these counts times [`WEIGHTS`] (up to rounding).
pub fn features(position: &Position) -> [f64; TERMS] {
    if dead_drawn(position) {
        return [0.0; TERMS];
    }
    let mut counts = Counts {
        sign: 1.0,
        scale: 1.0,
        counts: [0.0; TERMS],
    };
    walk(position, &mut counts);
    counts.counts
}

/// The names of the weights: `term` or `term.kind` or `term.ranks-to-go`.
pub(super) fn weight_names() -> Vec<String> {
    LAYOUT
        .iter()
        .flat_map(|&(term, len)| {
            (0..len).map(move |i| match len {
                1 => term.to_string(),
                5 => format!("{term}.{}", Kind::ALL[i].name()),
                _ => format!("{term}.{i}"),
            })
        })
        .collect()
}

/// `weights.rs` for these weights: one line per term of [`LAYOUT`].
pub(super) fn weights_source(weights: &[Value]) -> String {
    let mut out = String::from(
        "//! The evaluation's weights, in the order of `eval::LAYOUT`, as `ludus tune fit` \
         writes them\n//! (README, \"Tuning the evaluation\").\n\nuse crate::search::Value;\n\n\
         #[rustfmt::skip]\npub const WEIGHTS: [Value; super::eval::TERMS] = [\n",
    );
    let mut at = 0;
    for &(term, len) in LAYOUT {
        let what = match len {
            1 => String::new(),
            5 => ": pawn knight elephant rook king".to_string(),
            _ => format!(": by ranks to go 0..={}", len - 1),
        };
        let values: Vec<String> = weights[at..at + len]
            .iter()
            .map(|w| w.to_string())
            .collect();
        out += &format!("    // {term}{what}\n    {},\n", values.join(", "));
        at += len;
    }
    out + "];\n"
}

/// A position worth labelling for the tuner: no check, the move played from it takes
/// nothing, and no capture of the side to move wins material by the exchange.
pub(super) fn quiet(position: &Position, played: Move) -> bool {
    if Position::in_check(position) || position.is_tactical(played) {
        return false;
    }
    let mut captures = Vec::new();
    Position::tactical_moves(position, &mut captures);
    !captures
        .iter()
        .any(|&mv| super::exchange::at_least(position, mv, 1))
}

/// The largest evaluation the network may give, well below proven wins and mates.
const NETWORK_BOUND: Value = 10_000;

impl TwoPlayerGame for Position {
    fn evaluate(&mut self) -> Value {
        if !self.uses_network() {
            return evaluate(self);
        }
        // The rule the network cannot learn from scores alone: a position where
        // neither side can mate is a draw whatever the men.
        if dead_drawn(self) {
            return 0;
        }
        self.network_evaluation()
            .map_or(0, |value| value.clamp(-NETWORK_BOUND, NETWORK_BOUND))
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
        let victim = self.piece_at(mv.to()).map_or(0, |p| material(p.kind));
        let promotion = mv.promotion().map_or(0, material);
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
        phase_officers(self, us) > 0 && !Position::in_check(self)
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
        let officers = phase_officers(self, Color::White) + phase_officers(self, Color::Black);
        (40 + 40 * officers / (2 * START_OFFICERS)) as u32
    }

    fn pack(mv: Self::Move) -> u32 {
        mv.bits() as u32 + 1
    }

    fn history_index(&self, mv: Self::Move) -> usize {
        (mv.bits() & 0x3fff) as usize | self.side_to_move().index() << 14
    }

    fn piece_to(&self, mv: Self::Move) -> usize {
        // Ten men (colour and kind) by 121 targets: below PIECE_TO_SIZE.
        let man = self.piece_at(mv.from()).map_or(0, |p| p.index());
        man * SQUARES + mv.to().index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Rng};

    fn dot(position: &Position) -> f64 {
        let white: f64 = features(position)
            .iter()
            .zip(WEIGHTS.iter())
            .map(|(&c, &w)| c * f64::from(w))
            .sum();
        match position.side_to_move() {
            Color::White => white,
            Color::Black => -white,
        }
    }

    /// The tuner's counts times the weights are the search's evaluation (up to the
    /// rounding of the king-safety terms' 64ths), along random games.
    #[test]
    fn the_counts_times_the_weights_are_the_evaluation() {
        let mut rng = Rng(2026);
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..20 {
            let mut position = Position::start();
            for _ in 0..120 {
                let (value, counted) = (evaluate(&position), dot(&position));
                assert!(
                    (f64::from(value) - counted).abs() <= 1.0,
                    "{}: evaluation {value}, counts {counted}",
                    position.fen()
                );
                checked += 1;
                position.legal_moves(&mut moves);
                if moves.is_empty() || position.outcome().is_some() {
                    break;
                }
                position.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 1000);
    }

    /// King and knight against king (or against king and knight) cannot force mate:
    /// worth 0 whoever moves; king, knight and pawn can.
    #[test]
    fn only_knights_cannot_force_mate_and_are_worth_nothing() {
        for fen in [
            "k10/11/11/11/11/11/11/4N6/11/11/5K5 w - - 0 1",
            "k10/11/11/11/n10/11/11/4N6/11/11/5K5 b - - 0 1",
        ] {
            let position = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&position), 0, "{fen}");
            assert!(features(&position).iter().all(|&c| c == 0.0));
        }
        let position =
            Position::from_fen("k10/11/11/11/11/11/P10/4N6/11/11/5K5 w - - 0 1").unwrap();
        assert!(evaluate(&position) > 100);
    }

    /// The weights file is what `ludus tune fit` writes for these weights.
    #[test]
    fn the_weights_file_is_the_tuners_output() {
        assert_eq!(weights_source(&WEIGHTS), include_str!("weights.rs"));
        assert_eq!(weight_names().len(), TERMS);
        assert_eq!(weight_names()[MATERIAL + 2], "material.elephant");
        assert_eq!(weight_names()[PASSED + 3], "passed.3");
    }

    fn count(men: &str, side: &str, term: usize) -> f64 {
        let fen = format!("{men} {side} - - 0 1");
        features(&Position::from_fen(&fen).unwrap())[term]
    }

    /// White king on f1 with pawns e2 f2 g2 (and f3) in front: four shield pawns; moved
    /// off, none. Black keeps its officers, so the terms count whole.
    #[test]
    fn the_pawn_shield_counts_the_pawns_in_front_of_the_king() {
        let black = "3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11";
        let sheltered = format!("{black}/11/5P5/4PPP4/5K5");
        assert_eq!(count(&sheltered, "w", PAWN_SHIELD), 4.0);
        let bare = format!("{black}/PPP8/11/11/5K5");
        assert_eq!(count(&bare, "w", PAWN_SHIELD), 0.0);
    }

    /// A black knight on e4 and rook on k2 reach the white king's zone around f1: two
    /// attackers (squared: 4); the knight has two safe checking squares (d2, g3), the
    /// rook one (k1; f2 is guarded by the king). Black has only those two officers, so
    /// the terms count 8/64.
    #[test]
    fn attackers_of_the_kings_zone_and_safe_checks_are_counted() {
        let position =
            Position::from_fen("k10/11/11/11/11/11/11/4n6/11/10r/5K5 w - - 0 1").unwrap();
        let counts = features(&position);
        let danger = 8.0 / 64.0;
        assert_eq!(counts[KING_ZONE_ATTACKER + Kind::Knight.index()], danger);
        assert_eq!(counts[KING_ZONE_ATTACKER + Kind::Rook.index()], danger);
        assert_eq!(counts[KING_ATTACKERS_SQUARED], 4.0 * danger);
        assert_eq!(counts[SAFE_CHECK + Kind::Knight.index()], 2.0 * danger);
        assert_eq!(counts[SAFE_CHECK + Kind::Rook.index()], danger);
        assert_eq!(counts[SAFE_CHECK + Kind::Elephant.index()], 0.0);
    }
}
