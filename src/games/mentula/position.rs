//! The Mentula position: four players' pieces, the player to move, statura, make and
//! undo, hashing, repetition and the end of the game.

use super::board::{Bitboard, PLAYERS, SQUARES, Square, Squares};
use super::geometry::jump;
use super::reach;
use crate::game::{EndReason, Outcome, Verdict, next_turn, splitmix64};

// Every Mentula game ends by the scores (protocol-spec/rules/mentula.md, M8); the reasons only say why it stopped.
/// At most one player has pieces left.
pub const LAST_PLAYER: EndReason =
    EndReason::new("one player left", "One player left", Verdict::ByScores);
/// No player has a legal move.
pub const NO_MOVES: EndReason = EndReason::new(
    "no player can move",
    "No player can move",
    Verdict::ByScores,
);
/// No capture can ever happen again.
pub const NO_CAPTURES: EndReason = EndReason::new(
    "no capture possible",
    "No capture possible",
    Verdict::ByScores,
);
/// The same position for the third time.
pub const REPETITION: EndReason =
    EndReason::new("threefold repetition", "Repetition", Verdict::ByScores);
/// The capture limit (a rule option) ran out.
pub const CAPTURE_LIMIT: EndReason =
    EndReason::new("move limit", "Capture limit", Verdict::ByScores);
/// Every reason a game of Mentula ends for.
pub const END_REASONS: &[EndReason] = &[
    LAST_PLAYER,
    NO_MOVES,
    NO_CAPTURES,
    REPETITION,
    CAPTURE_LIMIT,
];

/// A jump: the piece on `from` jumps over the piece on `pivot` and lands on `to`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Jump {
    pub from: Square,
    pub pivot: Square,
    pub to: Square,
}

impl std::fmt::Debug for Jump {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.from, self.pivot, self.to)
    }
}

/// Why a player leaves the game (protocol-spec/rules/mentula.md, M11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Leaving {
    /// The player resigned.
    Resigned,
    /// The player's clock ran out.
    OutOfTime,
}

/// What the player to move does: a jump, or leaving the game (M11). Leaving is never
/// a legal move (the move generator and the searches know jumps only); a front end
/// plays it for a player who resigns or whose clock runs out, and records keep it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Jump(Jump),
    Leave(Leaving),
}

impl Move {
    /// The jump from `from` over `pivot` to `to`.
    pub const fn jump(from: Square, pivot: Square, to: Square) -> Move {
        Move::Jump(Jump { from, pivot, to })
    }
    /// The square a jump lands on; `None` for leaving.
    pub fn to(self) -> Option<Square> {
        match self {
            Move::Jump(jump) => Some(jump.to),
            Move::Leave(_) => None,
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Jump(jump) => jump.fmt(f),
            Move::Leave(why) => why.fmt(f),
        }
    }
}

/// How the end of a game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Every square some player can reach, shared equally among the players that can
    /// reach it (the default).
    Shared,
    /// The squares of a player's reach that no other player can reach (the earlier
    /// ruling).
    Exclusive,
    /// The pieces a player has left (the seed's "simple way").
    Pieces,
}

/// Rule options. The defaults are the rules of protocol-spec/rules/mentula.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub scoring: Scoring,
    /// The game ends after this many moves in a row without a capture; `None`: never.
    pub capture_limit: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            scoring: Scoring::Shared,
            capture_limit: Some(200),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<u8>,
    /// The men a player who left took off the board.
    removed: Bitboard,
    to_move: u8,
    since_capture: u32,
    round: u32,
    hash: u64,
}

struct Zobrist {
    men: [[u64; SQUARES]; PLAYERS],
    to_move: [u64; PLAYERS],
}

static ZOBRIST: Zobrist = {
    let mut men = [[0u64; SQUARES]; PLAYERS];
    let mut to_move = [0u64; PLAYERS];
    let mut state = 0x4D45_4E54_u64;
    let mut p = 0;
    while p < PLAYERS {
        let mut s = 0;
        while s < SQUARES {
            let (next, key) = splitmix64(state);
            state = next;
            men[p][s] = key;
            s += 1;
        }
        let (next, key) = splitmix64(state);
        state = next;
        to_move[p] = key;
        p += 1;
    }
    Zobrist { men, to_move }
};

/// A Mentula position with its history.
#[derive(Clone)]
pub struct Position {
    men: [Bitboard; PLAYERS],
    to_move: usize,
    since_capture: u32,
    round: u32,
    hash: u64,
    history: Vec<Undo>,
    rules: Rules,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", super::fen::format(self))
    }
}

