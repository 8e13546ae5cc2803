//! How long a search may run, and the stop flag that ends it early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    /// How many best lines to report (MultiPV); 0 and 1 both mean the best line only.
    pub multi_pv: usize,
    /// The root moves to choose among, in the canonical notation; empty: every one.
    pub searchmoves: Vec<String>,
    /// Set for a search on the opponent's time: until its hit, the search runs as if
    /// infinite; from then on under these limits, the clock counting from the hit.
    pub ponder: Option<Arc<Pondering>>,
    /// Told which root move the search is on, as GUIs show it (`currmove`): see
    /// [`RootMoves`].
    pub root_moves: Option<RootMoves>,
    /// Told what the user should know about the search beside its lines (the endgame
    /// tables it uses): the front ends print it as `info string`.
    pub notes: Option<Notes>,
    /// Every report carries the chances its score means (`UCI_ShowWDL`); the engine
    /// adds them, knowing the root ([`super::Searchable::chances_at`]).
    pub show_wdl: bool,
}

/// Where a search tells what it uses beside its own tree (see [`Limits::notes`]).
#[derive(Clone)]
pub struct Notes(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notes")
    }
}

/// Where a search tells which root move it is on: after the first second, at most
/// every 200 ms, the iteration's depth, the move (canonical) and its number (from 1).
#[derive(Clone)]
pub struct RootMoves(pub Arc<TellRootMove>);

/// Tells the depth, the root move and its number.
pub type TellRootMove = dyn Fn(u32, &str, usize) + Send + Sync;

impl std::fmt::Debug for RootMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RootMoves")
    }
}

/// After how long a search first tells its root move, and how often at most after.
pub const ROOT_MOVES_AFTER: Duration = Duration::from_secs(1);
pub const ROOT_MOVES_EVERY: Duration = Duration::from_millis(200);

/// A search that ponders, and the moment its pondering ended (`ponderhit`).
#[derive(Debug)]
pub struct Pondering {
    since: Instant,
    /// Nanoseconds from `since` to the hit; [`Pondering::ON`] while it ponders.
    hit_after: AtomicU64,
}

impl Pondering {
    const ON: u64 = u64::MAX;

    pub fn new() -> Pondering {
        Pondering {
            since: Instant::now(),
            hit_after: AtomicU64::new(Pondering::ON),
        }
    }

    /// The opponent played the move pondered on: the limits bind from now.
    pub fn hit(&self) {
        let after = self
            .since
            .elapsed()
            .as_nanos()
            .min(u128::from(Pondering::ON - 1));
        self.hit_after.store(after as u64, Ordering::Release);
    }

    pub fn is_on(&self) -> bool {
        self.hit_after.load(Ordering::Acquire) == Pondering::ON
    }

    /// When the pondering ended, if it has.
    fn hit_at(&self) -> Option<Instant> {
        match self.hit_after.load(Ordering::Acquire) {
            Pondering::ON => None,
            after => Some(self.since + Duration::from_nanos(after)),
        }
    }
}

impl Default for Pondering {
    fn default() -> Self {
        Pondering::new()
    }
}

impl Limits {
    /// Whether the search's answer may depend only on the position and the options, not
    /// on timing: it is bounded by depth, nodes or a mate's length alone.
    pub fn repeatable(&self) -> bool {
        !self.endless() && self.clock.is_none() && self.movetime.is_none() && self.ponder.is_none()
    }

