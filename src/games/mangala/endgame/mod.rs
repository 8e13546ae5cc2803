//! Endgame tables for Mangala II: for every position with at most `N` counters on the
//! board, proven bounds on what the player to move can still gain.
//!
//! The value of a position is the mover's *net gain*: counters the mover will still take
//! minus counters the opponent will still take (the counters left on the board at the
//! end count for their row's owner). Captured counters never come back, so the
//! positions with `n` counters on the board depend only on themselves and on those with
//! fewer: the tables are built level by level, `n = 1, 2, ..., N`.
//!
//! Within a level, positions can cycle, and the rules end a cycle on the third
//! occurrence of a position, which depends on the game's history, not on the position.
//! So the table does not pretend to know a single value. It stores two bounds that hold
//! under the real rules whatever the history:
//!
//! - `lower`: the mover can force a net gain of at least `lower` in a bounded number of
//!   moves, never relying on a repetition;
//! - `upper`: the opponent can hold the mover to at most `upper` in the same way.
//!
//! They are the least and greatest fixed points of the minimax equations, found by
//! sweeping the level until nothing changes (`lower` starts at `-n`, `upper` at `n`;
//! [`solve`] has how). Where they meet the value is exact, and [`Table::best_move`]
//! plays it out: with the moment (a stamp) at which each bound reached its final value
//! stored beside it, always choosing a value-keeping move that captures or whose
//! successor was settled earlier makes progress (the game leaves the level or ends), so
//! no repetition can intervene. Where they do
//! not meet, the outcome depends on cycles and the search decides within the bounds.
//!
//! Captures take 2, 4 or 6 counters, so from the start (72 counters) the board always
//! holds an even number: only the even levels are built. A position with an odd number
//! of counters can never be emptied, its game ends by repetition or the ply limit only,
//! and no bound on it would be exact; the table does not cover it.
//!
//! The tables assume no ply limit; the engine does not use them near the limit.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::sync::{Arc, Condvar, Mutex};

use super::position::{Move, PITS, ROW, row, sow};

mod file;
mod solve;
pub use file::{TableFileError, build_into, level_file_name, open_dir};
pub use solve::BuildError;

/// The most counters the tables can be built for (into files: `ludus endgame --write`):
/// the ranks stay in `u32` and the bounds in 6 bits up to here. Level 28 holds 3.35
/// billion positions, 13.4 GB while it is solved.
pub const MAX_COUNTERS: usize = 28;

/// The most counters an engine builds in memory (`Endgame Counters`): 24 takes 3.3 GB
/// and twelve minutes on two threads, 26 would take 10 GB; more comes from files.
pub const MAX_IN_MEMORY: usize = 24;

/// What the table knows about a position: bounds on the mover's net gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
}

impl Bounds {
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// The positions with `n` counters on the board, indexed by `2 * rank + mover`: built
/// here, or a table file mapped into memory.
enum Level {
    /// Each position's bounds and the stamps at which they were settled (see
    /// [`solve`]), a word each.
    Built {
        states: Vec<AtomicU32>,
    },
    Mapped(file::MappedLevel),
}

impl Level {
    /// Level 0: the board is empty, nothing more to gain.
    fn empty_board() -> Level {
        let word = || AtomicU32::new(solve::Packed::new([0, 0], [0, 0]).0);
        Level::Built {
            states: vec![word(), word()],
        }
    }

    /// The level of an odd number of counters, which is never built.
    fn empty() -> Level {
        Level::Built { states: Vec::new() }
    }

    /// Its positions, both movers counted.
    fn len(&self) -> usize {
        match self {
            Level::Built { states } => states.len(),
            Level::Mapped(mapped) => mapped.len(),
        }
    }

    /// The memory it takes, or the bytes of its file.
    fn bytes(&self) -> usize {
        match self {
            Level::Built { states } => 4 * states.len(),
            Level::Mapped(mapped) => mapped.bytes(),
        }
    }

    #[inline]
    fn bounds(&self, index: usize) -> [i8; 2] {
        match self {
            Level::Built { states } => solve::Packed(states[index].load(Relaxed)).bounds(),
            Level::Mapped(mapped) => mapped.bounds(index),
        }
    }

    /// Whether its file was found cut short under the engine (see
    /// [`crate::files::Mapped`]).
    fn damaged(&self) -> bool {
        matches!(self, Level::Mapped(mapped) if mapped.damaged())
    }

