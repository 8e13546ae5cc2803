//! The transposition table: one entry per slot, allocated once at the size set in MiB,
//! replaced when the new result is deeper or from a newer search; shared without
//! locks by the threads of one search.

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

/// `count` empty slots in zeroed memory, `None` if it cannot be had. Zeroed pages come
/// from the operating system untouched, so even gigabytes are taken at once (the pages
/// are filled as the search first writes them), where writing every slot would take
/// seconds.
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
    slots: Vec<Slot>,
    /// The number of slots; the memory is taken at the first search, not at creation,
    /// so that starting the engine or switching games stays instant.
    count: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of (about) `mib` MiB; at least one slot.
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable {
            slots: Vec::new(),
            count: (mib * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1),
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
            self.slots = zeroed_slots(self.count).ok_or(MemoryError {
                mib: (self.count * std::mem::size_of::<Slot>()) >> 20,
            })?;
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

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots.get(self.index(key))?;
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
    }

    pub fn store(&self, key: u64, best: Option<u32>, value: i32, depth: u32, bound: Bound) {
        let generation = self.generation;
        let Some(slot) = self.slots.get(self.index(key)) else {
            return;
        };
        let word = slot.data.load(Ordering::Relaxed);
        let same = slot.check.load(Ordering::Relaxed) ^ word == key;
        let old = Data::unpack(word);
        if same || old.meta >> 2 != generation || depth as u8 >= old.depth {
            let bound_bits = match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            };
            let data = Data {
                best: best.unwrap_or(if same { old.best } else { 0 }),
                value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.min(255) as u8,
                meta: bound_bits | generation << 2,
            }
            .pack();
            slot.check.store(key ^ data, Ordering::Relaxed);
            slot.data.store(data, Ordering::Relaxed);
        }
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
