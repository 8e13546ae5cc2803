//! The learning tools, apart from the engine that plays: they make data from the
//! engine's own games and fit evaluations to it. The games meet them only at two hooks
//! (`Searchable::tuning`, a hand-written evaluation's terms; `datagen::Packed`, a
//! position in the data file's form); the search does not use them.
//!
//! - [`selfplay`]: the self-play games both data makers play;
//! - [`datagen`]: `ludus datagen`, positions with scores and results for a network;
//! - [`train`]: `ludus train`, Sena-Mukha's network fitted to datagen files;
//! - [`tuning`]: `ludus tune`, a hand-written evaluation's weights fitted to results
//!   (Texel's method).

pub mod datagen;
pub mod selfplay;
pub mod train;
pub mod tuning;
pub mod wdl;
