//! Solving one level: the two bounds of every position, swept in place until they stop
//! changing, with the moment each bound reached its final value.
//!
//! The sweeps alternate between the movers (red-black Gauss-Seidel): South's positions
//! are updated from North's, then North's from South's just updated, so a sweep carries
//! the values two plies where a sweep from a copy of the level carries them one, and no
//! copy is kept: a position takes 4 bytes while its level is solved.
//!
//! A position's successors within its level have the other player to move, except when
//! the move empties the opponent's row: the mover then moves again. So the positions of
//! one mover read one another only through those *moving-again* positions (the
//! opponent's row empty), a few hundred thousand even at 28 counters. Each half-sweep
//! therefore has two phases: first the moving-again positions, from a copy of
//! themselves taken before the phase; then all the others, in parallel, each reading
//! only positions that no thread writes in that phase. The result never depends on the
//! threads.
//!
//! Every phase has a stamp (1, 2, 3, ...), and a bound that changes takes the phase's
//! stamp. A phase reads only values stamped before it, so a bound's final value rests
//! on successors whose relevant bounds were final at an earlier stamp: following
//! value-keeping moves to successors of earlier stamps makes progress, which is what
//! [`Table::best_move`] relies on (see the module above).

use std::sync::atomic::{AtomicU32, Ordering};

use super::{Level, Step, Table, next_composition, row_is_empty};
use crate::games::mangala::position::{PITS, ROW, row};

/// The most stamps a level may need: a stamp is 10 bits of a [`Packed`] word.
pub(super) const MAX_STAMP: u16 = (1 << 10) - 1;

/// A position's two bounds and the stamps at which they took their values, in one word:
/// each bound plus 32 in 6 bits (bounds lie within ±28), each stamp in 10 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packed(pub(super) u32);

impl Packed {
    pub(super) fn new(bounds: [i8; 2], stamps: [u16; 2]) -> Packed {
        let b = |v: i8| ((v as i32 + 32) as u32) & 0x3f;
        let s = |v: u16| (v.min(MAX_STAMP)) as u32;
        Packed(b(bounds[0]) | b(bounds[1]) << 6 | s(stamps[0]) << 12 | s(stamps[1]) << 22)
    }

    #[inline]
    pub(super) fn bounds(self) -> [i8; 2] {
        let b = |v: u32| ((v & 0x3f) as i32 - 32) as i8;
        [b(self.0), b(self.0 >> 6)]
    }

    #[inline]
    pub(super) fn stamps(self) -> [u16; 2] {
        [
            ((self.0 >> 12) & 0x3ff) as u16,
            ((self.0 >> 22) & 0x3ff) as u16,
        ]
    }
}

/// Why a level could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The memory it needed could not be had.
    Memory { mib: usize },
    /// It took more sweeps than its stamps can count.
    Unsettled { counters: usize, sweeps: u32 },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Memory { mib } => write!(
                f,
                "the endgame table needs {mib} MiB more memory than there is"
            ),
            BuildError::Unsettled { counters, sweeps } => write!(
                f,
                "the endgame table of {counters} counters had not settled after {sweeps} \
                 sweeps, more than its format can record"
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// `len` words holding `value`, or an error naming the memory they needed.
fn words(len: usize, value: Packed) -> Result<Vec<AtomicU32>, BuildError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| BuildError::Memory {
        mib: (len * std::mem::size_of::<AtomicU32>()) >> 20,
    })?;
    v.extend((0..len).map(|_| AtomicU32::new(value.0)));
    Ok(v)
}

impl Table {
    /// Solves level `n`, every lower level being solved: returns it with the sweeps it
    /// took.
    pub(super) fn build_level(&self, n: usize, threads: usize) -> Result<(Level, u32), BuildError> {
        let ranks = self.ranker.count(n) as usize;
        let start = Packed::new([-(n as i8), n as i8], [0, 0]);
        let states = words(2 * ranks, start)?;
        let again = [0, 1].map(|mover| self.moving_again(n, mover));
        let mut stamp: u16 = 0;
        let mut sweeps: u32 = 0;
        loop {
            if stamp + 4 > MAX_STAMP {
                return Err(BuildError::Unsettled {
                    counters: n,
                    sweeps,
                });
            }
            sweeps += 1;
            let mut changed = 0;
            for (mover, again) in again.iter().enumerate() {
                stamp += 1;
                changed += self.sweep_moving_again(n, &states, again, stamp);
                stamp += 1;
                changed += self.sweep_the_rest(n, &states, mover, stamp, threads);
            }
            if changed == 0 {
                break;
            }
        }
        Ok((Level::Built { states }, sweeps - 1))
    }

    /// The positions of level `n` where `mover` is to move and the opponent's row is
    /// empty, by index, with their pits, in index order.
    fn moving_again(&self, n: usize, mover: usize) -> Vec<(usize, [u8; PITS])> {
        let mut found = Vec::new();
        let mut own = [0u8; ROW];
        own[ROW - 1] = n as u8;
        loop {
            let mut pits = [0u8; PITS];
            pits[row(mover)].copy_from_slice(&own);
            found.push((self.ranker.index(&pits, n, mover), pits));
            if !next_composition(&mut own) {
                break;
            }
        }
        found.sort_unstable_by_key(|&(index, _)| index);
        found
    }