    #[inline]
    fn settled(&self, index: usize) -> [u16; 2] {
        match self {
            Level::Built { states } => solve::Packed(states[index].load(Relaxed)).stamps(),
            Level::Mapped(mapped) => mapped.settled(index),
        }
    }
}

/// Two levels are equal when every position's bounds and sweeps are, wherever they
/// are kept.
impl PartialEq for Level {
    fn eq(&self, other: &Level) -> bool {
        self.len() == other.len()
            && (0..self.len())
                .all(|i| self.bounds(i) == other.bounds(i) && self.settled(i) == other.settled(i))
    }
}

/// Measures of a finished build.
#[derive(Clone, Debug, Default)]
pub struct Statistics {
    /// Positions per level (index = counters on the board), both movers counted, those
    /// where the mover's row is empty (never met in play) left out.
    pub positions: Vec<u64>,
    /// Positions whose value is exact, per level.
    pub exact: Vec<u64>,
    /// Sweeps each level needed.
    pub sweeps: Vec<u32>,
    /// Seconds from the start of the build to the end of each level.
    pub seconds: Vec<f64>,
}

/// Endgame tables for every position with up to `max_counters` counters on the board.
pub struct Table {
    max_counters: usize,
    skip_origin: bool,
    ranker: Ranker,
    levels: Vec<Level>,
    statistics: Statistics,
    /// Set once the damage of a level's file has been logged.
    told_damaged: AtomicBool,
}

impl Table {
    /// Builds the tables (on `threads` threads) for the sowing rule `skip_origin`.
    /// Time and memory grow about fourfold every two counters; see mangala.md.
    /// The error says when the memory cannot be had.
    pub fn build(
        max_counters: usize,
        skip_origin: bool,
        threads: usize,
    ) -> Result<Table, BuildError> {
        Table::build_levels(
            max_counters,
            skip_origin,
            threads,
            &mut |_, _| Ok(None),
            &mut |_, level, _| Ok(level),
        )
    }

    /// [`Table::build`], each level taken from `stored` (given the level's counters and
    /// its number of positions) when it has it, else built and handed to `keep` with
    /// its sweeps, which gives back the level to hold (itself, or its file mapped).
    fn build_levels<E: From<BuildError>>(
        max_counters: usize,
        skip_origin: bool,
        threads: usize,
        stored: &mut dyn FnMut(usize, usize) -> Result<Option<(Level, u32)>, E>,
        keep: &mut dyn FnMut(usize, Level, u32) -> Result<Level, E>,
    ) -> Result<Table, E> {
        let started = std::time::Instant::now();
        let max_counters = max_counters.min(MAX_COUNTERS);
        let ranker = Ranker::new();
        let mut table = Table {
            max_counters,
            skip_origin,
            ranker,
            levels: Vec::with_capacity(max_counters + 1),
            statistics: Statistics::default(),
            told_damaged: AtomicBool::new(false),
        };
        table.levels.push(Level::empty_board());
        table.statistics.positions.push(0);
        table.statistics.exact.push(0);
        table.statistics.sweeps.push(0);
        table.statistics.seconds.push(0.0);
        for n in 1..=max_counters {
            if n % 2 == 1 {
                table.levels.push(Level::empty());
                table.statistics.positions.push(0);
                table.statistics.exact.push(0);
                table.statistics.sweeps.push(0);
                table
                    .statistics
                    .seconds
                    .push(started.elapsed().as_secs_f64());
                continue;
            }
            let states = table.ranker.count(n) as usize * 2;
            let (level, sweeps) = match stored(n, states)? {
                Some(found) => found,
                None => {
                    let (level, sweeps) = table.build_level(n, threads.max(1))?;
                    (keep(n, level, sweeps)?, sweeps)
                }
            };
            let (mut positions, mut exact) = (0, 0);
            let mut pits = first_composition(n);
            for index in 0..level.len() / 2 {
                for mover in 0..2 {
                    if row_is_empty(&pits, mover) {
                        continue;
                    }
                    positions += 1;
                    let [lower, upper] = level.bounds(2 * index + mover);
                    exact += (lower == upper) as u64;
                }
                next_composition(&mut pits);
            }
            table.statistics.positions.push(positions);
            table.statistics.exact.push(exact);
            table.statistics.sweeps.push(sweeps);
            table.levels.push(level);
            table
                .statistics
                .seconds
                .push(started.elapsed().as_secs_f64());
        }
        Ok(table)
    }

    /// The tables of the even levels `2, 4, ...` given (made elsewhere: files).
    fn with_even_levels(even: Vec<Level>, skip_origin: bool) -> Table {
        let max_counters = 2 * even.len();
        let mut levels = vec![Level::empty_board()];
        for level in even {
            levels.push(Level::empty());
            levels.push(level);
        }
        Table {
            max_counters,
            skip_origin,
            ranker: Ranker::new(),
            levels,
            statistics: Statistics::default(),
            told_damaged: AtomicBool::new(false),
        }
    }

    pub fn max_counters(&self) -> usize {
        self.max_counters
    }
    pub fn skip_origin(&self) -> bool {
        self.skip_origin
    }
    pub fn statistics(&self) -> &Statistics {
        &self.statistics
    }
    /// The memory the tables for up to `counters` counters take.
    pub fn memory_bytes_up_to(&self, counters: usize) -> usize {
        let levels = self.levels.iter().take(counters + 1);
        levels.map(Level::bytes).sum()
    }

    /// The bounds for `pits` with `mover` to move, if the table covers them (the mover's
    /// row must hold a counter, as it always does in play).
    pub fn probe(&self, pits: &[u8; PITS], mover: usize) -> Option<Bounds> {
        let n: usize = pits.iter().map(|&c| c as usize).sum();
        if n > self.max_counters || n % 2 == 1 || row_is_empty(pits, mover) {
            return None;
        }
        let [lower, upper] = self.levels[n].bounds(self.ranker.index(pits, n, mover));
        if self.damaged() {
            return None;
        }
        Some(Bounds {
            lower: lower as i32,
            upper: upper as i32,
        })
    }

