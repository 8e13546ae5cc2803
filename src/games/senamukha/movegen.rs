//! Legal move generation.
//!
//! One generator serves both listing and counting: it hands target sets to a
//! [`Sink`], which either expands them into moves or just counts them (perft's bulk
//! count at the last ply). Legality is built in, not tested after the fact:
//! - the king never steps onto a square the enemy attacks with the king itself
//!   removed from the board (so it cannot retreat along a rook's line);
//! - in double check only the king moves;
//! - in single check the other men must capture the checker or, against a rook,
//!   block the squares between; leaping checkers (knight, elephant, pawn) cannot
//!   be blocked;
//! - only rooks slide, so only rooks pin, and only along ranks and files: a pinned
//!   man may move only along the pin line (a pinned knight never can).

use super::attacks::{self, between, rook_lines};
use super::board::{
    Bitboard, Color, FULL, Kind, SIZE, Square, Squares, east, north, rank_mask, south, west,
};
use super::position::{Move, Position};

/// Receives the legal moves of a position, grouped by target sets.
pub(super) trait Sink {
    /// Moves of the man on `from` to each square of `targets` (never promotions).
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each square of `targets`, each coming from `to - delta`; a target on
    /// `promotion_rank` stands for three moves, one per promotion piece.
    fn pawns(&mut self, targets: Bitboard, delta: i32, promotion_rank: Bitboard);
}

/// Counts moves without listing them.
pub(super) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i32, promotion_rank: Bitboard) {
        self.0 += (targets.count_ones() + 2 * (targets & promotion_rank).count_ones()) as u64;
    }
}

/// Lists moves.
pub(super) struct Lister<'a>(pub &'a mut Vec<Move>);

impl Sink for Lister<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in Squares::new(targets) {
            self.0.push(Move::new(from, to, None));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32, promotion_rank: Bitboard) {
        for to in Squares::new(targets) {
            let from = Square::at((to.0 as i32 - delta) as u8);
            if promotion_rank & to.bit() != 0 {
                for kind in Kind::PROMOTIONS {
                    self.0.push(Move::new(from, to, Some(kind)));
                }
            } else {
                self.0.push(Move::new(from, to, None));
            }
        }
    }
}

/// Direction-dependent pawn facts of one side.
struct PawnGeometry {
    /// Square offset of a step forward.
    forward: i32,
    promotion_rank: Bitboard,
}

const fn pawn_geometry(color: Color) -> PawnGeometry {
    match color {
        Color::White => PawnGeometry {
            forward: SIZE as i32,
            promotion_rank: rank_mask(SIZE - 1),
        },
        Color::Black => PawnGeometry {
            forward: -(SIZE as i32),
            promotion_rank: rank_mask(0),
        },
    }
}

#[inline(always)]
fn forward(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::White => north(b),
        Color::Black => south(b),
    }
}

impl Position {
    /// Feeds every legal move of the side to move into `sink`.
    #[inline(always)]
    pub(super) fn generate(&self, sink: &mut impl Sink) {
        self.generate_to(sink, FULL)
    }

