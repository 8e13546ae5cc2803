//! How long a search may run, and the stop flag that ends it early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A player's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// The limits of one search; unset limits do not bind. With none set the search
/// runs until stopped (or to the maximum depth).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// The mover's clock.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
    /// Kept in reserve for the time a move takes to reach the clock.
    pub move_overhead: Duration,
    /// Set from outside to stop the search; it is polled every few hundred nodes.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The deepest iteration any search starts.
pub const MAX_DEPTH: u32 = 64;

/// The limits turned into deadlines, for a running search.
pub(crate) struct Budget {
    started: Instant,
    /// Do not start another iteration after this.
    soft: Option<Instant>,
    /// Stop at once after this.
    hard: Option<Instant>,
    nodes: Option<u64>,
    pub(crate) depth: u32,
    stop: Option<Arc<AtomicBool>>,
    infinite: bool,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        let started = Instant::now();
        let mut soft = None;
        let mut hard = None;
        if !limits.infinite {
            if let Some(t) = limits.movetime {
                let t = t
                    .saturating_sub(limits.move_overhead)
                    .max(Duration::from_millis(1));
                soft = Some(started + t);
                hard = Some(started + t);
            } else if let Some(clock) = limits.clock {
                let left = clock.remaining.saturating_sub(limits.move_overhead);
                let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 50);
                let share = left / moves + clock.increment * 3 / 4;
                let share = share.min(left / 2).max(Duration::from_millis(1));
                soft = Some(started + share / 2);
                hard = Some(started + (share * 2).min(left * 3 / 4).max(share));
            }
        }
        Budget {
            started,
            soft,
            hard,
            nodes: if limits.infinite { None } else { limits.nodes },
            depth: if limits.infinite {
                MAX_DEPTH
            } else {
                limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
            },
            stop: limits.stop.clone(),
            infinite: limits.infinite,
        }
    }

    pub(crate) fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Whether the search must stop now (polled inside the tree).
    pub(crate) fn must_stop(&self, nodes: u64) -> bool {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return true;
        }
        if self.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether another iteration may start.
    pub(crate) fn may_deepen(&self, nodes: u64) -> bool {
        !self.must_stop(nodes) && self.soft.is_none_or(|s| Instant::now() < s)
    }

    /// Whether the limits leave the search running until a stop (after the last depth
    /// an infinite search waits for the stop before it reports).
    pub(crate) fn is_infinite(&self) -> bool {
        self.infinite
    }
}