    /// Whether a level's file was found cut short under the engine: the table then
    /// answers nothing more (what it read may be zeros), and says so once.
    fn damaged(&self) -> bool {
        if !crate::files::any_map_damaged() {
            return false;
        }
        let damaged = self.levels.iter().any(Level::damaged);
        if damaged && !self.told_damaged.swap(true, Relaxed) {
            log::error!(
                "an endgame table file was changed under the engine (cut short): the \
                 tables are no longer used; set EndgamePath again once the files are whole"
            );
        }
        damaged
    }

    /// A move that secures the lower bound and makes progress, with the position's
    /// bounds: played at every turn, it gains at least `lower` and leaves the level (or
    /// ends the game) without any position repeating. Where the value is exact this is
    /// perfect play. `None` when the table does not cover the position.
    pub fn best_move(&self, pits: &[u8; PITS], mover: usize) -> Option<(Move, Bounds)> {
        let bounds = self.probe(pits, mover)?;
        let mut best: Option<(u16, Move)> = None;
        for origin in row(mover) {
            if pits[origin] == 0 {
                continue;
            }
            let step = self.step(pits, origin);
            if step.gain_bounds()[0] == bounds.lower {
                // A capture leaves the level: progress whatever its successor's stamp.
                let settled = if step.leaves_level() {
                    0
                } else {
                    step.settled_in
                };
                if best.is_none_or(|(s, _)| settled < s) {
                    best = Some((settled, Move(origin as u8)));
                }
            }
        }
        // The successors were read after the probe: still whole?
        best.filter(|_| !self.damaged()).map(|(_, mv)| (mv, bounds))
    }

    /// Sows `origin` from `pits` and looks the result up (final values only).
    fn step(&self, pits: &[u8; PITS], origin: usize) -> Step {
        let counters = pits.iter().map(|&c| c as usize).sum();
        match self.sow_and_rank(pits, counters, origin) {
            (taken, None) => Step::end(taken),
            (taken, Some(next)) => {
                let level = &self.levels[next.counters];
                Step::new(
                    taken,
                    next.again,
                    level.bounds(next.index),
                    level.settled(next.index),
                )
            }
        }
    }

    /// Sows `origin` from `pits` (which hold `counters`): the counters taken, and the
    /// position it leads to unless that sowing ended the game. The solver and the
    /// look-ups share it, so that both follow a move the same way.
    fn sow_and_rank(
        &self,
        pits: &[u8; PITS],
        counters: usize,
        origin: usize,
    ) -> (i32, Option<Successor>) {
        let mover = origin / ROW;
        let mut after = *pits;
        let taken = sow(&mut after, origin, self.skip_origin) as i32;
        let left = counters - taken as usize;
        if left == 0 {
            return (taken, None);
        }
        let next = if row_is_empty(&after, 1 - mover) {
            mover
        } else {
            1 - mover
        };
        let successor = Successor {
            again: next == mover,
            counters: left,
            index: self.ranker.index(&after, left, next),
        };
        (taken, Some(successor))
    }
}

/// The position a move leads to, in the tables' terms.
struct Successor {
    /// The mover moves again (the opponent's row is empty).
    again: bool,
    /// Its counters: its level.
    counters: usize,
    /// Its index in that level.
    index: usize,
}

/// A table built in memory for the engines of the process that want it: built once in
/// the background, kept while an engine holds it. Engines that want different tables
/// each keep their own.
pub struct Building {
    key: (usize, bool),
    state: Mutex<BuildState>,
    done: Condvar,
}

enum BuildState {
    Running,
    Ready(Arc<Table>),
    Failed,
}

/// The builds asked for, held by the engines that asked (a build running holds its own).
static BUILDS: Mutex<Vec<std::sync::Weak<Building>>> = Mutex::new(Vec::new());

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The in-memory table for positions with up to `counters` counters (at least 2) under
/// the sowing rule `skip_origin`: the one an engine of the process already holds, or a
/// new build on a thread of its own (`threads` sweeping). A build that fails for want of
/// memory is logged and leaves no table.
pub fn build_in_background(counters: usize, skip_origin: bool, threads: usize) -> Arc<Building> {
    let key = (counters.clamp(2, MAX_IN_MEMORY), skip_origin);
    let mut builds = lock(&BUILDS);
    builds.retain(|b| b.strong_count() > 0);
    if let Some(found) = builds
        .iter()
        .filter_map(|b| b.upgrade())
        .find(|b| b.key == key)
    {
        return found;
    }
    let building = Arc::new(Building {
        key,
        state: Mutex::new(BuildState::Running),
        done: Condvar::new(),
    });
    builds.push(Arc::downgrade(&building));
    let builder = building.clone();
    std::thread::spawn(move || {
        let started = std::time::Instant::now();
        let state = match Table::build(key.0, key.1, threads) {
            Ok(table) => {
                log::info!(
                    "Mangala II endgame table for {} counters built in {:.1} s",
                    key.0,
                    started.elapsed().as_secs_f64()
                );
                BuildState::Ready(Arc::new(table))
            }
            Err(e) => {
                log::warn!("{e}");
                BuildState::Failed
            }
        };
        *lock(&builder.state) = state;
        builder.done.notify_all();
    });
    building
}

impl Building {
    /// The table, if its build has ended.
    pub fn ready(&self) -> Option<Arc<Table>> {
        match &*lock(&self.state) {
            BuildState::Ready(table) => Some(table.clone()),
            _ => None,
        }
    }

