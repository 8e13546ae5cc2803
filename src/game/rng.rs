//! Deterministic random numbers. They live with the games' shared types because the
//! games' Zobrist keys are fixed streams of [`splitmix64`], and the tests, tools and
//! match openings draw from [`Rng`] so that a seed replays the same everywhere.

/// One step of the splitmix64 generator, usable in constants: the games' Zobrist keys
/// come from fixed streams of it, so hashes are the same on every run.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A small deterministic random generator (xorshift64) for the tests' random
/// positions, moves and mutations: the same seed gives the same sequence everywhere.
/// The seed must not be 0.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
