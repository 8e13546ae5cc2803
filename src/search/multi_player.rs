//! Searches for more than two players (Mentula): paranoid alpha-beta, Best-Reply
//! Search (BRS+, Esser et al. 2014) and Monte Carlo tree search with max^n backups
//! (in `mcts`) behind one interface.
//!
//! Both search for the root player R and score positions by one number for R: R's
//! evaluation minus the best opponent's, so R aims to lead the ranking.
//! - Paranoid: every opponent minimises R's number, each on its own turn.
//! - BRS+: between two moves of R, only one opponent's move is searched (the best reply
//!   of any opponent); the other opponents play the move that move ordering puts first
//!   instead of passing, so every searched line is a legal game.

use super::limits::{Budget, Limits};
use super::{INFINITY, Info, Score, SearchResult, Value};
use crate::game::{Game, Player};

/// What the multi-player searches need from a game beyond the rules.
pub trait MultiPlayerGame: Game {
    /// A heuristic value of the position for every player (higher is better).
    fn evaluate_all(&self) -> Vec<Value>;
    /// The exact values when the game is over.
    fn final_values(&self) -> Option<Vec<Value>>;
    /// Captures first: the order key of a move (higher first).
    fn order_key(&self, mv: Self::Move) -> i32;
}

/// Which multi-player search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    BestReply,
    Paranoid,
    MonteCarlo,
}

impl Algorithm {
    /// In the order of the engine option's values.
    pub const ALL: [Algorithm; 3] = [
        Algorithm::BestReply,
        Algorithm::Paranoid,
        Algorithm::MonteCarlo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::BestReply => "brs",
            Algorithm::Paranoid => "paranoid",
            Algorithm::MonteCarlo => "mcts",
        }
    }
}

/// R's number: its value minus the best opponent's.
fn utility(values: &[Value], root: Player) -> Value {
    let best_other = values
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != root)
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(0);
    values[root] - best_other
}

/// What every node of one search reads: the player searched for (R) and the limits.
struct Context<'a> {
    root: Player,
    budget: &'a Budget,
}

/// A reusable multi-player searcher.
pub struct Searcher {
    pub algorithm: Algorithm,
    nodes: u64,
    stopped: bool,
    /// The memory a search's tree may take (Monte Carlo's), the `Hash` option's.
    memory_bytes: usize,
}

/// The tree's memory of a searcher made by [`Searcher::new`].
const DEFAULT_MEMORY_MIB: usize = 64;

impl Searcher {
    pub fn new(algorithm: Algorithm) -> Searcher {
        Searcher::with_memory(algorithm, DEFAULT_MEMORY_MIB)
    }

    /// A searcher whose tree takes at most `mib` MiB.
    pub fn with_memory(algorithm: Algorithm, mib: usize) -> Searcher {
        Searcher {
            algorithm,
            nodes: 0,
            stopped: false,
            memory_bytes: mib.max(1) << 20,
        }
    }

    /// Searches for the player to move, reporting after each completed depth.
    pub fn search<G: MultiPlayerGame>(
        &mut self,
        position: &mut G,
        limits: &Limits,
        mut report: impl FnMut(&Info),
    ) -> SearchResult<G::Move> {
        if self.algorithm == Algorithm::MonteCarlo {
            return super::mcts::search(position, limits, self.memory_bytes, &mut report);
        }
        let mut budget = Budget::new(limits);
        self.nodes = 0;
        self.stopped = false;
        let root = position.to_move();
        let canonical = G::NOTATIONS[0].notation;
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        // Only the moves asked for, when some are (and any of them is legal).
        if moves.iter().any(|&m| {
            limits
                .searchmoves
                .contains(&position.format_move(m, canonical))
        }) {
            moves.retain(|&m| {
                limits
                    .searchmoves
                    .contains(&position.format_move(m, canonical))
            });
        }
        self.sort(position, &mut moves);
        let lines_wanted = limits.multi_pv.clamp(1, moves.len().max(1));
        let mut best = moves.first().copied();
        let mut info = Info::before_search(
            position
                .evaluate_all()
                .into_iter()
                .map(Score::Centi)
                .collect(),
            best.iter()
                .map(|&m| position.format_move(m, canonical))
                .collect(),
        );
        // A forced move is searched too, for its scores (as two-player searches do).
        if moves.len() == 1 {
            budget.forced_move();
        }
        let ctx = Context {
            root,
            budget: &budget,
        };
        if position.outcome().is_none() && !moves.is_empty() {
            for depth in 1..=budget.depth {
                // The best lines so far, best first: each move searched with the
                // window above the last of them, so that a move that cannot enter
                // them is cut off (with one line, the best so far).
                let mut lines: Vec<(Value, G::Move, Vec<Value>)> = Vec::new();
                for &mv in &moves {
                    let alpha = if lines.len() < lines_wanted {
                        -INFINITY
                    } else {
                        lines[lines_wanted - 1].0
                    };
                    position.play(mv);
                    let (value, values) = self.node(position, depth - 1, alpha, INFINITY, &ctx);
                    position.undo();
                    if self.stopped {
                        break;
                    }
                    if value > alpha || lines.is_empty() {
                        let at = lines
                            .iter()
                            .position(|l| l.0 < value)
                            .unwrap_or(lines.len());
                        lines.insert(at, (value, mv, values));
                        lines.truncate(lines_wanted);
                    }
                }
                if self.stopped {
                    break;
                }
                if let Some(&(_, mv, _)) = lines.first() {
                    best = Some(mv);
                    // Search the best moves first next time, in their order.
                    for &(_, line_move, _) in lines.iter().rev() {
                        let at = moves.iter().position(|&m| m == line_move).unwrap_or(0);
                        moves[..=at].rotate_right(1);
                    }
                    for (k, (_, line_move, values)) in lines.into_iter().enumerate() {
                        let line_info = Info {
                            depth,
                            seldepth: depth,
                            scores: values.into_iter().map(Score::Centi).collect(),
                            nodes: self.nodes,
                            time_ms: budget.elapsed_ms(),
                            pv: vec![position.format_move(line_move, canonical)],
                            multi_pv: (lines_wanted > 1).then_some(k + 1),
                            hashfull: None,
                            wdl: None,
                        };
                        report(&line_info);
                        if k == 0 {
                            info = line_info;
                        }
                    }
                }
                if !budget.may_deepen(self.nodes) {
                    break;
                }
            }
        }
        budget.wait_if_infinite();
        info.nodes = self.nodes;
        info.time_ms = budget.elapsed_ms();
        SearchResult {
            best_move: best,
            info,
        }
    }

