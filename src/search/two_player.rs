//! Alpha-beta for the two-player games (Sena-Mukha, Mangala II).
//!
//! Iterative deepening principal-variation search with aspiration windows, a
//! transposition table, quiescence search, move ordering (TT move, captures by
//! most-valuable-victim, killers, history), null-move pruning and late-move reductions
//! where the game allows them, a check extension, and the rules' draws and ends inside
//! the tree; for a game that asks for it ([`TwoPlayerGame::SELECTIVE`]) the search is
//! selective in the manner of the strong chess engines, so that each extra ply costs
//! less than twice the nodes (`ludus tree` measures it). Scores are from the side to move's point of view; forced wins are
//! `MATE - plies`, so the faster win is preferred.
//!
//! Players need not alternate: in Mangala II a move that empties the opponent's row
//! makes the opponent pass, and the mover moves again. Every child is therefore seen
//! through [`Turn`], which negates its value and flips the window only when the turn
//! really changed hands.

use super::limits::{Budget, Limits};
use super::tt::{Bound, TranspositionTable};
use super::{INFINITY, Info, MATE, MATE_BOUND, Score, SearchResult, TreeStats, Value};
use crate::game::{Game, Player};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

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

/// Proven bounds on the value of a position for the side to move (an endgame table's,
/// or what the rules alone prove); equal bounds are the exact value. Handed to
/// [`Searcher::search_with`] by the game's engine: the search knows no oracle itself.
pub type Oracle<'a, G> = &'a (dyn Fn(&G) -> Option<(Value, Value)> + Sync);

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

/// Quiescence searches at most this many plies below the horizon.
const QUIESCENCE_PLIES: u32 = 16;
/// Within this many plies below the horizon, a side in check tries every evasion;
/// deeper it may only stand pat or capture.
const QUIESCENCE_EVASION_PLIES: u32 = 4;

/// Entries of the history table.
pub const HISTORY_SIZE: usize = 1 << 16;
/// The bound on [`TwoPlayerGame::piece_to`]: a continuation history has this many
/// squared entries.
pub const PIECE_TO_SIZE: usize = 1280;
/// The continuation index of no move (the root, a null move).
const NO_PIECE_TO: usize = usize::MAX;
const MAX_PLY: usize = 128;

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

/// A reusable searcher for games whose moves are `M`: the table, killers and history
/// live across searches, and the move lists of every ply are allocated once. With
/// more than one thread the others search the same position beside it (Lazy SMP):
/// they share only the table, and their results reach the main thread through it.
pub struct Searcher<M> {
    tt: TranspositionTable,
    main: Thread<M>,
    helpers: Vec<Thread<M>>,
    /// The score the last search ended with (for the side that searched), against
    /// which the next one sees its score fall.
    last_score: Option<Value>,
}

/// What one search thread keeps for itself.
struct Thread<M> {
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    pv: Vec<Vec<u32>>,
    /// Per ply: the moves and their order keys.
    lists: Vec<(Vec<M>, Vec<i32>)>,
    /// Per ply: whether the move that led there was a null move (no two in a row).
    after_null: Vec<bool>,
    /// Per ply of the line being searched: its static evaluation and the move made.
    frames: Vec<Frame>,
    /// Quiet moves' scores by the move before them (one ply back for the opponent's
    /// reply, two for the mover's follow-up): `[previous piece_to][piece_to]`.
    continuation: Vec<i16>,
    /// The quiet move that last refuted each move, by its `piece_to`.
    counters: Vec<u32>,
    /// The depth of the iteration running, which bounds the singular extensions.
    root_depth: i32,
    /// The root moves searched (packed; empty: all), less those excluded: the moves
    /// of the lines MultiPV has already found in this iteration.
    root_only: Vec<u32>,
    root_excluded: Vec<u32>,
    /// When the root move was last told, from the search's start.
    root_move_told: Option<Duration>,
    tree: TreeStats,
}

/// What the search remembers of one ply of the current line.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// [`NO_EVAL`] in check or where none was taken.
    static_eval: Value,
    /// The move being searched from this ply ([`NO_PIECE_TO`] for none or a null move).
    piece_to: usize,
    /// The table's move, left out by the singular search of this ply (packed).
    excluded: Option<u32>,
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

