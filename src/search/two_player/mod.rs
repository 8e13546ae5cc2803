//! Alpha-beta for the two-player games (Sena-Mukha, Mangala II).
//!
//! Iterative deepening principal-variation search with aspiration windows, a
//! transposition table, quiescence search, move ordering (TT move, captures by
//! most-valuable-victim, killers, history), null-move pruning and late-move reductions
//! where the game allows them, a check extension, and the rules' draws and ends inside
//! the tree; for a game that asks for it ([`TwoPlayerGame::SELECTIVE`]) the search is
//! selective in the manner of the strong chess engines, so that each extra ply costs
//! less than twice the nodes (`ludus tree` measures it). Scores are from the side to
//! move's point of view; forced wins are `MATE - plies`, so the faster win is preferred.
//!
//! Players need not alternate: in Mangala II a move that empties the opponent's row
//! makes the opponent pass, and the mover moves again. Every child is therefore seen
//! through [`Turn`], which negates its value and flips the window only when the turn
//! really changed hands.
//!
//! One file per concern, as Stockfish splits its search, so that each part can be read
//! (and changed) without the others:
//!
//! - `mod.rs`: what a game implements ([`TwoPlayerGame`]), and what every file shares:
//!   [`Turn`], the search's `Context`, the ply limit.
//! - `threads.rs`: the [`Searcher`] and its threads (Lazy SMP): their set-up, the helper
//!   threads, the per-ply `Frame` stack, and polling the clock and the stop flag.
//! - `iterate.rs`: iterative deepening, aspiration windows, MultiPV lines and what the
//!   root reports (its best line, the root move being searched), and when a mate ends it.
//! - `node.rs`: one node of the full-width search, its steps numbered in order (table
//!   probe, pruning, null move, singular extension, the move loop with its reductions,
//!   the table store), and the search's tuned margins.
//! - `quiescence.rs`: captures (and check evasions) below the horizon.
//! - `ordering.rs`: the order keys of a node's moves.
//! - `history.rs`: the history, continuation histories and counter moves, and how a
//!   cutoff rewards them.
//! - `time.rs`: how settled the deepening is, which stretches or shrinks the clock.
//! - `tt_value.rs`: mate scores as the table stores them (relative to the node).
//! - `oracle.rs`: proven bounds handed in by the game (an endgame table).

mod history;
mod iterate;
mod node;
mod oracle;
mod ordering;
mod quiescence;
mod threads;
mod time;
mod tt_value;

pub use oracle::Oracle;
pub use threads::{MAX_THREADS, Searcher};

use super::limits::Budget;
use super::tt::TranspositionTable;
use super::{INFINITY, Value};
use crate::game::{Game, Player};
use std::sync::atomic::{AtomicBool, AtomicU64};

