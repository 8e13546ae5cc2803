//! One node of the full-width search, in the steps Stockfish's `search.cpp` numbers:
//! the early ends (rules, mate distance, the oracle), the table's probe, the static
//! evaluation, the pruning of the whole node (reverse futility, razoring, null move),
//! the ordering of its moves and the singular extension of the table's move, then the
//! move loop (reductions, pruning, the principal-variation search of each move, the
//! histories' reward at a cutoff), and the table's store. The steps are in the order
//! the node takes them; the margins that tune them are the constants below.

use super::history::NO_PIECE_TO;
use super::oracle::proven_cutoff;
use super::ordering::{GOOD_CAPTURE, KnownMoves, TABLE_MOVE};
use super::threads::Thread;
use super::tt_value::{from_tt, to_tt};
use super::{Context, MAX_PLY, NO_EVAL, Turn, TwoPlayerGame};
use crate::search::tt::Bound;
use crate::search::{INFINITY, MATE, MATE_BOUND, Value};

/// The reduction table's shape: `LMR_BASE + ln(depth) ln(count) / LMR_DIVISOR` plies.
const LMR_BASE: f64 = 0.3;
const LMR_DIVISOR: f64 = 1.9;
/// Singular extensions: from this depth on, a table move that beats every other move
/// by `SINGULAR_MARGIN` a ply (searched to half the depth) is searched a ply deeper.
const SINGULAR_DEPTH: i32 = 7;
const SINGULAR_MARGIN: Value = 2;
/// Reverse futility pruning: within this many plies of the horizon, a node whose
/// evaluation beats beta by this margin a ply is cut.
const REVERSE_FUTILITY_DEPTH: i32 = 8;
const REVERSE_FUTILITY_MARGIN: Value = 70;
/// A quiet move whose continuation histories sum below minus this a ply is pruned
/// near the horizon.
const HISTORY_PRUNING: i32 = 4_000;

/// What a node is asked: its window, the depth left to the horizon, its distance from
/// the root, and what kind of node its parent expects (Stockfish's `PvNode` and
/// `cutNode`), so that every call names what it passes.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeCall {
    /// Plies to the horizon (quiescence at 0 and below).
    pub(super) depth: i32,
    /// Plies from the root.
    pub(super) ply: u32,
    pub(super) alpha: Value,
    pub(super) beta: Value,
    /// On the principal variation: searched with an open window.
    pub(super) is_pv: bool,
    /// Expected to fail high (reduced more).
    pub(super) cut_node: bool,
}

impl NodeCall {
    /// The root, searched to `depth` in the window `alpha..beta`.
    pub(super) fn root(depth: u32, alpha: Value, beta: Value) -> NodeCall {
        NodeCall {
            depth: depth as i32,
            ply: 0,
            alpha,
            beta,
            is_pv: true,
            cut_node: false,
        }
    }
}

/// The base reduction of the search of the `count`-th move (from 1) at `depth`, in
/// 1/1024 plies: it grows with the logarithms of both, as in the strong chess engines.
fn late_move_reduction_1024(depth: i32, count: usize) -> i32 {
    static TABLE: std::sync::LazyLock<Vec<[i32; 64]>> = std::sync::LazyLock::new(|| {
        (0..64)
            .map(|depth| {
                std::array::from_fn(|count| {
                    if depth == 0 || count == 0 {
                        0
                    } else {
                        (1024.0
                            * (LMR_BASE + (depth as f64).ln() * (count as f64).ln() / LMR_DIVISOR))
                            as i32
                    }
                })
            })
            .collect()
    });
    TABLE[depth.clamp(0, 63) as usize][count.min(63)]
}

