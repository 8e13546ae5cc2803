//! The work thread: a search or a count runs on a thread of its own, holding the game,
//! while the front end keeps answering; `stop` ends it, and a session's limit on work
//! stops it as `stop` would.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use super::any_game::AnyGame;
use crate::search::skill::{LevelScale, Skill};
use crate::search::{Info, Limits, Lines, Score};

/// What running work is, for the requests that arrive while it runs (see
/// [`crate::protocol`]'s order of answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkKind {
    /// A search started by `go`: it answers on its own (`info`, one `bestmove`), so
    /// the requests that need no game are served beside it.
    Search,
    /// Work whose answer is the reply to its request (`genmove`, a count): every
    /// request after it waits for it, except `stop`, which ends it early.
    Reply,
}

/// What a job running on the work thread is given.
pub struct Job<'a> {
    pub table: &'a mut Box<dyn AnyGame>,
    /// Set by `stop`: searches and counts poll it.
    pub stop: &'a Arc<AtomicBool>,
    finished: &'a AtomicBool,
    /// The session's limit on work, and whether it is what stopped this work.
    limit: Option<(Duration, &'a AtomicBool)>,
}

impl Job<'_> {
    /// Marks the work as over; called just before the job writes its result, so that a
    /// command arriving after the result waits only the instant the thread takes to end.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Release);
    }

    /// Whether the session's limit on work stopped this work (as a `stop` would
    /// have): it did not end by its own limits or by a `stop` sent.
    pub fn stopped_at_limit(&self) -> Option<super::LimitReached> {
        let (limit, reached) = self.limit?;
        reached
            .load(Ordering::Acquire)
            .then_some(super::LimitReached(limit))
    }

    /// Searches with `limits` (and the stop flag), sending every report to `info`;
    /// gives the best move in the canonical notation (`None` when there is none), the
    /// reply it expects and, for a mate search, what it established
    /// ([`mate_verdict`]). A `weakened` search plays the line its level picks (see
    /// [`crate::search::skill`]). A failing search is logged and gives no move: it
    /// still owes its one answer.
    pub fn search(
        &mut self,
        mut limits: Limits,
        weakened: Option<Weakened>,
        info: &mut dyn FnMut(&Info),
    ) -> Searched {
        // (The engine weakened the limits already: see `Engine::go`.)
        limits.stop = Some(self.stop.clone());
        let shown = weakened.as_ref().map(|w| w.shown_lines);
        let table = &mut *self.table;
        // The best line's last report (with MultiPV the lines after it come later).
        let mut last: Option<Info> = None;
        // The lines of the iterations, for a weakened search's pick.
        let mut lines = Lines::default();
        let mut report = |report: &Info| {
            let k = report.multi_pv.unwrap_or(1);
            if shown.is_some() {
                lines.add(report.clone());
            }
            // A weakened search looks at more lines than were asked for: the client
            // sees those it asked for.
            match shown {
                Some(1) if k == 1 => info(&Info {
                    multi_pv: None,
                    ..report.clone()
                }),
                Some(shown) if k > shown => {}
                _ => info(report),
            }
            if k == 1 {
                last = Some(report.clone());
            }
        };
        let mut best = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            table.search(&limits, &mut report)
        }))
        .unwrap_or_else(|_| {
            log::error!("the search failed");
            None
        });
        if let Some(w) = &weakened
            && best.is_some()
            && let Some(picked) = w.skill.pick(lines.best(), w.mover, &w.scale, w.key)
            && picked.pv.first() != best.as_ref()
        {
            // The line played is reported last, as the best, so that the client's
            // last line and the move agree: as line 1 when the client asked for
            // several (so that a GUI's first line is the move), unlabelled else.
            let played = Info {
                multi_pv: (w.shown_lines > 1).then_some(1),
                ..picked.clone()
            };
            info(&played);
            best = played.pv.first().cloned();
            last = Some(played);
        }
        let ponder = last
            .as_ref()
            .filter(|info| info.pv.first() == best.as_ref())
            .and_then(|info| info.pv.get(1).cloned());
        Searched {
            best,
            ponder,
            mate_verdict: mate_verdict(&limits, last.as_ref()),
        }
    }
}

/// How a weakened search chooses its move (see [`Job::search`]).
pub struct Weakened {
    pub skill: Skill,
    pub scale: LevelScale,
    /// The player to move, whose view the pick takes.
    pub mover: usize,
    /// The position's key for the pick's random draws.
    pub key: u64,
    /// The lines the client asked for (MultiPV): the others are not reported.
    pub shown_lines: usize,
}

/// What [`Job::search`] gives.
pub struct Searched {
    /// The best move, canonical; `None` when the game is over (or the search failed).
    pub best: Option<String>,
    /// The reply the best line expects.
    pub ponder: Option<String>,
    /// For `go mate N`: the verdict to say before the move.
    pub mate_verdict: Option<String>,
}

/// Sets `stop` once `limit` has passed, unless the work has `finished` before; looks
/// often enough that the watch ends soon after the work.
fn stop_after(limit: Duration, stop: &AtomicBool, finished: &AtomicBool, reached: &AtomicBool) {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if finished.load(Ordering::Acquire) || stop.load(Ordering::Relaxed) {
            return;
        }
        let now = std::time::Instant::now();
        if now >= deadline {
            log::info!(
                "work stopped after {} ms, this session's limit",
                limit.as_millis()
            );
            reached.store(true, Ordering::Release);
            stop.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep((deadline - now).min(Duration::from_millis(20)));
    }
}