/// How settled an iterative deepening is, for how much of the clock it uses: the best
/// move changing and the score falling below the last search's stretch the time, a
/// best move that has stood for many iterations shrinks it.
struct TimeScale {
    /// Changes of the best move, each iteration's halving the older ones.
    changes: f64,
    /// The last iteration at which the best move changed.
    changed_at: u32,
    depth: u32,
    reference: Option<Value>,
    last_value: Option<Value>,
}

impl TimeScale {
    fn new(reference: Option<Value>) -> TimeScale {
        TimeScale {
            changes: 0.0,
            changed_at: 0,
            depth: 0,
            reference,
            last_value: None,
        }
    }

    fn iteration(&mut self, depth: u32, value: Value, best_changed: bool) {
        self.changes /= 2.0;
        if best_changed && depth > 1 {
            self.changes += 1.0;
            self.changed_at = depth;
        }
        self.depth = depth;
        self.last_value = Some(value);
    }

    /// The factor on the optimum time.
    fn scale(&self) -> f64 {
        let instability = 1.0 + self.changes;
        let falling = match (self.reference, self.last_value) {
            (Some(before), Some(now)) if before.abs() < MATE_BOUND && now.abs() < MATE_BOUND => {
                (1.0 + f64::from(before - now) / 200.0).clamp(0.7, 1.5)
            }
            _ => 1.0,
        };
        let settled = if self.depth >= self.changed_at + 8 {
            0.75
        } else {
            1.0
        };
        (instability * falling * settled).clamp(0.5, 2.5)
    }
}

/// The order key of the table's move; captures and promotions that do not lose by
/// the exchange have keys from [`GOOD_CAPTURE`] up to it.
const TABLE_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 29;

/// The static evaluation where none is taken (in check, or by a search that does not
/// prune by it).
const NO_EVAL: Value = -INFINITY;
/// History scores stay within this bound, approached by gravity: each update moves a
/// score toward the bound by a share of the remaining distance.
const HISTORY_MAX: i32 = 16_384;

/// The most threads a search runs.
pub const MAX_THREADS: usize = 64;

impl<M: Copy + Send> Searcher<M> {
    /// A searcher with a transposition table of `hash_mib` MiB, on one thread.
    pub fn new(hash_mib: usize) -> Searcher<M> {
        Searcher {
            tt: TranspositionTable::new(hash_mib),
            main: Thread::new(),
            helpers: Vec::new(),
            last_score: None,
        }
    }

    /// Searches on `threads` threads from the next search on (1 to [`MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers.push(Thread::new());
        }
    }
}

impl<M: Copy> Thread<M> {
    fn new() -> Thread<M> {
        Thread {
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: (0..=MAX_PLY)
                .map(|_| (Vec::with_capacity(256), Vec::with_capacity(256)))
                .collect(),
            after_null: vec![false; MAX_PLY + 2],
            frames: vec![
                Frame {
                    static_eval: NO_EVAL,
                    piece_to: NO_PIECE_TO,
                    excluded: None,
                };
                MAX_PLY + 2
            ],
            continuation: vec![0; PIECE_TO_SIZE * PIECE_TO_SIZE],
            counters: vec![0; PIECE_TO_SIZE],
            root_depth: 0,
            root_only: Vec::new(),
            root_excluded: Vec::new(),
            root_move_told: None,
            tree: TreeStats::default(),
        }
    }

    /// Prepares for a new search: killers forgotten, history aged.
    fn begin(&mut self) {
        self.nodes = 0;
        self.root_move_told = None;
        self.tree = TreeStats::default();
        self.stopped = false;
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        for h in self.history.iter_mut() {
            *h /= 8;
        }
    }

    fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.continuation.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = 0);
    }
}

impl<M: Copy + Send> Searcher<M> {
    /// Takes the memory the search needs before it starts, so that a search never waits
    /// for it; the error says when it cannot be had.
    pub fn prepare(&mut self) -> Result<(), super::MemoryError> {
        self.tt.allocate()
    }

