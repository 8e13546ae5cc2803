//! Iterative deepening: the search to depth 1, 2, 3, ... each in an aspiration window
//! around the last score, until the budget or a mate ends it. The main thread finds
//! the MultiPV lines one after another (each excluding the moves of those before),
//! reports each iteration and the root move being searched; a helper thread only
//! deepens, its results left in the table.

use super::node::NodeCall;
use super::threads::Thread;
use super::time::TimeScale;
use super::{Context, TwoPlayerGame};
use crate::game::Game;
use crate::search::limits::Limits;
use crate::search::{INFINITY, Info, MATE, MATE_BOUND, Score, Value};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The root of one search: the moves it searches, and what the main thread has found
/// so far.
pub(super) struct Root<M> {
    /// The legal moves, or those of them asked for (searchmoves).
    pub(super) moves: Vec<M>,
    /// The moves asked for, packed (empty: all).
    pub(super) only: Vec<u32>,
    /// How many lines MultiPV asks for (at most one a move).
    lines_wanted: usize,
    /// The move to play, as the last complete iteration found it.
    pub(super) best: Option<M>,
    /// The report of the best line of the last complete iteration.
    pub(super) info: Info,
}

impl<M: Copy> Root<M> {
    /// The root of a search of `position` within `limits`, before any iteration: its
    /// first move and static evaluation stand in for a best move and a score.
    pub(super) fn new<G: TwoPlayerGame<Move = M>>(position: &mut G, limits: &Limits) -> Root<M> {
        let canonical = G::NOTATIONS[0].notation;
        let mut root_moves = Vec::new();
        position.legal_moves(&mut root_moves);
        // Only the moves asked for, when some are (and any of them is legal).
        let asked: Vec<G::Move> = root_moves
            .iter()
            .copied()
            .filter(|&m| {
                limits
                    .searchmoves
                    .contains(&position.format_move(m, canonical))
            })
            .collect();
        let root_only: Vec<u32> = if asked.is_empty() {
            Vec::new()
        } else {
            asked.iter().map(|&m| G::pack(m)).collect()
        };
        if !asked.is_empty() {
            root_moves = asked;
        }
        let lines_wanted = limits.multi_pv.clamp(1, root_moves.len().max(1));
        let best: Option<G::Move> = root_moves.first().copied();
        let info = Info::before_search(
            vec![Score::Centi(position.evaluate())],
            best.iter()
                .map(|&m| position.format_move(m, canonical))
                .collect(),
        );
        Root {
            moves: root_moves,
            only: root_only,
            lines_wanted,
            best,
            info,
        }
    }
}

/// Whether iterative deepening ends after an iteration of `depth` plies that scored
/// `value`, because of a mate.
///
/// A mate search (`mate_plies` set) is exhaustive: it ends at the first mate for the
/// side to move within the bound, which is then the shortest. Otherwise a mate found
/// may not be the shortest, as reductions hide lines: the search goes on (while its
/// limits allow) until the depth is twice the mate's distance and two plies more.
/// Being mated, it goes on in the same way, for the longest defence.
fn mate_search_ends(value: Value, depth: u32, mate_plies: Option<u32>) -> bool {
    if value.abs() < MATE_BOUND {
        return false;
    }
    let distance = (MATE - value.abs()) as u32;
    match mate_plies {
        Some(bound) => value > 0 && distance <= bound,
        None => depth >= 2 * distance + 2,
    }
}

