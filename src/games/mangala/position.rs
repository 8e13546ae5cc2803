//! The Mangala II position: twelve pits, the captures, the player to move; sowing,
//! captures, passes and the end of the game.
//!
//! Pits are numbered in sowing order: 0..6 are South's A..F (from South's left), 6..12
//! North's a..f (from North's left), so sowing goes to the next number, modulo 12.
//! A position is 16 bytes, so `play` keeps whole copies for `undo`: cheaper than
//! reversing a sowing with its captures.

use crate::game::{EndReason, Outcome, Verdict, next_turn};

/// Every pit is empty: the captures decide.
pub const BOARD_EMPTY: EndReason =
    EndReason::new("all pits empty", "All pits empty", Verdict::ByScores);
/// The same position for the third time: each row's counters go to its owner, and the
/// totals decide.
pub const REPETITION: EndReason = EndReason::new(
    "threefold repetition",
    "Repetition, counters to their rows",
    Verdict::ByScores,
);
/// The ply limit (a rule option) was reached: the totals decide as after a repetition.
pub const PLY_LIMIT: EndReason = EndReason::new(
    "move limit",
    "Ply limit, counters to their rows",
    Verdict::ByScores,
);
/// Every reason a game of Mangala II ends for.
pub const END_REASONS: &[EndReason] = &[BOARD_EMPTY, REPETITION, PLY_LIMIT];

/// Pits on the board.
pub const PITS: usize = 12;
/// Pits in each row.
pub const ROW: usize = 6;
/// Counters in the game.
pub const COUNTERS: u32 = 72;
/// South moves first.
pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;

/// A move: the pit sown, 0..12.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(pub u8);

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", super::text::pit_letter(self.0 as usize))
    }
}

/// Rule options. The defaults are the rules of protocol-spec/rules/mangala.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Sowing 12 or more counters leaves the origin pit out (off by default).
    pub skip_origin: bool,
    /// The game ends after this many moves; `None`: never (default 1000).
    pub ply_limit: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            skip_origin: false,
            ply_limit: Some(1000),
        }
    }
}

/// What the rules look at: pits, captures and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub pits: [u8; PITS],
    pub captured: [u8; 2],
    pub to_move: u8,
    /// Moves made since the position was set up (for the ply limit).
    pub plies: u32,
    pub round: u32,
}

impl State {
    /// Sows the pit of `mv`, credits the captures to the mover, and hands the turn on
    /// (a player whose row is empty passes).
    #[inline]
    pub fn apply(&mut self, mv: Move, skip_origin: bool) {
        let mover = self.to_move as usize;
        let taken = sow(&mut self.pits, mv.0 as usize, skip_origin);
        self.captured[mover] += taken;
        self.plies += 1;
        let pits = self.pits;
        let (next, new_round) = next_turn(mover, 2, |p| has_counters(&pits, p));
        self.to_move = next as u8;
        if new_round {
            self.round += 1;
        }
    }
}

/// The non-empty pits of `player`'s row.
#[inline(always)]
fn count_nonempty(pits: &[u8; PITS], player: usize) -> u64 {
    // Per byte: the high bit of (low 7 bits + 0x7f) | byte is set iff the byte is not 0.
    const LOW7: u64 = 0x7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080;
    let word = row_word(pits, player);
    ((((word & LOW7) + LOW7) | word) & HIGH).count_ones() as u64
}

/// A Mangala II position with its history.
#[derive(Clone)]
pub struct Position {
    state: State,
    history: Vec<(State, Move)>,
    rules: Rules,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", super::text::format_position(self))
    }
}

/// The pits of `player`'s row.
#[inline(always)]
pub fn row(player: usize) -> std::ops::Range<usize> {
    player * ROW..player * ROW + ROW
}

/// The six pits of `player`'s row as the low 48 bits of a word, one byte a pit.
#[inline(always)]
fn row_word(pits: &[u8; PITS], player: usize) -> u64 {
    let r = &pits[row(player)];
    u64::from_le_bytes([r[0], r[1], r[2], r[3], r[4], r[5], 0, 0])
}

/// Whether `player`'s row holds a counter.
#[inline(always)]
fn has_counters(pits: &[u8; PITS], player: usize) -> bool {
    row_word(pits, player) != 0
}

impl Position {
    /// A position from its parts; the position reader validates them.
    pub(super) fn from_parts(pits: [u8; PITS], captured: [u8; 2], to_move: usize) -> Position {
        Position {
            state: State {
                pits,
                captured,
                to_move: to_move as u8,
                plies: 0,
                round: 1,
            },
            history: Vec::new(),
            rules: Rules::default(),
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    pub fn pits(&self) -> &[u8; PITS] {
        &self.state.pits
    }
    pub fn captured(&self, player: usize) -> u32 {
        self.state.captured[player] as u32
    }
    pub fn to_move(&self) -> usize {
        self.state.to_move as usize
    }
    pub fn round(&self) -> u32 {
        self.state.round
    }
    /// Whether `player` can sow (has a counter in its row).
    pub fn can_move(&self, player: usize) -> bool {
        has_counters(&self.state.pits, player)
    }

    /// The legal moves: every non-empty pit of the mover's row.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let mover = self.to_move();
        out.extend(
            row(mover)
                .filter(|&p| self.state.pits[p] != 0)
                .map(|p| Move(p as u8)),
        );
    }

    /// The number of legal moves.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        count_nonempty(&self.state.pits, self.to_move())
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        row(self.to_move()).contains(&(mv.0 as usize)) && self.state.pits[mv.0 as usize] != 0
    }