/// What alpha-beta needs from a two-player game beyond the rules.
pub trait TwoPlayerGame: Game {
    /// The static evaluation from the side to move's point of view (mutable, so that an
    /// evaluation may bring what it keeps along the line up to date: Sena-Mukha's
    /// network accumulators).
    fn evaluate(&mut self) -> Value;
    /// If the rules end the game here whatever is played (a draw rule, a repetition
    /// inside the search, a move limit), its value for the side to move; `ply` is the
    /// distance from the root.
    fn rule_end(&self, ply: u32) -> Option<Value>;
    /// The value for the side to move when it has no legal move.
    fn no_moves_value(&self, ply: u32) -> Value;
    /// Captures (and promotions): searched by quiescence, never reduced.
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// The order of tactical moves: higher first (most valuable victim, least valuable
    /// attacker).
    fn tactical_order(&self, mv: Self::Move) -> i32;
    /// The legal captures and promotions (quiescence); by default the legal moves
    /// that [`TwoPlayerGame::is_tactical`] accepts.
    fn tactical_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
        out.retain(|&m| self.is_tactical(m));
    }
    /// Whether the side to move is in check (extended, no standing pat).
    fn in_check(&self) -> bool {
        false
    }
    /// Whether passing the move is a sound test here (no zugzwang risk).
    fn null_move_allowed(&self) -> bool {
        false
    }
    fn play_null(&mut self) {}
    fn undo_null(&mut self) {}
    /// Whether the search is selective, as measured for Sena-Mukha (a game that does
    /// not set it keeps the plain search; Mangala II: not measured there):
    ///
    /// - move ordering by a history, continuation histories one and two plies back,
    ///   killers and a counter move, losing captures last;
    /// - late-move reductions from a table in the logarithms of depth and move number,
    ///   more at expected cut nodes, when the side's evaluation is not improving and
    ///   after a capture from the table, less at PV nodes, for killers and counter
    ///   moves, and by the move's histories;
    /// - pruning near the horizon: reverse futility, razoring, late-move pruning by a
    ///   count growing with the depth squared, quiet moves with bad continuation
    ///   histories, futility of quiet moves, captures that lose by the exchange (never
    ///   a move that gives check, never before a move has escaped a mate);
    /// - a null move whose reduction grows with the depth and the evaluation's margin,
    ///   internal iterative reductions.
    ///
    /// Singular extensions (the table's move a ply deeper when a search without it, at
    /// half the depth from depth 7, falls 2 cp a ply short of the table's value; the
    /// multi-cut when even that beats beta) lost at 3+0.03 on the plainer search before
    /// this one (19-22-38 in 79 games) and are not done; nor is a correction history.
    const SELECTIVE: bool = false;
    /// Whether `mv` loses no more than `-threshold` by the exchange it starts on its
    /// target square (static exchange evaluation): `see(mv) >= threshold`. By default
    /// every move passes, so nothing is pruned by exchanges.
    fn exchange_at_least(&self, _mv: Self::Move, _threshold: Value) -> bool {
        true
    }
    /// How many more moves the side to move expects to make in this game, for the
    /// clock when the control does not say.
    fn expected_moves_left(&self) -> u32 {
        30
    }
    /// The move packed into a non-zero number (for the table and killers).
    fn pack(mv: Self::Move) -> u32;
    /// An index below [`HISTORY_SIZE`] for the history heuristic.
    fn history_index(&self, mv: Self::Move) -> usize;
    /// An index below [`PIECE_TO_SIZE`] of the man that makes `mv` and its target,
    /// for the continuation histories and counter moves (the selective search).
    fn piece_to(&self, _mv: Self::Move) -> usize {
        0
    }
}

/// Entries of the history table: the bound on [`TwoPlayerGame::history_index`].
pub const HISTORY_SIZE: usize = 1 << 16;
/// The bound on [`TwoPlayerGame::piece_to`]: a continuation history has this many
/// squared entries.
pub const PIECE_TO_SIZE: usize = 1280;

/// What every node of one search reads: its deadlines, the shared table and its
/// oracle.
struct Context<'a, G> {
    budget: &'a Budget,
    tt: &'a TranspositionTable,
    /// For a helper thread: set when the main thread has finished.
    done: Option<&'a AtomicBool>,
    /// The helpers' nodes, added every few hundred.
    helper_nodes: &'a AtomicU64,
    oracle: Option<Oracle<'a, G>>,
    /// A mate search: no selective pruning (null move, late move reductions) and no
    /// table cutoffs from earlier, selective searches, so that a search to depth `d`
    /// finds every mate within `d` plies.
    exhaustive: bool,
    /// The main thread tells its root move here (see [`super::RootMoves`]).
    root_moves: Option<&'a super::RootMoves>,
}

/// The deepest ply of a line (the search and quiescence evaluate there).
const MAX_PLY: usize = 128;

/// The static evaluation where none is taken (in check, or by a search that does not
/// prune by it).
const NO_EVAL: Value = -INFINITY;

/// How the value of a position reached by a move is seen by the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    /// The other player moves next: the child's value is negated (negamax).
    Changes,
    /// The same player moves again (the other passes): the child's value is the
    /// mover's own.
    Stays,
}

impl Turn {
    /// The turn between `mover` and whoever moves in `child`, the position after
    /// `mover`'s move.
    fn after<G: Game>(mover: Player, child: &G) -> Turn {
        if child.to_move() == mover {
            Turn::Stays
        } else {
            Turn::Changes
        }
    }

    /// The child's value from the mover's view, searched by `search` in the window
    /// that corresponds to the mover's `(alpha, beta)`.
    #[inline]
    fn value(self, alpha: Value, beta: Value, search: impl FnOnce(Value, Value) -> Value) -> Value {
        match self {
            Turn::Changes => -search(-beta, -alpha),
            Turn::Stays => search(alpha, beta),
        }
    }
}