/// What a mate search (`go mate N`) established, said after its last `info` line:
/// the mate it found, that there is none within N moves (its exhaustive search ran to
/// the full depth), or that its other limits ended it before either. `None` for a
/// search that was no mate search.
pub fn mate_verdict(limits: &Limits, last: Option<&Info>) -> Option<String> {
    let moves = limits.mate?;
    let plies = 2 * moves.max(1) - 1;
    let found = last.and_then(|info| match info.scores.as_slice() {
        [Score::Mate(n)] if *n > 0 && *n as u32 <= plies => Some(*n as u32),
        _ => None,
    });
    let plural = |n: u32| if n == 1 { "move" } else { "moves" };
    if last.is_some_and(|info| info.scores.len() > 1) {
        return Some(format!(
            "no mates in a game of more than two players: searched {plies} plies deep"
        ));
    }
    Some(match found {
        Some(n) => {
            let m = n.div_ceil(2);
            format!("mate in {m} {} ({n} plies) found", plural(m))
        }
        None if last.is_some_and(|info| info.depth >= plies) => format!(
            "no mate in {moves} {}: every line to {plies} plies searched",
            plural(moves)
        ),
        None => format!(
            "no mate in {moves} {} found before the search ended; none is ruled out",
            plural(moves)
        ),
    })
}

struct Work {
    stop: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
    kind: WorkKind,
    /// Only `stop` ends it (an infinite search, or one without limits).
    endless: bool,
    handle: JoinHandle<Box<dyn AnyGame>>,
}

/// The game and the work that may hold it.
pub struct Worker {
    /// The game; `None` while a work thread holds it.
    table: Option<Box<dyn AnyGame>>,
    work: Option<Work>,
    /// Work is stopped after this long (see [`super::Bounds`]).
    work_limit: Option<Duration>,
}

impl Worker {
    pub fn new(table: Box<dyn AnyGame>) -> Worker {
        Worker {
            table: Some(table),
            work: None,
            work_limit: None,
        }
    }

    /// Stops every work after `limit` (`None`: only `stop` or its own limits end it).
    pub fn limit_work(&mut self, limit: Option<Duration>) {
        self.work_limit = limit;
    }

    /// What runs, if anything (finished work is collected first).
    pub fn running(&mut self) -> Option<WorkKind> {
        self.collect(false);
        self.work.as_ref().map(|w| w.kind)
    }

    /// Whether work runs.
    pub fn busy(&mut self) -> bool {
        self.running().is_some()
    }

    /// Whether the running work ends only on `stop`.
    pub fn endless(&mut self) -> bool {
        self.collect(false);
        self.work.as_ref().is_some_and(|w| w.endless)
    }

    /// The game. The front ends' order of serving asks for it only when no work runs;
    /// should one ask while work holds it, the work is stopped (and the fault logged)
    /// rather than the process.
    pub fn game(&mut self) -> &mut dyn AnyGame {
        self.collect(false);
        if self.table.is_none() {
            log::error!("the game was asked for while work held it: the work is stopped");
            self.stop();
        }
        self.table
            .as_deref_mut()
            .expect("stopped work hands the game back")
    }

    pub fn set_table(&mut self, table: Box<dyn AnyGame>) {
        self.stop();
        self.table = Some(table);
    }

    /// Takes the game back from finished work (`wait`: from work about to finish).
    fn collect(&mut self, wait: bool) {
        let finished = self
            .work
            .as_ref()
            .is_some_and(|w| wait || w.handle.is_finished() || w.finished.load(Ordering::Acquire));
        if finished && let Some(work) = self.work.take() {
            // The job runs under `catch_unwind` and hands the game back whatever happens.
            self.table = Some(
                work.handle
                    .join()
                    .expect("the work thread hands the game back"),
            );
        }
    }

    /// Waits for running work to end by itself.
    pub fn wait(&mut self) {
        self.collect(true);
    }

    /// Waits at most `timeout` for running work to end by itself; whether it has.
    pub fn wait_for(&mut self, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while self.busy() {
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// Ends running work and waits for it: a search gives its move, a count its
    /// (stopped) reply.
    pub fn stop(&mut self) {
        if let Some(work) = &self.work {
            work.stop.store(true, Ordering::Relaxed);
            self.collect(true);
        }
    }

    /// Takes the memory a search needs, so that it can be stopped at once after it
    /// starts; the error says when it cannot be had.
    pub fn prepare_search(&mut self) -> Result<(), super::GameError> {
        self.stop();
        self.game().prepare_search()
    }

    /// Runs `job` on the work thread with the game (for a search, call
    /// [`Worker::prepare_search`] first); `endless`: only `stop` will end it. A job
    /// that panics is logged; the game comes back as the job left it, which every job
    /// keeps consistent (counts walk a copy).
    pub fn spawn(
        &mut self,
        kind: WorkKind,
        endless: bool,
        job: impl FnOnce(&mut Job) + Send + 'static,
    ) {
        self.stop();
        let mut table = self.table.take().expect("no work runs");
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let (flag, done) = (stop.clone(), finished.clone());
        let reached = Arc::new(AtomicBool::new(false));
        let work_limit = self.work_limit;
        if let Some(limit) = work_limit {
            let (flag, done, reached) = (stop.clone(), finished.clone(), reached.clone());
            std::thread::spawn(move || stop_after(limit, &flag, &done, &reached));
        }
        let handle = std::thread::spawn(move || {
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                job(&mut Job {
                    table: &mut table,
                    stop: &flag,
                    finished: &done,
                    limit: work_limit.map(|limit| (limit, &*reached)),
                })
            }));
            if ran.is_err() {
                log::error!("the work thread failed; the game is kept as it was");
            }
            // For a job that did not say so itself (and for the watch of its time).
            done.store(true, Ordering::Release);
            table
        });
        self.work = Some(Work {
            stop,
            finished,
            kind,
            endless,
            handle,
        });
    }
}