    /// The first phase of a half-sweep: the moving-again positions of one mover, each
    /// reading the others as they were before the phase. Returns the bounds changed.
    fn sweep_moving_again(
        &self,
        n: usize,
        states: &[AtomicU32],
        again: &[(usize, [u8; PITS])],
        stamp: u16,
    ) -> usize {
        let before: Vec<u32> = again
            .iter()
            .map(|&(index, _)| states[index].load(Ordering::Relaxed))
            .collect();
        let mut changed = 0;
        for &(index, pits) in again {
            let mover = index % 2;
            let read = |successor: usize| {
                let word = if successor % 2 == mover {
                    // Also moving again: read from the copy.
                    let at = again
                        .binary_search_by_key(&successor, |&(i, _)| i)
                        .expect("a successor with the same mover has the opponent's row empty");
                    before[at]
                } else {
                    states[successor].load(Ordering::Relaxed)
                };
                Packed(word).bounds()
            };
            changed += self.update(n, &pits, mover, &states[index], stamp, read);
        }
        changed
    }

    /// The second phase: `mover`'s other positions, on `threads` threads. They read the
    /// other mover's positions and the moving-again ones, which no thread writes now.
    fn sweep_the_rest(
        &self,
        n: usize,
        states: &[AtomicU32],
        mover: usize,
        stamp: u16,
        threads: usize,
    ) -> usize {
        let ranks = states.len() / 2;
        let chunk = ranks.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..ranks)
                .step_by(chunk)
                .map(|first| {
                    let last = (first + chunk).min(ranks);
                    scope.spawn(move || {
                        let read =
                            |index: usize| Packed(states[index].load(Ordering::Relaxed)).bounds();
                        let mut pits = self.ranker.unrank(first as u64, n);
                        let mut changed = 0;
                        for rank in first..last {
                            if rank > first {
                                next_composition(&mut pits);
                            }
                            if row_is_empty(&pits, mover) || row_is_empty(&pits, 1 - mover) {
                                continue;
                            }
                            let state = &states[2 * rank + mover];
                            changed += self.update(n, &pits, mover, state, stamp, read);
                        }
                        changed
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a sweep thread does not panic"))
                .sum()
        })
    }

    /// Recomputes the bounds of `pits` (`mover` to move, `n` counters) from its moves,
    /// reading successors in the level through `read`; a bound that changes takes the
    /// stamp. Returns the bounds changed.
    #[inline]
    fn update(
        &self,
        n: usize,
        pits: &[u8; PITS],
        mover: usize,
        state: &AtomicU32,
        stamp: u16,
        read: impl Fn(usize) -> [i8; 2],
    ) -> usize {
        let old = Packed(state.load(Ordering::Relaxed));
        let bounds = old.bounds();
        if bounds[0] == bounds[1] {
            return 0;
        }
        let (mut lower, mut upper) = (i32::MIN, i32::MIN);
        for origin in row(mover) {
            if pits[origin] == 0 {
                continue;
            }
            let [lo, hi] = match self.sow_and_rank(pits, n, origin) {
                (taken, None) => [taken, taken],
                (taken, Some(next)) => {
                    let successor = if next.counters == n {
                        read(next.index)
                    } else {
                        self.levels[next.counters].bounds(next.index)
                    };
                    Step::new(taken, next.again, successor, [0, 0]).gain_bounds()
                }
            };
            lower = lower.max(lo);
            upper = upper.max(hi);
        }
        let new = [lower as i8, upper as i8];
        if new == bounds {
            return 0;
        }
        let mut stamps = old.stamps();
        let mut changed = 0;
        for side in 0..2 {
            if new[side] != bounds[side] {
                stamps[side] = stamp;
                changed += 1;
            }
        }
        state.store(Packed::new(new, stamps).0, Ordering::Relaxed);
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_keeps_bounds_and_stamps() {
        for bounds in [[-28, 28], [0, 0], [-3, 7], [28, 28], [-28, -28]] {
            for stamps in [[0, 0], [1, 1023], [517, 3]] {
                let packed = Packed::new(bounds, stamps);
                assert_eq!(packed.bounds(), bounds);
                assert_eq!(packed.stamps(), stamps);
            }
        }
    }

    /// The moving-again positions are exactly those with the opponent's row empty.
    #[test]
    fn the_moving_again_positions_are_those_with_the_opponents_row_empty() {
        let table = Table::build(2, false, 1).unwrap();
        for n in [2, 4, 6] {
            for mover in 0..2 {
                let listed: Vec<usize> = table.moving_again(n, mover).iter().map(|p| p.0).collect();
                let mut pits = super::super::first_composition(n);
                let mut expected = Vec::new();
                for rank in 0..table.ranker.count(n) as usize {
                    if row_is_empty(&pits, 1 - mover) {
                        expected.push(2 * rank + mover);
                    }
                    next_composition(&mut pits);
                }
                assert_eq!(listed, expected, "{n} counters, mover {mover}");
            }
        }
    }
}