impl<M: Copy> Thread<M> {
    /// The value of `position` for the side to move, searched as `call` asks.
    pub(super) fn negamax<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        call: NodeCall,
        ctx: &Context<G>,
    ) -> Value {
        // This ply's move list is lent to the node and given back after it.
        let ply = call.ply as usize;
        let mut list = std::mem::take(&mut self.lists[ply]);
        let value = self.node(position, call, ctx, &mut list);
        self.lists[ply] = list;
        value
    }

    /// Whether the side to move at `ply` has a better static evaluation than at its
    /// turn before (two plies up, or four when it was in check then); true when
    /// neither is known.
    fn improving(&self, ply: usize, static_eval: Value) -> bool {
        if static_eval == NO_EVAL {
            return false;
        }
        for back in [2, 4] {
            if let Some(before) = ply.checked_sub(back).map(|p| self.frames[p].static_eval)
                && before != NO_EVAL
            {
                return static_eval > before;
            }
        }
        true
    }

    /// The node itself, with this ply's move list lent by [`Thread::negamax`].
    fn node<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        call: NodeCall,
        ctx: &Context<G>,
        list: &mut (Vec<M>, Vec<i32>),
    ) -> Value {
        let NodeCall {
            mut depth,
            ply,
            mut alpha,
            beta,
            is_pv,
            cut_node,
        } = call;
        let ply_index = ply as usize;
        self.pv[ply_index].clear();
        // Step 1. Early ends below the root: the rules' end, mate distance pruning, the
        // oracle's proven value.
        if ply > 0 {
            if let Some(value) = position.rule_end(ply) {
                return value;
            }
            // Mate distance pruning: nothing here beats a mate already found nearer.
            let (mate_alpha, mate_beta) = (
                alpha.max(-MATE + ply as i32),
                beta.min(MATE - ply as i32 - 1),
            );
            if mate_alpha >= mate_beta {
                return mate_alpha;
            }
            if let Some(value) = proven_cutoff(position, ctx.oracle, alpha, beta) {
                return value;
            }
        }
        // Step 2. The deepest ply: the static evaluation.
        if ply_index >= MAX_PLY - 1 {
            return position.evaluate();
        }
        // Step 3. The check extension.
        let in_check = position.in_check();
        // The check extension only in the plain and exhaustive searches: without it the
        // selective tree to a fixed depth is a third smaller (benches/README.md), and
        // mates are proven by the exhaustive search, which keeps it.
        if in_check && (!G::SELECTIVE || ctx.exhaustive) {
            depth += 1;
        }
        // Step 4. At the horizon: quiescence.
        if depth <= 0 {
            return self.quiescence(position, ply, alpha, beta, ctx);
        }
        // Step 5. A node counted; the clock and the stop polled.
        self.poll(ctx);
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 6. The transposition table: its move, and a cutoff by its value where
        // it was searched deep enough (never on the principal variation).
        let key = position.hash();
        let entry = ctx.tt.probe(key);
        self.tree.table_probes += 1;
        self.tree.table_hits += u64::from(entry.is_some());
        let tt_move = entry.and_then(|e| e.best);
        // A singular search leaves out the table's move: the table's value, which
        // counts that move, says nothing of the others.
        let excluded = self.frames[ply_index].excluded;
        if let Some(e) = entry
            && !is_pv
            && excluded.is_none()
            && e.depth as i32 >= depth
            && (e.fresh || !ctx.exhaustive)
        {
            let value = from_tt(e.value, ply);
            match e.bound {
                Bound::Exact => return value,
                Bound::Lower if value >= beta => return value,
                Bound::Upper if value <= alpha => return value,
                _ => {}
            }
        }

        // Step 7. The static evaluation (selective search, not in check), and whether
        // it improves on the side's last one.
        let selective = G::SELECTIVE && !ctx.exhaustive;
        // The static evaluation, refined by the table's bound where that is tighter.
        let static_eval = if in_check || !selective {
            NO_EVAL
        } else {
            position.evaluate()
        };
        self.frames[ply_index].static_eval = static_eval;
        let improving = selective && self.improving(ply_index, static_eval);
        let mut eval = static_eval;
        if let Some(e) = entry
            && static_eval != NO_EVAL
            && e.value.abs() < MATE_BOUND
        {
            let tt_value = from_tt(e.value, ply);
            let tighter = match e.bound {
                Bound::Exact => true,
                Bound::Lower => tt_value > eval,
                Bound::Upper => tt_value < eval,
            };
            if tighter {
                eval = tt_value;
            }
        }

        // Step 8. Pruning by the evaluation near the horizon (selective search).
        if selective && !is_pv && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: so far above beta near the horizon that the side to
            // move keeps it whatever the opponent does.
            if depth <= REVERSE_FUTILITY_DEPTH
                && eval < MATE_BOUND
                && eval - REVERSE_FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return beta + (eval - beta) / 3;
            }
            // Razoring: so far below alpha that only a capture could help.
            if depth <= 3 && eval + 250 + 200 * depth < alpha {
                let value = self.quiescence(position, ply, alpha - 1, alpha, ctx);
                if self.stopped {
                    return 0;
                }
                if value < alpha {
                    return value;
                }
            }
        }

        // Step 9. The null move: where even passing beats beta, some move surely does.
        if !is_pv
            && !ctx.exhaustive
            && !in_check
            && excluded.is_none()
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && (!selective || !self.after_null[ply_index])
            && (if selective {
                eval >= beta && static_eval >= beta - 20 * depth
            } else {
                position.evaluate() >= beta
            })
            && position.null_move_allowed()
        {
            let reduction = if selective {
                3 + depth / 3 + ((eval - beta) / 200).min(3)
            } else {
                2 + depth / 4
            };
            let mover = position.to_move();
            position.play_null();
            self.after_null[ply_index + 1] = true;
            self.frames[ply_index].piece_to = NO_PIECE_TO;
            let value = Turn::after(mover, position).value(beta - 1, beta, |alpha, beta| {
                let child = NodeCall {
                    depth: depth - 1 - reduction,
                    ply: ply + 1,
                    alpha,
                    beta,
                    is_pv: false,
                    cut_node: !cut_node,
                };
                self.negamax(position, child, ctx)
            });
            self.after_null[ply_index + 1] = false;
            position.undo_null();
            if self.stopped {
                return 0;
            }
            if value >= beta {
                return if value >= MATE_BOUND { beta } else { value };
            }
        }

        // Step 10. Internal iterative reduction: without a move from the table the
        // ordering is poor and the node likely new; search it shallower first.
        if selective && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        // Step 11. The moves (at the root, those asked for), and their order.
        let (moves, keys) = list;
        position.legal_moves(moves);
        if moves.is_empty() {
            return position.no_moves_value(ply);
        }
        // The root searches only the moves asked for, less the lines found already.
        let restricted_root = ply == 0 && self.restricts_root();
        if restricted_root {
            let (only, excluded) = (&self.root_only, &self.root_excluded);
            moves.retain(|&m| {
                let packed = G::pack(m);
                (only.is_empty() || only.contains(&packed)) && !excluded.contains(&packed)
            });
        }
        // The quiet move that last refuted the move before (0: none).
        let counter = self
            .previous_move(ply_index, 1)
            .map_or(0, |p| self.counters[p]);
        let known = KnownMoves {
            table: tt_move,
            counter,
        };
        self.order_keys(position, moves, keys, known, ply_index, selective);
        self.tree.interior += 1;

        // Step 12. Singular extension: when the table's move, proven good to nearly
        // this depth, beats every other move by a margin, it alone is searched a ply
        // deeper; when even the others reach beta, the node is cut (multi-cut).
        let mut singular_extension = 0;
        if let (Some(e), Some(packed)) = (entry, tt_move)
            && selective
            && ply > 0
            && excluded.is_none()
            && depth >= SINGULAR_DEPTH
            && (ply as i32) < 2 * self.root_depth
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.depth as i32 >= depth - 3
            && e.value.abs() < MATE_BOUND
            && moves.iter().any(|&m| G::pack(m) == packed)
        {
            let tt_value = from_tt(e.value, ply);
            let singular_beta = tt_value - SINGULAR_MARGIN * depth;
            self.frames[ply_index].excluded = Some(packed);
            let without = NodeCall {
                depth: (depth - 1) / 2,
                ply,
                alpha: singular_beta - 1,
                beta: singular_beta,
                is_pv: false,
                cut_node,
            };
            let value = self.negamax(position, without, ctx);
            self.frames[ply_index].excluded = None;
            if self.stopped {
                return 0;
            }
            if value < singular_beta {
                singular_extension = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_value >= beta {
                singular_extension = -1;
            }
        }

        // Step 13. The move loop, the best remaining move first.
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        // Quiet moves searched here (history slot, continuation index), for the
        // histories' malus on a cutoff.
        let mut quiets = [(0usize, 0usize); 64];
        let mut quiet_count = 0;
        let mut tt_capture = false;
        let mut skip_quiets = false;
        let late_move_count = (3 + depth * depth) / (2 - i32::from(improving));
        for i in 0..moves.len() {
            // Selection sort: the best remaining move next, as a cutoff often comes early.
            let next = (i..moves.len()).max_by_key(|&j| keys[j]).unwrap_or(i);
            moves.swap(i, next);
            keys.swap(i, next);
            let mv = moves[i];
            let packed = G::pack(mv);
            if excluded == Some(packed) {
                continue;
            }
            let tactical = position.is_tactical(mv);
            let is_tt_move = keys[i] == TABLE_MOVE;
            if is_tt_move {
                tt_capture = tactical;
            }
            let history_slot = (!tactical).then(|| position.history_index(mv));
            let piece_to = if selective { position.piece_to(mv) } else { 0 };
            let (cont1, cont2) = if selective && !tactical {
                self.continuation(ply_index, piece_to)
            } else {
                (0, 0)
            };
            let stat_score = history_slot.map_or(0, |slot| 2 * self.history[slot]) + cont1 + cont2;
            let killer_or_counter =
                !tactical && (self.killers[ply_index].contains(&packed) || packed == counter);
            // Step 14. The reduction of a late move, in 1/1024 plies (selective search).
            let reduction = if selective && i > 0 && depth >= 2 {
                let mut r = late_move_reduction_1024(depth, i + 1);
                r += 1024 * i32::from(cut_node) + 512 * i32::from(!improving);
                r += 1024 * i32::from(tt_capture);
                r -= 1024 * i32::from(is_pv) + 1024 * i32::from(killer_or_counter);
                r -= stat_score * 1024 / 12_000;
                if tactical {
                    r = r.min(1024);
                }
                r.max(0) / 1024
            } else {
                0
            };
            // Step 15. Pruning at shallow depth: moves that cannot raise alpha by the
            // margins are pruned (never a check, which is tested once the move is on
            // the board, and never before some move has escaped a mate); see
            // `G::SELECTIVE` for what was tried.
            let prunable = selective && ply > 0 && best_value > -MATE_BOUND && i > 0;
            let mut pruned = false;
            if prunable {
                pruned = if tactical {
                    // The ordering already found the capture not losing, or not.
                    let not_losing = (GOOD_CAPTURE..TABLE_MOVE).contains(&keys[i]);
                    depth <= 6 && !not_losing && !position.exchange_at_least(mv, -100 * depth)
                } else if skip_quiets {
                    true
                } else {
                    let lmr_depth = (depth - 1 - reduction).max(0);
                    if i as i32 >= late_move_count {
                        skip_quiets = true;
                    }
                    skip_quiets
                        || (lmr_depth < 6 && cont1 + cont2 < -HISTORY_PRUNING * depth)
                        || (!in_check
                            && lmr_depth <= 8
                            && static_eval + 100 + 100 * lmr_depth <= alpha)
                };
            }
            if ply == 0 && ctx.root_moves.is_some() {
                self.tell_root_move(position, mv, i + 1, ctx);
            }
            let mover = position.to_move();
            position.play(mv);
            let gives_check = position.in_check();
            if pruned && !gives_check {
                position.undo();
                continue;
            }
            let mut listed = false;
            if let Some(slot) = history_slot
                && quiet_count < quiets.len()
            {
                quiets[quiet_count] = (slot, piece_to);
                quiet_count += 1;
                listed = true;
            }
            self.frames[ply_index].piece_to = if selective { piece_to } else { NO_PIECE_TO };
            let turn = Turn::after(mover, position);
            // Step 16. The move searched: the first in the full window; the others
            // with a null window, reduced, then again at full depth and in the full
            // window where they beat alpha (principal-variation search).
            let new_depth = depth - 1 + if is_tt_move { singular_extension } else { 0 };
            let value = if i == 0 || (excluded.is_some() && best_value == -INFINITY) {
                turn.value(alpha, beta, |alpha, beta| {
                    let child = NodeCall {
                        depth: new_depth,
                        ply: ply + 1,
                        alpha,
                        beta,
                        is_pv,
                        cut_node: !is_pv && !cut_node,
                    };
                    self.negamax(position, child, ctx)
                })
            } else {
                let reduction = if selective {
                    reduction.min(new_depth - 1).max(0)
                } else if ctx.exhaustive || depth < 3 || tactical || in_check {
                    0
                } else if i >= 3 {
                    let r = ((depth as f32).ln() * (i as f32).ln() / 2.0) as i32;
                    r.clamp(0, depth - 2) - i32::from(is_pv).min(r.max(0))
                } else {
                    0
                };
                let reduced = new_depth - reduction.max(0);
                let mut value = turn.value(alpha, alpha + 1, |alpha, beta| {
                    let reduced = NodeCall {
                        depth: reduced,
                        ply: ply + 1,
                        alpha,
                        beta,
                        is_pv: false,
                        cut_node: true,
                    };
                    self.negamax(position, reduced, ctx)
                });
                if value > alpha && reduced < new_depth {
                    value = turn.value(alpha, alpha + 1, |alpha, beta| {
                        let full_depth = NodeCall {
                            depth: new_depth,
                            ply: ply + 1,
                            alpha,
                            beta,
                            is_pv: false,
                            cut_node: !cut_node,
                        };
                        self.negamax(position, full_depth, ctx)
                    });
                }
                if value > alpha && value < beta && is_pv {
                    value = turn.value(alpha, beta, |alpha, beta| {
                        let full_window = NodeCall {
                            depth: new_depth,
                            ply: ply + 1,
                            alpha,
                            beta,
                            is_pv: true,
                            cut_node: false,
                        };
                        self.negamax(position, full_window, ctx)
                    });
                }
                value
            };
            position.undo();
            if self.stopped {
                return 0;
            }
            // Step 17. A new best move: the principal variation, and at a cutoff the
            // killers and the histories rewarded.
            if value > best_value {
                best_value = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply_index + 1);
                    head[ply_index].clear();
                    head[ply_index].push(packed);
                    head[ply_index].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        self.tree.cutoffs += 1;
                        self.tree.first_move_cutoffs += u64::from(i == 0);
                        self.tree.cutoff_index_sum += i as u64;
                        if !tactical {
                            let killers = &mut self.killers[ply_index];
                            if killers[0] != packed {
                                killers[1] = killers[0];
                                killers[0] = packed;
                            }
                            if selective && let Some(slot) = history_slot {
                                let before = quiet_count - usize::from(listed);
                                self.reward_quiet(
                                    ply_index,
                                    (slot, piece_to),
                                    packed,
                                    &quiets[..before],
                                    depth,
                                );
                            } else {
                                let h = &mut self.history[position.history_index(mv)];
                                *h += depth * depth;
                                if *h > 1 << 20 {
                                    self.history.iter_mut().for_each(|h| *h /= 2);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        // Step 18. The singular search's and a restricted root's values, not stored.
        if excluded.is_some() {
            // Every other move was pruned or there is none: the excluded move is
            // singular. The table keeps what the full node found.
            return if best_value == -INFINITY {
                alpha
            } else {
                best_value
            };
        }
        if restricted_root {
            // The value of some root moves only is no value of the position.
            return best_value;
        }
        // Step 19. The table's store.
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        ctx.tt.store(
            key,
            best_move.map(G::pack),
            to_tt(best_value, ply),
            depth.max(0) as u32,
            bound,
        );
        best_value
    }
}
