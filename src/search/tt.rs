//! The transposition table: one entry per slot, allocated once at the size set in MiB,
//! replaced when the new result is deeper or from a newer search.

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    /// The best move, as the game packs it; 0 for none.
    best: u32,
    value: i16,
    depth: u8,
    /// Bound (2 bits) and generation (6 bits).
    meta: u8,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub best: Option<u32>,
    pub value: i32,
    pub depth: u32,
    pub bound: Bound,
}

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

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = Slot::default());
        self.generation = 0;
    }

    /// Takes the table's memory if it has not yet; the error says when it cannot be had.
    pub fn allocate(&mut self) -> Result<(), String> {
        if self.slots.is_empty() {
            let mut slots = Vec::new();
            slots.try_reserve_exact(self.count).map_err(|_| {
                format!(
                    "{} MiB for the hash table cannot be allocated",
                    (self.count * std::mem::size_of::<Slot>()) >> 20
                )
            })?;
            slots.resize(self.count, Slot::default());
            self.slots = slots;
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
        if slot.key != key || slot.meta == 0 {
            return None;
        }
        let bound = match slot.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            best: (slot.best != 0).then_some(slot.best),
            value: slot.value as i32,
            depth: slot.depth as u32,
            bound,
        })
    }

    pub fn store(&mut self, key: u64, best: Option<u32>, value: i32, depth: u32, bound: Bound) {
        let generation = self.generation;
        let index = self.index(key);
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let old_generation = slot.meta >> 2;
        if slot.key == key || old_generation != generation || depth as u8 >= slot.depth {
            let bound_bits = match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            };
            *slot = Slot {
                key,
                best: best.unwrap_or(if slot.key == key { slot.best } else { 0 }),
                value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.min(255) as u8,
                meta: bound_bits | generation << 2,
            };
        }
    }
}
