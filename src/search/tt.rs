//! The transposition table: buckets of four entries (one cache line), allocated once at
//! the size set in MiB; a new result replaces the entry of the same position, or else
//! the bucket's least worth keeping (empty first, then the shallowest, an older search's
//! entry counting eight plies less a search of age), so that deep results survive the
//! many shallow ones; shared without locks by the threads of one search.

use std::sync::atomic::{AtomicU64, Ordering};

/// The memory for a hash table could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

impl std::fmt::Display for MemoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} MiB for the hash table cannot be allocated", self.mib)
    }
}

impl std::error::Error for MemoryError {}

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored result: the key XOR the data, and the data, each an atomic word, so
/// that threads share the table without locks. A slot torn by two threads writing
/// at once fails the key check and is read as empty.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The data word: best move (32 bits), value (16), depth (8), bound (2) and
/// generation (6).
#[derive(Clone, Copy)]
struct Data {
    best: u32,
    value: i16,
    depth: u8,
    meta: u8,
}

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.best)
            | u64::from(self.value as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.meta) << 56
    }

    fn unpack(word: u64) -> Data {
        Data {
            best: word as u32,
            value: (word >> 32) as u16 as i16,
            depth: (word >> 48) as u8,
            meta: (word >> 56) as u8,
        }
    }
}

/// Entries a bucket holds.
const BUCKET: usize = 4;

/// `count` empty slots in zeroed memory, `None` if it cannot be had. Zeroed pages come
/// from the operating system untouched, so even gigabytes are taken at once (the pages
/// are filled as the search first writes them), where writing every slot would take
/// seconds. (A type aligned to the cache line would not come so: the allocator zeroes
/// over-aligned memory by writing it. The buckets are aligned by an offset instead.)
fn zeroed_slots(count: usize) -> Option<Vec<Slot>> {
    let layout = std::alloc::Layout::array::<Slot>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; a slot of zero bytes is the empty slot
    // (`Slot::default()`: two atomic words of 0), so zeroed memory holds `count`
    // valid slots; the memory comes from the global allocator with the layout of
    // `[Slot; count]`, as `Vec::from_raw_parts` requires.
    unsafe {
        // black_box: the compiler may otherwise drop an allocation whose memory is
        // never read and take it as granted, however large (seen in a release build).
        let memory = std::hint::black_box(std::alloc::alloc_zeroed(layout)) as *mut Slot;
        (!memory.is_null()).then(|| Vec::from_raw_parts(memory, count, count))
    }
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub best: Option<u32>,
    pub value: i32,
    pub depth: u32,
    pub bound: Bound,
    /// Stored by the search now running (not by an earlier one).
    pub fresh: bool,
}