    /// Waits for the build to end; the table, unless it failed.
    pub fn wait(&self) -> Option<Arc<Table>> {
        let mut state = lock(&self.state);
        loop {
            match &*state {
                BuildState::Ready(table) => return Some(table.clone()),
                BuildState::Failed => return None,
                BuildState::Running => {
                    state = self.done.wait(state).unwrap_or_else(|e| e.into_inner())
                }
            }
        }
    }

    /// Whether it is the table for up to `counters` counters under the sowing rule.
    pub fn is_for(&self, counters: usize, skip_origin: bool) -> bool {
        self.key == (counters.clamp(2, MAX_IN_MEMORY), skip_origin)
    }
}

/// The tables of a folder of table files (`EndgamePath`), for both sowing rules where
/// the folder has them; opened once and shared by every engine of the process.
///
/// Opening checks every file's header and length, and the checksums of the small
/// files; the large ones' checksums are checked on a thread of their own, and each
/// level is used once its file has passed (see [`TableFiles::table`]).
pub struct TableFiles {
    dir: PathBuf,
    /// By sowing rule: `[default, skip-origin]`.
    state: Mutex<[RuleFiles; 2]>,
    checked: Condvar,
}

#[derive(Default)]
struct RuleFiles {
    /// The levels checked so far.
    table: Option<Arc<Table>>,
    /// The file that ended the levels used, with why.
    refused: Option<TableFileError>,
    /// The most counters of the levels still being checked (0: none).
    checking_up_to: usize,
}

static FILES: Mutex<Vec<(PathBuf, std::sync::Weak<TableFiles>)>> = Mutex::new(Vec::new());

impl TableFiles {
    /// The tables in `dir`, mapped into memory (see [`open_dir`]); a folder already
    /// opened by an engine of the process is shared, not opened again. A folder
    /// without a sound first level for either rule is refused.
    pub fn open(dir: &Path) -> Result<Arc<TableFiles>, TableFileError> {
        let dir = std::fs::canonicalize(dir).map_err(|error| TableFileError::Io {
            path: dir.to_path_buf(),
            error,
        })?;
        let mut opened = lock(&FILES);
        opened.retain(|(_, f)| f.strong_count() > 0);
        if let Some(found) = opened
            .iter()
            .find(|(d, _)| *d == dir)
            .and_then(|(_, f)| f.upgrade())
        {
            return Ok(found);
        }
        let mut rules: [RuleFiles; 2] = Default::default();
        let mut to_check = Vec::new();
        let mut first_error = None;
        for (rule, skip_origin) in rules.iter_mut().zip([false, true]) {
            match file::open_dir_checking_small(&dir, skip_origin, file::CHECKED_AT_ONCE) {
                Ok((levels, pending, refused)) => {
                    rule.table = Some(Arc::new(file::table_of(&levels, skip_origin)));
                    rule.refused = refused;
                    rule.checking_up_to = pending.up_to();
                    if !pending.is_empty() {
                        to_check.push((skip_origin, levels, pending));
                    }
                }
                Err(TableFileError::Missing { .. }) => {}
                Err(e) => first_error = first_error.or(Some(e)),
            }
        }
        if rules.iter().all(|r| r.table.is_none()) {
            return Err(first_error.unwrap_or(TableFileError::Missing {
                path: dir.join(level_file_name(2, false)),
            }));
        }
        for e in rules.iter().filter_map(|r| r.refused.as_ref()) {
            log::warn!("{e}");
        }
        let files = Arc::new(TableFiles {
            dir: dir.clone(),
            state: Mutex::new(rules),
            checked: Condvar::new(),
        });
        if !to_check.is_empty() {
            let checker = files.clone();
            std::thread::spawn(move || checker.check(to_check));
        }
        opened.push((dir, Arc::downgrade(&files)));
        Ok(files)
    }

    /// Checks the large files' checksums, publishing each level as it passes.
    fn check(&self, to_check: Vec<(bool, Vec<file::MappedLevel>, file::Pending)>) {
        let started = std::time::Instant::now();
        for (skip_origin, levels, pending) in to_check {
            let rule = usize::from(skip_origin);
            let mut levels = levels;
            let refused = file::check_pending(&mut levels, pending, &mut |sound| {
                let table = Arc::new(file::table_of(sound, skip_origin));
                lock(&self.state)[rule].table = Some(table);
            });
            if let Some(e) = &refused {
                log::warn!("{e}");
            }
            let mut state = lock(&self.state);
            // A checksum that failed ends the levels before a file refused at opening.
            state[rule].refused = refused.or(state[rule].refused.take());
            state[rule].checking_up_to = 0;
        }
        log::info!(
            "endgame table files in {} checked in {:.1} s",
            self.dir.display(),
            started.elapsed().as_secs_f64()
        );
        self.checked.notify_all();
    }

