//! The games ludus plays, one folder each, and the registry: the one place that lists
//! them and binds each to its search. Everything else (the command line, the dialects,
//! the bench, the match runner) takes the games from here and never names one.
//!
//! ```
//! use ludus::games::{self, Play};
//! use ludus::game::Game;
//!
//! struct Players;
//! impl games::Visitor for Players {
//!     type Output = usize;
//!     fn visit<G: Play>(self) -> usize {
//!         G::PLAYERS.len()
//!     }
//! }
//! assert_eq!(games::visit("mentula", Players), Some(4));
//! assert_eq!(games::NAMES[0], games::DEFAULT);
//! ```
//!
//! Adding a game: a folder here with its position (implementing [`crate::game::Game`],
//! its [`crate::game::Descriptor`] included) and its search
//! ([`crate::search::Searchable`]), then one line in [`NAMES`] and one in [`visit`].

use crate::game::Game;
use crate::search::Searchable;

pub mod mangala;
pub mod mentula;
pub mod senamukha;

/// What every registered game is: searchable, and movable to a work thread with its
/// engine.
pub trait Play: Searchable<Engine: Send> + Game<Move: Send> + Send + 'static {}

impl<G: Searchable<Engine: Send> + Game<Move: Send> + Send + 'static> Play for G {}

/// The games' names, in the order front ends list them.
pub const NAMES: &[&str] = &[
    <senamukha::Position as Game>::NAME,
    <mentula::Position as Game>::NAME,
    <mangala::Position as Game>::NAME,
];

/// The game a session or command starts with.
pub const DEFAULT: &str = NAMES[0];

/// Work to do with one game's types, whichever the game (see [`visit`]).
pub trait Visitor {
    type Output;
    fn visit<G: Play>(self) -> Self::Output;
}

/// Runs `visitor` with the game called `name` (case-insensitive); `None` for a name
/// that is no game.
pub fn visit<V: Visitor>(name: &str, visitor: V) -> Option<V::Output> {
    let is = |n: &str| name.eq_ignore_ascii_case(n);
    Some(if is(senamukha::Position::NAME) {
        visitor.visit::<senamukha::Position>()
    } else if is(mentula::Position::NAME) {
        visitor.visit::<mentula::Position>()
    } else if is(mangala::Position::NAME) {
        visitor.visit::<mangala::Position>()
    } else {
        return None;
    })
}