/// The table. Its memory and generation are set between searches (`&mut`); during
/// one, every search thread probes and stores through a shared reference.
pub struct TranspositionTable {
    /// The buckets, `BUCKET` slots each, from `first` on (where a cache line starts).
    slots: Vec<Slot>,
    first: usize,
    /// The number of buckets; the memory is taken at the first search, not at creation,
    /// so that starting the engine or switching games stays instant.
    count: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of (about) `mib` MiB; at least one slot.
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable {
            slots: Vec::new(),
            first: 0,
            count: (mib * 1024 * 1024 / (BUCKET * std::mem::size_of::<Slot>())).max(1),
            generation: 0,
        }
    }

    /// Forgets everything (a new game). A large table is given back and taken anew,
    /// zeroed by the operating system: faster than writing every slot.
    pub fn clear(&mut self) {
        if self.slots.len() >= 1 << 16 {
            self.slots = Vec::new();
            if let Err(e) = self.allocate() {
                log::warn!("{e}");
            }
        } else {
            self.slots.iter_mut().for_each(|s| *s = Slot::default());
        }
        self.generation = 0;
    }

    /// Takes the table's memory if it has not yet; the error says when it cannot be had.
    pub fn allocate(&mut self) -> Result<(), MemoryError> {
        if self.slots.is_empty() {
            let size = std::mem::size_of::<Slot>();
            self.slots = zeroed_slots((self.count + 1) * BUCKET).ok_or(MemoryError {
                mib: (self.count * BUCKET * size) >> 20,
            })?;
            let line = BUCKET * size;
            let address = self.slots.as_ptr() as usize;
            self.first = ((line - address % line) % line / size).min(BUCKET);
        }
        Ok(())
    }

    /// Marks the start of a new search, so older entries give way. A table that could not
    /// be allocated leaves the search without one.
    pub fn new_search(&mut self) {
        if let Err(e) = self.allocate() {
            log::warn!("{e}; searching without a hash table");
        }
        self.generation = (self.generation + 1) & 63;
    }

    /// The bucket of `key`; `None` without memory.
    #[inline]
    fn bucket(&self, key: u64) -> Option<&[Slot]> {
        if self.slots.is_empty() {
            return None;
        }
        let index = ((key as u128 * self.count as u128) >> 64) as usize;
        self.slots.get(self.first + index * BUCKET..)?.get(..BUCKET)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)?.iter().find_map(|slot| {
            let word = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ word != key {
                return None;
            }
            let data = Data::unpack(word);
            if data.meta == 0 {
                return None;
            }
            let bound = match data.meta & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            };
            Some(Entry {
                best: (data.best != 0).then_some(data.best),
                value: data.value as i32,
                depth: data.depth as u32,
                bound,
                fresh: data.meta >> 2 == self.generation,
            })
        })
    }

    pub fn store(&self, key: u64, best: Option<u32>, value: i32, depth: u32, bound: Bound) {
        let generation = self.generation;
        let Some(bucket) = self.bucket(key) else {
            return;
        };
        // The entry of the same position, or else the one least worth keeping.
        let mut chosen = (&bucket[0], None, i32::MAX);
        for slot in bucket {
            let word = slot.data.load(Ordering::Relaxed);
            let old = Data::unpack(word);
            if slot.check.load(Ordering::Relaxed) ^ word == key && old.meta != 0 {
                chosen = (slot, Some(old), i32::MIN);
                break;
            }
            let worth = if old.meta == 0 {
                -1_000
            } else {
                let age = i32::from(generation.wrapping_sub(old.meta >> 2) & 63);
                i32::from(old.depth) - 8 * age
            };
            if worth < chosen.2 {
                chosen = (slot, None, worth);
            }
        }
        let (slot, same, _) = chosen;
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = Data {
            best: best.unwrap_or(same.map_or(0, |old| old.best)),
            value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.min(255) as u8,
            meta: bound_bits | generation << 2,
        }
        .pack();
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// How full the table is with this search's entries, in permille (UCI's
    /// `hashfull`), from its first thousand entries.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.iter().skip(self.first).take(1000);
        let (mut seen, mut fresh) = (0, 0);
        for slot in sample {
            seen += 1;
            let meta = Data::unpack(slot.data.load(Ordering::Relaxed)).meta;
            fresh += u32::from(meta != 0 && meta >> 2 == self.generation);
        }
        fresh * 1000 / seen.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_stores_and_forgets_and_its_memory_starts_empty() {
        let mut tt = TranspositionTable::new(1);
        tt.allocate().unwrap();
        assert!(tt.probe(42).is_none());
        tt.new_search();
        tt.store(42, Some(7), -123, 5, Bound::Lower);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.best, e.value, e.depth, e.bound),
            (Some(7), -123, 5, Bound::Lower)
        );
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    /// Keys that share a bucket: the deepest result outlives shallower ones stored after
    /// it, and an older search's entries give way to the new search's.
    #[test]
    fn a_bucket_keeps_its_deepest_entry_and_lets_old_ones_go() {
        let mut tt = TranspositionTable::new(1);
        tt.allocate().unwrap();
        tt.new_search();
        let buckets = tt.count as u128;
        // Keys whose high bits are equal fall in bucket 0.
        let key = |n: u64| n + 1;
        assert!((key(100) as u128 * buckets) >> 64 == 0);
        tt.store(key(0), Some(1), 10, 20, Bound::Exact);
        for n in 1..50 {
            tt.store(key(n), Some(2), 0, 1 + (n % 3) as u32, Bound::Lower);
        }
        assert_eq!(
            tt.probe(key(0)).map(|e| e.depth),
            Some(20),
            "the deep entry stays"
        );
        for _ in 0..4 {
            tt.new_search();
        }
        for n in 50..54 {
            tt.store(key(n), Some(3), 0, 1, Bound::Upper);
        }
        assert!(
            tt.probe(key(0)).is_none(),
            "four searches later it gives way"
        );
        assert!((50..54).all(|n| tt.probe(key(n)).is_some_and(|e| e.fresh)));
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn an_impossible_table_is_refused_with_its_size() {
        let mut tt = TranspositionTable::new(1 << 40);
        let e = tt.allocate().unwrap_err();
        assert_eq!(e.mib, 1 << 40);
        assert!(
            e.to_string()
                .ends_with("MiB for the hash table cannot be allocated"),
            "{e}"
        );
    }
}