    fn sort<G: MultiPlayerGame>(&self, position: &G, moves: &mut [G::Move]) {
        moves.sort_by_cached_key(|&m| -position.order_key(m));
    }

    fn poll(&mut self, budget: &Budget) {
        self.nodes += 1;
        if self.nodes & 255 == 0 && budget.must_stop(self.nodes) {
            self.stopped = true;
        }
    }

    /// The value for `root` of a position `depth` plies (paranoid) or R-moves (BRS)
    /// deep, with the value vector of the line's end.
    fn node<G: MultiPlayerGame>(
        &mut self,
        position: &mut G,
        depth: u32,
        alpha: Value,
        beta: Value,
        ctx: &Context,
    ) -> (Value, Vec<Value>) {
        self.poll(ctx.budget);
        if self.stopped {
            return (0, Vec::new());
        }
        if let Some(values) = position.final_values() {
            return (utility(&values, ctx.root), values);
        }
        if depth == 0 {
            let values = position.evaluate_all();
            return (utility(&values, ctx.root), values);
        }
        if position.to_move() == ctx.root {
            self.every_move_node(position, depth, (alpha, beta), true, ctx)
        } else {
            match self.algorithm {
                Algorithm::Paranoid => {
                    self.every_move_node(position, depth, (alpha, beta), false, ctx)
                }
                // Not searched here (see `search`); BRS+ stands in.
                Algorithm::BestReply | Algorithm::MonteCarlo => self
                    .best_reply_min(position, depth, alpha, beta, false, ctx)
                    .unwrap_or_else(|| {
                        let values = position.evaluate_all();
                        (utility(&values, ctx.root), values)
                    }),
            }
        }
    }

    /// A layer where every move is searched: the root player's, maximising its
    /// utility, or in the paranoid search an opponent's, minimising it.
    fn every_move_node<G: MultiPlayerGame>(
        &mut self,
        position: &mut G,
        depth: u32,
        (mut alpha, mut beta): (Value, Value),
        maximising: bool,
        ctx: &Context,
    ) -> (Value, Vec<Value>) {
        let mut moves = Vec::with_capacity(12);
        position.legal_moves(&mut moves);
        self.sort(position, &mut moves);
        let mut best = (if maximising { -INFINITY } else { INFINITY }, Vec::new());
        for mv in moves {
            position.play(mv);
            let result = self.node(position, depth - 1, alpha, beta, ctx);
            position.undo();
            if self.stopped {
                return (0, Vec::new());
            }
            let better = if maximising {
                result.0 > best.0
            } else {
                result.0 < best.0
            };
            if better {
                if maximising {
                    alpha = alpha.max(result.0);
                } else {
                    beta = beta.min(result.0);
                }
                best = result;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// A BRS+ layer of opponents' turns up to R's next turn: exactly one opponent's move
    /// is searched (`searched` tells whether that happened already); the others play
    /// their first move in move order. `None` when no line of the layer qualifies.
    fn best_reply_min<G: MultiPlayerGame>(
        &mut self,
        position: &mut G,
        depth: u32,
        alpha: Value,
        mut beta: Value,
        searched: bool,
        ctx: &Context,
    ) -> Option<(Value, Vec<Value>)> {
        if position.to_move() == ctx.root || position.outcome().is_some() {
            // The layer is complete only if one opponent's move was searched.
            return searched.then(|| self.node(position, depth - 1, alpha, beta, ctx));
        }
        let mut moves = Vec::with_capacity(12);
        position.legal_moves(&mut moves);
        self.sort(position, &mut moves);
        let mut best: Option<(Value, Vec<Value>)> = None;
        let mut consider =
            |this: &mut Self, result: Option<(Value, Vec<Value>)>, beta: &mut Value| {
                if let Some(r) = result
                    && best.as_ref().is_none_or(|b| r.0 < b.0)
                {
                    *beta = (*beta).min(r.0);
                    best = Some(r);
                }
                this.stopped || alpha >= *beta
            };
        // This opponent plays its first move; another opponent's reply is searched.
        if let Some(&default) = moves.first() {
            position.play(default);
            let result = self.best_reply_min(position, depth, alpha, beta, searched, ctx);
            position.undo();
            if consider(self, result, &mut beta) {
                return best;
            }
        }
        // This opponent's reply is the one searched: all its moves.
        if !searched {
            for mv in moves {
                position.play(mv);
                let result = self.best_reply_min(position, depth, alpha, beta, true, ctx);
                position.undo();
                if consider(self, result, &mut beta) {
                    break;
                }
            }
        }
        best
    }
}
