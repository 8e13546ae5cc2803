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
    /// Search for a mate in at most this many moves (UCI's `go mate`): the search is
    /// exhaustive (no selective pruning) to that mate's depth, `2 * mate - 1` plies,
    /// and ends when it finds such a mate.
    pub mate: Option<u32>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
    /// Kept in reserve for the time a move takes to reach the clock.
    pub move_overhead: Duration,
    /// Set from outside to stop the search; it is polled every few hundred nodes.
    pub stop: Option<Arc<AtomicBool>>,
    /// When the request arrived: time limits count from here, so that whatever comes
    /// before the search itself (taking the hash table's memory) is counted too.
    /// `None`: from the start of the search.
    pub received: Option<Instant>,
}

impl Limits {
    /// Whether only a stop ends a search with these limits: it is infinite, or nothing
    /// bounds it (it would run to [`MAX_DEPTH`]).
    pub fn endless(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.mate.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none())
    }
}

/// The deepest iteration any search starts.
pub const MAX_DEPTH: u32 = 64;

/// How much of a clock one move may use: after the first (soft) share no new
/// iteration starts; at the second (hard) the search stops. The share is the time left
/// over the moves to go (30 if the control does not say) plus three quarters of the
/// increment, never more than half the time left; the hard limit allows twice the
/// share but never more than three quarters of the time left.
pub fn allocate(clock: &Clock, move_overhead: Duration) -> (Duration, Duration) {
    let left = clock.remaining.saturating_sub(move_overhead);
    let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 50);
    let share = (left / moves + clock.increment * 3 / 4)
        .min(left / 2)
        .max(Duration::from_millis(1));
    (share / 2, (share * 2).min(left * 3 / 4).max(share))
}

/// The deepest a search of a forced move (the only legal one) goes when only the clock
/// limits it: deep enough for a score worth showing, too shallow to spend the clock.
pub const FORCED_MOVE_DEPTH: u32 = 6;

/// The limits turned into deadlines, for a running search.
pub struct Budget {
    started: Instant,
    /// Do not start another iteration after this.
    soft: Option<Instant>,
    /// Stop at once after this.
    hard: Option<Instant>,
    nodes: Option<u64>,
    pub(crate) depth: u32,
    /// A mate search's bound in plies (see [`Limits::mate`]).
    pub(crate) mate_plies: Option<u32>,
    stop: Option<Arc<AtomicBool>>,
    infinite: bool,
    /// Only the clock limits this search (no depth, nodes or time per move were asked).
    clock_only: bool,
}

impl Budget {
    pub fn new(limits: &Limits) -> Budget {
        let started = limits.received.unwrap_or_else(Instant::now);
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
                let (soft_share, hard_share) = allocate(&clock, limits.move_overhead);
                soft = Some(started + soft_share);
                hard = Some(started + hard_share);
            }
        }
        let mate_plies = limits
            .mate
            .filter(|_| !limits.infinite)
            .map(|moves| (2 * moves.max(1) - 1).min(MAX_DEPTH));
        Budget {
            started,
            mate_plies,
            soft,
            hard,
            nodes: if limits.infinite { None } else { limits.nodes },
            depth: if limits.infinite {
                MAX_DEPTH
            } else {
                let asked = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
                mate_plies.map_or(asked, |plies| asked.min(plies))
            },
            stop: limits.stop.clone(),
            infinite: limits.infinite,
            clock_only: !limits.infinite
                && limits.clock.is_some()
                && limits.depth.is_none()
                && limits.mate.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none(),
        }
    }

    /// The root has one legal move: when only the clock limits the search, it searches
    /// no deeper than [`FORCED_MOVE_DEPTH`], for a score, and saves the clock. Asked
    /// for a depth, nodes or a time, it searches as asked.
    pub(crate) fn forced_move(&mut self) {
        if self.clock_only {
            self.depth = self.depth.min(FORCED_MOVE_DEPTH);
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Whether the search must stop now (polled inside the tree).
    pub fn must_stop(&self, nodes: u64) -> bool {
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
    pub fn may_deepen(&self, nodes: u64) -> bool {
        !self.must_stop(nodes) && self.soft.is_none_or(|s| Instant::now() < s)
    }

    /// Whether the limits leave the search running until a stop.
    pub fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// An infinite search that ran out of depth still answers only after the stop.
    pub fn wait_if_infinite(&self) {
        if self.infinite {
            while !self.must_stop(0) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_move_gets_its_share_of_the_clock_and_never_the_whole_clock() {
        let clock = Clock {
            remaining: ms(60_000),
            increment: ms(0),
            moves_to_go: None,
        };
        assert_eq!(allocate(&clock, ms(0)), (ms(1_000), ms(4_000)));
        // Moves to go and the increment count; the overhead is kept back.
        let clock = Clock {
            remaining: ms(10_000),
            increment: ms(1_000),
            moves_to_go: Some(5),
        };
        assert_eq!(allocate(&clock, ms(0)), (ms(1_375), ms(5_500)));
        // With little time left, never more than half of it, and at most 3/4 hard.
        let clock = Clock {
            remaining: ms(100),
            increment: ms(5_000),
            moves_to_go: Some(1),
        };
        let (soft, hard) = allocate(&clock, ms(20));
        assert_eq!(soft, ms(20));
        assert_eq!(hard, ms(60));
        // An empty clock still allows a millisecond.
        let clock = Clock::default();
        assert_eq!(allocate(&clock, ms(50)).1, ms(1));
    }

    #[test]
    fn depth_limits_are_clamped_and_infinite_ignores_the_others() {
        let b = Budget::new(&Limits {
            depth: Some(500),
            ..Limits::default()
        });
        assert_eq!(b.depth, MAX_DEPTH);
        let b = Budget::new(&Limits {
            depth: Some(3),
            nodes: Some(10),
            infinite: true,
            ..Limits::default()
        });
        assert_eq!(b.depth, MAX_DEPTH);
        assert!(!b.must_stop(1_000_000));
        let stop = Arc::new(AtomicBool::new(true));
        let b = Budget::new(&Limits {
            infinite: true,
            stop: Some(stop),
            ..Limits::default()
        });
        assert!(b.must_stop(0));
    }
}