    /// The table of the levels checked so far for the sowing rule, if the folder has
    /// one.
    pub fn table(&self, skip_origin: bool) -> Option<Arc<Table>> {
        lock(&self.state)[usize::from(skip_origin)].table.clone()
    }

    /// The most counters of the levels whose files are still being checked, if any.
    pub fn checking_up_to(&self, skip_origin: bool) -> Option<usize> {
        let up_to = lock(&self.state)[usize::from(skip_origin)].checking_up_to;
        (up_to > 0).then_some(up_to)
    }

    /// Waits until every file has been checked.
    pub fn wait_checked(&self) {
        let mut state = lock(&self.state);
        while state.iter().any(|r| r.checking_up_to > 0) {
            state = self.checked.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The folder, as the engine found it.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What is wrong with the files refused so far (each ends its rule's levels used).
    pub fn refused(&self) -> Vec<String> {
        let state = lock(&self.state);
        state
            .iter()
            .filter_map(|r| r.refused.as_ref().map(ToString::to_string))
            .collect()
    }
}

/// A position whose stored bounds are not what its moves give: the table is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    pub pits: [u8; PITS],
    pub mover: usize,
    pub what: String,
}

impl std::fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        write!(
            f,
            "{}/{} {}: {}",
            row(&self.pits[..ROW]),
            row(&self.pits[ROW..]),
            ["S", "N"][self.mover],
            self.what
        )
    }
}

impl Table {
    /// Checks level `n` against the rules, as a retrograde solver's result is checked:
    /// every position's bounds lie within what the board holds and are the best its
    /// moves give (the minimax equations), and where the value is exact the table's
    /// move keeps it and makes progress (its successor in the level settled in an
    /// earlier sweep). Returns the positions checked.
    pub fn verify_level(&self, n: usize, threads: usize) -> Result<u64, Inconsistency> {
        if n % 2 == 1 || n > self.max_counters {
            return Ok(0);
        }
        let ranks = self.ranker.count(n);
        let chunk = ranks.div_ceil(threads.max(1) as u64).max(1);
        let results: Vec<Result<u64, Inconsistency>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..ranks)
                .step_by(chunk as usize)
                .map(|first| {
                    let last = (first + chunk).min(ranks);
                    scope.spawn(move || self.verify_ranks(n, first, last))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a check thread does not panic"))
                .collect()
        });
        results.into_iter().sum()
    }

    /// [`Table::verify_level`] for the ranks `first..last` of level `n`.
    fn verify_ranks(&self, n: usize, first: u64, last: u64) -> Result<u64, Inconsistency> {
        let mut pits = self.ranker.unrank(first, n);
        let mut checked = 0;
        for rank in first..last {
            if rank > first {
                next_composition(&mut pits);
            }
            for mover in 0..2 {
                if row_is_empty(&pits, mover) {
                    continue;
                }
                checked += 1;
                let wrong = |what: String| Inconsistency { pits, mover, what };
                let index = self.ranker.index(&pits, n, mover);
                let [lower, upper] = self.levels[n].bounds(index).map(i32::from);
                if !(-(n as i32) <= lower && lower <= upper && upper <= n as i32) {
                    return Err(wrong(format!(
                        "bounds {lower}..{upper} with {n} on the board"
                    )));
                }
                let steps: Vec<Step> = row(mover)
                    .filter(|&o| pits[o] > 0)
                    .map(|o| self.step(&pits, o))
                    .collect();
                let best = |side: usize| steps.iter().map(|s| s.gain_bounds()[side]).max();
                if best(0) != Some(lower) || best(1) != Some(upper) {
                    let shown = |b: Option<i32>| b.map_or("nothing".to_string(), |v| v.to_string());
                    return Err(wrong(format!(
                        "bounds {lower}..{upper}, but the moves give {}..{}",
                        shown(best(0)),
                        shown(best(1))
                    )));
                }
                if lower != upper {
                    continue;
                }
                let own = self.levels[n].settled(index)[0];
                let progress = steps.iter().any(|s| {
                    s.gain_bounds()[0] == lower && (s.leaves_level() || s.settled_in < own)
                });
                if !progress && own > 0 {
                    return Err(wrong(format!(
                        "value {lower} settled in sweep {own}, but no move keeping it was \
                         settled earlier"
                    )));
                }
            }
        }
        Ok(checked)
    }
}

/// `ludus endgame --verify DIR`: checks every level of the files in `dir` (see
/// [`Table::verify_level`]) and reports, per level, the positions checked and the time.
pub fn verify_report(dir: &Path, skip_origin: bool) -> Result<String, VerifyError> {
    let (table, refused) = open_dir(dir, skip_origin)?;
    let mut out = String::from("counters  positions  seconds\n");
    for n in (2..=table.max_counters()).step_by(2) {
        let started = std::time::Instant::now();
        let checked = table.verify_level(n, 2).map_err(|e| VerifyError::Wrong {
            counters: n,
            inconsistency: e,
        })?;
        out.push_str(&format!(
            "{n:>8} {checked:>10} {:>8.2}\n",
            started.elapsed().as_secs_f64()
        ));
    }
    match refused {
        Some(e) => Err(VerifyError::File(e)),
        None => {
            out.push_str(&format!(
                "every position of 2 to {} counters agrees with its moves\n",
                table.max_counters()
            ));
            Ok(out)
        }
    }
}