    /// Plays a legal move: sows the pit, captures, and hands the turn on (a player
    /// whose row is empty passes).
    pub fn play(&mut self, mv: Move) {
        self.history.push((self.state, mv));
        self.state.apply(mv, self.rules.skip_origin);
    }

    /// Perft by copying states (cheaper than play and undo here), the last ply counted
    /// in bulk. Like every perft it counts the tree of moves only.
    pub fn perft(&self, depth: u32) -> u64 {
        fn walk(state: &State, depth: u32, skip_origin: bool) -> u64 {
            let mover = state.to_move as usize;
            if depth == 1 {
                return count_nonempty(&state.pits, mover);
            }
            let mut nodes = 0;
            for pit in row(mover) {
                if state.pits[pit] != 0 {
                    let mut next = *state;
                    next.apply(Move(pit as u8), skip_origin);
                    nodes += walk(&next, depth - 1, skip_origin);
                }
            }
            nodes
        }
        if depth == 0 {
            return 1;
        }
        walk(&self.state, depth, self.rules.skip_origin)
    }

    /// Takes back the last move; `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let (state, mv) = self.history.pop()?;
        self.state = state;
        Some(mv)
    }

    /// A hash of pits, player to move and captures: everything a position's value
    /// depends on (the search's table keys on it).
    pub fn zobrist(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in self
            .state
            .pits
            .iter()
            .chain([self.state.to_move, self.state.captured[0]].iter())
        {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    /// How often the current pits with the current player to move have occurred, this
    /// time included. A capture changes the counters on the board for good, so only
    /// positions since the last capture are compared.
    pub fn occurrences(&self) -> usize {
        let on_board: u32 = self.state.pits.iter().map(|&c| c as u32).sum();
        let mut count = 1;
        for (state, _) in self.history.iter().rev() {
            if state.pits.iter().map(|&c| c as u32).sum::<u32>() != on_board {
                break;
            }
            if state.pits == self.state.pits && state.to_move == self.state.to_move {
                count += 1;
            }
        }
        count
    }

    /// The outcome, or `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let s = &self.state;
        let reason = if s.pits.iter().all(|&c| c == 0) {
            BOARD_EMPTY
        } else if self.occurrences() >= 3 {
            REPETITION
        } else if self.rules.ply_limit.is_some_and(|limit| s.plies >= limit) {
            PLY_LIMIT
        } else {
            return None;
        };
        // Counters still on the board go to the owner of their row.
        let scores = (0..2)
            .map(|p| s.captured[p] as i32 + s.pits[row(p)].iter().map(|&c| c as i32).sum::<i32>())
            .collect();
        Some(Outcome { reason, scores })
    }
}

/// Sows the pit `origin` and makes the captures; returns the counters captured.
///
/// The first counter goes into the pit after the origin. With 12 or more counters the
/// sowing passes through the origin like any other pit, unless `skip_origin`. The last
/// pit is captured if it now holds 2, 4 or 6 (even the origin pit itself); then the pits
/// before it along the sowing path, while they hold 2, 4 or 6, stopping before the origin.
#[inline]
pub fn sow(pits: &mut [u8; PITS], origin: usize, skip_origin: bool) -> u8 {
    let n = pits[origin] as usize;
    pits[origin] = 0;
    let cycle = if skip_origin { PITS - 1 } else { PITS };
    let (laps, rest) = (n / cycle, n % cycle);
    if laps > 0 {
        for pit in pits.iter_mut() {
            *pit += laps as u8;
        }
        if skip_origin {
            pits[origin] -= laps as u8;
        }
    }
    // The `rest` pits after the origin (in the cycle) get one more.
    let mut pit = origin;
    for _ in 0..rest {
        pit = next_pit(pit, origin, skip_origin);
        pits[pit] += 1;
    }
    let last = if rest > 0 {
        pit
    } else if skip_origin {
        (origin + PITS - 1) % PITS
    } else {
        origin
    };
    let mut taken = 0;
    let mut pit = last;
    loop {
        if !matches!(pits[pit], 2 | 4 | 6) {
            break;
        }
        taken += pits[pit];
        pits[pit] = 0;
        pit = (pit + PITS - 1) % PITS;
        if pit == origin {
            break;
        }
    }
    taken
}

/// The pit a sowing from `origin` drops its next counter in after `pit`.
#[inline(always)]
pub(super) fn next_pit(pit: usize, origin: usize, skip_origin: bool) -> usize {
    let next = (pit + 1) % PITS;
    if skip_origin && next == origin {
        (next + 1) % PITS
    } else {
        next
    }
}
