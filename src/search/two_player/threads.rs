//! The searcher and its threads (Lazy SMP): the main thread deepens and reports,
//! helper threads search the same position beside it and share only the table, so
//! their results reach the main thread through it. Here are what each thread keeps
//! (its per-ply stack, its histories), their set-up between searches, and the polling
//! by which every thread sees the clock and the stop.

use super::history::NO_PIECE_TO;
use super::iterate::Root;
use super::oracle::Oracle;
use super::time::TimeScale;
use super::{Context, HISTORY_SIZE, MAX_PLY, NO_EVAL, PIECE_TO_SIZE, TwoPlayerGame};
use crate::search::limits::{Budget, Limits};
use crate::search::tt::TranspositionTable;
use crate::search::{Info, SearchResult, TreeStats, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The most threads a search runs.
pub const MAX_THREADS: usize = 64;

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
pub(super) struct Thread<M> {
    pub(super) killers: Vec<[u32; 2]>,
    pub(super) history: Vec<i32>,
    pub(super) nodes: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    pub(super) pv: Vec<Vec<u32>>,
    /// Per ply: the moves and their order keys.
    pub(super) lists: Vec<(Vec<M>, Vec<i32>)>,
    /// Per ply: whether the move that led there was a null move (no two in a row).
    pub(super) after_null: Vec<bool>,
    /// Per ply of the line being searched: its static evaluation and the move made.
    pub(super) frames: Vec<Frame>,
    /// Quiet moves' scores by the move before them (one ply back for the opponent's
    /// reply, two for the mover's follow-up): `[previous piece_to][piece_to]`.
    pub(super) continuation: Vec<i16>,
    /// The quiet move that last refuted each move, by its `piece_to`.
    pub(super) counters: Vec<u32>,
    /// The depth of the iteration running, which bounds the singular extensions.
    pub(super) root_depth: i32,
    /// The root moves searched (packed; empty: all), less those excluded: the moves
    /// of the lines MultiPV has already found in this iteration.
    pub(super) root_only: Vec<u32>,
    pub(super) root_excluded: Vec<u32>,
    /// When the root move was last told, from the search's start.
    pub(super) root_move_told: Option<Duration>,
    pub(super) tree: TreeStats,
}

/// What the search remembers of one ply of the current line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// [`NO_EVAL`] in check or where none was taken.
    pub(super) static_eval: Value,
    /// The move being searched from this ply ([`NO_PIECE_TO`] for none or a null move).
    pub(super) piece_to: usize,
    /// The table's move, left out by the singular search of this ply (packed).
    pub(super) excluded: Option<u32>,
}

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

    /// Counts a node, and every 256 nodes sees whether the search must stop: the
    /// main thread by its budget, a helper when the main thread is done too.
    pub(super) fn poll<G>(&mut self, ctx: &Context<G>) {
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
}

impl<M: Copy + Send> Searcher<M> {
    /// Takes the memory the search needs before it starts, so that a search never waits
    /// for it; the error says when it cannot be had.
    pub fn prepare(&mut self) -> Result<(), crate::search::MemoryError> {
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
        let mut root = Root::new(position, limits);
        if root.moves.len() == 1 {
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
            if !root.moves.is_empty() {
                for (index, helper) in helpers.iter_mut().take(cores - 1).enumerate() {
                    helper.root_only.clone_from(&root.only);
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
                        helper.deepen_as_helper(&mut position, 1 + (index as u32 + 1) % 2, &ctx);
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
                main.root_only.clone_from(&root.only);
                main.deepen(position, &mut root, &mut clock, &ctx, &mut report);
                main.root_only.clear();
            }
            budget.wait_if_infinite();
            done.store(true, Ordering::Relaxed);
        });
        self.last_score = clock.last_value;
        let mut info = root.info;
        info.nodes = self.main.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>();
        info.time_ms = budget.elapsed_ms();
        SearchResult {
            best_move: root.best,
            info,
        }
    }
}