    /// Tells `text` where [`Limits::notes`] says.
    pub fn note(&self, text: &str) {
        if let Some(Notes(tell)) = &self.notes {
            tell(text);
        }
    }

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

/// How much of a clock one move may use: an optimum, which the search stretches or
/// shrinks by how settled it is (see [`Budget::may_deepen_scaled`]), and a maximum,
/// at which it stops at once.
///
/// The moves still to come are the control's moves to go or, when it has none, the
/// game's estimate `moves_left`. The time they may share is the time left plus the
/// increments still to come, less the move overhead of each; the optimum is an even
/// share of it, never more than 1/5 of the time left (2/5 with moves to go, when the
/// clock is refilled). The maximum is five optima, never more than 3/4 of the time
/// left (1 ms at the least).
pub fn allocate(clock: &Clock, move_overhead: Duration, moves_left: u32) -> (Duration, Duration) {
    let left = clock.remaining.saturating_sub(move_overhead);
    let moves = clock.moves_to_go.unwrap_or(moves_left).clamp(1, 120);
    let pool = (left + clock.increment * (moves - 1)).saturating_sub(move_overhead * moves);
    // Without moves to go, never more than a fifth of the time left: in a long game
    // with an increment the clock then settles at several increments, a reserve
    // against a late answer (at 2/5 it ran down to about one and, on a loaded machine,
    // was overrun). A control with moves to go is refilled, and keeps 2/5.
    let cap = if clock.moves_to_go.is_some() {
        left * 2 / 5
    } else {
        left / 5
    };
    let optimum = (pool / moves).min(cap).max(Duration::from_millis(1));
    let maximum = (optimum * 5).min(left * 3 / 4).max(optimum);
    (optimum, maximum)
}

/// The part of the optimum after which no new iteration starts: the next one would
/// likely take longer than what is left of it.
const START_SHARE: f64 = 0.6;

/// The deepest a search of a forced move (the only legal one) goes when only the clock
/// limits it: deep enough for a score worth showing, too shallow to spend the clock.
pub const FORCED_MOVE_DEPTH: u32 = 6;

/// The limits turned into deadlines, for a running search.
pub struct Budget {
    started: Instant,
    /// The optimum time for this move (see [`allocate`]).
    optimum: Option<Duration>,
    /// Stop at once this long after the clock started.
    hard: Option<Duration>,
    /// A pondering search's clock starts at the hit.
    ponder: Option<Arc<Pondering>>,
    nodes: Option<u64>,
    pub(crate) depth: u32,
    /// A mate search's bound in plies (see [`Limits::mate`]).
    pub(crate) mate_plies: Option<u32>,
    stop: Option<Arc<AtomicBool>>,
    infinite: bool,
    /// Only the clock limits this search (no depth, nodes or time per move were asked).
    clock_only: bool,
    /// The time limit is a fixed time per move.
    movetime: bool,
}

impl Budget {
    /// The budget of a search under `limits`, for a game of about 30 moves left.
    pub fn new(limits: &Limits) -> Budget {
        Budget::with_moves_left(limits, 30)
    }