    /// Feeds the legal moves that end on `wanted` squares (all squares, or the enemy's
    /// men for captures) into `sink`; pawn moves to the last rank always qualify.
    #[inline(always)]
    pub(super) fn generate_to(&self, sink: &mut impl Sink, wanted: Bitboard) {
        let us = self.side_to_move();
        let them = us.other();
        let own = self.side_men(us);
        let opp = self.side_men(them);
        let occ = own | opp;
        let occ_rot = self.occupied_rotated();
        let king = self.king(us);

        let their_rooks = self.men(them, Kind::Rook);
        let checkers = self.attackers(king, them);

        // Squares the enemy attacks, seen through our king.
        let occ_no_king = occ ^ king.bit();
        let rot_no_king = occ_rot ^ attacks::rotated_bit(king);
        let mut danger = attacks::pawn_set(them, self.men(them, Kind::Pawn))
            | attacks::knight_set(self.men(them, Kind::Knight))
            | attacks::KING[self.king(them).index()];
        for sq in Squares::new(self.men(them, Kind::Elephant)) {
            danger |= attacks::ELEPHANT[sq.index()];
        }
        for sq in Squares::new(their_rooks) {
            danger |= attacks::rook(sq, occ_no_king, rot_no_king);
        }
        sink.piece(king, attacks::KING[king.index()] & !own & !danger & wanted);

        if checkers.count_ones() > 1 {
            return;
        }
        let geometry = pawn_geometry(us);
        // Promotions count as wanted: they change the material like captures.
        let pawn_mask = wanted | geometry.promotion_rank;
        let target_mask = if checkers == 0 {
            FULL & !own & wanted
        } else {
            // Only a rook's check can be blocked; an elephant two squares away leaps.
            let checker = Square::at(checkers.trailing_zeros() as u8);
            if checkers & their_rooks != 0 {
                (checkers | between(king, checker)) & wanted
            } else {
                checkers & wanted
            }
        };
        let pawn_target_mask = if checkers == 0 {
            FULL & !own & pawn_mask
        } else {
            let checker = Square::at(checkers.trailing_zeros() as u8);
            let block = if checkers & their_rooks != 0 {
                between(king, checker)
            } else {
                0
            };
            (checkers | block) & pawn_mask
        };

        // Pins: an enemy rook on our king's lines with exactly one man between, ours.
        let mut pinned: Bitboard = 0;
        let mut pin_lines: [(Square, Bitboard); 4] = [(Square::at(0), 0); 4];
        let mut pin_count = 0;
        for rook in Squares::new(their_rooks & rook_lines(king)) {
            let line = between(king, rook);
            let blockers = line & occ;
            if blockers.count_ones() == 1 && blockers & own != 0 && pin_count < 4 {
                pinned |= blockers;
                pin_lines[pin_count] = (
                    Square::at(blockers.trailing_zeros() as u8),
                    line | rook.bit(),
                );
                pin_count += 1;
            }
        }
        let pin_line = |sq: Square| -> Bitboard {
            pin_lines[..pin_count]
                .iter()
                .find(|(s, _)| *s == sq)
                .map_or(FULL, |&(_, line)| line)
        };

        for sq in Squares::new(self.men(us, Kind::Knight) & !pinned) {
            sink.piece(sq, attacks::KNIGHT[sq.index()] & target_mask);
        }
        for sq in Squares::new(self.men(us, Kind::Elephant)) {
            let mut targets = attacks::ELEPHANT[sq.index()] & target_mask;
            if pinned & sq.bit() != 0 {
                targets &= pin_line(sq);
            }
            sink.piece(sq, targets);
        }
        for sq in Squares::new(self.men(us, Kind::Rook)) {
            let mut targets = attacks::rook(sq, occ, occ_rot) & target_mask;
            if pinned & sq.bit() != 0 {
                targets &= pin_line(sq);
            }
            sink.piece(sq, targets);
        }

        let pawns = self.men(us, Kind::Pawn);
        let free = pawns & !pinned;
        let step = geometry.forward;
        let promo = geometry.promotion_rank;
        sink.pawns(forward(us, free) & !occ & pawn_target_mask, step, promo);
        sink.pawns(
            forward(us, east(free)) & opp & pawn_target_mask,
            step + 1,
            promo,
        );
        sink.pawns(
            forward(us, west(free)) & opp & pawn_target_mask,
            step - 1,
            promo,
        );
        for sq in Squares::new(pawns & pinned) {
            let line = pin_line(sq) & pawn_target_mask;
            let b = sq.bit();
            sink.pawns(forward(us, b) & !occ & line, step, promo);
            sink.pawns(forward(us, east(b)) & opp & line, step + 1, promo);
            sink.pawns(forward(us, west(b)) & opp & line, step - 1, promo);
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate(&mut Lister(out));
    }

    /// The legal captures and promotions.
    pub fn tactical_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let enemy = self.side_men(self.side_to_move().other());
        self.generate_to(&mut Lister(out), enemy);
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Whether `mv` is one of the legal moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }
}

/// Whether the man on `from` could move to `to` if the safety of its own king did not
/// matter (used to explain why a move is illegal).
pub(super) fn reaches(position: &Position, from: Square, to: Square) -> bool {
    let Some(piece) = position.piece_at(from) else {
        return false;
    };
    let own = position.side_men(piece.color);
    let opp = position.side_men(piece.color.other());
    let i = from.index();
    let targets = match piece.kind {
        Kind::Knight => attacks::KNIGHT[i],
        Kind::Elephant => attacks::ELEPHANT[i],
        Kind::King => attacks::KING[i],
        Kind::Rook => attacks::rook(from, position.occupied(), position.occupied_rotated()),
        Kind::Pawn => {
            (forward(piece.color, from.bit()) & !position.occupied())
                | (attacks::PAWN[piece.color.index()][i] & opp)
        }
    };
    targets & !own & to.bit() != 0
}