/// Why `ludus endgame --verify` failed.
#[derive(Debug)]
pub enum VerifyError {
    /// A file could not be used.
    File(TableFileError),
    /// A position's stored value is wrong.
    Wrong {
        counters: usize,
        inconsistency: Inconsistency,
    },
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::File(e) => e.fmt(f),
            VerifyError::Wrong {
                counters,
                inconsistency,
            } => write!(
                f,
                "the table of {counters} counters is wrong at {inconsistency}"
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

impl From<TableFileError> for VerifyError {
    fn from(e: TableFileError) -> Self {
        VerifyError::File(e)
    }
}

/// A move looked up: what it takes and what it leads to, from the mover's view.
struct Step {
    taken: i32,
    /// The mover moves again (the opponent's row is empty).
    again: bool,
    successor: [i8; 2],
    /// The sweep in which the successor's relevant bound was settled.
    settled_in: u16,
}

impl Step {
    fn end(taken: i32) -> Step {
        Step {
            taken,
            again: true,
            successor: [0, 0],
            settled_in: 0,
        }
    }

    fn new(taken: i32, again: bool, successor: [i8; 2], settled: [u16; 2]) -> Step {
        Step {
            taken,
            again,
            successor,
            // The mover's lower bound rests on the successor's lower bound when the
            // mover moves again, on the opponent's upper bound otherwise.
            settled_in: if again { settled[0] } else { settled[1] },
        }
    }

    /// Whether the move leaves its level: a capture (which the end of a game is too).
    fn leaves_level(&self) -> bool {
        self.taken > 0
    }

    /// Bounds on the mover's net gain through this move.
    fn gain_bounds(&self) -> [i32; 2] {
        let [lo, hi] = self.successor.map(|b| b as i32);
        if self.again {
            [self.taken + lo, self.taken + hi]
        } else {
            [self.taken - hi, self.taken - lo]
        }
    }
}

fn row_is_empty(pits: &[u8; PITS], player: usize) -> bool {
    pits[row(player)].iter().all(|&c| c == 0)
}

/// Ranks the distributions of `n` counters over the twelve pits in lexicographic order
/// of the pits (the combinatorial number system for compositions).
struct Ranker {
    /// `below[pit][r][c]`: the distributions of `r` counters over pits `pit..` whose
    /// first pit holds fewer than `c`.
    below: Vec<[[u32; MAX_COUNTERS + 2]; MAX_COUNTERS + 1]>,
    /// `spread[k][r]`: the ways to put `r` counters into `k` pits.
    spread: [[u64; MAX_COUNTERS + 1]; PITS + 1],
}

impl Ranker {
    fn new() -> Ranker {
        let mut spread = [[0u64; MAX_COUNTERS + 1]; PITS + 1];
        spread[0][0] = 1;
        for k in 1..=PITS {
            for r in 0..=MAX_COUNTERS {
                spread[k][r] = (0..=r).map(|c| spread[k - 1][r - c]).sum();
            }
        }
        let mut below = vec![[[0u32; MAX_COUNTERS + 2]; MAX_COUNTERS + 1]; PITS];
        for (pit, table) in below.iter_mut().enumerate() {
            let rest = PITS - pit - 1;
            for r in 0..=MAX_COUNTERS {
                for c in 1..=r + 1 {
                    table[r][c] = table[r][c - 1] + spread[rest][r - (c - 1)] as u32;
                }
            }
        }
        Ranker { below, spread }
    }

    /// The distributions of `n` counters.
    fn count(&self, n: usize) -> u64 {
        self.spread[PITS][n]
    }

    /// The index of `pits` (holding `n` counters) with `mover` to move.
    #[inline]
    fn index(&self, pits: &[u8; PITS], n: usize, mover: usize) -> usize {
        let mut rank = 0usize;
        let mut remaining = n;
        for (pit, &c) in pits.iter().enumerate().take(PITS - 1) {
            rank += self.below[pit][remaining][c as usize] as usize;
            remaining -= c as usize;
        }
        2 * rank + mover
    }

    /// The distribution of `n` counters with this rank.
    fn unrank(&self, mut rank: u64, n: usize) -> [u8; PITS] {
        let mut pits = [0u8; PITS];
        let mut remaining = n;
        for (pit, slot) in pits.iter_mut().enumerate().take(PITS - 1) {
            let mut c = 0;
            while self.below[pit][remaining][c + 1] as u64 <= rank {
                c += 1;
            }
            rank -= self.below[pit][remaining][c] as u64;
            *slot = c as u8;
            remaining -= c;
        }
        pits[PITS - 1] = remaining as u8;
        pits
    }
}

/// The first distribution of `n` counters in rank order: all in the last pit.
fn first_composition(n: usize) -> [u8; PITS] {
    let mut pits = [0u8; PITS];
    pits[PITS - 1] = n as u8;
    pits
}

/// Steps to the next distribution in rank order (lexicographic in the pits, of the board
/// or of a row); the last one (all counters in the first pit) stays as it is, and the
/// answer is then `false`.
fn next_composition(pits: &mut [u8]) -> bool {
    let last = pits.len() - 1;
    // The rightmost pit before the last that can take a counter from the pits after it.
    let Some(last_full) = (1..=last).rev().find(|&p| pits[p] > 0) else {
        return false;
    };
    let pit = if pits[last] > 0 {
        last - 1
    } else {
        last_full - 1
    };
    let tail: u8 = pits[pit + 1..].iter().sum();
    pits[pit] += 1;
    pits[pit + 1..].iter_mut().for_each(|c| *c = 0);
    pits[last] = tail - 1;
    true
}

/// Builds the tables for positions of up to `counters` counters and reports, per
/// counters on the board, the positions, how many have an exact value, the sweeps,
/// the time and the memory taken (`ludus endgame`).
///
/// With `write`, the tables are built into that folder, a file a level (see
/// [`build_into`]: levels already there are read), with a progress line a level on
/// standard error.
pub fn report(
    counters: usize,
    skip_origin: bool,
    write: Option<&std::path::Path>,
) -> Result<String, TableFileError> {
    let start = std::time::Instant::now();
    let table = match write {
        Some(dir) => build_into(dir, counters, skip_origin, 2, &mut std::io::stderr())?,
        None => Table::build(counters, skip_origin, 2)?,
    };
    let elapsed = start.elapsed();
    let stats = table.statistics();
    let mut out = String::from("counters  positions      exact   exact%  sweeps  seconds   MiB\n");
    // Odd counts never occur in play and are not built (mangala.md).
    for n in (2..stats.positions.len()).step_by(2) {
        let (positions, exact) = (stats.positions[n], stats.exact[n]);
        out.push_str(&format!(
            "{n:>8} {positions:>10} {exact:>10} {:>7.2}% {:>7} {:>8.2} {:>5}\n",
            100.0 * exact as f64 / positions.max(1) as f64,
            stats.sweeps[n],
            stats.seconds[n],
            table.memory_bytes_up_to(n) >> 20
        ));
    }
    out.push_str(&format!(
        "built in {:.2} s, {} MiB\n",
        elapsed.as_secs_f64(),
        table.memory_bytes_up_to(counters) >> 20
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::mangala::Position;

    #[test]
    fn ranks_enumerate_every_distribution_once_in_order() {
        let ranker = Ranker::new();
        for n in [0, 1, 2, 5, 7] {
            let mut pits = first_composition(n);
            for rank in 0..ranker.count(n) {
                assert_eq!(ranker.index(&pits, n, 0), 2 * rank as usize);
                assert_eq!(ranker.unrank(rank, n), pits);
                assert_eq!(pits.iter().map(|&c| c as usize).sum::<usize>(), n);
                next_composition(&mut pits);
            }
        }
        // 1 + 11 choose 11 distributions of one counter, 455 of three.
        assert_eq!(ranker.count(1), 12);
        assert_eq!(ranker.count(3), 364);
        assert_eq!(ranker.count(20), 84_672_315);
    }

    /// The bounds satisfy the minimax equations they are the fixed points of.
    #[test]
    fn bounds_are_consistent_with_every_move() {
        let table = Table::build(6, false, 2).unwrap();
        for n in [2, 4, 6] {
            let mut pits = first_composition(n);
            for _ in 0..table.ranker.count(n) {
                for mover in 0..2 {
                    let Some(b) = table.probe(&pits, mover) else {
                        continue;
                    };
                    assert!(b.lower <= b.upper && b.upper <= n as i32 && b.lower >= -(n as i32));
                    let steps: Vec<[i32; 2]> = row(mover)
                        .filter(|&o| pits[o] > 0)
                        .map(|o| table.step(&pits, o).gain_bounds())
                        .collect();
                    assert_eq!(b.lower, steps.iter().map(|s| s[0]).max().unwrap());
                    assert_eq!(b.upper, steps.iter().map(|s| s[1]).max().unwrap());
                }
                next_composition(&mut pits);
            }
        }
    }

    /// The check of `ludus endgame --verify` passes on a sound table and finds a bound
    /// changed by one.
    #[test]
    fn the_retrograde_check_passes_and_finds_a_wrong_value() {
        let mut table = Table::build(10, false, 2).unwrap();
        for n in (2..=10).step_by(2) {
            let positions = table.statistics.positions[n];
            assert_eq!(table.verify_level(n, 2), Ok(positions), "level {n}");
        }
        let Level::Built { states } = &mut table.levels[8] else {
            panic!("built in memory")
        };
        let word = states
            .iter_mut()
            .map(AtomicU32::get_mut)
            .find(|w| matches!(solve::Packed(**w).bounds(), [l, u] if l == u && l < 8))
            .unwrap();
        let packed = solve::Packed(*word);
        *word = solve::Packed::new(packed.bounds().map(|b| b + 1), packed.stamps()).0;
        let wrong = table.verify_level(8, 2).unwrap_err();
        assert!(wrong.what.contains("but the moves give"), "{wrong}");
    }

    #[test]
    fn odd_counts_are_left_out_and_two_counters_can_be_won() {
        let table = Table::build(2, false, 1).unwrap();
        // One counter is never taken: the game can only end by repetition, and the
        // table leaves such positions out.
        let mut one = [0u8; PITS];
        one[3] = 1;
        assert_eq!(table.probe(&one, 0), None);
        // South sows F (1) into a, which holds 1: a holds 2 and is taken.
        let mut two = [0u8; PITS];
        two[5] = 1;
        two[6] = 1;
        assert_eq!(table.probe(&two, 0).unwrap().exact(), Some(2));
        assert_eq!(table.best_move(&two, 0).map(|(m, _)| m), Some(Move(5)));
    }

    /// Playing the table's moves for one side against random replies under the real
    /// rules (repetitions included) always gains at least the lower bound, and the
    /// opponent playing the table's moves holds the mover to at most the upper bound.
    #[test]
    fn exact_values_are_achieved_in_play_under_the_real_rules() {
        let table = Table::build(8, false, 2).unwrap();
        let mut rng = 0x1234_5678u64;
        let mut checked = 0;
        for n in [2, 4, 6, 8] {
            let mut pits = first_composition(n);
            for _ in 0..table.ranker.count(n) {
                for mover in 0..2 {
                    let Some(bounds) = table.probe(&pits, mover) else {
                        continue;
                    };
                    // Keep the test fast: every 20th position.
                    let (state, draw) = crate::game::splitmix64(rng);
                    rng = state;
                    if draw % 20 != 0 {
                        continue;
                    }
                    checked += 1;
                    for table_side in [mover, 1 - mover] {
                        let gain = play_out(&table, pits, mover, table_side, &mut rng);
                        if table_side == mover {
                            assert!(
                                gain >= bounds.lower,
                                "{pits:?} {mover}: {gain} < {bounds:?}"
                            );
                        } else {
                            assert!(
                                gain <= bounds.upper,
                                "{pits:?} {mover}: {gain} > {bounds:?}"
                            );
                        }
                    }
                }
                next_composition(&mut pits);
            }
        }
        assert!(checked > 1_000, "only {checked} positions checked");
    }

    /// Both sides playing the table's moves from every position of the small levels:
    /// no position repeats before the board has fewer counters (each move captures or
    /// reaches a position settled earlier), and the game gives exactly the value.
    #[test]
    fn the_tables_moves_make_progress_and_give_the_exact_value() {
        let table = Table::build(10, false, 2).unwrap();
        let mut checked = 0;
        for n in [2, 4, 6, 8, 10] {
            let mut pits = first_composition(n);
            for _ in 0..table.ranker.count(n) {
                for mover in 0..2 {
                    let Some(bounds) = table.probe(&pits, mover) else {
                        continue;
                    };
                    let value = bounds.exact().expect("every small level is exact");
                    let (mut at, mut to_move, mut gain) = (pits, mover, 0);
                    let mut seen = std::collections::HashSet::new();
                    while at.iter().any(|&c| c > 0) {
                        assert!(
                            seen.insert((at, to_move)),
                            "{pits:?} {mover}: {at:?} {to_move} repeats"
                        );
                        let (mv, _) = table.best_move(&at, to_move).expect("covered");
                        let taken = sow(&mut at, mv.0 as usize, false) as i32;
                        gain += if to_move == mover { taken } else { -taken };
                        if taken > 0 {
                            seen.clear();
                        }
                        if !row_is_empty(&at, 1 - to_move) {
                            to_move = 1 - to_move;
                        }
                    }
                    assert_eq!(gain, value, "{pits:?} {mover}");
                    checked += 1;
                }
                next_composition(&mut pits);
            }
        }
        assert!(checked > 800_000, "{checked}");
    }

    /// Plays from `pits` (`mover` to move, no captures yet): `table_side` follows the
    /// table, the other side plays at random. Returns the
    /// mover's net gain at the end of the game under the real rules.
    fn play_out(
        table: &Table,
        pits: [u8; PITS],
        mover: usize,
        table_side: usize,
        rng: &mut u64,
    ) -> i32 {
        let mut position = Position::from_parts(pits, [0, 0], mover);
        position.set_rules(crate::games::mangala::Rules {
            skip_origin: false,
            ply_limit: None,
        });
        let mut moves = Vec::new();
        loop {
            if let Some(outcome) = position.outcome() {
                return outcome.scores[mover] - outcome.scores[1 - mover];
            }
            let to_move = position.to_move();
            let chosen = if to_move == table_side {
                table.best_move(position.pits(), to_move).map(|(m, _)| m)
            } else {
                None
            };
            let mv = chosen.unwrap_or_else(|| {
                position.legal_moves(&mut moves);
                let (state, draw) = crate::game::splitmix64(*rng);
                *rng = state;
                moves[(draw % moves.len() as u64) as usize]
            });
            Game::play(&mut position, mv);
        }
    }
}
