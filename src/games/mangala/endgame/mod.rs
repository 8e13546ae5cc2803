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
//! sweeping the level until nothing changes (`lower` starts at `-n`, `upper` at `n`).
//! Where they meet the value is exact, and [`Table::best_move`] plays it out: with the
//! sweep in which each bound reached its final value stored beside it, always choosing
//! a value-keeping move whose successor was settled in an earlier sweep makes progress
//! (the game leaves the level or ends), so no repetition can intervene. Where they do
//! not meet, the outcome depends on cycles and the search decides within the bounds.
//!
//! Captures take 2, 4 or 6 counters, so from the start (72 counters) the board always
//! holds an even number: only the even levels are built. A position with an odd number
//! of counters can never be emptied, its game ends by repetition or the ply limit only,
//! and no bound on it would be exact; the table does not cover it.
//!
//! The tables assume no ply limit; the engine does not use them near the limit.

use std::sync::{Arc, Condvar, Mutex};

use super::position::{Move, PITS, ROW, row, sow};

mod file;
pub use file::{TableFileError, build_into, level_file_name};

/// The most counters the tables can be built for: the index arithmetic stays in `u32`
/// up to here, and level 24 alone holds 2.5 billion positions.
pub const MAX_COUNTERS: usize = 24;

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

/// The positions with `n` counters on the board, indexed by `2 * rank + mover`.
#[derive(PartialEq, Eq)]
struct Level {
    /// The two bounds of each position.
    bounds: Vec<[i8; 2]>,
    /// The sweep in which each bound reached its final value.
    settled: Vec<[u16; 2]>,
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
}

impl Table {
    /// Builds the tables (on `threads` threads) for the sowing rule `skip_origin`.
    /// Time and memory grow about fourfold every two counters; see mangala.md.
    /// The error says when the memory cannot be had.
    pub fn build(
        max_counters: usize,
        skip_origin: bool,
        threads: usize,
    ) -> Result<Table, TableMemoryError> {
        Table::build_levels(
            max_counters,
            skip_origin,
            threads,
            &mut |_, _| Ok(None),
            &mut |_, _, _| Ok(()),
        )
    }

