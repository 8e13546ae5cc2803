//! The turns waiting for a worker: highest priority first, then in the order asked;
//! and the flags that terminate a query's turns, running or waiting.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Condvar, Mutex};

use super::Query;

/// One turn of one query.
pub struct Turn {
    pub query: Arc<Query>,
    /// The ply analysed (a position after that many of the query's moves).
    pub ply: usize,
    /// Set when the query, or this turn of it, is terminated.
    pub terminated: Arc<AtomicBool>,
    priority: i64,
    order: u64,
}

impl PartialEq for Turn {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Turn {}

impl PartialOrd for Turn {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Turn {
    /// The greatest is served first: the highest priority, then the earliest.
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority
            .cmp(&other.priority)
            .then(other.order.cmp(&self.order))
    }
}

#[derive(Default)]
struct State {
    waiting: BinaryHeap<Turn>,
    /// Per query id, the flag of each turn of its queries asked so far, by ply.
    flags: HashMap<String, Vec<(usize, Arc<AtomicBool>)>>,
    order: u64,
    closed: bool,
}

/// The queue shared by the reader and the workers.
#[derive(Default)]
pub struct Queue {
    state: Mutex<State>,
    ready: Condvar,
    /// Raised by `clear_cache`: each worker drops its engines when it sees a new value.
    pub cache_generation: AtomicU64,
}

impl Queue {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues every turn of `query`, in the order of its `analyzeTurns`.
    pub fn push(&self, query: Query) {
        let query = Arc::new(query);
        let flags: Vec<Arc<AtomicBool>> = query
            .turns
            .iter()
            .map(|_| Arc::new(AtomicBool::new(false)))
            .collect();
        let mut state = self.state();
        let known = state.flags.entry(query.id.clone()).or_default();
        // Flags of turns that ended are dropped as new ones come.
        known.retain(|(_, f)| Arc::strong_count(f) > 1);
        known.extend(query.turns.iter().copied().zip(flags.iter().cloned()));
        for (&ply, flag) in query.turns.iter().zip(flags) {
            state.order += 1;
            let turn = Turn {
                query: query.clone(),
                ply,
                terminated: flag,
                priority: query.priority,
                order: state.order,
            };
            state.waiting.push(turn);
        }
        drop(state);
        self.ready.notify_all();
    }

    /// Terminates the turns of every query asked so far with the id `target` (only
    /// those at the plies `turns`, when given): running turns stop, waiting turns
    /// answer at once.
    pub fn terminate(&self, target: &str, turns: Option<&[usize]>) {
        let state = self.state();
        if let Some(flags) = state.flags.get(target) {
            for (ply, flag) in flags {
                if turns.is_none_or(|t| t.contains(ply)) {
                    flag.store(true, std::sync::atomic::Ordering::SeqCst);
                }
            }
        }
    }

    pub fn clear_cache(&self) {
        self.cache_generation
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    /// No more queries come: the workers end when the queue is empty.
    pub fn close(&self) {
        self.state().closed = true;
        self.ready.notify_all();
    }

    /// The next turn to serve; `None` when the queue is closed and empty.
    pub fn next(&self) -> Option<Turn> {
        let mut state = self.state();
        loop {
            if let Some(turn) = state.waiting.pop() {
                return Some(turn);
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}
