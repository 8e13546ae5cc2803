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
    /// Set when the query is terminated.
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
    /// Per query id, the flags of its queries asked so far.
    flags: HashMap<String, Vec<Arc<AtomicBool>>>,
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
        let flag = Arc::new(AtomicBool::new(false));
        let mut state = self.state();
        let flags = state.flags.entry(query.id.clone()).or_default();
        // Flags of queries whose turns all ended are dropped as new ones come.
        flags.retain(|f| Arc::strong_count(f) > 1);
        flags.push(flag.clone());
        for &ply in &query.turns {
            state.order += 1;
            let turn = Turn {
                query: query.clone(),
                ply,
                terminated: flag.clone(),
                priority: query.priority,
                order: state.order,
            };
            state.waiting.push(turn);
        }
        drop(state);
        self.ready.notify_all();
    }

    /// Terminates every query asked so far with the id `target`: its running turns
    /// stop, its waiting turns answer at once.
    pub fn terminate(&self, target: &str) {
        let state = self.state();
        if let Some(flags) = state.flags.get(target) {
            for flag in flags {
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
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