    /// [`Table::build`], each level taken from `stored` (given the level's counters and
    /// its number of positions) when it has it, else built and handed to `keep` with
    /// its sweeps.
    fn build_levels<E: From<TableMemoryError>>(
        max_counters: usize,
        skip_origin: bool,
        threads: usize,
        stored: &mut dyn FnMut(usize, usize) -> Result<Option<(Level, u32)>, E>,
        keep: &mut dyn FnMut(usize, &Level, u32) -> Result<(), E>,
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
        };
        // Level 0: the board is empty, nothing more to gain.
        table.levels.push(Level {
            bounds: vec![[0, 0]; 2],
            settled: vec![[0, 0]; 2],
        });
        table.statistics.positions.push(0);
        table.statistics.exact.push(0);
        table.statistics.sweeps.push(0);
        table.statistics.seconds.push(0.0);
        for n in 1..=max_counters {
            if n % 2 == 1 {
                table.levels.push(Level {
                    bounds: Vec::new(),
                    settled: Vec::new(),
                });
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
                    keep(n, &level, sweeps)?;
                    (level, sweeps)
                }
            };
            let (mut positions, mut exact) = (0, 0);
            let mut pits = first_composition(n);
            for index in 0..level.bounds.len() / 2 {
                for mover in 0..2 {
                    if row_is_empty(&pits, mover) {
                        continue;
                    }
                    positions += 1;
                    let [lower, upper] = level.bounds[2 * index + mover];
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
        levels.map(|l| l.bounds.len() * 6).sum()
    }

    /// The bounds for `pits` with `mover` to move, if the table covers them (the mover's
    /// row must hold a counter, as it always does in play).
    pub fn probe(&self, pits: &[u8; PITS], mover: usize) -> Option<Bounds> {
        let n: usize = pits.iter().map(|&c| c as usize).sum();
        if n > self.max_counters || n % 2 == 1 || row_is_empty(pits, mover) {
            return None;
        }
        let [lower, upper] = self.levels[n].bounds[self.ranker.index(pits, n, mover)];
        Some(Bounds {
            lower: lower as i32,
            upper: upper as i32,
        })
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
                let settled = step.settled_in;
                if best.is_none_or(|(s, _)| settled < s) {
                    best = Some((settled, Move(origin as u8)));
                }
            }
        }
        best.map(|(_, mv)| (mv, bounds))
    }

    /// Sows `origin` from `pits` and looks the result up (final values only).
    fn step(&self, pits: &[u8; PITS], origin: usize) -> Step {
        let mover = origin / ROW;
        let mut after = *pits;
        let taken = sow(&mut after, origin, self.skip_origin) as i32;
        let n: usize = after.iter().map(|&c| c as usize).sum();
        if n == 0 {
            return Step::end(taken);
        }
        let next = if row_is_empty(&after, 1 - mover) {
            mover
        } else {
            1 - mover
        };
        let index = self.ranker.index(&after, n, next);
        let level = &self.levels[n];
        Step::new(
            taken,
            next == mover,
            level.bounds[index],
            level.settled[index],
        )
    }

    /// Solves level `n`, every lower level being solved: returns it with its sweeps.
    fn build_level(&self, n: usize, threads: usize) -> Result<(Level, u32), TableMemoryError> {
        let states = self.ranker.count(n) as usize * 2;
        let mut bounds = filled(states, [-(n as i8), n as i8])?;
        let mut settled = filled(states, [0u16; 2])?;
        let mut previous = filled(states, [0i8; 2])?;
        let mut sweep: u32 = 0;
        loop {
            sweep += 1;
            previous.copy_from_slice(&bounds);
            let chunk = states.div_ceil(2 * threads) * 2;
            let changed: usize = std::thread::scope(|scope| {
                let handles: Vec<_> = bounds
                    .chunks_mut(chunk)
                    .zip(settled.chunks_mut(chunk))
                    .enumerate()
                    .map(|(i, (bounds, settled))| {
                        let previous = &previous;
                        let first = i * chunk;
                        scope.spawn(move || {
                            self.sweep_chunk(n, first, bounds, settled, previous, sweep)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a sweep thread does not panic"))
                    .sum()
            });
            if changed == 0 {
                break;
            }
        }
        Ok((Level { bounds, settled }, sweep - 1))
    }

    /// One Jacobi sweep over the positions `first..first + bounds.len()` of level `n`,
    /// reading the level's previous bounds; returns how many bounds changed.
    fn sweep_chunk(
        &self,
        n: usize,
        first: usize,
        bounds: &mut [[i8; 2]],
        settled: &mut [[u16; 2]],
        previous: &[[i8; 2]],
        sweep: u32,
    ) -> usize {
        let mut pits = self.ranker.unrank(first as u64 / 2, n);
        let mut changed = 0;
        for (k, (bound, settle)) in bounds.iter_mut().zip(settled.iter_mut()).enumerate() {
            let mover = (first + k) % 2;
            if k > 0 && mover == 0 {
                next_composition(&mut pits);
            }
            if bound[0] == bound[1] || row_is_empty(&pits, mover) {
                continue;
            }
            let (mut lower, mut upper) = (i32::MIN, i32::MIN);
            for origin in row(mover) {
                if pits[origin] == 0 {
                    continue;
                }
                let mut after = pits;
                let taken = sow(&mut after, origin, self.skip_origin) as i32;
                let m = n - taken as usize;
                let [lo, hi] = if m == 0 {
                    [taken, taken]
                } else {
                    let next = if row_is_empty(&after, 1 - mover) {
                        mover
                    } else {
                        1 - mover
                    };
                    let index = self.ranker.index(&after, m, next);
                    let successor = if m == n {
                        previous[index]
                    } else {
                        self.levels[m].bounds[index]
                    };
                    Step::new(taken, next == mover, successor, [0, 0]).gain_bounds()
                };
                lower = lower.max(lo);
                upper = upper.max(hi);
            }
            let new = [lower as i8, upper as i8];
            for side in 0..2 {
                if new[side] != bound[side] {
                    bound[side] = new[side];
                    settle[side] = sweep.min(u16::MAX as u32) as u16;
                    changed += 1;
                }
            }
        }
        changed
    }
}

/// The table the engines share: one per process, built in the background on request.
struct Registry {
    /// The last table asked for, by (counters, skip_origin).
    wanted: Option<(usize, bool)>,
    ready: Option<((usize, bool), Arc<Table>)>,
    building: Vec<(usize, bool)>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    wanted: None,
    ready: None,
    building: Vec::new(),
});
static BUILT: Condvar = Condvar::new();

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// The shared table for positions with up to `counters` counters under the sowing rule
/// `skip_origin`. If it is not built yet, its build starts on a thread of its own and
/// this returns `None` (or, with `wait`, waits for it). `counters` below 2 means no
/// table. A build that fails for want of memory is logged and leaves no table.
pub fn shared(counters: usize, skip_origin: bool, wait: bool) -> Option<Arc<Table>> {
    if counters < 2 {
        return None;
    }
    let key = (counters.min(MAX_COUNTERS), skip_origin);
    let mut reg = registry();
    reg.wanted = Some(key);
    if let Some(table) = ready_in(&reg, key) {
        return Some(table);
    }
    if !reg.building.contains(&key) {
        reg.building.push(key);
        // A background build leaves the other core to the search.
        let threads = if wait { 2 } else { 1 };
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let built = Table::build(key.0, key.1, threads);
            let mut reg = registry();
            reg.building.retain(|k| *k != key);
            match built {
                Ok(table) => {
                    log::info!(
                        "Mangala II endgame table for {} counters built in {:.1} s",
                        key.0,
                        started.elapsed().as_secs_f64()
                    );
                    if reg.wanted == Some(key) {
                        reg.ready = Some((key, Arc::new(table)));
                    }
                }
                Err(e) => log::warn!("{e}"),
            }
            BUILT.notify_all();
        });
    }
    if !wait {
        return None;
    }
    loop {
        if let Some((k, table)) = &reg.ready
            && *k == key
        {
            return Some(table.clone());
        }
        if !reg.building.contains(&key) || reg.wanted != Some(key) {
            return None;
        }
        reg = BUILT.wait(reg).unwrap_or_else(|e| e.into_inner());
    }
}

