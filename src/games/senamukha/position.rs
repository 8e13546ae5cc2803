//! The Sena-Mukha position: bitboards plus a mailbox, make and undo, Zobrist hashing,
//! repetition and the end of the game.

use super::attacks::{self, rotated_bit};
use std::sync::Arc;

use super::board::{Bitboard, Color, Kind, Piece, SQUARES, Square};
use super::nnue::incremental::Incremental;
use super::nnue::network::Network;
use crate::game::{EndReason, Outcome, Verdict, splitmix64};

/// The side to move is in check and has no legal move: the other side wins.
pub const CHECKMATE: EndReason = EndReason::new("checkmate", "{winner} mates", Verdict::Win);
/// The side to move is not in check and has no legal move: a draw.
pub const STALEMATE: EndReason = EndReason::new("stalemate", "Stalemate", Verdict::Draw);
/// Only the two kings are left: a draw.
pub const BARE_KINGS: EndReason = EndReason::new(
    "bare kings",
    "Insufficient material: bare kings",
    Verdict::Draw,
);
/// The same position for the third time: a draw.
pub const REPETITION: EndReason =
    EndReason::new("threefold repetition", "Draw by repetition", Verdict::Draw);
/// The n-move rule (a rule option) ran out: a draw.
pub const N_MOVE_RULE: EndReason =
    EndReason::new("move limit", "Draw by the n-move rule", Verdict::Draw);
/// Every reason a game of Sena-Mukha ends for.
pub const END_REASONS: &[EndReason] = &[CHECKMATE, STALEMATE, BARE_KINGS, REPETITION, N_MOVE_RULE];

