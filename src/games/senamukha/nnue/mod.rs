//! A learnt evaluation of Sena-Mukha: a network updated incrementally as men move
//! (NNUE), trained on positions of ludus's own games (`ludus datagen`, `ludus train`).
//!
//! - [`features`]: the inputs, each side's view of which man stands where;
//! - [`network`]: the network in integers, as the search evaluates it, and its file;
//! - [`embedded`]: the network built into the binary;
//! - [`incremental`]: its accumulators kept up to date along the search's line;
//! - `simd`: their arithmetic on whole vectors (AVX2 where the processor has it);
//! - [`train`]: the trainer, in floats.

pub mod embedded;
pub mod features;
pub mod incremental;
pub mod network;
mod simd;

#[cfg(test)]
pub(super) mod tests;