    /// The main thread's tree in the last search.
    pub fn tree_stats(&self) -> TreeStats {
        TreeStats {
            hashfull: self.tt.hashfull(),
            ..self.main.tree
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.main.clear();
        self.helpers.iter_mut().for_each(Thread::clear);
        self.last_score = None;
    }

    /// Searches `position` within `limits`, calling `report` after every completed
    /// iteration. The position is returned as it was given.
    pub fn search<G: TwoPlayerGame<Move = M> + Send>(
        &mut self,
        position: &mut G,
        limits: &Limits,
        report: impl FnMut(&Info),
    ) -> SearchResult<G::Move> {
        self.search_with(position, limits, report, None)
    }

    /// [`Searcher::search`] with an oracle: every position it settles within the window
    /// is a leaf with its proven value.
    pub fn search_with<G: TwoPlayerGame<Move = M> + Send>(
        &mut self,
        position: &mut G,
        limits: &Limits,
        mut report: impl FnMut(&Info),
        oracle: Option<Oracle<'_, G>>,
    ) -> SearchResult<G::Move> {
        let mut budget = Budget::with_moves_left(limits, position.expected_moves_left());
        self.tt.new_search();
        self.main.begin();
        self.helpers.iter_mut().for_each(Thread::begin);
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
        let mut best: Option<G::Move> = root_moves.first().copied();
        let mut info = Info {
            depth: 0,
            seldepth: 0,
            scores: vec![Score::Centi(position.evaluate())],
            nodes: 0,
            time_ms: 0,
            pv: best
                .iter()
                .map(|&m| position.format_move(m, canonical))
                .collect(),
            multi_pv: None,
            hashfull: None,
        };
        if root_moves.len() == 1 {
            budget.forced_move();
        }
        let mut clock = TimeScale::new(self.last_score.take());
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let exhaustive = budget.mate_plies.is_some();
        let (tt, main, helpers) = (&self.tt, &mut self.main, &mut self.helpers);
        // No more threads than the cores this process may run on (taskset and cgroup
        // limits count): more only time-share a core, and each must be scheduled to
        // see a stop (64 threads on one core took 276 ms to stop).
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|scope| {
            if !root_moves.is_empty() {
                for (index, helper) in helpers.iter_mut().take(cores - 1).enumerate() {
                    helper.root_only.clone_from(&root_only);
                    helper.root_excluded.clear();
                    let mut position = position.clone();
                    let (budget, done, helper_nodes) = (&budget, &done, &helper_nodes);
                    scope.spawn(move || {
                        let ctx = Context {
                            budget,
                            tt,
                            done: Some(done),
                            helper_nodes,
                            oracle,
                            exhaustive,
                            root_moves: None,
                        };
                        // Every other helper runs one iteration ahead, so that the
                        // threads spread over two depths.
                        helper.iterate(&mut position, 1 + (index as u32 + 1) % 2, &ctx);
                    });
                }
                let ctx = Context {
                    budget: &budget,
                    tt,
                    done: None,
                    helper_nodes: &helper_nodes,
                    oracle,
                    exhaustive,
                    root_moves: limits.root_moves.as_ref(),
                };
                main.root_only.clone_from(&root_only);
                // Each line's score in the last iteration, the best first.
                let mut previous = vec![0; lines_wanted];
                for depth in 1..=budget.depth {
                    let mut lines: Vec<(Value, Vec<G::Move>, u32)> = Vec::new();
                    main.root_excluded.clear();
                    for (k, &guess) in previous.iter().enumerate() {
                        main.seldepth = 0;
                        let value = main.aspiration(position, depth, guess, &ctx);
                        // A stopped first iteration still gives its line.
                        if main.stopped && (depth > 1 || k > 0) {
                            break;
                        }
                        let line = main.principal_variation(position, &root_moves);
                        let first = line.first().copied();
                        lines.push((value, line, main.seldepth.max(depth)));
                        match first {
                            Some(first) if !main.stopped => main.root_excluded.push(G::pack(first)),
                            _ => break,
                        }
                    }
                    main.root_excluded.clear();
                    if lines.is_empty() {
                        if main.stopped && depth > 1 {
                            // A partial iteration counts only through what it proved:
                            // the root's first move (last best) was searched first.
                            if let Some(first) = main.pv[0].first()
                                && let Some(&mv) =
                                    root_moves.iter().find(|&&m| G::pack(m) == *first)
                            {
                                best = Some(mv);
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
                        clock.iteration(depth, value, best.map(G::pack) != Some(G::pack(first)));
                        best = Some(first);
                    }
                    let nodes = main.nodes + helper_nodes.load(Ordering::Relaxed);
                    let hashfull = tt.hashfull();
                    for (k, (value, line, seldepth)) in lines.iter().enumerate() {
                        let line_info = Info {
                            depth,
                            seldepth: *seldepth,
                            scores: vec![Score::from_value(*value)],
                            nodes,
                            time_ms: budget.elapsed_ms(),
                            pv: main.format_line(position, line, canonical),
                            multi_pv: (lines_wanted > 1).then_some(k + 1),
                            hashfull: Some(hashfull),
                        };
                        report(&line_info);
                        if k == 0 {
                            info = line_info;
                        }
                    }
                    if main.stopped || !budget.may_deepen_scaled(main.nodes, clock.scale()) {
                        break;
                    }
                    if mate_search_ends(value, depth, budget.mate_plies) {
                        break;
                    }
                }
                main.root_only.clear();
            }
            budget.wait_if_infinite();
            done.store(true, Ordering::Relaxed);
        });
        self.last_score = clock.last_value;
        info.nodes = self.main.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>();
        info.time_ms = budget.elapsed_ms();
        SearchResult {
            best_move: best,
            info,
        }
    }
}

impl<M: Copy> Thread<M> {
    /// A helper's search: iterative deepening from `first_depth` until the main
    /// thread is done (or the limits end it), its results left in the table.
    fn iterate<G: TwoPlayerGame<Move = M>>(
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

    /// Tells the root move being searched, after the first second and at most every
    /// [`super::limits::ROOT_MOVES_EVERY`].
    fn tell_root_move<G: TwoPlayerGame<Move = M>>(
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
        if elapsed < super::limits::ROOT_MOVES_AFTER
            || self
                .root_move_told
                .is_some_and(|at| elapsed < at + super::limits::ROOT_MOVES_EVERY)
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
    fn restricts_root(&self) -> bool {
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

    fn aspiration<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        depth: u32,
        previous: Value,
        ctx: &Context<G>,
    ) -> Value {
        self.root_depth = depth as i32;
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.negamax(
                position,
                depth as i32,
                0,
                -INFINITY,
                INFINITY,
                true,
                false,
                ctx,
            );
        }
        let mut window = 40;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let value = self.negamax(position, depth as i32, 0, alpha, beta, true, false, ctx);
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

    /// A quiet move cut off at `ply`: the histories reward it (`best`: its history
    /// slot and continuation index) and penalise the quiet moves tried before it, by
    /// gravity toward [`HISTORY_MAX`]; it becomes the counter move of the move before.
    fn reward_quiet(
        &mut self,
        ply: usize,
        best: (usize, usize),
        packed: u32,
        others: &[(usize, usize)],
        depth: i32,
    ) {
        let bonus = (depth * depth * 16).min(1_600);
        let previous = [1, 2].map(|back| self.previous_move(ply, back));
        if let Some(p) = previous[0] {
            self.counters[p] = packed;
        }
        let mut update = |(slot, piece_to): (usize, usize), bonus: i32| {
            let h = &mut self.history[slot];
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
            for p in previous.iter().flatten() {
                let c = &mut self.continuation[p * PIECE_TO_SIZE + piece_to];
                let v = i32::from(*c);
                *c = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
            }
        };
        update(best, bonus);
        for &other in others {
            update(other, -bonus);
        }
    }

    fn poll<G>(&mut self, ctx: &Context<G>) {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            match ctx.done {
                // A helper stops with the main thread, and its node count is shown.
                Some(done) => {
                    ctx.helper_nodes.fetch_add(256, Ordering::Relaxed);
                    if done.load(Ordering::Relaxed) || ctx.budget.must_stop(0) {
                        self.stopped = true;
                    }
                }
                None => {
                    if ctx.budget.must_stop(self.nodes) {
                        self.stopped = true;
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        depth: i32,
        ply: u32,
        alpha: Value,
        beta: Value,
        is_pv: bool,
        cut_node: bool,
        ctx: &Context<G>,
    ) -> Value {
        // This ply's move list is lent to the node and given back after it.
        let mut list = std::mem::take(&mut self.lists[ply as usize]);
        let value = self.node(
            position, depth, ply, alpha, beta, is_pv, cut_node, ctx, &mut list,
        );
        self.lists[ply as usize] = list;
        value
    }

    /// The continuation index of the move made `back` plies above `ply` in the line
    /// being searched; `None` above the root, for a null move, or where the search is
    /// not selective.
    fn previous_move(&self, ply: usize, back: usize) -> Option<usize> {
        ply.checked_sub(back)
            .map(|p| self.frames[p].piece_to)
            .filter(|&p| p != NO_PIECE_TO)
    }

    /// The continuation histories' scores of a quiet move `piece_to` at `ply`: after
    /// the opponent's last move and after the mover's own move before it.
    fn continuation(&self, ply: usize, piece_to: usize) -> (i32, i32) {
        let at = |back: usize| {
            self.previous_move(ply, back).map_or(0, |prev| {
                i32::from(self.continuation[prev * PIECE_TO_SIZE + piece_to])
            })
        };
        (at(1), at(2))
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

    #[allow(clippy::too_many_arguments)]
    fn node<G: TwoPlayerGame<Move = M>>(
        &mut self,
        position: &mut G,
        mut depth: i32,
        ply: u32,
        mut alpha: Value,
        beta: Value,
        is_pv: bool,
        cut_node: bool,
        ctx: &Context<G>,
        list: &mut (Vec<M>, Vec<i32>),
    ) -> Value {
        let ply_index = ply as usize;
        self.pv[ply_index].clear();
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
        if ply_index >= MAX_PLY - 1 {
            return position.evaluate();
        }
        let in_check = position.in_check();
        // The check extension only in the plain and exhaustive searches: without it the
        // selective tree to a fixed depth is a third smaller (benches/README.md), and
        // mates are proven by the exhaustive search, which keeps it.
        if in_check && (!G::SELECTIVE || ctx.exhaustive) {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(position, ply, alpha, beta, ctx);
        }
        self.poll(ctx);
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

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
            let value = Turn::after(mover, position).value(beta - 1, beta, |a, b| {
                self.negamax(
                    position,
                    depth - 1 - reduction,
                    ply + 1,
                    a,
                    b,
                    false,
                    !cut_node,
                    ctx,
                )
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

        // Internal iterative reduction: without a move from the table the ordering is
        // poor and the node likely new; search it shallower first.
        if selective && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

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
        self.order_keys(
            position, moves, keys, tt_move, counter, ply_index, selective,
        );
        self.tree.interior += 1;

        // Singular extension: when the table's move, proven good to nearly this
        // depth, beats every other move by a margin, it alone is searched a ply
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
            let value = self.negamax(
                position,
                (depth - 1) / 2,
                ply,
                singular_beta - 1,
                singular_beta,
                false,
                cut_node,
                ctx,
            );
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
            // The reduction of a late move, in 1/1024 plies (selective search).
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
            // Moves that cannot raise alpha by the margins are pruned (never a check,
            // which is tested once the move is on the board, and never before some
            // move has escaped a mate); see `G::SELECTIVE` for what was tried.
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
            let new_depth = depth - 1 + if is_tt_move { singular_extension } else { 0 };
            let value = if i == 0 || (excluded.is_some() && best_value == -INFINITY) {
                turn.value(alpha, beta, |a, b| {
                    self.negamax(
                        position,
                        new_depth,
                        ply + 1,
                        a,
                        b,
                        is_pv,
                        !is_pv && !cut_node,
                        ctx,
                    )
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
                let mut value = turn.value(alpha, alpha + 1, |a, b| {
                    self.negamax(position, reduced, ply + 1, a, b, false, true, ctx)
                });
                if value > alpha && reduced < new_depth {
                    value = turn.value(alpha, alpha + 1, |a, b| {
                        self.negamax(position, new_depth, ply + 1, a, b, false, !cut_node, ctx)
                    });
                }
                if value > alpha && value < beta && is_pv {
                    value = turn.value(alpha, beta, |a, b| {
                        self.negamax(position, new_depth, ply + 1, a, b, true, false, ctx)
                    });
                }
                value
            };
            position.undo();
            if self.stopped {
                return 0;
            }
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

    fn quiescence<G: TwoPlayerGame<Move = M>>(
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
    #[allow(clippy::too_many_arguments)]
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

    #[allow(clippy::too_many_arguments)]
    fn order_keys<G: TwoPlayerGame<Move = M>>(
        &self,
        position: &G,
        moves: &[M],
        keys: &mut Vec<i32>,
        tt_move: Option<u32>,
        counter: u32,
        ply: usize,
        selective: bool,
    ) {
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

/// Mate scores are stored relative to the node, so they stay true wherever it recurs.
/// The value of a node whose proven bounds settle it within `alpha..beta`.
fn proven_cutoff<G: TwoPlayerGame>(
    position: &G,
    oracle: Option<Oracle<'_, G>>,
    alpha: Value,
    beta: Value,
) -> Option<Value> {
    let (lower, upper) = oracle?(position)?;
    if lower == upper || lower >= beta {
        Some(lower)
    } else if upper <= alpha {
        Some(upper)
    } else {
        None
    }
}

fn to_tt(value: Value, ply: u32) -> Value {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn from_tt(value: Value, ply: u32) -> Value {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}