impl<M: Copy> Thread<M> {
    /// The main thread's iterative deepening: each iteration finds the lines wanted,
    /// reports them, and tells `clock` how settled the best move is, until the budget
    /// (scaled by `clock`) or a mate ends it.
    pub(super) fn deepen<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        root: &mut Root<M>,
        clock: &mut TimeScale,
        ctx: &Context<G>,
        report: &mut impl FnMut(&Info),
    ) {
        let canonical = G::NOTATIONS[0].notation;
        let (budget, root_moves, lines_wanted) = (ctx.budget, &root.moves, root.lines_wanted);
        // Each line's score in the last iteration, the best first.
        let mut previous = vec![0; lines_wanted];
        for depth in 1..=budget.depth {
            let mut lines: Vec<(Value, Vec<G::Move>, u32)> = Vec::new();
            self.root_excluded.clear();
            for (k, &guess) in previous.iter().enumerate() {
                self.seldepth = 0;
                let value = self.aspiration(position, depth, guess, ctx);
                // A stopped first iteration still gives its line.
                if self.stopped && (depth > 1 || k > 0) {
                    break;
                }
                let line = self.principal_variation(position, root_moves);
                let first = line.first().copied();
                lines.push((value, line, self.seldepth.max(depth)));
                match first {
                    Some(first) if !self.stopped => self.root_excluded.push(G::pack(first)),
                    _ => break,
                }
            }
            self.root_excluded.clear();
            if lines.is_empty() {
                if self.stopped && depth > 1 {
                    // A partial iteration counts only through what it proved:
                    // the root's first move (last best) was searched first.
                    if let Some(first) = self.pv[0].first()
                        && let Some(&mv) = root_moves.iter().find(|&&m| G::pack(m) == *first)
                    {
                        root.best = Some(mv);
                    }
                }
                break;
            }
            // The lines best first (a later one may have scored above an
            // earlier one); the best line's move is the best move.
            lines.sort_by_key(|line| std::cmp::Reverse(line.0));
            for (k, line) in lines.iter().enumerate() {
                previous[k] = line.0;
            }
            let value = lines[0].0;
            if let Some(&first) = lines[0].1.first() {
                clock.iteration(depth, value, root.best.map(G::pack) != Some(G::pack(first)));
                root.best = Some(first);
            }
            let nodes = self.nodes + ctx.helper_nodes.load(Ordering::Relaxed);
            let hashfull = ctx.tt.hashfull();
            for (k, (value, line, seldepth)) in lines.iter().enumerate() {
                let line_info = Info {
                    depth,
                    seldepth: *seldepth,
                    scores: vec![Score::from_value(*value)],
                    nodes,
                    time_ms: budget.elapsed_ms(),
                    pv: self.format_line(position, line, canonical),
                    multi_pv: (lines_wanted > 1).then_some(k + 1),
                    hashfull: Some(hashfull),
                    wdl: None,
                };
                report(&line_info);
                if k == 0 {
                    root.info = line_info;
                }
            }
            if self.stopped || !budget.may_deepen_scaled(self.nodes, clock.scale()) {
                break;
            }
            if mate_search_ends(value, depth, budget.mate_plies) {
                break;
            }
        }
    }

    /// A helper's search: iterative deepening from `first_depth` until the main
    /// thread is done (or the limits end it), its results left in the table.
    pub(super) fn deepen_as_helper<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        first_depth: u32,
        ctx: &Context<G>,
    ) {
        let mut previous = 0;
        for depth in first_depth.min(ctx.budget.depth)..=ctx.budget.depth {
            let value = self.aspiration(position, depth, previous, ctx);
            if self.stopped {
                break;
            }
            previous = value;
        }
    }

    /// One iteration to `depth`: a window of ±40 around the `previous` score, widened
    /// (three times as much each time) on the side the score fell out, open from depth
    /// 1 to 3, after a mate score and once the window passes 1,000.
    fn aspiration<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        depth: u32,
        previous: Value,
        ctx: &Context<G>,
    ) -> Value {
        self.root_depth = depth as i32;
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.negamax(position, NodeCall::root(depth, -INFINITY, INFINITY), ctx);
        }
        let mut window = 40;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let value = self.negamax(position, NodeCall::root(depth, alpha, beta), ctx);
            if self.stopped {
                return value;
            }
            if value <= alpha {
                alpha = (alpha - window).max(-INFINITY);
            } else if value >= beta {
                beta = (beta + window).min(INFINITY);
            } else {
                return value;
            }
            window *= 3;
            if window > 1_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Tells the root move being searched, after the first second and at most every
    /// [`crate::search::limits::ROOT_MOVES_EVERY`].
    pub(super) fn tell_root_move<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &G,
        mv: M,
        number: usize,
        ctx: &Context<G>,
    ) {
        let Some(tell) = ctx.root_moves else {
            return;
        };
        let elapsed = Duration::from_millis(ctx.budget.elapsed_ms());
        if elapsed < crate::search::limits::ROOT_MOVES_AFTER
            || self
                .root_move_told
                .is_some_and(|at| elapsed < at + crate::search::limits::ROOT_MOVES_EVERY)
        {
            return;
        }
        self.root_move_told = Some(elapsed);
        (tell.0)(
            self.root_depth as u32,
            &position.format_move(mv, G::NOTATIONS[0].notation),
            number,
        );
    }

    /// Whether the root searches some of its moves only (searchmoves, MultiPV).
    pub(super) fn restricts_root(&self) -> bool {
        !self.root_only.is_empty() || !self.root_excluded.is_empty()
    }

    fn format_line<G: Game>(&self, position: &G, line: &[G::Move], n: G::Notation) -> Vec<String> {
        let mut p = position.clone();
        line.iter()
            .map(|&m| {
                let text = p.format_move(m, n);
                p.play(m);
                text
            })
            .collect()
    }

    /// The principal variation of the last iteration as moves.
    fn principal_variation<G: TwoPlayerGame<Move = M>>(
        &self,
        position: &G,
        root: &[G::Move],
    ) -> Vec<G::Move> {
        let mut p = position.clone();
        let mut line = Vec::new();
        let mut moves = root.to_vec();
        for &packed in &self.pv[0] {
            let Some(&mv) = moves.iter().find(|&&m| G::pack(m) == packed) else {
                break;
            };
            line.push(mv);
            p.play(mv);
            p.legal_moves(&mut moves);
        }
        line
    }
}