/// A move: from, to and an optional promotion, packed in 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    const PROMOTION_KINDS: [Option<Kind>; 4] = [
        None,
        Some(Kind::Knight),
        Some(Kind::Elephant),
        Some(Kind::Rook),
    ];

    #[inline(always)]
    pub fn new(from: Square, to: Square, promotion: Option<Kind>) -> Move {
        let p = match promotion {
            None => 0,
            Some(Kind::Knight) => 1,
            Some(Kind::Elephant) => 2,
            Some(Kind::Rook) => 3,
            Some(k) => panic!("a pawn cannot promote to a {}", k.name()),
        };
        Move(from.0 as u16 | (to.0 as u16) << 7 | p << 14)
    }
    #[inline(always)]
    pub fn from(self) -> Square {
        Square::at((self.0 & 127) as u8)
    }
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::at((self.0 >> 7 & 127) as u8)
    }
    #[inline(always)]
    pub fn promotion(self) -> Option<Kind> {
        Self::PROMOTION_KINDS[(self.0 >> 14) as usize]
    }
    /// The move as 16 bits: from, to (7 bits each) and the promotion (2 bits).
    #[inline(always)]
    pub fn bits(self) -> u16 {
        self.0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(k) = self.promotion() {
            write!(f, "{}", k.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// Rule options. The defaults are the rules of protocol-spec/rules/senamukha.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    /// The n-move rule: with `Some(n)`, 2n plies without a capture or a pawn move draw.
    /// Off by default (a ruling of the project).
    pub n_move_rule: Option<u32>,
}

/// What `undo` needs to restore.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    hash: u64,
    halfmove_clock: u32,
}

/// Zobrist keys from a fixed splitmix64 stream, so hashes are the same on every run.
struct Zobrist {
    pieces: [[u64; SQUARES]; 10],
    black_to_move: u64,
}

static ZOBRIST: Zobrist = {
    let mut pieces = [[0u64; SQUARES]; 10];
    let mut state = 0x5E7A_4D11_u64;
    let mut p = 0;
    while p < 10 {
        let mut s = 0;
        while s < SQUARES {
            let (next, key) = splitmix64(state);
            state = next;
            pieces[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let (_, black_to_move) = splitmix64(state);
    Zobrist {
        pieces,
        black_to_move,
    }
};

/// A Sena-Mukha position with its history.
#[derive(Clone)]
pub struct Position {
    kinds: [Bitboard; 5],
    colors: [Bitboard; 2],
    /// Occupancy in file-major order, for rook attacks along files.
    occ_rotated: Bitboard,
    board: [Option<Piece>; SQUARES],
    kings: [Square; 2],
    side: Color,
    hash: u64,
    halfmove_clock: u32,
    fullmove_number: u32,
    history: Vec<Undo>,
    rules: Rules,
    /// The network's accumulators when a network evaluates the position (the search
    /// attaches one), kept up to date by `play` and `undo`.
    nnue: Option<Box<Incremental>>,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", super::fen::format(self))
    }
}

impl Position {
    /// An empty board (no kings yet), for the FEN reader.
    pub(super) fn empty() -> Position {
        Position {
            kinds: [0; 5],
            colors: [0; 2],
            occ_rotated: 0,
            board: [None; SQUARES],
            kings: [Square::at(0); 2],
            side: Color::White,
            hash: 0,
            halfmove_clock: 0,
            fullmove_number: 1,
            history: Vec::new(),
            rules: Rules::default(),
            nnue: None,
        }
    }

    /// Puts a man on an empty square (position setup only).
    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.toggle(sq, piece);
        self.occ_rotated ^= rotated_bit(sq);
        self.board[sq.index()] = Some(piece);
        if piece.kind == Kind::King {
            self.kings[piece.color.index()] = sq;
        }
    }

    pub(super) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.hash ^= ZOBRIST.black_to_move;
        }
        self.side = side;
    }

    pub(super) fn set_counters(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
    }

    #[inline(always)]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        self.kinds[piece.kind.index()] ^= sq.bit();
        self.colors[piece.color.index()] ^= sq.bit();
        self.hash ^= ZOBRIST.pieces[piece.index()][sq.index()];
    }

    /// Has `network` evaluate this position and those the moves from it lead to
    /// (`None`: the hand-written evaluation).
    pub fn use_network(&mut self, network: Option<Arc<Network>>) {
        self.nnue = network.map(|network| Box::new(Incremental::new(network, self)));
    }

    /// Whether a network evaluates this position.
    pub fn uses_network(&self) -> bool {
        self.nnue.is_some()
    }

    /// The network's evaluation from the side to move's view, when a network is in use
    /// (mutable: the accumulators are made when an evaluation needs them).
    pub fn network_evaluation(&mut self) -> Option<i32> {
        let mut nnue = self.nnue.take()?;
        let value = nnue.evaluate(self);
        self.nnue = Some(nnue);
        Some(value)
    }

    /// The network's accumulators, White's and Black's, when one is in use (tests).
    #[cfg(test)]
    pub(crate) fn network_accumulators(&mut self) -> Option<[Vec<i16>; 2]> {
        let mut nnue = self.nnue.take()?;
        nnue.make(self);
        let accumulators = nnue.accumulators().map(<[i16]>::to_vec);
        self.nnue = Some(nnue);
        Some(accumulators)
    }

    /// The rule options in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// Changes the rule options.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }
    pub fn zobrist(&self) -> u64 {
        self.hash
    }
    /// Men of one kind and colour.
    #[inline(always)]
    pub fn men(&self, color: Color, kind: Kind) -> Bitboard {
        self.kinds[kind.index()] & self.colors[color.index()]
    }
    /// All men of one colour.
    #[inline(always)]
    pub fn side_men(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }
    #[inline(always)]
    pub(super) fn occupied_rotated(&self) -> Bitboard {
        self.occ_rotated
    }
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The men of `by` that attack `sq` (kings included), with the board as it is.
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        let them = self.side_men(by);
        let i = sq.index();
        ((attacks::KNIGHT[i] & self.kinds[Kind::Knight.index()])
            | (attacks::ELEPHANT[i] & self.kinds[Kind::Elephant.index()])
            | (attacks::KING[i] & self.kinds[Kind::King.index()])
            | (attacks::PAWN[by.other().index()][i] & self.kinds[Kind::Pawn.index()])
            | (attacks::rook(sq, self.occupied(), self.occ_rotated)
                & self.kinds[Kind::Rook.index()]))
            & them
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attackers(self.king(self.side), self.side.other()) != 0
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()].expect("a legal move starts on a man");
        let captured = self.board[to.index()];
        self.history.push(Undo {
            mv,
            captured,
            hash: self.hash,
            halfmove_clock: self.halfmove_clock,
        });
        if let Some(victim) = captured {
            self.toggle(to, victim);
        } else {
            self.occ_rotated ^= rotated_bit(to);
        }
        self.occ_rotated ^= rotated_bit(from);
        self.toggle(from, piece);
        let arrived = match mv.promotion() {
            Some(kind) => Piece {
                color: piece.color,
                kind,
            },
            None => piece,
        };
        self.toggle(to, arrived);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(arrived);
        if piece.kind == Kind::King {
            self.kings[piece.color.index()] = to;
        }
        if let Some(nnue) = &mut self.nnue {
            nnue.play(piece, (from, to), arrived, captured);
        }
        self.halfmove_clock = if captured.is_some() || piece.kind == Kind::Pawn {
            0
        } else {
            self.halfmove_clock + 1
        };
        if self.side == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
    }

    /// Takes back the last move; `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        let (from, to) = (undo.mv.from(), undo.mv.to());
        self.side = self.side.other();
        if self.side == Color::Black {
            self.fullmove_number -= 1;
        }
        let arrived = self.board[to.index()].expect("the moved man is on its target");
        let piece = match undo.mv.promotion() {
            Some(_) => Piece {
                color: arrived.color,
                kind: Kind::Pawn,
            },
            None => arrived,
        };
        self.toggle(to, arrived);
        self.toggle(from, piece);
        self.occ_rotated ^= rotated_bit(from);
        match undo.captured {
            Some(victim) => self.toggle(to, victim),
            None => self.occ_rotated ^= rotated_bit(to),
        }
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = undo.captured;
        if piece.kind == Kind::King {
            self.kings[piece.color.index()] = from;
        }
        self.hash = undo.hash;
        self.halfmove_clock = undo.halfmove_clock;
        if let Some(nnue) = &mut self.nnue {
            nnue.undo();
        }
        Some(undo.mv)
    }

    /// Passes the move (for the search's null-move test only; never a legal move).
    pub fn play_null(&mut self) {
        self.history.push(Undo {
            mv: Move(0),
            captured: None,
            hash: self.hash,
            halfmove_clock: self.halfmove_clock,
        });
        self.halfmove_clock += 1;
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
    }

    /// Takes back [`Position::play_null`].
    pub fn undo_null(&mut self) {
        let undo = self.history.pop().expect("a null move to take back");
        self.side = self.side.other();
        self.hash = undo.hash;
        self.halfmove_clock = undo.halfmove_clock;
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (i, piece) in self.board.iter().enumerate() {
            if let Some(p) = piece {
                h ^= ZOBRIST.pieces[p.index()][i];
            }
        }
        if self.side == Color::Black {
            h ^= ZOBRIST.black_to_move;
        }
        h
    }

    /// How often the current position has occurred, this time included. Only positions
    /// since the last capture or pawn move can repeat it.
    pub fn occurrences(&self) -> usize {
        let n = self.history.len();
        let window = (self.halfmove_clock as usize).min(n);
        (2..=window)
            .step_by(2)
            .filter(|&back| self.history[n - back].hash == self.hash)
            .count()
            + 1
    }

    /// Only the two kings are left.
    pub fn bare_kings(&self) -> bool {
        self.occupied() == self.kinds[Kind::King.index()]
    }

    /// The outcome, or `None` while the game goes on. A position without legal moves is
    /// judged first (mate or stalemate), then bare kings, repetition and the n-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        let side = self.side.index();
        let (reason, winner) = if self.count_legal() == 0 {
            if self.in_check() {
                (CHECKMATE, Some(1 - side))
            } else {
                (STALEMATE, None)
            }
        } else if self.bare_kings() {
            (BARE_KINGS, None)
        } else if self.occurrences() >= 3 {
            (REPETITION, None)
        } else if self
            .rules
            .n_move_rule
            .is_some_and(|n| u64::from(self.halfmove_clock) >= 2 * u64::from(n))
        {
            (N_MOVE_RULE, None)
        } else {
            return None;
        };
        let mut scores = vec![0, 0];
        if let Some(w) = winner {
            scores[w] = 1;
        }
        Some(Outcome { reason, scores })
    }

    /// Checks the invariants a loaded position must satisfy and the incremental state.
    pub(super) fn finish_setup(&mut self) {
        self.hash = self.hash_from_scratch();
    }
}