    /// The budget of a search under `limits`, the clock shared as if `moves_left` more
    /// moves were to come when the control does not say.
    pub fn with_moves_left(limits: &Limits, moves_left: u32) -> Budget {
        let started = limits.received.unwrap_or_else(Instant::now);
        let mut optimum = None;
        let mut hard = None;
        if !limits.infinite {
            if let Some(t) = limits.movetime {
                let t = t
                    .saturating_sub(limits.move_overhead)
                    .max(Duration::from_millis(1));
                // A fixed time per move is used whole: iterations start until it
                // has passed.
                optimum = Some(t);
                hard = Some(t);
            } else if let Some(clock) = limits.clock {
                let (optimum_share, maximum) = allocate(&clock, limits.move_overhead, moves_left);
                optimum = Some(optimum_share);
                hard = Some(maximum);
            }
        }
        let mate_plies = limits
            .mate
            .filter(|_| !limits.infinite)
            .map(|moves| (2 * moves.max(1) - 1).min(MAX_DEPTH));
        Budget {
            started,
            mate_plies,
            optimum,
            hard,
            nodes: if limits.infinite { None } else { limits.nodes },
            depth: if limits.infinite {
                MAX_DEPTH
            } else {
                let asked = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
                mate_plies.map_or(asked, |plies| asked.min(plies))
            },
            stop: limits.stop.clone(),
            ponder: limits.ponder.clone(),
            infinite: limits.infinite,
            movetime: limits.movetime.is_some(),
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
        let Some(clock_start) = self.clock_start() else {
            // Pondering: only a stop (or the hit) ends it.
            return false;
        };
        if self.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        self.hard.is_some_and(|h| clock_start.elapsed() >= h)
    }

    /// When the clock started: at the request, or at the hit of a search that
    /// pondered; `None` while it ponders.
    fn clock_start(&self) -> Option<Instant> {
        match &self.ponder {
            None => Some(self.started),
            Some(pondering) => pondering.hit_at(),
        }
    }

    /// Whether another iteration may start.
    pub fn may_deepen(&self, nodes: u64) -> bool {
        self.may_deepen_scaled(nodes, 1.0)
    }

    /// Whether another iteration may start, the optimum time scaled by `scale`: above
    /// 1 while the search is unsettled (the best move changing, the score falling),
    /// below while it is settled. A fixed time per move is used whole, unscaled.
    pub fn may_deepen_scaled(&self, nodes: u64, scale: f64) -> bool {
        if self.must_stop(nodes) {
            return false;
        }
        let Some(clock_start) = self.clock_start() else {
            return true;
        };
        let Some(optimum) = self.optimum else {
            return true;
        };
        let share = if self.movetime {
            1.0
        } else {
            START_SHARE * scale
        };
        clock_start.elapsed().as_secs_f64() < optimum.as_secs_f64() * share
    }

    /// Whether the limits leave the search running until a stop.
    pub fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// An infinite search that ran out of depth still answers only after the stop, and
    /// a pondering one only after the stop or the hit.
    pub fn wait_if_infinite(&self) {
        let stopped = || {
            self.stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        };
        while self.ponder.as_ref().is_some_and(|p| p.is_on()) && !stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        if self.infinite {
            while !self.must_stop(0) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
}

/// Limits of `depth` plies whose notes are collected in `told` (tests of what a search
/// tells).
#[cfg(test)]
pub(crate) fn depth_noting(depth: u32, told: &Arc<std::sync::Mutex<Vec<String>>>) -> Limits {
    let told = told.clone();
    Limits {
        depth: Some(depth),
        notes: Some(Notes(Arc::new(move |text: &str| {
            told.lock().unwrap().push(text.to_string())
        }))),
        ..Limits::default()
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
        // An even share over the moves the game expects; five times that at most.
        assert_eq!(allocate(&clock, ms(0), 30), (ms(2_000), ms(10_000)));
        assert_eq!(allocate(&clock, ms(0), 60), (ms(1_000), ms(5_000)));
        // Moves to go, when given, win over the estimate; the increments to come count.
        let clock = Clock {
            remaining: ms(10_000),
            increment: ms(1_000),
            moves_to_go: Some(5),
        };
        assert_eq!(allocate(&clock, ms(0), 80), (ms(2_800), ms(7_500)));
        // Every move to come keeps its overhead back.
        let clock = Clock {
            remaining: ms(10_000),
            increment: ms(100),
            moves_to_go: None,
        };
        assert_eq!(
            allocate(&clock, ms(10), 80).0,
            Duration::from_micros((9_990 + 7_900 - 800) * 1_000 / 80)
        );
        // With little time left before a control, never more than 2/5 of it, and at
        // most 3/4 at once.
        let clock = Clock {
            remaining: ms(100),
            increment: ms(5_000),
            moves_to_go: Some(1),
        };
        assert_eq!(allocate(&clock, ms(20), 30), (ms(32), ms(60)));
        // A long game with an increment: the optimum, a fifth of the time left, lets
        // the clock grow back toward several increments.
        let clock = Clock {
            remaining: ms(200),
            increment: ms(100),
            moves_to_go: None,
        };
        assert_eq!(allocate(&clock, ms(10), 60).0, ms(38));
        // An empty clock still allows a millisecond.
        let clock = Clock::default();
        assert_eq!(allocate(&clock, ms(50), 30), (ms(1), ms(1)));
    }

    #[test]
    fn an_unsettled_search_may_start_iterations_for_longer() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: ms(100_000),
                increment: ms(0),
                moves_to_go: Some(10),
            }),
            received: Some(Instant::now() - ms(7_000)),
            ..Limits::default()
        };
        // Optimum 10 s: after 7 s a settled search stops, an unsettled one goes on.
        let budget = Budget::new(&limits);
        assert!(!budget.may_deepen(0));
        assert!(!budget.may_deepen_scaled(0, 0.7));
        assert!(budget.may_deepen_scaled(0, 1.5));
        // A fixed time per move is used whole, never scaled.
        let limits = Limits {
            movetime: Some(ms(10_000)),
            received: Some(Instant::now() - ms(7_000)),
            ..Limits::default()
        };
        let budget = Budget::new(&limits);
        assert!(budget.may_deepen_scaled(0, 0.5));
        assert!(!budget.must_stop(0));
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