impl Position {
    /// A position from its parts; the caller (the position reader) validates them.
    pub(super) fn from_parts(
        men: [Bitboard; PLAYERS],
        to_move: usize,
        since_capture: u32,
        round: u32,
    ) -> Position {
        let mut position = Position {
            men,
            to_move,
            since_capture,
            round,
            hash: 0,
            history: Vec::new(),
            rules: Rules::default(),
        };
        position.hash = position.hash_from_scratch();
        position
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }
    /// The player whose turn it is.
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    /// Moves made since the last capture.
    pub fn since_capture(&self) -> u32 {
        self.since_capture
    }
    /// The round: it grows each time the turn passes Magenta's seat to White's.
    pub fn round(&self) -> u32 {
        self.round
    }
    /// The pieces of one player.
    pub fn men(&self, player: usize) -> Bitboard {
        self.men[player]
    }
    /// All players' pieces.
    pub fn all_men(&self) -> &[Bitboard; PLAYERS] {
        &self.men
    }
    /// The player whose piece stands on `sq`.
    pub fn owner(&self, sq: Square) -> Option<usize> {
        (0..PLAYERS).find(|&p| self.men[p] & sq.bit() != 0)
    }
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = ZOBRIST.to_move[self.to_move];
        for p in 0..PLAYERS {
            for sq in Squares::new(self.men[p]) {
                h ^= ZOBRIST.men[p][sq.index()];
            }
        }
        h
    }

    /// Feeds every move of `player` to `visit`, as if it were that player's turn.
    #[inline]
    fn for_each_move(&self, player: usize, mut visit: impl FnMut(Move)) {
        let own = self.men[player];
        for from in Squares::new(own) {
            for pivot in Squares::new(own & !from.bit()) {
                if let Some(to) = jump(from, pivot)
                    && own & to.bit() == 0
                {
                    visit(Move::jump(from, pivot, to));
                }
            }
        }
    }

    /// The moves `player` would have if it were that player's turn.
    pub fn moves_of(&self, player: usize, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_move(player, |mv| out.push(mv));
    }

    /// The legal moves of the player to move (none once the game is over by (b)).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.moves_of(self.to_move, out);
    }

    /// The number of legal moves of the player to move.
    pub fn count_legal(&self) -> u64 {
        let mut n = 0;
        self.for_each_move(self.to_move, |_| n += 1);
        n
    }

    /// Whether `player` has a legal move; a player without one is in statura.
    pub fn can_move(&self, player: usize) -> bool {
        let own = self.men[player];
        Squares::new(own).any(|from| {
            Squares::new(own & !from.bit())
                .any(|pivot| jump(from, pivot).is_some_and(|to| own & to.bit() == 0))
        })
    }

    /// Plays a legal move (or leaving, M11), then hands the turn to the next player in
    /// order who can move (players in statura are skipped); if nobody can, to the next
    /// in order.
    pub fn play(&mut self, mv: Move) {
        let mover = self.to_move;
        let mut undo = Undo {
            mv,
            captured: None,
            removed: 0,
            to_move: mover as u8,
            since_capture: self.since_capture,
            round: self.round,
            hash: self.hash,
        };
        match mv {
            Move::Jump(jump) => {
                let captured =
                    (0..PLAYERS).find(|&p| p != mover && self.men[p] & jump.to.bit() != 0);
                undo.captured = captured.map(|p| p as u8);
                if let Some(victim) = captured {
                    self.men[victim] ^= jump.to.bit();
                    self.hash ^= ZOBRIST.men[victim][jump.to.index()];
                }
                self.men[mover] ^= jump.from.bit() | jump.to.bit();
                self.hash ^=
                    ZOBRIST.men[mover][jump.from.index()] ^ ZOBRIST.men[mover][jump.to.index()];
                self.since_capture = if captured.is_some() {
                    0
                } else {
                    self.since_capture + 1
                };
            }
            Move::Leave(_) => {
                // The leaver's men go, as if all were captured: no earlier position
                // can recur and the count towards the capture limit starts again.
                undo.removed = self.men[mover];
                for sq in Squares::new(self.men[mover]) {
                    self.hash ^= ZOBRIST.men[mover][sq.index()];
                }
                self.men[mover] = 0;
                self.since_capture = 0;
            }
        }
        self.history.push(undo);
        let (next, new_round) = next_turn(mover, PLAYERS, |p| self.can_move(p));
        if new_round {
            self.round += 1;
        }
        self.hash ^= ZOBRIST.to_move[mover] ^ ZOBRIST.to_move[next];
        self.to_move = next;
    }

    /// Takes back the last move; `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        let mover = undo.to_move as usize;
        match undo.mv {
            Move::Jump(jump) => {
                self.men[mover] ^= jump.from.bit() | jump.to.bit();
                if let Some(victim) = undo.captured {
                    self.men[victim as usize] ^= jump.to.bit();
                }
            }
            Move::Leave(_) => self.men[mover] = undo.removed,
        }
        self.to_move = mover;
        self.since_capture = undo.since_capture;
        self.round = undo.round;
        self.hash = undo.hash;
        Some(undo.mv)
    }

    /// How often the current position (pieces and player to move) has occurred, this
    /// time included. Only positions since the last capture can repeat it.
    pub fn occurrences(&self) -> usize {
        let n = self.history.len();
        let window = (self.since_capture as usize).min(n);
        (1..=window)
            .filter(|&back| self.history[n - back].hash == self.hash)
            .count()
            + 1
    }

    /// The scores under the position's scoring rule, were the game to end now, in
    /// twelfths ([`reach::SCORE_UNITS`]) whatever the rule, so that a square shared by
    /// two, three or four players counts exactly.
    pub fn scores(&self) -> [i32; PLAYERS] {
        match self.rules.scoring {
            Scoring::Shared => reach::shared_scores(&self.men),
            Scoring::Exclusive => reach::exclusive_scores(&self.men),
            Scoring::Pieces => {
                std::array::from_fn(|p| self.men[p].count_ones() as i32 * reach::SCORE_UNITS)
            }
        }
    }

    /// The outcome, or `None` while the game goes on. The end conditions of protocol-spec/rules/mentula.md (M9)
    /// are checked in their order (a) to (e).
    pub fn outcome(&self) -> Option<Outcome> {
        let with_pieces = self.men.iter().filter(|&&m| m != 0).count();
        let reason = if with_pieces <= 1 {
            LAST_PLAYER
        } else if !(0..PLAYERS).any(|p| self.can_move(p)) {
            NO_MOVES
        } else if !reach::capture_possible(&self.men) {
            NO_CAPTURES
        } else if self.occurrences() >= 3 {
            REPETITION
        } else if self
            .rules
            .capture_limit
            .is_some_and(|limit| self.since_capture >= limit)
        {
            CAPTURE_LIMIT
        } else {
            return None;
        };
        Some(Outcome {
            reason,
            scores: self.scores().to_vec(),
        })
    }
}
