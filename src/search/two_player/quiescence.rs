//! Quiescence search: below the horizon only captures (and promotions) are searched,
//! and the side to move may stand pat on its static evaluation, so that the full-width
//! search never ends its line in the middle of an exchange.

use super::oracle::proven_cutoff;
use super::threads::Thread;
use super::{Context, MAX_PLY, Turn, TwoPlayerGame};
use crate::search::{INFINITY, Value};

/// Quiescence searches at most this many plies below the horizon.
const QUIESCENCE_PLIES: u32 = 16;
/// Within this many plies below the horizon, a side in check tries every evasion;
/// deeper it may only stand pat or capture.
const QUIESCENCE_EVASION_PLIES: u32 = 4;

impl<M: Copy> Thread<M> {
    /// The value of `position` at the horizon, `ply` plies from the root.
    pub(super) fn quiescence<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        ply: u32,
        alpha: Value,
        beta: Value,
        ctx: &Context<G>,
    ) -> Value {
        self.quiescence_at(position, ply, 0, alpha, beta, ctx)
    }

    /// Quiescence `depth` plies below the horizon. Check evasions are searched in full
    /// only near the horizon: chains of checks and evasions can otherwise grow without
    /// practical bound in positions with many men.
    fn quiescence_at<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        ply: u32,
        depth: u32,
        mut alpha: Value,
        beta: Value,
        ctx: &Context<G>,
    ) -> Value {
        self.poll(ctx);
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(value) = position.rule_end(ply) {
            return value;
        }
        if let Some(value) = proven_cutoff(position, ctx.oracle, alpha, beta) {
            return value;
        }
        let in_check = position.in_check() && depth < QUIESCENCE_EVASION_PLIES;
        if ply as usize >= MAX_PLY - 1 || depth >= QUIESCENCE_PLIES {
            return position.evaluate();
        }
        // Standing pat: out of check the side to move may decline every capture. (A
        // stalemate is not looked for here, as quiescence searches captures only.)
        let mut best = -INFINITY;
        if !in_check {
            best = position.evaluate();
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = Vec::with_capacity(64);
        if in_check {
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                return position.no_moves_value(ply);
            }
        } else {
            position.tactical_moves(&mut moves);
        }
        moves.sort_by_cached_key(|&m| -position.tactical_order(m));
        for mv in moves {
            // A capture that loses material by the exchange cannot raise a standing pat.
            if G::SELECTIVE && !in_check && !position.exchange_at_least(mv, 0) {
                continue;
            }
            let mover = position.to_move();
            position.play(mv);
            let value = Turn::after(mover, position).value(alpha, beta, |a, b| {
                self.quiescence_at(position, ply + 1, depth + 1, a, b, ctx)
            });
            position.undo();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