/// The shared table if it is built, without asking for a build.
pub fn built(counters: usize, skip_origin: bool) -> Option<Arc<Table>> {
    ready_in(&registry(), (counters.min(MAX_COUNTERS), skip_origin))
}

fn ready_in(reg: &Registry, key: (usize, bool)) -> Option<Arc<Table>> {
    match &reg.ready {
        Some((k, table)) if *k == key => Some(table.clone()),
        _ => None,
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

/// The memory an endgame table needed and could not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableMemoryError {
    pub mib: usize,
}

impl std::fmt::Display for TableMemoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the endgame table needs {} MiB more memory than there is",
            self.mib
        )
    }
}

impl std::error::Error for TableMemoryError {}

/// A vector of `len` copies of `value`, or an error naming the memory it needed.
fn filled<T: Copy>(len: usize, value: T) -> Result<Vec<T>, TableMemoryError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| TableMemoryError {
        mib: (len * std::mem::size_of::<T>()) >> 20,
    })?;
    v.resize(len, value);
    Ok(v)
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

/// Steps to the next distribution in rank order (lexicographic in the pits); the last
/// one (all counters in the first pit) stays as it is.
fn next_composition(pits: &mut [u8; PITS]) {
    // The rightmost pit before the last that can take a counter from the pits after it.
    let Some(last_full) = (1..PITS).rev().find(|&p| pits[p] > 0) else {
        return;
    };
    let pit = if pits[PITS - 1] > 0 {
        PITS - 2
    } else {
        last_full - 1
    };
    let tail: u8 = pits[pit + 1..].iter().sum();
    pits[pit] += 1;
    pits[pit + 1..].iter_mut().for_each(|c| *c = 0);
    pits[PITS - 1] = tail - 1;
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
