//! ludus: an engine for Sena-Mukha, Mentula and Mangala II.
//!
//! The rules of each game live in `games/<game>/`; everything else talks to them
//! through the [`game::Game`] trait.

pub mod bench;
pub mod board_text;
pub mod game;
pub mod games;
pub mod perft;
pub mod protocol;
pub mod record;
pub mod search;
pub mod tournament;
