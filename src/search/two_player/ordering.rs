//! The order in which a node tries its moves: the table's move, captures that do not
//! lose by the exchange, killers and the counter move, the quiet moves by their
//! histories, and losing captures last. A cutoff found early saves the rest of the
//! node, so the keys are computed once and the node picks the best remaining move
//! (selection sort) as it goes.

use super::TwoPlayerGame;
use super::threads::Thread;

/// The order key of the table's move; captures and promotions that do not lose by
/// the exchange have keys from [`GOOD_CAPTURE`] up to it.
pub(super) const TABLE_MOVE: i32 = 1 << 30;
pub(super) const GOOD_CAPTURE: i32 = 1 << 29;

/// The moves a node knows as likely good before it orders the rest (packed).
#[derive(Clone, Copy, Debug)]
pub(super) struct KnownMoves {
    /// The transposition table's best move here.
    pub(super) table: Option<u32>,
    /// The quiet move that last refuted the move before (0: none).
    pub(super) counter: u32,
}

impl<M: Copy> Thread<M> {
    /// The order keys of `moves` at `ply` into `keys` (higher first); `selective`: the
    /// quiet moves ordered by the continuation histories too.
    pub(super) fn order_keys<G: TwoPlayerGame<Move = M>>(
        &self,
        position: &G,
        moves: &[M],
        keys: &mut Vec<i32>,
        known: KnownMoves,
        ply: usize,
        selective: bool,
    ) {
        let KnownMoves {
            table: tt_move,
            counter,
        } = known;
        let killers = self.killers[ply];
        keys.clear();
        keys.extend(moves.iter().map(|&mv| {
            let packed = G::pack(mv);
            if Some(packed) == tt_move {
                TABLE_MOVE
            } else if position.is_tactical(mv) {
                // Captures that lose by the exchange go last, after the quiet moves.
                if G::SELECTIVE && !position.exchange_at_least(mv, 0) {
                    -(1 << 20) + position.tactical_order(mv)
                } else {
                    GOOD_CAPTURE + position.tactical_order(mv)
                }
            } else if packed == killers[0] {
                1 << 28
            } else if packed == killers[1] {
                (1 << 28) - 1
            } else if packed == counter {
                (1 << 28) - 2
            } else if selective {
                let (one, two) = self.continuation(ply, position.piece_to(mv));
                2 * self.history[position.history_index(mv)] + one + two
            } else {
                self.history[position.history_index(mv)].min((1 << 27) - 1)
            }
        }));
    }
}
