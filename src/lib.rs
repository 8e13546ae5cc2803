//! ludus: an engine for Sena-Mukha, Mentula and Mangala II.
//!
//! ```
//! use ludus::game::Game;
//! use ludus::games::mangala::Position;
//!
//! let mut position = Position::start();
//! let mv = position.parse_move("F").unwrap(); // South sows its pit F
//! position.play(mv);
//! assert_eq!(position.fen(), "6,6,6,6,6,0/7,7,7,7,7,7 N 0 0"); // six for North
//! ```
//!
//! - [`game`]: what every game offers: its rules ([`game::Game`]), its drawings
//!   ([`game::Presentation`]), its [`game::Descriptor`] and the types they share;
//! - [`games`]: the games, one folder each, and the registry that lists them;
//! - [`search`]: the searches, which know no game;
//! - [`perft`], [`record`]: counting move trees, reading and writing game records;
//! - [`options`]: the one option model: every option declared once, read by its kind;
//! - [`engine`]: the one engine every front end talks to (game, options, search);
//! - [`files`]: the files ludus reads and writes: regular files only, within bounds;
//! - [`protocol`]: the native protocol and the UCI, UGI and CECP dialects;
//! - [`analysis`]: `ludus analysis`, JSON queries and responses for scripts;
//! - [`tournament`]: `ludus match`; [`bench`]: the fixed-depth benchmark;
//! - [`web`]: `ludus serve`, the board in the browser, a client of the protocol;
//! - [`cli`]: the `ludus` command line, one room per command.
//!
//! The rules of each game live in `games/<game>/`; everything else talks to them
//! through the [`game::Game`] trait and takes the games from [`games`].

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod engine;
pub mod files;
pub mod game;
pub mod games;
pub mod learning;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod record;
pub mod search;
mod square_board;
pub mod tournament;
pub mod web;
